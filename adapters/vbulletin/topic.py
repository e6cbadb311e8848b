"""vBulletin thread pages → referee value types. Pure: HTML text in, dataclasses out.

Three layouts: vB 4 ``li.postcontainer#post_P``, vB 3 ``table#postP`` with
``div#post_message_P``, vB 5 ``li.b-post[data-node-id]`` (README.md, «Thread pages», has
every fact and its source). Page kinds are told by the DOM, never by the HTTP status: a
guest sees the navbar login form on every vB 4 page, so a login form alone proves nothing."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo
from typing import NoReturn

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from adapters import charset
from adapters.html import classes as _classes
from adapters.html import element_children, squash
from adapters.paging import Place, page_size, read_index
from adapters.post_parts import edit_of, post, topic_page
from adapters.vbulletin.body import render_body, text_pieces
from adapters.vbulletin.dates import Order, date_order, footer_zone, vb_date
from referee.core.errors import (
    AccessDenied,
    DateParseError,
    ForumError,
    LoginRequired,
    MalformedPage,
    TopicNotFound,
)
from referee.core.kernel import EditNotice, TopicPage
from referee.core.markup import plain_text

_USER_ID = re.compile(r"(?:[?&;]u=|member\.php/|members?/)(\d+)")
_DIGITS = re.compile(r"\d+")
_PAGE_LINK = re.compile(r"[?&;]page=(\d+)|/page(\d+)(?:[/?#]|$)|-(\d+)\.html?(?:[?#]|$)")
_RESULTS = re.compile(
    r"(\d[\d,.\s\u00a0]*?)\s+(?:to|по)\s+(\d[\d,.\s\u00a0]*?)\s+(?:of|из)\s+(\d[\d,.\u00a0]*)",
    re.IGNORECASE)
_EDIT = re.compile(r"(?:Last edited by|Последний раз редактировалось)\s+(?P<rest>.+)",
                   re.IGNORECASE | re.S)
_REASON = re.compile(r"\s*(?:Reason|Причина)\s*:.*$", re.IGNORECASE | re.S)
_THREAD_WORD = re.compile(r"^(?:Thread|Тема)\s*:\s*", re.IGNORECASE)
_HINT_URL = ("Проверьте [forum] url (ссылка на тему) и что форум на vBulletin; если форум "
             "сильно изменён, сохраните страницу и передайте разработчикам.")
_HINT_LOGIN = ("Проверьте [forum] username и пароль (REFEREE_PASSWORD) и что у учётной "
               "записи ведущего есть доступ к разделу с игрой.")


def _norm(text: str | None) -> str:
    return squash(text or "")


def _shown(node: Node | None) -> str:
    """The node's text as a reader sees it; empty when the page lacks the node."""
    return _norm(node.text()) if node is not None else ""


def _first_shown(tree: LexborHTMLParser, selectors: tuple[str, ...]) -> str:
    """The text of the first of ``selectors`` that the page shows with words in it."""
    for selector in selectors:
        if text := _shown(tree.css_first(selector)):
            return text
    return ""


# ---------------------------------------------------------------------------------------
# Bytes → text
# ---------------------------------------------------------------------------------------

_SEARCH = ('id="navbar_search"', 'id="btnSearch"')
_UI_WORDS = ("Поиск", "Часовой пояс", "All times are", ">Search<", '"Search"')


reads_as_vbulletin = charset.reads_in_language(_SEARCH, _UI_WORDS)
"""Whether decoded page text reads as vBulletin in the board's language: a page with the
navbar's search (vB 3/4 ``#navbar_search``, vB 5 ``#btnSearch``) shows its language pack's
«Поиск» or the footer's «Часовой пояс» (English «Search», «All times are»)."""


def decode_page(content: bytes, content_type: str | None = None) -> str:
    """Page bytes → text for what is never stored (:func:`adapters.charset.decode_lenient`);
    pages that are parsed come through :meth:`adapters.base.HttpClient.get_text`."""
    return charset.decode_lenient(content, content_type, reads_right=reads_as_vbulletin)


