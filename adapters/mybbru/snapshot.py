"""MyBB.ru's half of a snapshot folder (``[forum] snapshot``; the shared half:
:mod:`adapters.snapshot`): a saved topic page is read by the HTML fallback's parser
(:mod:`.topic`), its topic told by the page or its address, and the board's pages are
regrouped into pages of 100 posts as the live board is read, so that a game read from saved
pages goes on live in the same store. Saved dialogs are skipped (PMs are read only through
the API). Facts and their sources: README.md («Saved pages»).
"""

from __future__ import annotations

import re
from dataclasses import replace

from selectolax.lexbor import LexborHTMLParser

from adapters import snapshot
from adapters.address import or_none
from adapters.mybbru import page as pages
from adapters.mybbru import topic as topic_html
from adapters.mybbru.api import PER_PAGE
from adapters.mybbru.urls import parse_topic_url
from adapters.paging import Place
from adapters.post_parts import topic_page
from adapters.snapshot import Reading, SavedPage, most_linked
from referee.core.errors import MalformedPage
from referee.core.kernel import Post, TopicPage

_TOPIC_LINK = re.compile(r"viewtopic\.php\?(?:[^\"'#]*&(?:amp;)?)?id=(\d+)")
_REPLY_FORM = re.compile(r"post\.php\?(?:[^\"'#]*&(?:amp;)?)?tid=(\d+)")
_NO_PMS = ("диалог из личных сообщений: их referee читает только через API форума, не со "
           "страниц — ночные ходы внесите командой «referee action add» или файлом заявок")


def _topic_on_page(tree: LexborHTMLParser, page: SavedPage) -> int | None:
    shown = topic_html.shown_topic(tree)
    if shown is not None:
        return shown
    found = or_none(parse_topic_url, page.url) if page.on_board else None
    if found is not None and found[1] is not None:
        return found[1]
    for form in tree.css("form[action]"):
        if match := _REPLY_FORM.search(form.attributes.get("action") or ""):
            return int(match.group(1))
    return most_linked(tree, lambda address: int(m.group(1)) if (
        m := _TOPIC_LINK.search(address)) else None, "a[href]")


def _asked(page: SavedPage) -> int:
    """The page number in the saved address (``p=K``), the one the page was asked as."""
    match = re.search(r"[?&]p=(\d+)", page.url) if page.on_board else None
    return int(match.group(1)) if match else 1


class MybbPages(snapshot.SavedPages):
    """MyBB.ru saved topic pages, read by :mod:`.page`."""

    engine = "mybbru"
    regroups = True
    reads_right = staticmethod(pages.reads_as_mybb)

    def read(self, page: SavedPage) -> Reading:
        if pages.is_punbb_page(page.text):
            return Reading("other", why="страница PunBB/FluxBB, не MyBB.ru")
        tree = LexborHTMLParser(page.text)
        if "messages.php" in (page.url if page.on_board else "") or tree.css_first(
                "#pun-messages") is not None:
            return Reading("other", why=_NO_PMS)
        if not pages.is_mybb_page(page.text):
            return Reading("other", why="не страница MyBB.ru")
        if not topic_html.post_blocks(tree):
            if pages.has_login_form(page.text):
                return Reading("other", why="форма входа (страница сохранена без входа)")
            return Reading("other", why="страница MyBB.ru, не тема")
        tid = _topic_on_page(tree, page)
        shown = topic_html.parse_topic_page(page.text, topic_id=tid or 0, page=_asked(page),
                                            tz=self.tz, now=page.saved_at)
        first = shown.first_number
        # A post's position here is its number in the topic (0: not numbered), for regroup.
        posts = tuple(replace(p, topic_id=tid, page=shown.page,
                              position=first + i if first is not None else 0)
                      for i, p in enumerate(shown.posts))
        return Reading("topic", topic=TopicPage(
            topic_id=tid, title=shown.title, page=shown.page, total_pages=shown.last_page,
            per_page=len(posts), posts=posts))

    def regroup(self, by_page: dict[int, list[TopicPage]]) -> dict[int, list[TopicPage]]:
        """The board's pages (each with its versions) as pages of 100 posts."""
        size = max((len(v.posts) for versions in by_page.values() for v in versions
                    if v.page < v.total_pages), default=None)
        unplaced = sorted(b for b, versions in by_page.items() if b > 1 and any(
            p.position == 0 for v in versions for p in v.posts))
        if size is None and unplaced:
            raise MalformedPage(
                f"среди сохранённых страниц темы нет ни одной полной (только стр. "
                f"{', '.join(map(str, unplaced))}): не понять, где в теме их сообщения",
                "сохраните и первую страницу темы")
        placed: dict[int, list[list[tuple[int, Post]]]] = {}
        for b, versions in by_page.items():
            for k, version in enumerate(versions):
                for i, post in enumerate(version.posts):
                    at = post.position - 1 if post.position else (b - 1) * (size or 0) + i
                    into = placed.setdefault(at // PER_PAGE + 1, [])
                    while len(into) <= k:
                        into.append([])
                    into[k].append((at, post))
        newest = by_page[max(by_page)][-1]
        last_at = max((at for versions in placed.values() for post_at in versions
                       for at, _ in post_at), default=-1)
        whole = newest.page >= newest.total_pages
        pages_in_all = max(placed) if whole else max(max(placed) + 1, -(-(
            newest.total_pages * (size or len(newest.posts))) // PER_PAGE))
        return {n: _versions(n, placed[n], pages_in_all, newest, last_at + 1 if whole else None)
                for n in sorted(placed)}


def _versions(number: int, versions: list[list[tuple[int, Post]]], pages_in_all: int,
              newest: TopicPage, total: int | None) -> list[TopicPage]:
    """The versions of page ``number`` of 100: the k-th holds each board page in it at its
    k-th saved version, and at its last one where it has fewer."""
    out: list[TopicPage] = []
    held: dict[int, tuple[int, Post]] = {}
    for k, version in enumerate(versions):
        boards = {p.page for _, p in version}
        # A board page saved again replaces its own posts; the others are kept as they were.
        held = {pid: v for pid, v in held.items() if v[1].page not in boards} if k else {}
        held.update({post.post_id: (at, post) for at, post in version})
        posts = [p for _, p in sorted(held.values(), key=lambda v: v[0])]
        out.append(topic_page(Place(number, pages_in_all), posts, topic_id=newest.topic_id,
                              title=newest.title, per_page=PER_PAGE,
                              total_posts=total if number >= pages_in_all else None))
    return out


__all__ = ["MybbPages"]
