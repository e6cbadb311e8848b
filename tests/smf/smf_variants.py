"""SMF topic pages the saved SMF 2.1.4 board never printed, written from SMF's own templates
with Russian game content: SMF 2.0 (theme Curve, ``Display.template.php`` 2.0 and the
2.0.12 Russian pack: «« <strong>Ответ #3 :</strong> 12 Марта 2024, 21:42:05 »»,
``div.quoteheader`` before the blockquote, «« <em>Последнее редактирование: … от …</em> »»,
«Страницы: [<strong>1</strong>] 2 3» with ``a.navPages`` and the «...» gaps of
``constructPageIndex``) and the SMF 2.1 Curve2 variations of the same post block as
``fixtures/smf21-ru/topic_p2_host.html`` (a guest's name without a profile link, a member
name in colour, «Вчера в», ``span.expand_pages``).

Pages are UTF-8 text; the parsers take them as the client hands them over.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

MOSCOW = ZoneInfo("Europe/Moscow")
BOARD = "http://mafia.test/forum/index.php"
TOPIC = 7
MONTHS_20 = ("Января", "Февраля", "Марта", "Апреля", "Мая", "Июня", "Июля", "Августа",
             "Сентября", "Октября", "Ноября", "Декабря")
"""SMF 2.0.12's Russian ``$txt['months']``, capitalised (``lang_capitalize_dates``)."""
MONTHS_21 = tuple(m.lower() for m in MONTHS_20)


@dataclass(frozen=True, slots=True)
class SmfPost:
    post_id: int
    author: str
    author_id: int | None
    """None: a guest, or a member since deleted (SMF prints the name without a link)."""
    posted_at: datetime
    body: str
    """The post's HTML as SMF's ``parse_bbc`` renders it (see :func:`quote20`, :func:`red`)."""
    edited: tuple[datetime, str] | None = None
    name_html: str = ""
    """The name's own markup inside the profile link (a colour by membergroup)."""


def esc(text: str) -> str:
    return html.escape(text, quote=True)


def red(nick: str, colour: str = "red") -> str:
    """[color=red] (or [color=#FF0000]) as SMF renders it: the value as typed."""
    return f'<span style="color: {colour};" class="bbc_color">{esc(nick)}</span>'


def vote(nick: str, reason: str, colour: str = "red") -> str:
    return f"Мой голос – {red(nick, colour)} {esc(reason)}"


def shown(when: datetime, now: datetime, *, version: str = "2.0") -> str:
    """A time as SMF prints it for a Moscow reader with «Сегодня»/«Вчера» on (todayMod 2):
    2.0 ``%d %B %Y, %H:%M:%S``, 2.1 ``%d %B %Y, %H:%M``."""
    local, today = when.astimezone(MOSCOW), now.astimezone(MOSCOW).date()
    clock = f"{local:%H:%M:%S}" if version == "2.0" else f"{local:%H:%M}"
    if local.date() == today:
        return f"<strong>Сегодня</strong> в {clock}"
    if local.date() == today - timedelta(days=1):
        return f"<strong>Вчера</strong> в {clock}"
    months = MONTHS_20 if version == "2.0" else MONTHS_21
    return f"{local.day:02d} {months[local.month - 1]} {local.year}, {clock}"


# --------------------------------------------------------------------------- bodies (2.0)

def quote20(author: str, post_id: int, when: str, text: str) -> str:
    """[quote author=X link=… date=…] in SMF 2.0's ``parse_bbc`` (Russian «Цитата: X от …»)."""
    return ('<div class="quoteheader"><div class="topslice_quote"><a href="'
            f'{BOARD}?topic={TOPIC}.msg{post_id}#msg{post_id}">Цитата: {esc(author)} от '
            f'{when}</a></div></div><blockquote class="bbc_standard_quote">{text}<br />'
            '</blockquote><div class="quotefooter"><div class="botslice_quote"></div></div>')


def plain_quote20(text: str) -> str:
    """[quote] without an author: the header says «Цитата»."""
    return ('<div class="quoteheader"><div class="topslice_quote">Цитата</div></div>'
            f'<blockquote class="bbc_standard_quote">{text}<br /></blockquote>'
            '<div class="quotefooter"><div class="botslice_quote"></div></div>')


