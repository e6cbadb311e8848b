"""Resolve one night: state + the night's requests in, an ordered event log out (N1–N14).

Pure: no I/O, no clock. The next :class:`GameState` is derived from the log, so whatever
changed (deaths, spent powers, last targets, the sergeant's badge) has an event behind it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from referee.config.game import NightRules
from referee.rules.actions import Request
from referee.rules.night.events import AmbushSet, ChangeIgnored, Event, RequestRejected
from referee.rules.night.kills import (
    Attack,
    CheckResult,
    Died,
    NinjaMiss,
    Promoted,
    Protected,
    Saved,
)
from referee.rules.night.orders import Intake, settle
from referee.rules.night.state import Death, GameState
from referee.rules.night.steps import STEPS, Night


@dataclass(frozen=True, slots=True)
class Check:
    """N12: one check result; ``result`` is a role id (the ninja shows as ``citizen``)."""

    by: str
    target: str
    result: str


@dataclass(frozen=True)
class NightOutcome:
    """Everything one night produced. ``events`` is the full log in rule order; the other
    fields are views of it for callers that want one thing."""

    night: int
    events: tuple[Event, ...]
    deaths: tuple[Death, ...]
    saved: tuple[tuple[str, str], ...]
    """(player, saver's nick) for players alive in the morning thanks to a heal (N8) or
    the necromancer (N9)."""
    checks: tuple[Check, ...]
    rejected: tuple[tuple[str, str, str], ...]
    """(actor, action, reason) for every rejected request (N14) and every change beyond the
    one a game allows (N1: «ignored and flagged» — the JSON outputs have no log, so a change
    left out of this list would vanish there)."""
    state: GameState
    before: GameState

    def explain(self) -> str:
        """The night told step by step, in Russian, for the host."""
        lines = [f"Ночь {self.night}:"]
        lines += [f"{i}. {e.explain()} ({e.rule})" for i, e in enumerate(self.events, 1)]
        dead = [d.player for d in self.deaths]
        if len(dead) == 1:
            lines.append(f"Итог: погиб(ла): {dead[0]}.")
        elif dead:
            lines.append(f"Итог: погибли ({len(dead)}): {', '.join(dead)}.")
        else:
            lines.append("Итог: этой ночью никто не погиб.")
        return "\n".join(lines)

    def lines(self) -> tuple[str, ...]:
        """Each event's explanation, for tests and summaries."""
        return tuple(e.explain() for e in self.events)


def resolve_night(
    state: GameState,
    night: int,
    requests: Sequence[Request],
    rules: NightRules,
    *,
    night_start: datetime | None = None,
) -> NightOutcome:
    """Resolve Night ``night`` (docs/rules.md N2): read the requests (N14, N1), run
    :data:`~referee.rules.night.steps.STEPS` in order, apply deaths all at once, derive the next
    state.

    ``requests`` are the night's; a necromancer's naming among them sent before
    ``night_start`` (``Request.sent_at``) was sent by day and covers this night (N9), any
    other counts from the next night (N15.5). Without ``night_start`` every request is
    taken as sent during the night."""
    intake = settle(state, requests, night, rules, at_night=True, night_start=night_start)
    state = state.evolve(protections=state.protections + intake.protections)
    ctx = Night(state, night, rules, intake.orders)
    log: list[Event] = list(intake.events)
    for step in STEPS:
        log += step(ctx, tuple(log))
    after = next_state(state, night, intake, log)
    promoted = after.promoted - state.promoted
    for sergeant in sorted(promoted):
        commissar = next(
            (d.player for d in log if isinstance(d, Died) and d.role == "commissar"), "?"
        )
        log.append(Promoted(sergeant, commissar))
    return _outcome(night, tuple(log), state, after)


def next_state(state: GameState, night: int, intake: Intake, log: Sequence[Event]) -> GameState:
    """The state after the night, read off the log:

    - deaths (N2) — and the sergeant's promotion (N12);
    - last heal/take/beat targets (N3, N4, N8; N15.9: the last request that stood counts,
      carried out or failed through another's action — N15.15: a heal or beating aimed at
      the priest's guest too; a request rejected as invalid is no order and does not);
    - the maniac's ambush night (N6); kamikazes who blew up (N7);
    - ninja misses (N10); request changes used (N1);
    - protections named (N9) and spent; the testament is consumed by its night (N11)."""
    last = dict(state.last_targets)
    for o in intake.orders:
        if o.action in ("heal", "take", "beat") and o.target:
            last[o.actor] = (night, o.target)
    ambush = dict(state.last_ambush)
    for e in log:
        if isinstance(e, AmbushSet):
            ambush[e.maniac] = night
    used_blast = {e.by for e in log if isinstance(e, Attack) and e.kind == "blast_self"}
    misses = dict(state.ninja_misses)
    for e in log:
        if isinstance(e, NinjaMiss):
            misses[e.ninja] = e.misses
    spent = {e.necromancer for e in log if isinstance(e, Protected)}
    protections = tuple(
        p if p.necromancer not in spent or p.spent or p.from_night > night
        else replace(p, spent=True)
        for p in state.protections
    )
    testament = state.testament
    if testament is not None and testament.day <= night:
        testament = None
    deaths = [Death(e.player, e.causes, f"night {night}") for e in log if isinstance(e, Died)]
    return state.evolve(
        last_targets=last,
        last_ambush=ambush,
        kamikaze_used=state.kamikaze_used | used_blast,
        ninja_misses=misses,
        changes_used=intake.changes_used,
        protections=protections,
        testament=testament,
    ).bury(deaths)


def _outcome(night: int, log: tuple[Event, ...], before: GameState, after: GameState
             ) -> NightOutcome:
    died = {e.player for e in log if isinstance(e, Died)}
    deaths = tuple(Death(e.player, e.causes, f"night {night}") for e in log if isinstance(e, Died))
    saved: list[tuple[str, str]] = []
    for e in log:
        if isinstance(e, Saved | Protected) and e.player not in died:
            by = e.doctor if isinstance(e, Saved) else e.necromancer
            if (e.player, by) not in saved:
                saved.append((e.player, by))
    checks = tuple(Check(e.by, e.target, e.result) for e in log if isinstance(e, CheckResult))
    rejected = tuple(
        (e.actor, e.action, e.reason) if isinstance(e, RequestRejected)
        else (e.request.actor, e.request.action, e.explain())
        for e in log if isinstance(e, RequestRejected | ChangeIgnored)
    )
    return NightOutcome(night, log, deaths, tuple(saved), checks, rejected, after, before)
