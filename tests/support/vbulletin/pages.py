"""The project's own vBulletin pages, written from the facts in adapters/vbulletin/README.md
with Russian game content: vB 4 threads (postbit_legacy as on the real vBulletin4.html, the
Russian pack's «Страница 1 из 3», «Показано с 1 по 10 из 26», «Сообщение от», «Последний раз
редактировалось …», «Сегодня, 12:34», the footer «Часовой пояс GMT +3, время: …»), a vB 3
thread (tables, «Цитата:»), PM folders and messages, the reply and PM forms. Pages are
``windows-1251`` like the old Russian boards; :func:`encode` makes the bytes.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

BOARD_ZONE = timezone(timedelta(hours=3))
"""The board's (and the host's) offset: «Часовой пояс GMT +3»."""
CHARSET = "windows-1251"


@dataclass(frozen=True, slots=True)
class VbPost:
    post_id: int
    author: str
    author_id: int
    posted_at: datetime
    body: str
    """The post's HTML as vBulletin renders it (see :func:`quote`, :func:`red`)."""
    edited_by: str | None = None
    edited_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class VbPm:
    pm_id: int
    sender: str
    sender_id: int
    sent_at: datetime
    subject: str
    body: str


def esc(text: str) -> str:
    return html.escape(text, quote=True)


def encode(page: str) -> bytes:
    """The page as a ``windows-1251`` board sends it (characters it lacks as ``&#N;``)."""
    return page.encode(CHARSET, errors="xmlcharrefreplace")


def shown(when: datetime, now: datetime, *, joiner: str = ",&nbsp;",
          time_span: bool = True) -> str:
    """A time as vB 4 prints it in the Russian pack: «Сегодня», «Вчера» or ``d.m.Y``."""
    local, today = when.astimezone(BOARD_ZONE), now.astimezone(BOARD_ZONE).date()
    if local.date() == today:
        day = "Сегодня"
    elif local.date() == today - timedelta(days=1):
        day = "Вчера"
    else:
        day = f"{local:%d.%m.%Y}"
    clock = f"{local:%H:%M}"
    if not time_span:
        return f"{day}{joiner}{clock}"
    return f'{day}{joiner}<span class="time">{clock}</span>'


# --------------------------------------------------------------------------- post bodies

def quote(author: str, post_id: int, text: str) -> str:
    """[QUOTE=author;post_id] in vB 4 (template bbcode_quote, Russian pack)."""
    return (
        '<div class="bbcode_container">\n\t<div class="bbcode_quote">\n'
        '\t\t<div class="quote_container">\n\t\t\t<div class="bbcode_quote_container"></div>\n'
        '\t\t\t\t<div class="bbcode_postedby">\n'
        '\t\t\t\t\t<img src="images/misc/quote_icon.png" alt="Цитата" /> Сообщение от '
        f'<strong>{esc(author)}</strong>\n'
        f'\t\t\t\t\t<a href="showthread.php?p={post_id}#post{post_id}" rel="nofollow">'
        '<img class="inlineimg" src="images/buttons/viewpost-right.png" '
        'alt="Посмотреть сообщение" /></a>\n\t\t\t\t</div>\n'
        f'\t\t\t\t<div class="message">{text}</div>\n\t\t\t\n\t\t</div>\n\t</div>\n</div>')


def plain_quote(text: str) -> str:
    """[QUOTE] without an author: the text right in ``div.quote_container``."""
    return ('<div class="bbcode_container"><div class="bbcode_quote"><div class="quote_container">'
            f'<div class="bbcode_quote_container"></div>{text}</div></div></div>')


def code(text: str) -> str:
    return ('<div class="bbcode_container"><div class="bbcode_description">Код:</div>'
            f'<pre class="bbcode_code" style="height:36px;">{esc(text)}</pre></div>')


def red(nick: str, *, font: bool = False) -> str:
    """[COLOR=Red]: vB renders ``<font color="Red">``; a WYSIWYG paste keeps a span."""
    if font:
        return f'<font color="Red">{esc(nick)}</font>'
    return f'<span style="color: #ff0000;">{esc(nick)}</span>'


def vote(nick: str, reason: str, *, font: bool = True) -> str:
    return f"{esc(reason)}<br />\nМой голос: {red(nick, font=font)}"


# --------------------------------------------------------------------------- vB 4 pages

