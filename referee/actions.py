"""Night requests («заявки»): what a player asked the host to do, as a value type.

Shared by the PM intake (:mod:`referee.intake`), the host's own edits and the night engine
(:mod:`referee.night`). Action ids follow the replay format (issue 6):
check, heal, shoot (mafia, with executor), kill (maniac, ninja), ambush, beat, blow, take,
protect (necromancer: two targets, may be sent during the day).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

ActionId = Literal[
    "check", "heal", "shoot", "kill", "ambush", "beat", "blow", "take", "protect"
]
ACTIONS: tuple[str, ...] = (
    "check", "heal", "shoot", "kill", "ambush", "beat", "blow", "take", "protect",
)

ACTION_OF_ROLE: dict[str, tuple[str, ...]] = {
    "commissar": ("check",),
    "doctor": ("heal",),
    "mafia": ("shoot",),
    "maniac": ("kill", "ambush"),
    "ninja": ("kill",),
    "thug": ("beat",),
    "kamikaze": ("blow",),
    "priest": ("take",),
    "necromancer": ("protect",),
}
"""Which actions each role may request (RULES.md N3–N12). Roles not listed have none."""

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
