"""One post written as each XenForo version and style renders it (adapters/xenforo/README.md,
«Thread pages» names the source of each shape), with Russian game content.

- ``xf20``: XenForo 2.0's compiled ``post_macros`` (``header.message-attribution >
  a.message-attribution-main``, ``div.message-attribution-opposite > a`` «#N», ``likesBar``).
- ``xf21``: the real 2.1 page's skeleton (``div.message-attribution-main``,
  ``ul.message-attribution-opposite--list``).
- ``xf22``: 2.2's ``post_macros`` (``ul.message-attribution-main > li.u-concealed``).
- ``xf23``: 2.3's ``post_macros.html`` (``<div itemprop="text">`` around the bbWrapper,
  ``data-timestamp`` dates).
- ``uix``: ThemeHouse UI.X (Russian pack, ``message_macros`` of a UI.X board): the date and
  «#N» repeated in the user cell (``message-date``, ``message-permalink``), no header.
- ``article``: the first post of an XF 2.2+ article thread (``post_article_macros``):
  ``article.message--article``, the author in ``aside.message-articleUserInfo``, no «#N».
- ``xf1``: XenForo 1 (``li.message``, ``abbr.DateTime[data-time]`` or, for posts older than
  a week, ``span.DateTime[title]``), as the real XF1 page.

A guest or a deleted member (``user_id`` None) prints ``span.username data-user-id="0"``
(``Templater::fnUsernameLink``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from html import escape

from support.xenforo.pages import MONTHS, MOSCOW, document, time_tag

PREFIX = "/forum/"
ROUTE = "threads/mafija-119.69072/"


@dataclass
class Vp:
    """A post to render: its id, author, author's id (None: a guest or deleted member),
    time, number in the thread and body HTML."""

    post_id: int
    author: str
    user_id: int | None
    at: datetime
    number: int
    html: str
    edited_at: datetime | None = None


def name_tag(p: Vp, extra: str = "", styled: bool = False) -> str:
    inner = escape(p.author)
    if styled:
        # Group styling and staff classes wrap the name (fnUsernameLink).
        inner = f'<span class="username--style3 username--staff">{inner}</span>'
    if p.user_id is None:
        return f'<span class="username {extra}" dir="auto" data-user-id="0">{inner}</span>'
    return (f'<a href="{PREFIX}members/igrok.{p.user_id}/" class="username {extra}" dir="auto" '
            f'data-user-id="{p.user_id}" data-xf-init="member-tooltip">{inner}</a>')


def _avatar(p: Vp) -> str:
    if p.user_id is None:
        return (f'<span class="avatar avatar--m avatar--default" data-user-id="0">'
                f'{escape(p.author[:1])}</span>')
    return (f'<a href="{PREFIX}members/igrok.{p.user_id}/" class="avatar avatar--m" '
            f'data-user-id="{p.user_id}" data-xf-init="member-tooltip">'
            f'<img src="/data/avatars/m/{p.user_id}.jpg" alt="{escape(p.author)}" /></a>')


def _link(p: Vp) -> str:
    return f"{PREFIX}{ROUTE}post-{p.post_id}"


def _user_cell(p: Vp, extras: str = "") -> str:
    return ('<div class="message-cell message-cell--user"><section class="message-user">'
            f'<div class="message-avatar"><div class="message-avatar-wrapper">{_avatar(p)}'
            '</div></div><div class="message-userDetails">'
            f'<h4 class="message-name">{name_tag(p, styled=True)}</h4>'
            '<h5 class="userTitle message-userTitle">Игрок</h5>'
            '<div class="userBanner message-userBanner"><strong>Мафия-клуб</strong></div>'
            f'{extras}</div><div class="message-userExtras"><dl class="pairs pairs--justified">'
            '<dt>Регистрация</dt><dd>12 мар 2019</dd></dl><dl class="pairs pairs--justified">'
            '<dt>Сообщения</dt><dd><span>#1 212</span></dd></dl></div>'
            '<span class="message-userArrow"></span></section></div>')


def _body(p: Vp, wrap_text: bool = False) -> str:
    inner = f'<div class="bbWrapper">{p.html}</div>'
    if wrap_text:
        inner = f'<div itemprop="text">{inner}</div>'
    return (f'<div class="message-userContent lbContainer js-lbContainer" '
            f'data-lb-id="post-{p.post_id}"><article class="message-body js-selectToQuote">'
            f'{inner}<div class="js-selectToQuoteEnd">&nbsp;</div></article></div>')


def _edit(p: Vp, now: datetime, version: str) -> str:
    if p.edited_at is None:
        return ""
    return (f'<div class="message-lastEdit">Последнее редактирование: '
            f"{time_tag(p.edited_at, now, version)}</div>")


def _tail(p: Vp) -> str:
    return (f'<aside class="message-signature"><div class="bbWrapper">Подпись: мой голос – '
            f'<span style="color: red">{escape(p.author)}</span></div></aside>')


def _article(p: Vp, cls: str, inner: str) -> str:
    return (f'<article class="message {cls} js-post js-inlineModContainer" '
            f'data-author="{escape(p.author)}" data-content="post-{p.post_id}" '
            f'id="js-post-{p.post_id}"><span class="u-anchorTarget" id="post-{p.post_id}">'
            f'</span><div class="message-inner">{inner}</div></article>')


def xf20(p: Vp, now: datetime) -> str:
    header = (f'<header class="message-attribution"><a href="{_link(p)}" '
              f'class="message-attribution-main u-concealed" rel="nofollow">'
              f"{time_tag(p.at, now, '2.0')}</a><div class=\"message-attribution-opposite\">"
              f'<a href="{_link(p)}" class="u-concealed" rel="nofollow">#{p.number}</a></div>'
              "</header>")
    main = (f'<div class="message-cell message-cell--main"><div class="message-main '
            f'js-quickEditTarget">{header}<div class="message-content js-messageContent">'
            f"{_body(p)}{_edit(p, now, '2.0')}{_tail(p)}</div><footer class=\"message-footer\">"
            '<div class="likesBar js-likeList is-active">Лиса и Бармен</div></footer>'
            "</div></div>")
    return _article(p, "message--post", _user_cell(p) + main)


def _split_header(p: Vp, now: datetime, version: str, main_list: bool) -> str:
    stamp = time_tag(p.at, now, version)
    if main_list:
        main = (f'<ul class="message-attribution-main listInline "><li class="u-concealed">'
                f'<a href="{_link(p)}" rel="nofollow">{stamp}</a></li></ul>')
    else:
        main = (f'<div class="message-attribution-main"><a href="{_link(p)}" '
                f'class="u-concealed" rel="nofollow">{stamp}</a></div>')
    return (f'<header class="message-attribution message-attribution--split">{main}'
            '<ul class="message-attribution-opposite message-attribution-opposite--list">'
            f'<li><a href="{_link(p)}" class="message-attribution-gadget" '
            'data-xf-init="share-tooltip" rel="nofollow"><i class="fa--xf far fa-share-alt">'
            f'</i></a></li><li><a href="{_link(p)}" rel="nofollow">\n\t#{p.number}\n</a></li>'
            "</ul></header>")


def _xf2x(p: Vp, now: datetime, version: str) -> str:
    header = _split_header(p, now, version, main_list=version != "2.1")
    main = (f'<div class="message-cell message-cell--main"><div class="message-main '
            f'js-quickEditTarget">{header}<div class="message-content js-messageContent">'
            f"{_body(p, wrap_text=version == '2.3')}{_edit(p, now, version)}{_tail(p)}</div>"
            '<footer class="message-footer"><div class="reactionsBar js-reactionsList '
            'is-active">Лиса, Бармен</div></footer></div></div>')
    return _article(p, "message--post", _user_cell(p) + main)


def xf21(p: Vp, now: datetime) -> str:
    return _xf2x(p, now, "2.1")


def xf22(p: Vp, now: datetime) -> str:
    return _xf2x(p, now, "2.2")


def xf23(p: Vp, now: datetime) -> str:
    return _xf2x(p, now, "2.3")


def uix(p: Vp, now: datetime) -> str:
    extras = (f'<div class="message-date"><a href="{_link(p)}" class="u-concealed" '
              f'rel="nofollow">{time_tag(p.at, now, "2.2")}</a></div>'
              f'<div class="message-permalink"><a href="{_link(p)}" class="u-concealed" '
              f'rel="nofollow">#{p.number}</a></div>')
    # An add-on's «more threads» box in the post's main cell, with dates and names of its own.
    box = ('<div class="vnxf_more_thread"><span class="info_items">от <a href="/t/2/" '
           f'class="username">Бармен</a>, {time_tag(p.at.replace(year=2020), now, "2.2")}'
           "</span></div>")
    main = ('<div class="message-cell message-cell--main"><div class="message-main '
            f'js-quickEditTarget"><div class="message-content js-messageContent">{_body(p)}'
            f"{_edit(p, now, '2.2')}{_tail(p)}</div>{box}</div></div>")
    return _article(p, "message-threadStarterPost message--post",
                    _user_cell(p, extras) + main)


def article(p: Vp, now: datetime) -> str:
    header = (f'<header class="message-attribution message-attribution--split">'
              '<ul class="message-attribution-main listInline listInline--bullet">'
              f'<li class="u-concealed"><a href="{_link(p)}" rel="nofollow">'
              f"{time_tag(p.at, now, '2.2')}</a></li><li class=\"u-concealed\">"
              f'<a href="{PREFIX}{ROUTE}#posts">Ответы: 41</a></li></ul></header>')
    main = ('<div class="message-cell message-cell--main"><div class="message-expandWrapper '
            'js-expandWatch is-expanded"><div class="message-expandContent js-expandContent">'
            f'<div class="message-main js-quickEditTarget">{header}<div class="message-content '
            f'js-messageContent">{_body(p)}{_edit(p, now, "2.2")}</div></div></div>'
            '<div class="message-expandLink js-expandLink"><a>Нажмите для раскрытия...</a>'
            "</div></div></div>")
    author = ('<aside class="message-articleUserInfo"><div class="message-cell"><div '
              f'class="contentRow"><div class="contentRow-figure">{_avatar(p)}</div>'
              '<div class="contentRow-main"><div class="message-articleUserFirstLine">'
              '<div class="message-articleWrittenBy u-srOnly">Автор</div>'
              f'<h3 class="message-articleUserName">{name_tag(p)}</h3></div></div></div></div>'
              "</aside>")
    return (f'<article class="message message--article js-post js-inlineModContainer" '
            f'data-author="{escape(p.author)}" data-content="post-{p.post_id}" '
            f'id="js-post-{p.post_id}"><span class="u-anchorTarget" id="post-{p.post_id}">'
            f'</span><div class="message-inner">{main}</div>{author}</article>')


def deleted(post_id: int, author: str, now: datetime, at: datetime) -> str:
    """``post_macros::post_deleted``: what a moderator sees of a soft-deleted post."""
    return (f'<div class="message message--deleted message--post js-post '
            f'js-inlineModContainer" data-author="{escape(author)}" '
            f'data-content="post-{post_id}"><span class="u-anchorTarget" id="post-{post_id}">'
            '</span><div class="message-inner"><div class="message-cell message-cell--user">'
            '<header class="message-user"></header></div><div class="message-cell '
            'message-cell--main"><div class="message-attribution"><ul class="listInline '
            f'listInline--bullet message-attribution-main"><li><a href="/p/{post_id}">'
            f'{time_tag(at, now)}</a></li><li>{escape(author)}</li></ul></div>'
            '<div class="messageNotice messageNotice--deleted">Удалено модератором: '
            "спам.</div></div></div></div>")


# --------------------------------------------------------------------------- XenForo 1

def _xf1_date(p: Vp, now: datetime, recent: bool) -> str:
    local = p.at.astimezone(MOSCOW)
    if recent:
        return (f'<abbr class="DateTime" data-time="{int(p.at.timestamp())}" '
                f'data-diff="{int((now - p.at).total_seconds())}" '
                f'data-datestring="{local:%d.%m.%y}" data-timestring="{local:%H:%M}" '
                f'title="{local:%d.%m.%y} в {local:%H:%M}">Вчера в {local:%H:%M}</abbr>')
    return (f'<span class="DateTime" title="{local:%d.%m.%y} в {local:%H:%M}">'
            f"{local.day} {MONTHS[local.month - 1]} {local.year}</span>")


def xf1(p: Vp, now: datetime, recent: bool = True) -> str:
    name = (f'<a href="members/igrok.{p.user_id}/" class="username" dir="auto" '
            f'itemprop="name">{escape(p.author)}</a>' if p.user_id is not None
            else f'<span class="username">{escape(p.author)}</span>')
    edit = ""
    if p.edited_at is not None:
        edit = ('<div class="editDate">Последнее редактирование: '
                f"{_xf1_date(Vp(0, '', None, p.edited_at, 0, ''), now, recent=False)}</div>")
    return (f'<li id="post-{p.post_id}" class="message" data-author="{escape(p.author)}">'
            '<div class="messageUserInfo"><div class="messageUserBlock"><div '
            f'class="avatarHolder"><a href="members/igrok.{p.user_id}/" class="avatar"></a>'
            f'</div><h3 class="userText">{name}<em class="userTitle">Игрок</em></h3></div></div>'
            '<div class="messageInfo primaryContent"><div class="messageContent"><article>'
            f'<blockquote class="messageText SelectQuoteContainer ugc baseHtml">{p.html}'
            '<div class="messageTextEndMarker">&nbsp;</div></blockquote></article></div>'
            f'{edit}<div class="baseHtml signature messageText ugc"><aside>Подпись</aside></div>'
            '<div class="messageMeta ToggleTriggerAnchor"><div class="privateControls">'
            f'<span class="item muted"><a href="posts/{p.post_id}/" title="Permalink" '
            f'class="datePermalink">{_xf1_date(p, now, recent)}</a></span></div>'
            f'<div class="publicControls"><a href="posts/{p.post_id}/" title="Permalink" '
            f'class="item muted postNumber hashPermalink">#{p.number}</a>'
            f'<a href="threads/mafija-119.69072/reply?quote={p.post_id}" class="item control '
            'reply">Ответить</a></div></div></div></li>')


def xf1_page(posts: str, *, page: int, last: int, now: datetime, title: str = "Мафия №119",
             day_start: tuple[int, int] | None = None) -> str:
    """An XF1 thread page as the real XF1 page is built: ``html#XenForo``, ``<base href>``,
    ``.titleBar h1``, ``div.PageNav``, ``ol#messageList``, ``XenForo.serverTimeInfo``."""
    nav = (f'<div class="PageNav" data-page="{page}" data-range="2" data-last="{last}" '
           f'data-baseurl="threads/mafija-119.69072/page-{{{{sentinel}}}}">'
           f"<span class=\"pageNavHeader\">Страница {page} из {last}</span></div>"
           if last > 1 else "")
    now_s, today = day_start or (int(now.timestamp()), int(now.timestamp()) // 86400 * 86400
                                 - 3 * 3600)
    return (f'<!DOCTYPE html><html id="XenForo" lang="ru-RU" class="Public LoggedIn">'
            f'<head><base href="http://board.test/forum/" /><title>{escape(title)} | '
            f'Страница {page} | Мафия-клуб</title></head><body><div class="titleBar"><h1>'
            f'<span class="prefix prefixRed">Игра</span> {escape(title)}</h1></div>{nav}'
            f'<form><ol class="messageList" id="messageList">{posts}</ol></form>'
            "<script>jQuery.extend(true, XenForo, { visitor: { user_id: 1001 }, "
            f"serverTimeInfo: {{ now: {now_s}, today: {today}, todayDow: 1 }} }});</script>"
            "</body></html>")


