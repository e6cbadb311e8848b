"""Changes and take-backs inside one PM (N1).

«Меняю проверку на Z», «Меняю X на Z», «Исправление: …», «Передумал, проверяю Z»,
«Передумал: Z» give the same action with the new target as a later request (the night
engine applies the once-per-game limit; the intake only keeps the sending order).
«Отменяю проверку», «Отзываю заявку», «Забудь, что писал» take earlier requests back
(:class:`~referee.rules.intake.results.Withdrawal`): listed «Отозвано игроками», they do not use
up the change of N1 — a new request after them does (N1, N15.10).
"""

from __future__ import annotations

from referee.core.roles import ACTION_NAMES_RU
from referee.rules.intake.lines import Hit
from referee.rules.intake.results import Withdrawal
from referee.rules.intake.shots import Shots
from referee.rules.intake.vocabulary import ACTION_FAMILIES
from referee.rules.intake.words import ACTION_FAMILY, NA_RE, action_for, expected

_MARKERS = ("change",)


class Changes(Shots):
    """The change and take-back words of a PM, read before its other action words."""

    def changes(self, hits: list[Hit]) -> list[Hit]:
        """N1: «меняю … на Z» becomes a request of its own; a bare «исправление:» or
        «меняю» before another action word marks that request as a change; «передумал: Z»
        names the new target of the earlier request. Take-backs are read here too."""
        out: list[Hit] = []
        consumed: list[tuple[int, int, int]] = []
        pending: Hit | None = None
        for h in hits:
            if any(h.line == li and s <= h.start < e for li, s, e in consumed):
                h.used = True  # «меняю ВЫСТРЕЛ на …»: part of the change, not a request
                continue
            if h.family == "withdraw":
                end = self._withdraw(h, hits)
                consumed.append((h.line, h.start, end))
                h.used = True
                continue
            if h.family not in _MARKERS:
                if pending is not None:
                    h.changed = True
                    pending = None
                out.append(h)
                continue
            if pending is not None:
                self._bare_change(pending)
            line = self.lines[h.line]
            stop = line.sentence_end(h.end)
            na = NA_RE.search(line.masked, h.end, stop)
            if na is None:
                pending = h
                out.append(h)
                continue
            between = [o for o in hits if o.line == h.line and h.end <= o.start < na.start()]
            consumed.append((h.line, h.start, na.end()))
            for o in between:
                o.used = True
            after = self.targets.skip(h.line, na.end())
            inner = next(
                (o for o in hits if o.line == h.line and o.start == after
                 and o.family not in _MARKERS),
                None,
            )
            h.used = True
            if inner is not None:
                inner.changed = True
                out.append(h)
                continue
            fam = next((o.family for o in between), None)
            self.change_request(h, fam, na.end())
            out.append(h)
        if pending is not None:
            self._bare_change(pending)
        return out

    def _bare_change(self, h: Hit) -> None:
        """«Передумал: Лиса» — a change word, then a nick and no action word."""
        h.used = True
        after = self.targets.skip(h.line, h.end)
        got = self.targets.resolve(h.line, after)
        if got is None:
            self.fail(
                "no_target",
                f"«{self.typed(h)}»: исправление без новой заявки (напишите, например, "
                f"«Меняю {ACTION_NAMES_RU.get(self.default_action() or '', 'заявку')} на "
                "Ник»)",
                h.line,
            )
            return
        self.change_request(h, None, h.end)

    def change_request(self, h: Hit, fam: str | None, after: int) -> None:
        self.at = h.pos
        old = [nick for s, e, nick in self.lines[h.line].spans if h.end <= s < after]
        if fam == "executor":
            self.executor_change(h, after)
            return
        action: str | None
        if fam is None or fam not in ACTION_FAMILIES:
            prior = [r for r in self.earlier + self.requests if r.action != "ambush"]
            if old:
                prior = [r for r in prior if old[0] in r.all_targets()] or prior
            if len({r.action for r in prior}) > 1 and not old:
                self.ask(f"«{self.typed(h)}»: неясно, какую из заявок игрок меняет", h.line)
                return
            action = prior[-1].action if prior else self.default_action()
        elif fam == "ambush":
            action = self.default_action()
        else:
            action = action_for(fam, self.role)
        if action is None:
            what_ru = self.lines[h.line].typed(h.end, after).removesuffix("на").strip()
            self.fail(
                "not_allowed",
                f"«{self.typed(h)} {what_ru} на …»: у роли «{self.role_ru()}» нет такого хода"
                + expected(self.role),
                h.line,
            )
            return
        self.build(action, h, after, changed=True, old=old[0] if old else None)

    def _withdraw(self, h: Hit, hits: list[Hit]) -> int:
        """«Отменяю проверку» / «Отзываю заявку»: a :class:`Withdrawal` of the earlier
        requests (of the action named, else all of them). Returns where it ends."""
        line = self.lines[h.line]
        stop = line.sentence_end(h.end)
        named = [o for o in hits if o.line == h.line and h.end <= o.start < stop
                 and o.family in ACTION_FAMILIES]
        action = action_for(named[0].family, self.role) if named else None
        for o in named[:1]:
            o.used = True
        prior = [r for r in self.earlier + self.requests
                 if action is None or ACTION_FAMILY.get(r.action) == ACTION_FAMILY[action]]
        if not prior:
            self.fail(
                "follow_up",
                f"«{self.typed(h)}»: отзыв заявки, но заявки этой ночью ещё не было",
                h.line,
            )
            return named[0].end if named else h.end
        self.withdrawals.append(
            Withdrawal(self.pm.pm_id, self.actor, action, 0, self.excerpt(h.line),
                       self.pm.sent_at)
        )
        self.withdrawal_positions.append(h.pos)
        return named[0].end if named else h.end
