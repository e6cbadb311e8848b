"""The page around the post blocks of :mod:`phpbb_variants`, per family: prosilver 3.1+ (and
the styles built on it), prosilver 3.0 (and phpBBex), subsilver2; with each family's
pagination and title; and subsilver2's PM pages."""

from __future__ import annotations

from phpbb_variants import TITLE, TOPIC, Vp, ru_date, user30

FAMILY = {
    "prosilver 3.0": "3.0",
    "phpBBex": "3.0",
    "subsilver2 3.0": "subsilver2",
    "subsilver2 3.3 port": "subsilver2",
}
"""Variant → page family; every other variant is prosilver 3.1+."""


def family(variant: str) -> str:
    return FAMILY.get(variant, "3.1+")


def _head(title: str) -> str:
    return ('<!DOCTYPE html>\n<html dir="ltr" lang="ru">\n<head><meta charset="utf-8" />'
            f"<title>{title}</title></head>\n")


def pagination31(page: int, pages: int, per_page: int, total: int) -> str:
    """3.1+ ``pagination.html`` inside ``div.pagination``."""
    if pages == 1:
        return (f'<div class="pagination">{total} сообщений &bull; Страница <strong>1</strong>'
                " из <strong>1</strong></div>")

    def href(n: int) -> str:
        return TOPIC if n == 1 else f"{TOPIC}&amp;start={(n - 1) * per_page}"

    items = []
    if page > 1:
        items.append(f'<li class="arrow previous"><a class="button button-icon-only" href="'
                     f'{href(page - 1)}" rel="prev" role="button"><span class="sr-only">Пред.'
                     "</span></a></li>")
    for n in range(1, pages + 1):
        items.append(f'<li class="active"><span>{n}</span></li>' if n == page else
                     f'<li><a class="button" href="{href(n)}" role="button">{n}</a></li>')
    if page < pages:
        items.append(f'<li class="arrow next"><a class="button button-icon-only" href="'
                     f'{href(page + 1)}" rel="next" role="button"><span class="sr-only">След.'
                     "</span></a></li>")
    return f'<div class="pagination">{total} сообщений<ul>{"".join(items)}</ul></div>'


def pagination30(page: int, pages: int, per_page: int, total: int) -> str:
    """3.0 ``generate_pagination()`` in prosilver's ``div.pagination``."""
    if pages == 1:
        return (f'<div class="pagination">Сообщений: {total} &bull; Страница <strong>1</strong>'
                " из <strong>1</strong></div>")
    links = []
    for n in range(1, pages + 1):
        href = TOPIC if n == 1 else f"{TOPIC}&amp;start={(n - 1) * per_page}"
        links.append(f"<strong>{n}</strong>" if n == page else f'<a href="{href}">{n}</a>')
    return (f'<div class="pagination">Сообщений: {total} &bull; <a href="#" onclick="jumpto();'
            f' return false;" title="Перейти на страницу…">Страница <strong>{page}</strong> '
            f"из <strong>{pages}</strong></a> &bull; <span>"
            f'{"<span class=page-sep>, </span>".join(links)}</span></div>')


def pagination_sub(page: int, pages: int, per_page: int, total: int) -> str:
    """subsilver2: «Страница N из M», «[ Сообщений: N ]», «На страницу … След.»."""
    links = []
    for n in range(1, pages + 1):
        href = TOPIC if n == 1 else f"{TOPIC}&amp;start={(n - 1) * per_page}"
        links.append(f"<strong>{n}</strong>" if n == page else f'<a href="{href}">{n}</a>')
    nxt = (f'&nbsp;&nbsp;<a href="{TOPIC}&amp;start={page * per_page}">След.</a>'
           if page < pages else "")
    jump = ('<b><a href="#" onclick="jumpto(); return false;" title="Перейти на страницу…">'
            f'На страницу</a> {"<span class=page-sep>, </span>".join(links)}{nxt}</b>'
            if pages > 1 else "")
    return ('<table width="100%" cellspacing="1"><tr><td class="nav" valign="middle" nowrap="'
            f'nowrap">&nbsp;Страница <strong>{page}</strong> из <strong>{pages}</strong><br />'
            f'</td><td class="gensmall" nowrap="nowrap">&nbsp;[ Сообщений: {total} ]&nbsp;</td>'
            f'<td class="gensmall" width="100%" align="right" nowrap="nowrap">{jump}</td></tr>'
            "</table>")


