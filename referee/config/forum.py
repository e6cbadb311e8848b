"""``[forum]``: which board, in which time zone, as whom — and the limits on what is read
from it (issue 26: ``max_answer_mib``). Kept apart from :mod:`referee.config.game`, which
re-exports :class:`ForumConfig`."""

from __future__ import annotations

import importlib.util
import pkgutil
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from referee.core.forum_settings import ForumSettings

DEFAULT_MAX_ANSWER_MIB = 20.0
"""``[forum] max_answer_mib``: a topic page of a long game is a few hundred kilobytes; an
answer of 20 MiB is no forum page."""

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
    """``[forum]``: which board, in which time zone, as whom."""

    engine: str | None = None
    """A registry name (``"phpbb"``); None: the engine is detected from the topic URL."""
    url: str | None = None
    vote_url: str | None = None
    snapshot: Path | None = None
    timezone: str = "UTC"
    username: str | None = None
    rate_limit: float = 2.0
    timeout: float = 20.0
    retries: int = 4
    user_agent: str | None = None
    read_sent: bool = False
    max_answer_mib: float = DEFAULT_MAX_ANSWER_MIB
    """The cap on the decoded size of one answer of the forum, in MiB (issue 26)."""
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
        # Every engine setting but the cookie file is a [forum] key of the same name.
        same = {f.name: getattr(self, f.name) for f in fields(ForumSettings)
                if f.name != "cookie_file"}
        return ForumSettings(**same, cookie_file=cookie_file)


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


def forum_limits(forum_raw: Mapping[str, Any]) -> dict[str, Any]:
    """The ``[forum]`` limits as :class:`ForumConfig` keywords (the schema has checked
    them: :data:`referee.config.schema.TABLES`)."""
    return {
        "max_answer_mib": float(forum_raw.get("max_answer_mib", DEFAULT_MAX_ANSWER_MIB)),
        "reread_every": float(forum_raw.get("reread_every", DEFAULT_REREAD_EVERY)),
        "reread_before_deadline": float(
            forum_raw.get("reread_before_deadline", DEFAULT_REREAD_BEFORE)),
        "pm_every_by_day": float(forum_raw.get("pm_every_by_day", DEFAULT_PM_EVERY_BY_DAY)),
        "pm_every_by_night": float(
            forum_raw.get("pm_every_by_night", DEFAULT_PM_EVERY_BY_NIGHT)),
    }


__all__ = ["DEFAULT_MAX_ANSWER_MIB", "ForumConfig", "engine_names", "forum_limits"]
