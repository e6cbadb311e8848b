"""XenForo conversations («Переписка»: the host's private messages) → plain rows and
messages, one :class:`~referee.core.kernel.PrivateMessage` per message keyed by its place in its
conversation (:func:`pm_key`). Pure: HTML text in. Why a message per place, and the facts
with their sources: README.md («Conversations as the host's private messages»,
«Conversations»).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, tzinfo
from zoneinfo import ZoneInfo

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from adapters.html import classes, squash
from adapters.xenforo.body import normalise_body
from adapters.xenforo.dates import viewer_zone
from adapters.xenforo.page import (
    HINT_URL,
    date_in,
    is_logged_in,
    login_form,
    raise_for_page,
    time_of,
)
from adapters.xenforo.posts import XF1, XF2, Shape, read_message
from adapters.xenforo.topic import canonical_url, pages_of
from referee.core.errors import MalformedPage
from referee.core.kernel import PmFolderPage, PmListEntry, PrivateMessage

KEY_BASE = 100_000
"""``pm_id = conversation_id · KEY_BASE + place`` (the first message is place 1)."""

_CONVERSATION = re.compile(r"(?:conversations|direct-messages)/(?:[^/?#]*\.)?(\d+)(?=/|$|\?|#)")
_MESSAGE_ID = re.compile(r"^(?:convMessage|message|js-message|conversation_message)-(\d+)$")
_MESSAGE_LINK = re.compile(r"(?:conversations|direct-messages)/messages/(\d+)")
_COUNT = re.compile(r"\d[\d\s.,\u00a0\u202f]*")


def pm_key(conversation_id: int, place: int) -> int:
    if not 1 <= place < KEY_BASE:
        raise MalformedPage(
            f"В переписке {conversation_id} больше {KEY_BASE - 1} сообщений: referee не может "
            "их различить.", "Сообщите разработчикам.")
    return conversation_id * KEY_BASE + place


def split_key(pm_id: int) -> tuple[int, int]:
    """``(conversation_id, place)`` of a key made by :func:`pm_key`."""
    return divmod(pm_id, KEY_BASE)


def conversation_id_in(href: str) -> int | None:
    match = _CONVERSATION.search(href or "")
    return int(match.group(1)) if match else None


def _count(text: str) -> int | None:
    match = _COUNT.search(text or "")
    if not match:
        return None
    digits = re.sub(r"\D", "", match.group(0))
    return int(digits) if digits else None


# --------------------------------------------------------------------------- the listing

@dataclass(frozen=True, slots=True)
class ConversationRow:
    """One conversation of the host's list, as the list shows it."""

    conversation_id: int
    title: str
    route: str
    """``conversations/slug.ID/`` (the address of its first page, without the prefix)."""
    participants: tuple[str, ...]
    messages: int
    last_at: datetime | None
    last_sender: str
    unread: bool


@dataclass(frozen=True, slots=True)
class ConversationList:
    page: int
    total_pages: int
    rows: tuple[ConversationRow, ...]


def inbox_page(listing: ConversationList, url_of: Callable[[str], str]) -> PmFolderPage:
    """The list as the PM sync reads a folder: one entry per message of each conversation,
    newest first (:func:`pm_key`); only the last one's sender and time are on the list.
    ``url_of`` makes a row's route an address (the live board's, or as saved)."""
    entries: list[PmListEntry] = []
    for row in listing.rows:
        for place in range(row.messages, 0, -1):
            last = place == row.messages
            entries.append(PmListEntry(
                pm_id=pm_key(row.conversation_id, place), subject=row.title,
                sender=row.last_sender if last else "",
                sent_at=row.last_at if last else None, url=url_of(row.route),
                unread=row.unread and last))
    return PmFolderPage("inbox", listing.page, listing.total_pages, tuple(entries))


def _route(href: str, conversation_id: int) -> str:
    match = re.search(r"((?:conversations|direct-messages)/(?:[^/?#]*\.)?"
                      + str(conversation_id) + r")(?=/|$|\?|#)", href)
    return (match.group(1) if match else f"conversations/{conversation_id}") + "/"


def _row(node: Node, tz: tzinfo, now: datetime) -> ConversationRow | None:
    title_link = (node.css_first("a.structItem-title") or node.css_first(".structItem-title a")
                  or node.css_first("h3.title a"))
    # The title's link, else any link of the row that names a conversation.
    links = ([title_link] if title_link is not None else []) + node.css("a[href]")
    hrefs = [a.attributes.get("href") or "" for a in links]
    href = next((h for h in hrefs if conversation_id_in(h) is not None), "")
    conversation_id = conversation_id_in(href)
    if conversation_id is None:
        return None
    main = node.css_first(".structItem-cell--main") or node
    people: list[str] = []
    for user in main.css(".structItem-parts .username, .posterDate .username"):
        name = squash(user.text())
        if name and name not in people:
            people.append(name)
    replies = node.css_first(".structItem-cell--meta dd") or node.css_first("dl.major dd")
    count = _count(replies.text()) if replies is not None else None
    latest = node.css_first(".structItem-cell--latest") or node.css_first(".lastPostInfo")
    last_sender = latest.css_first(".username") if latest is not None else None
    return ConversationRow(
        conversation_id=conversation_id,
        title=squash(title_link.text()) if title_link is not None else "",
        route=_route(href, conversation_id),
        participants=tuple(people),
        messages=(count or 0) + 1,
        last_at=time_of(date_in(latest), tz, now) if latest is not None else None,
        last_sender=squash(last_sender.text()) if last_sender is not None else "",
        unread=bool(classes(node) & {"is-unread", "unread"}),
    )


