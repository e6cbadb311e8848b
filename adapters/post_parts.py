"""The parts of a post every engine reads, written once (issue 28): the edit notice read
best effort, and a page's posts placed on their page. An engine gives its own words,
regexes and selectors as arguments; the markup facts of each board are in its README.
Pure."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from datetime import datetime

from adapters.paging import Place
from referee.core.errors import DateParseError
from referee.core.kernel import EditNotice, Post, TopicPage


def edit_of(splits: Iterable[tuple[str, str]], read: Callable[[str], datetime], *,
            editor: str, count: int = 1) -> EditNotice:
    """The notice of the first ``(editor, date text)`` split of an edit notice whose date
    ``read`` reads, else ``editor`` with no date: a notice whose date does not read still
    says the post was edited. ``count`` is 1 where the board prints no edit count (all but
    phpBB): an edited post was edited at least once."""
    for who, when in splits:
        try:
            return EditNotice(editor=who.strip(), edited_at=read(when), count=count)
        except DateParseError:
            continue
    return EditNotice(editor=editor, edited_at=None, count=count)


def post(pid: int, author: tuple[str, int | None], posted_at: datetime,
         body: tuple[str, str], edit: EditNotice | None) -> Post:
    """A post as its engine read it (``body``: the engine-neutral HTML and its plain text);
    its page, place and topic are set by :func:`topic_page` once the page is read."""
    return Post(post_id=pid, author=author[0], author_id=author[1], posted_at=posted_at,
                body_html=body[0], body_text=body[1], edit=edit)


def topic_page(pages: Place, posts: Iterable[Post | None], *, topic_id: int | None,
               title: str, per_page: int, total_posts: int | None = None) -> TopicPage:
    """The page: its posts (in page order, the page's own only) placed on it — the page
    shown, their place from 1, the topic —, where it sits (``pages``) and the topic's post
    count (``total_posts``, else the one the page index printed). A None is a post the page
    shows but the engine leaves out (phpBB's soft-deleted one): it keeps its place."""
    placed = tuple(replace(one, page=pages.page, position=place, topic_id=topic_id)
                   for place, one in enumerate(posts, start=1) if one is not None)
    return TopicPage(
        topic_id=topic_id, title=title, page=pages.page, total_pages=pages.total,
        per_page=per_page, posts=placed,
        total_posts=pages.items if total_posts is None else total_posts,
        next_url=pages.next_url)
