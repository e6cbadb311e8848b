"""The day side of the state: the hanging, removals, and the necromancer's daytime naming.

The night engine needs three things from the day: who died (a dead player no longer acts),
who voted for a hanged ninja and in which order (his testament, N11), and the
necromancer's two names (N9, sent «не ночью»).
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.config.game import NightRules
from referee.core.errors import GameError
from referee.rules.actions import Request
from referee.rules.night.events import Event, Hanged, Removed
from referee.rules.night.kills import Promoted
from referee.rules.night.orders import settle
from referee.rules.night.state import Death, GameState, Testament


def apply_day(
    state: GameState,
    day: int,
    hanged: str | None,
    voters_in_order: Sequence[str],
    *,
    requests: Sequence[Request] = (),
    rules: NightRules | None = None,
) -> tuple[GameState, tuple[Event, ...]]:
    """Record Day ``day``: first the necromancer's naming sent during the day (N9, other
    requests are rejected: night actions are sent at night), then the hanging (V6).

    ``voters_in_order`` are the players who voted for the hanged one, in voting order; a
    hanged ninja leaves them his testament for Night ``day`` (N11). A hanged commissar
    passes the badge to the sergeant for the coming night (N12)."""
    events: list[Event] = []
    if requests:
        intake = settle(state, requests, day, rules or NightRules(), at_night=False)
        events += intake.events
        state = state.evolve(
            protections=state.protections + intake.protections,
            changes_used=intake.changes_used,
        )
    if hanged is None:
        return state, tuple(events)
    _require_alive(state, hanged, f"день {day}: повешенный")
    for voter in voters_in_order:
        if not state.has(voter):
            raise GameError(
                f"день {day}: голосующий {voter!r} — не игрок этой игры",
                "сверьте ник со списком игроков",
            )
    role = state.role_of(hanged)
    events.append(Hanged(hanged, role, day, tuple(voters_in_order)))
    if role == "ninja":
        state = state.evolve(testament=Testament(hanged, day, tuple(voters_in_order)))
    after = state.bury([Death(hanged, ("hanged",), f"day {day}")])
    events += _promotions(state, after, hanged)
    return after, tuple(events)


def remove_player(
    state: GameState, nick: str, reason: str, *, phase: str = ""
) -> tuple[GameState, tuple[Event, ...]]:
    """A1–A3: the player leaves the game outside the night («пропал без вести», the host's
    decision). He dies for the engine: he no longer acts and cannot be targeted; a removed
    commissar passes the badge (N12). A removed ninja leaves no testament (only hanging
    does, N11)."""
    _require_alive(state, nick, "выбывающий игрок")
    role = state.role_of(nick)
    after = state.bury([Death(nick, (f"removed:{reason}",), phase)])
    return after, (Removed(nick, role, reason), *_promotions(state, after, nick))


def _promotions(before: GameState, after: GameState, dead: str) -> list[Event]:
    return [Promoted(s, dead) for s in sorted(after.promoted - before.promoted)]


def _require_alive(state: GameState, nick: str, what: str) -> None:
    if not state.has(nick):
        raise GameError(f"{what} {nick!r} — не игрок этой игры",
                        "сверьте ник со списком игроков")
    if not state.is_alive(nick):
        death = state.death_of(nick)
        phase = (death.phase or "").replace("night", "ночь").replace("day", "день") if death else ""
        when = f" ({phase})" if phase else ""
        raise GameError(f"{what} {nick!r} уже мёртв(а){when}",
                        "мёртвый игрок не может погибнуть снова; проверьте порядок фаз")
