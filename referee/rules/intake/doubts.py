"""Doubts: a request written so that an experienced host would ask rather than act (N14).

«Может, проверю Kotik», «Лечу Kotik, наверное», «Проверю Kotik, если он жив», «Я бы
проверил Kotik», «Проверить Kotik?», «Проверяю Kotik или Лиса»: the reader does not pick, it
puts the PM to the host («ведущему проверить») with the reason. The hesitation words are the
vocabulary's table (``vocabulary.toml``, docs/rules.md «Словарь заявок»).

A reason given after the nick («Лечу Kotik — мафия может его убить») is no doubt: only the
words from the start of the request's sentence to its nick, and a hesitation word right
after the nick, count.
"""

from __future__ import annotations

from referee.rules.intake.lines import HIT_FAMILIES, Line
from referee.rules.intake.words import WORD_RE

_CONDITION = frozenset({"если", "ежели", "коли"})
_MOOD = frozenset({"бы", "б"})
_AFTER_NICK = " \t,:—–-…"


def doubt(line: Line, start: int, end: int) -> str | None:
    """Why the request from ``start`` (its action word) to ``end`` (the end of its nick) on
    ``line`` is not one to act on, or ``None``."""
    s0 = line.sentence_start(start)
    stop = line.sentence_end(end)
    if stop < len(line.masked) and line.masked[stop] == "?":
        return "вопрос, а не заявка"
    words = [(m.start(), m.group(0)) for m in WORD_RE.finditer(line.masked, s0, stop)]
    for pos, word in words:
        if word in _CONDITION:
            return f"условие («{word}») — заявка не окончательная"
        if word in _MOOD and pos < end + 12:
            return "«бы»: игрок рассуждает, а не заявляет"
    for w in line.words_of("hesitation", s0, end):
        return f"сомнение («{line.typed(w.start, w.end)}»)"
    after = end
    while after < len(line.masked) and line.masked[after] in _AFTER_NICK:
        after += 1
    for w in line.words_of("hesitation", after, after + 1):
        # «Лечу Kotik, наверное» doubts; «Проверяю Kotik, думаю, он мафия» gives a reason.
        spans = [(x.start, x.end) for x in line.words_of("hesitation", w.start, stop)]
        rest = [m for m in WORD_RE.finditer(line.masked, w.end, stop)
                if not any(a <= m.start() < b for a, b in spans)]
        said = line.typed(w.start, w.end)
        if not rest or said.casefold() in _OFFERS:
            return f"сомнение после ника («{said}»)"
    return None


def condition(lines: list[Line]) -> str | None:
    """A sentence of the PM that sets a condition («Если его заберут — стреляет Фантом») on
    a player or a move: the whole PM is put to the host. «Если что» is no condition."""
    for line in lines:
        for m in WORD_RE.finditer(line.masked):
            if m.group(0) not in _CONDITION:
                continue
            nxt = WORD_RE.match(line.masked, m.end() + 1)
            if nxt and nxt.group(0) == "что":
                continue
            s0, stop = line.sentence_start(m.start()), line.sentence_end(m.start())
            if any(s0 <= w.start < stop for w in line.words if w.family in HIT_FAMILIES) or (
                any(s0 <= s < stop for s, _e, _n in line.spans)
            ):
                return f"условие («{line.typed(s0, stop)}»)"
    return None


_OFFERS = frozenset({"или", "либо", "хотя", "впрочем"})


def alternatives(line: Line, end: int) -> bool:
    """«…Kotik, или может Лиса», «…Kotik, хотя можно и Лису»: another name offered after
    the nick in the same sentence."""
    stop = line.sentence_end(end)
    # Up to the next word of a request: «…, исполнитель A или B» is the executor's doubt.
    stop = min([w.start for w in line.words if end <= w.start < stop
                and w.family in HIT_FAMILIES] + [stop])
    rest = line.masked[end:stop]
    offered = any(w.group(0) in _OFFERS for w in WORD_RE.finditer(rest)) or bool(
        line.words_of("hesitation", end, stop))
    return offered and any(end <= s < stop for s, _e, _n in line.spans)
