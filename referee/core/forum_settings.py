"""The plain settings every forum engine receives (:class:`ForumSettings`), kept in the
core so that the game's config can hold them without loading an HTTP client (issue 28:
the rules core imports nothing that does I/O). The engines add the polite client built
from them (:class:`adapters.base.ForumSettings`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class ForumSettings:
    """What an engine needs to reach the board, as plain values (adapters never read the
    game's config): the topic, the forum's time zone, the host's login, politeness. Each
    field but ``cookie_file`` is the ``[forum]`` key of the same name
    (:class:`referee.config.forum.ForumConfig` holds them as they are)."""

    url: str | None = None
    engine: str | None = None
    """The registry name when the host forces it; None: detected from the URL."""
    snapshot: Path | None = None
    """A folder of saved pages read instead of the live board."""
    timezone: str = "UTC"
    username: str | None = None
    rate_limit: float = 2.0
    timeout: float = 20.0
    retries: int = 4
    user_agent: str | None = None
    cookie_file: Path | None = None
    """Where the session cookies live (beside the game database); None: not kept."""
    max_answer_mib: float = 20.0
    """``[forum] max_answer_mib``: the cap on one answer's decoded size (issue 26,
    :mod:`adapters.bounded`): a topic page of a long game is a few hundred kilobytes; an
    answer of 20 MiB is no forum page."""


__all__ = ["ForumSettings"]
