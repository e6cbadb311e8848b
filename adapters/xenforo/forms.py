"""XenForo forms and the answers to them: the login form, the reply and «start a
conversation» forms (each POST carries the ``_xfToken``), and what an answer to a POST says
(a refused token, flood control, a refusal). Pure: HTML text in. Facts and their sources:
README.md («Login and errors», «Posting»).
"""

from __future__ import annotations

import re
from typing import Literal

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from adapters import poster
from adapters.form import HtmlForm, find_form, read_form
from adapters.html import squash
from adapters.xenforo.page import (
    absolute,
    csrf_token,
    error_text,
    is_logged_in,
    login_form,
)

_CAPTCHA = ("[data-xf-init*='captcha'], .g-recaptcha, .h-captcha, .cf-turnstile, "
            "input[name='captcha_question_answer'], [data-xf-init='re-captcha'], "
            "iframe[src*='captcha']")
_SECONDS = re.compile(r"(\d+)\s*(?:секунд|сек\.?|seconds?)", re.IGNORECASE)

LoginErrorKind = Literal["wrong_password", "wrong_username", "captcha_required", "banned",
                         "inactive", "form_invalid", "two_step"]

_LOGIN_ERRORS: tuple[tuple[LoginErrorKind, tuple[str, ...]], ...] = (
    ("captcha_required", ("captcha", "капч", "проверку на робота")),
    ("form_invalid", ("ошибка безопасности", "security error")),
    ("wrong_password", ("неверный пароль", "incorrect password", "неправильный пароль")),
    ("wrong_username", ("не найден", "could not be found", "не существует")),
    ("banned", ("заблокирован", "banned")),
    ("inactive", ("ожидает подтверждения", "awaiting confirmation", "не подтвержд")),
)


SENT = ("hidden", "checkbox")
"""The fields of a form XenForo is sent as served: hidden inputs and ticked boxes."""


def _read(form: Node, tree: LexborHTMLParser, url: str, *leave: str) -> HtmlForm:
    """The form (but the fields ``leave``), with the page's ``_xfToken`` when the form
    holds none."""
    read = read_form(form, url, base=absolute(tree, url, ""), box="1",
                     captcha=_CAPTCHA, leave=leave)
    if not read.sends(*SENT).get("_xfToken") and (token := csrf_token(tree)):
        return read.adding("_xfToken", token)
    return read


def parse_login_form(html: str, url: str) -> HtmlForm | None:
    """The login form of a page (the login page, or the one XenForo shows with «Вы должны
    войти…»), or None. The poster fills the name (the first text or e-mail box), the
    password and «remember» (a box, or the ``login/login`` action that takes one)."""
    tree = LexborHTMLParser(html)
    form = login_form(tree)
    return None if form is None else _read(form, tree, url, "remember")


def login_error(html: str) -> LoginErrorKind | None:
    """Why XenForo refused a login, from the error box of its answer."""
    text = error_text(LexborHTMLParser(html)).lower() if html else ""
    for kind, needles in _LOGIN_ERRORS:
        if any(n in text for n in needles):
            return kind
    return None


def parse_posting_form(html: str, action_part: str, url: str) -> HtmlForm | None:
    """The form whose action contains ``action_part`` (``add-reply``,
    ``conversations/add``), with ``_xfToken`` (from the form or ``html[data-csrf]``); the
    editor's own ``message``/``message_html`` fields are left out (the poster sets
    ``message``). None when the page has no such form (or is a guest's)."""
    tree = LexborHTMLParser(html)
    form = find_form(tree, "form[action]", action_has=action_part)
    return None if form is None else _read(form, tree, url, "message", "message_html")


Answer = poster.Answer


def classify_answer(html: str) -> Answer:
    """An answer page (not a redirect) to a reply or conversation POST."""
    tree = LexborHTMLParser(html)
    said = error_text(tree)
    low = said.lower()
    if login_form(tree) is not None and not is_logged_in(tree):
        return Answer("login", text=said)
    if "ошибка безопасности" in low or "security error" in low:
        return Answer("form_invalid", text=said)
    flood = _SECONDS.search(said)
    if flood and ("подожд" in low or "wait" in low):
        return Answer("flood", text=said, wait=float(flood.group(1)))
    if said:
        return Answer("refused", text=said)
    title = tree.css_first("title")
    return Answer("unknown", text=squash(title.text()) if title is not None else "")


__all__ = ["SENT", "Answer", "classify_answer", "login_error", "parse_login_form",
           "parse_posting_form"]
