"""phpBB's forms: the login form (and how a login failed), the reply and PM compose forms
(and how a post or a PM went)."""

from __future__ import annotations

from enum import StrEnum

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from adapters.form import HtmlForm, find_form, read_form
from adapters.html import squash
from adapters.phpbb.page import (
    _HINT_URL,
    _ancestor,
    _login_form_node,
    _message_panel,
    _raise_for_page,
    account,
    msg_id,
)
from adapters.phpbb.topic import _author, _post_parts, _prosilver_posts
from adapters.poster import Answer
from referee.core.errors import (
    MalformedPage,
)

# ---------------------------------------------------------------------------------------
# Login
# ---------------------------------------------------------------------------------------


class LoginErrorKind(StrEnum):
    """Why phpBB refused a login (research §3.2)."""

    WRONG_PASSWORD = "wrong_password"
    WRONG_USERNAME = "wrong_username"
    CAPTCHA_REQUIRED = "captcha_required"  # LOGIN_ERROR_ATTEMPTS: a human must log in
    INACTIVE = "inactive"
    BANNED = "banned"
    FORM_INVALID = "form_invalid"  # FORM_INVALID: token too fast/old or session changed
    UNKNOWN = "unknown"


_CAPTCHA = (
    'input[name="confirm_code"], input[name="qa_answer"], input[name="confirm_id"], '
    ".g-recaptcha, .cf-turnstile, textarea[name=\"g-recaptcha-response\"], "
    'iframe[src*="recaptcha"], script[src*="recaptcha"], script[src*="turnstile"]'
)


def parse_login_form(html: str, *, url: str) -> HtmlForm:
    """The login form: a browser posts its hidden fields (when a name repeats, as on the
    3.3 page's two ``redirect`` fields, the last wins, as in ``$_POST``), the first text
    box's name, the password, «Запомнить меня» (``autologin``) and the ``login`` button."""
    form = _login_form_node(LexborHTMLParser(html))
    if form is None:
        raise MalformedPage(f"На странице {url} нет формы входа phpBB (form#login).", _HINT_URL)
    return read_form(form, url, captcha=_CAPTCHA)


_LOGIN_ERRORS: tuple[tuple[LoginErrorKind, tuple[str, ...]], ...] = (
    (LoginErrorKind.CAPTCHA_REQUIRED, ("превысили максимально допустимое количество попыток",
                                       "exceeded the maximum allowed number of login")),
    (LoginErrorKind.WRONG_PASSWORD, ("неверный пароль", "incorrect password")),
    (LoginErrorKind.WRONG_USERNAME, ("неверное имя пользователя", "incorrect username")),
    (LoginErrorKind.FORM_INVALID, ("ошибка отправки формы", "submitted form was invalid")),
    (LoginErrorKind.INACTIVE, ("неактивн", "не активировали", "inactive", "not activated",
                               "not yet activated")),
    (LoginErrorKind.BANNED, ("закрыт доступ", "доступ к конференции закрыт", "banned",
                             "ban has been issued")),
)


def login_error(html: str) -> LoginErrorKind | None:
    """Classify phpBB's refusal of a login; ``None`` when the page shows no login error."""
    tree = LexborHTMLParser(html)
    form = _login_form_node(tree)
    texts = [squash(n.text()) for n in form.css(".error")] if form is not None else []
    if not any(texts):
        panel = _message_panel(tree)
        if panel is not None:
            texts = [panel[1]]
    text = " ".join(t for t in texts if t).lower()
    if not text:
        return None
    for kind, needles in _LOGIN_ERRORS:
        if any(needle in text for needle in needles):
            return kind
    if form is not None and form.css_first(_CAPTCHA) is not None:
        return LoginErrorKind.CAPTCHA_REQUIRED
    return LoginErrorKind.UNKNOWN


def is_logged_in(html: str) -> bool:
    """True when the page was rendered for a logged-in account (header menu / logout link)."""
    tree = LexborHTMLParser(html)
    return tree.css_first('li#username_logged_in, a[href*="mode=logout"]') is not None


# ---------------------------------------------------------------------------------------
# Posting (reply and PM compose)
# ---------------------------------------------------------------------------------------


def _posting_form_node(tree: LexborHTMLParser) -> Node | None:
    return find_form(tree, "form#postform", holding="textarea")


