"""The live game as a file (``referee export``): a ``referee replay`` file of the game so far
and every vote event of every day, for a spreadsheet.

The replay file (README «Replay file format»): the roster with the roles as dealt; each day
that is over with its counted votes in voting order — or, where ``referee replay`` counting
them (:func:`referee.host.replay.tally_votes`: the day's own count, V4–V6, with the default
``[rules]``) would not give the game's result (the game's own ``tie`` or ``changes``
setting, the host's ``hang``, a recorded result that stands), the hanged player and his
voters as the game has them; the players who left at the end of the
day (A3); each night that is over with its requests as resolved, in sending order (N1: the
change-once rule reads that order). So ``referee replay`` of the file gives the hangings,
deaths, checks and winner of the live game.

The necromancer's naming sent by day (N9) goes into the day's phase (the replay's way of
saying «sent by day»); one sent at night stays in the night (N15.5).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from referee.game import Game
from referee.host.chronicle import Chronicle, DayEntry, NightEntry, chronicle
from referee.host.replay import tally_votes
from referee.rules.actions import Request
from referee.rules.day.result import Tally
from referee.rules.night import GameState

REPLAY_NOTE = "referee export: идущая игра как файл переигровки (referee replay ФАЙЛ)"


def export_game(game: Game) -> tuple[dict[str, Any], list[VoteEvent]]:
    """The replay file and the vote events of the game so far (nothing is recorded)."""
    story = chronicle(game)
    return replay_file(story), vote_events(game, story)


def replay_file(story: Chronicle) -> dict[str, Any]:
    """The game so far in the replay format (see the module's docstring)."""
    first = story.phases[0].before if story.phases else story.state
    players: list[dict[str, Any]] = []
    for p in first.players:
        entry: dict[str, Any] = {"nick": p.nick, "role": p.role}
        if p.clan:
            entry["clan"] = p.clan
        players.append(entry)
    phases: list[dict[str, Any]] = []
    entries = list(story.phases)
    for i, entry in enumerate(entries):
        if isinstance(entry, DayEntry):
            nxt = entries[i + 1] if i + 1 < len(entries) else None
            by_day = _named_by_day(entry, nxt if isinstance(nxt, NightEntry) else None)
            phases.append(_day_phase(entry, by_day))
        else:
            prev = entries[i - 1] if i > 0 else None
            by_day = _named_by_day(prev, entry) if isinstance(prev, DayEntry) else ()
            phases.append(_night_phase(entry, by_day))
    return {"note": REPLAY_NOTE, "players": players, "phases": phases}


def _day_phase(day: DayEntry, by_day: tuple[Request, ...]) -> dict[str, Any]:
    phase: dict[str, Any] = {"day": day.day}
    votes = [{"voter": voter, "target": v.target} for voter, v in day.votes]
    hanged, voters, _ = tally_votes(day.before, votes) if votes else (None, [], ())
    if (hanged, tuple(voters)) == (day.hanged, day.voters if day.hanged else ()):
        if votes:
            phase["votes"] = votes
    else:
        phase["hanged"] = day.hanged
        phase["voters"] = list(day.voters) if day.hanged else []
    if by_day:
        phase["requests"] = [_request(r) for r in by_day]
    if day.leaving:
        gone = {d.player for d in day.deaths if "hanged" not in d.causes}
        phase["removed"] = [{"player": x.nick, "reason": x.rule} for x in day.leaving
                            if x.nick in gone]
    return phase


def _night_phase(night: NightEntry, by_day: tuple[Request, ...]) -> dict[str, Any]:
    requests = [r for r in _in_order(night.result.requests) if r not in by_day]
    phase: dict[str, Any] = {"night": night.night}
    if requests:
        phase["requests"] = [_request(r) for r in requests]
    if night.leaving:  # A3: out with the next day's start, for a silent turn
        phase["removed"] = [{"player": x.nick, "reason": x.rule} for x in night.leaving]
    return phase


def _named_by_day(day: DayEntry | None, night: NightEntry | None) -> tuple[Request, ...]:
    """N9: the necromancer's namings of this night sent before it began, when the day
    leaves the necromancer and both named alive (otherwise the night rejects the naming,
    and it stays there to be rejected the same way)."""
    if day is None or night is None:
        return ()
    start = night.window[0]
    after: GameState = day.after
    return tuple(
        r for r in _in_order(night.result.requests)
        if r.action == "protect" and r.sent_at is not None and r.sent_at < start
        and all(after.is_alive(n) for n in (r.actor, *r.all_targets()))
    )


def _in_order(requests: tuple[Request, ...]) -> list[Request]:
    """Sending order as the engine reads it (N1: ``order``, then list position)."""
    return [r for _, r in sorted(enumerate(requests), key=lambda ir: (ir[1].order, ir[0]))]


def _request(r: Request) -> dict[str, Any]:
    out: dict[str, Any] = {"actor": r.actor, "action": r.action}
    if r.targets:
        out["targets"] = list(r.targets)
    elif r.target is not None:
        out["target"] = r.target
    if r.executor is not None:
        out["executor"] = r.executor
    return out


# ---------------------------------------------------------------------- vote events

@dataclass(frozen=True, slots=True)
class VoteEvent:
    """One post that counted as a vote or looked like one (V1–V5), for the CSV."""

    day: int
    at: datetime
    post_id: int
    voter: str
    typed: str
    target: str | None
    counted: bool
    rule: str
    """What let it count (``V1–V5``, ``ведущий (засчитал)``) or the first rule that rejected
    it."""
    reason: str
    """The remarks on a counted vote (a near match, an edit), every reason of a rejection."""


def vote_events(game: Game, story: Chronicle) -> list[VoteEvent]:
    """Every vote event of every day over, then of the day in progress, in time order."""
    tallies = [d.tally for d in story.days]
    current = _day_in_progress(game, story)
    if current is not None:
        tallies.append(current)
    out: list[VoteEvent] = []
    for t in tallies:
        events = [VoteEvent(t.day, v.at, v.post_id, v.voter, v.typed, v.target, True,
                            v.accepted_by, "; ".join(str(n) for n in v.flags))
                  for v in t.votes]
        events += [VoteEvent(t.day, r.at, r.post_id, r.voter, r.typed, r.target, False,
                             r.rule, r.label) for r in t.rejected]
        out += sorted(events, key=lambda e: (e.at, e.post_id))
    return out


def _day_in_progress(game: Game, story: Chronicle) -> Tally | None:
    """The count of the day after the last one over, while it goes on (nothing recorded)."""
    if story.winner is not None:
        return None
    done = {d.day for d in story.days}
    for d in game.schedule:
        if d.day not in done and d.start <= game.now:
            return game.tally_day(d.day, record=False, _state=story.state).tally
    return None
