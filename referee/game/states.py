"""The state of the game before each phase, worked out once per run: the phases of the
schedule applied in order (folded by :mod:`referee.rules.timeline`) up to the end of the
game (W2, N15.14), and the refusal of anything after it."""

from __future__ import annotations

from typing import Any, Protocol

from referee.config.game import Config
from referee.core.errors import GameError
from referee.game.core import GameCore
from referee.game.results import (
    Asked,
    DayResult,
    GameEnd,
    GameOver,
    NightResult,
    PhaseKind,
    _request_from,
    _voters_of,
)
from referee.rules.day.activity import Effect
from referee.rules.night import GameState
from referee.rules.night import winner as game_winner
from referee.rules.night.win import GameResult
from referee.rules.timeline import DayPlay, NightPlay, play_day, play_night


class Phases(Protocol):
    """The phases the game's state is played through: a day's count (:mod:`.days`), a
    night's resolution (:mod:`.nights`) and who leaves when (:mod:`.leaving`). Each of them
    asks the state before it, so they are made after :class:`States` and receive it; the
    state reaches them back through this, answered by the :class:`~referee.game.Game` that
    composes them all."""

    def tally_day(self, day: int, *, as_of: Any = None, record: bool = True,
                  _state: GameState | None = None) -> DayResult: ...

    def resolve_night(self, night: int, *, record: bool = True,
                      _state: GameState | None = None) -> NightResult: ...

    def leaving_at(self, effect: Effect, after: GameState, *,
                   before_day: GameState | None = None,
                   today: Any = None) -> list[dict[str, Any]]: ...

    def morning_after(self, night: int, state: GameState
                      ) -> tuple[GameState, list[dict[str, Any]]]: ...


