"""Night requests sent by PM, read from natural Russian (docs/rules.md N1, N5, N9, N12, N14).

Players write to the host in their own words: «Проверяю Kotik», «Стреляем в Мисс Марпл,
исполнитель Тень_Ночи», «Засада.», «Защищаю Kotik и Ира-Ира», «Меняю проверку на
Тень_Ночи». The reader turns such a PM into :class:`referee.rules.actions.Request` values for the
night engine, per the sender's role, and lists everything it could not read and why (N14):
it never guesses silently. The words are the vocabulary's (``vocabulary.toml``, matched by
lemma: :mod:`referee.rules.intake.vocabulary`), the reading of a nick in
:mod:`referee.rules.intake.targets`; the executor in :mod:`~referee.rules.intake.shots`,
changes and take-backs in :mod:`~referee.rules.intake.changes`, doubts in
:mod:`~referee.rules.intake.doubts`, a PM with no action word (a bare nick after an earlier
request, chat) in :mod:`~referee.rules.intake.followups`.

How a PM is read:

* Quoted lines are ignored (a reply quoting the host's message is not a request).
* A request starts at an action word of the sender's role (a verb like «проверяю», or a noun
  like «Проверка:», «Выстрел в», «Засада»). What follows is the target: a roster nick found
  in the free text (:meth:`Roster.find_named`: look-alike letters folded, another case
  «Лису» → Лиса FLAGGED), else the next one to three words matched with
  :meth:`Roster.match` (a near match is accepted but FLAGGED).
  Filler words between the verb and the nick («к себе», «в», «пожалуй») are skipped; what
  comes after the nick (a reason after a dash, chat) is ignored.
* Mafia (N5): «исполнитель Y» / «стреляет Y» names the executor; without one the sender is
  the executor, and the note says so.
* Necromancer (N9): two targets joined by «и» or a comma.
* A change (N1): «Меняю проверку на Z», «Меняю X на Z», «Исправление: …». It gives the same
  action with the new target as a later request; the night engine applies the once-per-game
  limit, so the intake only keeps the sending order (``Request.order``).
* The sergeant may send a check; it is accepted here with a note, and the engine rejects it
  unless he has become commissar (N12).
* An action word of another role only counts against the sender when it opens a sentence
  and names a player («Убиваю Kotik» from the doctor); inside chat («мафия может её убить»)
  it is not a request.
* Doubts are asked, never guessed: hesitation, a condition, «бы», a question, two names for
  a one-target action, two requests of one action in one PM.

Notes and reasons are plain text that quote what the player wrote: anything that puts them
into BBCode must pass them through :func:`referee.core.bbcode.escape`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from referee.core.kernel import PrivateMessage
from referee.core.nicks import Roster
from referee.core.roles import ACTION_NAMES_RU
from referee.rules.actions import Request
from referee.rules.intake.doubts import alternatives, condition, doubt
from referee.rules.intake.followups import Followups, corrects_before
from referee.rules.intake.lines import Hit, Line, find_hits, make_line, own_lines
from referee.rules.intake.results import IntakeResult, Unreadable, Withdrawal, join_notes
from referee.rules.intake.targets import Got, Miss
from referee.rules.intake.vocabulary import is_past
from referee.rules.intake.words import (
    NEG_RE,
    REPLY_PREFIX_RE,
    WORD_RE,
    action_for,
    expected,
)

_NOT_REQUESTS = ("change", "executor", "withdraw")


class _Reader(Followups):
    """Reads one PM for one sender (see the module docstring)."""

    def run(self, hits: list[Hit], order: int) -> IntakeResult:
        hits = sorted(hits, key=lambda h: h.pos)
        self.executors = [h for h in hits if h.family == "executor"]
        self.strikes = [h for h in hits if h.family == "strike"]
        hits = self.changes(hits)
        for h in hits:
            if h.used or h.family in _NOT_REQUESTS:
                continue
            self._action(h)
        self.lone_executors()
        self.corrections()
        self._one_per_action()
        self._drop_repeated_misses()
        if self.requests and (why := condition(self.lines)) and not any(
                u.kind == "doubt" for u in self.unreadable):
            self.ask(why)
        self._doubt_takes_all()
        if not self.requests and not self.unreadable and not self.withdrawals:
            self.nothing_read()
        # A «меняю … на Z» is read before the other action words; put every request and
        # take-back back where it stands in the message.
        items: list[tuple[tuple[int, int], int, Request | Withdrawal]] = [
            (p, i, r) for i, (p, r) in enumerate(zip(self.positions, self.requests,
                                                       strict=True))
        ] + [(p, len(self.requests) + i, w) for i, (p, w) in enumerate(
            zip(self.withdrawal_positions, self.withdrawals, strict=True))]
        reqs: list[Request] = []
        taken: list[Withdrawal] = []
        for n, (_, _, item) in enumerate(sorted(items, key=lambda x: (x[0], x[1]))):
            if isinstance(item, Request):
                reqs.append(replace(item, order=order + n))
            else:
                taken.append(replace(item, order=order + n))
        return IntakeResult(tuple(reqs), tuple(self.flags), tuple(self.unreadable),
                            tuple(taken))

    def _one_per_action(self) -> None:
        """Two requests in one PM with no change word between them (two checks, a kill and
        an ambush): which one the player means is the host's call — the engine would take
        the second as the N1 change."""
        first: Request | None = None
        for _, r, changed in sorted(zip(self.positions, self.requests, self.changed,
                                        strict=True), key=lambda x: x[0]):
            if first is None:
                first = r
                continue
            if changed or (r.action, r.all_targets()) == (first.action, first.all_targets()):
                continue
            self.ask(f"в одном письме две заявки ({_said(first)} и {_said(r)}) — какая из "
                     "них?")
            self.requests, self.positions, self.changed = [], [], []
            return

    def _drop_repeated_misses(self) -> None:
        """«Бабах! Цель — Барсик»: an action word with no nick of its own is the same
        request as the one read beside it, not a second one with its nick missing."""
        read = {ACTION_NAMES_RU[r.action] for r in self.requests}
        self.unreadable = [
            u for u in self.unreadable
            if not (u.kind == "no_target" and u.reason.split(":")[0] in read)
        ]

    def _doubt_takes_all(self) -> None:
        """A PM that asks the host anything («Убиваю Kotik. Или засада?») puts its other
        requests to him too: the player has not made up his mind. One question a PM."""
        doubts = [u for u in self.unreadable if u.kind == "doubt"]
        if len(doubts) > 1:
            merged = replace(doubts[0], reason="; ".join(
                [doubts[0].reason] + [d.reason.removeprefix("ведущему проверить: ")
                                      for d in doubts[1:]]))
            self.unreadable = [merged] + [u for u in self.unreadable if u.kind != "doubt"]
        if not self.requests or not doubts:
            return
        read = "; ".join(_said(r) for r in self.requests)
        i = next(i for i, u in enumerate(self.unreadable) if u.kind == "doubt")
        first = self.unreadable[i]
        self.unreadable[i] = replace(
            first, reason=f"{first.reason}; в том же письме прочитано: {read} — засчитать?")
        self.requests, self.positions, self.changed = [], [], []

    def _action(self, h: Hit) -> None:
        self.at = h.pos
        line = self.lines[h.line]
        if " " not in h.word and is_past(h.word) and not _mood(line, h):
            self.ignored_offrole.append(h)  # «Вчера проверил Kotik»: told, not asked
            return
        if h.family == "aim" or h.subject:
            action = self.default_action() if h.family == "aim" else action_for(
                h.family, self.role)
            if action is None or not self._opens_sentence(h):
                return
        else:
            action = action_for(h.family, self.role)
        if action is None:
            named = h.family == "ambush" or isinstance(
                self.targets.resolve(h.line, h.end, next_line=False), Got)
            if self._opens_sentence(h) and named:
                self.fail(
                    "not_allowed",
                    f"«{self.typed(h)}»: у роли «{self.role_ru()}» нет "
                    f"такого хода" + expected(self.role),
                    h.line,
                )
            else:
                self.ignored_offrole.append(h)
            return
        why = doubt(line, h.start, h.end)
        if why and why.startswith("условие"):
            self.ask(f"«{self.typed(h)}»: {why}", h.line)
            return
        if NEG_RE.search(line.masked[: h.start]):
            self.fail(
                "negated", f"«не {self.typed(h)}»: отрицание — это не заявка",
                h.line,
            )
            return
        self.build(action, h, h.end, changed=h.changed)

    def _opens_sentence(self, h: Hit) -> bool:
        line = self.lines[h.line]
        start = line.sentence_start(h.start)
        for sep in ",:—–(":
            cut = line.masked.rfind(sep, start, h.start)
            if cut >= 0:
                start = max(start, cut + 1)
        lead = {(w.start, w.end) for w in line.words_of("opener", start, h.start)}
        return all(
            any(s <= m.start() < e for s, e in lead)
            for m in WORD_RE.finditer(line.masked, start, h.start)
        )

    def build(
        self, action: str, h: Hit, after: int, *, changed: bool, old: str | None = None,
    ) -> None:
        what = ACTION_NAMES_RU[action]
        notes = self.change_notes(changed, old)
        if action == "ambush":
            why = doubt(self.lines[h.line], h.start, h.end)
            if why:
                self.ask(f"{what}: {why}", h.line)
                return
            self._emit(self.request(action, None, (), None, join_notes(["засада"] + notes)))
            if len(self.requests) > 1 and corrects_before(self.lines[h.line], h.start):
                self.requests, self.positions, self.changed = (
                    self.requests[-1:], self.positions[-1:], self.changed[-1:])
            return
        got = self.targets.resolve(h.line, after)
        if (h.family == "aim" or h.subject) and not isinstance(got, Got):
            return  # «Моя цель — выжить», «Маньяк сегодня злой»: chat, not a request
        if not isinstance(got, Got):
            why = doubt(self.lines[h.line], h.start, h.end)
            if why:
                self.ask(f"{what}: {why}", h.line)
            else:
                self.miss(got, h.line, what)
            return
        if action == "shoot" and got.kind == "self" and got.typed.casefold() in ("сам", "сама"):
            self._self_executor(got)  # «Наш выбор — Профессор. Стреляю сам.»
            return
        if action == "blow" and got.kind == "self":
            # «Взрываю себя и Kotik»: the kamikaze always dies with his target (N7).
            other = self.targets.second_target(got)
            if isinstance(other, Got):
                got = other
        if self._doubtful(h, got, what, action):
            return
        notes.append(self.explain_got(got, what))
        if action == "protect":
            self._build_protect(got, what, notes)
            return
        executor = None
        if action == "shoot":
            executor = self.shot_executor(h, changed, notes)
            if executor is None:
                return
        head = f"{what}: {got.nick}" + (f", исполнитель {executor}" if executor else "")
        corrects = bool(self.requests) and corrects_before(self.lines[h.line], h.start)
        self._emit(self.request(action, got.nick, (), executor, join_notes([head] + notes)),
                   changed=changed)
        if corrects:
            # «Засада. Хотя нет, убиваю Kotik»: the PM's earlier request is replaced, as the
            # player finally wrote it (no N1 change).
            self.requests, self.positions, self.changed = (
                self.requests[-1:], self.positions[-1:], self.changed[-1:])

    def _self_executor(self, got: Got) -> None:
        """«Стреляю сам» after the clan's target: the sender is the executor (N5)."""
        shots = [i for i, r in enumerate(self.requests) if r.action == "shoot"]
        if not shots:
            self.fail("no_target", f"выстрел мафии: «{got.typed}» — а в кого?", got.line)
            return
        i = shots[-1]
        r = self.requests[i]
        self.requests[i] = replace(r, executor=self.actor, note=join_notes(
            [r.note, f"«{got.typed}»: исполнитель — {self.actor}"]))

    def _doubtful(self, h: Hit, got: Got, what: str, action: str) -> bool:
        """Two names, alternatives or a doubt: reported or asked, True when so."""
        line = self.lines[got.line]
        if action != "protect":
            other = self.targets.another_target(got)
            if other:
                self.fail(
                    "two_targets",
                    f"{what}: названы двое ({got.nick} и {other}), а ход — на одного игрока",
                    h.line,
                )
                return True
            if alternatives(line, got.end):
                self.ask(f"{what}: после {got.nick} предложен и другой игрок («или»)",
                         h.line)
                return True
        why = doubt(line, h.start if got.line == h.line else 0, got.end)
        if why:
            self.ask(f"{what} {got.nick}: {why}", got.line)
            return True
        return False

    def _build_protect(self, got: Got, what: str, notes: list[str]) -> None:
        """N9: the necromancer names two players; one named is read with a note."""
        second = self.targets.second_target(got)
        if isinstance(second, Miss):
            self.miss(second, got.line, what)
            return
        if second is None:
            notes.append("назван один игрок, а N9 требует двух")
            self._emit(
                self.request("protect", None, (got.nick,), None, join_notes([what] + notes))
            )
            return
        notes.append(self.explain_got(second, what))
        self._emit(
            self.request(
                "protect", None, (got.nick, second.nick), None,
                join_notes([f"{what}: {got.nick} и {second.nick}"] + notes),
            )
        )


