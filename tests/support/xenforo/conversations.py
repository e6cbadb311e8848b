"""XenForo 2 conversation pages (the list and one conversation), written as XenForo 2.2's
``conversation_list`` / ``conversation_list_macros`` and ``conversation_view`` /
``conversation_message_macros`` templates render them (adapters/xenforo/README.md)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from html import escape

from support.xenforo.pages import _user_cell, document, page_nav, time_tag, user_link


@dataclass
class XfMessage:
    message_id: int
    sender: str
    sender_id: int
    at: datetime
    html: str


@dataclass
class XfConversation:
    conversation_id: int
    slug: str
    title: str
    people: list[tuple[str, int]]
    """The participants, the starter first."""
    messages: list[XfMessage] = field(default_factory=list)

    @property
    def route(self) -> str:
        return f"conversations/{self.slug}.{self.conversation_id}/"


def _row(c: XfConversation, *, prefix: str, now: datetime, unread: bool) -> str:
    starter, others = c.people[0], c.people[1:]
    last = c.messages[-1]
    people = "".join(f"<li>{user_link(prefix, n, u)}</li>" for n, u in [starter, *others])
    return (
        f'<div class="structItem structItem--conversation {"is-unread" if unread else ""} '
        f'js-inlineModContainer" data-author="{escape(starter[0])}">\n'
        '<div class="structItem-cell structItem-cell--icon"><div '
        'class="structItem-iconContainer"></div></div>\n'
        '<div class="structItem-cell structItem-cell--main" data-xf-init="touch-proxy">\n'
        f'<a href="{prefix}{c.route}unread" class="structItem-title" data-tp-primary="on">'
        f"{escape(c.title)}</a>\n<div class=\"structItem-minor\">\n<ul "
        'class="structItem-parts">\n<li><ul class="listInline listInline--comma '
        f'listInline--selfInline">{people}</ul></li>\n<li class="structItem-startDate"><a '
        f'href="{prefix}{c.route}" rel="nofollow">{time_tag(c.messages[0].at, now)}</a></li>'
        '\n</ul>\n</div>\n</div>\n<div class="structItem-cell structItem-cell--meta">\n'
        f'<dl class="pairs pairs--justified"><dt>Ответы</dt><dd>{len(c.messages) - 1}</dd>'
        '</dl>\n<dl class="pairs pairs--justified structItem-minor"><dt>Участники</dt>'
        f"<dd>{len(c.people)}</dd></dl>\n</div>\n"
        '<div class="structItem-cell structItem-cell--latest">\n'
        f'<a href="{prefix}{c.route}latest" rel="nofollow">'
        f'{time_tag(last.at, now).replace("u-dt", "u-dt structItem-latestDate")}</a>\n'
        f'<div class="structItem-minor">{user_link(prefix, last.sender, last.sender_id)}</div>'
        "\n</div>\n</div>")


def conversation_list_page(conversations: list[XfConversation], page: int, per_page: int, *,
                           prefix: str, origin: str, now: datetime, csrf: str,
                           unread: set[int] | None = None) -> str:
    """The host's list, newest reply first (``discussionsPerPage`` a page)."""
    ordered = sorted(conversations, key=lambda c: c.messages[-1].at, reverse=True)
    total = max(1, -(-len(ordered) // per_page))
    chunk = ordered[(page - 1) * per_page: page * per_page]

    def url_for(p: int) -> str:
        return f"{prefix}conversations/" + (f"page-{p}" if p > 1 else "")

    rows = "\n".join(_row(c, prefix=prefix, now=now,
                          unread=c.conversation_id in (unread or set())) for c in chunk) \
        or '<div class="block-row">Нет переписок для отображения.</div>'
    nav = page_nav(page, total, url_for)
    body = (f'<div class="block" data-xf-init="inline-mod" data-type="conversation" '
            f'data-href="{prefix}inline-mod/">\n<div class="block-outer">{nav}</div>\n'
            '<div class="block-container">\n<div class="block-body">\n'
            f'<div class="structItemContainer">\n{rows}\n</div>\n</div>\n</div>\n'
            f'<div class="block-outer block-outer--after">{nav}</div>\n</div>')
    return document(body, template="conversation_list", title="Переписки", logged_in=True,
                    csrf=csrf, canonical=origin + url_for(page), heading="Переписки")


def _message(m: XfMessage, *, prefix: str, now: datetime) -> str:
    return (
        '<article class="message message--conversationMessage   js-message" '
        f'data-author="{escape(m.sender)}">\n<span class="u-anchorTarget" '
        f'id="convMessage-{m.message_id}"></span>\n<div class="message-inner">\n'
        f'{_user_cell(prefix, m.sender, m.sender_id)}\n<div class="message-cell '
        'message-cell--main">\n<div class="message-main js-quickEditTarget">\n'
        '<div class="message-content">\n<header class="message-attribution">\n'
        f'<a href="{prefix}conversations/messages/{m.message_id}/" '
        f'class="message-attribution-main u-concealed" rel="nofollow">{time_tag(m.at, now)}'
        '</a>\n<span class="message-attribution-opposite"></span>\n</header>\n'
        '<div class="message-userContent lbContainer js-lbContainer" '
        f'data-lb-id="message-{m.message_id}" data-lb-caption-title="{escape(m.sender)}">\n'
        f'<article class="message-body js-selectToQuote">\n<div class="bbWrapper">{m.html}'
        '</div>\n<div class="js-selectToQuoteEnd">&nbsp;</div>\n</article>\n</div>\n'
        '</div>\n<footer class="message-footer"></footer>\n</div>\n</div>\n</div>\n</article>')


def conversation_page(c: XfConversation, page: int, per_page: int, *, prefix: str,
                      origin: str, now: datetime, csrf: str) -> str:
    total = max(1, -(-len(c.messages) // per_page))
    chunk = c.messages[(page - 1) * per_page: page * per_page]

    def url_for(p: int) -> str:
        return f"{prefix}{c.route}" + (f"page-{p}" if p > 1 else "")

    nav = page_nav(page, total, url_for)
    participants = "".join(
        f'<li class="block-row"><div class="contentRow"><div class="contentRow-main">'
        f'{user_link(prefix, n, u)}<div class="contentRow-minor">Участник</div></div></div>'
        "</li>" for n, u in c.people)
    messages = "\n".join(_message(m, prefix=prefix, now=now) for m in chunk)
    body = (
        '<div class="block block--messages">\n'
        f'<div class="block-outer">{nav}</div>\n<div class="block-container lbContainer" '
        f'data-lb-id="conversation-{c.conversation_id}">\n<div class="block-body '
        f'js-replyNewMessageContainer">\n{messages}\n</div>\n</div>\n'
        f'<div class="block-outer block-outer--after">{nav}</div>\n</div>\n'
        '<div class="p-body-sidebar"><div class="block"><div class="block-container">\n'
        '<h3 class="block-minorHeader">Участники переписки</h3>\n'
        f'<ol class="block-body">{participants}</ol>\n</div></div></div>')
    return document(body, template="conversation_view", title=c.title, logged_in=True,
                    csrf=csrf, canonical=origin + url_for(page), heading=c.title)
