"""The night, step by step (RULES.md N2).

Each step is a function ``(night, log) -> new events``: it reads the state, the night's
orders and what earlier steps wrote, and returns what it adds. :data:`STEPS` lists them in
the rules' order; a new role or a changed order is one edit to that list.

(1) ambush declared; (2) priest takes a guest; (3) thug beats; (4) mafia, maniac and
kamikaze strike, simultaneously; (5) the doctor's heal cancels shots; (6) the ninja's turn:
his kill, then the testament; (7) the necromancer's protection; (8) checks; then deaths,
applied all at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from referee.config import NightRules
from referee.night.events import (
    NINJA_MISS_LIMIT,
    AmbushSet,
    Attack,
    Beaten,
    Blocked,
    CheckResult,
    CheckSuppressed,
    Died,
    Event,
    Healed,
    HealFailed,
    NinjaMiss,
    NinjaTargetGone,
    Protected,
    Saved,
    TestamentCarried,
    TestamentVoid,
    Took,
)
from referee.night.orders import Order
from referee.night.state import GameState


@dataclass(frozen=True, slots=True)
class Night:
    """What every step may read: the state at nightfall, the night's number, the
    settings, and the orders that survived N1/N14."""

    state: GameState
    number: int
    rules: NightRules
    orders: tuple[Order, ...]

    def orders_for(self, *actions: str) -> tuple[Order, ...]:
        return tuple(o for o in self.orders if o.action in actions)


Log = Sequence[Event]
Step = Callable[[Night, Log], list[Event]]


# ------------------------------------------------------------------ reading the log


def guests(log: Log) -> dict[str, Took]:
    """N3: guest → the priest's :class:`Took`."""
    return {e.guest: e for e in log if isinstance(e, Took)}


def guest_of(log: Log, priest: str) -> str | None:
    for e in log:
        if isinstance(e, Took) and e.priest == priest:
            return e.guest
    return None


def ambushers(log: Log) -> dict[str, AmbushSet]:
    return {e.maniac: e for e in log if isinstance(e, AmbushSet)}


def disabled_by(log: Log, actor: str) -> Event | None:
    """N3, N4: the event that stops this player's own action (taken or beaten)."""
    for e in log:
        if isinstance(e, Took) and e.guest == actor:
            return e
        if isinstance(e, Beaten) and e.target == actor:
            return e
    return None


def cancelled(log: Log) -> set[Attack]:
    """Attacks a heal (N8) or the necromancer (N9) cancelled."""
    out: set[Attack] = set()
    for e in log:
        if isinstance(e, Saved | Protected):
            out.update(e.attacks)
    return out


def standing_attacks(log: Log, target: str | None = None) -> list[Attack]:
    """Attacks not cancelled so far, in log order (optionally only those on ``target``)."""
    gone = cancelled(log)
    return [
        e for e in log
        if isinstance(e, Attack) and e not in gone and (target is None or e.target == target)
    ]


def doomed(log: Log) -> set[str]:
    """Players who, as the log stands, die this night."""
    return {a.target for a in standing_attacks(log)}


def _reason(event: Event | None) -> str:
    if isinstance(event, Took):
        return f"его забрал на беседу священник {event.priest}"
    if isinstance(event, Beaten):
        return f"его избил громила {event.thug}"
    return "ход сорван"


# ------------------------------------------------------------------ one visit


@dataclass(frozen=True, slots=True)
class Visit:
    """How one targeted action lands: the events it caused and whom it reaches (empty when
    it failed). ``via_priest`` is the priest when the action was aimed at him (N3)."""

    events: list[Event]
    victims: tuple[str, ...]
    via_priest: str | None = None


def visit(
    night: Night, log: Log, order: Order, *, role: str, is_visit: bool = True, note: str = ""
) -> Visit:
    """Carry one targeted action to its target, applying the rules every action shares.

    - N3/N4: a taken or beaten actor does nothing;
    - N3: an action aimed at the priest's guest fails; aimed at the priest, it reaches the
      priest and his guest;
    - N6: a visitor of the maniac in ambush whose role is in ``ambush_kills`` dies and his
      action fails (the commissar's check is not a visit, ``is_visit=False``).
    """
    target = order.target
    assert target is not None
    stopper = disabled_by(log, order.actor)
    if stopper is not None:
        return Visit([Blocked(order.actor, role, order.request, _reason(stopper) + note,
                              stopper, stopper.rule)], ())
    took = guests(log).get(target)
    if took is not None:
        return Visit([Blocked(order.actor, role, order.request,
                              f"{target} у священника {took.priest}{note}", took, "N3")], ())
    ambush = ambushers(log).get(target)
    if ambush is not None and is_visit and role in night.rules.ambush_kills:
        death = Attack("ambush", target, order.actor, order.request, "N6")
        return Visit([death, Blocked(order.actor, role, order.request,
                                     f"{target} сидит в засаде", ambush, "N6")], ())
    guest = guest_of(log, target)
    if guest is not None:
        return Visit([], (target, guest), target)
    return Visit([], (target,))


