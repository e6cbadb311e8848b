"""The night rules engine (RULES.md N1–N14, W1–W2): pure functions over immutable values.

    state = GameState.new(players)
    outcome = resolve_night(state, 1, requests, rules)   # ordered event log + next state
    state, events = apply_day(outcome.state, 2, hanged="Bob", voters_in_order=[...])
    winner(state, rules)

No I/O, no clock: the same state and requests always give the same log.
"""

from referee.night.day import apply_day, remove_player
from referee.night.events import Event
from referee.night.orders import Order
from referee.night.report import morning_report, private_results
from referee.night.resolve import Check, NightOutcome, resolve_night
from referee.night.state import Death, GameState, Protection, Testament
from referee.night.steps import STEPS
from referee.night.win import winner

__all__ = [
    "STEPS",
    "Check",
    "Death",
    "Event",
    "GameState",
    "NightOutcome",
    "Order",
    "Protection",
    "Testament",
    "apply_day",
    "morning_report",
    "private_results",
    "remove_player",
    "resolve_night",
    "winner",
]
