"""A MyBB.ru topic page (``viewtopic.php?id=N&p=K``) read without the API: pure, page text
in, posts out (``div.post#pN``: its ``data-posted`` time, ``.pa-author``, ``.post-content``,
the edit line, its number ``h3 strong``; the ``.pagelink`` box). The client reads these when
a board has closed its API. Anything a post cannot do without missing is a
:class:`MalformedPage` naming it. Facts and their sources: README.md («The topic page»).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from urllib.parse import parse_qs, urlsplit

from selectolax.lexbor import LexborHTMLParser, LexborNode

from adapters.html import first_text, int_or_none, squash
from adapters.mybbru.body import normalise_node
from adapters.mybbru.page import page_message
from adapters.paging import read_index
from adapters.post_parts import edit_of, post
from referee.core.dates import parse_forum_date
from referee.core.errors import (
    AccessDenied,
    DateParseError,
    ForumError,
    MalformedPage,
    TopicNotFound,
)
from referee.core.kernel import EditNotice, Post
from referee.core.markup import plain_text_node

_POST_ID = re.compile(r"^p(\d+)$")
# A profile link ``profile.php?id=U`` or a PM link ``messages.php?…uid=U``.
_USER_LINK = re.compile(r"(?:profile\.php\?(?:[^\"'#]*&)?id"
                        r"|messages\.php\?(?:[^\"'#]*&)?uid)=(\d+)")
# «Отредактировано Kotik (мафия) (Сегодня 12:00:00)»: the date is the last parenthesis, a
# nick may hold brackets of its own.
_EDITED = re.compile(r"Отредактировано\s+(?P<who>.+?)\s*\((?P<when>[^()]*)\)\s*$",
                     re.IGNORECASE)
_BAD_REQUEST = re.compile(r"неверн\w* или устаревш", re.IGNORECASE)
_GUEST = re.compile(r"^\s*Автор\s*:\s*", re.IGNORECASE)
_HINT = "форум отвечает не так, как ожидает referee: откройте страницу темы в браузере"
_DATE_HINT = ("проверьте [forum] timezone (время на страницах форума — в его часовом поясе) "
              "и формат даты форума")


@dataclass(frozen=True, slots=True)
class HtmlTopicPage:
    """One ``viewtopic.php?id=N&p=K`` page as the board numbered it."""

    page: int
    last_page: int
    title: str
    posts: tuple[Post, ...]
    numbers: tuple[int | None, ...] = ()
    """Each post's number in the topic (``h3 strong``), None where the page shows none."""

    @property
    def first_number(self) -> int | None:
        """The first post's number when the page numbers its posts one after another
        (then the posts' places in the topic do not depend on the board's page size)."""
        numbers = self.numbers
        first = numbers[0] if numbers else None
        if first is None or len(numbers) != len(self.posts) or any(
                n != first + i for i, n in enumerate(numbers)):
            return None
        return first


def parse_topic_page(html: str, *, topic_id: int, page: int = 1, tz: tzinfo | None = None,
                     now: datetime | None = None) -> HtmlTopicPage:
    """The posts of one topic page (``page``: the page asked for, which the page itself
    confirms in its page links). ``tz``/``now`` read dates written as text (a post without
    ``data-posted``, the edit line); without them such a post is refused. A post's page,
    place and topic are left for the caller (the adapter numbers pages of 100 posts)."""
    tree = LexborHTMLParser(html)
    _check_topic(tree, topic_id)
    blocks = post_blocks(tree)
    if not blocks:
        raise _no_posts(tree, html, topic_id)
    here, last = page_numbers(tree, page)
    read = [_post(b, tz, now) for b in blocks]
    return HtmlTopicPage(page=here, last_page=max(here, last), title=topic_title(tree),
                         posts=tuple(p for p, _ in read), numbers=tuple(n for _, n in read))


