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
"""


from __future__ import annotations

from referee.game.activity import ActivityRoom
from referee.game.days import DayRoom
from referee.game.nights import NightRoom
from referee.game.results import (
    ActivityResult,
    Asked,
    DayResult,
    GameEnd,
    GameOver,
    NightResult,
    utcnow,
)


class Game(DayRoom, ActivityRoom, NightRoom):
    """One game: its config, its store and a clock (injectable for tests). Open it with
    :meth:`Game.open`; each room (day, activity, night) is a part of it."""


__all__ = ["ActivityResult", "Asked", "DayResult", "Game", "GameEnd", "GameOver", "NightResult",
           "utcnow"]