def _navbar(user: tuple[str, int] | None) -> str:
    if user is None:
        return (
            '<form id="navbar_loginform" action="login.php?do=login" method="post" '
            'onsubmit="md5hash(vb_login_password, vb_login_md5password, '
            'vb_login_md5password_utf, 0)">\n'
            '<input type="text" class="textbox default-value" name="vb_login_username" '
            'id="navbar_username" value="Имя" />\n'
            '<input type="password" class="textbox" name="vb_login_password" '
            'id="navbar_password" />\n'
            '<input type="text" class="textbox default-value" name="vb_login_password_hint" '
            'value="Пароль" style="display:none;" />\n'
            '<label><input type="checkbox" name="cookieuser" value="1" '
            'id="cb_cookieuser_navbar" /> Запомнить?</label>\n'
            '<input type="submit" class="loginbutton" value="Вход" />\n'
            '<input type="hidden" name="s" value="" />\n'
            '<input type="hidden" name="securitytoken" value="guest" />\n'
            '<input type="hidden" name="do" value="login" />\n'
            '<input type="hidden" name="vb_login_md5password" />\n'
            '<input type="hidden" name="vb_login_md5password_utf" />\n</form>')
    name, uid = user
    return (f'<ul class="isuser"><li class="welcomelink">Добро пожаловать, '
            f'<a href="member.php?u={uid}">{esc(name)}</a></li>\n'
            '<li><a href="login.php?do=logout&amp;logouthash=1764000000-abc" '
            'onclick="return log_out(\'Вы уверены?\')">Выход</a></li></ul>')


def page_shell(title: str, body: str, *, now: datetime, user: tuple[str, int] | None,
               token: str = "guest") -> str:
    clock = now.astimezone(BOARD_ZONE)
    return (
        '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" '
        '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">\n'
        '<html xmlns="http://www.w3.org/1999/xhtml" dir="ltr" lang="ru" id="vbulletin_html">\n'
        '<head>\n\t<meta http-equiv="Content-Type" content="text/html; charset=windows-1251" />\n'
        '<meta name="generator" content="vBulletin 4.2.2" />\n'
        f'<script type="text/javascript">\n<!--\n\tvar SECURITYTOKEN = "{token}";\n// -->\n'
        '</script>\n'
        f'\t<title> {esc(title)}</title>\n</head>\n<body>\n<div class="above_body">\n'
        f'<div id="toplinks" class="toplinks">{_navbar(user)}</div>\n</div>\n'
        f'<div class="body_wrapper">\n{body}\n</div>\n'
        '<div id="footer" class="floatcontainer footer"></div>\n'
        '<div class="below_body">\n<div id="footer_time" class="shade footer_time">'
        f'Часовой пояс GMT +3, время: <span class="time">{clock:%H:%M}</span>.</div>\n'
        '<div id="footer_copyright" class="shade footer_copyright">Powered by vBulletin&reg; '
        'Version 4.2.2</div>\n</div>\n</body>\n</html>\n')


def post_block(post: VbPost, number: int, now: datetime) -> str:
    edit = ""
    if post.edited_by and post.edited_at:
        edit = (
            '\n\t\t\t<!-- edit note -->\n\t\t\t<blockquote class="postcontent lastedited">\n'
            f'\t\t\t\tПоследний раз редактировалось {esc(post.edited_by)}; '
            f'{shown(post.edited_at, now, joiner=" в ")}.\n\t\t\t</blockquote>\n'
            '\t\t\t<!-- / edit note -->')
    name = esc(post.author)
    return f'''<li class="postbitlegacy postbitim postcontainer old" id="post_{post.post_id}">
<!-- see bottom of postbit.css for .userinfo .popupmenu styles -->
	<div class="posthead">
			<span class="postdate old">
					<span class="date">{shown(post.posted_at, now)}</span>
			</span>
			<span class="nodecontrols">
					<a name="post{post.post_id}"
						href="showthread.php?p={post.post_id}&amp;viewfull=1#post{post.post_id}"
						class="postcounter">#{number}</a><a id="postcount{post.post_id}"
						name="{number}"></a>
			</span>
	</div>
	<div class="postdetails">
		<div class="userinfo">
			<div class="username_container">
				<div class="popupmenu memberaction">
	<a class="username offline popupctrl" href="member.php?u={post.author_id}"
		title="{name} вне форума"><strong>{name}</strong></a>
	<ul class="popupbody popuphover memberaction_body">
		<li class="left"><a href="member.php?u={post.author_id}"
			class="siteicon_profile">Просмотр профиля</a></li>
		<li class="left"><a href="private.php?do=newpm&amp;u={post.author_id}"
			class="siteicon_message" rel="nofollow">Личное сообщение</a></li>
	</ul>
</div>
			</div>
			<span class="usertitle">Игрок</span>
		</div>
		<div class="postbody">
			<div class="postrow">
				<div class="content">
					<div id="post_message_{post.post_id}">
						<blockquote class="postcontent restore ">
							{post.body}
						</blockquote>
					</div>
				</div>
			</div>{edit}
			<div class="cleardiv"></div>
		</div>
	</div>
		<div class="postfoot">
			<div class="textcontrols floatcontainer">
				<span class="postcontrols">
						<a id="qrwq_{post.post_id}" class="newreply"
							href="newreply.php?do=newreply&amp;p={post.post_id}" rel="nofollow"
							title="Ответить с цитированием"><img src="clear.gif"
							alt="Ответить с цитированием" />  Ответить с цитированием</a>
				</span>
			</div>
		</div>
	<hr />
</li>
'''