def _no_posts(tree: LexborHTMLParser, html: str, topic_id: int) -> ForumError:
    """Why a topic page shows no post, in the board's words: PunBB's «Bad request» («Ссылка,
    по которой Вы пришли, неверная или устаревшая») is a topic that is not there; a login
    form, a topic hidden from this reader; anything else, a page referee does not know."""
    said = page_message(html)
    words = f"; форум пишет: «{said}»" if said else ""
    if _BAD_REQUEST.search(said):
        return TopicNotFound(f"темы {topic_id} нет на форуме{words}",
                             "проверьте [forum] url: возможно, тему удалили или перенесли")
    if tree.css_first("input[type=password]") is not None:
        return AccessDenied(f"тема {topic_id} скрыта от гостей: форум просит войти{words}",
                            "откройте тему гостям или попросите администратора открыть API "
                            "(без API referee не входит на форум)")
    return MalformedPage(
        f"на странице темы {topic_id} нет сообщений MyBB.ru (div.post с id=pN){words}",
        "откройте тему в браузере: возможно, тема удалена, перенесена или скрыта от гостей")


def post_blocks(tree: LexborHTMLParser) -> list[LexborNode]:
    """The page's posts: ``div.post`` with ``id="pN"`` (other ``div.post`` — a preview, a
    box of a board script — have no such id)."""
    return [b for b in tree.css("div.post") if _POST_ID.match(b.attributes.get("id") or "")]


def shown_topic(tree: LexborHTMLParser) -> int | None:
    """The topic a page says it shows (``#pun-viewtopic[data-topic-id]``), when it says."""
    body = tree.css_first("#pun-viewtopic")
    return int_or_none(body.attributes.get("data-topic-id") if body is not None else None)


def _check_topic(tree: LexborHTMLParser, topic_id: int) -> None:
    """A page that says it shows another topic is never read as this one (a moved topic's
    redirect, a wrong link)."""
    shown = shown_topic(tree)
    if shown is not None and shown != topic_id:
        raise MalformedPage(f"форум показал тему {shown} вместо темы {topic_id}",
                            "проверьте [forum] url: возможно, тему перенесли или объединили")


def topic_title(tree: LexborHTMLParser) -> str:
    """The topic's subject: ``#pun-main h1 span`` (the page's ``<title>`` adds the board's
    name), else the ``<title>``."""
    return first_text(tree, ("#pun-main h1 span", "#pun-main h1", "title"))


def page_numbers(tree: LexborHTMLParser, asked: int = 1) -> tuple[int, int]:
    """(this page, the last page) from the ``.pagelink`` box: the current page is the
    ``strong``, the others are links (by their text, or ``p=`` of the «»»/«Вперёд» ones);
    without a ``strong`` the page asked for. 1 of 1 without the box."""
    box = tree.css_first(".pagelink")
    if box is None:
        return 1, 1
    index = read_index([box], page_of=None, number=_linked_page, arrow=None)
    here = index.current or max(1, asked)
    return here, index.last(here)


def _linked_page(link: LexborNode) -> int | None:
    """The page a link goes to: its text, or ``p=`` of its address (the «»»/«Вперёд»
    ones)."""
    text = squash(link.text())
    page = parse_qs(urlsplit(link.attributes.get("href") or "").query).get("p", [""])[0]
    return max([int(n) for n in (text, page) if n.isdigit()], default=None)


def _post(block: LexborNode, tz: tzinfo | None,
          now: datetime | None) -> tuple[Post, int | None]:
    m = _POST_ID.match(block.attributes.get("id") or "")
    assert m is not None  # post_blocks chose it by this id
    post_id = int(m.group(1))
    posted = _posted(block, post_id, tz, now)
    author = _author(block, post_id)
    content = block.css_first("div.post-content") or block.css_first(f"#p{post_id}-content")
    if content is None:
        raise MalformedPage(f"у сообщения {post_id} нет текста (div.post-content)", _HINT)
    edit = _edit_notice(content, tz, now) or _edit_notice(block, tz, now)
    normalise_node(content)
    body = ((content.inner_html or "").strip(), plain_text_node(content))
    return post(post_id, author, posted, body, edit), _number(block)