def xf2_page(articles: str, *, logged_in: bool = True, pinned: str = "",
             day_start: tuple[int, int] | None = None, nav: str = "",
             heading: str = "Мафия №119") -> str:
    """An XF2 thread page: an optional pinned first post block above the list
    (``thread_view`` ``isFirstPostPinned``), the list in ``.js-replyNewMessageContainer``,
    ``XF.config.time`` in the head."""
    block = ""
    if pinned:
        block = ('<div class="block block--messages"><div class="block-container"><div '
                 f'class="block-body">{pinned}</div></div></div>')
    script = ""
    if day_start is not None:
        script = (f"<script>XF.config = {{ time: {{ now: {day_start[0]}, today: {day_start[1]}, "
                  "todayDow: 1 }, cookie: {} };</script>")
    body = (f'{script}{block}<div class="block block--messages"><div class="block-outer">{nav}'
            '</div><div class="block-container lbContainer"><div class="block-body '
            f'js-replyNewMessageContainer">{articles}</div></div></div>')
    title = ('<span class="label label--red" dir="auto">Игра</span>'
             '<span class="label-append">&nbsp;</span>')
    html = document(body, template="thread_view", title=heading, logged_in=logged_in,
                    csrf="1,abc", canonical=f"http://board.test{PREFIX}{ROUTE}",
                    heading="@@HEADING@@")
    return html.replace("@@HEADING@@", title + escape(heading))


VARIANTS: dict[str, Callable[[Vp, datetime], str]] = {
    "xf20": xf20, "xf21": xf21, "xf22": xf22, "xf23": xf23, "uix": uix, "article": article,
}
