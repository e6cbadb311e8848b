"""The night rules engine (docs/rules.md N1–N15, W1–W2): pure functions over immutable values.

    state = GameState.new(players)
    outcome = resolve_night(state, 1, requests, rules)   # ordered event log + next state
    state, events = apply_day(outcome.state, 2, hanged="Bob", voters_in_order=[...])
    winner(state, rules)                                 # GameResult, or None: it goes on

No I/O, no clock, no rendering: the same state and requests always give the same log; what
players read after a night is :mod:`referee.render.morning`.
"""

from referee.rules.night.day import apply_day, remove_player
from referee.rules.night.events import Event
from referee.rules.night.orders import Order
from referee.rules.night.resolve import Check, NightOutcome, resolve_night
from referee.rules.night.state import Death, GameState, Protection, Testament
from referee.rules.night.steps import STEPS
from referee.rules.night.win import DRAW, MANIAC_WINS, TOWN_WINS, GameResult, clan_wins, winner

__all__ = [
    "DRAW",
    "MANIAC_WINS",
    "STEPS",
    "TOWN_WINS",
    "Check",
    "Death",
    "Event",
    "GameResult",
    "GameState",
    "NightOutcome",
    "Order",
    "Protection",
    "Testament",
    "apply_day",
    "clan_wins",
    "remove_player",
    "resolve_night",
    "winner",
]
