"""MyBB.ru HTML pages, read without the API: the topic page (the fallback when a board
closes its API) and the posting forms. Pure: bytes or text in, values out.

Topic page facts (README.md): windows-1251; each post is ``div.post`` with ``id="pN"`` and
``data-posted`` (unix seconds, UTC); the author is ``.pa-author a`` (a guest's name is the
text of ``.pa-author`` after ``span.acchide``), the author's id is in its
``profile.php?id=`` link (or ``data-user-id``); the content is ``div.post-content``; pages are
``viewtopic.php?id=N&p=K`` with links in ``.pagelink``. Plain PunBB/FluxBB pages have none
of this: their posts are ``div.blockpost``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from urllib.parse import parse_qs, urljoin, urlsplit

from selectolax.lexbor import LexborHTMLParser, LexborNode

from adapters import charset
from adapters.mybbru.body import normalise_node
from referee.errors import MalformedPage
from referee.kernel import EditNotice, Post
from referee.markup import plain_text_node

_UI_WORDS = ("Поиск", "Участники", ">Search<")
_MYBB_MARKUP = re.compile(
    r'id="pun-viewtopic"|<div[^>]+class="post\b[^"]*"[^>]*data-posted=|\bForumAPITicket\b'
    r"|\bBoardID\s*=", re.IGNORECASE)
_PUNBB_MARKUP = re.compile(
    r'id="punviewtopic"|id="punwrap"|class="blockpost\b|Powered by <a[^>]+(punbb|fluxbb)',
    re.IGNORECASE)
_PROFILE_ID = re.compile(r"profile\.php\?id=(\d+)")
_EDITED_BY = re.compile(r"Отредактировано\s+(.+?)\s*\(", re.IGNORECASE)


def reads_as_mybb(text: str) -> bool:
    """Whether decoded page text reads as MyBB.ru in the board's language: a page with the
    board's menu (``#pun-navlinks``) shows its «Поиск»/«Участники» (or «Search»), and under
    a wrong encoding the Russian words are the first to go. A page without the menu, or
    one that declares a language not written in Cyrillic, is not judged by its words."""
    if 'id="pun-navlinks"' not in text or charset.in_other_language(text):
        return True
    return any(word in text for word in _UI_WORDS)


def form_charset(content: bytes, content_type: str | None, codec: str) -> str:
    """The charset a page's forms are posted in: the one the page was decided to be in
    (:meth:`adapters.base.HttpClient.get_text`); a page all in ASCII that declares none
    reads the same in every one, and then it is MyBB.ru's own, windows-1251."""
    if content.isascii() and charset.declared(content, content_type) == (None, None):
        return "cp1251"
    return codec


def is_mybb_page(html: str) -> bool:
    """Whether a page is the MyBB.ru engine's (its body id, post blocks or JS globals)."""
    return bool(_MYBB_MARKUP.search(html))


def is_punbb_page(html: str) -> bool:
    """A plain PunBB/FluxBB page (no MyBB.ru marks): ``div.blockpost`` posts."""
    return bool(_PUNBB_MARKUP.search(html)) and not is_mybb_page(html)


# --------------------------------------------------------------------------- topic page

@dataclass(frozen=True, slots=True)
class HtmlTopicPage:
    """One ``viewtopic.php?id=N&p=K`` page as the board numbered it."""

    page: int
    last_page: int
    title: str
    posts: tuple[Post, ...]


def parse_topic_page(html: str, *, topic_id: int) -> HtmlTopicPage:
    """The posts of one topic page; ``Post.page``/``position`` are left for the caller
    (the adapter numbers pages of 100 posts, like the API)."""
    tree = LexborHTMLParser(html)
    blocks = [b for b in tree.css("div.post") if (b.attributes.get("id") or "").startswith("p")
              and b.attributes.get("data-posted")]
    if not blocks:
        raise MalformedPage(
            f"страница темы {topic_id} без сообщений MyBB.ru (div.post с data-posted)",
            "откройте тему в браузере: возможно, тема удалена или скрыта от гостей",
        )
    page, last = _pages(tree)
    posts = tuple(_post(b, topic_id) for b in blocks)
    title_node = tree.css_first("title")
    title = " ".join((title_node.text() if title_node else "").split())
    return HtmlTopicPage(page=page, last_page=max(page, last), title=title, posts=posts)


def _pages(tree: LexborHTMLParser) -> tuple[int, int]:
    """(this page, the last page) from the ``.pagelink`` links; 1 of 1 without them."""
    box = tree.css_first(".pagelink")
    if box is None:
        return 1, 1
    current = box.css_first("strong")
    numbers = [int(t) for a in box.css("a") if (t := (a.text() or "").strip()).isdigit()]
    here = int(current.text().strip()) if current is not None and \
        current.text().strip().isdigit() else 1
    return here, max([here, *numbers])