def parse_posting_form(html: str, *, url: str) -> HtmlForm:
    """The reply or PM compose form: a browser posts its hidden fields (``form_token``,
    ``creation_time``, ``topic_cur_post_id``, …), its ticked boxes and radios
    (``attach_sig=on``, ``icon=0``), the subject as prefilled, the message (the PM form's
    recipient and attachment-comment boxes are not it) and the ``post`` button."""
    tree = LexborHTMLParser(html)
    form = _posting_form_node(tree)
    if form is None:
        _raise_for_page(tree, url, "форма ответа")
    return read_form(form, url, captcha=_CAPTCHA, not_message=("username_list", "filecomment"))


def posting_error(html: str) -> str | None:
    """phpBB's reason for not storing a post, or ``None`` if the page shows none.

    Reads the form's error box (FORM_INVALID «Ошибка отправки формы», FLOOD_ERROR «Вы не
    можете так часто отправлять сообщения», …), the «new posts since you started» review
    that makes phpBB hand the form back unposted, and information panels (locked topic, …).
    """
    tree = LexborHTMLParser(html)
    form = _posting_form_node(tree)
    if form is not None:
        errors = [squash(n.text()) for n in form.css("p.error, div.error, span.error")]
        errors = [e for e in errors if e]
        if errors:
            return " ".join(errors)
        review = form.css_first('div.postbody[id^="ppr"]')
        if review is not None:
            # posting_review.html: <h3>…</h3><p>{POST_REVIEW_EXPLAIN}</p> then the new posts.
            block = _ancestor(review, "div")
            while block is not None and "post" not in (block.attributes.get("class") or ""):
                block = _ancestor(block, "div")
            sibling = block.prev if block is not None else None
            while sibling is not None and sibling.tag != "p":
                sibling = sibling.prev
            if sibling is not None and squash(sibling.text()):
                return squash(sibling.text())
        return None
    if posting_success(html) is not None:
        return None
    panel = _message_panel(tree)
    return (panel[1] or panel[0]) if panel is not None else None


def posting_success(html: str) -> int | None:
    """The id of the post (or PM) phpBB reports as stored, else ``None``.

    Recognises the «Сообщение было успешно отправлено» panel / meta refresh with its
    ``viewtopic.php?p=N`` link, and the topic page reached after following the redirect:
    there the newest post of the logged-in account is the one just stored (the redirect
    target's ``#pN`` fragment never reaches the server; prefer it from the final URL).
    """
    tree = LexborHTMLParser(html)
    for meta in tree.css('meta[http-equiv="refresh" i]'):
        if (stored := msg_id(meta.attributes.get("content") or "")) is not None:
            return stored
    panel = tree.css_first("div#message")
    if panel is not None:
        named = (msg_id(link.attributes.get("href") or "")
                 for link in panel.css('a[href*="viewtopic.php"], a[href*="i=pm"]'))
        return next((stored for stored in named if stored is not None), None)
    if _posting_form_node(tree) is not None:
        return None
    own = account(tree)[0]
    if not own:
        return None
    mine = [pid for pid, node in _prosilver_posts(tree)
            if _author(node, _post_parts(node).author_p)[0] == own]
    return max(mine) if mine else None


# ---------------------------------------------------------------------------------------
# The answer to a reply or PM
# ---------------------------------------------------------------------------------------

_FORM_INVALID = ("ошибка отправки формы", "submitted form was invalid")
_FLOOD = ("сразу после предыдущего", "так часто", "so soon after your last")


def classify_answer(html: str, *, pm: bool, after_post: int | None = None) -> Answer:
    """phpBB's answer page to a reply or PM POST (status 200), read by its DOM.

    ``after_post`` is the topic's last post when the form was made: a topic page counts as
    «stored» only when it shows a newer post of ours, never an older one."""
    tree = LexborHTMLParser(html)
    has_form = tree.css_first("form#postform") is not None
    if not has_form and tree.css_first("input[type=password]") is not None:
        return Answer("login", html=html)
    if not has_form:
        stored = posting_success(html)
        if stored is not None and (after_post is None or stored > after_post):
            if not pm or tree.css_first("div#message") is not None:
                return Answer("stored", stored, html=html)
    error = posting_error(html) or ""
    low = error.lower()
    if has_form and tree.css_first('div.postbody[id^="ppr"]') is not None \
            and not tree.css("form#postform p.error"):
        return Answer("new_posts", text=error, html=html)
    if any(n in low for n in _FORM_INVALID):
        return Answer("form_invalid", text=error, html=html)
    if any(n in low for n in _FLOOD):
        return Answer("flood", text=error, html=html)
    if error:
        return Answer("refused", text=error, html=html)
    return Answer("unknown", html=html)
