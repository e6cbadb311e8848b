"""Night requests sent by PM, read from natural Russian (RULES.md N1, N5, N9, N12, N14).

Players write to the host in their own words: «Проверяю Kotik», «Стреляем в Мисс Марпл,
исполнитель Тень_Ночи», «Засада.», «Защищаю Kotik и Ира-Ира», «Меняю проверку на
Тень_Ночи». This module turns such a PM into :class:`referee.actions.Request` values for the
night engine, per the sender's role, and lists everything it could not read and why (N14):
it never guesses silently.

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

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Literal

from referee.actions import Request
from referee.config import Config
from referee.kernel import PrivateMessage
from referee.markup import plain_text, unquoted_lines
from referee.nicks import Roster, fold, normalise
from referee.roles import ACTION_NAMES_RU, EXAMPLE_OF_ROLE, request_actions, role_ru

# ----------------------------------------------------------------------------- value types

UnreadableKind = Literal[
    "non_player",  # the sender is not in the game
    "empty",  # nothing of the sender's own (only quotes, or blank)
    "chatty",  # no request, and the role has no night action (a citizen's chat)
    "no_action",  # no action word of the sender's role
    "skip",  # the player says he skips the night
    "not_allowed",  # an action word of another role
    "negated",  # «не проверяю …»
    "no_target",  # an action word with no nick after it
    "unknown_nick",  # the typed name matches no player
    "ambiguous_nick",  # the typed name could be two players
    "two_targets",  # two players named for a one-target action
    "outside_window",  # a request sent outside the night window (read_night)
    "necromancer_turn",  # a necromancer's day request after turn 3 (N9)
]


@dataclass(frozen=True, slots=True)
class Unreadable:
    """What could not be read from a PM, and why (N14). ``excerpt`` is the line concerned."""

    pm_id: int | None
    sender: str
    kind: str
    reason: str
    excerpt: str = ""
    sent_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class IntakeFlag:
    """A nick read with some doubt (near match or a case ending): counted, but the host
    should glance at it (RULES.md V2 applied to night requests)."""

    pm_id: int | None
    actor: str
    typed: str
    nick: str
    kind: str  # near | inflected
    note: str


@dataclass(frozen=True, slots=True)
class IntakeResult:
    """The requests read from one PM, with flags and what could not be read."""

    requests: tuple[Request, ...] = ()
    flags: tuple[IntakeFlag, ...] = ()
    unreadable: tuple[Unreadable, ...] = ()


@dataclass(frozen=True, slots=True)
class NightIntake:
    """Every request of one night, in sending order, and every PM item that was not read."""

    night: int
    window: tuple[datetime, datetime]
    requests: tuple[Request, ...]
    flags: tuple[IntakeFlag, ...]
    unreadable: tuple[Unreadable, ...]
    pm_ids: tuple[int, ...] = ()

    @property
    def day_requests(self) -> tuple[Request, ...]:
        """The necromancer's requests sent during the day before this night (N9): named by
        day, they protect from this very night on."""
        start = self.window[0]
        return tuple(r for r in self.requests if r.sent_at is not None and r.sent_at < start)

    @property
    def night_requests(self) -> tuple[Request, ...]:
        """The requests sent inside the night window."""
        start = self.window[0]
        return tuple(r for r in self.requests if r.sent_at is None or r.sent_at >= start)


# ------------------------------------------------------------------------- words and roles


# Families of action words. A family maps to actions; the sender's role picks one of them
# («Убиваю» is a mafia shot for a mafioso, a kill for the maniac or the ninja).
_FAMILY_ACTIONS: dict[str, tuple[str, ...]] = {
    "check": ("check",),
    "heal": ("heal",),
    "strike": ("shoot", "kill"),
    "beat": ("beat",),
    "take": ("take",),
    "ambush": ("ambush",),
    "blow": ("blow",),
    "protect": ("protect",),
}

# Order matters where two patterns start at the same place: the executor's «стрелять
# будет» before the strike's «стрелять», a change before everything.
_FAMILIES: tuple[tuple[str, str], ...] = (
    ("change", r"меня(?:ю|ем)|поменя(?:ю|ем)|сменю|сменим|изменя(?:ю|ем)|исправление"
               r"|исправляю|передумал[аи]?"),
    ("executor", r"исполнител(?:ь|ем|я)|исполняет|исп\.|стреляет|стрелять\s+будет"
                 r"|стреляющий"),
    ("check", r"провер(?:яю|яем|ю|им|ка|ь|ьте|ить)"),
    ("heal", r"леч(?:у|им|ение|ить)|вылеч(?:у|им|и)|спаса(?:ю|ем)|хилю|хилим"),
    ("strike", r"стреля(?:ю|ем)|стрелять|выстрел(?:им)?|пристрелим|убива(?:ю|ем)|убь(?:ю|ем)"
               r"|убить|убийство"),
    ("beat", r"бью|бьем|избива(?:ю|ем)|избить|изобью|побью|избиение"),
    ("take", r"забира(?:ю|ем)|заберу|забрать|беру"),
    ("ambush", r"засад(?:а|у|е|ой)"),
    ("blow", r"взрыва(?:ю|ем)|подрыва(?:ю|ем)|взрываюсь|подрываюсь|взорву|подорву|взорвать"
             r"|подорвать|взрыв|подрыв"),
    ("protect", r"защища(?:ю|ем)|защищу|защита|воскреша(?:ю|ем)|воскрешу|воскрешение"
                r"|протект"),
    # «Цель: Kotik» — the role's one targeted action; only where it opens a sentence.
    ("aim", r"цель|мишень"),
)
_HIT_RE = re.compile(
    "|".join(rf"(?P<{fam}>(?<!\w)(?:{pat})(?!\w))" for fam, pat in _FAMILIES)
)
# Action words that are nouns: allowed between «меняю» and «на» («меняю засаду на …»).
_NOUN_HITS = frozenset(
    {"проверка", "лечение", "выстрел", "убийство", "избиение", "взрыв", "подрыв", "защита",
     "воскрешение", "засада", "засаду", "засаде", "засадой", "исполнителя", "исполнитель",
     "исполнителем", "цель", "мишень"}
)
# What a change replaces («меняю ПРОВЕРКУ на …»), by family.
_CHANGE_NOUNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (fam, re.compile(rf"(?<!\w)(?:{pat})")) for fam, pat in (
        ("executor", r"исполнител|стреляющ"),
        ("check", r"провер|чек"),
        ("heal", r"лечени|леч|хил"),
        ("strike", r"выстрел|убийств|стрел|убив"),
        ("beat", r"избиени|бь|избив"),
        ("take", r"гост|забир"),
        ("ambush", r"засад"),
        ("blow", r"взрыв|подрыв"),
        ("protect", r"защит|воскреш|протект"),
    )
)
_NA_RE = re.compile(r"(?<!\w)на(?!\w)")
_NEG_RE = re.compile(r"(?<!\w)не\s*$")
_SKIP_RE = re.compile(r"пропуска|без\s+хода|никого\s+не|не\s+хожу|не\s+буду\s+ходить")
_WORD_RE = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
_TOKEN_RE = re.compile(r"\S+")

_SENTENCE_END = ".!?;…"
_SKIP_CHARS = " \t:,-—–«»\"'()*„“”`"
_SEPARATOR_CHARS = ",+&/"
_FILLERS = frozenset(
    {"в", "во", "на", "к", "ко", "у", "себе", "игрока", "игрок", "ника", "ник",
     "пользователя", "персонажа", "пожалуй", "пожалуйста", "наверное", "сегодня", "этой",
     "эту", "ночью", "тогда", "лучше", "все-таки", "всетаки", "давай", "давайте", "плиз",
     "итак", "мы", "цели", "вместе", "с", "со", "беседу", "беседы"}
)
# Words that may open a sentence before an action word without making it chat.
_LEAD_WORDS = frozenset(
    {"я", "мы", "ну", "итак", "так", "тогда", "ок", "окей", "хорошо", "сегодня", "этой",
     "ночью", "ночь", "привет", "исправление", "пожалуй", "наверное", "а", "и", "но", "все",
     "всё", "ладно", "значит", "короче"}
)
_SELF_TARGET = frozenset({"себя", "меня"})
_SELF_EXECUTOR = frozenset({"я", "сам", "сама", "себя", "меня"})
_SECOND_TARGET_WORDS = frozenset({"и", "а", "также", "плюс"})

# Case endings (folded like the nicks) for reading «Лису» as Лиса (flagged).
_NICK_TAILS = frozenset(fold(t) for t in ("", "а", "я", "ь", "й", "о", "е", "ок", "ек", "ец"))
_TOKEN_TAILS = frozenset(
    fold(t) for t in (
        "", "а", "я", "у", "ю", "е", "и", "ы", "ом", "ем", "ой", "ей", "ою", "ею", "ым", "им",
        "ка", "ку", "ке", "ком", "ки", "ька", "ьку", "ьке", "ьком", "ца", "цу", "це", "цом",
    )
)
_SPACE_CHAR = re.compile(r"[\s\u00a0\u200b\u200c\u200d\u2060\ufeff]")


def _role_ru(role: str | None) -> str:
    if role is None:
        return "не игрок"
    return role_ru(role)


# ------------------------------------------------------------------------------ text lines

@dataclass
class _Line:
    """One line of the PM: ``norm`` is :func:`normalise` of it (what nicks are found in),
    ``masked`` the same with every roster nick blanked (so a nick like «Засада» is not read
    as an action word and «Mr. Smith» has no sentence end), ``to_raw`` maps back to what
    the player typed, for notes."""

    raw: str
    norm: str
    to_raw: list[int] | None
    spans: list[tuple[int, int, str]]
    masked: str

    def typed(self, start: int, end: int) -> str:
        start, end = max(start, 0), min(end, len(self.norm))
        if end <= start:
            return ""
        if self.to_raw is None:
            return self.norm[start:end].strip()
        return self.raw[self.to_raw[start]: self.to_raw[end - 1] + 1].strip()

    def span_at(self, pos: int) -> tuple[int, int, str] | None:
        for span in self.spans:
            if span[0] == pos:
                return span
        return None

    def sentence_end(self, pos: int) -> int:
        """The end of the sentence that ``pos`` is in (nick punctuation does not count)."""
        for i in range(pos, len(self.masked)):
            if self.masked[i] in _SENTENCE_END:
                return i
        return len(self.masked)

    def sentence_start(self, pos: int) -> int:
        for i in range(min(pos, len(self.masked)) - 1, -1, -1):
            if self.masked[i] in _SENTENCE_END:
                return i + 1
        return 0


def _normalise_mapped(line: str) -> tuple[str, str, list[int] | None]:
    """:func:`normalise` with a map back to the typed text. Falls back to no map in the rare
    case (odd Unicode) where a character-wise normalisation differs from the real one."""
    raw = unicodedata.normalize("NFKC", line)
    chars: list[str] = []
    idx: list[int] = []
    for i, ch in enumerate(raw):
        if _SPACE_CHAR.match(ch):
            if not chars or chars[-1] != " ":
                chars.append(" ")
                idx.append(i)
            continue
        for c in ch.casefold():
            chars.append("е" if c == "ё" else c)
            idx.append(i)
    s, e = 0, len(chars)
    while s < e and chars[s] == " ":
        s += 1
    while e > s and chars[e - 1] == " ":
        e -= 1
    norm = "".join(chars[s:e])
    expected = normalise(line)
    if norm != expected or normalise(norm) != norm:
        return raw, expected, None
    return raw, norm, idx[s:e]


def _make_line(text: str, roster: Roster) -> _Line:
    raw, norm, to_raw = _normalise_mapped(text)
    spans = roster.find_spans(norm) if normalise(norm) == norm else []
    masked = list(norm)
    for s, e, _ in spans:
        for i in range(s, min(e, len(masked))):
            masked[i] = "\x00"
    return _Line(raw, norm, to_raw, spans, "".join(masked))


def _own_lines(pm: PrivateMessage) -> list[str]:
    text = pm.body_text or (plain_text(pm.body_html) if pm.body_html else "")
    return [ln for ln in unquoted_lines(text) if ln.strip()]


# ---------------------------------------------------------------------------- hits

@dataclass
class _Hit:
    line: int
    start: int
    end: int
    family: str
    word: str
    changed: bool = False  # part of a change (N1): noted on the request
    used: bool = False

    @property
    def pos(self) -> tuple[int, int]:
        return (self.line, self.start)


def _find_hits(lines: Sequence[_Line]) -> list[_Hit]:
    hits: list[_Hit] = []
    for li, line in enumerate(lines):
        for m in _HIT_RE.finditer(line.masked):
            fam = m.lastgroup or ""
            hits.append(_Hit(li, m.start(), m.end(), fam, m.group(0)))
    return hits


# ---------------------------------------------------------------------------- targets

@dataclass(frozen=True)
class _Got:
    nick: str
    typed: str
    kind: str  # exact | alias | folded | near | inflected | self
    line: int
    end: int


@dataclass(frozen=True)
class _Miss:
    kind: str  # unknown_nick | ambiguous_nick
    typed: str
    candidates: tuple[str, ...] = ()


_RANK = {"exact": 0, "alias": 0, "folded": 1, "near": 2, "inflected": 3}


def _inflects(typed_word: str, nick_word: str) -> bool:
    """«лису» is a case form of «лиса»: shared stem of 3+ letters, endings from short lists."""
    t, n = fold(typed_word), fold(nick_word)
    if t == n:
        return True
    p = 0
    while p < min(len(t), len(n)) and t[p] == n[p]:
        p += 1
    if p < 3 or p < len(n) - 2:
        return False
    return n[p:] in _NICK_TAILS and t[p:] in _TOKEN_TAILS


class _Reader:
    """Reads one PM for one sender (see the module docstring)."""

    def __init__(
        self,
        pm: PrivateMessage,
        actor: str,
        role: str,
        roster: Roster,
        lines: list[_Line],
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
        self.ignored_offrole: list[_Hit] = []
        self.executors: list[_Hit] = []
        self.strikes: list[_Hit] = []
        self.at: tuple[int, int] = (0, 0)  # where the request being read stands
        self.positions: list[tuple[int, int]] = []

    def _emit(self, request: Request) -> None:
        self.requests.append(request)
        self.positions.append(self.at)

    # -- small helpers

    def excerpt(self, li: int) -> str:
        text = self.lines[li].raw.strip() if 0 <= li < len(self.lines) else ""
        return text if len(text) <= 160 else text[:157] + "…"

    def typed(self, h: _Hit) -> str:
        """The action word as the player typed it."""
        return self.lines[h.line].typed(h.start, h.end)

    def fail(self, kind: str, reason: str, li: int = -1) -> None:
        self.unreadable.append(
            Unreadable(self.pm.pm_id, self.actor, kind, reason, self.excerpt(li), self.pm.sent_at)
        )

    def _skip(self, li: int, pos: int, extra_words: frozenset[str] = frozenset()) -> int:
        line = self.lines[li]
        n = len(line.norm)
        while pos < n:
            if line.span_at(pos):
                return pos
            ch = line.masked[pos]
            if ch in _SKIP_CHARS:
                pos += 1
                continue
            m = _WORD_RE.match(line.masked, pos)
            if m and (m.group(0) in _FILLERS or m.group(0) in extra_words):
                pos = m.end()
                continue
            return pos
        return pos

    def resolve(
        self, li: int, pos: int, self_words: frozenset[str] = _SELF_TARGET,
        *, next_line: bool = True,
    ) -> _Got | _Miss | None:
        """The player named at ``pos`` (after fillers), a miss, or ``None`` if the sentence
        ends first. A verb at the end of a line may have its nick on the next line."""
        line = self.lines[li]
        pos = self._skip(li, pos)
        if pos >= len(line.norm):
            if next_line and li + 1 < len(self.lines):
                return self.resolve(li + 1, 0, self_words, next_line=False)
            return None
        if line.masked[pos] in _SENTENCE_END:
            return None
        span = line.span_at(pos)
        if span:
            s, e, nick = span
            return _Got(nick, line.typed(s, e), "exact", li, e)
        w = _WORD_RE.match(line.masked, pos)
        if w and w.group(0) in self_words:
            return _Got(self.actor, line.typed(w.start(), w.end()), "self", li, w.end())
        return self._fallback(li, pos)

    def _fallback(self, li: int, pos: int) -> _Got | _Miss | None:
        """One to three words matched to the roster: look-alikes, a near match, a case
        ending. Two different players → ambiguous; nothing → unknown nick."""
        line = self.lines[li]
        words: list[tuple[int, int]] = []
        for m in _TOKEN_RE.finditer(line.masked, pos):
            tok = m.group(0)
            if "\x00" in tok or tok in ("—", "–", "-", "и") or len(words) == 3:
                break
            if tok[0] in _SENTENCE_END:
                break
            words.append((m.start(), m.end()))
            if tok[-1] in _SENTENCE_END or tok[-1] in _SEPARATOR_CHARS:
                break
        if not words:
            return None
        found: list[tuple[int, int, str, str]] = []  # rank, k, nick, kind
        ambiguous: set[str] = set()
        for k in range(1, len(words) + 1):
            text = line.norm[words[0][0]: words[k - 1][1]]
            m = self.roster.match(text)
            if m.nick is not None:
                found.append((_RANK[m.kind], k, m.nick, m.kind))
                continue
            if m.kind == "ambiguous":
                ambiguous.update(m.candidates)
                continue
            stems = self._inflected(text)
            if len(stems) == 1:
                found.append((_RANK["inflected"], k, stems[0], "inflected"))
            elif len(stems) > 1:
                ambiguous.update(stems)
        first_typed = line.typed(words[0][0], words[0][1]).strip(_SKIP_CHARS + _SENTENCE_END)
        if found:
            best = min(f[0] for f in found)
            nicks = sorted({f[2] for f in found if f[0] == best})
            if len(nicks) > 1:
                return _Miss("ambiguous_nick", first_typed, tuple(nicks))
            rank, k, nick, kind = min(f for f in found if f[0] == best)
            typed = line.typed(words[0][0], words[k - 1][1]).strip(_SKIP_CHARS + _SENTENCE_END)
            return _Got(nick, typed, kind, li, words[k - 1][1])
        if ambiguous:
            return _Miss("ambiguous_nick", first_typed, tuple(sorted(ambiguous)))
        return _Miss("unknown_nick", first_typed)

    def _inflected(self, text: str) -> list[str]:
        typed_words = [w.strip(_SKIP_CHARS + _SENTENCE_END) for w in text.split(" ")]
        if not all(typed_words):
            return []
        out = []
        for nick in self.roster.nicks:
            nick_words = normalise(nick).split(" ")
            if len(nick_words) == len(typed_words) and all(
                _inflects(t, n) for t, n in zip(typed_words, nick_words, strict=True)
            ):
                out.append(nick)
        return out

    def explain_got(self, got: _Got, what: str) -> str:
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

    def miss(self, miss: _Miss | None, li: int, what: str) -> None:
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

    def run(self, hits: list[_Hit], order: int) -> IntakeResult:
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

    def _changes(self, hits: list[_Hit]) -> list[_Hit]:
        """N1: «меняю … на Z» becomes a request of its own; a bare «исправление:» or «меняю»
        before another action word marks that request as a change."""
        out: list[_Hit] = []
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
            na = _NA_RE.search(line.masked, h.end, stop)
            between = [
                o for o in hits
                if o.line == h.line and na and h.end <= o.start < na.start()
            ]
            if na is None or any(o.word not in _NOUN_HITS for o in between):
                marker_pending = True
                out.append(h)
                continue
            consumed.append((h.line, h.start, na.end()))
            for o in between:
                o.used = True
            after = self._skip(h.line, na.end())
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

    def _change_request(self, h: _Hit, what: str, after: int) -> None:
        self.at = h.pos
        fam = next((f for f, rx in _CHANGE_NOUNS if rx.search(what)), None)
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
            action = _action_for(fam, self.role)
        if action is None:
            what_ru = self.lines[h.line].typed(h.end, after).removesuffix("на").strip()
            self.fail(
                "not_allowed",
                f"«{self.typed(h)} {what_ru} на …»: у роли «{_role_ru(self.role)}» нет такого хода"
                + _expected(self.role),
                h.line,
            )
            return
        self._build(action, h, after, changed=True, old=old[0] if old else None)

    def _executor_change(self, h: _Hit, after: int) -> None:
        self.at = h.pos
        got = self.resolve(h.line, after, _SELF_EXECUTOR)
        prior = [r for r in self.earlier + self.requests if r.action == "shoot"]
        if not isinstance(got, _Got):
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

    def _action(self, h: _Hit) -> None:
        self.at = h.pos
        line = self.lines[h.line]
        if h.family == "aim":
            action = self._default_action()
            if action is None or not self._opens_sentence(h):
                return
        else:
            action = _action_for(h.family, self.role)
        if action is None:
            if self._opens_sentence(h):
                self.fail(
                    "not_allowed",
                    f"«{self.typed(h)}»: у роли «{_role_ru(self.role)}» нет "
                    f"такого хода" + _expected(self.role),
                    h.line,
                )
            else:
                self.ignored_offrole.append(h)
            return
        if _NEG_RE.search(line.masked[: h.start]):
            self.fail(
                "negated", f"«не {self.typed(h)}»: отрицание — это не заявка",
                h.line,
            )
            return
        self._build(action, h, h.end, changed=h.changed)

    def _opens_sentence(self, h: _Hit) -> bool:
        line = self.lines[h.line]
        start = line.sentence_start(h.start)
        for sep in ",:—–(":
            cut = line.masked.rfind(sep, start, h.start)
            if cut >= 0:
                start = max(start, cut + 1)
        words = _WORD_RE.findall(line.masked[start: h.start])
        return all(w in _LEAD_WORDS for w in words)

    def _build(
        self,
        action: str,
        h: _Hit,
        after: int,
        *,
        changed: bool,
        old: str | None = None,
    ) -> None:
        what = ACTION_NAMES_RU[action]
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
        if action == "ambush":
            self._emit(self._request(action, None, (), None, _join(["засада"] + notes)))
            return
        got = self.resolve(h.line, after)
        if not isinstance(got, _Got):
            self.miss(got, h.line, what)
            return
        if action == "blow" and got.kind == "self":
            # «Взрываю себя и Kotik»: the kamikaze always dies with his target (N7).
            other = self._second_target(got)
            if isinstance(other, _Got):
                got = other
        notes.append(self.explain_got(got, what))
        if action == "protect":
            second = self._second_target(got)
            if isinstance(second, _Miss):
                self.miss(second, got.line, what)
                return
            if second is None:
                notes.append("назван один игрок, а N9 требует двух")
                self._emit(
                    self._request(action, None, (got.nick,), None, _join([what] + notes))
                )
                return
            notes.append(self.explain_got(second, what))
            self._emit(
                self._request(
                    action, None, (got.nick, second.nick), None,
                    _join([f"{what}: {got.nick} и {second.nick}"] + notes),
                )
            )
            return
        other = self._another_target(got)
        if other:
            self.fail(
                "two_targets",
                f"{what}: названы двое ({got.nick} и {other}), а ход — на одного игрока",
                h.line,
            )
            return
        executor = None
        if action == "shoot":
            found = self._executor_for(h)
            if isinstance(found, _Miss) or found is False:
                self.miss(found or None, h.line, "исполнитель")
                return
            if found is None:
                prior = [r for r in self.earlier if r.action == "shoot" and r.executor]
                if changed and prior:
                    executor = prior[-1].executor
                    notes.append(f"исполнитель прежний: {executor}")
                else:
                    executor = self.actor
                    notes.append("исполнитель не назван — стреляет отправитель (N5)")
            else:
                also = self._another_target(found)
                if also:
                    self.fail(
                        "two_targets",
                        f"исполнитель: названы двое ({found.nick} и {also}), нужен один (N5)",
                        h.line,
                    )
                    return
                executor = found.nick
                notes.append(self.explain_got(found, "исполнитель"))
        head = f"{what}: {got.nick}" + (f", исполнитель {executor}" if executor else "")
        self._emit(
            self._request(action, got.nick, (), executor, _join([head] + notes))
        )

    def _another_target(self, first: _Got) -> str | None:
        """«Проверяю Kotik и Лиса»: a second nick joined by «и»/«или»/«+» to a one-target
        action is not guessed between (N14)."""
        line = self.lines[first.line]
        m = re.compile(r"\s*(?:(?:и|или)(?!\w)|[+/])\s*").match(line.masked, first.end)
        if m is None:
            return None
        span = line.span_at(m.end())
        return span[2] if span else None

    def _second_target(self, first: _Got) -> _Got | _Miss | None:
        """N9: the necromancer's second player, after «и», «,» or «+»."""
        line = self.lines[first.line]
        pos = first.end
        explicit = False
        while pos < len(line.norm):
            if line.span_at(pos):
                break
            ch = line.masked[pos]
            if ch in _SEPARATOR_CHARS:
                explicit = explicit or ch != ","
                pos += 1
                continue
            if ch in " \t":
                pos += 1
                continue
            m = _WORD_RE.match(line.masked, pos)
            if m and m.group(0) in _SECOND_TARGET_WORDS:
                explicit = True
                pos = m.end()
                continue
            break
        if pos == first.end:
            return None
        got = self.resolve(first.line, pos, next_line=False)
        if isinstance(got, _Miss) and got.kind == "unknown_nick" and not explicit:
            return None  # a comma followed by chat, not by a second nick
        return got

    def _executor_for(self, h: _Hit) -> _Got | _Miss | None | bool:
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
        got = self.resolve(e.line, e.end, _SELF_EXECUTOR)
        if got is None:
            return self._executor_before(e)
        return got

    def _executor_before(self, e: _Hit) -> _Got | _Miss | bool:
        """«Тень_Ночи стреляет»: the nick just before the executor word."""
        line = self.lines[e.line]
        for s, end, nick in line.spans:
            if line.masked[end: e.start].strip(_SKIP_CHARS) == "":
                return _Got(nick, line.typed(s, end), "exact", e.line, end)
        return False

    def _lone_executors(self) -> None:
        """«Исполнитель — Y» on its own: a change of executor of this night's shot."""
        if "shoot" not in request_actions(self.role):
            return
        for e in self.executors:
            if not e.used:
                e.used = True
                self._executor_change(_Hit(e.line, e.start, e.end, "executor", e.word), e.end)

    def _nothing_read(self) -> None:
        text = " ".join(line.masked for line in self.lines)
        allowed = request_actions(self.role)
        if not self.lines:
            self.fail("empty", "в сообщении нет собственного текста (только цитаты или пусто)")
        elif _SKIP_RE.search(text):
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
                f"«{_role_ru(self.role)}»" + _expected(self.role),
                h.line,
            )
        else:
            self.fail(
                "no_action",
                f"заявка не найдена для роли «{_role_ru(self.role)}»" + _expected(self.role),
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


def _action_for(family: str, role: str | None) -> str | None:
    allowed = request_actions(role)
    for action in _FAMILY_ACTIONS.get(family, ()):
        if action in allowed:
            return action
    return None


def _expected(role: str | None) -> str:
    ex = EXAMPLE_OF_ROLE.get(role or "")
    return f" (ожидается, например, «{ex}»)" if ex else ""


def _join(parts: Sequence[str]) -> str:
    return "; ".join(p for p in parts if p)


def _with_order(r: Request, order: int) -> Request:
    return replace(r, order=order)


# ------------------------------------------------------------------------------ public API

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
    lines = [_make_line(t, roster) for t in _own_lines(pm)]
    hits = _find_hits(lines)
    if not any(h.family != "change" for h in hits) and pm.subject:
        # «Проверка» in the subject and «Kotik» in the body: read the subject as line one.
        subject = re.sub(r"^\s*(?:re|ответ)\s*:\s*", "", pm.subject, flags=re.IGNORECASE)
        with_subject = [_make_line(subject, roster)] + lines
        subject_hits = _find_hits(with_subject)
        if any(h.line == 0 and h.family != "change" for h in subject_hits):
            lines, hits = with_subject, subject_hits
    reader = _Reader(pm, actor, sender_role, roster, lines, earlier)
    return reader.run(hits, order)


def night_roster(config: Config) -> Roster:
    """The roster for reading night PMs: players, their aliases, and replacement players as
    aliases of the slot they took (a replacement writes under his own forum name)."""
    aliases: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in config.aliases.items()}
    for r in config.replacements:
        aliases[r.slot] = aliases.get(r.slot, ()) + (r.player,)
    return Roster(
        (p.nick for p in config.players),
        aliases,
        near_distance=config.votes.near_match_distance,
        near_min_length=config.votes.near_match_min_length,
    )


