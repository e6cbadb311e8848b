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


@dataclass(frozen=True, slots=True)
class Shape:
    """Where one generation's templates put a message's parts: thread posts and
    conversation messages share the markup (``message_macros``, XF1 ``message``)."""

    author: tuple[str, ...]  # the author's link: the first selector that finds one
    avatar: str  # the avatar link, whose user id stands in when the name has none
    body: tuple[str, ...]
    header: tuple[str, ...]  # where XenForo prints the date
    edit: str
    number: str  # where XenForo prints «#12»
    author_mark: str  # what an error names as missing
    body_mark: str


# XF2 author: the user cell (post_macros / message_macros::user_info), an article's author
# box (post_article_macros, XF 2.2+), then wherever a style put the user block.
XF2 = Shape(
    author=(".message-name .username", ".message-articleUserName .username",
            ".message-userDetails .username", ".message-user .username"),
    avatar=".message-avatar a[data-user-id], .message-articleUserInfo a[data-user-id]",
    body=(".message-body .bbWrapper", ".js-selectToQuote .bbWrapper", ".message-body"),
    header=(".message-attribution",), edit=".message-lastEdit",
    number=".message-attribution-opposite", author_mark="data-author, .message-name",
    body_mark=".message-body .bbWrapper")
XF1 = Shape(
    author=(".messageUserInfo .username, .userText .username, "
            ".messageMeta .authorEnd .username",),
    avatar=".messageUserInfo a.avatar, .avatarHolder a", body=("blockquote.messageText",),
    header=(".messageMeta .datePermalink", ".messageMeta"), edit="div.editDate",
    number=".messageMeta .publicControls, .postNumber", author_mark="data-author, a.username",
    body_mark="blockquote.messageText")

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
        found.append(read_message(node, f"Сообщение {pid}", pid, url, zone, now,
                                  XF2 if xf2 else XF1, not has_list or _in_list(node)))
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


def _missing(label: str, url: str, what: str) -> MalformedPage:
    return MalformedPage(f"{label} на странице {url}: {what}.", HINT_URL)


def _links_here(found: Node, root: Node, pid: int) -> bool:
    # XenForo wraps a post's date in a link to the post (threads/…/post-P, XF1 posts/P/).
    for parent in _ancestors(found, root):
        if parent.tag == "a":
            href = parent.attributes.get("href") or ""
            return f"post-{pid}" in href or f"posts/{pid}/" in href or f"id={pid}" in href
    return False


def _posted_at(node: Node, header: Node | None, pid: int, label: str, url: str,
               zone: tzinfo, now: datetime) -> datetime:
    when = time_of(date_in(header), zone, now) if header is not None else None
    if when is None:
        # Styles that print the date elsewhere (UI.X repeats it in the user cell): a date
        # linked to this post first, any other of the post's own dates after.
        found = [t for t in node.css(_TIMES) if _meta(t, node)]
        found.sort(key=lambda t: not _links_here(t, node, pid))
        when = next((w for w in (time_of(t, zone, now) for t in found) if w is not None), None)
    if when is None:
        shown = squash(header.text())[:60] if header is not None else ""
        raise _missing(label, url, "не найдено время сообщения (time.u-dt)"
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


def _user(node: Node, shape: Shape) -> User:
    named = squash(node.attributes.get("data-author") or "")
    # data-author is the plain username XenForo's own quote script reads; the link's text
    # may carry a style's or an add-on's decorations. Guests and deleted members print a
    # bare span.username (data-user-id="0").
    shown = user_of(_first(node, shape.author), named)
    uid = shown.user_id
    if uid is None:
        avatar = node.css_first(shape.avatar)
        uid = user_of(avatar).user_id if avatar is not None else None
    return User(named or shown.name, uid)


def read_message(node: Node, label: str, pid: int, url: str, zone: tzinfo, now: datetime,
                 shape: Shape, listed: bool = True) -> RawPost:
    """One post or conversation message (``label`` names it in errors: «Сообщение 12»)."""
    user = _user(node, shape)
    if not user.name:
        raise _missing(label, url, f"не найден автор ({shape.author_mark})")
    body = _first(node, shape.body)
    if body is None:
        raise _missing(label, url, f"нет текста сообщения ({shape.body_mark})")
    posted_at = _posted_at(node, _first(node, shape.header), pid, label, url, zone, now)
    edit = _edit_notice(node.css_first(shape.edit), user.name, zone, now)
    number = _number(node, node.css_first(shape.number))
    return RawPost(pid, user.name, user.user_id, posted_at, body, edit, number, listed)


__all__ = ["XF1", "XF2", "RawPost", "Shape", "looks_like_posts", "read_message",
           "read_posts"]
