"""An SMF 2.0 PM folder page (theme Curve, display mode 0 «все сразу»), written from SMF 2.0's
``PersonalMessage.template.php`` (``template_folder``, ``template_subject_list``) and the
2.0.12 Russian pack: the subject list without cell classes, then every message of the page.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from smf_variants import BOARD, MOSCOW, esc, page_index, shown


@dataclass(frozen=True, slots=True)
class Pm20:
    pm_id: int
    sender: str
    sender_id: int
    to: str
    sent_at: datetime
    subject: str
    body: str
    unread: bool = False


def _row(pm: Pm20, now: datetime, alternate: bool) -> str:
    new = '&nbsp;<img src="http://mafia.test/forum/Themes/default/images/russian/new.gif" ' \
          'alt="Новый" />' if pm.unread else ""
    return f'''
  <tr class="{"windowbg" if alternate else "windowbg2"}">
   <td align="center" width="4%">
   <script type="text/javascript"><!-- // --><![CDATA[
    currentLabels[{pm.pm_id}] = {{}};
   // ]]></script>
    <img src="http://mafia.test/forum/Themes/default/images/icons/pm_read.gif" alt="Прочтено" />
   </td>
   <td>{shown(pm.sent_at, now)}</td>
   <td><a href="#msg{pm.pm_id}">{esc(pm.subject)}</a>{new}</td>
   <td><a href="{BOARD}?action=profile;u={pm.sender_id}" title="Просмотр профиля \\
{esc(pm.sender)}">{esc(pm.sender)}</a></td>
   <td align="center" width="4%"><input type="checkbox" name="pms[]" \\
id="deletelisting{pm.pm_id}" value="{pm.pm_id}" class="input_check" /></td>
  </tr>'''


def _message(pm: Pm20, now: datetime, alternate: bool) -> str:
    return f'''
 <div class="{"windowbg2" if alternate else "windowbg"} clear">
  <span class="topslice"><span></span></span>
  <div class="poster">
   <a id="msg{pm.pm_id}"></a>
   <h4>
    <a href="{BOARD}?action=profile;u={pm.sender_id}" title="Просмотр профиля \\
{esc(pm.sender)}">{esc(pm.sender)}</a>
   </h4>
   <ul class="reset smalltext" id="msg_{pm.pm_id}_extra_info">
    <li class="postgroup">Новичок</li>
   </ul>
  </div>
  <div class="postarea">
   <div class="flow_hidden">
    <div class="keyinfo">
     <h5 id="subject_{pm.pm_id}">
      {esc(pm.subject)}
     </h5>
     <span class="smalltext">&#171; <strong> Кому:</strong> <a href="{BOARD}?action=profile;\\
u=2" title="Просмотр профиля {esc(pm.to)}">{esc(pm.to)}</a>
      <strong> :</strong> {shown(pm.sent_at, now)} &#187;
     </span>
    </div>
    <ul class="reset smalltext quickbuttons">
     <li class="reply_button"><a href="{BOARD}?action=pm;sa=send;f=inbox;pmsg={pm.pm_id};\\
u={pm.sender_id}">Ответ</a></li>
     <li class="inline_mod_check"><input type="checkbox" name="pms[]" \\
id="deletedisplay{pm.pm_id}" value="{pm.pm_id}" class="input_check" /></li>
    </ul>
   </div>
   <div class="post">
    <div class="inner" id="msg_{pm.pm_id}">{pm.body}</div>
    <div class="smalltext reportlinks">
    </div>
    <div class="signature">Подпись <span style="color: red;" class="bbc_color">Лиса</span></div>
   </div>
   <br class="clear" />
  </div>
  <div class="moderatorbar">
  </div>
  <span class="botslice"><span></span></span>
 </div>'''


def folder20(pms: list[Pm20], *, now: datetime, page: int = 1, per_page: int = 25,
             total: int | None = None) -> str:
    total = total if total is not None else len(pms)
    start = (page - 1) * per_page
    index = page_index(start, total, per_page).replace(
        "?topic=7.", "?action=pm;f=inbox;sort=date;start=")
    rows = "".join(_row(pm, now, bool(i % 2)) for i, pm in enumerate(pms))
    messages = "".join(_message(pm, now, bool(i % 2)) for i, pm in enumerate(pms))
    clock = now.astimezone(MOSCOW)
    return f'''<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" \\
"http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
 <script type="text/javascript"><!-- // --><![CDATA[
  var smf_scripturl = "{BOARD}";
 // ]]></script>
 <meta http-equiv="Content-Type" content="text/html; charset=UTF-8" />
 <title>Личные сообщения</title>
</head>
<body>
<div id="header"><div class="user"><ul class="reset">
 <li class="greeting">Здравствуйте, <span>Ведущий</span></li>
 <li>{clock:%d.%m.%Y, %H:%M:%S}</li>
</ul></div></div>
<div id="main_content_section">
<div id="personal_messages">
<form class="flow_hidden" action="{BOARD}?action=pm;sa=pmactions;f=inbox;start={start}" \\
method="post" accept-charset="UTF-8" name="pmFolder">
 <table width="100%" class="table_grid">
 <thead>
  <tr class="catbg"><th>Дата</th><th>Тема</th><th>От</th><th></th><th></th></tr>
 </thead>
 <tbody>{rows}
 </tbody>
 </table>
 <div class="pagesection">
  <div class="floatleft">Страницы: {index}</div>
 </div>
 <div class="clear_right"><br /></div>
 <div class="cat_bar"><h3 class="catbg"><span id="author">Автор</span>
  <span id="topic_title">Сообщения</span></h3></div>{messages}
 <div class="pagesection">
  <div class="floatleft">Страницы: {index}</div>
 </div>
 <input type="hidden" name="d1fabad3" value="0123456789abcdef" />
</form>
</div>
</div>
</body></html>
'''


__all__ = ["Pm20", "folder20"]