def _to_host(pm: PrivateMessage, host: str) -> bool:
    key = fold(host)
    return any(fold(r) == key for r in pm.recipients)


def _day_phase_start(config: Config, night: int, window_start: datetime) -> datetime | None:
    """Where Day ``night`` began, for necromancer PMs (N9) and early requests: the previous
    night's deadline, else the day's start; the whole past for night 1."""
    if night > 1:
        prev = config.day(night - 1)
        if prev is not None and prev.night_deadline is not None:
            return prev.night_deadline
    day = config.day(night)
    if day is not None:
        return min(day.start, window_start)
    if night == 1:
        return datetime.min.replace(tzinfo=window_start.tzinfo)
    return None


def read_night(
    pms: Sequence[PrivateMessage],
    config: Config,
    night: int,
    window: tuple[datetime, datetime],
) -> NightIntake:
    """All requests of Night ``night`` (N1): PMs to the host sent inside ``window``
    (start inclusive, end exclusive: at the deadline is late, T2), plus the necromancer's PMs
    of Day ``night`` when ``night`` is within the necromancer's turns (N9) — they count for
    the night that follows. PMs are read in sending order; the host's own PMs are ignored.

    A PM sent during Day ``night`` (before the window) that holds a request of another role
    is listed as ``outside_window``, so the host can decide on it (N14); so is a
    necromancer's day PM after his last turn. Chat outside the window is not listed."""
    start, end = window
    roster = night_roster(config)
    host_key = fold(config.host)
    day_start = _day_phase_start(config, night, start)
    seen: dict[int, PrivateMessage] = {}
    for pm in pms:
        seen.setdefault(pm.pm_id, pm)
    ordered = sorted(seen.values(), key=lambda p: (p.sent_at, p.pm_id))
    requests: list[Request] = []
    flags: list[IntakeFlag] = []
    unreadable: list[Unreadable] = []
    read_ids: list[int] = []
    next_order = 1
    for pm in ordered:
        if fold(pm.sender) == host_key or not _to_host(pm, config.host):
            continue
        in_window = start <= pm.sent_at < end
        in_day = day_start is not None and day_start <= pm.sent_at < start
        if not (in_window or in_day):
            continue
        nick = sender_nick(pm.sender, roster)
        player = config.player(nick) if nick else None
        role = player.role if player else None
        if in_day and role != "necromancer":
            _early(pm, role, roster, night, unreadable)
            continue
        if in_day and night > config.night.necromancer_turns:
            res = read_requests(pm, role, roster, order=0)
            if res.requests:
                unreadable.append(
                    Unreadable(
                        pm.pm_id, pm.sender, "necromancer_turn",
                        f"заявка некроманта днём {night}: защиту можно назначить только в "
                        f"ходы 1–{config.night.necromancer_turns} (N9)",
                        res.requests[0].note, pm.sent_at,
                    )
                )
            continue
        res = read_requests(pm, role, roster, order=next_order, earlier=requests)
        got = list(res.requests)
        if role == "necromancer" and in_window:
            got = [
                _noted(r, "N9: заявка некроманта пришла ночью (по правилам — днём)")
                if r.action == "protect" else r
                for r in got
            ]
        elif role == "necromancer":
            got = [_noted(r, f"прислано днём {night} — действует в ночь {night} (N9)") for r in got]
        requests.extend(got)
        flags.extend(res.flags)
        unreadable.extend(res.unreadable)
        read_ids.append(pm.pm_id)
        next_order += len(got)
    return NightIntake(
        night, window, tuple(requests), tuple(flags), tuple(unreadable), tuple(read_ids)
    )


def _early(
    pm: PrivateMessage, role: str | None, roster: Roster, night: int, out: list[Unreadable]
) -> None:
    """A day PM with a request in it: not counted (N1), but shown to the host (N14)."""
    res = read_requests(pm, role, roster, order=0)
    if res.requests:
        out.append(
            Unreadable(
                pm.pm_id, pm.sender, "outside_window",
                f"заявка прислана днём, до начала ночи {night}: ночные ходы принимаются ночью "
                f"(N1) — ведущий может принять её вручную. Прочитано: "
                + " | ".join(r.note for r in res.requests),
                "", pm.sent_at,
            )
        )


def _noted(r: Request, extra: str) -> Request:
    return replace(r, note=_join([r.note, extra]))


__all__ = [
    "IntakeFlag",
    "IntakeResult",
    "NightIntake",
    "Unreadable",
    "night_roster",
    "read_night",
    "read_requests",
    "sender_nick",
]