class States:
    """The game before Day or Night N, and its end."""

    def __init__(self, core: GameCore, phases: Phases) -> None:
        self.core = core
        self.phases = phases
        self._chain_key: tuple[Any, int] | None = None
        self._sides: tuple[Config, bool] | None = None

    def initial_state(self) -> GameState:
        return GameState.new(self.core.config.players)

    def state_before_day(self, day: int) -> tuple[GameState, tuple[str, ...]]:
        """The state at the start of Day ``day`` and notes on anything provisional; after
        the end of the game (W2, N15.14) the state it ended with: no phase after the end is
        played, counted or recorded."""
        state, notes, _ = self._played_before(day)
        return state, notes

    def state_before_night(self, night: int) -> tuple[GameState, tuple[str, ...]]:
        state, notes, end = self._played_before(night)
        if end is not None:
            return state, notes
        state, more = self._through_day(state, night)
        return state, notes + more

    def end_before(self, asked: Asked, number: int) -> GameEnd | None:
        """The end of the game (W2, N15.14) before Day or Night ``number``, or None while
        the game goes on there. A turn's activity check is final only when the next day
        starts (A1): the end before Day ``number + 1`` (nobody leaves a game that is over).
        Worked out from what is recorded now — the results and the host's decisions (one
        that changes a phase up to the end can make the game go on) — with a phase that is
        over and not recorded yet counted as every command counts it."""
        state, _, end = self._played_before(number + 1 if asked == "turn" else number)
        if end is None and asked == "night":
            state, _ = self._through_day(state, number)
            end = self._end_after(state, "day", number)
        return end

    def refuse_after_end(self, asked: Asked, number: int, refused: str) -> None:
        """W2, N15.14: once the game is over, nothing after its end is counted, resolved,
        recorded or sent; every command that counts a phase or records a decision about one
        asks here first. ``refused`` says what is not done («День 5 не считается.»). The
        phase that ended the game and those before it stay open to the host's decisions."""
        end = self.end_before(asked, number)
        if end is not None:
            raise GameOver(end, refused)

    def _played_before(self, day: int) -> tuple[GameState, tuple[str, ...], GameEnd | None]:
        """The phases before Day ``day`` applied in order, up to the end of the game."""
        # The states already worked out hold while the clock and the database stand still;
        # the results this run records from them are the ones they were made from.
        if self._chain_key != (self.core.now, self.core.version):
            self.core.after_night.clear()
        state = self.initial_state()
        notes: tuple[str, ...] = ()
        end: GameEnd | None = None
        for k in sorted(d.day for d in self.core.schedule):
            if k >= day or end is not None:
                break
            if k in self.core.after_night:
                state, notes, end = self.core.after_night[k]
                continue
            state, n = self._through_day(state, k)
            notes += n
            end = self._end_after(state, "day", k)
            if end is None:
                state, n = self._through_night(state, k)
                notes += n
                # A3: a silent turn k ends the player's game at the start of Day k+1.
                state, _ = self.phases.morning_after(k, state)
                end = self._end_after(state, "night", k)
            self.core.after_night[k] = (state, notes, end)
        self._chain_key = (self.core.now, self.core.version)
        return state, notes, end

    def _end_after(self, state: GameState, phase: PhaseKind, number: int) -> GameEnd | None:
        won = self.winner(state)
        if won is None:
            return None
        return GameEnd(won, phase, number, self.core.store.result(phase, number) is not None)

    def _through_day(self, state: GameState, day: int) -> tuple[GameState, tuple[str, ...]]:
        """Apply Day ``day``: the hanging (recorded, or counted now if the deadline passed),
        then activity removals effective at its end (A3)."""
        window = self.core.window(day)
        recorded = self.core.store.result("day", day)
        today = None
        if recorded is not None:
            hanged = recorded.payload.get("hanged")
            voters = recorded.payload.get("voters", [])
        elif self.core.now >= window.deadline:
            result = self.phases.tally_day(day, _state=state)
            hanged = result.tally.hanged
            voters = _voters_of(result.tally, hanged)
            today = (result.tally.counted_voters, result.tally.rejected_voters)
        else:
            return state, ()
        return self.day_end_state(state, day, hanged, tuple(voters), today), ()

    def day_end_state(self, state: GameState, day: int, hanged: str | None,
                      voters: tuple[str, ...], today: Any = None) -> GameState:
        """The game after Day ``day``: the hanging (V6), then who leaves at its end (A3),
        recorded or worked out (:meth:`referee.game.leaving.Leaving.leaving_at`)."""
        hanging, _ = play_day(state, DayPlay(day, hanged, voters), self.core.config.night,
                              strict=False)
        leaving = self.phases.leaving_at(
            ("end", day), hanging, before_day=state, today=today)
        removals = tuple((r["nick"], r["rule"]) for r in leaving)
        after, _ = play_day(hanging, DayPlay(day, removals=removals), self.core.config.night,
                            strict=False)
        return after

    def _through_night(self, state: GameState, night: int) -> tuple[GameState, tuple[str, ...]]:
        try:
            start, end = self.core.night_window(night)
        except GameError:
            return state, ()
        if self.core.now < start:
            return state, ()
        stored = self.core.store.result("night", night)
        if stored is None and not all(p.role_given for p in self.core.config.players):
            return state, (f"Ночь {night} не разрешена: роли не розданы (referee deal), "
                           "живые посчитаны без её итога.",)
        if stored is not None:
            # A recorded night is replayed from its recorded requests: no PM is read again.
            requests = tuple(_request_from(d) for d in stored.payload["requests"])
            return play_night(state, NightPlay(night, requests, start),
                              self.core.config.night).state, ()
        result = self.phases.resolve_night(night, record=False, _state=state)
        notes: tuple[str, ...] = ()
        if not result.already_recorded:
            if self.core.now < end:
                return state, ()
            dead = ", ".join(d.player for d in result.outcome.deaths) or "никто"
            notes = (
                f"Ночь {night} ещё не записана: живые посчитаны по предварительному разрешению "
                f"ночи из ЛС (погибли: {dead}). Проверьте: referee resolve-night --night {night}",
            )
        return result.outcome.state, notes

    def winner(self, state: GameState) -> GameResult | None:
        """W2, N15.14: how the game ended in ``state``; None while it goes on. A game whose
        sides are not known yet (a role not dealt) or that has none to play against (every
        player town: a count of votes only) never ends so."""
        if self._sides is None or self._sides[0] is not self.core.config:
            has_sides = (all(p.role_given for p in self.core.config.players)
                         and game_winner(self.initial_state(), self.core.config.night) is None)
            self._sides = (self.core.config, has_sides)
        return game_winner(state, self.core.config.night) if self._sides[1] else None
