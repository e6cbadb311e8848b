"""XenForo 2 pages written from the facts (adapters/xenforo/README.md), in Russian.

The skeleton follows the real ``Xenforo2.html`` (XenForo 2.1, ../shared/fixtures/xenforo):
``<html id="XF" data-logged-in data-cookie-prefix data-csrf>``, ``article.message--post``,
``a.username[data-user-id]``, ``time.u-dt``, ``.message-body .bbWrapper``. What that page
lacks is written as XenForo 2's own templates render it (``page_nav``,
``bb_code_tag_quote``, ``bb_code_tag_spoiler``, ``post_macros`` ``post_last_edit``,
``conversation_list_macros``, ``conversation_message_macros``): the README names each
source. ``version`` picks the date attributes: 2.0–2.2 ``data-time="UNIX"`` (the real 2.1
page, 2.2's ``Templater``), 2.3 ``data-timestamp="UNIX"`` with ``data-time`` the clock text.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from html import escape
from zoneinfo import ZoneInfo

MOSCOW = ZoneInfo("Europe/Moscow")
MONTHS = ("янв", "фев", "мар", "апр", "май", "июн", "июл", "авг", "сен", "окт", "ноя", "дек")
WEEKDAYS = ("Понедельник", "Вторник", "Среда", "Четверг", "Пятница", "Суббота", "Воскресенье")
XF_RED = "rgb(226, 80, 65)"
"""The red of XenForo 2's editor palette («Красный»): what [COLOR=rgb(226, 80, 65)] renders."""


# --------------------------------------------------------------------------- pieces

def shown_date(at: datetime, now: datetime, tz: ZoneInfo = MOSCOW) -> str:
    """What XenForo prints for a date (``date_dynamic``): «Сегодня в 21:40», «Вчера в
    21:40», «Понедельник в 18:00» within the week, else «20 ноя 2026»."""
    local, today = at.astimezone(tz), now.astimezone(tz).date()
    days = (today - local.date()).days
    clock = f"{local:%H:%M}"
    if days == 0:
        return f"Сегодня в {clock}"
    if days == 1:
        return f"Вчера в {clock}"
    if 1 < days < 7:
        return f"{WEEKDAYS[local.weekday()]} в {clock}"
    return f"{local.day} {MONTHS[local.month - 1]} {local.year}"


def time_tag(at: datetime, now: datetime, version: str = "2.2", tz: ZoneInfo = MOSCOW) -> str:
    """``date_dynamic``: XF 2.0–2.2 ``data-time="UNIX"`` + ``data-date-string`` /
    ``data-time-string`` (``Templater::fnDateDynamic`` of 2.2); XF 2.3
    ``data-timestamp="UNIX"``, ``data-date``, ``data-time`` (the clock), ``data-short``."""
    local = at.astimezone(tz)
    iso = local.strftime("%Y-%m-%dT%H:%M:%S%z")
    day = f"{local.day} {MONTHS[local.month - 1]} {local.year}"
    title = f"{day} в {local:%H:%M}"
    if not version.startswith("2.3"):
        stamp = (f'data-time="{int(at.timestamp())}" data-date-string="{day}" '
                 f'data-time-string="{local:%H:%M}"')
    else:
        stamp = (f'data-timestamp="{int(at.timestamp())}" data-date="{day}" '
                 f'data-time="{local:%H:%M}" data-short="{local.day} {MONTHS[local.month - 1]}"')
    return (f'<time  class="u-dt" dir="auto" datetime="{iso}" {stamp} title="{title}">'
            f"{shown_date(at, now, tz)}</time>")


def user_link(prefix: str, name: str, uid: int, extra: str = "") -> str:
    slug = "user" if not name.isascii() else name.lower().replace(" ", "-")
    return (f'<a href="{prefix}members/{slug}.{uid}/" class="username {extra}" dir="auto" '
            f'data-user-id="{uid}" data-xf-init="member-tooltip">{escape(name)}</a>')


