"""The game's nights: the requests read from the host's PMs with his edits, resolved in
N2 order, recorded once the night is over."""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from referee.core.errors import RequestRefused
from referee.core.kernel import PrivateMessage
from referee.core.roles import ACTIONS
from referee.game.core import GameCore
from referee.game.leaving import Leaving
from referee.game.refusals import Refusals
from referee.game.results import NightResult, _request_from, _request_to
from referee.game.safety import INCOMPLETE, incomplete_note, pm_gaps
from referee.game.states import States
from referee.rules import decisions
from referee.rules.decisions import NightEdit
from referee.rules.intake import (
    HostEdit,
    NightIntake,
    apply_host_edits,
    load_requests_file,
    night_span,
    read_night,
)
from referee.rules.night import GameState, resolve_night


class Nights:
    """The night («ночь»): requests from the PMs and the host, resolved (N1–N15); the
    morning after it (A3) as :class:`~referee.game.leaving.Leaving` says."""

    def __init__(self, core: GameCore, refusals: Refusals, states: States,
                 leaving: Leaving) -> None:
        self.core = core
        self.refusals = refusals
        self.states = states
        self.leaving = leaving
        self._pms: tuple[int, list[PrivateMessage], list[datetime]] | None = None
        """The game's PMs (by version) and their times, for picking a night's."""
        self._intakes: dict[int, tuple[Any, NightIntake]] = {}

    def game_pms(self) -> list[PrivateMessage]:
        """PMs inside the game's time span (``[game] start``/``end``), oldest first; others
        are stored but ignored by the game commands. Read once per run (per
        :attr:`~referee.game.core.GameCore.version`), not once per night."""
        cached = self._pms
        if cached is None or cached[0] != self.core.version:
            config = self.core.config
            pms = self.core.store.pms(since=config.game_start, until=config.game_end)
            cached = self._pms = (self.core.version, pms, [pm.sent_at for pm in pms])
        return cached[1]

    def night_intake(self, night: int) -> NightIntake:
        """Night ``night``'s requests from the PMs (N1), read once per run: only the PMs of
        its own span are read (:func:`~referee.rules.intake.night_span`), so a night costs its
        own mail, not the whole game's."""
        window = self.core.night_window(night)
        key = (window, self.core.version)
        cached = self._intakes.get(night)
        if cached is not None and cached[0] == key:
            return cached[1]
        pms = self.game_pms()
        assert self._pms is not None
        since, until = night_span(self.core.config, night, window)
        times = self._pms[2]
        chosen = pms[bisect_left(times, since):bisect_left(times, until)]
        intake = read_night(chosen, self.core.config, night, window)
        self._intakes[night] = (key, intake)
        return intake

    def host_edits(self, night: int) -> list[HostEdit]:
        """The host's recorded edits of Night ``night``'s requests, oldest first."""
        return [e.host_edit() for e in decisions.recorded(self.core.store, NightEdit)
                if e.night == night]

    def resolve_night(
        self, night: int, *, record: bool = True, _state: GameState | None = None
    ) -> NightResult:
        """Night ``night`` (N1–N14): the requests read from the PMs and the host's edits,
        resolved in N2 order. Recorded once when ``record`` and the night is over; a
        recorded night is re-resolved from its recorded requests (same answer)."""
        if _state is None and night in self.core.nights and not record:
            return self.core.nights[night]
        notes: list[str] = []
        if _state is None:
            self.refusals.scheduled_night(night)
            self.states.refuse_after_end("night", night, f"Ночь {night} не разбирается.")
            if self.core.store.result("night", night) is None:
                self.refusals.require_roles(f"ночь {night}")
            state, n = self.states.state_before_night(night)
            notes += n
        else:
            state = _state
        start, end = self.core.night_window(night)
        intake = self.night_intake(night)
        stored = self.core.store.result("night", night)
        host_log: list[str] = []
        if stored is not None:
            requests = tuple(_request_from(d) for d in stored.payload["requests"])
        else:
            clans = {p.nick: p.clan for p in self.core.config.players if p.clan}
            requests, edit_log = apply_host_edits(
                intake.requests, self.host_edits(night), night=night, clans=clans
            )
            host_log = list(edit_log)
        # The night's start tells a naming sent by day (N9) from one sent at night (N15.5).
        outcome = resolve_night(state, night, requests, self.core.config.night, night_start=start)
        final = self.core.now >= end
        recorded = False
        # Issue 26: a night read from a PM listing cut short is never recorded or sent.
        gaps = pm_gaps(self.core.store) if stored is None and _state is None else []
        if gaps:
            notes.append(incomplete_note(gaps, f"разбор ночи {night}"))
        if record and stored is None and not gaps:
            if final:
                self.core.record("night", night, {
                    "requests": [_request_to(r) for r in requests],
                    "deaths": [{"player": d.player, "causes": list(d.causes)}
                               for d in outcome.deaths],
                }, recorded_at=self.core.now)
                recorded = True
            else:
                notes.append(
                    f"Ночь {night} ещё идёт (до {end.isoformat()}): результат не записан."
                )
        # A3: a silent turn ends at the start of the next day, in this night's summary.
        morning, leaving = self.leaving.morning_after(
            night, outcome.state) if final \
            else (outcome.state, [])
        result = NightResult(
            night=night, window=(start, end), intake=intake, requests=requests,
            host_edits=tuple(host_log), outcome=outcome, recorded=recorded,
            already_recorded=stored is not None, final=final, notes=tuple(notes),
            winner=self.states.winner(morning), leaving=tuple(leaving), morning=morning,
            held=(INCOMPLETE,) if gaps else (),
        )
        if _state is None and not record:
            self.core.nights[night] = result
        return result

    def import_requests(self, path: str | Path) -> list[HostEdit]:
        """A host-written requests file (:mod:`referee.rules.intake.requests_file`): every entry is
        recorded as the host's decision, exactly like ``action add``/``action drop``."""
        edits = load_requests_file(Path(path), self.core.roster())
        for n in sorted({e.night for e in edits}):
            self.refusals.scheduled_night(n, f"{Path(path).name}: night")
            self.states.refuse_after_end("night", n, f"Файл {Path(path).name} не записан: в нём "
                                  f"заявки на ночь {n}.")
        for e in edits:
            decisions.record(self.core.store, NightEdit(
                e.op, e.night, e.actor, e.action, e.target, e.targets, e.executor,
                source="file", reason=e.reason))
            self.core.store.forget_result("night", e.night)
        self.core.nights.clear()
        return list(edits)

    def add_action(self, night: int, actor: str, action: str, *, target: str | None = None,
                   targets: Sequence[str] = (), executor: str | None = None,
                   reason: str = "") -> None:
        """``referee action add``: a request in the host's name. Refused (nothing recorded)
        for a night outside the schedule, a nick that is no player, an actor out of the
        game, an action the actor's role does not have (N3–N12) or the wrong targets."""
        self.refusals.scheduled_night(night)
        self.states.refuse_after_end("night", night, f"Заявка на ночь {night} не записана.")
        self.refusals.require_roles(f"action add --night {night}")
        names = {}
        for label, typed in (("actor", actor), ("target", target), ("executor", executor),
                             *((f"target {i + 1}", t) for i, t in enumerate(targets))):
            if typed is not None:
                option = {"actor": "ACTOR", "executor": "--executor"}.get(label, "цель")
                names[label] = self.refusals.known_player(typed, option)
        state, _ = self.states.state_before_night(night)
        self.refusals.living_player(names["actor"], "actor", state, f"к ночи {night}")
        count = len(targets) or (1 if target is not None else 0)
        self.refusals.allowed_request(state, night, names["actor"], action, count,
                                      executor is not None)
        decisions.record(self.core.store, NightEdit(
            "add", night, names["actor"], action, names.get("target"),
            tuple(names[f"target {i + 1}"] for i in range(len(targets))),
            names.get("executor"), reason=reason))
        self.core.store.forget_result("night", night)
        self.core.nights.clear()

    def drop_action(self, night: int, actor: str, action: str | None = None,
                    reason: str = "") -> None:
        """``referee action drop``: the actor's request(s) of the night dropped by the host."""
        self.refusals.scheduled_night(night)
        self.states.refuse_after_end("night", night, f"Отмена заявок на ночь {night} не записана.")
        nick = self.refusals.known_player(actor, "actor")
        if action is not None and action not in ACTIONS:
            raise RequestRefused(f"неизвестное действие «{action}»",
                                 "действия: " + ", ".join(ACTIONS))
        decisions.record(self.core.store, NightEdit("drop", night, nick, action, reason=reason))
        self.core.store.forget_result("night", night)
        self.core.nights.clear()
