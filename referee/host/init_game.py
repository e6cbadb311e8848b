"""``referee init URL``: a new game's ``referee.toml`` from its topic.

The topic's first post names the host (its author) and, in the list hosts write there
(numbered or bulleted nicks, or an HTML list), the players; each listed nick is matched to
the topic's post authors so it is spelled as the forum spells it. The schedule comes from a
start and the lengths of a day and a night. The file is written once: an existing one is
never overwritten. A snapshot folder of saved pages works as well as a live topic.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser as HTMLParser

from adapters.base import ForumSettings, Secret
from adapters.registry import open_forum
from referee.config.checks import nick_key
from referee.config.schema import when, zone
from referee.core.errors import ForumError, RequestRefused
from referee.core.kernel import FIRST_PAGE, Post
from referee.core.markup import QUOTE_MARK
from referee.core.nicks import Roster

MAX_NICK = 32
"""Longer list items are sentences (the rules reminder), not nicks."""


@dataclass(frozen=True, slots=True)
class FirstPost:
    """What the topic's first page tells of a new game."""

    engine: str
    title: str
    host: str
    roster: tuple[str, ...]
    """The listed players, spelled as the forum spells their posts' authors where found."""
    unmatched: tuple[str, ...]
    """Listed nicks with no post in the pages read (check their spelling)."""


@dataclass(frozen=True, slots=True)
class DayPlan:
    """One ``[[schedule.days]]`` entry, in the forum's local time."""

    day: int
    start: datetime
    deadline: datetime
    night_deadline: datetime


@dataclass(frozen=True, slots=True)
class NewGame:
    """Everything the new ``referee.toml`` says."""

    first: FirstPost
    url: str | None
    snapshot: str | None
    """The saved pages' folder, relative to the new file's folder."""
    timezone: str
    schedule: tuple[DayPlan, ...]


# ------------------------------------------------------------------------- reading

def read_first_post(where: str, timezone: str, *, username: str | None = None,
                    password: Callable[[str], Secret] | None = None) -> FirstPost:
    """The first page of the topic at ``where`` (an address, or a folder of saved pages),
    read through the engine registry."""
    folder = Path(where)
    if folder.is_dir():
        settings = ForumSettings(snapshot=folder, timezone=timezone)
    elif re.match(r"^https?://", where):
        settings = ForumSettings(url=where, timezone=timezone, username=username)
    else:
        raise RequestRefused(f"«{where}» — не адрес темы и не папка с сохранёнными страницами",
                             "дайте ссылку на тему (https://…/viewtopic.php?t=…) или папку")
    forum = open_forum(settings, password)
    try:
        if username and settings.snapshot is None:
            forum.login()
        pages = forum.fetch_topic_pages(FIRST_PAGE)
        page = next(iter(pages), None)
        getattr(pages, "close", lambda: None)()
        engine = forum.engine
    finally:
        forum.close()
    if page is None or not page.posts or page.page != 1:
        raise ForumError(f"в теме {where} не нашлось первого сообщения",
                         "проверьте ссылку: нужна первая страница темы")
    first = page.posts[0]
    authors = [p.author for p in page.posts]
    roster, unmatched = roster_in(first, authors)
    return FirstPost(engine, page.title, first.author, tuple(roster), tuple(unmatched))


def roster_in(first: Post, authors: Sequence[str]) -> tuple[list[str], list[str]]:
    """The players a host listed in the first post: the list (HTML list, numbered or
    bulleted lines) that looks most like nicks — short items, most of them authors of the
    topic's posts. Returns (nicks, those with no post to match)."""
    by_author = Roster([a for a in authors if a != first.author])
    best: tuple[int, list[str], list[str]] = (0, [], [])
    for items in _lists(first):
        nicks = [n for n in (_clean(i) for i in items) if n]
        if len(nicks) < 3 or any(len(n) > MAX_NICK or len(n.split()) > 3 for n in nicks):
            continue
        spelled, unmatched = [], []
        for nick in nicks:
            m = by_author.match(nick)
            found = m.nick if m.kind in ("exact", "folded") else None
            spelled.append(found or nick)
            if found is None:
                unmatched.append(nick)
        # The host does not play, even when he lists himself.
        spelled = [n for n in dict.fromkeys(spelled) if nick_key(n) != nick_key(first.author)]
        score = 3 * (len(nicks) - len(unmatched)) + len(nicks)
        if score > best[0]:
            best = (score, spelled, [n for n in unmatched if n in spelled])
    return best[1], best[2]


_NUMBERED = re.compile(r"^\s*\d{1,3}\s*[.)]\s*(.+)$")
_BULLET = re.compile(r"^\s*[-•*·–—]\s*(.+)$")


