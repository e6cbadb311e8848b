"""The night, step by step (docs/rules.md N2).

Each step is a function ``(night, log) -> new events``: it reads the state, the night's
orders and what earlier steps wrote, and returns what it adds. :data:`STEPS` lists them in
the rules' order; a new role or a changed order is one edit to that list.

(1) ambush declared; (2) priest takes a guest; (3) thug beats; (4) mafia, maniac and
kamikaze strike, simultaneously; (5) the doctor's heal cancels shots; (6) the ninja's turn:
his kill, then the testament; (7) the necromancer's protection, then the ninja's misses
(N15.7: only a kill that stands is a miss); (8) checks; then deaths, applied all at once.

The interactions the rules text leaves open (docs/rules.md N15.1–N15.15) are each decided in
the step they belong to, which names the decision in its docstring and in its events.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from referee.config.game import NightRules
from referee.rules.night.events import AmbushSet, Beaten, Blocked, Event, Took
from referee.rules.night.kills import (
    NINJA_MISS_LIMIT,
    Attack,
    CheckResult,
    CheckSuppressed,
    Died,
    Healed,
    HealFailed,
    HealNotAShot,
    NinjaKillPrevented,
    NinjaMiss,
    NinjaTargetGone,
    Protected,
    Saved,
    TestamentCarried,
    TestamentVoid,
)
from referee.rules.night.orders import Order
from referee.rules.night.state import GameState


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
    - N3: an action aimed at the priest's guest fails (N15.3: and is not used up, a ninja
      kill at the guest is no miss); aimed at the priest, it reaches the priest and his
      guest;
    - N6: a visitor of the maniac in ambush whose role is in ``ambush_kills`` dies and his
      action fails (the commissar's check is not a visit, ``is_visit=False``); N15.4: a
      priest who dies there has taken nobody.
    """
    target = order.target
    assert target is not None
    stopper = disabled_by(log, order.actor)
    if stopper is not None:
        return Visit([Blocked(order.actor, role, order.request, _reason(stopper) + note,
                              stopper, stopper.rule)], ())
    took = guests(log).get(target)
    if took is not None:
        # N15.3: nothing aimed at the guest happens — a blast is not used up, a kill no miss.
        rule = "N15.3" if order.action in ("blow", "kill") else "N3"
        return Visit([Blocked(order.actor, role, order.request,
                              f"{target} у священника {took.priest}{note}", took, rule)], ())
    ambush = ambushers(log).get(target)
    if ambush is not None and is_visit and role in night.rules.ambush_kills:
        death = Attack("ambush", target, order.actor, order.request, "N6")
        if role == "priest":
            # N15.4: the priest killed in the ambush never took the maniac.
            return Visit([death, Blocked(order.actor, role, order.request,
                                         f"{target} сидит в засаде; гостя у священника нет",
                                         ambush, "N15.4")], ())
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
    """N2 (2), N3, N15.2: the priest wakes first and takes a guest; what happens to him
    later that night (a beating, a shot) does not undo the take. Taking the maniac in
    ambush kills the priest, the ambush stands, and he has no guest (N3, N6, N15.4)."""
    out: list[Event] = []
    for o in night.orders_for("take"):
        v = visit(night, [*log, *out], o, role="priest")
        out += v.events
        if v.victims:
            out.append(Took(o.actor, o.target or "", o.request))
    return out


def thug_beats(night: Night, log: Log) -> list[Event]:
    """N2 (3), N4, N15.1: a thug who is beaten that night does not beat. Beatings resolve
    as a chain from the thug nobody beats (A beats B, B beats C: only B is beaten); thugs
    who beat each other in a loop are all beaten. A beaten thug does not go out at all, so
    he does not die in an ambush either.

    N15.2: the priest acted in step 2, so beating him does not undo his take; the beating
    reaches his guest too (the seed: «Громила, выбирая священника, избивает сразу двоих»)."""
    orders = night.orders_for("beat")
    reach = {o: visit(night, log, o, role="thug") for o in orders}
    landed, loop = beatings_that_land([o for o in orders if reach[o].victims], reach)
    out: list[Event] = []
    beaten: dict[str, Beaten] = {}
    for o in orders:
        v = reach[o]
        if o not in landed:
            continue
        for victim in v.victims:
            via = v.via_priest if victim != v.via_priest else None
            with_guest = victim == v.via_priest
            rule = "N15.1" if o in loop else "N15.2" if with_guest else "N4"
            e = Beaten(o.actor, victim, o.request, via, with_guest, rule,
                       _circle(o, loop, reach) if o in loop else ())
            out.append(e)
            beaten.setdefault(victim, e)
    for o in orders:
        if o in landed:
            continue
        by = beaten.get(o.actor) if not isinstance(disabled_by(log, o.actor), Took) else None
        if by is not None:
            out.append(Blocked(o.actor, "thug", o.request, _reason(by), by, "N15.1"))
        else:
            out += reach[o].events
    return out


