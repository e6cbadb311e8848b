"""``[forum]``: the engine's plain settings (:class:`ForumSettings`: which board, in which
time zone, as whom, the limits on what is read from it) and the game's own keys of the
table. Kept apart from :mod:`referee.config.game`, which re-exports :class:`ForumConfig`."""

from __future__ import annotations

import importlib.util
import pkgutil
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from referee.core.forum_settings import ForumSettings

DEFAULT_REREAD_EVERY = 240.0
"""``[forum] reread_every``: a watch reads the open day's earlier pages again every 4 hours
(and always right after the deadline): a day of ``watch --every 10`` stays within a few
hundred requests (benchmarks/README.md)."""
DEFAULT_REREAD_BEFORE = 60.0
"""``[forum] reread_before_deadline``: once more in the last hour, for the reminder."""
DEFAULT_PM_EVERY_BY_DAY = 60.0
"""``[forum] pm_every_by_day``: while a day is open a watch lists the inbox once an hour —
night requests sent by day count for the next night (docs/rules.md N1), which is read
after its deadline — and always once after each deadline."""
DEFAULT_PM_EVERY_BY_NIGHT = 0.0
"""``[forum] pm_every_by_night``: by night, at every round."""


@dataclass(frozen=True, slots=True)
class ForumConfig:
    """``[forum]``: the board as an engine receives it, and what only the game reads of the
    same table (where votes are linked, the sent folder, a watch's cadence)."""

    board: ForumSettings = field(default_factory=ForumSettings)
    """Which board, in which time zone, as whom, how politely (the cookie file is the
    game database's: :meth:`settings`)."""
    vote_url: str | None = None
    read_sent: bool = False
    reread_every: float = DEFAULT_REREAD_EVERY
    """Minutes between two re-reads of the open day's earlier pages by ``referee watch``
    (issue 30, :mod:`referee.game.reread`); 0: at every round."""
    reread_before_deadline: float = DEFAULT_REREAD_BEFORE
    """One more re-read when this many minutes before the deadline begin; 0: none."""
    pm_every_by_day: float = DEFAULT_PM_EVERY_BY_DAY
    """Minutes between two readings of the inbox by ``referee watch`` (and ``referee sync``)
    outside the nights (:mod:`referee.game.reread`); 0: at every round."""
    pm_every_by_night: float = DEFAULT_PM_EVERY_BY_NIGHT
    """The same by night (from a day's deadline to its night's); 0: at every round."""

    def settings(self, cookie_file: Path | None = None) -> ForumSettings:
        """The plain settings an engine receives (adapters never read the config)."""
        return replace(self.board, cookie_file=cookie_file)


def forum_config(raw: Mapping[str, Any], folder: Path) -> ForumConfig:
    """``[forum]`` as the schema has checked it (:data:`referee.config.schema.TABLES`); a
    saved-pages folder is relative to the config's ``folder``."""
    d = ForumSettings()
    snapshot = raw.get("snapshot")
    board = ForumSettings(
        url=raw.get("url"), engine=raw.get("engine"),
        snapshot=folder / snapshot if snapshot else None,
        timezone=raw.get("timezone", d.timezone), username=raw.get("username"),
        rate_limit=float(raw.get("rate_limit", d.rate_limit)),
        timeout=float(raw.get("timeout", d.timeout)), retries=raw.get("retries", d.retries),
        user_agent=raw.get("user_agent"),
        max_answer_mib=float(raw.get("max_answer_mib", d.max_answer_mib)),
    )
    # A watch's cadence: minutes, each with the default the field has.
    minutes = {f.name: float(raw.get(f.name, f.default)) for f in fields(ForumConfig)
               if f.name.startswith(("reread_", "pm_every_"))}
    return ForumConfig(board, vote_url=raw.get("vote_url"),
                       read_sent=raw.get("read_sent", False), **minutes)


def engine_names() -> tuple[str, ...]:
    """The engine packages under ``adapters/`` by folder name, found without importing
    them: the registry (:func:`adapters.registry.engine_names`) names each engine after its
    folder, and importing it would load the HTTP client into every offline command
    (issue 30: offline commands import no HTTP client). ``tests/config`` keeps the two
    lists equal."""
    spec = importlib.util.find_spec("adapters")
    if spec is None or spec.submodule_search_locations is None:
        return ()
    found = pkgutil.iter_modules(list(spec.submodule_search_locations))
    return tuple(sorted(i.name for i in found if i.ispkg))


__all__ = ["ForumConfig", "engine_names", "forum_config"]
