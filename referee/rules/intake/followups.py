"""A PM with no action word in it: a later PM that only names a new target or says «лучше
Лиса», a skipped night, chat that names other players (N1, N14).

A later PM that names one player and nothing else is read against the same sender's
earlier requests of the night: with a correction word («нет, лучше Лиса», «передумал,
Лиса», «Лиса вместо Kotik») it is a change of the earlier request (N1); the same target
again is a repeat; a bare nick that would change a request is asked, never guessed — a guess
would use up the once-per-game change. A first PM that is a bare nick, from a role with one
targeted action, is that action, flagged for the host to glance at.
"""

from __future__ import annotations

from dataclasses import replace

from referee.core.roles import ACTION_NAMES_RU, request_actions
from referee.rules.intake.changes import Changes
from referee.rules.intake.lines import HIT_FAMILIES, Line
from referee.rules.intake.results import IntakeFlag, join_notes
from referee.rules.intake.targets import Got
from referee.rules.intake.words import FILLERS, WORD_RE, expected

_BARE_OK = frozenset({"opener", "correction", "aim", "change", "hesitation"})
_OLD_MARK = frozenset({"вместо", "не"})
# «Нет, лучше Лиса», «Не, Лиса», «Хотя нет, Лиса»: a new target instead of the last one.
_CORRECTING = frozenset({"лучше", "нет", "не", "а", "хотя", "уж", "всё-таки", "все-таки"})