def red(nick: str, colour: str = XF_RED) -> str:
    return f'<span style="color: {colour}">{escape(nick)}</span>'


def quote(prefix: str, name: str, uid: int, post_id: int, inner: str) -> str:
    return (
        f'<blockquote data-attributes="member: {uid}" data-quote="{escape(name)}" '
        f'data-source="post: {post_id}" class="bbCodeBlock bbCodeBlock--expandable '
        f'bbCodeBlock--quote js-expandWatch">\n\t<div class="bbCodeBlock-title">\n\t\t'
        f'<a href="{prefix}goto/post?id={post_id}" class="bbCodeBlock-sourceJump" '
        f'rel="nofollow" data-xf-click="attribution" data-content-selector="#post-{post_id}">'
        f"{escape(name)} сказал(а):</a>\n\t</div>\n\t<div class=\"bbCodeBlock-content\">\n\t\t"
        f'<div class="bbCodeBlock-expandContent js-expandContent ">{inner}</div>\n\t\t'
        f'<div class="bbCodeBlock-expandLink js-expandLink"><a role="button" tabindex="0">'
        f"Нажмите для раскрытия...</a></div>\n\t</div>\n</blockquote>")


def spoiler(title: str, inner: str) -> str:
    return (
        '<div class="bbCodeSpoiler">\n\t<button type="button" class="button bbCodeSpoiler-button" '
        'data-xf-click="toggle" data-xf-init="tooltip" title="Нажмите, чтобы показать">'
        f'<span class="button-text"><span>Спойлер: <span class="bbCodeSpoiler-button-title">'
        f"{escape(title)}</span></span></span></button>\n\t"
        '<div class="bbCodeSpoiler-content">\n\t\t<div class="bbCodeBlock bbCodeBlock--spoiler">'
        f'\n\t\t\t<div class="bbCodeBlock-content">{inner}</div>\n\t\t</div>\n\t</div>\n</div>')


def code(text: str) -> str:
    return ('<div class="bbCodeBlock bbCodeBlock--screenLimited bbCodeBlock--code">\n\t'
            '<div class="bbCodeBlock-title">\n\t\tКод:\n\t</div>\n\t'
            '<div class="bbCodeBlock-content" dir="ltr">\n\t\t<pre class="bbCodeCode" dir="ltr" '
            f'data-xf-init="code-block" data-lang=""><code>{escape(text)}</code></pre>\n\t</div>'
            "\n</div>")


def page_nav(current: int, total: int, url_for: Callable[[int], str]) -> str:
    """XenForo 2's ``page_nav`` template: first, current ± 2, last, «…» skips, «Назад»,
    «Вперёд» and the simple «N из M»."""
    if total <= 1:
        return ""

    def link(p: int, extra: str = "") -> str:
        cls = "pageNav-page--current " if p == current else extra
        return f'<li class="pageNav-page {cls}"><a href="{url_for(p)}">{p}</a></li>'

    start, end = max(2, current - 2), min(total - 1, current + 2)
    items = [link(1)]
    if start > 2:
        items.append('<li class="pageNav-page pageNav-page--skip pageNav-page--skipStart">'
                     '<a data-xf-init="tooltip" title="Перейти к странице">…</a></li>')
    items += [link(p, "pageNav-page--earlier " if p < current else "pageNav-page--later ")
              for p in range(start, end + 1)]
    if end + 1 < total:
        items.append('<li class="pageNav-page pageNav-page--skip pageNav-page--skipEnd">'
                     '<a data-xf-init="tooltip" title="Перейти к странице">…</a></li>')
    items.append(link(total))
    prev = (f'<a href="{url_for(current - 1)}" class="pageNav-jump pageNav-jump--prev">'
            "Назад</a>") if current > 1 else ""
    nxt = (f'<a href="{url_for(current + 1)}" class="pageNav-jump pageNav-jump--next">'
           "Вперёд</a>") if current < total else ""
    return (f'<nav class="pageNavWrapper pageNavWrapper--mixed ">\n<div class="pageNav  ">\n'
            f'{prev}\n<ul class="pageNav-main">\n' + "\n".join(items) + f"\n</ul>\n{nxt}\n"
            '</div>\n<div class="pageNavSimple">\n<a class="pageNavSimple-el '
            f'pageNavSimple-el--current" data-xf-init="tooltip" title="Перейти к странице">'
            f"{current} из {total}</a>\n</div>\n</nav>")


