"""MyBB.ru's half of a snapshot folder (``[forum] snapshot``; the shared half, what browsers
do to saved pages and how versions are ordered: :mod:`adapters.snapshot`).

A saved topic page (``div.post[data-posted]``) is read by :mod:`.pages`, the parser of the
live board's HTML fallback. Its topic is the one the «saved from url» address names
(``viewtopic.php?id=N&p=K``), else the quick reply form's ``post.php?tid=N`` (a host's
page), else the topic the page's links name most (``.pagelink``).

Pages are regrouped into pages of 100 posts in the topic's order, as the live board is read
(:mod:`.client`: the API's ``post.get`` pages and the HTML fallback alike), so that a game
read from saved pages goes on live in the same store: the board's page size is that of a
saved page before the last, and a later page whose place cannot be told so (no page before
the last saved) is skipped with a word. A regrouped page has one version for each saved
version of the board pages in it, oldest first.

The host's dialogs (``messages.php``) have no reader here: referee reads them only through
the board's API, and a saved one is skipped with the way around it.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace

from selectolax.lexbor import LexborHTMLParser

from adapters import snapshot
from adapters.mybbru import pages
from adapters.mybbru.api import PER_PAGE
from adapters.mybbru.client import parse_topic_url
from adapters.snapshot import Reading, SavedPage
from referee.errors import ConfigError, MalformedPage
from referee.kernel import Post, TopicPage

_TOPIC_LINK = re.compile(r"viewtopic\.php\?(?:[^\"'#]*&(?:amp;)?)?id=(\d+)")
_REPLY_FORM = re.compile(r"post\.php\?(?:[^\"'#]*&(?:amp;)?)?tid=(\d+)")
_NO_PMS = ("диалог из личных сообщений: их referee читает только через API форума, не со "
           "страниц — ночные ходы внесите командой «referee action add» или файлом заявок")


def _topic_on_page(tree: LexborHTMLParser, page: SavedPage) -> int | None:
    if page.on_board:
        try:
            found = parse_topic_url(page.url)[1]
        except ConfigError:
            found = None
        if found is not None:
            return found
    for form in tree.css("form[action]"):
        if match := _REPLY_FORM.search(form.attributes.get("action") or ""):
            return int(match.group(1))
    seen = Counter(int(m.group(1)) for a in tree.css("a[href]")
                   if (m := _TOPIC_LINK.search(a.attributes.get("href") or "")))
    return seen.most_common(1)[0][0] if seen else None


class MybbPages(snapshot.SavedPages):
    """MyBB.ru saved topic pages, read by :mod:`.pages`."""

    engine = "mybbru"
    title = "MyBB.ru"
    url_example = "…/viewtopic.php?id=N"
    regroups = True

    def reads_right(self, text: str) -> bool:
        return pages.reads_as_mybb(text)

    def topic_of(self, url: str) -> int | None:
        return parse_topic_url(url)[1]

    def read(self, page: SavedPage) -> Reading:
        if pages.is_punbb_page(page.text):
            return Reading("other", why="страница PunBB/FluxBB, не MyBB.ru")
        tree = LexborHTMLParser(page.text)
        if "messages.php" in (page.url if page.on_board else "") or tree.css_first(
                "#pun-messages") is not None:
            return Reading("other", why=_NO_PMS)
        if not pages.is_mybb_page(page.text):
            return Reading("other", why="не страница MyBB.ru")
        if tree.css_first("div.post[data-posted]") is None:
            if pages.has_login_form(page.text):
                return Reading("other", why="форма входа (страница сохранена без входа)")
            return Reading("other", why="страница MyBB.ru, не тема")
        tid = _topic_on_page(tree, page)
        shown = pages.parse_topic_page(page.text, topic_id=tid or 0)
        posts = tuple(replace(p, topic_id=tid, page=shown.page, position=i)
                      for i, p in enumerate(shown.posts, 1))
        return Reading("topic", topic=TopicPage(
            topic_id=tid, title=shown.title, page=shown.page, total_pages=shown.last_page,
            per_page=len(posts), posts=posts))

    def regroup(self, by_page: dict[int, list[TopicPage]]) -> dict[int, list[TopicPage]]:
        """The board's pages (each with its versions) as pages of 100 posts."""
        size = max((len(v.posts) for versions in by_page.values() for v in versions
                    if v.page < v.total_pages), default=None)
        if size is None and set(by_page) - {1}:
            later = ", ".join(str(n) for n in sorted(by_page) if n > 1)
            raise MalformedPage(
                f"среди сохранённых страниц темы нет ни одной полной (только стр. {later}): "
                "не понять, сколько сообщений на странице форума",
                "сохраните и первую страницу темы")
        size = size or PER_PAGE
        newest = by_page[max(by_page)][-1]
        total = (newest.total_pages - 1) * size + len(newest.posts)
        spans = {n for b, versions in by_page.items() for v in versions
                 for n in range((b - 1) * size // PER_PAGE + 1,
                                ((b - 1) * size + max(len(v.posts), 1) - 1) // PER_PAGE + 2)}
        pages_in_all = max(-(-total // PER_PAGE), *spans)
        return {n: self._versions(n, by_page, size, pages_in_all, newest, total)
                for n in sorted(spans)}

    def _versions(self, number: int, by_page: dict[int, list[TopicPage]], size: int,
                  pages_in_all: int, newest: TopicPage, total: int) -> list[TopicPage]:
        """The versions of page ``number`` of 100: the k-th takes each board page in it at
        its k-th saved version (its last one when it has fewer)."""
        low, high = (number - 1) * PER_PAGE, number * PER_PAGE
        boards = sorted(b for b in by_page if (b - 1) * size < high and b * size > low)
        is_last = number >= pages_in_all and newest.page >= newest.total_pages
        out: list[TopicPage] = []
        for k in range(max(len(by_page[b]) for b in boards)):
            posts: list[Post] = []
            for b in boards:
                version = by_page[b][min(k, len(by_page[b]) - 1)]
                posts += [p for i, p in enumerate(version.posts)
                          if low <= (b - 1) * size + i < high]
            out.append(TopicPage(
                topic_id=newest.topic_id, title=newest.title, page=number,
                total_pages=pages_in_all, per_page=PER_PAGE,
                posts=tuple(replace(p, page=number, position=i)
                            for i, p in enumerate(posts, 1)),
                total_posts=total if is_last else None))
        return out


__all__ = ["MybbPages"]
