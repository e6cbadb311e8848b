"""Topic pages of every phpBB version and style the engine reads, written from their facts
(``adapters/phpbb/README.md`` names the source of each): one post block per variant, the
page around it per family, in the Russian pack's words, with Russian game content.

Every renderer takes a :class:`Vp` (who, when, what) and the date format the viewer set;
``<time datetime>`` variants (3.2.9+) print the UTC instant as phpBB does
(``gmdate(DATE_RFC3339)``), the others only the text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

MOSCOW = ZoneInfo("Europe/Moscow")
NOW = datetime(2026, 11, 21, 12, 0, tzinfo=MOSCOW)
"""When the test pages were «rendered» (relative dates count from here)."""
TOPIC = "./viewtopic.php?f=2&amp;t=77"
URL = "http://mafia.example/viewtopic.php?f=2&t=77"
TITLE = "Мафия: игра 5"

_MONTHS = "янв фев мар апр май июн июл авг сен окт ноя дек".split()
_DAYS = "Пн Вт Ср Чт Пт Сб Вс".split()


@dataclass(frozen=True)
class Vp:
    """A post to render."""

    post_id: int
    author: str
    user_id: int | None  # None: a guest (or a deleted user)
    at: datetime
    body: str
    colour: str = ""  # the author's group colour («AA0000» for administrators)
    edited_at: datetime | None = None
    signature: str = ""


def ru_date(at: datetime, fmt: str = "d M Y, H:i", now: datetime = NOW) -> str:
    """What phpBB's ``format_date()`` prints with the Russian pack for ``fmt``."""
    local, today = at.astimezone(MOSCOW), now.astimezone(MOSCOW)
    if fmt.startswith("|"):
        ago = today - local
        if timedelta(0) <= ago < timedelta(minutes=1):
            return "менее минуты назад"
        if timedelta(0) <= ago < timedelta(hours=1):
            minutes = int(ago.total_seconds() // 60)
            word = "минуту" if minutes % 10 == 1 and minutes != 11 else (
                "минуты" if minutes % 10 in (2, 3, 4) and minutes not in (12, 13, 14)
                else "минут")
            return f"{minutes} {word} назад"
        if local.date() == today.date():
            return f"Сегодня, {local:%H:%M}"
        if local.date() == today.date() - timedelta(days=1):
            return f"Вчера, {local:%H:%M}"
        fmt = fmt.strip("|").replace("|", "")
    month, day = _MONTHS[local.month - 1], _DAYS[local.weekday()]
    hour12 = local.hour % 12 or 12
    ampm = "am" if local.hour < 12 else "pm"
    return {
        "d M Y, H:i": f"{local:%d} {month} {local:%Y}, {local:%H:%M}",
        "D M d, Y g:i a": f"{day} {month} {local:%d}, {local:%Y} {hour12}:{local:%M} {ampm}",
        "D M d, Y H:i": f"{day} {month} {local:%d}, {local:%Y} {local:%H:%M}",
        "d.m.Y, H:i": f"{local:%d.%m.%Y, %H:%M}",
    }[fmt]


def rfc3339(at: datetime) -> str:
    return at.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S+00:00")


# --------------------------------------------------------------------------- users

def user31(vp: Vp) -> str:
    """``get_username_string('full')`` of 3.1+."""
    if vp.user_id is None:
        return f'<span class="username">{vp.author}</span>'
    href = f"./memberlist.php?mode=viewprofile&amp;u={vp.user_id}"
    if vp.colour:
        return (f'<a href="{href}" style="color: #{vp.colour};" class="username-coloured">'
                f"{vp.author}</a>")
    return f'<a href="{href}" class="username">{vp.author}</a>'


def user30(vp: Vp) -> str:
    """3.0: the plain link has no class, a guest is bare text."""
    if vp.user_id is None:
        return vp.author
    href = f"./memberlist.php?mode=viewprofile&amp;u={vp.user_id}"
    if vp.colour:
        return (f'<a href="{href}" style="color: #{vp.colour};" class="username-coloured">'
                f"{vp.author}</a>")
    return f'<a href="{href}">{vp.author}</a>'


def _edit(vp: Vp, user: Callable[[Vp], str], *, tag: str = "div",
          cls: str = "notice") -> str:
    if vp.edited_at is None:
        return ""
    return (f'<{tag} class="{cls}">Последний раз редактировалось {user(vp)} '
            f"{ru_date(vp.edited_at, 'd M Y, H:i')}, всего редактировалось 1 раз.</{tag}>")


def _sig(vp: Vp) -> str:
    return (f'<div id="sig{vp.post_id}" class="signature">{vp.signature}</div>'
            if vp.signature else "")


# --------------------------------------------------------------------------- post blocks

def _profile31(vp: Vp, extra_dt: str = "") -> str:
    author = user31(vp) if vp.user_id is not None else f"<strong>{user31(vp)}</strong>"
    return (f'<dl class="postprofile" id="profile{vp.post_id}"><dt class="no-profile-rank '
            f'no-avatar"><div class="avatar-container"></div>{extra_dt}{author}</dt>'
            '<dd class="profile-posts"><strong>Сообщения:</strong> 12</dd>'
            '<dd class="profile-joined"><strong>Зарегистрирован:</strong> 01 ноя 2025, 03:00'
            "</dd></dl>")


def _buttons(vp: Vp) -> str:
    return (f'<ul class="post-buttons"><li><a href="./posting.php?mode=quote&amp;p='
            f'{vp.post_id}" title="Ответить с цитатой" class="button button-icon-only"><i '
            'class="icon fa-quote-left fa-fw" aria-hidden="true"></i><span class="sr-only">'
            "Цитата</span></a></li></ul>")


def _post31(vp: Vp, author_line: str, *, extra_dt: str = "", before_author: str = "",
            after_notice: str = "", classes: str = "post has-profile bg2",
            hidden: bool = False, ignore: str = "") -> str:
    hide = ' style="display: none;"' if hidden else ""
    return (
        f'<div id="p{vp.post_id}" class="{classes}"><div class="inner">'
        f"{_profile31(vp, extra_dt).replace('<dl ', f'<dl{hide} ', 1)}"
        f'<div class="postbody">{ignore}<div id="post_content{vp.post_id}"{hide}>'
        f'<h3><a href="./viewtopic.php?p={vp.post_id}#p{vp.post_id}">Re: {TITLE}</a></h3>'
        f"{_buttons(vp)}{before_author}{author_line}"
        f'<div class="content">{vp.body}</div>{_edit(vp, user31)}{after_notice}{_sig(vp)}'
        '</div></div><div class="back2top"><a href="#top" class="top" title="Вернуться к '
        'началу"><span class="sr-only">Вернуться к началу</span></a></div></div></div>\n')


def _icon_link(vp: Vp) -> str:
    return (f'<a class="unread" href="./viewtopic.php?p={vp.post_id}#p{vp.post_id}" '
            'title="Сообщение"><i class="icon fa-file fa-fw icon-lightgray icon-md" '
            'aria-hidden="true"></i><span class="sr-only">Сообщение</span></a>')


def prosilver33(vp: Vp, fmt: str = "d M Y, H:i") -> str:
    """3.2.9–3.3: the date in ``<time datetime>`` (the real 3.3.10 board's markup)."""
    line = (f'<p class="author">{_icon_link(vp)}<span class="responsive-hide"> <strong>'
            f'{user31(vp)}</strong> &raquo; </span><time datetime="{rfc3339(vp.at)}">'
            f"{ru_date(vp.at, fmt)}</time></p>")
    return _post31(vp, line)


def prosilver32(vp: Vp, fmt: str = "|d M Y|, H:i") -> str:
    """3.2.0–3.2.8: the same, the date bare text after «»»."""
    line = (f'<p class="author">{_icon_link(vp)}<span class="responsive-hide"> <strong>'
            f"{user31(vp)}</strong> &raquo; </span>{ru_date(vp.at, fmt)} </p>")
    return _post31(vp, line)


def prosilver31(vp: Vp, fmt: str = "|d M Y|, H:i") -> str:
    """3.1: the post image as an imageset span, the date after «»»."""
    line = (f'<p class="author"><a href="./viewtopic.php?p={vp.post_id}#p{vp.post_id}">'
            '<span class="imageset icon_post_target" title="Сообщение">Сообщение</span></a>'
            f'<span class="responsive-hide"> <strong>{user31(vp)}</strong> &raquo; </span>'
            f"{ru_date(vp.at, fmt)} </p>")
    return _post31(vp, line)


def we_universal(vp: Vp, fmt: str = "d M Y, H:i") -> str:
    """we_universal: prosilver's post with «В сети» above the nick in the profile."""
    line = (f'<p class="author">{_icon_link(vp)}<span class="responsive-hide"> <strong>'
            f'{user31(vp)}</strong> &raquo; </span><time datetime="{rfc3339(vp.at)}">'
            f"{ru_date(vp.at, fmt)}</time></p>")
    online = '<div class="inventea-online"><i class="fa fa-power-off"></i> В сети</div>'
    return _post31(vp, line, extra_dt=online, classes="post has-profile bg1 online")


def prosilver_se(vp: Vp, fmt: str = "d M Y, H:i") -> str:
    """prosilver Special Edition (3.3): no «»», the date also hidden in the profile."""
    line = (f'<p class="author responsive-hide"><span> <strong>{user31(vp)}</strong> <time '
            f'datetime="{rfc3339(vp.at)}">{ru_date(vp.at, fmt)}</time> </span></p>')
    mobile = (f'<span class="author-mobile responsive-show" style="display: none;"> '
              f"{ru_date(vp.at, fmt)}</span>")
    return _post31(vp, line, extra_dt=mobile)


def allan_style(vp: Vp, fmt: str = "d M Y, H:i", number: int = 2) -> str:
    """AllanStyle-SUBSILVER (3.2): the post's number as a prompt link before the date."""
    line = (f'<p class="author"><span class="posti"><a href="./viewtopic.php?p={vp.post_id}'
            f"#p{vp.post_id}\" onclick=\"prompt('Сообщение #{number}',this.href); return "
            f'false;">#{number}</a></span> {_icon_link(vp)}<span class="responsive-hide"> '
            f"<strong>{user31(vp)}</strong> &raquo; </span>{ru_date(vp.at, fmt)}\n</p>")
    return _post31(vp, line)


def post_numbers(vp: Vp, fmt: str = "d M Y, H:i", number: int = 2) -> str:
    """kasimi's Post Numbers (post_img place): ``p.post-number`` before the author line."""
    line = (f'<p class="author">{_icon_link(vp)}<span class="responsive-hide"> <strong>'
            f'{user31(vp)}</strong> &raquo; </span><time datetime="{rfc3339(vp.at)}">'
            f"{ru_date(vp.at, fmt)}</time></p>")
    num = (f'<p class="post-number post-number-bold"><a href="./viewtopic.php?p={vp.post_id}'
           f'#p{vp.post_id}">#{number}</a></p>')
    return _post31(vp, line, before_author=num)


def number_after_date(vp: Vp, fmt: str = "|d M Y|, H:i", number: int = 2) -> str:
    """A style that closes the 3.2.0–3.2.8 author line with the post's number."""
    line = (f'<p class="author">{_icon_link(vp)}<span class="responsive-hide"> <strong>'
            f"{user31(vp)}</strong> &raquo; </span>{ru_date(vp.at, fmt)} | <a href="
            f'"./viewtopic.php?p={vp.post_id}#p{vp.post_id}">Сообщение #{number}</a></p>')
    return _post31(vp, line)


def thanks_for_posts(vp: Vp, fmt: str = "d M Y, H:i") -> str:
    """rxu's Thanks for posts: the thanks list as a ``div.notice`` after the edit notice."""
    line = (f'<p class="author">{_icon_link(vp)}<span class="responsive-hide"> <strong>'
            f'{user31(vp)}</strong> &raquo; </span><time datetime="{rfc3339(vp.at)}">'
            f"{ru_date(vp.at, fmt)}</time></p>")
    thanks = (f"<div id='list_thanks{vp.post_id}'><div class=\"notice\"><dl><dt>За это "
              f"сообщение автора {user31(vp)} поблагодарили:</dt><dd><a href=\"./memberlist"
              '.php?mode=viewprofile&amp;u=66" class="username">Ёжик</a> (21 ноя 2026, 10:10)'
              "</dd></dl></div></div>")
    return _post31(vp, line, after_notice=thanks)


def seo_urls(vp: Vp, fmt: str = "d M Y, H:i") -> str:
    """phpBB SEO: profile links rewritten to «memberN.html» (the class stays)."""
    return prosilver33(vp, fmt).replace(
        f"./memberlist.php?mode=viewprofile&amp;u={vp.user_id}", f"./member{vp.user_id}.html")


def foe31(vp: Vp, fmt: str = "d M Y, H:i") -> str:
    """3.1+: a foe's post, hidden until clicked but whole in the page."""
    line = (f'<p class="author">{_icon_link(vp)}<span class="responsive-hide"> <strong>'
            f'{user31(vp)}</strong> &raquo; </span><time datetime="{rfc3339(vp.at)}">'
            f"{ru_date(vp.at, fmt)}</time></p>")
    ignore = (f'<div class="ignore" id="post_hidden{vp.post_id}">Это сообщение было '
              f"оставлено <strong>{vp.author}</strong>, находящимся в вашем чёрном списке.<br />"
              f'<a class="display_post" data-post-id="{vp.post_id}" href="#">Показать это '
              "сообщение</a></div>")
    return _post31(vp, line, hidden=True, ignore=ignore)


def soft_deleted(vp: Vp, fmt: str = "d M Y, H:i") -> str:
    """3.1+ as a moderator sees a soft-deleted post."""
    line = (f'<p class="author">{_icon_link(vp)}<span class="responsive-hide"> <strong>'
            f'{user31(vp)}</strong> &raquo; </span><time datetime="{rfc3339(vp.at)}">'
            f"{ru_date(vp.at, fmt)}</time></p>"
            '<form method="post" class="mcp_approve" action="./mcp.php?i=queue"><p class="post'
            '-notice deleted"><strong>Это сообщение было удалено.</strong> <input class='
            '"button1" type="submit" value="Восстановить" name="action[restore]" /></p></form>')
    ignore = (f'<div class="ignore" id="post_hidden{vp.post_id}"><strong>Ведущий</strong> '
              f"удалил сообщение автора <strong>{vp.author}</strong> 21 ноя 2026, 11:00.<br />"
              '<a class="display_post" href="#">Показать это сообщение</a></div>')
    deleted = ('<div class="notice post_deleted_msg">Удалено 21 ноя 2026, 11:00 '
               "пользователем Ведущий</div>")
    return _post31(vp, line, hidden=True, ignore=ignore, after_notice=deleted,
                   classes="post has-profile bg1 deleted")


def prosilver30(vp: Vp, fmt: str = "D M d, Y g:i a") -> str:
    """3.0 prosilver: postbody before postprofile, the date after «»»."""
    author = f"<strong>{user30(vp)}</strong>"
    edit = _edit(vp, user30)
    return (
        f'<div id="p{vp.post_id}" class="post bg2"><div class="inner"><span class="corners-'
        f'top"><span></span></span><div class="postbody"><ul class="profile-icons"><li class='
        f'"quote-icon"><a href="./posting.php?mode=quote&amp;f=2&amp;p={vp.post_id}" title='
        '"Ответить с цитатой"><span>Ответить с цитатой</span></a></li></ul>'
        f'<h3><a href="#p{vp.post_id}">Re: {TITLE}</a></h3><p class="author"><a href="./'
        f'viewtopic.php?p={vp.post_id}#p{vp.post_id}"><img src="./styles/prosilver/imageset/'
        'icon_post_target.gif" width="11" height="9" alt="Сообщение" title="Сообщение" /></a>'
        f" {author} &raquo; {ru_date(vp.at, fmt)} </p>"
        f'<div class="content">{vp.body}</div>{edit}{_sig(vp)}</div>'
        f'<dl class="postprofile" id="profile{vp.post_id}"><dt>{user30(vp)}</dt><dd>&nbsp;</dd>'
        '<dd><strong>Сообщения:</strong> 12</dd></dl><div class="back2top"><a href="#wrap" '
        'class="top" title="Вернуться к началу">Вернуться к началу</a></div><span class='
        '"corners-bottom"><span></span></span></div></div><hr class="divider" />\n')


def phpbbex(vp: Vp, fmt: str = "|d M Y|, H:i") -> str:
    """phpBBex (the Russian 3.0 fork) with quick reply: the author line's nick inserts
    «[b]Ник[/b], » into the reply box instead of linking the profile."""
    colour = f' style="color: #{vp.colour};"' if vp.colour else ""
    return (
        f'<div id="p{vp.post_id}" data-id="{vp.post_id}" class="post bg1"><div class="inner">'
        '<span class="corners-top"><span></span></span><div class="postbody">'
        f'<p class="author"><a rel="nofollow" href="./viewtopic.php?p={vp.post_id}#p'
        f'{vp.post_id}"><img src="./styles/prosilver/imageset/icon_post_target.gif" alt="'
        'Сообщение" /></a> <strong><a rel="nofollow" href="#postform" onclick="insert_text('
        f"'[b]{vp.author}[/b], '); return false;\"{colour}>{vp.author}</a></strong> &raquo; "
        f'{ru_date(vp.at, fmt)} </p><div class="content">{vp.body}</div>'
        f'<div id="message_{vp.post_id}" style="display: none;">Мой голос</div>'
        f"{_edit(vp, user30)}{_sig(vp)}</div>"
        f'<dl class="postprofile" id="profile{vp.post_id}"><dt><span>{user30(vp)}</span>'
        '<span class="online"> В сети</span></dt><dd class="fseparator"></dd></dl>'
        '<span class="corners-bottom"><span></span></span></div></div><hr class="divider" />\n')


def subsilver2(vp: Vp, fmt: str = "|d M Y|, H:i", *, label: str = "Добавлено:") -> str:
    """subsilver2 (3.0 and its 3.1–3.3 ports): the post as a table."""
    colour = f' style="color: #{vp.colour}"' if vp.colour else ""
    profile = (f'<a href="./memberlist.php?mode=viewprofile&amp;u={vp.user_id}"><img src='
               '"./styles/subsilver2/imageset/ru/icon_user_profile.gif" alt="Профиль" /></a>'
               if vp.user_id is not None else "")
    edit = _edit(vp, user30, tag="span", cls="gensmall")
    sig = (f'<div class="postbody"><br />_________________<br />{vp.signature}</div>'
           if vp.signature else "")
    return (
        '<table class="tablebg" width="100%" cellspacing="1"><tr class="row1">'
        f'<td align="center" valign="middle"><a name="p{vp.post_id}"></a><b class="postauthor"'
        f'{colour}>{vp.author}</b></td><td width="100%" height="25"><table width="100%" '
        'cellspacing="0"><tr><td class="gensmall" width="100%"><div style="float: left;">'
        f'&nbsp;<b>Заголовок сообщения:</b> <a href="#p{vp.post_id}">Re: {TITLE}</a></div>'
        f'<div style="float: right;"><a href="./viewtopic.php?p={vp.post_id}#p{vp.post_id}">'
        '<img src="./styles/subsilver2/imageset/icon_post_target.gif" alt="Сообщение" /></a>'
        f"<b>{label}</b> {ru_date(vp.at, fmt)}&nbsp;</div></td></tr></table></td></tr>"
        '<tr class="row1"><td valign="top" class="profile"><span class="postdetails"><br />'
        '<b>Сообщения:</b> 12</span></td><td valign="top"><table width="100%" cellspacing="5">'
        f'<tr><td><div class="postbody">{vp.body}</div>{sig}<br /><br />{edit}</td></tr>'
        '</table></td></tr><tr class="row1"><td class="profile"><strong><a href="#wrapheader">'
        f'Вернуться к началу</a></strong></td><td><div class="gensmall">{profile}</div></td>'
        "</tr></table>\n")


def subsilver2_port(vp: Vp, fmt: str = "d M Y, H:i") -> str:
    """The 3.1–3.3 port of subsilver2 (LibriVox's copy): «Добавлено::» after the icon."""
    return subsilver2(vp, fmt, label="Добавлено::")


POST_VARIANTS: dict[str, Callable[..., str]] = {
    "prosilver 3.3": prosilver33,
    "prosilver 3.2.0-3.2.8": prosilver32,
    "prosilver 3.1": prosilver31,
    "prosilver 3.0": prosilver30,
    "we_universal": we_universal,
    "prosilver_se": prosilver_se,
    "AllanStyle-SUBSILVER": allan_style,
    "Post Numbers": post_numbers,
    "number after the date": number_after_date,
    "Thanks for posts": thanks_for_posts,
    "SEO profile links": seo_urls,
    "phpBBex": phpbbex,
    "subsilver2 3.0": subsilver2,
    "subsilver2 3.3 port": subsilver2_port,
}
TIME_ELEMENT = {"prosilver 3.3", "we_universal", "prosilver_se", "Post Numbers",
                "Thanks for posts", "SEO profile links"}
"""Variants that print ``<time datetime>``: their times are exact to the second."""