# ------------------------------------------------------------------ the steps


def declare_ambush(night: Night, log: Log) -> list[Event]:
    """N2 (1), N6: «засада» is set before anybody moves."""
    return [AmbushSet(o.actor, o.request) for o in night.orders_for("ambush")]


def priest_takes(night: Night, log: Log) -> list[Event]:
    """N2 (2), N3: the priest wakes first and takes a guest. Taking the maniac in ambush
    kills the priest and the ambush stands (N3, N6)."""
    out: list[Event] = []
    for o in night.orders_for("take"):
        v = visit(night, [*log, *out], o, role="priest")
        out += v.events
        if v.victims:
            out.append(Took(o.actor, o.target or "", o.request))
    return out


def thug_beats(night: Night, log: Log) -> list[Event]:
    """N2 (3), N4: the thugs beat simultaneously; beating the priest beats his guest too.

    The priest acted in step 2, so beating him does not undo his take (the seed: «Громила,
    выбирая священника, избивает сразу двоих»)."""
    out: list[Event] = []
    for o in night.orders_for("beat"):
        v = visit(night, log, o, role="thug")
        out += v.events
        for victim in v.victims:
            via = v.via_priest if victim != v.via_priest else None
            out.append(Beaten(o.actor, victim, o.request, via, victim == v.via_priest))
    return out


def strikes(night: Night, log: Log) -> list[Event]:
    """N2 (4): mafia (N5), maniac (N6) and kamikaze (N7) strike at the same time, so no
    strike of this step can stop another one.

    - N5: the executor acts; taken or beaten, there is no shot.
    - N6: a taken or beaten maniac does not kill.
    - N7: the kamikaze dies with his target; taken or beaten, no blast (not used up)."""
    out: list[Event] = []
    for o in night.orders_for("shoot", "kill", "blow"):
        role = night.state.role_of(o.actor)
        if o.action == "shoot":
            role = "mafia"
        elif o.action == "kill" and role != "maniac":
            continue  # the ninja's kill is step 6
        note = "; подрыв не израсходован" if o.action == "blow" else ""
        v = visit(night, log, o, role=role, note=note)
        out += v.events
        if o.action == "blow" and v.victims:
            out += [Attack("blast", o.actor, t, o.request, "N7", via_priest=v.via_priest)
                    for t in v.victims]
            out.append(Attack("blast_self", o.actor, o.actor, o.request, "N7"))
        elif v.victims:
            kind, rule = ("mafia", "N5") if o.action == "shoot" else ("maniac", "N6")
            out += [Attack(kind, o.actor, t, o.request, rule, clan=o.clan, via_priest=v.via_priest)
                    for t in v.victims]
    return out


def doctor_heals(night: Night, log: Log) -> list[Event]:
    """N2 (5), N8: the heal cancels a mafia or maniac shot, but not two or more shots at
    the same player; it does nothing against the ninja, the kamikaze or an ambush.
    Healing the priest heals his guest too."""
    out: list[Event] = []
    for o in night.orders_for("heal"):
        v = visit(night, log, o, role="doctor")
        out += v.events
        for victim in v.victims:
            via = v.via_priest if victim != v.via_priest else None
            out.append(Healed(o.actor, victim, o.request, via))
            shots = [a for a in standing_attacks([*log, *out], victim) if a.is_shot]
            if len(shots) == 1:
                out.append(Saved(victim, o.actor, tuple(shots)))
            elif len(shots) > 1:
                out.append(HealFailed(victim, o.actor, tuple(shots)))
    return out


def ninja_turn(night: Night, log: Log) -> list[Event]:
    """N2 (6), N10, N11: the ninja's kill, then the hanged ninja's testament."""
    out: list[Event] = []
    for o in night.orders_for("kill"):
        if night.state.role_of(o.actor) != "ninja":
            continue
        out += _ninja_kill(night, [*log, *out], o)
    out += _testament(night, [*log, *out])
    return out