# ---------------------------------------------------------------------------------------
# What kind of page
# ---------------------------------------------------------------------------------------


def is_logged_in(tree: LexborHTMLParser) -> bool:
    """A logged-in page has the «Log Out» link ``login.php?do=logout&logouthash=…``
    (verified: vBulletin3.html); a guest's has the navbar login form instead."""
    return tree.css_first('a[href*="do=logout"]') is not None


def message_text(tree: LexborHTMLParser) -> str:
    """The words of vBulletin's message/error box (vB 4 ``div.standard_error`` /
    ``div.blockrow``, vB 3 ``td.panelsurround div.panel``), empty when there is none."""
    return _first_shown(tree, ("div.standard_error div.blockrow", "div.standard_error",
                               "form.vbform div.blockrow.restore",
                               "td.panelsurround div.panel", "div.panel div"))[:300]


def raise_for_page(tree: LexborHTMLParser, url: str, expected: str) -> NoReturn:
    """The error that says why ``tree`` is not the ``expected`` page."""
    text = message_text(tree)
    low = text.lower()
    guest = not is_logged_in(tree)
    if any(w in low for w in ("not logged in", "do not have permission", "не зарегистрир",
                              "нет доступа", "нет прав", "не имеете прав", "войдите")):
        if guest:
            raise LoginRequired(f"Форум просит войти, чтобы показать {expected}: {url}.",
                                _HINT_LOGIN)
        raise AccessDenied(f"Форум не даёт учётной записи ведущего открыть {expected}: "
                           f"«{text}» ({url}).", _HINT_LOGIN)
    if any(w in low for w in ("invalid thread", "no thread specified", "invalid message",
                              "тема не указана", "неверно указана", "не существует",
                              "invalid post specified")):
        raise TopicNotFound(f"Форум ответил: «{text}» ({url}).", _HINT_URL)
    if "banned" in low or "заблокирован" in low or "забанен" in low:
        raise AccessDenied(f"Учётная запись ведущего заблокирована: «{text}» ({url}).",
                           "Обратитесь к администрации форума.")
    if text:
        raise ForumError(f"Форум ответил сообщением вместо страницы: «{text}» ({url}).")
    if guest and tree.css_first('input[name="vb_login_username"]') is not None:
        raise LoginRequired(f"Форум показал форму входа вместо страницы ({expected}): {url}.",
                            _HINT_LOGIN)
    raise MalformedPage(f"Страница {url} — не {expected} vBulletin: на ней нет сообщений.",
                        _HINT_URL)


# ---------------------------------------------------------------------------------------
# Posts
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RawPost:
    """One post as the page shows it, before its dates are read."""

    post_id: int
    author: str
    author_id: int | None
    when_text: str
    content: Node
    number: int | None = None
    when: datetime | None = None
    edit_text: str = ""


def user_id(href: str | None) -> int | None:
    match = _USER_ID.search(href or "")
    return int(match.group(1)) if match else None


def _user_of(link: Node | None) -> int | None:
    """The member id a profile link names (None: no link, a guest)."""
    return user_id(link.attributes.get("href")) if link is not None else None


def _number(text: str | None) -> int | None:
    match = _DIGITS.search((text or "").replace(",", "").replace(".", ""))
    return int(match.group(0)) if match else None


def _id_number(node: Node, prefix: str) -> int | None:
    """The post number in an element's ``id`` after ``prefix`` (``post_P``, ``postP``)."""
    return _number((node.attributes.get("id") or "")[len(prefix):])


def post_text(message: Node) -> Node:
    """A postbit's ``div#post_message_P`` (a thread's or a PM's: vB shows both in one
    postbit), or the ``blockquote.postcontent`` it wraps (vB 4: the whole text is that
    blockquote; it must not be read as a quote)."""
    inner = element_children(message)
    if len(inner) == 1 and inner[0].tag == "blockquote" and "postcontent" in _classes(inner[0]):
        return inner[0]
    return message