def _post(block: LexborNode, topic_id: int) -> Post:
    attrs = block.attributes
    post_id = int((attrs.get("id") or "p0")[1:] or 0)
    try:
        posted = datetime.fromtimestamp(int(attrs.get("data-posted") or ""), UTC)
    except ValueError:
        raise MalformedPage(f"у сообщения {post_id} нет времени (data-posted)",
                            "форум отвечает не так, как ожидает referee") from None
    author, author_id = _author(block)
    content = block.css_first("div.post-content")
    if content is None:
        raise MalformedPage(f"у сообщения {post_id} нет текста (div.post-content)",
                            "форум отвечает не так, как ожидает referee")
    edit = _edit_notice(block)
    normalise_node(content)
    return Post(
        post_id=post_id, author=author, author_id=author_id, posted_at=posted,
        body_html=content.inner_html or "", body_text=plain_text_node(content),
        topic_id=topic_id, edit=edit,
    )


def _author(block: LexborNode) -> tuple[str, int | None]:
    box = block.css_first(".pa-author")
    uid = block.attributes.get("data-user-id")
    author_id = int(uid) if uid and uid.isdigit() and int(uid) > 1 else None
    if box is None:
        return "", author_id
    link = box.css_first("a")
    if link is not None:
        m = _PROFILE_ID.search(link.attributes.get("href") or "")
        if m and author_id is None:
            author_id = int(m.group(1))
        return " ".join(link.text().split()), author_id
    for hidden in box.css(".acchide"):
        hidden.decompose()
    return " ".join(box.text().replace("\xa0", " ").split()), author_id


def _edit_notice(block: LexborNode) -> EditNotice | None:
    """«Отредактировано Ник (дата)»: who edited; the date's format varies per board and
    user setting, so it is not read (the API's ``edited`` has the time)."""
    line = block.css_first(".lastedit")
    if line is None:
        return None
    m = _EDITED_BY.search(" ".join(line.text().split()))
    return EditNotice(m.group(1) if m else "", None, 1)


# --------------------------------------------------------------------------- forms

@dataclass(frozen=True, slots=True)
class PostForm:
    """A posting form (``post.php?tid=N``, ``messages.php?action=new``) as served."""

    action: str
    values: dict[str, str] = field(default_factory=dict)
    """Every hidden field and the default of every text field, as a browser sends them."""
    message_field: str = "req_message"
    submit: tuple[str, str] | None = None
    fields: frozenset[str] = frozenset()
    """Every named control of the form (to know whether it asks for a subject, a
    recipient)."""
    checked: dict[str, str] = field(default_factory=dict)
    """Checkboxes the board ticks by default (``savemessage``): a browser sends them."""


def parse_post_form(html: str, *, url: str, action_has: str) -> PostForm | None:
    """``form#post`` (or the first form whose action contains ``action_has``); None when
    the page has no such form (a login page, a message instead)."""
    tree = LexborHTMLParser(html)
    form = tree.css_first("form#post")
    if form is None or action_has not in (form.attributes.get("action") or ""):
        form = next((f for f in tree.css("form")
                     if action_has in (f.attributes.get("action") or "")), None)
    if form is None:
        return None
    values: dict[str, str] = {}
    checked: dict[str, str] = {}
    names: set[str] = set()
    submit: tuple[str, str] | None = None
    for node in form.css("input"):
        a = node.attributes
        name, kind = a.get("name") or "", (a.get("type") or "text").lower()
        if not name:
            continue
        names.add(name)
        if kind in ("hidden", "text"):
            values[name] = a.get("value") or ""
        elif kind == "checkbox" and "checked" in a:
            checked[name] = a.get("value") or "1"
        elif kind == "submit" and submit is None:
            submit = (name, a.get("value") or "")
    area = form.css_first("textarea#main-reply") or form.css_first("textarea")
    message_field = (area.attributes.get("name") if area is not None else None) or "req_message"
    names.add(message_field)
    return PostForm(action=urljoin(url, form.attributes.get("action") or url), values=values,
                    message_field=message_field, submit=submit, fields=frozenset(names),
                    checked=checked)


def form_target(action: str, key: str) -> str:
    """A query value of a form's action (``tid`` of ``post.php?tid=N``)."""
    return parse_qs(urlsplit(action).query).get(key, [""])[0]


def page_message(html: str) -> str:
    """The board's own words on an answer page (an error list, an info box), for the host."""
    tree = LexborHTMLParser(html)
    for selector in ("#posterror", ".error-list", ".errors", "#msg", ".info .container",
                     "#pun-main .info", "div.error", "p.error"):
        node = tree.css_first(selector)
        if node is not None:
            text = " ".join(node.text(separator=" ").split())
            if text:
                return text[:300]
    return ""


def has_login_form(html: str) -> bool:
    tree = LexborHTMLParser(html)
    return tree.css_first("input[type=password]") is not None
