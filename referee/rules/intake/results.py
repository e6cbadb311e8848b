"""What the intake gives back for one PM: requests, doubtful nicks and what was not read."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from referee.rules.actions import Request

UnreadableKind = Literal[
    "non_player",  # the sender is not in the game
    "empty",  # nothing of the sender's own (only quotes, or blank)
    "chatty",  # no request, and the role has no night action (a citizen's chat)
    "no_action",  # no action word of the sender's role
    "skip",  # the player says he skips the night
    "not_allowed",  # an action word of another role
    "negated",  # «не проверяю …»
    "no_target",  # an action word with no nick after it
    "unknown_nick",  # the typed name matches no player
    "ambiguous_nick",  # the typed name could be two players
    "two_targets",  # two players named for a one-target action
    "doubt",  # hesitation, a condition, a question, «бы», alternatives: the host decides
    "follow_up",  # a later PM naming only a nick or taking back: not sure what it changes
    "outside_window",  # a request sent outside the night window (read_night)
    "necromancer_turn",  # a necromancer's day request after turn 3 (N9)
]


@dataclass(frozen=True, slots=True)
class Unreadable:
    """What could not be read from a PM, and why (N14). ``excerpt`` is the line concerned."""

    pm_id: int | None
    sender: str
    kind: str
    reason: str
    excerpt: str = ""
    sent_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class IntakeFlag:
    """A nick read with some doubt (near match or a case ending): counted, but the host
    should glance at it (docs/rules.md V2 applied to night requests)."""

    pm_id: int | None
    actor: str
    typed: str
    nick: str
    kind: str  # near | inflected
    note: str


@dataclass(frozen=True, slots=True)
class Withdrawal:
    """A player takes back his earlier request(s) of the night («Отменяю проверку»):
    ``action`` is the one taken back, ``None`` for all of them. ``order`` is where it stands
    among the night's requests (a new request after it is a change, N1)."""

    pm_id: int | None
    actor: str
    action: str | None
    order: int
    excerpt: str
    sent_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Withdrawn:
    """A request the player took back (listed «Отозвано игроками»): it is not carried out
    and does not use up the change of N1."""

    request: Request
    withdrawal: Withdrawal


@dataclass(frozen=True, slots=True)
class Late:
    """A PM at or after the night's deadline (T2): not counted for this night, listed."""

    pm_id: int | None
    sender: str
    sent_at: datetime
    read: str


@dataclass(frozen=True, slots=True)
class IntakeResult:
    """The requests read from one PM, with flags, take-backs and what could not be read."""

    requests: tuple[Request, ...] = ()
    flags: tuple[IntakeFlag, ...] = ()
    unreadable: tuple[Unreadable, ...] = ()
    withdrawals: tuple[Withdrawal, ...] = ()


def join_notes(parts: Sequence[str]) -> str:
    """The notes of a request, in one line: «засада; исправление заявки …»."""
    return "; ".join(p for p in parts if p)
