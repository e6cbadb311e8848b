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
from typing import Any, Self

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


class _Asks:
    """A :class:`Game` method or property answered by one of its parts."""

    def __init__(self, part: str) -> None:
        self.part = part
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = self.name or name.lstrip("_")

    def __get__(self, game: Any, owner: type | None = None) -> Any:
        if game is None:
            return self
        return getattr(getattr(game, self.part), self.name)


class _Holds(_Asks):
    """What the game holds (its config, store, clock…), kept by the core and set there."""

    def __set__(self, game: Any, value: Any) -> None:
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
    now = _Asks("core")
    version = _Asks("core")
    close = _Asks("core")
    schedule = _Asks("core")
    window = _Asks("core")
    night_window = _Asks("core")
    current_day = _Asks("core")
    current_night = _Asks("core")
    activity_turn = _Asks("core")
    roster = _Asks("core")
    slot_of = _Asks("core")
    vote_topic_id = _Asks("core")

    # Reading the topic and the inbox.
    sync = _Asks("reading")
    pages_to_recheck = _Asks("reading")

    # The checks of what the host typed.
    scheduled_day = _Asks("refusals")
    scheduled_night = _Asks("refusals")
    known_player = _Asks("refusals")

    # The game before each phase, and its end (W2).
    initial_state = _Asks("states")
    state_before_day = _Asks("states")
    state_before_night = _Asks("states")
    end_before = _Asks("states")
    refuse_after_end = _Asks("states")
    winner = _Asks("states")

    # The day, the night, who leaves and the activity checks.
    tally_day = _Asks("days")
    memo_holds = _Asks("days")
    set_deadline = _Asks("days")
    set_hanged = _Asks("days")
    remove = _Asks("days")
    override_vote = _Asks("days")
    resolve_night = _Asks("nights")
    night_intake = _Asks("nights")
    game_pms = _Asks("nights")
    import_requests = _Asks("nights")
    add_action = _Asks("nights")
    drop_action = _Asks("nights")
    leaving_at = _Asks("leaving")
    morning_after = _Asks("leaving")
    check_activity = _Asks("activity")
    excuse = _Asks("activity")


__all__ = ["ActivityResult", "Asked", "DayResult", "Game", "GameEnd", "GameOver", "NightResult",
           "utcnow"]
