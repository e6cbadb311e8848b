"""SMF 2.1 (and 2.0) personal-message pages → kernel values: a folder page's rows, every
message it shows in full, its page index and the member's display mode. Pure: HTML in,
values out. Facts and their sources (2.1 real pages, 2.0 its templates): README.md
(«Personal messages»).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from urllib.parse import urljoin
from zoneinfo import ZoneInfo

from selectolax.lexbor import LexborNode as Node

from adapters.html import int_or_none, squash
from adapters.smf.page import SmfPage
from adapters.smf.topic import normalise_body, place, post_blocks, poster_of
from adapters.smf.urls import query_params, strip_session
from referee.core.dates import parse_forum_date
from referee.core.errors import DateParseError, MalformedPage
from referee.core.kernel import PmFolderPage, PmListEntry, PrivateMessage
from referee.core.markup import plain_text

__all__ = ["SmfFolder", "newest_first", "parse_folder"]

MODE_ALL, MODE_ONE, MODE_CONVERSATION = 0, 1, 2


@dataclass(frozen=True, slots=True)
class SmfFolder:
    """One page of an SMF PM folder, in SMF's own order (oldest first)."""

    folder: str
    """The kernel's folder name: ``inbox`` or ``sentbox``."""
    page: int
    total_pages: int
    per_page: int | None
    mode: int
    entries: tuple[PmListEntry, ...]
    messages: dict[int, PrivateMessage] = field(default_factory=dict)
    """The messages shown in full on this page (all of them in display mode 0)."""
    starts: dict[int, int] = field(default_factory=dict)
    """Folder page number → its ``start=`` offset, as the page index links them."""
    inbox_unread: int = 0
    """The inbox's unread PMs as the menu counts them («Входящие <span class="amt">27»),
    before this very page marked them read (SMF 2.1 ``MessageFolder`` marks them after it
    has built the page)."""


def parse_folder(html: str, *, url: str, folder: str, tz: ZoneInfo, now: datetime) -> SmfFolder:
    """One folder page: its rows, and every message it shows in full."""
    page = SmfPage(html, url)
    form = page.tree.css_first("form#pmFolder") or page.tree.css_first("form[name=pmFolder]")
    if form is None:
        page.raise_for_page("личные сообщения", "папка личных сообщений",
                            missing="списка сообщений (form#pmFolder)")
    page.check_zone(tz)
    anchor = page.now(now)
    account = _account_name(page)
    entries = tuple(e for row in form.css("table.table_grid tbody tr")
                    if (e := _entry(row, url, folder, account, tz, anchor)) is not None)
    messages = {pm.pm_id: pm for pm in _messages(page, folder, tz, anchor)}
    # 2.1 ``div.pagelinks``; 2.0 «Страницы: …» in ``div.pagesection div.floatleft``.
    box = page.content().css_first("div.pagelinks") or next(
        (d for d in page.content().css("div.pagesection div.floatleft")
         if d.css_first("a.navPages, strong") is not None), None)
    # The folder form posts back to its own page: ``…;f=inbox;start=25``.
    here = query_params((form.attributes.get("action") or "").partition("?")[2]).get("start")
    pages, starts = place(box, url, int(here) if here and here.isdigit() else None)
    return SmfFolder(
        folder=folder, page=pages.page, total_pages=pages.total,
        per_page=pages.per_page, mode=_mode(page, entries, messages),
        entries=entries, messages=messages, starts=starts, inbox_unread=_inbox_unread(page),
    )


def newest_first(got: SmfFolder, page: int, total: int | None = None) -> PmFolderPage:
    """A folder page as the kernel lists it (newest first), numbered ``page`` of ``total``."""
    return PmFolderPage(folder=got.folder, page=page, total_pages=total or got.total_pages,
                        entries=tuple(reversed(got.entries)))


def _inbox_unread(page: SmfPage) -> int:
    """The unread count beside «Входящие» in the PM menu (real 2.1 page: ``a.pm_menu_icon
    .inbox span.amt``, printed only when there is one); 0 without it (2.0: not read)."""
    node = page.tree.css_first("a.pm_menu_icon.inbox span.amt")
    text = squash(node.text()) if node is not None else ""
    return int(text) if text.isdigit() else 0


def _account_name(page: SmfPage) -> str:
    node = (page.tree.css_first("#profile_menu_top span.textmenu")
            or page.tree.css_first("div.user li.greeting span"))  # 2.0 «Здравствуйте, <span>»
    return squash(node.text()) if node is not None else ""