def _mood(line: Line, h: Hit) -> bool:
    """«Проверил бы Kotik»: the past tense with «бы» is a wish — the doubts read it."""
    near = WORD_RE.findall(line.masked[max(0, h.start - 8): h.end + 4])
    return "бы" in near or "б" in near


def _said(r: Request) -> str:
    what = ACTION_NAMES_RU.get(r.action, r.action)
    return f"{what} {', '.join(r.all_targets())}".strip()


def sender_nick(sender: str, roster: Roster) -> str | None:
    """The roster nick of a PM's sender: the forum name exactly, an alias or with look-alike
    letters folded — never a near match or another case (the forum's own name is neither)."""
    m = roster.match(sender)
    if m.nick is not None and m.kind in ("exact", "alias", "folded"):
        return m.nick
    return None


def read_requests(
    pm: PrivateMessage,
    sender_role: str | None,
    roster: Roster,
    *,
    order: int,
    earlier: Sequence[Request] = (),
) -> IntakeResult:
    """Read one PM to the host as night requests of a sender with ``sender_role`` (a role id
    of :data:`referee.core.roles.ROLE_IDS`; ``None`` for someone not in the game).

    Requests get ``order``, ``order + 1``, … in the order they stand in the message.
    ``earlier`` are this night's requests already read; the sender's own are used so that
    «Меняю выстрел на Z» keeps his earlier executor and «Меняю X на Z» his earlier action.
    Every part that cannot be read is in ``unreadable`` with its reason (N14)."""
    actor = sender_nick(pm.sender, roster) or pm.sender
    if sender_role is None:
        return IntakeResult(
            unreadable=(
                Unreadable(
                    pm.pm_id, pm.sender, "non_player",
                    f"{pm.sender} не играет в этой игре — сообщение не читается как заявка",
                    (pm.subject or "")[:160], pm.sent_at,
                ),
            )
        )
    lines = [make_line(t, roster) for t in own_lines(pm)]
    hits = find_hits(lines)
    if not any(h.family not in _NOT_REQUESTS for h in hits) and pm.subject:
        # «Проверка» in the subject and «Kotik» in the body: read the subject as line one.
        subject = REPLY_PREFIX_RE.sub("", pm.subject)
        with_subject = [make_line(subject, roster)] + lines
        subject_hits = find_hits(with_subject)
        if any(h.line == 0 and h.family not in _NOT_REQUESTS for h in subject_hits):
            lines, hits = with_subject, subject_hits
    reader = _Reader(pm, actor, sender_role, roster, lines, earlier)
    return reader.run(hits, order)