def parse_conversation_list(html: str, *, url: str, tz: ZoneInfo,
                            now: datetime) -> ConversationList:
    """The host's conversation list (XF2 ``div.structItem--conversation`` rows, XF1
    ``li.discussionListItem``), newest reply first as XenForo sorts it."""
    tree = LexborHTMLParser(html)
    if login_form(tree) is not None and not is_logged_in(tree):
        raise_for_page(tree, url, "список переписок")
    nodes = tree.css("div.structItem--conversation") or tree.css("li.discussionListItem")
    # An empty list is still the list page (XF2 «Нет переписок для отображения.»).
    if not nodes and tree.css_first('[data-type="conversation"], ol.discussionListItems, '
                                    'form#ConversationListForm') is None:
        raise_for_page(tree, url, "список переписок")
    zone = viewer_zone(tree, tz)
    rows = tuple(r for r in (_row(n, zone, now) for n in nodes) if r is not None)
    pages = pages_of(tree, url)
    return ConversationList(pages.page, pages.total, rows)


# --------------------------------------------------------------------------- one page

@dataclass(frozen=True, slots=True)
class ConversationMessage:
    message_id: int
    sender: str
    sender_id: int | None
    sent_at: datetime
    body_html: str
    body_text: str


@dataclass(frozen=True, slots=True)
class ConversationPage:
    conversation_id: int | None
    title: str
    page: int
    total_pages: int
    participants: tuple[str, ...]
    messages: tuple[ConversationMessage, ...]


def _message_id(node: Node) -> int | None:
    marks = [c.attributes.get(key) for c in [node, *node.css("span.u-anchorTarget")]
             for key in ("id", "data-content")]
    marks += [h.attributes.get("data-lb-id") for h in node.css("[data-lb-id^='message-']")[:1]]
    for mark in marks:
        match = _MESSAGE_ID.match(mark or "")
        if match:
            return int(match.group(1))
    for link in node.css(".message-attribution a[href], .messageMeta a[href]"):
        match = _MESSAGE_LINK.search(link.attributes.get("href") or "")
        if match:
            return int(match.group(1))
    return None


def _message(node: Node, url: str, tz: tzinfo, now: datetime,
             shape: Shape) -> ConversationMessage:
    mid = _message_id(node)
    if mid is None:
        raise MalformedPage(f"Сообщение переписки на странице {url} без номера.", HINT_URL)
    raw = read_message(node, f"Сообщение {mid} переписки", mid, url, tz, now, shape)
    body_html, body_text = normalise_body(raw.body)
    return ConversationMessage(mid, raw.author, raw.author_id, raw.posted_at, body_html,
                               body_text)


def _participants(tree: LexborHTMLParser) -> tuple[str, ...]:
    # The sidebar «Участники переписки» lists everyone (avatar rows); the page description
    # lists the starter and up to four others.
    found: list[str] = []
    for selector in (".block ol.block-body .contentRow-main .username",
                     ".p-description .username"):
        for user in tree.css(selector):
            name = squash(user.text())
            if name and name not in found:
                found.append(name)
        if found:
            break
    return tuple(found)


def conversation_pms(conversation_id: int, shown: ConversationPage,
                     row: ConversationRow | None, per_page: int | None,
                     host: str) -> list[PrivateMessage]:
    """The messages of one conversation page as the kernel's PMs, keyed by their places
    (:func:`pm_key`); the live board and saved pages alike. A page before the last tells
    the board's page size; on the last page without ``per_page`` known, its messages are
    the conversation's last ones (the list said how many there are)."""
    count = len(shown.messages)
    per = count if shown.page < shown.total_pages else per_page
    if shown.page == 1 or per:
        first = (shown.page - 1) * (per or 0) + 1
    else:
        first = max(1, (row.messages if row is not None else count) - count + 1)
    people = shown.participants or (row.participants if row is not None else ())
    title = shown.title or (row.title if row is not None else str(conversation_id))
    me = host.casefold()
    return [PrivateMessage(
        pm_id=pm_key(conversation_id, first + offset), sender=m.sender, sender_id=m.sender_id,
        recipients=tuple(p for p in people if p.casefold() != m.sender.casefold()),
        sent_at=m.sent_at, subject=title, body_html=m.body_html, body_text=m.body_text,
        folder="sentbox" if me and m.sender.casefold() == me else "inbox")
        for offset, m in enumerate(shown.messages)]


def parse_conversation_page(html: str, *, url: str, tz: ZoneInfo,
                            now: datetime) -> ConversationPage:
    """One page of a conversation (XF2 ``article.message--conversationMessage``, XF1
    ``li.message`` in ``ol#messageList``), oldest message first."""
    tree = LexborHTMLParser(html)
    xf2 = tree.css("article.message--conversationMessage")
    nodes = xf2 or tree.css("ol#messageList li.message")
    if not nodes:
        raise_for_page(tree, url, "страница переписки")
    zone = viewer_zone(tree, tz)
    messages = tuple(_message(n, url, zone, now, XF2 if xf2 else XF1) for n in nodes)
    pages = pages_of(tree, url)
    source = canonical_url(tree) or ""
    title = tree.css_first("h1.p-title-value") or tree.css_first(".titleBar h1")
    return ConversationPage(
        conversation_id=conversation_id_in(source) or conversation_id_in(url),
        title=squash(title.text()) if title is not None else "",
        page=pages.page, total_pages=pages.total,
        participants=_participants(tree), messages=messages,
    )


__all__ = [
    "KEY_BASE", "ConversationList", "ConversationMessage", "ConversationPage",
    "ConversationRow", "conversation_id_in", "conversation_pms", "parse_conversation_list",
    "inbox_page", "parse_conversation_page", "pm_key", "split_key",
]