def _edit_text(node: Node | None, selector: str) -> str:
    for notice in node.css(selector) if node is not None else []:
        text = _norm(notice.text())
        if _EDIT.search(text):
            return text
    return ""


def _first(node: Node | None, selectors: tuple[str, ...]) -> Node | None:
    """The first of ``selectors`` that ``node`` holds (in the order given, not the page's)."""
    found = (node.css_first(s) for s in selectors) if node is not None else ()
    return next((n for n in found if n is not None), None)


def _author(name: str, pid: int, url: str, where: str) -> str:
    """The author's name, which no post is read without (``where``: the markup looked for)."""
    if not name:
        raise MalformedPage(f"Сообщение {pid} на странице {url}: не найден автор ({where}).",
                            _HINT_URL)
    return name


def _vb4_post(li: Node, tree: LexborHTMLParser, url: str) -> RawPost | None:
    """vB 4 (and styles built on it): ``li.postcontainer#post_P``."""
    pid = _id_number(li, "post_")
    classes = _classes(li)
    if pid is None or not classes & {"postcontainer", "postbitlegacy", "postbit"}:
        return None
    message = li.css_first(f'div[id="post_message_{pid}"]')
    if message is None or "postbitdeleted" in classes:
        return None  # a deleted post's stub (shown to moderators), or an ignored one's
    who = _first(li, ("div.username_container a.username", "div.username_container .username",
                      ".userinfo .username", ".username"))
    return RawPost(
        pid, _author(_shown(who), pid, url, "div.username_container .username"),
        _user_of(who), _shown(_first(li, ("div.posthead span.date", "span.date"))),
        post_text(message), number=_number(_shown(li.css_first("a.postcounter"))),
        edit_text=_edit_text(li, "blockquote.lastedited, div.lastedited"))


def _vb3_post(message: Node, tree: LexborHTMLParser, url: str) -> RawPost | None:
    """vB 3: ``div#post_message_P`` in its ``table#postP``, which holds ``td.thead`` (date),
    ``#postmenu_P a.bigusername`` and the edit note ``div.smallfont > em``."""
    pid = _id_number(message, "post_message_")
    box = tree.css_first(f'[id="post{pid}"]') if pid is not None else None
    if pid is None or box is None:
        return None
    # A member: a.bigusername; a guest (or a deleted member): span.bigusername or the name
    # alone (template postbit / postbit_legacy). Only a member's is a link.
    menu = box.css_first(f'[id="postmenu_{pid}"]')
    who = _first(menu, ("a.bigusername", ".bigusername")) or menu
    counter = box.css_first(f'a[id="postcount{pid}"]')
    return RawPost(
        pid, _author(_words(who), pid, url, f"div#postmenu_{pid} с a.bigusername"),
        _user_of(who), _words(_vb3_date_cell(box, pid)), post_text(message),
        number=_number(counter.attributes.get("name")) if counter is not None else None,
        edit_text=_edit_text(box.css_first(f'td[id="td_post_{pid}"]') or box,
                             "div.smallfont em"))


_UNSEEN = frozenset({"script", "style", "noscript"})


def _words(node: Node | None) -> str:
    """The node's visible words: scripts (vB 3 registers its user menu inside the name's
    ``div``), styles and comments left out; empty when the page lacks the node."""
    return _norm(" ".join(text_pieces(node, skip=_UNSEEN))) if node is not None else ""


def _vb3_date_cell(box: Node, pid: int) -> Node | None:
    """The element that holds the post's date: the parent of the ``<a name="postP">``
    anchor (postbit_legacy: the first ``td.thead``; postbit: its ``div.normal``, whose
    neighbour holds «#N»), else the first ``td.thead``."""
    anchor = box.css_first(f'a[name="post{pid}"]')
    if anchor is not None and anchor.parent is not None:
        return anchor.parent
    return box.css_first("td.thead")


