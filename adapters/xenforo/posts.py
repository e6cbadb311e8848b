"""Which elements of a XenForo thread page are posts, and each post's author, time, number,
body and edit notice. Pure: selectolax nodes in.

XenForo 2 (2.0–2.3) marks a post with the hooks its own JavaScript relies on, so styles keep
them: ``.message.js-post[data-content="post-P"]`` (``id="js-post-P"``), ``data-author``,
``time.u-dt``, ``.message-body .bbWrapper``. Where styles differ is the user cell and the
header, so each field is looked up where XenForo's templates put it, then wherever a style
moved it. XenForo 1: ``li.message#post-P``. The facts and where each was verified are in
``adapters/xenforo/README.md`` («Thread pages»).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, tzinfo

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from adapters.html import classes, squash
from adapters.xenforo.page import HINT_URL, User, date_in, time_of, user_of
from referee.core.errors import MalformedPage
from referee.core.kernel import EditNotice

_POST_ID = re.compile(r"^(?:js-)?post-(\d+)$")
_NUMBER = re.compile(r"#\s*(\d[\d\s.,\u00a0\u202f]*)")
_MODERATOR = ("модератор", "moderator")

# XF2 author: the user cell (post_macros / message_macros::user_info), an article's author
# box (post_article_macros, XF 2.2+), then wherever a style put the user block.
_XF2_AUTHOR = (".message-name .username", ".message-articleUserName .username",
               ".message-userDetails .username", ".message-user .username")
_XF2_AVATAR = ".message-avatar a[data-user-id], .message-articleUserInfo a[data-user-id]"
_XF2_BODY = (".message-body .bbWrapper", ".js-selectToQuote .bbWrapper", ".message-body")
_XF1_AUTHOR = (".messageUserInfo .username, .userText .username, "
               ".messageMeta .authorEnd .username")
_TIMES = "time, abbr.DateTime, span.DateTime"
# Where a post's own date, number and author never are: its text, its edit notice, its
# signature, the author's profile lines.
_NOT_META = frozenset({"message-body", "bbWrapper", "message-lastEdit", "message-signature",
                       "message-userExtras", "messageText", "editDate", "signature"})


@dataclass(frozen=True, slots=True)
class RawPost:
    post_id: int
    author: str
    author_id: int | None
    posted_at: datetime
    body: Node
    edit: EditNotice | None
    number: int | None
    """The post's place in the whole thread («#12»), when the page prints it."""
    listed: bool
    """False for a copy outside the page's list of posts: XF 2.2+ pins the first post of a
    question, suggestion or article thread above every page, add-ons do it for any."""


def read_posts(tree: LexborHTMLParser, url: str, zone: tzinfo, now: datetime) -> list[RawPost]:
    """Every post on the page in page order, the same post once. Raises
    :class:`MalformedPage` naming what a post lacks."""
    xf2 = _xf2_posts(tree)
    nodes = xf2 or _xf1_posts(tree)
    has_list = tree.css_first(".js-replyNewMessageContainer, #messageList") is not None
    found: list[RawPost] = []
    seen: set[int] = set()
    for pid, node in nodes:
        if pid in seen:
            continue
        seen.add(pid)
        read = _xf2_post if xf2 else _xf1_post
        found.append(read(node, pid, url, zone, now, not has_list or _in_list(node)))
    return found


def looks_like_posts(tree: LexborHTMLParser) -> bool:
    """Whether the page shows XenForo posts (a deleted post's placeholder is none)."""
    for node in tree.css("article.message--post, article.message--article, .message.js-post, "
                         "li.message"):
        if not classes(node) & {"message--deleted", "deleted", "placeholder"}:
            return True
    return False


# --------------------------------------------------------------------------- which posts

def _ancestors(node: Node, stop: Node | None = None) -> Iterator[Node]:
    parent = node.parent
    while parent is not None and parent != stop:
        yield parent
        parent = parent.parent


def _post_id(node: Node) -> int | None:
    for key in ("data-content", "id"):
        match = _POST_ID.match(node.attributes.get(key) or "")
        if match and len(match.group(1)) <= 12:
            return int(match.group(1))
    return None


def _xf2_posts(tree: LexborHTMLParser) -> list[tuple[int, Node]]:
    found: list[tuple[int, Node]] = []
    for node in tree.css('[data-content^="post-"], [id^="js-post-"]'):
        marks = classes(node)
        pid = _post_id(node)
        # A soft-deleted post shown to a moderator is a placeholder without its text
        # (post_macros::post_deleted); a post quoted or embedded in another's text is not
        # a post of this page.
        if pid is None or not marks & {"message", "js-post"} or "message--deleted" in marks:
            continue
        if any("bbWrapper" in classes(a) for a in _ancestors(node)):
            continue
        found.append((pid, node))
    return found


def _xf1_posts(tree: LexborHTMLParser) -> list[tuple[int, Node]]:
    found: list[tuple[int, Node]] = []
    for node in tree.css("li.message"):
        pid = _post_id(node)
        # A deleted post shown to a moderator is a placeholder without its text.
        if pid is not None and not classes(node) & {"deleted", "placeholder"}:
            found.append((pid, node))
    return found


def _in_list(node: Node) -> bool:
    return any("js-replyNewMessageContainer" in classes(a) or a.attributes.get("id") ==
               "messageList" for a in _ancestors(node))


# --------------------------------------------------------------------------- one post

