"""The project's own errors. Every one says what happened and what to do next.

The CLI prints ``str(error)`` and exits with ``error.exit_code``; nothing else is shown
to the host, so messages must never carry a password or cookie value.
"""

from __future__ import annotations


class RefereeError(Exception):
    """Base of every error ``referee`` reports to the host."""

    exit_code = 1

    def __init__(self, message: str, hint: str | None = None) -> None:
        self.message = message
        self.hint = hint
        super().__init__(message if not hint else f"{message}\n  → {hint}")


class ConfigError(RefereeError):
    """``referee.toml`` is missing, unreadable, or a key has a wrong value."""

    exit_code = 2


class ForumError(RefereeError):
    """The forum answered with something we cannot use (network, HTTP status, markup)."""

    exit_code = 3


class TopicNotFound(ForumError):
    pass


class LoginRequired(ForumError):
    pass


class LoginFailed(ForumError):
    pass


class AccessDenied(ForumError):
    """403 / banned / not allowed to read."""


class MalformedPage(ForumError):
    """A page that is not what we expected (not a phpBB topic, a required element missing)."""


class NetworkError(ForumError):
    """Connection failures, timeouts, 5xx after all retries."""


class DateParseError(ForumError, ValueError):
    """A date on a forum page is in a form the referee cannot read (docs/rules.md T2)."""


class PostingError(ForumError):
    """The board did not store a reply or PM the host asked for (every engine raises this
    one). ``maybe_sent`` is True when the answer leaves it open whether it was stored (the
    connection broke after the POST, an answer no engine knows): the host must look before
    running the command again, and ``referee/host/publish.py`` records it as «maybe sent»."""

    def __init__(self, message: str, hint: str | None = None, *,
                 maybe_sent: bool = False) -> None:
        super().__init__(message, hint)
        self.maybe_sent = maybe_sent


class PmRemoved(ForumError):
    """A private message was deleted by its author before it was read; its text is gone."""


class StoreError(RefereeError):
    exit_code = 4


class GameError(RefereeError):
    """The game data does not allow the command (unknown nick, day not in schedule, ...)."""

    exit_code = 5


class RequestRefused(GameError):
    """The host asked for something the game cannot do — a day outside the schedule, a nick
    that is no player, an action the role does not have: refused before anything is
    recorded. Exit code 2, like a wrong option."""

    exit_code = 2