def _vb5_post(li: Node, tree: LexborHTMLParser, url: str) -> RawPost | None:
    """vB 5: ``li.b-post[data-node-id][data-node-publishdate]`` (unix seconds, exact)."""
    pid = _number(li.attributes.get("data-node-id"))
    content = li.css_first(".js-post__content-text")
    if pid is None or content is None:
        return None
    who = _first(li, (".b-userinfo__details .author a", ".author"))
    stamp = _number(li.attributes.get("data-node-publishdate"))
    return RawPost(
        pid, _shown(who), _user_of(who), _shown(li.css_first(".b-post__timestamp time")),
        content, number=_number(_shown(li.css_first("a.b-post__count"))),
        when=datetime.fromtimestamp(stamp, UTC) if stamp is not None else None,
        edit_text=_edit_text(li, ".b-post__edit"))


_LAYOUTS = (("li.b-post[data-node-id]", _vb5_post), ('li[id^="post_"]', _vb4_post),
            ('div[id^="post_message_"]', _vb3_post))
"""Each layout's post frames (vB 3: the posts' texts) and their reader: the first layout
that reads a post is the page's."""
_IGNORED = ("ignore list", "списке игнорирования", "в игнор")


def _check_hidden(tree: LexborHTMLParser, read: set[int], url: str) -> None:
    """A post of a user on the host's ignore list comes without its message (vB 4
    ``li.postbitignored``, vB 3 a ``table#postP`` that says so): a vote must not vanish
    silently. (A deleted post's stub is skipped.)"""
    for box in tree.css('li.postbitignored[id^="post_"], table[id^="post"]'):
        pid = _id_number(box, "post_" if box.tag == "li" else "post")
        if pid is not None and pid not in read and (box.tag == "li" or any(
                w in _norm(box.text()).lower() for w in _IGNORED)):
            raise MalformedPage(
                f"Сообщение {pid} на странице {url} скрыто: его автор в списке игнорирования "
                "учётной записи ведущего, и vBulletin не показывает текст.",
                "Уберите всех из списка игнорирования ведущего (Мой кабинет → Контакты и "
                "друзья).")


def raw_posts(tree: LexborHTMLParser, url: str) -> list[RawPost]:
    """The page's posts in page order, whichever vBulletin layout it has."""
    found: list[RawPost] = []
    for frames, read in _LAYOUTS:
        found = [raw for frame in tree.css(frames) if (raw := read(frame, tree, url))]
        if found:
            break
    _check_hidden(tree, {r.post_id for r in found}, url)
    if found:
        return found
    texts = tree.css('div[id^="post_message_"]')
    if texts and all(_id_number(t, "post_message_") for t in texts):
        # Texts without their frames: a style that moved the author and the date.
        raise MalformedPage(
            f"На странице {url} есть тексты сообщений (div#post_message_N), но нет их рамок "
            "с автором и датой (vB 4 li#post_N.postcontainer, vB 3 table#postN).", _HINT_URL)
    return []


# ---------------------------------------------------------------------------------------
# Dates and edit notices
# ---------------------------------------------------------------------------------------


def edit_notice(text: str, *, tz: tzinfo, now: datetime, order: Order | None
                ) -> EditNotice | None:
    """«Last edited by NAME; 06-15-2016 at 03:31 PM.» / «Последний раз редактировалось NAME;
    26.11.2026 в 18:00.» (verified: vBulletin3.html; vB 4 form from the code corpus, the
    Russian one from forumscraper). vB shows no edit count: ``count`` is 1 (edited at least
    once); the date is best effort."""
    match = _EDIT.search(text)
    if match is None:
        return None
    rest = _REASON.sub("", match.group("rest")).strip()
    editor, _, date_text = rest.partition(";")
    return edit_of([(editor, date_text)] if date_text.strip(" .") else [],
                   lambda text: vb_date(text, tz=tz, now=now, order=order),
                   editor=editor.strip())