def _meta(node: Node, root: Node) -> bool:
    """Whether ``node`` is in the post's own furniture, not its text or notices."""
    return not any(classes(a) & _NOT_META for a in _ancestors(node, root))


def _first(node: Node, selectors: tuple[str, ...]) -> Node | None:
    for selector in selectors:
        found = node.css_first(selector)
        if found is not None:
            return found
    return None


def _missing(pid: int, url: str, what: str) -> MalformedPage:
    return MalformedPage(f"Сообщение {pid} на странице {url}: {what}.", HINT_URL)


def _links_here(found: Node, root: Node, pid: int) -> bool:
    # XenForo wraps a post's date in a link to the post (threads/…/post-P, XF1 posts/P/).
    for parent in _ancestors(found, root):
        if parent.tag == "a":
            href = parent.attributes.get("href") or ""
            return f"post-{pid}" in href or f"posts/{pid}/" in href or f"id={pid}" in href
    return False


def _posted_at(node: Node, header: Node | None, pid: int, url: str, zone: tzinfo,
               now: datetime) -> datetime:
    when = time_of(date_in(header), zone, now) if header is not None else None
    if when is None:
        # Styles that print the date elsewhere (UI.X repeats it in the user cell): a date
        # linked to this post first, any other of the post's own dates after.
        found = [t for t in node.css(_TIMES) if _meta(t, node)]
        found.sort(key=lambda t: not _links_here(t, node, pid))
        when = next((w for w in (time_of(t, zone, now) for t in found) if w is not None), None)
    if when is None:
        shown = squash(header.text())[:60] if header is not None else ""
        raise _missing(pid, url, "не найдено время сообщения (time.u-dt)"
                       + (f": «{shown}»" if shown else ""))
    return when


def _number(node: Node, box: Node | None) -> int | None:
    """«#12»: in ``box`` (XenForo's place for it) first, else in any link of the post's
    furniture (XF 2.0 and UI.X repeat it in the user cell)."""
    for scope in ((box,) if box is not None else ()) + (node,):
        for item in scope.css("a, li, span"):
            match = _NUMBER.fullmatch(squash(item.text()))
            if match and _meta(item, node):
                digits = re.sub(r"\D", "", match.group(1))
                if digits and len(digits) <= 9:
                    return int(digits)
    return None


def _edit_notice(box: Node | None, author: str, zone: tzinfo, now: datetime) -> EditNotice | None:
    """«Последнее редактирование: <time>» (XF2 ``div.message-lastEdit``, XF1
    ``div.editDate``); «Последнее редактирование модератором:» when a moderator edited it.
    XenForo prints no edit count: one notice is one known edit."""
    if box is None:
        return None
    text = squash(box.text()).lower()
    editor = "модератор" if any(m in text for m in _MODERATOR) else author
    return EditNotice(editor=editor, edited_at=time_of(date_in(box), zone, now), count=1)


def _xf2_user(node: Node) -> User:
    named = squash(node.attributes.get("data-author") or "")
    link = _first(node, _XF2_AUTHOR)
    # data-author is the plain username XenForo's own quote script reads; the link's text
    # may carry a style's or an add-on's decorations. Guests and deleted members print a
    # bare span.username (data-user-id="0").
    shown = user_of(link, named)
    uid = shown.user_id
    if uid is None:
        avatar = node.css_first(_XF2_AVATAR)
        uid = user_of(avatar).user_id if avatar is not None else None
    return User(named or shown.name, uid)


def _xf2_post(node: Node, pid: int, url: str, zone: tzinfo, now: datetime,
              listed: bool) -> RawPost:
    user = _xf2_user(node)
    if not user.name:
        raise _missing(pid, url, "не найден автор (data-author, .message-name)")
    body = _first(node, _XF2_BODY)
    if body is None:
        raise _missing(pid, url, "нет текста сообщения (.message-body .bbWrapper)")
    posted_at = _posted_at(node, node.css_first(".message-attribution"), pid, url, zone, now)
    edit = _edit_notice(node.css_first(".message-lastEdit"), user.name, zone, now)
    number = _number(node, node.css_first(".message-attribution-opposite"))
    return RawPost(pid, user.name, user.user_id, posted_at, body, edit, number, listed)


def _xf1_post(node: Node, pid: int, url: str, zone: tzinfo, now: datetime,
              listed: bool) -> RawPost:
    named = squash(node.attributes.get("data-author") or "")
    shown = user_of(node.css_first(_XF1_AUTHOR), named)
    if shown.user_id is None:
        avatar = node.css_first(".messageUserInfo a.avatar, .avatarHolder a")
        shown = User(shown.name, user_of(avatar).user_id if avatar is not None else None)
    name = named or shown.name
    if not name:
        raise _missing(pid, url, "не найден автор (data-author, a.username)")
    body = node.css_first("blockquote.messageText")
    if body is None:
        raise _missing(pid, url, "нет текста сообщения (blockquote.messageText)")
    meta = node.css_first(".messageMeta .datePermalink") or node.css_first(".messageMeta")
    posted_at = _posted_at(node, meta, pid, url, zone, now)
    edit = _edit_notice(node.css_first("div.editDate"), name, zone, now)
    number = _number(node, node.css_first(".messageMeta .publicControls, .postNumber"))
    return RawPost(pid, name, shown.user_id, posted_at, body, edit, number, listed)


__all__ = ["RawPost", "read_posts", "looks_like_posts"]
