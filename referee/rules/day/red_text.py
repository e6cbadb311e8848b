"""The red text of a vote: which roster nick it names (docs/rules.md V1, V2; docs/rules.md V2).

Pure: no I/O. :func:`read_red` takes the red text next to «мой голос» and gives the one
nick an experienced host reads in it, or the reason to ask him. The red text may be the
nick alone, the nick in another case («Шерлока»), a mention («@Шерлок»), or a whole red
line with the reason and other nicks in it («Шерлок, его покрывала Лиса»): then the nick
it opens with is the vote. Two nicks offered as alternatives («Шерлок или Лиса»,
«Шерлок/Лиса», «Шерлок, Лиса»), a negation («не Шерлок») or several nicks none of which
opens the text are not read: «ведущему проверить», never a pick.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from referee.core.nicks import NamedNick, NickMatch, Roster, normalise
from referee.rules.day.notes import CHECK, Note

# What joins two nicks offered as alternatives or as two targets: «или», «либо», «и»,
# «/», «,», «+», brackets, and nothing but spaces («Шерлок Лиса»).
ALTERNATIVE = re.compile(
    r"[\s,;/|\\+(\[]*(?:(?:или|либо|иль|и|or)(?!\w)(?:\s+же)?(?:\s+может)?)?[\s,;/|\\+(\[]*",
    re.IGNORECASE)
# Words that undo the nick after them («не Шерлок», «никому», «ни за кого», «без Шерлока»,
# «кроме Шерлока»).
NEGATION = re.compile(r"(?<!\w)(?:не|нет|ни|никому|никого|никто|без|кроме)(?!\w)",
                      re.IGNORECASE)
# What may open the red text before the nick: signs, «за»/«против» (the phrase's own words).
_OPENING = re.compile(r"[\W_]*(?:(?:за|против)(?!\w)[\W_]*)?", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class RedNick:
    """What the red text names. ``match`` is None when nothing is read (``problem`` says
    why); ``start``/``end`` is the nick's span in the red text (cut from the reason, V3);
    ``flags`` are remarks on a nick that counts."""

    match: NickMatch | None
    start: int = 0
    end: int = 0
    flags: tuple[Note, ...] = field(default=())
    problem: Note | None = None
    candidates: tuple[str, ...] = ()
    """The nicks the host is asked to choose between (with ``problem``)."""


def read_red(raw: str, roster: Roster) -> RedNick:
    """The roster nick the red text ``raw`` votes for (see the module docstring)."""
    typed = " ".join(raw.split())
    lead = len(raw) - len(raw.lstrip())
    flags: list[Note] = []
    body = raw[lead:]
    if body.startswith("@"):
        flags.append(Note("V2", f"ник указан упоминанием «{typed}» — проверьте"))
        lead += 1 + len(body[1:]) - len(body[1:].lstrip())
        body = raw[lead:]
    if typed.endswith("?"):
        flags.append(Note("V2", f"красный текст «{typed}» с вопросом — проверьте"))
    whole = roster.match(body)
    # A nick typed as it is needs no other look (and loads no morphology: a day of exact
    # votes never imports pymorphy3); a near or case reading of the whole red text is
    # checked for two nicks in it («Шерлок Лиса»).
    if whole.how in ("exact", "alias", "lookalike") or (
            whole.how != "none" and not _two_named(body, roster)):
        return RedNick(whole, lead, len(raw), tuple(flags))
    named = roster.find_named(body)
    first = _first_match(body, roster)
    if not named and first is None:
        return RedNick(whole, lead, len(raw), tuple(flags))
    hits = [(h.start, h.end, h.nick, h) for h in named]
    if first is not None and not any(h[0] == 0 for h in hits):
        hits.insert(0, (0, first[1], first[0].nick, None))
    norm = normalise(body)
    every = tuple(dict.fromkeys(n for h in hits for n in _names(h)))
    if NEGATION.search(norm[:hits[0][0]]):
        return _check(f"в красном тексте «{typed}» отрицание перед ником", every)
    if len(hits) > 1 and ALTERNATIVE.fullmatch(norm[hits[0][1]:hits[1][0]]):
        names = [_label(h) for h in hits[:2]]
        return _check(f"в красном тексте «{typed}» два ника: {' или '.join(names)}", every)
    nicks = {h[2] for h in hits}
    opens = _OPENING.fullmatch(norm[:hits[0][0]]) is not None
    if hits[0][2] is None or (not opens and len(nicks) > 1):
        return _check(f"в красном тексте «{typed}» несколько ников: "
                      + ", ".join(dict.fromkeys(_label(h) for h in hits)), every)
    start, end, nick, hit = hits[0]
    match = first[0] if hit is None and first is not None else _hit_match(hit, nick)
    a, b = _raw_span(body, start, end)
    if _longer_name(body, a, b):
        return _check(f"«{typed}» — нет такого игрока, но в нём ник {nick}", (nick,))
    match = replace(match, typed=" ".join(body[a:b].split()))
    flags.append(Note("V2", f"красный текст «{typed}» длиннее ника, прочитан как {nick}"))
    return RedNick(match, lead + a, lead + b, tuple(flags))


_NAME_WORD = re.compile(r"[A-ZА-ЯЁ][^\W_]*(?:-[^\W_]+)*")


def _longer_name(body: str, a: int, b: int) -> bool:
    """«Кот Баюн», «Старый Кот» for Кот: the red text is the nick and one more capitalised
    word, nothing else — a name of several words, which merely contains the nick."""
    before, after = body[:a].strip(), body[b:].strip().rstrip(".!")
    if before and after:
        return False
    other = before or after
    return bool(other) and _NAME_WORD.fullmatch(other) is not None


def _check(reason: str, candidates: tuple[str, ...]) -> RedNick:
    return RedNick(None, problem=Note("V2", f"{CHECK}: {reason}"), candidates=candidates)


def _names(hit: tuple[int, int, str | None, NamedNick | None]) -> tuple[str, ...]:
    if hit[2] is not None:
        return (hit[2],)
    assert hit[3] is not None
    return hit[3].candidates


def _label(hit: tuple[int, int, str | None, NamedNick | None]) -> str:
    if hit[2] is not None:
        return hit[2]
    assert hit[3] is not None
    return "/".join(hit[3].candidates)


def _hit_match(hit: NamedNick | None, nick: str) -> NickMatch:
    assert hit is not None
    return NickMatch(hit.typed, nick, hit.how)


def _two_named(body: str, roster: Roster) -> bool:
    """«Шерлок Лиса» may match one near nick as a whole; two nicks named are not one."""
    return len(roster.find_named(body)) > 1


def _first_match(body: str, roster: Roster) -> tuple[NickMatch, int] | None:
    """The nick the red text opens with when it is not typed exactly («Шерлак, он врёт»):
    the first one to three words matched by :meth:`Roster.match` (near, case…); the end
    is an offset in ``normalise(body)``."""
    norm = normalise(body)
    words = list(re.finditer(r"[^\s,;:!?()]+", norm))[:3]
    for k in range(len(words), 0, -1):
        end = words[k - 1].end()
        m = roster.match(norm[:end])
        if m.nick is not None and not m.lead:
            return m, end
    return None


def _raw_span(raw: str, start: int, end: int) -> tuple[int, int]:
    """The span of ``raw`` that ``normalise`` turns into [start, end): normalising joins
    spaces and may change lengths, so offsets are found by normalising prefixes."""
    a = next(k for k in range(len(raw) + 1) if len(normalise(raw[:k + 1])) > start)
    b = next((k for k in range(a, len(raw) + 1) if len(normalise(raw[:k])) >= end), len(raw))
    return a, b