def _lists(post: Post) -> list[list[str]]:
    """Every list in the post: HTML ``ol``/``ul`` items, and runs of numbered or bulleted
    lines of its own text (quotes left out)."""
    out: list[list[str]] = []
    tree = HTMLParser(f"<div>{post.body_html}</div>")
    for node in tree.css("ol, ul"):
        if node.css_first("blockquote") is None:
            out.append([li.text(deep=True, separator=" ").strip()
                        for li in node.iter() if li.tag == "li"])
    for pattern in (_NUMBERED, _BULLET):
        run: list[str] = []
        for line in post.body_text.splitlines() + [""]:
            m = pattern.match(line) if not line.startswith(QUOTE_MARK) else None
            if m:
                run.append(m.group(1))
            elif run:
                out.append(run)
                run = []
    return out


def _clean(item: str) -> str:
    """A list item without a trailing remark («Лиса — мафия», «Kotik (замена)»)."""
    text = " ".join(item.split())
    text = re.split(r"\s+[-—–:]\s+|\s*\(", text, maxsplit=1)[0]
    return text.strip(" .,;")


# ------------------------------------------------------------------------- the plan

def plan_schedule(start: str, days: int, day_hours: int, night_hours: int
                  ) -> tuple[DayPlan, ...]:
    """Day 1 from ``start``; each day ``day_hours`` long, each night ``night_hours``; the
    next day starts when the night ends (T1). Local wall-clock time."""
    if (problem := when(start)) is not None:
        raise RequestRefused(f"--start {start!r}: {problem}")
    for option, value in (("--days", days), ("--day-hours", day_hours),
                          ("--night-hours", night_hours)):
        if value < 1:
            raise RequestRefused(f"{option} {value}: нужно не меньше 1", f"например {option} 1")
    first = datetime.strptime(start.strip(), "%Y-%m-%d %H:%M")
    out = []
    for k in range(days):
        begin = first + timedelta(hours=k * (day_hours + night_hours))
        deadline = begin + timedelta(hours=day_hours)
        out.append(DayPlan(k + 1, begin, deadline, deadline + timedelta(hours=night_hours)))
    return tuple(out)


ZONE_WORDS = {"мск": "Europe/Moscow", "москва": "Europe/Moscow", "msk": "Europe/Moscow",
              "московское": "Europe/Moscow", "по москве": "Europe/Moscow"}
"""How Russian hosts name the forum's clock («МСК»), as the IANA zone it is."""


def check_timezone(name: str, option: str = "--timezone") -> str:
    """The IANA zone the host means: as typed, or «МСК»/«Москва» → Europe/Moscow."""
    name = ZONE_WORDS.get(name.strip().lower().removesuffix(" время"), name.strip())
    if (problem := zone(name)) is not None:
        raise RequestRefused(f"{option} {name!r}: {problem}",
                             'например: Europe/Moscow (или МСК), Europe/Kyiv, Asia/Almaty')
    return name


def new_game(where: str, path: Path, first: FirstPost, timezone: str,
             schedule: Sequence[DayPlan]) -> NewGame:
    """The new file's contents: a folder of saved pages is written relative to the file."""
    folder = Path(where)
    if folder.is_dir():
        snapshot = os.path.relpath(folder.resolve(), path.resolve().parent)
        return NewGame(first, None, snapshot, timezone, tuple(schedule))
    return NewGame(first, where, None, timezone, tuple(schedule))


def make_new_game(where: str, path: Path, *, timezone: str | None, start: str | None,
                  days: int, day_hours: int, night_hours: int,
                  username: str | None = None) -> NewGame:
    """Everything ``referee init`` writes to ``path``: checked before the topic is read."""
    refuse_existing(path)
    if timezone is None:
        raise RequestRefused("часовой пояс форума не указан",
                             'добавьте --timezone "Europe/Moscow" (как в настройках форума)')
    zone_name = check_timezone(timezone)
    schedule = plan_schedule(start, days, day_hours, night_hours) if start is not None else ()
    first = read_first_post(where, zone_name, username=username)
    return new_game(where, path, first, zone_name, schedule)


def refuse_existing(path: Path) -> None:
    if path.exists():
        raise RequestRefused(f"{path} уже есть: referee init не перезаписывает файлы",
                             "уберите его или укажите другой: referee --config НОВЫЙ.toml init …")


def write_new(path: Path, text: str) -> None:
    """Write the new ``referee.toml``; never over an existing file."""
    refuse_existing(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("x", encoding="utf-8") as f:
        f.write(text)