def topic_page(variant: str, posts: str, *, page: int = 1, pages: int = 1,
               per_page: int = 10, total: int = 3, title: str = TITLE,
               heading: bool = True) -> str:
    """A whole topic page of the variant's family holding ``posts`` (``total`` posts in
    the topic)."""
    kind = family(variant)
    logout = ('<a href="./ucp.php?mode=logout&amp;sid=0123456789abcdef0123456789abcdef">'
              "Выход [ Ведущий ]</a>")
    if kind == "subsilver2":
        bar = pagination_sub(page, pages, per_page, total)
        head = (f'<div id="pageheader"><h2><a class="titles" href="{TOPIC}">{title}</a></h2>'
                "</div>" if heading else "")
        return (_head(f"Форумная мафия &bull; Просмотр темы - {title}") + "<body><div id="
                f'"wrapheader">{logout}</div><div id="wrapcentre">{head}<div id="pagecontent">'
                f'{bar}{posts}{bar}</div></div><div id="wrapfooter"></div></body></html>')
    if kind == "3.0":
        bar = pagination30(page, pages, per_page, total)
        head = f'<h2><a href="{TOPIC}">{title}</a></h2>' if heading else ""
        return (_head(f"Форумная мафия &bull; Просмотр темы - {title}") + '<body id="phpbb" '
                f'class="section-viewtopic ltr"><div id="wrap"><div id="page-header">{logout}'
                f'</div><div id="page-body">{head}<div class="topic-actions">{bar}</div>'
                f'<div class="clear"></div>{posts}<div class="topic-actions">{bar}</div></div>'
                "</div></body></html>")
    bar = pagination31(page, pages, per_page, total)
    head = f'<h2 class="topic-title"><a href="{TOPIC}">{title}</a></h2>' if heading else ""
    suffix = f" - Страница {page}" if page > 1 else ""
    return (_head(f"{title}{suffix} - Форумная мафия") + '<body id="phpbb" class="nojs '
            'notouch section-viewtopic ltr"><div id="wrap" class="wrap"><ul id="nav-main">'
            f'<li id="username_logged_in">{logout}</li></ul><div id="page-body" class='
            f'"page-body" role="main">{head}<div class="action-bar bar-top">{bar}</div>{posts}'
            f'<div class="action-bar bar-bottom">{bar}</div></div></div></body></html>')


# --------------------------------------------------------------------------- subsilver2 PMs

def subsilver_pm_page(vp: Vp, *, subject: str, to: list[tuple[str, int]],
                      folder_id: int = 0) -> str:
    """``ucp_pm_viewmessage.html`` of subsilver2 (3.0)."""
    recipients = "".join(
        f'<a href="./memberlist.php?mode=viewprofile&amp;u={uid}">{name}</a>&nbsp;'
        for name, uid in to)
    return (
        _head("Форумная мафия &bull; Личный раздел &bull; Просмотр сообщения") + "<body>"
        '<div id="wrapheader"><a href="./ucp.php?mode=logout&amp;sid=0">Выход [ Ведущий ]</a>'
        '</div><div id="pagecontent"><table class="tablebg" width="100%" cellspacing="1" '
        'cellpadding="0"><tr><td class="row1"><span class="gensmall"><a href="./ucp.php?i=pm'
        f'&amp;mode=view&amp;f={folder_id}&amp;p={vp.post_id}&amp;view=previous">Предыдущее ЛС'
        "</a> | <a href=\"#\">Следующее ЛС</a></span></td></tr></table>"
        '<table class="tablebg" width="100%" cellspacing="1" cellpadding="4">'
        '<tr class="row1"><td class="genmed" nowrap="nowrap" width="150"><b>Заголовок '
        f'сообщения:</b></td><td class="gen">{subject}</td></tr>'
        '<tr class="row1"><td class="genmed" nowrap="nowrap" width="150"><b>От:</b></td>'
        f'<td class="gen">{user30(vp)}</td></tr>'
        '<tr class="row1"><td class="genmed" nowrap="nowrap" width="150"><b>Отправлено:</b>'
        f'</td><td class="gen">{ru_date(vp.at, "d M Y, H:i")}</td></tr>'
        '<tr class="row1"><td class="genmed" nowrap="nowrap" width="150"><b>Кому:</b></td>'
        f'<td class="gen">{recipients}</td></tr></table>'
        '<table class="tablebg" width="100%" cellspacing="1" cellpadding="0"><tr><th nowrap='
        '"nowrap">Сообщение</th></tr><tr class="row1"><td valign="top"><table width="100%" '
        f'cellspacing="5"><tr><td><div class="postbody">{vp.body}</div>'
        + (f'<span class="postbody"><br />_________________<br />{vp.signature}</span>'
           if vp.signature else "")
        + '</td></tr></table></td></tr></table><form name="movepm" method="post" action="./ucp'
        f'.php?i=pm&amp;mode=view&amp;f={folder_id}"><input type="hidden" name="marked_msg_id[]" '
        f'value="{vp.post_id}" /><input type="hidden" name="cur_folder_id" value="{folder_id}" />'
        f'<input type="hidden" name="p" value="{vp.post_id}" /></form></div></body></html>')