def _cells(row: Node) -> tuple[Node | None, Node | None, Node | None]:
    """The date, subject and sender/recipients cells: 2.1 names them (``td.pm_time``,
    ``td.pm_subject``, ``td.pm_from_to``); 2.0's five cells are icon, date, subject,
    people, checkbox."""
    named = (row.css_first("td.pm_time"), row.css_first("td.pm_subject"),
             row.css_first("td.pm_from_to"))
    if named[1] is not None:
        return named
    cells = row.css("td")
    if len(cells) < 5:
        return None, None, None
    return cells[1], cells[2], cells[3]


def _entry(row: Node, url: str, folder: str, account: str, tz: ZoneInfo,
           now: datetime) -> PmListEntry | None:
    box = row.css_first("input[name='pms[]']")
    pm_id = int_or_none(box.attributes.get("value")) if box is not None else None
    time_td, subject_td, people_td = _cells(row)
    if pm_id is None or subject_td is None:
        return None  # «Нет сообщений», or a row of another kind
    link = subject_td.css_first("a")
    href = link.attributes.get("href") or "" if link is not None else ""
    if link is not None:
        for badge in link.css("span.new_posts"):
            badge.decompose()
    subject = squash(link.text()) if link is not None else ""
    people = [squash(a.text()) for a in people_td.css("a")] if people_td is not None else []
    sent_at = None
    if time_td is not None:
        try:
            sent_at = parse_forum_date(squash(time_td.text()), tz=tz, now=now)
        except DateParseError:
            sent_at = None  # the message itself carries the time that counts
    target = href if href and not href.startswith("#") else url
    sent = folder != "inbox"
    unread = ("unread_pm" in (row.attributes.get("class") or "")
              or subject_td.css_first("img[src*='new.gif']") is not None)
    return PmListEntry(
        pm_id=pm_id, subject=subject, sender=account if sent else (people[0] if people else ""),
        sent_at=sent_at, url=strip_session(urljoin(url, target)), unread=unread,
        recipients=tuple(people) if sent else (),
    )


def _messages(page: SmfPage, folder: str, tz: ZoneInfo, now: datetime) -> list[PrivateMessage]:
    box = page.tree.css_first("#personal_messages") or page.content()
    return [_message(node, pm_id, folder, tz, now) for pm_id, node in post_blocks(box)]


def _message(node: Node, pm_id: int, folder: str, tz: ZoneInfo, now: datetime) -> PrivateMessage:
    sender, sender_id = poster_of(node, pm_id)
    subject = node.css_first("h5")
    info = (node.css_first("div.postinfo span.smalltext")
            or node.css_first("div.keyinfo span.smalltext"))
    body = node.css_first(f"div#msg_{pm_id}") or node.css_first("div.inner")
    if info is None or body is None:
        raise MalformedPage(
            f"личное сообщение {pm_id} показано не так, как в SMF 2.0/2.1: нет строки "
            "«Кому: … : время» (div.postinfo span.smalltext)",
            "откройте его в браузере; возможно, у форума другая тема оформления")
    when = _time_after_labels(info)
    try:
        sent_at = parse_forum_date(when, tz=tz, now=now)
    except DateParseError as e:
        raise DateParseError(f"время личного сообщения {pm_id}: {e.message}", e.hint) from None
    html = normalise_body(body)
    return PrivateMessage(
        pm_id=pm_id, sender=sender, sender_id=sender_id,
        recipients=tuple(squash(a.text()) for a in info.css("a")), sent_at=sent_at,
        subject=squash(subject.text()) if subject is not None else "", body_html=html,
        body_text=plain_text(html), folder=folder,
    )


def _time_after_labels(info: Node) -> str:
    """The text after the last ``<strong>`` label («Получатель:» names, then «:» and the
    time; the label before the time is empty in the Russian pack). A ``<strong>`` that is
    no label is part of the time: «<strong>Сегодня</strong> в 21:42»."""
    parts: list[str] = []
    for child in info.iter(include_text=True):
        if child.tag == "strong" and squash(child.text()).endswith(":"):
            parts = []
        elif child.tag == "-text":
            parts.append(child.text_content or "")
        elif child.tag != "a":
            parts.append(child.text())
    return squash("".join(parts)).strip(" :«»")


def _mode(page: SmfPage, entries: tuple[PmListEntry, ...],
          messages: dict[int, PrivateMessage]) -> int:
    box = page.tree.css_first("#personal_messages") or page.content()
    if box.css_first("a[href*='conversation']") is not None:
        return MODE_CONVERSATION
    if all(e.pm_id in messages for e in entries):
        return MODE_ALL
    return MODE_ONE