def _pagination(topic: int, page: int, pages: int, first: int, last: int, total: int) -> str:
    stats = (f'<div id="postpagestats_above" class="postpagestats">Показано с {first} по '
             f'{last} из {total}</div>')
    if pages <= 1:
        return f'<div id="pagination_top" class="pagination_top">{stats}</div>'
    links = "".join(
        f'<span class="selected"><a href="javascript://" title="Показано с {first} по '
        f'{last} из {total}">{k}</a></span>' if k == page else
        f'<span><a href="showthread.php?t={topic}&amp;page={k}">{k}</a></span>'
        for k in range(1, pages + 1))
    nxt = (f'<span class="prev_next"><a rel="next" href="showthread.php?t={topic}&amp;page='
           f'{page + 1}" title="Следующая страница"><img src="images/pagination/next-right.png"'
           ' alt="Следующая" /></a></span>') if page < pages else ""
    return (
        '<div id="pagination_top" class="pagination_top">\n'
        f'<form action="showthread.php?t={topic}&amp;page={min(page + 1, pages)}" method="get"'
        ' class="pagination popupmenu nohovermenu">\n'
        f'<input type="hidden" name="t" value="{topic}" />\n'
        f'<span><a href="javascript://" class="popupctrl">Страница {page} из {pages}</a></span>'
        f'\n{links}\n{nxt}\n</form>\n{stats}\n</div>')


