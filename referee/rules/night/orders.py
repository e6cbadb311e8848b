"""From the requests players sent to the orders the night will carry out (N1, N14).

Two passes: every request is checked on its own (:func:`validate`, N14 — a broken request
is rejected with a reason, never dropped), then each requester's valid requests are read in
sending order (:func:`settle`, N1 — the first counts, one change per game).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from referee.config.game import NightRules
from referee.core.roles import ACTION_OF_ROLE, ACTIONS, CLAN_ROLES, role_ru
from referee.rules.actions import Request
from referee.rules.night.events import (
    ChangeIgnored,
    Event,
    ProtectionNamed,
    RequestChanged,
    RequestRejected,
    RequestRepeated,
)
from referee.rules.night.state import GameState, Protection


@dataclass(frozen=True, slots=True)
class Order:
    """A request that passed N14 and N1: what the night will try to carry out.

    ``requester`` is the nick, or ``clan:<name>`` for a mafia order (N1: a clan counts as
    one requester); ``actor`` is who acts — for a mafia shot, the executor (N5)."""

    requester: str
    actor: str
    action: str
    targets: tuple[str, ...]
    request: Request
    clan: str | None = None

    @property
    def target(self) -> str | None:
        return self.targets[0] if self.targets else None


@dataclass(frozen=True, slots=True)
class Rejection:
    reason: str
    rule: str = "N14"


def requester_of(state: GameState, request: Request) -> str:
    """N1: a mafia clan's orders count as one requester; everyone else is himself."""
    if request.action == "shoot" and state.has(request.actor):
        clan = state.clan_of(request.actor)
        if clan:
            return f"clan:{clan}"
    return request.actor


def validate(
    state: GameState, request: Request, turn: int, rules: NightRules, *, at_night: bool = True
) -> Rejection | None:
    """N14: why this request cannot be carried out, or ``None`` when it can.

    N15.13: a request aimed at a player dead before the night is rejected. N15.9: «not
    twice in a row» compares with the last target that stood (an accepted request, carried
    out or not; :attr:`GameState.last_targets`), so a rejected one never counts.

    ``turn`` is the night's number (or the day's, for a necromancer naming by day)."""
    actor, action = request.actor, request.action
    if not state.has(actor):
        return Rejection(f"«{actor}» — нет такого игрока")
    if action not in ACTIONS:
        return Rejection(f"неизвестное действие «{action}»")
    if not state.is_alive(actor):
        return Rejection(f"{actor} мёртв — мёртвые не ходят")
    role = state.role_of(actor)
    if action not in ACTION_OF_ROLE.get(role, ()):
        return Rejection(f"роль {role_ru(role)} не может делать это")
    if not at_night and action != "protect":
        return Rejection("днём принимается только заявка некроманта (N9); ночные ходы — ночью")
    targets = request.all_targets()
    for t in targets:
        if not state.has(t):
            return Rejection(f"«{t}» — нет такого игрока")
        if not state.is_alive(t):
            # N15.13 (N15.5 for a naming): a player dead before the night is out of play.
            return Rejection(f"{t} уже мёртв", "N15.5" if action == "protect" else "N15.13")
    if action == "protect":
        return _validate_protect(state, request, turn, rules)
    if action == "ambush":
        return _validate_ambush(state, request, turn, rules)
    if len(targets) != 1:
        return Rejection("нужна ровно одна цель")
    target = targets[0]
    if target == actor:
        rule = {"heal": "N8", "take": "N3", "beat": "N4"}.get(action, "N14")
        return Rejection("нельзя выбрать себя", rule)
    last = state.last_targets.get(actor)
    if action in ("heal", "take", "beat") and last == (turn - 1, target):
        rule = {"heal": "N8", "take": "N3", "beat": "N4"}[action]
        return Rejection(f"{target} уже был целью прошлой ночью — два раза подряд нельзя", rule)
    if action == "shoot":
        return _validate_shoot(state, request, target)
    if action == "blow" and actor in state.kamikaze_used:
        return Rejection("камикадзе уже подорвал — подрыв один на игру", "N7")
    return None


def _validate_shoot(state: GameState, request: Request, target: str) -> Rejection | None:
    """N5: a clan cannot shoot its own ВСБ. N15.11: the executor is a living Мафия of the
    ordering clan (the sender, who is one, by default); a thug, a kamikaze, a ВСБ or
    another clan's member named as executor — the order is rejected (N14)."""
    clan = state.clan_of(request.actor)
    if state.role_of(target) == "boss_son" and state.clan_of(target) == clan:
        return Rejection(f"{target} — ВСБ этого клана, его клан стрелять в него не может", "N5")
    ex = request.executor
    if ex is not None:
        if not state.has(ex):
            return Rejection(f"исполнитель «{ex}» — нет такого игрока")
        if not state.is_alive(ex):
            return Rejection(f"исполнитель {ex} мёртв", "N15.11")
        if state.role_of(ex) not in CLAN_ROLES or state.clan_of(ex) != clan:
            return Rejection(f"исполнитель {ex} не член клана {clan}", "N15.11")
        if state.role_of(ex) != "mafia":
            return Rejection(
                f"исполнитель {ex} — {role_ru(state.role_of(ex))}: стреляет только Мафия "
                f"клана {clan}", "N15.11")
    return None