class Followups(Changes):
    """What a PM says when it holds no action word."""

    def nothing_read(self) -> None:
        allowed = request_actions(self.role)
        named = self._named()
        if not self.lines:
            self.fail("empty", "в сообщении нет собственного текста (только цитаты или пусто)")
        elif any(line.words_of("skip") for line in self.lines):
            self.fail("skip", "похоже, игрок пропускает ход — заявки нет", 0)
        elif not allowed:
            self.fail(
                "chatty",
                f"заявки нет: у роли «{self.role_ru()}» нет ночного хода, сообщение — "
                "просто разговор",
                0,
            )
        elif self.ignored_offrole:
            h = self.ignored_offrole[0]
            self.fail(
                "no_action",
                f"заявка не найдена: «{self.typed(h)}» внутри фразы не похоже на ход роли "
                f"«{self.role_ru()}»" + expected(self.role),
                h.line,
            )
        elif self._bare_nick(named):
            return
        elif named:
            self.fail(
                "no_action",
                f"ведущему проверить: в письме названы {', '.join(named)}, но хода роли "
                f"«{self.role_ru()}» не найдено" + expected(self.role),
                0,
            )
        else:
            self.fail(
                "no_action",
                f"заявка не найдена для роли «{self.role_ru()}»" + expected(self.role),
                0,
            )

    def corrections(self) -> None:
        """«Проверяю Фантома. Хотя нет, Вишню.»: a later sentence of the same PM that only
        names one other player, with a correction word, replaces the target of the request
        before it (the request as the player finally wrote it: no N1 change); without a
        correction word the host is asked."""
        for li, line in enumerate(self.lines):
            s0 = 0
            while s0 < len(line.masked):
                stop = line.sentence_end(s0)
                self._correction(li, line, s0, stop)
                # «Проверяю Kotik, то есть Снежок»: a clause that opens with a correction.
                for w in line.words_of("correction", s0 + 1, stop):
                    if line.masked[s0:w.start].rstrip()[-1:] in (",", "—", "–", "-"):
                        self._correction(li, line, w.start, stop, clause=True)
                s0 = stop + 1

    def _correction(self, li: int, line: Line, s0: int, stop: int, *,
                    clause: bool = False) -> None:
        if not self.requests or any(
            s0 <= w.start < stop for w in line.words if w.family in HIT_FAMILIES
        ):
            return
        used = {t for r in self.requests for t in (*r.all_targets(), r.executor) if t}
        spans = [(s, e, n) for s, e, n in line.spans if s0 <= s < stop]
        fresh = [(s, e, n) for s, e, n in spans if n not in used
                 and not _after_old_mark(line, s)]
        if len(fresh) != 1 or len(spans) > 2:
            return
        corrected = _bare_words(line, s0, stop)
        if corrected is None or (clause and not corrected):
            return
        s, e, nick = fresh[0]
        before = [i for i, p in enumerate(self.positions) if p < (li, s)]
        if not before:
            return
        i = max(before, key=lambda k: self.positions[k])
        r = self.requests[i]
        if not corrected or r.action in ("ambush", "protect"):
            self.ask(f"после заявки в письме назван ещё {nick} («{line.typed(s0, stop)}») — "
                     "это новая цель?", li)
            return
        what = ACTION_NAMES_RU.get(r.action, r.action)
        self.requests[i] = replace(r, target=nick, note=join_notes(
            [f"{what}: {nick}", f"поправка в том же письме: «{line.typed(s0, stop)}» "
             f"(было: {r.target})"]))

    def _named(self) -> list[str]:
        out: list[str] = []
        for line in self.lines:
            for n in line.named:
                name = n.nick or line.typed(n.start, n.end)
                if name not in out:
                    out.append(name)
        return out

    def _bare_nick(self, named: list[str]) -> bool:
        """A PM of one nick, perhaps with a correction («лучше», «вместо Kotik»). True when
        it was read (a request, a repeat, or a question to the host)."""
        new: list[Got] = []
        corrected = False
        doubtful = False
        for li, line in enumerate(self.lines):
            doubtful = doubtful or "?" in line.masked or bool(line.words_of("hesitation"))
            covered = [(w.start, w.end) for w in line.words if w.family in _BARE_OK]
            corrected = corrected or any(w.family in ("correction", "change")
                                         for w in line.words)
            for m in WORD_RE.finditer(line.masked):
                if m.group(0) in FILLERS or any(s <= m.start() < e for s, e in covered):
                    continue
                if m.group(0) in _CORRECTING:
                    corrected = True
                    continue
                return False
            for s, e, nick in line.spans:
                before = WORD_RE.findall(line.masked[max(0, s - 12): s])
                if before and before[-1] in _OLD_MARK:
                    continue  # «вместо Kotik», «не Kotik»: the old target
                new.append(Got(nick, line.typed(s, e), "exact", li, e))
        if len({g.nick for g in new}) != 1 or len(named) > 2:
            return False
        got = new[0]
        self.at = (got.line, 0)
        if doubtful:
            self.ask(f"в письме только ник {got.nick}, с сомнением или вопросом")
            return True
        prior = [r for r in self.earlier if r.action != "ambush"]
        if prior:
            return self._against_earlier(got, prior, corrected)
        action = self.default_action()
        if action is None or action == "protect":
            return False
        what = ACTION_NAMES_RU[action]
        note = f"в письме только ник — прочитано как {what}"
        self.flags.append(IntakeFlag(self.pm.pm_id, self.actor, got.typed, got.nick, "bare",
                                     note))
        executor = self.actor if action == "shoot" else None
        notes = [f"{what}: {got.nick}", note] + self.change_notes(False, None)
        self._emit(self.request(action, got.nick, (), executor, join_notes(notes)))
        return True

    def _against_earlier(self, got: Got, prior: list, corrected: bool) -> bool:
        last = prior[-1]
        if got.nick in last.all_targets():
            self._emit(self.request(last.action, last.target, last.targets, last.executor,
                                    join_notes([f"повтор прежней заявки: {got.nick}"])))
            return True
        what = ACTION_NAMES_RU.get(last.action, last.action)
        if not corrected or len({r.action for r in prior}) > 1 or last.action == "protect":
            self.ask(
                f"в письме только ник {got.nick}; прежняя заявка — {what} "
                f"{', '.join(last.all_targets())}: заменить её (это смена по N1)?",
            )
            return True
        notes = [f"{what}: {got.nick}"] + self.change_notes(True, last.target)
        notes.append(f"новое письмо меняет прежнюю заявку (ЛС #{last.source_id})")
        self._emit(self.request(last.action, got.nick, (), last.executor, join_notes(notes)),
                   changed=True)
        return True


def _after_old_mark(line: Line, s: int) -> bool:
    """«вместо Kotik», «не Kotik»: the nick named is the old target."""
    before = WORD_RE.findall(line.masked[max(0, s - 12): s])
    return bool(before) and before[-1] in _OLD_MARK


def _bare_words(line: Line, s0: int, stop: int) -> bool | None:
    """Whether the sentence holds nothing but a nick and small words: ``None`` when it says
    more, else whether it holds a correction word («нет», «лучше», «то есть»)."""
    covered = [(w.start, w.end) for w in line.words
               if w.family in _BARE_OK and s0 <= w.start < stop]
    corrected = any(w.family == "correction" for w in line.words if s0 <= w.start < stop)
    for m in WORD_RE.finditer(line.masked, s0, stop):
        if m.group(0) in _CORRECTING:
            corrected = True
        elif m.group(0) not in FILLERS and not any(a <= m.start() < b for a, b in covered):
            return None
    return corrected


def corrects_before(line: Line, start: int) -> bool:
    """«Хотя нет, убиваю Kotik»: a correction word opens the sentence of a request."""
    s0 = line.sentence_start(start)
    if line.words_of("correction", s0, start):
        return True
    return any(m.group(0) in ("нет", "хотя", "лучше")
               for m in WORD_RE.finditer(line.masked, s0, start))
