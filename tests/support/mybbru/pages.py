"""MyBB.ru topic pages as the board renders them, written from the facts in
``adapters/mybbru/README.md`` (no live page was ever saved): the ``#pun-viewtopic`` body with
``data-topic-id``, the subject in ``#pun-main h1 span``, PunBB 1.2's page links in
``div.pagelink`` (``strong`` for the page shown, ``&hellip;`` gaps, an ``a.next`` link), and
each post as ``div.post#pN[data-posted][data-user-id]`` with its number and permalink date in
``h3``, ``li.pa-author`` (``span.acchide`` «Автор: » before the name, a link for members,
plain text for guests), ``div.post-content`` holding the message, the edit line
``p.lastedit`` and the signature ``dl.post-sig``, and the ``.post-links`` bar.

``PageStyle`` switches the parts a board or a viewer may lack (``data-posted``,
``data-user-id``, the profile link a guest viewer may not get).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

MSK = ZoneInfo("Europe/Moscow")
BOARD_TITLE = "Мафия на Рольке"


@dataclass(frozen=True)
class PageStyle:
    data_posted: bool = True
    data_user_id: bool = True
    profile_links: bool = True
    """Members' names as ``profile.php?id=`` links (a guest viewer may get plain text)."""
    now: datetime | None = None
    """When set, dates of that day and the day before print as «Сегодня»/«Вчера» (PunBB's
    ``format_time``); otherwise ``Y-m-d H:i:s``."""


def shown_time(ts: int, style: PageStyle, tz: ZoneInfo = MSK) -> str:
    """A post time as MyBB.ru prints it: «Сегодня 21:42:05», «Вчера 12:34:56»,
    «2026-11-20 18:00:00» (the default ``Y-m-d`` + ``H:i:s`` formats)."""
    local = datetime.fromtimestamp(ts, tz)
    if style.now is not None:
        today = style.now.astimezone(tz).date()
        if local.date() == today:
            return local.strftime("Сегодня %H:%M:%S")
        if local.date() == today - timedelta(days=1):
            return local.strftime("Вчера %H:%M:%S")
    return local.strftime("%Y-%m-%d %H:%M:%S")


def post_html(*, post_id: int, user_id: int, username: str, posted: int, message: str,
              number: int, topic_id: int = 317, edited: int = 0, edited_by: str = "",
              style: PageStyle = PageStyle()) -> str:
    """One ``div.post`` of a topic page."""
    attrs = f'id="p{post_id}" class="post{" topicpost" if number == 1 else ""}"'
    if style.data_posted:
        attrs += f' data-posted="{posted}"'
    if style.data_user_id:
        attrs += f' data-user-id="{user_id}"'
    name = html.escape(username)
    member = user_id > 1
    author = (f'<a href="/profile.php?id={user_id}" rel="nofollow">{name}</a>'
              if member and style.profile_links else name)
    edit = (f'<p class="lastedit"><em>Отредактировано {html.escape(edited_by)} '
            f"({shown_time(edited, style)})</em></p>" if edited else "")
    links = (f'<li class="pl-email pm"><a href="/messages.php?action=new&amp;uid={user_id}" '
             f'rel="nofollow"><span class="acchide">&nbsp;{name}</span></a></li>'
             if member else "")
    return (
        f'<div {attrs}><h3><span><a class="sharelink" rel="nofollow" href="#p{post_id}" '
        f'onclick="return false;">Поделиться</a><strong>{number}</strong>'
        f'<a class="permalink" rel="nofollow" href="/viewtopic.php?id={topic_id}#p{post_id}">'
        f"{shown_time(posted, style)}</a></span></h3>"
        f'<div class="container"><div class="post-author"><ul>'
        f'<li class="pa-author"><span class="acchide">Автор:&nbsp;</span>{author}</li>'
        f'<li class="pa-title">{"Игрок" if member else "Гость"}</li>'
        f'<li class="pa-posts"><span class="fld-name">Сообщений:</span> 123</li></ul></div>'
        f'<div class="post-body"><div class="post-box"><div id="p{post_id}-content" '
        f'class="post-content">{message}{edit}'
        f'<dl class="post-sig"><dt><span>Подпись автора</span></dt><dd><p>Играю честно, '
        f"{name}</p></dd></dl></div></div>"
        f'<div class="clearer"><!-- --></div></div>'
        f'<div class="post-links"><ul>{links}<li class="pl-quote"><a href="javascript:quote('
        f"'{name}', {post_id})\">Цитировать</a></li></ul></div></div></div>"
    )