_APPROXIMATE = re.compile(
    r"\b(?:\d+\s+)?(?:час|часа|часов|hours?|день|дня|дней|days?|недел[юиь]|weeks?)\s+"
    r"(?:назад|ago)\b", re.IGNORECASE)
_HINT_DATE = ("Проверьте формат даты форума: в профиле ведущего (Мой кабинет → Настройки → "
              "Дата и время) оставьте формат по умолчанию; если дат нет совсем, сохраните "
              "страницу (Ctrl+S) и передайте разработчикам.")
_HINT_DETAILED = ("Форум показывает время «подробно» («2 часа назад», «3 дня назад») — с "
                  "точностью до часа или дня, а голос у дедлайна так попал бы не в тот день. "
                  "Попросите администратора форума (Админцентр → Настройки → Дата и время → "
                  "«Использовать \"Вчера\"/\"Сегодня\"») выбрать «Да» вместо «Подробно».")


def post_time(raw: RawPost, url: str, *, tz: tzinfo, now: datetime, order: Order | None
              ) -> datetime:
    """The post's time. vBulletin's «detailed» dates (option ``yestoday`` = 2: «2 часа
    назад», «3 дня назад», shown without the clock) are refused: an hour or a day is too
    coarse for a deadline; «5 минут назад» is exact to the minute and read."""
    if raw.when is not None:
        return raw.when
    if not raw.when_text:
        raise MalformedPage(
            f"Сообщение {raw.post_id} на странице {url}: не найдена дата (vB 4 span.date, "
            "vB 3 первая ячейка td.thead).", _HINT_DATE)
    if _APPROXIMATE.search(raw.when_text):
        raise MalformedPage(
            f"Сообщение {raw.post_id} на странице {url}: время указано приблизительно "
            f"(«{raw.when_text}»).", _HINT_DETAILED)
    try:
        return vb_date(raw.when_text, tz=tz, now=now, order=order)
    except DateParseError:
        raise MalformedPage(
            f"Сообщение {raw.post_id} на странице {url}: не удалось разобрать дату "
            f"«{raw.when_text}».", _HINT_DATE) from None


# ---------------------------------------------------------------------------------------
# Pages
# ---------------------------------------------------------------------------------------


def _count(text: str) -> int:
    return int(re.sub(r"\D", "", text) or 0)


def pagination(tree: LexborHTMLParser) -> Place:
    """Where the page sits: vB 4 «Page 1 of 2» (``#pagination_top a.popupctrl``) and
    «Results 1 to 10 of 15» (``#postpagestats_above``); vB 3 ``div.pagenav
    td.vbmenu_control`` «Page 152 of 155» and the current page's title «Showing results
    3,021 to 3,040 of 3,086»; vB 5 ``input.js-pagenum`` and ``span.pagetotal``. Russian
    packs: «Страница 1 из 2», «Показано с 1 по 10 из 15». Posts per page: the span of a
    full page, or (last page) the posts before it over the pages before it."""
    # The page shown is also marked (vB 4 ``span.selected``, vB 3 ``td.alt2 strong``) and
    # the highest page is linked: a pack or style without the phrase is placed by them (a
    # thread read as one page would silently lose the others).
    index = read_index(
        tree.css("#pagination_top, div.pagenav, div.pagination, div.threadpagenav"),
        links="a[href]", here="span.selected, td.alt2 strong", number=_linked_page, arrow=None)
    page = index.current or 1
    total = index.last(page)
    vb5_page = tree.css_first("form.pagenav-form input.js-pagenum")
    vb5_total = tree.css_first("form.pagenav-form span.pagetotal")
    if vb5_page is not None and vb5_total is not None:
        page = _number(vb5_page.attributes.get("value")) or 1
        total = _number(vb5_total.text()) or page
    stats = _shown(tree.css_first("#postpagestats_above, #postpagestats_below"))
    current = tree.css_first("div.pagenav td.alt2 span[title]")
    if not stats and current is not None:
        stats = current.attributes.get("title") or ""
    results = _RESULTS.search(stats)
    link = tree.css_first('a[rel="next"][href]')
    nxt = link.attributes.get("href") if link is not None else None
    total = max(page, total)
    if results is None:
        return Place(page, total, next_url=nxt)
    first, last = _count(results.group(1)), _count(results.group(2))
    size = last - first + 1 if page < total else page_size({page: first - 1})
    return Place(page, total, size, _count(results.group(3)), nxt)


