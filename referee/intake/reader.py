"""Night requests sent by PM, read from natural Russian (RULES.md N1, N5, N9, N12, N14).

Players write to the host in their own words: «Проверяю Kotik», «Стреляем в Мисс Марпл,
исполнитель Тень_Ночи», «Засада.», «Защищаю Kotik и Ира-Ира», «Меняю проверку на
Тень_Ночи». The reader turns such a PM into :class:`referee.actions.Request` values for the
night engine, per the sender's role, and lists everything it could not read and why (N14):
it never guesses silently. The words are in :mod:`referee.intake.words`, the reading of a
nick in :mod:`referee.intake.targets`.

How a PM is read:

* Quoted lines are ignored (a reply quoting the host's message is not a request).
* A request starts at an action word of the sender's role (a verb like «проверяю», or a noun
  like «Проверка:», «Выстрел в», «Засада»). What follows is the target: a roster nick found
  in the free text (:meth:`Roster.find_spans`), else the next one to three words matched
  with :meth:`Roster.match` (look-alike letters folded; a near match is accepted but
  FLAGGED), else a Russian case ending undone («Лису» → Лиса, also flagged).
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
  («Убиваю Kotik» from the doctor); inside chat («мафия может её убить») it is not a request.

Notes and reasons are plain text that quote what the player wrote: anything that puts them
into BBCode must pass them through :func:`referee.bbcode.escape`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from referee.actions import Request
from referee.intake.lines import Hit, Line, find_hits, make_line, own_lines
from referee.intake.results import IntakeFlag, IntakeResult, Unreadable, join_notes
from referee.intake.targets import Got, Miss, Targets
from referee.intake.words import (
    CHANGE_NOUNS,
    LEAD_WORDS,
    NA_RE,
    NEG_RE,
    NOUN_HITS,
    REPLY_PREFIX_RE,
    SELF_EXECUTOR,
    SKIP_RE,
    WORD_RE,
    action_for,
    expected,
)
from referee.kernel import PrivateMessage
from referee.nicks import Roster
from referee.roles import ACTION_NAMES_RU, request_actions, role_ru


def _role_ru(role: str | None) -> str:
    return "не игрок" if role is None else role_ru(role)


class _Reader:
    """Reads one PM for one sender (see the module docstring)."""

    def __init__(
        self,
        pm: PrivateMessage,
        actor: str,
        role: str,
        roster: Roster,
        lines: list[Line],
        earlier: Sequence[Request],
    ) -> None:
        self.pm = pm
        self.actor = actor
        self.role = role
        self.roster = roster
        self.lines = lines
        self.earlier = [r for r in earlier if r.actor == actor]
        self.requests: list[Request] = []
        self.flags: list[IntakeFlag] = []
        self.unreadable: list[Unreadable] = []
        self.ignored_offrole: list[Hit] = []
        self.executors: list[Hit] = []
        self.strikes: list[Hit] = []
        self.at: tuple[int, int] = (0, 0)  # where the request being read stands
        self.positions: list[tuple[int, int]] = []
        self.targets = Targets(lines, roster, actor)

    def _emit(self, request: Request) -> None:
        self.requests.append(request)
        self.positions.append(self.at)

    # -- small helpers

    def excerpt(self, li: int) -> str:
        text = self.lines[li].raw.strip() if 0 <= li < len(self.lines) else ""
        return text if len(text) <= 160 else text[:157] + "…"

    def typed(self, h: Hit) -> str:
        """The action word as the player typed it."""
        return self.lines[h.line].typed(h.start, h.end)

    def fail(self, kind: str, reason: str, li: int = -1) -> None:
        self.unreadable.append(
            Unreadable(self.pm.pm_id, self.actor, kind, reason, self.excerpt(li), self.pm.sent_at)
        )

    def explain_got(self, got: Got, what: str) -> str:
        """A note for the request, and a flag for a doubtful reading."""
        if got.kind == "near":
            note = f"«{got.typed}» прочитано как {got.nick} (близкое совпадение)"
        elif got.kind == "inflected":
            note = f"«{got.typed}» прочитано как {got.nick} (падежная форма)"
        elif got.kind == "folded":
            note = f"«{got.typed}» = {got.nick} (похожие латинские/русские буквы)"
        elif got.kind == "self":
            return f"{what}: «{got.typed}» = сам отправитель"
        else:
            return ""
        if got.kind in ("near", "inflected"):
            self.flags.append(
                IntakeFlag(self.pm.pm_id, self.actor, got.typed, got.nick, got.kind, note)
            )
        return note

    def miss(self, miss: Miss | None, li: int, what: str) -> None:
        if miss is None:
            self.fail("no_target", f"{what}: не указан ник", li)
        elif miss.kind == "ambiguous_nick":
            self.fail(
                "ambiguous_nick",
                f"{what}: «{miss.typed}» может быть любым из: {', '.join(miss.candidates)}",
                li,
            )
        else:
            self.fail("unknown_nick", f"{what}: «{miss.typed}» — нет такого игрока", li)

    # -- the main loop

    def run(self, hits: list[Hit], order: int) -> IntakeResult:
        hits = sorted(hits, key=lambda h: h.pos)
        self.executors = [h for h in hits if h.family == "executor"]
        self.strikes = [h for h in hits if h.family == "strike"]
        hits = self._changes(hits)
        for h in hits:
            if h.used or h.family in ("change", "executor"):
                continue
            self._action(h)
        self._lone_executors()
        if not self.requests and not self.unreadable:
            self._nothing_read()
        # A «меняю … на Z» is read before the other action words; put every request back
        # where it stands in the message.
        placed = sorted(zip(self.positions, range(len(self.requests)), self.requests,
                            strict=True))
        reqs = tuple(_with_order(r, order + i) for i, (_, _, r) in enumerate(placed))
        return IntakeResult(reqs, tuple(self.flags), tuple(self.unreadable))

    def _changes(self, hits: list[Hit]) -> list[Hit]:
        """N1: «меняю … на Z» becomes a request of its own; a bare «исправление:» or «меняю»
        before another action word marks that request as a change."""
        out: list[Hit] = []
        consumed: list[tuple[int, int, int]] = []
        marker_pending = False
        for h in hits:
            if any(h.line == li and s <= h.start < e for li, s, e in consumed):
                h.used = True  # «меняю ВЫСТРЕЛ на …»: part of the change, not a request
                continue
            if h.family != "change":
                if marker_pending:
                    h.changed = True
                    marker_pending = False
                out.append(h)
                continue
            line = self.lines[h.line]
            stop = line.sentence_end(h.end)
            na = NA_RE.search(line.masked, h.end, stop)
            between = [
                o for o in hits
                if o.line == h.line and na and h.end <= o.start < na.start()
            ]
            if na is None or any(o.word not in NOUN_HITS for o in between):
                marker_pending = True
                out.append(h)
                continue
            consumed.append((h.line, h.start, na.end()))
            for o in between:
                o.used = True
            after = self.targets.skip(h.line, na.end())
            inner = next(
                (o for o in hits if o.line == h.line and o.start == after
                 and o.family != "change"),
                None,
            )
            if inner is not None:
                inner.changed = True
                out.append(h)
                continue
            self._change_request(h, line.masked[h.end: na.start()], na.end())
            h.used = True
            out.append(h)
        if marker_pending and not any(
            o.family not in ("change", "executor") for o in out if not o.used
        ) and not any(o.used and o.family == "change" for o in out):
            last = next(o for o in reversed(out) if o.family == "change")
            self.fail(
                "no_target",
                f"«{self.typed(last)}»: исправление без новой заявки (напишите, например, "
                f"«Меняю {ACTION_NAMES_RU.get(self._default_action() or '', 'заявку')} на Ник»)",
                last.line,
            )
        return out

    def _default_action(self) -> str | None:
        targeted = [a for a in request_actions(self.role) if a != "ambush"]
        return targeted[0] if len(targeted) == 1 else None

    def _change_request(self, h: Hit, what: str, after: int) -> None:
        self.at = h.pos
        fam = next((f for f, rx in CHANGE_NOUNS if rx.search(what)), None)
        old = [nick for s, e, nick in self.lines[h.line].spans if h.end <= s < after]
        if fam == "executor":
            self._executor_change(h, after)
            return
        action: str | None
        if fam is None:
            prior = [r for r in self.earlier + self.requests if r.action != "ambush"]
            if old:
                prior = [r for r in prior if old[0] in r.all_targets()] or prior
            action = prior[-1].action if prior else self._default_action()
        elif fam == "ambush":
            action = self._default_action()
        else:
            action = action_for(fam, self.role)
        if action is None:
            what_ru = self.lines[h.line].typed(h.end, after).removesuffix("на").strip()
            self.fail(
                "not_allowed",
                f"«{self.typed(h)} {what_ru} на …»: у роли «{_role_ru(self.role)}» нет такого хода"
                + expected(self.role),
                h.line,
            )
            return
        self._build(action, h, after, changed=True, old=old[0] if old else None)

    def _executor_change(self, h: Hit, after: int) -> None:
        self.at = h.pos
        got = self.targets.resolve(h.line, after, SELF_EXECUTOR)
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
            self._request("shoot", prior[-1].target, (), got.nick, note + f"; цель прежняя: "
                          f"{prior[-1].target}")
        )

    def _action(self, h: Hit) -> None:
        self.at = h.pos
        line = self.lines[h.line]
        if h.family == "aim":
            action = self._default_action()
            if action is None or not self._opens_sentence(h):
                return
        else:
            action = action_for(h.family, self.role)
        if action is None:
            if self._opens_sentence(h):
                self.fail(
                    "not_allowed",
                    f"«{self.typed(h)}»: у роли «{_role_ru(self.role)}» нет "
                    f"такого хода" + expected(self.role),
                    h.line,
                )
            else:
                self.ignored_offrole.append(h)
            return
        if NEG_RE.search(line.masked[: h.start]):
            self.fail(
                "negated", f"«не {self.typed(h)}»: отрицание — это не заявка",
                h.line,
            )
            return
        self._build(action, h, h.end, changed=h.changed)

    def _opens_sentence(self, h: Hit) -> bool:
        line = self.lines[h.line]
        start = line.sentence_start(h.start)
        for sep in ",:—–(":
            cut = line.masked.rfind(sep, start, h.start)
            if cut >= 0:
                start = max(start, cut + 1)
        words = WORD_RE.findall(line.masked[start: h.start])
        return all(w in LEAD_WORDS for w in words)

    def _build(
        self,
        action: str,
        h: Hit,
        after: int,
        *,
        changed: bool,
        old: str | None = None,
    ) -> None:
        what = ACTION_NAMES_RU[action]
        notes = self._change_notes(changed, old)
        if action == "ambush":
            self._emit(self._request(action, None, (), None, join_notes(["засада"] + notes)))
            return
        got = self.targets.resolve(h.line, after)
        if not isinstance(got, Got):
            self.miss(got, h.line, what)
            return
        if action == "blow" and got.kind == "self":
            # «Взрываю себя и Kotik»: the kamikaze always dies with his target (N7).
            other = self.targets.second_target(got)
            if isinstance(other, Got):
                got = other
        notes.append(self.explain_got(got, what))
        if action == "protect":
            self._build_protect(got, what, notes)
            return
        other = self.targets.another_target(got)
        if other:
            self.fail(
                "two_targets",
                f"{what}: названы двое ({got.nick} и {other}), а ход — на одного игрока",
                h.line,
            )
            return
        executor = None
        if action == "shoot":
            executor = self._shot_executor(h, changed, notes)
            if executor is None:
                return
        head = f"{what}: {got.nick}" + (f", исполнитель {executor}" if executor else "")
        self._emit(
            self._request(action, got.nick, (), executor, join_notes([head] + notes))
        )

    def _change_notes(self, changed: bool, old: str | None) -> list[str]:
        """The notes every request of this reading starts with: a change (N1), a sergeant's
        check (N12)."""
        notes: list[str] = []
        if changed:
            notes.append(
                f"исправление заявки{f' (было: {old})' if old else ''} — N1: менять можно "
                "один раз за игру, решает разбор ночи"
            )
        if self.role == "sergeant":
            notes.append(
                "сержант: проверка засчитывается, только если он уже стал комиссаром (N12)"
            )
        return notes

    def _build_protect(self, got: Got, what: str, notes: list[str]) -> None:
        """N9: the necromancer names two players; one named is read with a note."""
        second = self.targets.second_target(got)
        if isinstance(second, Miss):
            self.miss(second, got.line, what)
            return
        if second is None:
            notes.append("назван один игрок, а N9 требует двух")
            self._emit(
                self._request("protect", None, (got.nick,), None, join_notes([what] + notes))
            )
            return
        notes.append(self.explain_got(second, what))
        self._emit(
            self._request(
                "protect", None, (got.nick, second.nick), None,
                join_notes([f"{what}: {got.nick} и {second.nick}"] + notes),
            )
        )

    def _shot_executor(self, h: Hit, changed: bool, notes: list[str]) -> str | None:
        """N5: who fires this shot — the executor named, the earlier one for a change, else
        the sender. ``None`` when the executor named cannot be read (already reported)."""
        found = self._executor_for(h)
        if isinstance(found, Miss) or found is False:
            self.miss(found or None, h.line, "исполнитель")
            return None
        if found is None:
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
        executors = self.executors
        later = [s.pos for s in self.strikes if s.pos > h.pos and not s.used]
        limit = min(later) if later else (len(self.lines), 0)
        line = self.lines[h.line]
        cands = [e for e in executors if not e.used and h.pos < e.pos < limit] + [
            e for e in executors
            if not e.used and e.line == h.line and line.sentence_start(h.start) <= e.start
            < h.start
        ]
        if not cands:
            return None
        e = cands[0]
        e.used = True
        got = self.targets.resolve(e.line, e.end, SELF_EXECUTOR)
        if got is None:
            return self.targets.nick_before(e)
        return got

    def _lone_executors(self) -> None:
        """«Исполнитель — Y» on its own: a change of executor of this night's shot."""
        if "shoot" not in request_actions(self.role):
            return
        for e in self.executors:
            if not e.used:
                e.used = True
                self._executor_change(Hit(e.line, e.start, e.end, "executor", e.word), e.end)

    def _nothing_read(self) -> None:
        text = " ".join(line.masked for line in self.lines)
        allowed = request_actions(self.role)
        if not self.lines:
            self.fail("empty", "в сообщении нет собственного текста (только цитаты или пусто)")
        elif SKIP_RE.search(text):
            self.fail("skip", "похоже, игрок пропускает ход — заявки нет", 0)
        elif not allowed:
            self.fail(
                "chatty",
                f"заявки нет: у роли «{_role_ru(self.role)}» нет ночного хода, сообщение — "
                "просто разговор",
                0,
            )
        elif self.ignored_offrole:
            h = self.ignored_offrole[0]
            self.fail(
                "no_action",
                f"заявка не найдена: «{self.typed(h)}» внутри фразы не похоже на ход роли "
                f"«{_role_ru(self.role)}»" + expected(self.role),
                h.line,
            )
        else:
            self.fail(
                "no_action",
                f"заявка не найдена для роли «{_role_ru(self.role)}»" + expected(self.role),
                0,
            )

    def _request(
        self,
        action: str,
        target: str | None,
        targets: tuple[str, ...],
        executor: str | None,
        note: str,
    ) -> Request:
        return Request(
            actor=self.actor,
            action=action,
            target=target,
            targets=targets,
            executor=executor,
            sent_at=self.pm.sent_at,
            source="pm",
            source_id=str(self.pm.pm_id),
            note=note,
        )


def _with_order(r: Request, order: int) -> Request:
    return replace(r, order=order)


def sender_nick(sender: str, roster: Roster) -> str | None:
    """The roster nick of a PM's sender: the forum name exactly, an alias or with look-alike
    letters folded — never a near match (the forum's own name is not a typo)."""
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
    of :data:`referee.roles.ROLE_IDS`; ``None`` for someone not in the game).

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
    if not any(h.family != "change" for h in hits) and pm.subject:
        # «Проверка» in the subject and «Kotik» in the body: read the subject as line one.
        subject = REPLY_PREFIX_RE.sub("", pm.subject)
        with_subject = [make_line(subject, roster)] + lines
        subject_hits = find_hits(with_subject)
        if any(h.line == 0 and h.family != "change" for h in subject_hits):
            lines, hits = with_subject, subject_hits
    reader = _Reader(pm, actor, sender_role, roster, lines, earlier)
    return reader.run(hits, order)