def code20(text: str) -> str:
    """[code] in SMF 2.0 for Gecko/Opera readers: the ``<code>`` wrapped in ``<pre>``."""
    return ('<div class="codeheader">Код: <a href="javascript:void(0);" onclick="return '
            'smfSelectText(this);" class="codeoperation">[Выделить]</a></div>'
            f'<pre style="margin: 0; padding: 0;"><code class="bbc_code">{esc(text)}</code></pre>')


def spoiler(text: str) -> str:
    """A spoiler mod's box (SMF has no stock [spoiler]): the text hidden by CSS in place."""
    return ('<div class="spoiler"><div class="spoilerheader"><input type="button" '
            'class="spoilerbutton" value="Спойлер" onclick="this.parentNode.nextSibling.style'
            '.display=\'block\';" /></div><div class="spoilerbody" style="display: none">'
            f'{text}</div></div>')


# --------------------------------------------------------------------------- page index

def page_index(start: int, total: int, per_page: int, *, compact: bool = True,
               contiguous: int = 5) -> str:
    """SMF 2.0's ``constructPageIndex`` for ``?topic=T.%1$d`` (flexible start)."""
    base = f"{BOARD}?topic={TOPIC}."

    def link(offset: int, label: str) -> str:
        return f'<a class="navPages" href="{base}{offset}">{label}</a> '

    if not compact:
        out = " " if start == 0 else link(start - per_page, "&#171;")
        for number, offset in enumerate(range(0, total, per_page), start=1):
            out += f"<strong>{number}</strong> " if offset == start else link(offset, str(number))
        if start + per_page < total:
            out += link(start + per_page, "&#187;")
        return out
    half = (contiguous - contiguous % 2) // 2
    last = (total - 1) // per_page * per_page
    out = link(0, "1") if start > per_page * half else ""
    if start > per_page * (half + 1):
        out += ('<span style="font-weight: bold;" onclick="expandPages(this, &#039;'
                f'{base}%1$d&#039;, {per_page}, {start - per_page * half}, {per_page});" '
                "onmouseover=\"this.style.cursor = 'pointer';\"> ... </span>")
    for k in range(half, 0, -1):
        if start >= per_page * k:
            out += link(start - per_page * k, str((start - per_page * k) // per_page + 1))
    out += f"[<strong>{start // per_page + 1}</strong>] "
    for k in range(1, half + 1):
        if start + per_page * k <= last:
            out += link(start + per_page * k, str((start + per_page * k) // per_page + 1))
    if start + per_page * (half + 1) < last:
        out += (f'<span style="font-weight: bold;" onclick="expandPages(this, \'{base}%1$d\', '
                f"{start + per_page * (half + 1)}, {last}, {per_page});\" onmouseover=\"this."
                "style.cursor='pointer';\"> ... </span>")
    if start + per_page * half < last:
        out += link(last, str(last // per_page + 1))
    return out


# --------------------------------------------------------------------------- SMF 2.0 pages

def _author20(post: SmfPost) -> str:
    if post.author_id is None:
        return esc(post.author)
    return (f'<a href="{BOARD}?action=pm;sa=send;u={post.author_id}" title="Личное сообщение '
            f'(Оффлайн)"><img src="http://mafia.test/forum/Themes/default/images/useroff.gif" '
            f'alt="Оффлайн" /></a>\n\t\t\t\t\t\t\t\t<a href="{BOARD}?action=profile;u='
            f'{post.author_id}" title="Просмотр профиля {esc(post.author)}">'
            f"{post.name_html or esc(post.author)}</a>")


def post20(post: SmfPost, counter: int, now: datetime, *, first: bool, alternate: bool,
           ignored: bool = False) -> str:
    label = f"Ответ #{counter}" if counter else ""
    edit = ""
    if post.edited is not None:
        when, who = post.edited
        edit = (f"\n\t\t\t\t\t\t\t\t&#171; <em>Последнее редактирование: {shown(when, now)} от "
                f"{esc(who)}</em> &#187;")
    prompt = ""
    if ignored:
        prompt = (f'\n\t\t\t\t\t\t\t<div id="msg_{post.post_id}_ignored_prompt">\n\t\t\t\t\t\t\t'
                  f'\tВы игнорируете данного пользователя.\n\t\t\t\t\t\t\t\t<a href="#" id="msg_'
                  f'{post.post_id}_ignored_link" style="display: none;">Показать сообщение.</a>'
                  "\n\t\t\t\t\t\t\t</div>")
    guest = '\n\t\t\t\t\t\t\t\t<li class="membergroup">Гость</li>' if post.author_id is None \
        else '\n\t\t\t\t\t\t\t\t<li class="postgroup">Новичок</li>\n\t\t\t\t\t\t\t\t<li ' \
             'class="postcount">Сообщений: 7</li>'
    anchor = "" if first else f'\n<a id="msg{post.post_id}"></a>'
    pid = post.post_id
    images = "http://mafia.test/forum/Themes/default/images"
    return f'''{anchor}
<div class="{"windowbg2" if alternate else "windowbg"}">
 <span class="topslice"><span></span></span>
 <div class="post_wrapper">
  <div class="poster">
   <h4>
    {_author20(post)}
   </h4>
   <ul class="reset smalltext" id="msg_{pid}_extra_info">{guest}
   </ul>
  </div>
  <div class="postarea">
   <div class="flow_hidden">
    <div class="keyinfo">
     <div class="messageicon"><img src="{images}/post/xx.gif" alt="" /></div>
     <h5 id="subject_{pid}">
      <a href="{BOARD}?topic={TOPIC}.msg{pid}#msg{pid}" rel="nofollow">Re: Мафия: игра 2</a>
     </h5>
     <div class="smalltext">&#171; <strong>{label} :</strong> {shown(post.posted_at, now)} \
&#187;</div>
     <div id="msg_{pid}_quick_mod"></div>
    </div>
    <ul class="reset smalltext quickbuttons">
     <li class="quote_button"><a href="{BOARD}?action=post;quote={pid};topic={TOPIC}.0;\
last_msg=999">Цитировать</a></li>
    </ul>
   </div>{prompt}
   <div class="post">
    <div class="inner" id="msg_{pid}">{post.body}</div>
   </div>
  </div>
  <div class="moderatorbar">
   <div class="smalltext modified" id="modified_{pid}">{edit}
   </div>
   <div class="smalltext reportlinks">
    <a href="{BOARD}?action=reporttm;topic={TOPIC}.{counter};msg={pid}">Сообщить модератору</a>
    &nbsp; <img src="{images}/ip.gif" alt="" /> Записан
   </div>
   <div class="signature" id="msg_{pid}_signature">Мой голос – <span style="color: red;" \
class="bbc_color">Подпись</span> всегда со мной</div>
  </div>
 </div>
 <span class="botslice"><span></span></span>
</div>
<hr class="post_separator" />'''


def topic20(posts: list[SmfPost], *, page: int = 1, per_page: int = 25, now: datetime,
            total: int | None = None, compact: bool = True, ignored: frozenset[int] = frozenset(),
            title: str = "Мафия: игра 2") -> str:
    """Page ``page`` of a topic of ``total`` posts whose posts on this page are ``posts``."""
    total = total if total is not None else len(posts)
    start = (page - 1) * per_page
    index = page_index(start, total, per_page, compact=compact)
    blocks = "".join(
        post20(p, start + i, now, first=(start + i == 0), alternate=bool(i % 2),
               ignored=p.post_id in ignored)
        for i, p in enumerate(posts))
    first_anchor = f'<a id="msg{posts[0].post_id}"></a>' if posts else ""
    clock = now.astimezone(MOSCOW)
    theme = "http://mafia.test/forum/Themes/default"
    return f'''<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" \
"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
 <link rel="stylesheet" type="text/css" href="{theme}/css/index.css?fin20" />
 <script type="text/javascript"><!-- // --><![CDATA[
  var smf_theme_url = "{theme}";
  var smf_scripturl = "{BOARD}";
  var smf_charset = "UTF-8";
 // ]]></script>
 <meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
 <title>{esc(title)}</title>
 <link rel="canonical" href="{BOARD}?topic={TOPIC}.{start}" />
</head>
<body>
<div id="wrapper" style="width: 90%">
 <div id="header"><div class="frame">
  <div id="upper_section" class="middletext"><div class="user"><ul class="reset">
   <li class="greeting">Здравствуйте, <span>Ведущий</span></li>
   <li>{clock:%d} {MONTHS_20[clock.month - 1]} {clock:%Y, %H:%M:%S}</li>
  </ul></div></div>
 </div></div>
 <div id="content_section"><div class="frame">
  <div id="main_content_section">
   <a id="top"></a>
   {first_anchor}
   <div class="pagesection">
    <div class="nextlinks"><a href="{BOARD}?topic={TOPIC}.0;prev_next=prev#new">&laquo; \
предыдущая тема</a> <a href="{BOARD}?topic={TOPIC}.0;prev_next=next#new">следующая тема \
&raquo;</a></div>
    <div class="pagelinks floatleft">Страницы: {index} &nbsp;&nbsp;<a href="#lastPost">\
<strong>Вниз</strong></a></div>
   </div>
   <div id="forumposts">
    <div class="cat_bar">
     <h3 class="catbg">
      <img src="{theme}/images/topic/veryhot_post.gif" align="bottom" alt="" />
      <span id="author">Автор</span>
      Тема: {esc(title)} &nbsp;(Прочитано 120 раз)
     </h3>
    </div>
    <form action="{BOARD}?action=quickmod2;topic={TOPIC}.{start}" method="post" \
accept-charset="UTF-8" name="quickModForm" id="quickModForm" style="margin: 0;">{blocks}
    </form>
   </div>
   <a id="lastPost"></a>
   <div class="pagesection">
    <div class="pagelinks floatleft">Страницы: {index} &nbsp;&nbsp;<a href="#top">\
<strong>Вверх</strong></a></div>
   </div>
  </div>
 </div></div>
 <div id="footer_section"><div class="frame"><ul class="reset">
  <li class="copyright"><a href="{BOARD}?action=credits" title="Simple Machines Forum" \
target="_blank" class="new_win">SMF 2.0.19</a> | <a href="http://www.simplemachines.org" \
title="Simple Machines" target="_blank" class="new_win">Simple Machines</a></li>
 </ul></div></div>
</div>
</body></html>
'''


# --------------------------------------------------------------------------- SMF 2.1 posts

def post21(post: SmfPost, counter: int, now: datetime) -> str:
    """The Curve2 post block of ``topic_p2_host.html`` with this post's facts."""
    if post.author_id is None:
        name = esc(post.author)
        info = '<li class="membergroup">Гость</li>'
    else:
        name = (f'<a href="{BOARD}?action=profile;u={post.author_id}" title="Просмотр '
                f'профиля {esc(post.author)}">{post.name_html or esc(post.author)}</a>')
        info = '<li class="postgroup">Новичок</li>\n\t\t\t\t\t\t\t\t<li class="postcount">' \
               'Сообщений: 7</li>'
    edit = ""
    if post.edited is not None:
        when, who = post.edited
        edit = (f'<span class="lastedit">Последнее редактирование</span>: '
                f"{shown(when, now, version='2.1')} от {esc(who)}")
    number = f"#{counter}" if counter else ""
    pid = post.post_id
    title = f"Ответ {number} - Re: Мафия: игра 2" if counter else "Re: Мафия: игра 2"
    visible = " mvisible" if edit else ""
    return f'''
<div class="windowbg" id="msg{pid}">
 <div class="post_wrapper">
  <div class="poster">
   <h4>
    {name}
   </h4>
   <ul class="user_info">
    {info}
   </ul>
  </div><!-- .poster -->
  <div class="postarea">
   <div class="keyinfo">
    <div id="subject_{pid}" class="subject_title subject_hidden">
     <a href="{BOARD}?msg={pid}" rel="nofollow">Re: Мафия: игра 2</a>
    </div>
    <span class="page_number floatright">{number}</span>
    <div class="postinfo">
     <span class="messageicon"  style="position: absolute; z-index: -1;">
      <img src="http://mafia.test/forum/Themes/default/images/post/xx.png" alt="">
     </span>
     <a href="{BOARD}?msg={pid}" rel="nofollow" title="{title}" class="smalltext">\
{shown(post.posted_at, now, version="2.1")}</a>
     <span class="spacer"></span>
     <span class="smalltext modified floatright{visible}" id="modified_{pid}">{edit}
     </span>
    </div>
    <div id="msg_{pid}_quick_mod"></div>
   </div><!-- .keyinfo -->
   <div class="post">
    <div class="inner" data-msgid="{pid}" id="msg_{pid}">
     {post.body}
    </div>
   </div><!-- .post -->
  </div><!-- .postarea -->
  <div class="moderatorbar">
   <div class="signature" id="msg_{pid}_signature">Ник в подписи: <span style="color: red;" \
class="bbc_color">Подпись</span></div>
  </div><!-- .moderatorbar -->
 </div><!-- .post_wrapper -->
</div><!-- $message[css_class] -->
<hr class="post_separator">'''


def topic21(posts: list[SmfPost], *, page: int = 1, per_page: int = 25, now: datetime,
            total: int | None = None, title: str = "Мафия: игра 2") -> str:
    total = total if total is not None else len(posts)
    start = (page - 1) * per_page
    last = (total - 1) // per_page * per_page

    def link(offset: int, label: str) -> str:
        return f'<a class="nav_page" href="{BOARD}?topic={TOPIC}.{offset}">{label}</a> '

    index = '<span class="pages">Страницы</span>'
    if start:
        index += link(start - per_page, '<span class="main_icons previous_page"></span>')
    index += link(0, "1") if start else '<span class="current_page">1</span> '
    if start > 2 * per_page:
        index += (f'<span class="expand_pages" onclick="expandPages(this, \'{BOARD}?topic='
                  f'{TOPIC}.%1$d\', {per_page}, {start - per_page}, {per_page});"> ... </span>')
    if start:
        index += f'<span class="current_page">{start // per_page + 1}</span> '
    if start + per_page < last:
        index += (f'<span class="expand_pages" onclick="expandPages(this, \'{BOARD}?topic='
                  f'{TOPIC}.%1$d\', {start + per_page}, {last}, {per_page});"> ... </span>')
    if start < last:
        index += link(last, str(last // per_page + 1))
        index += link(start + per_page, '<span class="main_icons next_page"></span>')
    blocks = "".join(post21(p, start + i, now) for i, p in enumerate(posts))
    clock = now.astimezone(MOSCOW)
    utc = now.astimezone(ZoneInfo("UTC"))
    suffix = f" - Страница {page}" if page > 1 else ""
    return f'''<!DOCTYPE html>
<html lang="ru-RU">
<head>
 <meta charset="UTF-8">
 <script>
  var smf_scripturl = "{BOARD}";
  var smf_member_id = 2;
  var smf_session_id = "0123456789abcdef";
  var smf_session_var = "d1fabad3";
 </script>
 <title>{esc(title)}{suffix}</title>
 <link rel="canonical" href="{BOARD}?topic={TOPIC}.{start}">
</head>
<body id="smf">
 <div id="top_section"><div class="inner_wrap">
  <ul class="floatleft" id="top_info"></ul>
  <div class="user"><time datetime="{utc:%Y-%m-%dT%H:%M:%SZ}">{clock.day:02d} \
{MONTHS_21[clock.month - 1]} {clock:%Y, %H:%M}</time></div>
 </div></div>
 <div id="content_section"><div id="main_content_section">
  <div id="display_head" class="information"><h2 class="display_title">\
<span id="top_subject">{esc(title)}</span></h2></div>
  <div class="pagesection"><div class="pagelinks floatleft">\
<a href="#bot" class="button">Вниз</a> {index}</div></div>
  <div id="forumposts">
   <form action="{BOARD}?action=quickmod2;topic={TOPIC}.{start}" method="post" \
accept-charset="UTF-8" name="quickModForm" id="quickModForm">{blocks}
   </form>
  </div>
 </div></div>
</body>
</html>
'''


__all__ = [
    "BOARD",
    "MOSCOW",
    "SmfPost",
    "code20",
    "page_index",
    "plain_quote20",
    "quote20",
    "red",
    "shown",
    "spoiler",
    "topic20",
    "topic21",
    "vote",
]