def document(body: str, *, template: str, title: str, logged_in: bool, csrf: str,
             canonical: str | None = None, heading: str | None = None) -> str:
    head_link = f'<link rel="canonical" href="{canonical}" />' if canonical else ""
    h1 = (f'<div class="p-body-header"><div class="p-title "><h1 class="p-title-value">'
          f"{escape(heading)}</h1></div></div>") if heading else ""
    return (
        f'<!DOCTYPE html>\n<html id="XF" lang="ru-RU" dir="LTR"\n\tdata-app="public"\n\t'
        f'data-template="{template}"\n\tdata-logged-in="{"true" if logged_in else "false"}"\n\t'
        f'data-cookie-prefix="xf_"\n\tdata-csrf="{csrf}"\n\t'
        f'class="has-no-js template-{template}"\n\t>\n<head>\n\t<meta charset="utf-8" />\n\t'
        f"<title>{escape(title)} | Мафия-клуб</title>\n\t{head_link}\n</head>\n"
        f'<body data-template="{template}">\n<div class="p-pageWrapper" id="top">\n'
        f'{h1}\n<div class="p-body-main"><div class="p-body-content"><div '
        f'class="p-body-pageContent">\n{body}\n</div></div></div>\n</div>\n</body>\n</html>\n')


# --------------------------------------------------------------------------- messages

@dataclass
class XfPost:
    post_id: int
    author: str
    user_id: int
    at: datetime
    html: str
    edited_at: datetime | None = None
    by_moderator: bool = False


def _user_cell(prefix: str, name: str, uid: int) -> str:
    return (
        '<div class="message-cell message-cell--user">\n<section itemscope="" '
        'itemtype="https://schema.org/Person" class="message-user">\n'
        f'<div class="message-avatar "><div class="message-avatar-wrapper"><a href="{prefix}'
        f'members/user.{uid}/" class="avatar avatar--m" data-user-id="{uid}" '
        f'data-xf-init="member-tooltip"><span class="avatar-u{uid}-m">{escape(name[:1])}</span>'
        '</a></div></div>\n<div class="message-userDetails">\n'
        f'<h4 class="message-name">{user_link(prefix, name, uid)}</h4>\n'
        '<h5 class="userTitle message-userTitle" dir="auto">Участник</h5>\n</div>\n'
        '<span class="message-userArrow"></span>\n</section>\n</div>')


