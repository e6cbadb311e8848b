"""The game's phases folded over its state, in the order T1 gives: Day N (the hanging, V6),
the players who leave at its end (A3), then Night N (N2).

Pure: a state and what a phase decided in, the next state and its events out. The live game
(:class:`referee.game.Game`, from the forum and the record) and a replay file
(:mod:`referee.host.replay`) both go through here, so a phase means the same in both.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from referee.config.game import NightRules
from referee.rules.actions import Request
from referee.rules.night import GameState, NightOutcome, apply_day, remove_player, resolve_night
from referee.rules.night.events import Event


@dataclass(frozen=True, slots=True)
class DayPlay:
    """What Day ``day`` decided: who is hanged (V6) and who voted for him, in voting order
    (a hanged ninja's testament, N11); the necromancer's naming sent by day (N9); who leaves
    at the end of the day (A3), each with the reason shown."""

    day: int
    hanged: str | None = None
    voters: tuple[str, ...] = ()
    requests: tuple[Request, ...] = ()
    removals: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class NightPlay:
    """Night ``night``'s requests, as read from the PMs with the host's edits (N1).
    ``night_start``: when the night began — a necromancer's naming sent before it was
    sent by day and covers this night (N9), one sent during it the next (N15.5)."""

    night: int
    requests: tuple[Request, ...] = ()
    night_start: datetime | None = None


def play_day(state: GameState, play: DayPlay, rules: NightRules, *,
             strict: bool = True) -> tuple[GameState, tuple[Event, ...]]:
    """Day ``play.day`` applied to ``state``: the hanging, then the removals.

    ``strict`` (a replay file): a hanged or removed player who is not alive is an error.
    Otherwise (the live game's record, where a host decision may name a player who has died
    since) such an entry is passed over, and voters who are no players are left out."""
    events: list[Event] = []
    hanged = play.hanged
    voters = play.voters
    if not strict:
        hanged = hanged if hanged is not None and state.is_alive(hanged) else None
        voters = tuple(v for v in voters if state.has(v))
    if hanged is not None or play.requests:
        state, day_events = apply_day(state, play.day, hanged, voters,
                                      requests=play.requests, rules=rules)
        events += day_events
    for nick, reason in play.removals:
        if not strict and not state.is_alive(nick):
            continue
        state, removed = remove_player(state, nick, reason, phase=f"day {play.day}")
        events += removed
    return state, tuple(events)


def play_night(state: GameState, play: NightPlay, rules: NightRules) -> NightOutcome:
    """Night ``play.night`` resolved in N2 order."""
    return resolve_night(state, play.night, play.requests, rules,
                         night_start=play.night_start)