def _validate_ambush(
    state: GameState, request: Request, turn: int, rules: NightRules
) -> Rejection | None:
    """N6: not two nights in a row, unless the setting allows it."""
    if request.all_targets():
        return Rejection("засада не имеет цели: маньяк ждёт у себя", "N6")
    if not rules.maniac_ambush_twice_in_a_row and state.last_ambush.get(request.actor) == turn - 1:
        return Rejection("засада две ночи подряд запрещена", "N6")
    return None


def _validate_protect(
    state: GameState, request: Request, turn: int, rules: NightRules
) -> Rejection | None:
    """N9: turns 1–3, two different living players other than himself, once per game
    (N15.5: naming himself or a dead player is rejected)."""
    targets = request.all_targets()
    if turn > rules.necromancer_turns:
        return Rejection(
            f"некромант выбирает только в течение ходов 1–{rules.necromancer_turns}", "N9"
        )
    if any(p.necromancer == request.actor for p in state.protections):
        return Rejection("некромант уже назвал своих двоих — это делается один раз", "N9")
    if len(targets) != 2 or targets[0] == targets[1]:
        return Rejection("нужно назвать двух разных игроков", "N9")
    if request.actor in targets:
        return Rejection("себя воскрешать нельзя", "N15.5")
    return None


def _key(request: Request) -> tuple[str, tuple[str, ...]]:
    """N1: what makes a later request a change: another action or another target."""
    return request.action, request.all_targets()


@dataclass(frozen=True, slots=True)
class Intake:
    """The result of reading one phase's requests."""

    events: tuple[Event, ...]
    orders: tuple[Order, ...]
    protections: tuple[Protection, ...]
    changes_used: dict[str, int]


def settle(
    state: GameState,
    requests: Sequence[Request],
    turn: int,
    rules: NightRules,
    *,
    at_night: bool = True,
    night_start: datetime | None = None,
) -> Intake:
    """N14 then N1 for one phase's requests.

    Requests are read in sending order (``Request.order``, then list position). For each
    requester the first valid request counts; the first later one with another target (or
    another action) replaces it while the requester has a change left for the game
    (``request_changes_per_game``); any further change is ignored and flagged. Only
    changes touching ``change_limited_actions`` (kill, check, heal: the seed's words) are
    limited; a take, a beating, an ambush or a naming may be changed freely. A repeat of
    the current target is not a change (a clan member confirming the clan's shot may name
    the executor). Invalid requests are rejected before this and never count as the
    request or as a change (N15.10: a request after a rejected one is no change; replacing
    a change-limited request by another action of the same player is one).

    A necromancer's naming (N9) works from the night of its turn when it was sent by day:
    in a day phase (``at_night=False``), or, with the night's requests, sent before
    ``night_start``. N15.5: a naming sent during the night (or with no sending time)
    counts from the next night."""
    events: list[Event] = []
    valid: list[Request] = []
    ordered = sorted(enumerate(requests), key=lambda ir: (ir[1].order, ir[0]))
    for _, req in ordered:
        why = validate(state, req, turn, rules, at_night=at_night)
        if why is None:
            valid.append(req)
        else:
            events.append(RequestRejected(req, why.reason, why.rule))

    groups: dict[str, list[Request]] = {}
    for req in valid:
        groups.setdefault(requester_of(state, req), []).append(req)

    used = dict(state.changes_used)
    limit = rules.request_changes_per_game
    orders: list[Order] = []
    protections: list[Protection] = []
    for requester, reqs in groups.items():
        current = reqs[0]
        executor = current.executor
        for later in reqs[1:]:
            if _key(later) == _key(current):
                named = later.executor if later.executor and later.executor != executor else None
                if named:
                    executor = named
                events.append(RequestRepeated(requester, later, named))
            elif (current.action not in rules.change_limited_actions
                  and later.action not in rules.change_limited_actions):
                # N1 limits changes of kill/check/heal requests only.
                events.append(RequestChanged(requester, current, later,
                                             used.get(requester, 0), limit, limited=False))
                current, executor = later, later.executor
            elif used.get(requester, 0) < limit:
                used[requester] = used.get(requester, 0) + 1
                rule = "N15.10" if later.action != current.action else "N1"
                events.append(RequestChanged(requester, current, later, used[requester], limit,
                                             rule))
                current, executor = later, later.executor
            else:
                events.append(ChangeIgnored(requester, later, current))
        clan = state.clan_of(current.actor) if current.action == "shoot" else None
        actor = (executor or current.actor) if current.action == "shoot" else current.actor
        order = Order(requester, actor, current.action, current.all_targets(), current, clan)
        if order.action == "protect":
            a, b = order.targets
            by_day = not at_night or _sent_before(current, night_start)
            start = turn if by_day else turn + 1
            protections.append(Protection(order.actor, (a, b), start))
            events.append(ProtectionNamed(order.actor, (a, b), start, current,
                                          "N9" if by_day else "N15.5"))
        else:
            orders.append(order)
    return Intake(tuple(events), tuple(orders), tuple(protections), used)


def _sent_before(request: Request, moment: datetime | None) -> bool:
    return moment is not None and request.sent_at is not None and request.sent_at < moment