def post_article(p: XfPost, *, prefix: str, thread_route: str, number: int, now: datetime,
                 version: str = "2.2") -> str:
    link = f"{prefix}{thread_route}post-{p.post_id}"
    edit = ""
    if p.edited_at is not None:
        label = "Последнее редактирование модератором" if p.by_moderator \
            else "Последнее редактирование"
        edit = (f'\n<div class="message-lastEdit">\n\t{label}: '
                f"{time_tag(p.edited_at, now, version)}\n</div>")
    return (
        f'<article class="message message--post js-post js-inlineModContainer  " '
        f'data-author="{escape(p.author)}" data-content="post-{p.post_id}" '
        f'id="js-post-{p.post_id}">\n<span class="u-anchorTarget" id="post-{p.post_id}">'
        f'</span>\n<div class="message-inner">\n{_user_cell(prefix, p.author, p.user_id)}\n'
        '<div class="message-cell message-cell--main">\n<div class="message-main '
        'js-quickEditTarget">\n<header class="message-attribution message-attribution--split">'
        '\n<ul class="message-attribution-main listInline ">\n<li class="u-concealed">'
        f'<a href="{link}" rel="nofollow">{time_tag(p.at, now, version)}</a></li>\n</ul>\n'
        '<ul class="message-attribution-opposite message-attribution-opposite--list ">\n'
        f'<li><a href="{link}" class="message-attribution-gadget" '
        f'data-xf-init="share-tooltip" data-href="{prefix}posts/{p.post_id}/share" '
        'rel="nofollow"><i class="fa--xf far fa-share-alt" aria-hidden="true"></i></a></li>\n'
        f'<li><a href="{link}" rel="nofollow">\n\t#{number}\n</a></li>\n</ul>\n</header>\n'
        '<div class="message-content js-messageContent">\n<div class="message-userContent '
        f'lbContainer js-lbContainer " data-lb-id="post-{p.post_id}" '
        f'data-lb-caption-desc="{escape(p.author)}">\n<article class="message-body '
        f'js-selectToQuote">\n<div class="bbWrapper">{p.html}</div>\n'
        '<div class="js-selectToQuoteEnd">&nbsp;</div>\n</article>\n</div>'
        f'{edit}\n<aside class="message-signature"><div class="bbWrapper">'
        f'Подпись {escape(p.author)}: <span style="color: red">мой голос — всегда честный'
        '</span></div></aside>\n</div>\n<footer class="message-footer"><div class="reactionsBar '
        'js-reactionsList "></div></footer>\n</div>\n</div>\n</div>\n</article>')


@dataclass
class XfThread:
    thread_id: int
    slug: str
    title: str
    posts: list[XfPost] = field(default_factory=list)

    @property
    def route(self) -> str:
        return f"threads/{self.slug}.{self.thread_id}/"


def _one_post(p: XfPost, *, prefix: str, route: str, number: int, now: datetime,
              version: str) -> str:
    if version.startswith("2."):
        return post_article(p, prefix=prefix, thread_route=route, number=number, now=now,
                            version=version)
    # A style or version shape of xf_variants («uix», «xf20», «article»…).
    from xf_variants import VARIANTS, Vp

    return VARIANTS[version](Vp(p.post_id, p.author, p.user_id, p.at, number, p.html,
                                p.edited_at), now)


