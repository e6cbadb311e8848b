"""Night requests («заявки»): what a player asked the host to do, as a value type.

Shared by the PM intake (:mod:`referee.rules.intake`), the host's own edits and the night engine
(:mod:`referee.rules.night`). The action ids and which role may request which are the role
vocabulary's (:mod:`referee.core.roles`): check, heal, shoot (mafia, with executor), kill (maniac,
ninja), ambush, beat, blow, take, protect (necromancer: two targets, may be sent by day).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

Source = Literal["pm", "host", "file", "replay"]


@dataclass(frozen=True, slots=True)
class Request:
    """One night request as sent (N1). ``order`` keeps the sending order within a night,
    which decides the change-once rule; ``source_id`` points back to the PM (or host edit)
    so every decision can cite what the player actually wrote."""

    actor: str
    action: str
    target: str | None = None
    targets: tuple[str, ...] = ()
    executor: str | None = None
    order: int = 0
    sent_at: datetime | None = None
    source: Source = "pm"
    source_id: str | None = None
    note: str = ""

    def all_targets(self) -> tuple[str, ...]:
        if self.targets:
            return self.targets
        return (self.target,) if self.target else ()
