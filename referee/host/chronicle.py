"""The game as played so far, phase after phase («летопись»): each day that is over with its
count, its hanging (V6) and the players who left at its end (A3), each night that is over
with its requests and deaths (N2), until the phase in progress or the end of the game (W2).

It reads the game the way the live commands do — a recorded result stands, a phase that is
over and not recorded yet is counted as ``tally`` and ``resolve-night`` would count it —
and it records nothing: ``status``, ``history`` and ``export`` only look.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from functools import cached_property
from typing import Any

from referee.config.game import DaySchedule
from referee.core.errors import GameError
from referee.game import DayResult, Game, GameEnd, NightResult
from referee.game.results import _request_from
from referee.rules.day.result import CountedVote, Tally
from referee.rules.night import GameResult, GameState, NightOutcome
from referee.rules.night.events import Removed
from referee.rules.night.state import Death
from referee.rules.timeline import DayPlay, NightPlay, play_day, play_night


@dataclass(frozen=True, slots=True)
class Leaving:
    """A player who left the game at the end of a day (A3): activity (A1, A2) or the host's
    ``remove``; ``rule`` as recorded (``A1``, ``A1, A2``, or the host's reason)."""

    nick: str
    rule: str
    explanation: str = ""
    recorded: bool = True
    """False for a removal worked out, its turn's check not recorded yet (A3)."""


@dataclass(frozen=True)
class DayEntry:
    """Day ``day`` as the game applies it: ``hanged`` and his ``voters`` in voting order
    (recorded, the host's word, or the count), then ``leaving`` (A3).

    A recorded day is applied from its record (issue 30): its count (:attr:`result`,
    :attr:`votes`) is worked out only when asked for — ``status`` never asks, so a game
    whose days are all recorded costs the same to look at at any length."""

    day: int
    window: DaySchedule
    count: Callable[[], DayResult] = field(repr=False, compare=False)
    """The day's count (``tally`` without recording), asked for once, when needed."""
    hanged: str | None
    voters: tuple[str, ...]
    leaving: tuple[Leaving, ...]
    recorded: bool
    before: GameState
    after: GameState
    slot_of: Callable[[CountedVote], str] = field(repr=False, compare=False)
    """The roster slot of a vote's voter (a replacement votes for the slot he plays)."""
    recorded_votes: tuple[tuple[str, CountedVote], ...] | None = None
    """The counted votes as the record keeps them (recorded since issue 30), if it does."""

    @cached_property
    def result(self) -> DayResult:
        return self.count()

    @property
    def tally(self) -> Tally:
        return self.result.tally

    @cached_property
    def votes(self) -> tuple[tuple[str, CountedVote], ...]:
        """The counted votes in voting order, each with the roster slot of its voter (a
        replacement votes for the slot he plays, ``[[replacements]]``)."""
        if self.recorded_votes is not None:
            return self.recorded_votes
        return tuple((self.slot_of(v), v) for v in self.tally.votes)

    @property
    def deaths(self) -> tuple[Death, ...]:
        """Who left the game on this day (hanged, removed), in the order they left."""
        return _new_deaths(self.before, self.after)


@dataclass(frozen=True)
class NightEntry:
    """Night ``night`` resolved (N2): recorded, or read from the PMs as it stands. A
    recorded night is replayed from its recorded requests (issue 30): its PMs are read
    (:attr:`result`) only when asked for."""

    night: int
    window: tuple[datetime, datetime]
    resolve: Callable[[], NightResult] = field(repr=False, compare=False)
    recorded: bool
    before: GameState
    after: GameState
    """The game at the start of the next day: the night's deaths, then :attr:`leaving`."""
    outcome: NightOutcome
    leaving_rows: tuple[dict[str, Any], ...] = ()
    """A3: the removals taking effect with the start of the next day (``nick``, ``rule``,
    ``explanation``; ``computed`` while the turn's check is not recorded)."""

    @cached_property
    def result(self) -> NightResult:
        return self.resolve()

    @property
    def deaths(self) -> tuple[Death, ...]:
        return self.outcome.deaths

    @property
    def leaving(self) -> tuple[Leaving, ...]:
        """A3: who leaves with the start of the next day, for a silent turn."""
        return tuple(Leaving(r["nick"], str(r.get("rule", "")), str(r.get("explanation", "")),
                             not r.get("computed")) for r in self.leaving_rows)


Phase = DayEntry | NightEntry


@dataclass(frozen=True)
class Chronicle:
    """Every phase that is over, in game order (T1), and the state now."""

    phases: tuple[Phase, ...]
    state: GameState
    winner: GameResult | None
    """W2: the game's result after the last phase, ``None`` while it goes on."""
    now: datetime

    @property
    def days(self) -> tuple[DayEntry, ...]:
        return tuple(p for p in self.phases if isinstance(p, DayEntry))

    @property
    def nights(self) -> tuple[NightEntry, ...]:
        return tuple(p for p in self.phases if isinstance(p, NightEntry))

    def day(self, n: int) -> DayEntry | None:
        return next((d for d in self.days if d.day == n), None)

    def night(self, n: int) -> NightEntry | None:
        return next((x for x in self.nights if x.night == n), None)

    @property
    def end(self) -> GameEnd | None:
        """W2, N15.14: where the game ended (its last phase) and how; ``None`` while it goes
        on."""
        if self.winner is None or not self.phases:
            return None
        last = self.phases[-1]
        if isinstance(last, DayEntry):
            return GameEnd(self.winner, "day", last.day, last.recorded)
        return GameEnd(self.winner, "night", last.night, last.recorded)

    @property
    def winner_token(self) -> str | None:
        return winner_token(self.winner)

    @property
    def winner_text(self) -> str | None:
        return winner_text(self.winner)


def chronicle(game: Game) -> Chronicle:
    """The game so far: phases while they are over and the game goes on (W2)."""
    state = game.initial_state()
    phases: list[Phase] = []
    for entry in _phases(game, state):
        phases.append(entry)
        state = entry.after
    return Chronicle(tuple(phases), state, game.winner(state), game.now)


def _phases(game: Game, state: GameState) -> Iterator[Phase]:
    for window in game.schedule:
        day = _day(game, state, window)
        if day is None:
            return
        yield day
        state = day.after
        if game.winner(state) is not None:
            return
        night = _night(game, state, window.day)
        if night is None:
            return
        yield night
        state = night.after
        if game.winner(state) is not None:
            return


def _day(game: Game, state: GameState, window: DaySchedule) -> DayEntry | None:
    """Day ``window.day`` as ``Game`` applies it before the next night: the recorded hanging,
    else the count once the deadline has passed; ``None`` while the day goes on. A recorded
    day is not counted again (issue 30): the count is made only if asked for."""
    n = window.day
    stored = game.store.result("day", n)
    if stored is None and game.now < window.deadline:
        return None

    def count() -> DayResult:
        return game.tally_day(n, record=False, _state=state)

    def slot(v: CountedVote) -> str:
        return game.slot_of(v.voter, v.at, v.post_id)

    recorded_votes = None
    if stored is not None:
        hanged = stored.payload.get("hanged")
        voters = tuple(stored.payload.get("voters", []))
        leaving, after = _leaving(game, state, n, hanged, voters,
                                  stored.payload.get("voters_memo"))
        recorded_votes = _recorded_votes(stored.payload)
    else:
        result = count()
        hanged = result.tally.hanged
        voters = voters_of(result.tally, hanged)
        leaving = tuple(Leaving(r["nick"], str(r.get("rule", "")),
                                str(r.get("explanation", "")), not r.get("computed"))
                        for r in result.removals)
        after, _ = play_day(state, DayPlay(n, hanged, voters,
                                           removals=tuple((x.nick, x.rule) for x in leaving)),
                            game.config.night, strict=False)
        count = (lambda r: lambda: r)(result)  # noqa: E731 - counted once already
    return DayEntry(n, window, count, hanged if state.is_alive(hanged) else None, voters,
                    leaving, stored is not None, state, after, slot, recorded_votes)


def _leaving(game: Game, state: GameState, n: int, hanged: str | None,
             voters: tuple[str, ...], memo: Any) -> tuple[tuple[Leaving, ...], GameState]:
    """Who leaves at the end of a recorded day (A3) and the state after it, as
    :meth:`Game.tally_day` works them out (``_day_end``), without counting the day again:
    the day's voters for A2 are those its record keeps (``voters_memo``)."""
    hanging, _ = play_day(state, DayPlay(n, hanged, voters), game.config.night, strict=False)
    today = None
    if isinstance(memo, dict) and "counted" in memo and "rejected" in memo:
        today = (tuple(memo["counted"]), tuple(memo["rejected"]))
    effective = game.leaving_at(("end", n), hanging, before_day=state, today=today)
    after, events = play_day(hanging, DayPlay(n, removals=tuple(
        (r["nick"], r["rule"]) for r in effective)), game.config.night, strict=False)
    gone = [e.player for e in events if isinstance(e, Removed)]
    leaving = []
    for r in effective:
        if r["nick"] in gone:
            gone.remove(r["nick"])
            leaving.append(Leaving(r["nick"], str(r.get("rule", "")),
                                   str(r.get("explanation", "")), not r.get("computed")))
    return tuple(leaving), after


def _recorded_votes(payload: dict[str, Any]) -> tuple[tuple[str, CountedVote], ...] | None:
    """The counted votes a day's record keeps (``votes``: slot, voter, target, post, time),
    or None for a record made before they were kept."""
    rows = payload.get("votes")
    if not isinstance(rows, list):
        return None
    return tuple((r["slot"], CountedVote(r["voter"], r["target"], r["post_id"],
                                         datetime.fromisoformat(r["at"]), r["target"],
                                         "recorded", "")) for r in rows)


def _night(game: Game, state: GameState, n: int) -> NightEntry | None:
    """Night ``n`` once it is over (or recorded); ``None`` before it ends."""
    try:
        start, end = game.night_window(n)
    except GameError:
        return None
    stored = game.store.result("night", n)
    if stored is None and game.now < end:
        return None

    def resolve() -> NightResult:
        return game.resolve_night(n, record=False, _state=state)

    if stored is not None:
        # Replayed from its recorded requests, its PMs not read (issue 30); the morning
        # after it (A3) as resolve-night works it out.
        requests = tuple(_request_from(d) for d in stored.payload["requests"])
        outcome = play_night(state, NightPlay(n, requests, start), game.config.night)
        morning, leaving = game.morning_after(n, outcome.state) if game.now >= end \
            else (outcome.state, [])
    else:
        result = resolve()
        outcome, morning, leaving = result.outcome, result.morning_state, list(result.leaving)
        resolve = (lambda r: lambda: r)(result)  # noqa: E731 - resolved once already
    return NightEntry(n, (start, end), resolve, stored is not None, state, morning, outcome,
                      tuple(leaving))


# ---------------------------------------------------------------------- small helpers

def voters_of(tally: Tally, nick: str | None) -> tuple[str, ...]:
    """Who voted for ``nick``, in voting order (N11 reads this order)."""
    for c in tally.counts:
        if c.target == nick:
            return tuple(v.voter for v in c.voters)
    return ()


def _new_deaths(before: GameState, after: GameState) -> tuple[Death, ...]:
    known = {d.player for d in before.graveyard}
    return tuple(d for d in after.graveyard if d.player not in known)


def winner_token(result: GameResult | None) -> str | None:
    """The result as the JSON outputs write it: ``town``, ``maniac``, ``clan:<name>``,
    ``draw`` (N15.14); ``None`` while the game goes on."""
    return result.token if result is not None else None


def winner_text(result: GameResult | None) -> str | None:
    """«Игра окончена: победа — …» as the summaries say it (W2, N15.14)."""
    return result.explain() if result is not None else None