def thread_page(topic: int, title: str, posts: list[VbPost], page: int, per_page: int, *,
                now: datetime, user: tuple[str, int] | None = None) -> str:
    """Page ``page`` of a vB 4 thread (clamped to the last page, as vBulletin does)."""
    pages = max(1, -(-len(posts) // per_page))
    page = min(max(1, page), pages)
    start = (page - 1) * per_page
    shown_posts = posts[start:start + per_page]
    blocks = "".join(post_block(p, start + i, now)
                     for i, p in enumerate(shown_posts, start=1))
    body = (
        '<div id="above_postlist" class="above_postlist">\n'
        + _pagination(topic, page, pages, start + 1, start + len(shown_posts), len(posts))
        + f'\n</div>\n<div id="pagetitle" class="pagetitle">\n<h1>\n\tТема: <span '
        f'class="threadtitle"><a href="showthread.php?t={topic}">{esc(title)}</a></span>\n'
        '</h1>\n</div>\n<div id="postlist" class="postlist restrain">\n'
        f'<ol id="posts" class="posts" start="{start + 1}">\n{blocks}</ol>\n</div>')
    suffix = f" - Страница {page}" if page > 1 else ""
    return page_shell(title + suffix, body, now=now, user=user)


def message_page(text: str, *, now: datetime, user: tuple[str, int] | None,
                 login: bool = False) -> str:
    """vBulletin's message box (STANDARD_ERROR), with the login form for a guest."""
    form = ""
    if login:
        form = ('<form class="vbform block" action="login.php?do=login" method="post">'
                '<input type="text" name="vb_login_username" /><input type="password" '
                'name="vb_login_password" /><input type="hidden" name="securitytoken" '
                'value="guest" /><input type="hidden" name="do" value="login" /></form>')
    body = (f'<div class="standard_error"><h2 class="blockhead">Сообщение</h2>'
            f'<div class="blockbody formcontrols"><div class="blockrow restore">{esc(text)}'
            f'</div></div></div>{form}')
    return page_shell("Сообщение", body, now=now, user=user)


def redirect_page(text: str, target: str, *, now: datetime, user: tuple[str, int]) -> str:
    """vBulletin's redirect page (STANDARD_REDIRECT) with a refresh to ``target``."""
    body = (f'<meta http-equiv="Refresh" content="2; URL={esc(target)}" />'
            f'<div class="standard_error"><div class="blockrow restore">{esc(text)} '
            f'<a href="{esc(target)}">Нажмите здесь, если браузер не перенаправит вас.</a>'
            '</div></div>')
    return page_shell("Перенаправление", body, now=now, user=user)


# --------------------------------------------------------------------------- PMs and forms

def pm_folder_page(pms: list[VbPm], *, now: datetime, user: tuple[str, int],
                   unread: set[int]) -> str:
    mark = ' class="unread"'
    rows = "".join(
        f'<li class="blockrow pmbit" id="pm_{pm.pm_id}">\n'
        f'<div class="datetime"><span class="date">{shown(pm.sent_at, now, joiner=", ")}'
        f'</span></div>\n<span{mark if pm.pm_id in unread else ""}>'
        f'<a href="private.php?do=showpm&amp;pmid={pm.pm_id}" class="title">{esc(pm.subject)}'
        '</a></span>\n<ol class="commalist"><li><a href="member.php?u='
        f'{pm.sender_id}" class="username understate">{esc(pm.sender)}</a></li></ol>\n</li>\n'
        for pm in sorted(pms, key=lambda p: p.sent_at, reverse=True))
    body = ('<form action="private.php?do=managepm&amp;folderid=0" method="post" id="pmform">'
            f'<ol class="pmlist" id="pmlist_0">\n{rows}</ol></form>')
    return page_shell("Личные сообщения", body, now=now, user=user, token="1764-tok")


def pm_page(pm: VbPm, *, now: datetime, user: tuple[str, int]) -> str:
    body = f'''<div id="showpm"><ol id="posts">
<li class="postbitlegacy postbitim postcontainer" id="post_">
<div class="posthead"><span class="postdate"><span class="date">{shown(pm.sent_at, now)}</span>
</span></div>
<div class="postdetails"><div class="userinfo"><div class="username_container">
<a class="username offline popupctrl" href="member.php?u={pm.sender_id}"
 ><strong>{esc(pm.sender)}</strong></a>
</div></div>
<div class="postbody"><div class="postrow"><h2 class="title icon">{esc(pm.subject)}</h2>
<div class="content"><div id="post_message_"><blockquote class="postcontent restore"
 >{pm.body}</blockquote></div></div>
</div></div></div></li></ol></div>'''
    return page_shell(pm.subject, body, now=now, user=user, token="1764-tok")


def reply_form(topic: int, *, now: datetime, user: tuple[str, int], token: str) -> str:
    body = (
        f'<form action="newreply.php?do=postreply&amp;t={topic}" method="post" name="vbform" '
        'id="vbform">\n<input type="text" class="primary textbox" name="title" value="" />\n'
        '<textarea name="message" id="vB_Editor_001_editor" rows="10" cols="60"></textarea>\n'
        '<input type="hidden" name="wysiwyg" value="1" />\n'
        '<input type="hidden" name="s" value="" />\n'
        f'<input type="hidden" name="securitytoken" value="{token}" />\n'
        '<input type="hidden" name="do" value="postreply" />\n'
        f'<input type="hidden" name="t" value="{topic}" />\n'
        '<input type="hidden" name="p" value="" />\n'
        '<input type="hidden" name="posthash" value="0f1e2d" />\n'
        '<input type="hidden" name="poststarttime" value="1764000000" />\n'
        f'<input type="hidden" name="loggedinuser" value="{user[1]}" />\n'
        '<input type="checkbox" name="signature" value="1" checked="checked" />\n'
        '<input type="checkbox" name="parseurl" value="1" checked="checked" />\n'
        '<input type="submit" class="button" name="sbutton" value="Ответить" />\n'
        '<input type="submit" class="button" name="preview" value="Предварительный просмотр" />'
        '\n</form>')
    return page_shell("Ответить в теме", body, now=now, user=user, token=token)


def pm_form(*, now: datetime, user: tuple[str, int], token: str) -> str:
    body = (
        '<form action="private.php?do=insertpm&amp;pmid=" method="post" name="vbform">\n'
        '<textarea name="recipients" rows="1" cols="50"></textarea>\n'
        '<input type="text" class="textbox" name="title" value="" />\n'
        '<textarea name="message" id="vB_Editor_001_editor"></textarea>\n'
        f'<input type="hidden" name="securitytoken" value="{token}" />\n'
        '<input type="hidden" name="do" value="insertpm" />\n'
        '<input type="hidden" name="pmid" value="" />\n'
        '<input type="checkbox" name="savecopy" value="1" checked="checked" />\n'
        '<input type="submit" class="button" name="sbutton" value="Отправить" />\n</form>')
    return page_shell("Новое сообщение", body, now=now, user=user, token=token)


# --------------------------------------------------------------------------- vB 3

def vb3_quote(author: str | None, post_id: int, text: str) -> str:
    """[QUOTE] in vB 3's template (bbcode_quote), Russian pack («Цитата:», «Сообщение от»)."""
    head = ""
    if author:
        head = (f'<div>\n\t\t\t\t\tСообщение от <strong>{esc(author)}</strong>\n'
                f'\t\t\t\t\t<a href="showthread.php?p={post_id}#post{post_id}" rel="nofollow">'
                '<img class="inlineimg" src="images/buttons/viewpost.gif" border="0" '
                'alt="Посмотреть сообщение" /></a>\n\t\t\t\t</div>\n'
                f'\t\t\t\t<div style="font-style:italic">{text}</div>')
    return ('<div style="margin:20px; margin-top:5px; ">\n\t<div class="smallfont" '
            'style="margin-bottom:2px">Цитата:</div>\n\t<table cellpadding="6" cellspacing="0" '
            'border="0" width="100%">\n\t<tr>\n\t\t<td class="alt2" style="border:1px inset">\n'
            f'\t\t\t\t{head or text}\n\t\t</td>\n\t</tr>\n\t</table>\n</div>')


def vb3_post(post: VbPost, number: int, now: datetime) -> str:
    edit = ""
    if post.edited_by and post.edited_at:
        edit = ('<!-- edit note -->\n\t\t\t<div class="smallfont" style="clear:both;">\n'
                '\t\t\t\t<hr size="1" />\n\t\t\t\t<em>\n\t\t\t\t\tПоследний раз '
                f'редактировалось {esc(post.edited_by)}; '
                f'{shown(post.edited_at, now, joiner=" в ")}.\n\t\t\t\t</em>\n'
                '\t\t\t</div>\n\t\t<!-- / edit note -->')
    return f'''<table id="post{post.post_id}" class="tborder" cellpadding="6" cellspacing="0"
 border="0" width="100%" align="center">
<tr>
		<td class="thead" style="font-weight:normal" >
			<!-- status icon and date -->
			<a name="post{post.post_id}"><img class="inlineimg"
				src="images/statusicon/post_old.gif" alt="Старое" border="0" /></a>
			{shown(post.posted_at, now, time_span=False)}
			<!-- / status icon and date -->
		</td>
		<td class="thead" style="font-weight:normal" align="right">
			&nbsp;
			#<a href="showpost.php?p={post.post_id}&amp;postcount={number}" target="new"
				rel="nofollow" id="postcount{post.post_id}" name="{number}"
				><strong>{number}</strong></a>
		</td>
</tr>
<tr valign="top">
	<td class="alt2" width="175">
			<div id="postmenu_{post.post_id}">
				<a class="bigusername" href="member.php?u={post.author_id}">{esc(post.author)}</a>
				<script type="text/javascript">
				vbmenu_register("postmenu_{post.post_id}", true); </script>
			</div>
			<div class="smallfont">Игрок</div>
	</td>
	<td class="alt1" id="td_post_{post.post_id}">
		<!-- message -->
		<div id="post_message_{post.post_id}">{post.body}</div>
		<!-- / message -->
		<div style="clear:both;">
		{edit}
		</div>
	</td>
</tr>
</table>
'''


def vb3_thread_page(topic: int, title: str, posts: list[VbPost], *, now: datetime) -> str:
    blocks = "".join(vb3_post(p, i, now) for i, p in enumerate(posts, start=1))
    clock = now.astimezone(BOARD_ZONE)
    return (
        '<html dir="ltr" lang="ru">\n<head>\n<meta http-equiv="Content-Type" '
        'content="text/html; charset=windows-1251" />\n'
        '<meta name="generator" content="vBulletin 3.8.7" />\n'
        f'<title>{esc(title)} - Форумная мафия</title>\n</head>\n<body>\n'
        '<table><tr><td class="navbar"><a href="index.php">Форум</a> '
        f'<strong>{esc(title)}</strong></td></tr></table>\n'
        f'<div id="posts">{blocks}</div>\n'
        '<div class="smallfont" align="center">Часовой пояс GMT +3, время: '
        f'<span class="time">{clock:%H:%M}</span>.</div>\n</body>\n</html>\n')


__all__ = [
    "BOARD_ZONE",
    "VbPm",
    "VbPost",
    "code",
    "encode",
    "message_page",
    "pm_folder_page",
    "pm_form",
    "pm_page",
    "plain_quote",
    "quote",
    "red",
    "redirect_page",
    "reply_form",
    "thread_page",
    "vb3_quote",
    "vb3_thread_page",
    "vote",
]
