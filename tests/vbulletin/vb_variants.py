"""vBulletin posts the saved pages and tests/support/vbulletin/pages.py never printed, written
from vBulletin's templates with Russian game content: vB 3.8's ``postbit`` (not
``postbit_legacy``: the number «#N» and the date share the first ``td.thead``, each in a
``div.normal``), vB 4's ``postbit`` (horizontal, ``li.postbit``), guests' names
(``span.bigusername``, ``span.username.guest``), names in a usergroup's colour, a deleted
post's stub as a moderator sees it, and vB's «detailed» dates.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from support.vbulletin.pages import BOARD_ZONE, esc, page_shell, shown


@dataclass(frozen=True, slots=True)
class Author:
    name: str
    user_id: int | None
    """None: a guest, or a member since deleted (vB prints the name without a link)."""
    markup: str = ""
    """The usergroup's HTML around the name (``$post[musername]``), e.g. a colour."""

    def shown(self) -> str:
        return self.markup or esc(self.name)


def colour_name(name: str, colour: str = "#FF0000") -> str:
    return f'<span style="color: {colour};">{esc(name)}</span>'


def vb3_postbit(pid: int, number: int, who: Author, when: str, body: str) -> str:
    """vB 3.8 template ``postbit``: ``when`` is the date text as vB prints it."""
    if who.user_id is None:
        name = f'<span class="bigusername">{who.shown()}</span>'
    else:
        name = (f'<a class="bigusername" href="member.php?u={who.user_id}">{who.shown()}</a>\n'
                f'\t<script type="text/javascript"> vbmenu_register("postmenu_{pid}", true); '
                "</script>")
    return f'''<div id="edit{pid}" style="padding:0px 0px 6px 0px">
<table id="post{pid}" class="tborder" cellpadding="6" cellspacing="0" border="0" width="100%">
<tr>
 <td class="thead">
  <div class="normal" style="float:right">
   &nbsp;
   #<a href="showpost.php?p={pid}&amp;postcount={number}" target="new" rel="nofollow"
    id="postcount{pid}" name="{number}"><strong>{number}</strong></a> &nbsp;
  </div>
  <div class="normal">
   <!-- status icon and date -->
   <a name="post{pid}"><img class="inlineimg" src="images/statusicon/post_old.gif"
    alt="Старое" border="0" /></a>
   {when}
   <!-- / status icon and date -->
  </div>
 </td>
</tr>
<tr>
 <td class="alt2" style="padding:0px">
  <table cellpadding="0" cellspacing="6" border="0" width="100%">
  <tr>
   <td nowrap="nowrap">
    <div id="postmenu_{pid}">
     {name}
    </div>
    <div class="smallfont">Игрок</div>
   </td>
  </tr>
  </table>
 </td>
</tr>
<tr>
 <td class="alt1" id="td_post_{pid}">
  <!-- message -->
  <div id="post_message_{pid}">{body}</div>
  <!-- / message -->
  <div>__________________<br />Мой голос – <font color="Red">Подпись</font></div>
 </td>
</tr>
</table>
</div>
'''


def vb3_page(blocks: str, *, now: datetime, title: str = "Мафия №64") -> str:
    clock = now.astimezone(BOARD_ZONE)
    return (
        '<html dir="ltr" lang="ru">\n<head>\n<meta http-equiv="Content-Type" '
        'content="text/html; charset=windows-1251" />\n'
        '<meta name="generator" content="vBulletin 3.8.11" />\n'
        f"<title>{esc(title)} - Форумная мафия</title>\n</head>\n<body>\n"
        '<table><tr><td class="navbar"><a href="showthread.php?t=64"><img '
        'src="images/misc/navbits_finallink_ltr.gif" alt="Перезагрузить страницу" /></a> '
        f"<strong>{esc(title)}</strong></td></tr></table>\n"
        f'<div id="posts">{blocks}</div>\n'
        '<div class="smallfont" align="center">Часовой пояс GMT +3, время: '
        f'<span class="time">{clock:%H:%M}</span>.</div>\n</body>\n</html>\n')


def vb4_postbit(pid: int, number: int, who: Author, date_html: str, body: str, *,
                classes: str = "postbit postbitim postcontainer old") -> str:
    """vB 4.2 template ``postbit`` (horizontal): ``date_html`` is ``span.date``'s inside."""
    if who.user_id is None:
        name = f'<span class="username guest">{who.shown()}</span>'
    else:
        name = (f'<div class="popupmenu memberaction"><a class="username offline popupctrl" '
                f'href="member.php?u={who.user_id}" title="{esc(who.name)} вне форума">'
                f"<strong>{who.shown()}</strong></a></div>")
    return f'''<li class="{classes}" id="post_{pid}">
 <div class="postdetails_noavatar">
  <div class="posthead">
   <span class="postdate old"><span class="date">{date_html}</span></span>
   <span class="nodecontrols">
    <a name="post{pid}" href="showthread.php?p={pid}&amp;viewfull=1#post{pid}"
     class="postcounter">#{number}</a><a id="postcount{pid}" name="{number}"></a>
   </span>
  </div>
  <div class="userinfo_noavatar">
   <div class="contact"><div class="username_container">{name}</div>
    <span class="usertitle">Игрок</span></div>
  </div>
 </div>
 <div class="postbody">
  <div class="postrow">
   <h2 class="posttitle icon">Re: Мафия №64</h2>
   <div class="content">
    <div id="post_message_{pid}">
     <blockquote class="postcontent restore ">{body}</blockquote>
    </div>
   </div>
  </div>
  <div class="after_content"><blockquote class="signature restore"><div
   class="signaturecontainer">Мой голос – <font color="Red">Подпись</font></div></blockquote>
  </div>
 </div>
 <div class="postfoot"><div class="textcontrols floatcontainer"><span class="postcontrols">
  <a class="newreply" href="newreply.php?do=newreply&amp;p={pid}">Ответить с цитированием</a>
 </span></div></div>
 <hr />
</li>
'''


def vb4_page(blocks: str, *, now: datetime, total: int, first: int, last: int,
             title: str = "Мафия №64") -> str:
    stats = (f'<div id="postpagestats_above" class="postpagestats">Показано с {first} по '
             f"{last} из {total}</div>")
    body = (f'<div id="above_postlist" class="above_postlist"><div id="pagination_top" '
            f'class="pagination_top">{stats}</div></div>\n<div id="pagetitle" '
            f'class="pagetitle"><h1>Тема: <span class="threadtitle"><a '
            f'href="showthread.php?t=64">{esc(title)}</a></span></h1></div>\n'
            f'<div id="postlist" class="postlist restrain"><ol id="posts" class="posts" '
            f'start="{first}">\n{blocks}</ol></div>')
    return page_shell(title, body, now=now, user=("Ведущий", 2), token="1764-tok")


def vb4_deleted_stub(pid: int, number: int, who: Author, date_html: str, body: str) -> str:
    """A soft-deleted post as a moderator sees it (``postbitdeleted``), its text kept."""
    return vb4_postbit(pid, number, who, date_html,
                       f"Сообщение удалено модератором. Причина: флуд.<br />{body}",
                       classes="postbitdeleted postbitim postcontainer")


def vb4_date(when: datetime, now: datetime) -> str:
    return shown(when, now)


__all__ = [
    "Author",
    "colour_name",
    "vb3_page",
    "vb3_postbit",
    "vb4_date",
    "vb4_deleted_stub",
    "vb4_page",
    "vb4_postbit",
]
