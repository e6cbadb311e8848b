"""What every phpBB post layout shares once its parts are found: the raw post, its date text
read whatever a style or extension printed around it, and the edit notice."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo

from selectolax.lexbor import LexborNode as Node

from adapters.phpbb.page import _EDIT_EN, _EDIT_RU, _norm
from referee.core.dates import parse_forum_date
from referee.core.errors import DateParseError, MalformedPage
from referee.core.kernel import EditNotice


@dataclass(frozen=True, slots=True)
class RawPost:
    post_id: int
    author: str
    author_id: int | None
    posted_at: datetime
    content: Node
    edit: EditNotice | None


def hidden_post_error(pid: int, url: str) -> MalformedPage:
    return MalformedPage(
        f"Сообщение p{pid} на странице {url} скрыто: его автор в списке недругов учётной "
        f"записи ведущего, и phpBB не выводит ни автора, ни текст.",
        "Уберите всех из списка недругов ведущего (Личный раздел → Друзья и недруги).",
    )


# A post's number printed next to its date: Post Numbers («#5»), styles' permalinks
# («Сообщение #5», «№ 5»).
_POST_NUMBER = re.compile(r"(?:(?:Сообщение|Post|Message)\s*)?(?:#|№)\s*\d+", re.IGNORECASE)
_PIECES = re.compile(r"\s*[|•·»]\s*")
_TRIM = " \t-–—,:;»|•·[]()"


def date_candidates(text: str) -> list[str]:
    """The texts a post's date may be in ``text``: the text itself, then without a post
    number, then each piece between separators (the last piece first: the date closes the
    author line)."""
    found: list[str] = []

    def add(candidate: str) -> None:
        candidate = _norm(candidate).strip(_TRIM)
        if candidate and candidate not in found:
            found.append(candidate)

    add(text)
    bare = _POST_NUMBER.sub(" ", text)
    add(bare)
    for piece in reversed(_PIECES.split(bare)):
        add(piece)
    return found


def read_date(texts: list[str], what: str, tz: ZoneInfo, now: datetime) -> datetime:
    """The first of ``texts`` (or of their :func:`date_candidates`) that reads as a date;
    MalformedPage naming ``what`` and the text when none does."""
    hint = ""
    for text in texts:
        for candidate in date_candidates(text):
            try:
                return parse_forum_date(candidate, tz=tz, now=now)
            except DateParseError as error:
                hint = hint or error.hint
    shown = next((t for t in texts if t.strip()), "")
    if not shown:
        raise MalformedPage(f"{what}: не найдена дата.", hint or None)
    raise MalformedPage(f"{what}: не удалось разобрать дату «{_norm(shown)}».", hint or None)


def edit_notice(node: Node, tz: ZoneInfo, now: datetime) -> EditNotice | None:
    """«Последний раз редактировалось X 22 ноя 2026, 14:26, всего редактировалось 1 раз.»

    Also «Last edited by X on …, edited N times in total.» Edits are often silent
    (gotcha 5), so a missing notice proves nothing; the date is best effort.
    """
    text = _norm(node.text())
    match = _EDIT_RU.search(text) or _EDIT_EN.search(text)
    if match is None:
        return None
    rest = match.group("rest")
    editor_node = node.css_first("a, span.username, span.username-coloured")
    candidates: list[tuple[str, str]] = []
    if editor_node is not None:
        editor = _norm(editor_node.text())
        if editor and editor in rest:
            candidates.append((editor, rest.split(editor, 1)[1]))
    if " on " in rest:
        editor, date_text = rest.rsplit(" on ", 1)
        candidates.append((editor, date_text))
    words = rest.split(" ")
    candidates.extend((" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words)))
    for editor, date_text in candidates:
        date_text = re.sub(r"^\s*on\s+", "", date_text).strip()
        try:
            edited_at = parse_forum_date(date_text, tz=tz, now=now)
        except DateParseError:
            continue
        return EditNotice(editor=editor.strip(), edited_at=edited_at, count=int(match["n"]))
    editor = _norm(editor_node.text()) if editor_node is not None else rest
    return EditNotice(editor=editor, edited_at=None, count=int(match["n"]))