def beatings_that_land(able: Sequence[Order], reach: dict[Order, Visit]) -> tuple[
    set[Order], set[Order]
]:
    """N15.1: which of these beatings (each one able to reach its victims) land, and which
    of those land only because their thugs beat each other in a loop.

    A beating lands when no beating that lands reaches its thug, and fails when one does;
    decided from the thugs nobody beats outwards until nothing changes. Whatever is still
    undecided then is a loop, where every thug is beaten — so every beating of it lands."""
    hits = {o: [p for p in able if p is not o and o.actor in reach[p].victims] for o in able}
    lands: dict[Order, bool] = {}
    changed = True
    while changed:
        changed = False
        for o in able:
            if o in lands:
                continue
            if any(lands.get(p) is True for p in hits[o]):
                lands[o] = False
            elif all(lands.get(p) is False for p in hits[o]):
                lands[o] = True
            else:
                continue
            changed = True
    loop = {o for o in able if o not in lands}
    return {o for o in able if lands.get(o, True)}, loop


def _circle(start: Order, loop: set[Order], reach: dict[Order, Visit]) -> tuple[str, ...]:
    """N15.1: the thugs of ``start``'s loop, in beating order from ``start``'s thug."""
    thugs = [start.actor]
    o: Order | None = start
    while o is not None:
        o = next((p for p in loop if p.actor in reach[o].victims), None)
        if o is None or o.actor in thugs:
            break
        thugs.append(o.actor)
    return tuple(thugs)


def strikes(night: Night, log: Log) -> list[Event]:
    """N2 (4): mafia (N5), maniac (N6) and kamikaze (N7) strike at the same time, so no
    strike of this step can stop another one.

    - N5: the executor acts; taken or beaten, there is no shot. N15.15: an order sent by
      the priest's guest still fires when the named executor is free.
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
    the same player; it does nothing against the ninja, the kamikaze or an ambush (N15.12:
    an ambush death is not a shot). Healing the priest heals his guest too."""
    out: list[Event] = []
    for o in night.orders_for("heal"):
        v = visit(night, log, o, role="doctor")
        out += v.events
        for victim in v.victims:
            via = v.via_priest if victim != v.via_priest else None
            out.append(Healed(o.actor, victim, o.request, via))
            standing = standing_attacks([*log, *out], victim)
            shots = [a for a in standing if a.is_shot]
            if len(shots) == 1:
                out.append(Saved(victim, o.actor, tuple(shots)))
            elif len(shots) > 1:
                out.append(HealFailed(victim, o.actor, tuple(shots)))
            ambush = tuple(a for a in standing if a.kind == "ambush")
            if ambush:
                out.append(HealNotAShot(victim, o.actor, ambush))
    return out


def ninja_turn(night: Night, log: Log) -> list[Event]:
    """N2 (6), N10, N11: the ninja's kill, then the hanged ninja's testament. His misses
    are counted after the necromancer's step (:func:`ninja_misses`, N15.7)."""
    out: list[Event] = []
    for o in _ninja_orders(night):
        out += _ninja_kill(night, [*log, *out], o)
    out += _testament(night, [*log, *out])
    return out


def _ninja_orders(night: Night) -> list[Order]:
    return [o for o in night.orders_for("kill") if night.state.role_of(o.actor) == "ninja"]


def _ninja_kill(night: Night, log: Log, o: Order) -> list[Event]:
    """N10: the doctor cannot stop him. A target already dead this night: nothing happens,
    no miss. N15.3: a kill aimed at the priest's guest does not happen (no miss)."""
    target = o.target or ""
    if not disabled_by(log, o.actor) and target in doomed(log):
        return [NinjaTargetGone(o.actor, target, o.request)]
    v = visit(night, log, o, role="ninja")
    gone = doomed(log)
    return [*v.events, *(
        Attack("ninja", o.actor, t, o.request, "N10", via_priest=v.via_priest)
        for t in v.victims if t not in gone
    )]


