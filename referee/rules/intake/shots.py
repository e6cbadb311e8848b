"""The clan's shot (N5): who fires it — the executor named in any way players name him
(«исполнитель Y», «исп. Y», «Y стреляет», «стреляет Y», the executor as the subject of the
shot: «Y стреляет в Kotik»), the earlier one for a change, else the sender."""

from __future__ import annotations

from referee.core.roles import request_actions
from referee.rules.intake.base import ReaderBase
from referee.rules.intake.lines import Hit
from referee.rules.intake.results import join_notes
from referee.rules.intake.targets import Got, Miss
from referee.rules.intake.vocabulary import is_third_person, is_verb
from referee.rules.intake.words import SELF_EXECUTOR


class Shots(ReaderBase):
    """The executor of a mafia shot, named near it or on its own (a change of executor)."""

    def shot_executor(self, h: Hit, changed: bool, notes: list[str]) -> str | None:
        """N5: who fires this shot — the executor named, the earlier one for a change, else
        the sender. ``None`` when the executor named cannot be read (already reported)."""
        found = self._executor_for(h)
        if isinstance(found, Miss) or found is False:
            self.miss(found or None, h.line, "исполнитель")
            return None
        if found is None:
            # «Dark_Knight убивает Вишню»: the nick before a verb of the third person.
            before = self.targets.nick_before(h)
            if isinstance(before, Got) and is_third_person(h.word.split()[-1]):
                notes.append(f"исполнитель {before.nick} — подлежащее выстрела")
                return before.nick
            prior = [r for r in self.earlier if r.action == "shoot" and r.executor]
            if changed and prior:
                executor = prior[-1].executor
                notes.append(f"исполнитель прежний: {executor}")
                return executor
            notes.append("исполнитель не назван — стреляет отправитель (N5)")
            return self.actor
        also = self.targets.another_target(found)
        if also:
            self.fail(
                "two_targets",
                f"исполнитель: названы двое ({found.nick} и {also}), нужен один (N5)",
                h.line,
            )
            return None
        notes.append(self.explain_got(found, "исполнитель"))
        return found.nick

    def _executor_for(self, h: Hit) -> Got | Miss | None | bool:
        """N5: the executor named near this shot: after it (up to the next shot) or before it
        in the same sentence. ``None`` when none is named."""
        later = [s.pos for s in self.strikes if s.pos > h.pos and not s.used]
        limit = min(later) if later else (len(self.lines), 0)
        line = self.lines[h.line]
        cands = [e for e in self.executors if not e.used and h.pos < e.pos < limit] + [
            e for e in self.executors
            if not e.used and e.line == h.line and line.sentence_start(h.start) <= e.start
            < h.start
        ]
        if not cands:
            return None
        e = cands[0]
        e.used = True
        got = self.targets.resolve(e.line, e.end, SELF_EXECUTOR)
        if got is None or (isinstance(got, Got) and e.pos > h.pos and _ends_before(self, e)):
            before = self.targets.nick_before(e)
            if before is not False or got is None:
                return before
        return got

    def lone_executors(self) -> None:
        """«Тень_Ночи стреляет в Kotik»: the executor as the subject of the shot; else
        «Исполнитель — Y» on its own: a change of executor of this night's shot."""
        if "shoot" not in request_actions(self.role):
            return
        for e in self.executors:
            if e.used:
                continue
            e.used = True
            if self.strikes:
                continue  # the executor of a shot that was not read (already reported)
            before = self.targets.nick_before(e)
            after = self.targets.resolve(e.line, e.end)
            if isinstance(before, Got) and isinstance(after, Got) and is_verb(e.word):
                self.at = e.pos
                head = f"выстрел мафии: {after.nick}, исполнитель {before.nick}"
                notes = [head, self.explain_got(after, "выстрел мафии")]
                self._emit(self.request("shoot", after.nick, (), before.nick,
                                        join_notes(notes)))
                continue
            self.executor_change(Hit(e.line, e.start, e.end, "executor", e.word), e.end)

    def executor_change(self, h: Hit, after: int) -> None:
        self.at = h.pos
        got = self.targets.resolve(h.line, after, SELF_EXECUTOR)
        if got is None:
            got = self.targets.nick_before(h) or None
        prior = [r for r in self.earlier + self.requests if r.action == "shoot"]
        if not isinstance(got, Got):
            self.miss(got, h.line, "смена исполнителя")
            return
        if not prior:
            self.fail(
                "no_target",
                "смена исполнителя, но выстрела этой ночью ещё не было — кого стреляем?",
                h.line,
            )
            return
        note = "; ".join(
            x for x in ("смена исполнителя (N5)", self.explain_got(got, "исполнитель")) if x
        )
        self._emit(
            self.request("shoot", prior[-1].target, (), got.nick, note + f"; цель прежняя: "
                         f"{prior[-1].target}"), changed=True,
        )


def _ends_before(reader: ReaderBase, e: Hit) -> bool:
    """«…, Тень_Ночи стреляет»: the executor word closes its sentence (its nick is before)."""
    line = reader.lines[e.line]
    rest = line.masked[e.end:].lstrip(" \t")
    return not rest or rest[0] in ".!?;,"