def _linked_page(link: Node) -> int | None:
    """The page a link goes to: ``page=K``, ``/pageK``, vBSEO ``-K.html``."""
    found = _PAGE_LINK.search(link.attributes.get("href") or "")
    return int(next(g for g in found.groups() if g)) if found else None


def thread_title(tree: LexborHTMLParser) -> str:
    if text := _first_shown(tree, ("#pagetitle .threadtitle", "#pagetitle h1",
                                   "h1.main-title", "td.navbar strong")):
        return _THREAD_WORD.sub("", text)
    return _shown(tree.css_first("title"))


def _topic_id_on_page(tree: LexborHTMLParser) -> int | None:
    for selector in ('form.pagination input[name="t"]', 'input[name="t"]',
                     'input[name="threadid"]'):
        node = tree.css_first(selector)
        if node is not None and (value := _number(node.attributes.get("value"))):
            return value
    return None


def read_topic_page(html: str, *, url: str, tz: tzinfo, now: datetime,
                    topic_id: int | None = None, order: Order | None = None
                    ) -> tuple[TopicPage, Order | None]:
    """One thread page and the numeric date order it showed (kept for later pages).

    ``tz`` is the host's ``[forum] timezone``, used only when the footer names no zone.
    Raises :class:`LoginRequired`, :class:`AccessDenied`, :class:`TopicNotFound`,
    :class:`MalformedPage`."""
    tree = LexborHTMLParser(html)
    raw = raw_posts(tree, url)
    if not raw:
        raise_for_page(tree, url, "тема")
    numbers = [r.number for r in raw if r.number is not None]
    if len(numbers) >= 2 and numbers[0] > numbers[-1]:
        raise MalformedPage(
            f"Сообщения на странице {url} идут от новых к старым.",
            "В настройках учётной записи ведущего (Мой кабинет → Настройки → Параметры "
            "отображения тем) выберите порядок «сначала старые».")
    zone = footer_zone(html) or tz
    order = date_order([r.when_text for r in raw] + [r.edit_text for r in raw], order)
    pages = pagination(tree)
    tid = _topic_id_on_page(tree) or topic_id
    posts = [post(r.post_id, (r.author, r.author_id),
                  post_time(r, url, tz=zone, now=now, order=order),
                  ((body := render_body(r.content).strip()), plain_text(body)),
                  edit_notice(r.edit_text, tz=zone, now=now, order=order))
             for r in raw]
    return topic_page(pages, posts, topic_id=tid, title=thread_title(tree),
                      per_page=pages.per_page or len(posts)), order


def parse_topic_page(html: str, *, url: str, tz: tzinfo, now: datetime,
                     topic_id: int | None = None) -> TopicPage:
    return read_topic_page(html, url=url, tz=tz, now=now, topic_id=topic_id)[0]


__all__ = [
    "RawPost",
    "decode_page",
    "edit_notice",
    "is_logged_in",
    "message_text",
    "parse_topic_page",
    "post_text",
    "raise_for_page",
    "raw_posts",
    "read_topic_page",
    "reads_as_vbulletin",
    "user_id",
]