def subsilver_folder_page(rows: list[tuple[Vp, str, bool]], *, folder_id: int = 0,
                          recipients: dict[int, list[tuple[str, int]]] | None = None,
                          deleted: int | None = None) -> str:
    """``ucp_pm_viewfolder.html`` of subsilver2 (3.0): rows of (message, subject, unread);
    in sent folders ``recipients`` names whom each went to; ``deleted`` is the id of a
    message its author deleted before it was read."""
    out = []
    for vp, subject, unread in rows:
        image = "topic_unread.gif" if unread else "topic_read.gif"
        people = (", ".join(f'<a href="./memberlist.php?mode=viewprofile&amp;u={uid}"><span>'
                            f"{name}</span></a>" for name, uid in recipients[vp.post_id])
                  if recipients else user30(vp))
        if vp.post_id == deleted:
            title = ("Это сообщение было удалено его автором до прочтения.<br /><a href=\"./ucp"
                     f'.php?i=pm&amp;mode=compose&amp;action=delete&amp;p={vp.post_id}" style="'
                     'float: right;">Удалить сообщение</a>')
        else:
            title = (f'<a href="./ucp.php?i=pm&amp;mode=view&amp;f={folder_id}&amp;p='
                     f'{vp.post_id}">{subject}</a>')
        out.append(
            f'<tr><td class="row1" width="25" align="center" nowrap="nowrap"><img src="./styles/'
            f'subsilver2/imageset/{image}" width="19" height="18" alt="" /></td>'
            f'<td class="row1"><span class="topictitle">{title}</span></td>'
            f'<td class="row1" width="100" align="center"><p class="topicauthor">{people}</p></td>'
            f'<td class="row1" width="120" align="center"><p class="topicdetails">'
            f'{ru_date(vp.at, "d M Y, H:i")}</p></td><td class="row1" width="20" align="center">'
            f'<p class="topicdetails"><input type="checkbox" class="radio" name="marked_msg_id[]" '
            f'value="{vp.post_id}" /></p></td></tr>')
    who = "Получатели" if recipients else "Автор"
    return (
        _head("Форумная мафия &bull; Личный раздел &bull; Личные сообщения") + "<body>"
        '<div id="wrapheader"><a href="./ucp.php?mode=logout&amp;sid=0">Выход [ Ведущий ]</a>'
        '</div><div id="pagecontent"><table class="tablebg" width="100%"><tr><td class="nav">'
        "&nbsp;Страница <strong>1</strong> из <strong>1</strong><br /></td></tr></table>"
        '<form name="viewfolder" method="post" action="./ucp.php?i=pm&amp;mode=view&amp;action='
        f'view_folder&amp;f={folder_id}" style="margin:0px"><table class="tablebg" width="100%" '
        f'cellspacing="1"><tr><th colspan="2">&nbsp;Тема&nbsp;</th><th>&nbsp;{who}&nbsp;</th>'
        "<th>&nbsp;Отправлено&nbsp;</th><th>&nbsp;Отметить&nbsp;</th></tr>" + "".join(out)
        + f'</table><input type="hidden" name="cur_folder_id" value="{folder_id}" />'
        '<table><tr><td class="cat"><div><select name="export_option"><option value="CSV">'
        'Экспорт в CSV</option><option value="XML">Экспорт в XML</option></select>&nbsp;<input '
        'class="btnlite" type="submit" name="submit_export" value="Экспортировать папку" />'
        '</div></td></tr></table><input type="hidden" name="creation_time" value="1700000000" />'
        '<input type="hidden" name="form_token" value="abc" /></form></div></body></html>')