def _testament(night: Night, log: Log) -> list[Event]:
    """N11: the first voter for the hanged ninja dies in the ninja's turn.

    N15.8: a voter dead before the night, or already doomed this night (shot, blasted,
    ambushed), counts as dead and the testament passes on; so does the ninja's own vote;
    a voter who is the priest's guest is out of reach and the testament passes on.
    N15.15: a voter who is the priest dies with his guest. It is not a request: the
    voter's own action this night changes nothing."""
    will = night.state.testament
    if will is None or will.day != night.number:
        return []
    gone = doomed(log)
    took = guests(log)
    skipped: list[str] = []
    out_of_reach: list[str] = []
    for voter in will.voters:
        if voter == will.ninja or not night.state.is_alive(voter) or voter in gone:
            skipped.append(voter)
            continue
        if voter in took:
            out_of_reach.append(voter)
            continue
        guest = guest_of(log, voter)
        tonight = any(v in gone for v in skipped) or bool(out_of_reach)
        rule = "N15.15" if guest else "N15.8" if tonight else "N11"
        out: list[Event] = [
            TestamentCarried(will.ninja, voter, tuple(skipped), rule, tuple(out_of_reach),
                             guest),
            Attack("testament", will.ninja, voter, None, rule),
        ]
        if guest is not None and guest not in gone:
            out.append(Attack("testament", will.ninja, guest, None, rule, via_priest=voter))
        return out
    return [TestamentVoid(will.ninja, "N15.8" if out_of_reach else "N11", tuple(out_of_reach))]


def necromancer_saves(night: Night, log: Log) -> list[Event]:
    """N2 (7), N9: the first time one of the two named players would die at night, the
    death is prevented — whatever the number of attackers — and the protection is spent.

    - A kamikaze's own death in his blast cannot be prevented; N15.15: a named kamikaze
      who blows the other named player does not stop the protection saving the other.
    - N15.5: when both named players would die the same night, the first named is saved;
      the protection works in the night its necromancer dies (deaths are simultaneous).
    - N15.12: an ambush death is prevented like any other."""
    out: list[Event] = []
    spent = {e.necromancer for e in log if isinstance(e, Protected)}
    for p in night.state.active_protections(night.number):
        if p.necromancer in spent:
            continue
        dying = {t: standing_attacks(log, t) for t in p.targets}
        for t in p.targets:
            attacks = dying[t]
            if not attacks or any(a.kind == "blast_self" for a in attacks):
                continue
            other = next(n for n in p.targets if n != t)
            rule, why = "N9", ""
            if dying[other] and any(a.kind == "blast_self" for a in dying[other]):
                rule, why = "N15.15", f"сам камикадзе {other} погибает при подрыве"
            elif dying[other] and t == p.targets[0]:
                rule, why = "N15.5", f"оба названных под ударом — спасён названный первым, {t}"
            elif p.necromancer in doomed(log):
                rule, why = "N15.5", "некромант гибнет этой же ночью, но защита ещё действует"
            out.append(Protected(p.necromancer, t, tuple(attacks), rule, why))
            break
    return out


def ninja_misses(night: Night, log: Log) -> list[Event]:
    """N2 (7), N10, N15.7: after the necromancer's step, each ninja's kill of a town player
    that still stands is a miss (the priest with a town guest: one miss); a kill the
    necromancer prevented is none. At 2 misses — harakiri the same night, which the
    necromancer's protection, if still unspent, prevents like any death (N9)."""
    out: list[Event] = []
    gone = cancelled(log)
    for o in _ninja_orders(night):
        hits = [e for e in log if isinstance(e, Attack) and e.kind == "ninja" and e.by == o.actor
                and night.state.side_of(e.target) == "town"]
        killed = tuple(a.target for a in hits if a not in gone)
        saved = tuple(a.target for a in hits if a in gone)
        if saved:
            out.append(NinjaKillPrevented(o.actor, saved, o.request))
        if not killed:
            continue
        misses = night.state.ninja_misses.get(o.actor, 0) + 1
        out.append(NinjaMiss(o.actor, killed, misses, o.request))
        if misses >= NINJA_MISS_LIMIT:
            out.append(Attack("harakiri", o.actor, o.actor, o.request, "N10"))
            out += necromancer_saves(night, [*log, *out])
    return out


def checks(night: Night, log: Log) -> list[Event]:
    """N2 (8), N12: the commissar learns the role (ninja → «Мирный житель»); checking the
    priest gives priest and guest. No result if he is taken, beaten, or killed by a mafia
    shot this night; N15.6: a commissar who survives the shot (healed, or saved by the
    necromancer) gets his result. The check is not a visit: the maniac in ambush shows as
    «Маньяк»."""
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
        survived = any(a.target == o.actor for a in cancelled(log))
        for victim in v.victims:
            via = v.via_priest if victim != v.via_priest else None
            out.append(CheckResult(o.actor, victim, shown_role(night.state, victim),
                                   o.request, via, "N15.6" if survived else "N12"))
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
    ninja_misses,
    checks,
    deaths,
)
"""docs/rules.md N2, in order. Insert a new role's step where the rules put it."""