def thread_page(t: XfThread, page: int, per_page: int, *, prefix: str, origin: str,
                now: datetime, logged_in: bool, csrf: str, version: str = "2.2",
                pin_first: bool = False) -> str:
    """One page of ``t``. ``pin_first``: the first post in a block of its own above the
    list on every page, as XF 2.2+ shows question, suggestion and article threads."""
    total = max(1, -(-len(t.posts) // per_page))
    first = (page - 1) * per_page + 1
    chunk = list(enumerate(t.posts[first - 1: page * per_page], start=first))

    def url_for(p: int) -> str:
        return f"{prefix}{t.route}" + (f"page-{p}" if p > 1 else "")

    def render(items: list[tuple[int, XfPost]]) -> str:
        return "\n".join(_one_post(p, prefix=prefix, route=t.route, number=n, now=now,
                                    version=version) for n, p in items)

    pinned = ""
    if pin_first and t.posts:
        chunk = [(n, p) for n, p in chunk if n != 1]
        pinned = (f'<div class="block block--messages" data-lb-id="thread-{t.thread_id}">'
                  f'<div class="block-container"><div class="block-body">'
                  f"{render([(1, t.posts[0])])}</div></div></div>\n")
    nav = page_nav(page, total, url_for)
    body = (f'{pinned}<div class="block block--messages" data-xf-init="" data-type="post" '
            f'data-href="{prefix}inline-mod/">\n<div class="block-outer">{nav}</div>\n'
            f'<div class="block-container lbContainer" data-lb-id="thread-{t.thread_id}">\n'
            f'<div class="block-body js-replyNewMessageContainer">\n{render(chunk)}\n</div>\n'
            f'</div>\n<div class="block-outer block-outer--after">{nav}</div>\n</div>')
    return document(body, template="thread_view", title=t.title, logged_in=logged_in,
                    csrf=csrf, canonical=origin + url_for(page), heading=t.title)


def error_page(message: str, *, prefix: str, csrf: str, login: bool, logged_in: bool) -> str:
    """XenForo's error page (HTTP 403/404); for a guest who must log in, with the login
    form inside."""
    form = login_form(prefix, csrf) if login else ""
    body = f'<div class="blockMessage">{escape(message)}</div>\n{form}'
    return document(body, template="error", title="Ошибка", logged_in=logged_in, csrf=csrf,
                    heading="Упс! Мы столкнулись с некоторыми проблемами.")


def login_form(prefix: str, csrf: str, error: str | None = None) -> str:
    said = f'<div class="blockMessage blockMessage--error">{escape(error)}</div>\n' \
        if error else ""
    return (
        f'{said}<form action="{prefix}login/login" method="post" class="block">\n'
        '<div class="block-container"><div class="block-body">\n'
        '<dl class="formRow"><dt>Имя пользователя или email</dt><dd><input type="text" '
        'class="input" name="login" autocomplete="username" /></dd></dl>\n'
        '<dl class="formRow"><dt>Пароль</dt><dd><input type="password" class="input" '
        'name="password" autocomplete="current-password" /></dd></dl>\n'
        '<dl class="formRow"><dd><label class="iconic"><input type="checkbox" name="remember" '
        'value="1" checked="checked" /><i aria-hidden="true"></i>Запомнить меня</label></dd>'
        '</dl>\n<input type="hidden" name="_xfRedirect" value="" />\n'
        '</div><div class="formSubmitRow"><button type="submit" class="button--primary '
        'button"><span class="button-text">Вход</span></button></div></div>\n'
        f'<input type="hidden" name="_xfToken" value="{csrf}" />\n</form>')


def login_page(prefix: str, csrf: str, error: str | None = None) -> str:
    return document(login_form(prefix, csrf, error), template="login", title="Вход",
                    logged_in=False, csrf=csrf, heading="Вход")


def editor_form(action: str, csrf: str, fields: str = "") -> str:
    return (f'<form action="{action}" method="post" class="block" '
            'data-xf-init="attachment-manager">\n<div class="block-container"><div '
            f'class="block-body">{fields}\n<textarea name="message_html" class="input '
            'js-editor" data-xf-init="editor"></textarea>\n<input type="hidden" '
            'name="attachment_hash" value="0a1b2c3d" />\n</div></div>\n'
            f'<input type="hidden" name="_xfToken" value="{csrf}" />\n</form>')


def reply_page(t: XfThread, prefix: str, csrf: str) -> str:
    form = editor_form(f"{prefix}{t.route}add-reply", csrf)
    return document(form, template="thread_reply", title=f"Ответ в теме «{t.title}»",
                    logged_in=True, csrf=csrf, heading=f"Ответ в теме «{t.title}»")


def conversation_add_page(prefix: str, csrf: str) -> str:
    fields = ('<dl class="formRow"><dt>Получатели</dt><dd><input type="text" name="recipients"'
              ' class="input" data-xf-init="token-input" /></dd></dl>\n<dl class="formRow">'
              '<dt>Заголовок</dt><dd><input type="text" name="title" class="input" /></dd></dl>')
    return document(editor_form(f"{prefix}conversations/add", csrf, fields),
                    template="conversation_add", title="Начать переписку", logged_in=True,
                    csrf=csrf, heading="Начать переписку")


def names(people: Sequence[tuple[str, int]]) -> list[str]:
    return [n for n, _ in people]


def days_ago(now: datetime, days: int, hour: int, minute: int = 0) -> datetime:
    local = now.astimezone(MOSCOW) - timedelta(days=days)
    return local.replace(hour=hour, minute=minute, second=0, microsecond=0)
