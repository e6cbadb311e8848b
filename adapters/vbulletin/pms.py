"""vBulletin private messages (``private.php``) → referee value types. Pure. vB 4's
``ol.pmlist`` folder rows and ``div#showpm`` message page, vB 3's rows linking
``do=showpm&pmid=N``: all **unverified** on a live board (README.md, «Login and posting»)."""

from __future__ import annotations

import re
from datetime import datetime, tzinfo
from urllib.parse import urljoin

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from adapters.vbulletin.body import render_body
from adapters.vbulletin.dates import date_order, footer_zone, vb_date
from adapters.vbulletin.topic import _norm, _shown, pagination, post_text, raise_for_page, user_id
from referee.core.errors import DateParseError, MalformedPage, PmRemoved
from referee.core.kernel import PmFolderPage, PmListEntry, PrivateMessage
from referee.core.markup import plain_text

PM_ID = re.compile(r"[?&;]pmid=(\d+)")
"""A PM's number in its address (``private.php?do=showpm&pmid=N``)."""
_REMOVED = ("invalid message", "неверно указано сообщение", "сообщение не найдено",
            "message does not exist")


def _container(link: Node) -> Node:
    node = link.parent
    while node is not None and node.tag not in ("li", "tr"):
        node = node.parent
    return node if node is not None else link


def _sender(box: Node) -> tuple[str, int | None]:
    for selector in ("a.username", ".username", 'a[href*="member.php"]',
                     'span[onclick*="member.php"]'):
        node = box.css_first(selector)
        if node is not None and _norm(node.text()):
            href = node.attributes.get("href") or node.attributes.get("onclick")
            return _norm(node.text()), user_id(href)
    return "", None


def _unread(box: Node, link: Node) -> bool:
    if box.css_first("span.unread") is not None:
        return True
    icons = " ".join(img.attributes.get("src") or "" for img in box.css("img"))
    return "pm_new" in icons or (link.parent is not None and link.parent.tag == "strong")


def _when(box: Node, *, tz: tzinfo, now: datetime) -> datetime | None:
    text = _shown(box.css_first("span.date"))
    if (hour := _shown(box.css_first("span.time"))) not in text:
        text = f"{text} {hour}".strip()
    if not text:
        return None
    try:
        return vb_date(text, tz=tz, now=now, order=date_order([text]))
    except DateParseError:
        return None


def parse_pm_folder(html: str, *, url: str, folder: str, tz: tzinfo, now: datetime
                    ) -> PmFolderPage:
    """One page of a PM folder listing (``private.php?folderid=0``), as the board orders
    it (referee asks for newest first)."""
    tree = LexborHTMLParser(html)
    zone = footer_zone(html) or tz
    entries: list[PmListEntry] = []
    seen: set[int] = set()
    for link in tree.css('a[href*="do=showpm"]'):
        match = PM_ID.search(link.attributes.get("href") or "")
        if match is None or int(match.group(1)) in seen:
            continue
        pm_id = int(match.group(1))
        seen.add(pm_id)
        box = _container(link)
        sender, _ = _sender(box)
        entries.append(PmListEntry(
            pm_id=pm_id, subject=_norm(link.text()), sender=sender,
            sent_at=_when(box, tz=zone, now=now), url=urljoin(url, link.attributes["href"] or ""),
            unread=_unread(box, link), recipients=(sender,) if folder != "inbox" else ()))
    if not entries and tree.css_first("form#pmform, ol.pmlist, #pmlist_0") is None:
        if tree.css_first('input[name="vb_login_username"], div.standard_error, '
                          "td.panelsurround") is not None:
            raise_for_page(tree, url, "папка личных сообщений")
    pages = pagination(tree)
    return PmFolderPage(folder=folder, page=pages.page, total_pages=pages.total,
                        entries=tuple(entries))


def parse_pm(html: str, *, url: str, pm_id: int, folder: str, tz: tzinfo, now: datetime,
             host: str | None = None) -> PrivateMessage:
    """One opened PM (``private.php?do=showpm&pmid=N``); opening it marks it read. ``host``:
    the host's name, an inbox PM's recipient (the page does not name it)."""
    tree = LexborHTMLParser(html)
    message = tree.css_first('div[id^="post_message_"]')
    if message is None:
        text = _shown(tree.css_first("div.standard_error, td.panelsurround"))
        if any(w in text.lower() for w in _REMOVED):
            raise PmRemoved(f"Личное сообщение {pm_id} удалено или отозвано отправителем "
                            f"({url}).", "Попросите игрока прислать ход заново.")
        raise_for_page(tree, url, "личное сообщение")
    box = _container(message)
    sender, sender_id = _sender(box)
    if not sender:
        raise MalformedPage(f"Личное сообщение {pm_id} ({url}): не найден отправитель.")
    content = post_text(message)
    shown = _shown(box.css_first("span.date") or box.css_first("td.thead"))
    zone = footer_zone(html) or tz
    try:
        sent_at = vb_date(shown, tz=zone, now=now, order=date_order([shown]))
    except DateParseError as error:
        raise MalformedPage(f"Личное сообщение {pm_id} ({url}): не удалось разобрать дату "
                            f"«{shown}».", error.hint) from None
    title = box.css_first("h2.title") or tree.css_first("h2.title") or box.css_first(
        "div.smallfont strong")
    body = render_body(content).strip()
    return PrivateMessage(
        pm_id=pm_id, sender=sender, sender_id=sender_id,
        recipients=(host,) if folder == "inbox" and host else (),
        sent_at=sent_at, subject=_shown(title),
        body_html=body, body_text=plain_text(body), folder=folder)


__all__ = ["PM_ID", "parse_pm", "parse_pm_folder"]