def pagelink(topic_id: int, page: int, pages: int) -> str:
    """PunBB 1.2's ``paginate()``: 1 … p-2 … p+2 … N, the page shown in ``strong``."""
    link = f"/viewtopic.php?id={topic_id}"
    items: list[str] = []
    if page > 3:
        items.append(f'<a href="{link}&amp;p=1">1</a>')
        if page != 4:
            items.append("&hellip;")
    for n in range(page - 2, page + 3):
        if 1 <= n <= pages:
            items.append(f"<strong>{n}</strong>" if n == page
                         else f'<a href="{link}&amp;p={n}">{n}</a>')
    if page <= pages - 3:
        if page != pages - 3:
            items.append("&hellip;")
        items.append(f'<a href="{link}&amp;p={pages}">{pages}</a>')
    if page < pages:
        items.append(f'<a class="next" href="{link}&amp;p={page + 1}">Вперёд</a>')
    return f'<div class="pagelink">Страницы {"&nbsp;".join(items)}</div>'


def topic_html(*, topic_id: int, subject: str, posts: list[str], page: int, pages: int,
               first: int, total: int) -> str:
    """The page around its posts (``first``: the first post's number; ``total``: the
    topic's posts)."""
    last = first + len(posts) - 1
    return (
        f'<div id="pun-viewtopic" class="punbb" data-topic-id="{topic_id}" '
        f'data-forum-id="5"><div id="pun-crumbs1" class="crumbs"><p class="container crumbs">'
        f'<a href="/">{BOARD_TITLE}</a> » <a href="/viewforum.php?id=5">Игровая</a> » '
        f"{html.escape(subject)}</p></div>"
        f'<div id="pun-main" class="main"><h1><span>{html.escape(subject)}</span></h1>'
        f'<div class="linkst"><div class="container">{pagelink(topic_id, page, pages)}'
        f"</div></div>"
        f'<div id="topic_t{topic_id}" class="topic"><h2><span class="item1">Сообщений</span> '
        f'<span class="item2">{first} страница {last} из {total}</span></h2>{"".join(posts)}'
        f'</div><div class="linksb"><div class="container">{pagelink(topic_id, page, pages)}'
        f"</div></div></div></div>"
    )


def info_html(text: str) -> str:
    """A board message page (a topic that is gone, or hidden from this viewer)."""
    return (f'<div id="pun-message" class="punbb"><div id="pun-main" class="main">'
            f'<div class="info"><h2><span>Информация</span></h2><div class="container">'
            f"{text}</div></div></div></div>")


def page(body: str, *, title: str = BOARD_TITLE, charset: str = "windows-1251",
         guest: bool = True) -> str:
    """A whole page: the head with MyBB.ru's JS globals, ``#pun_wrap`` around ``body``."""
    return (f'<!DOCTYPE html><html lang="ru"><head><meta charset="{charset}">'
            f"<title>{html.escape(title)}</title><script>var BoardID = 1700, "
            f"UserID = {1 if guest else 2}, GroupID = {3 if guest else 4}, "
            f"ForumAPITicket = \"{'' if guest else 'a1b2'}\";</script></head><body>"
            f'<div id="pun_wrap"><div id="pun" class="ru {"isguest" if guest else "isuser"}">'
            f"{NAVLINKS}{body}</div></div></body></html>")


NAVLINKS = ('<div id="pun-navlinks"><h2><span>Меню навигации</span></h2><ul class="container">'
            '<li id="navindex"><a href="/"><span>Форум</span></a></li>'
            '<li id="navuserlist"><a href="/userlist.php" rel="nofollow"><span>Участники</span>'
            '</a></li><li id="navsearch"><a href="/search.php" rel="nofollow"><span>Поиск'
            '</span></a></li><li id="navlogin"><a href="/login.php" rel="nofollow"><span>Войти'
            "</span></a></li></ul></div>")