def _ninja_kill(night: Night, log: Log, o: Order) -> list[Event]:
    """N10: the doctor cannot stop him. A kill of a town player is a miss (the priest with a
    town guest: one miss); at 2 misses — harakiri the same night. A target already dead
    this night: nothing happens, no miss."""
    target = o.target or ""
    if not disabled_by(log, o.actor) and target in doomed(log):
        return [NinjaTargetGone(o.actor, target, o.request)]
    v = visit(night, log, o, role="ninja")
    out: list[Event] = list(v.events)
    if not v.victims:
        return out
    fresh = [t for t in v.victims if t not in doomed(log)]
    out += [Attack("ninja", o.actor, t, o.request, "N10", via_priest=v.via_priest)
            for t in fresh]
    town = tuple(t for t in fresh if night.state.side_of(t) == "town")
    if town:
        misses = night.state.ninja_misses.get(o.actor, 0) + 1
        out.append(NinjaMiss(o.actor, town, misses, o.request))
        if misses >= NINJA_MISS_LIMIT:
            out.append(Attack("harakiri", o.actor, o.actor, o.request, "N10"))
    return out


def _testament(night: Night, log: Log) -> list[Event]:
    """N11: the first voter for the hanged ninja dies in the ninja's turn; voters dead
    before or during this night are skipped. It is not a request, so the priest does not
    shield a guest from it."""
    will = night.state.testament
    if will is None or will.day != night.number:
        return []
    gone = doomed(log)
    skipped: list[str] = []
    for voter in will.voters:
        if not night.state.is_alive(voter) or voter in gone:
            skipped.append(voter)
            continue
        return [
            TestamentCarried(will.ninja, voter, tuple(skipped)),
            Attack("testament", will.ninja, voter, None, "N11"),
        ]
    return [TestamentVoid(will.ninja)]


def necromancer_saves(night: Night, log: Log) -> list[Event]:
    """N2 (7), N9: the first time one of the two named players would die at night, the
    death is prevented — whatever the number of attackers — and the protection is spent.
    A kamikaze's own death in his blast cannot be prevented. When both named players would
    die the same night, the first named is saved (one resurrection in all)."""
    out: list[Event] = []
    for p in night.state.active_protections(night.number):
        for t in p.targets:
            attacks = standing_attacks(log, t)
            if attacks and not any(a.kind == "blast_self" for a in attacks):
                out.append(Protected(p.necromancer, t, tuple(attacks)))
                break
    return out


def checks(night: Night, log: Log) -> list[Event]:
    """N2 (8), N12: the commissar learns the role (ninja → «Мирный житель»); checking the
    priest gives priest and guest. No result if he is taken, beaten, or killed by a mafia
    shot this night. The check is not a visit: the maniac in ambush shows as «Маньяк»."""
    out: list[Event] = []
    for o in night.orders_for("check"):
        v = visit(night, log, o, role="commissar", is_visit=False)
        out += v.events
        if not v.victims:
            continue
        mafia = tuple(a for a in standing_attacks(log, o.actor) if a.kind == "mafia")
        if mafia:
            out.append(CheckSuppressed(o.actor, o.target or "", o.request, mafia))
            continue
        for victim in v.victims:
            via = v.via_priest if victim != v.via_priest else None
            out.append(CheckResult(o.actor, victim, shown_role(night.state, victim),
                                   o.request, via))
    return out


def shown_role(state: GameState, nick: str) -> str:
    """N10, N12: what a check shows — the ninja passes for a citizen."""
    role = state.role_of(nick)
    return "citizen" if role == "ninja" else role


def deaths(night: Night, log: Log) -> list[Event]:
    """N2: deaths are applied at the end, all at once; one entry per player with every
    attack that still stands."""
    by_player: dict[str, list[Attack]] = {}
    for a in standing_attacks(log):
        by_player.setdefault(a.target, []).append(a)
    return [
        Died(p, night.state.role_of(p), tuple(attacks))
        for p in night.state.nicks if (attacks := by_player.get(p))
    ]


STEPS: tuple[Step, ...] = (
    declare_ambush,
    priest_takes,
    thug_beats,
    strikes,
    doctor_heals,
    ninja_turn,
    necromancer_saves,
    checks,
    deaths,
)
"""RULES.md N2, in order. Insert a new role's step where the rules put it."""