def _posted(block: LexborNode, post_id: int, tz: tzinfo | None,
            now: datetime | None) -> datetime:
    """``data-posted`` (unix seconds, UTC); else the permalink's text read in the board's
    zone (a page without the attribute)."""
    if seconds := int_or_none(block.attributes.get("data-posted")):
        return datetime.fromtimestamp(seconds, UTC)
    link = block.css_first("h3 a.permalink") or block.css_first("h3 a")
    text = squash(link.text() if link is not None else "")
    if not text:
        raise MalformedPage(
            f"у сообщения {post_id} нет времени (ни data-posted, ни даты в заголовке h3)",
            _HINT)
    if tz is None or now is None:
        raise MalformedPage(f"у сообщения {post_id} нет data-posted, а дату «{text}» "
                            "прочесть не в чем (не задан часовой пояс)", _HINT)
    try:
        return parse_forum_date(text, tz=tz, now=now)
    except DateParseError as e:
        raise MalformedPage(f"у сообщения {post_id} дата «{text}» не читается: {e.message}",
                            _DATE_HINT) from None


def _author(block: LexborNode, post_id: int) -> tuple[str, int | None]:
    """The author's name and id: ``data-user-id`` of the post, else the profile link in
    ``.pa-author`` or the post's links bar (its profile or «ЛС» ``uid=`` link); a guest's
    name is the text after ``span.acchide``
    («Автор: »), and a guest has no id (PunBB's user 1)."""
    box = block.css_first(".pa-author")
    if box is None:
        raise MalformedPage(f"у сообщения {post_id} нет автора (.pa-author)", _HINT)
    link = box.css_first("a[href*='profile.php']") or box.css_first("a")
    if link is not None:
        name = squash(link.text())
    else:
        for hidden in box.css(".acchide"):
            hidden.decompose()
        name = _GUEST.sub("", squash(box.text()))
    if not name:
        raise MalformedPage(f"у сообщения {post_id} пустое имя автора (.pa-author)", _HINT)
    return name, _author_id(block, link)


def _author_id(block: LexborNode, link: LexborNode | None) -> int | None:
    uid = (block.attributes.get("data-user-id") or "").strip()
    if not uid.isdigit():
        links = [link] if link is not None else []
        links += block.css(".post-links a[href*='profile.php'], .post-links a[href*='uid=']")
        found = (_USER_LINK.search(a.attributes.get("href") or "") for a in links)
        uid = next((m.group(1) for m in found if m), "")
    return int(uid) if uid.isdigit() and int(uid) > 1 else None


def _number(block: LexborNode) -> int | None:
    """The post's number in the topic: the ``strong`` of its ``h3`` (1 is the first post)."""
    node = block.css_first("h3 strong")
    return int_or_none(node.text() if node is not None else None)


def _edit_notice(node: LexborNode, tz: tzinfo | None, now: datetime | None) -> EditNotice | None:
    """«Отредактировано Ник (Сегодня 12:00:00)» in ``p.lastedit``: who edited and when (None
    when the date does not read); PunBB keeps no edit count, so one edit."""
    line = node.css_first(".lastedit")
    if line is None:
        return None
    text = squash(line.text())
    m = _EDITED.search(text)
    if m is None:
        return EditNotice("", None, 1)
    who = m.group("who").strip()
    splits = [(who, m.group("when"))] if tz is not None and now is not None else []
    return edit_of(splits, lambda when: parse_forum_date(when, tz=tz, now=now), editor=who)


__all__ = ["HtmlTopicPage", "page_numbers", "parse_topic_page", "post_blocks", "shown_topic",
           "topic_title"]
