"""The game as the host runs it: config + store + the rules, one phase after another.

This is the library layer under the CLI (sqlite-utils style: every command is a few lines
over a method here, and tests call these methods directly). It is the only place that
knows the order of a game (docs/rules.md T1): Day N (tally → hanging, V6), the end of Day N
(activity removals, A3), Night N (requests → deaths, N1–N14), then Day N+1.

Who is alive on a day comes from what the game has recorded (``results`` in the store):
each day's hanging once its deadline has passed, each night's resolution once the host has
resolved it, activity removals once final. A night that is over but not resolved yet is
resolved provisionally from the stored PMs, and every output says so, so that a vote for a
player the night killed is not counted silently.

:class:`Game` is made of parts, each given the parts it uses when it is made
(:meth:`Game.__init__` shows who uses whom); its methods are the parts' own, named where
they are answered.
"""


from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any, Concatenate, Generic, ParamSpec, Self, TypeVar, overload

from referee.config.game import Config, load_config
from referee.core.errors import GameError
from referee.game.activity import Activity
from referee.game.core import GameCore
from referee.game.days import Days
from referee.game.dealing import with_recorded_roster
from referee.game.leaving import Leaving
from referee.game.nights import Nights
from referee.game.reading import Reading
from referee.game.refusals import Refusals
from referee.game.results import (
    ActivityResult,
    Asked,
    DayResult,
    GameEnd,
    GameOver,
    NightResult,
    utcnow,
)
from referee.game.states import States
from referee.store import Store

P = ParamSpec("P")
R = TypeVar("R")


class _Asks(Generic[P, R]):
    """A :class:`Game` method answered by one of its parts: ``_Asks("days", Days.tally_day)``
    is ``game.days.tally_day``, with its signature."""

    def __init__(self, part: str, answer: Callable[Concatenate[Any, P], R]) -> None:
        self.part = part
        self.name = answer.__name__

    @overload
    def __get__(self, game: None, owner: type) -> Self: ...

    @overload
    def __get__(self, game: object, owner: type | None = None) -> Callable[P, R]: ...

    def __get__(self, game: object, owner: type | None = None) -> Any:
        if game is None:
            return self
        return getattr(getattr(game, self.part), self.name)


class _Reads:
    """A property of one of the game's parts (``now``, ``schedule``…), read there."""

    def __init__(self, part: str, answer: property) -> None:
        self.part = part
        self.name = answer.fget.__name__ if answer.fget is not None else ""

    def __get__(self, game: object, owner: type | None = None) -> Any:
        if game is None:
            return self
        return getattr(getattr(game, self.part), self.name)


class _Holds:
    """What the game holds (its config, store, clock…), kept by the core and set there."""

    def __init__(self, part: str) -> None:
        self.part = part
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name.lstrip("_")

    def __get__(self, game: object, owner: type | None = None) -> Any:
        if game is None:
            return self
        return getattr(getattr(game, self.part), self.name)

    def __set__(self, game: object, value: Any) -> None:
        setattr(getattr(game, self.part), self.name, value)


class Game:
    """One game: its config, its store and a clock (injectable for tests). Open it with
    :meth:`Game.open`."""

    def __init__(self, config: Config, store: Store,
                 clock: Callable[[], datetime] = utcnow) -> None:
        self.core = GameCore(config, store, clock)
        self.refusals = Refusals(self.core)
        # The state before a phase is played through the phases, which ask it in turn:
        # the game stands between them (:class:`referee.game.states.Phases`).
        self.states = States(self.core, phases=self)
        self.leaving = Leaving(self.core, self.states, phases=self)
        self.days = Days(self.core, self.refusals, self.states, self.leaving)
        self.nights = Nights(self.core, self.refusals, self.states, self.leaving)
        self.activity = Activity(self.core, self.refusals, self.states, self.leaving)
        self.reading = Reading(self.core, held_text=self._post_held_text)

    @classmethod
    def open(
        cls,
        config_path: str | Path,
        db_path: str | Path | None = None,
        clock: Callable[[], datetime] = utcnow,
    ) -> Self:
        config = load_config(config_path)
        store = Store.open(Path(db_path) if db_path else config.db_path)
        try:
            # Every command plays with the roster ``referee deal`` recorded.
            config = with_recorded_roster(config, store)
        except GameError:
            store.close()
            raise
        return cls(config, store, clock)

    def _post_held_text(self, post_id: int) -> str:
        """What a post gone from its page held, by the day's count (tally's rule)."""
        from referee.game.daystate import post_held

        return post_held(self, post_id).text

    # What the game holds, and what the run has worked out (the tests look into it).
    config = _Holds("core")
    store = _Holds("core")
    clock = _Holds("core")
    roster_ok = _Holds("core")
    _tallies = _Holds("core")
    _nights = _Holds("core")
    _after_night = _Holds("core")

    # The core: the clock, the schedule (T1) and the roster.
    now = _Reads("core", GameCore.now)
    version = _Reads("core", GameCore.version)
    close = _Asks("core", GameCore.close)
    schedule = _Reads("core", GameCore.schedule)
    window = _Asks("core", GameCore.window)
    night_window = _Asks("core", GameCore.night_window)
    current_day = _Asks("core", GameCore.current_day)
    current_night = _Asks("core", GameCore.current_night)
    activity_turn = _Asks("core", GameCore.activity_turn)
    roster = _Asks("core", GameCore.roster)
    slot_of = _Asks("core", GameCore.slot_of)
    vote_topic_id = _Reads("core", GameCore.vote_topic_id)

    # Reading the topic and the inbox.
    sync = _Asks("reading", Reading.sync)
    pages_to_recheck = _Asks("reading", Reading.pages_to_recheck)

    # The checks of what the host typed.
    scheduled_day = _Asks("refusals", Refusals.scheduled_day)
    scheduled_night = _Asks("refusals", Refusals.scheduled_night)
    known_player = _Asks("refusals", Refusals.known_player)

    # The game before each phase, and its end (W2).
    initial_state = _Asks("states", States.initial_state)
    state_before_day = _Asks("states", States.state_before_day)
    state_before_night = _Asks("states", States.state_before_night)
    end_before = _Asks("states", States.end_before)
    refuse_after_end = _Asks("states", States.refuse_after_end)
    winner = _Asks("states", States.winner)

    # The day, the night, who leaves and the activity checks.
    tally_day = _Asks("days", Days.tally_day)
    memo_holds = _Asks("days", Days.memo_holds)
    set_deadline = _Asks("days", Days.set_deadline)
    set_hanged = _Asks("days", Days.set_hanged)
    remove = _Asks("days", Days.remove)
    override_vote = _Asks("days", Days.override_vote)
    resolve_night = _Asks("nights", Nights.resolve_night)
    night_intake = _Asks("nights", Nights.night_intake)
    game_pms = _Asks("nights", Nights.game_pms)
    import_requests = _Asks("nights", Nights.import_requests)
    add_action = _Asks("nights", Nights.add_action)
    drop_action = _Asks("nights", Nights.drop_action)
    leaving_at = _Asks("leaving", Leaving.leaving_at)
    morning_after = _Asks("leaving", Leaving.morning_after)
    check_activity = _Asks("activity", Activity.check_activity)
    excuse = _Asks("activity", Activity.excuse)


__all__ = ["ActivityResult", "Asked", "DayResult", "Game", "GameEnd", "GameOver", "NightResult",
           "utcnow"]
