"""XenForo forms and the answers to them: the login form, the reply and «start a
conversation» forms (each POST carries the ``_xfToken``), and what an answer to a POST says
(a refused token, flood control, a refusal). Pure: HTML text in. Facts and their sources:
README.md («Login and errors», «Posting»).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from adapters import poster
from adapters.html import squash
from adapters.xenforo.page import (
    absolute,
    csrf_token,
    error_text,
    is_logged_in,
    login_form,
)

_CAPTCHA = ("[data-xf-init*='captcha']", ".g-recaptcha", ".h-captcha", ".cf-turnstile",
            "input[name='captcha_question_answer']", "[data-xf-init='re-captcha']",
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


def has_captcha(node: Node) -> bool:
    return any(node.css_first(selector) is not None for selector in _CAPTCHA)


def _fields(form: Node, tree: LexborHTMLParser, *leave: str) -> dict[str, str]:
    """Hidden inputs and checked boxes as a browser posts them (but ``leave``), with the
    page's ``_xfToken`` when the form holds none."""
    data: dict[str, str] = {}
    for node in form.css("input"):
        name = node.attributes.get("name")
        kind = (node.attributes.get("type") or "text").lower()
        if not name:
            continue
        if kind == "hidden" or (kind == "checkbox" and "checked" in node.attributes):
            data[name] = node.attributes.get("value") or ("1" if kind == "checkbox" else "")
    data = {k: v for k, v in data.items() if k not in leave}
    if not data.get("_xfToken") and (token := csrf_token(tree)):
        data["_xfToken"] = token
    return data


@dataclass(frozen=True, slots=True)
class LoginForm:
    action: str
    hidden: dict[str, str] = field(default_factory=dict)
    username_field: str = "login"
    password_field: str = "password"
    remember_field: str | None = "remember"
    has_captcha: bool = False


def parse_login_form(html: str, url: str) -> LoginForm | None:
    """The login form of a page (the login page, or the one XenForo shows with «Вы должны
    войти…»), or None."""
    tree = LexborHTMLParser(html)
    form = login_form(tree)
    if form is None:
        return None
    hidden = _fields(form, tree, "remember")
    user = form.css_first("input[name='login'], input[type='text'], input[type='email']")
    password = form.css_first("input[type='password']")
    remember = form.css_first("input[name='remember']")
    return LoginForm(
        action=absolute(tree, url, form.attributes.get("action") or url),
        hidden=hidden,
        username_field=(user.attributes.get("name") or "login") if user is not None else "login",
        password_field=(password.attributes.get("name") or "password")
        if password is not None else "password",
        remember_field="remember" if remember is not None or "login/login" in (
            form.attributes.get("action") or "") else None,
        has_captcha=has_captcha(form),
    )


def login_error(html: str) -> LoginErrorKind | None:
    """Why XenForo refused a login, from the error box of its answer."""
    text = error_text(LexborHTMLParser(html)).lower() if html else ""
    for kind, needles in _LOGIN_ERRORS:
        if any(n in text for n in needles):
            return kind
    return None


@dataclass(frozen=True, slots=True)
class PostingForm:
    """A reply or new-conversation form: where it goes and its hidden fields."""

    action: str
    hidden: dict[str, str]
    has_captcha: bool = False


def parse_posting_form(html: str, action_part: str, url: str) -> PostingForm | None:
    """The form whose action contains ``action_part`` (``add-reply``,
    ``conversations/add``), with ``_xfToken`` (from the form or ``html[data-csrf]``); the
    editor's own ``message``/``message_html`` fields are left out (the poster sets
    ``message``). None when the page has no such form (or is a guest's)."""
    tree = LexborHTMLParser(html)
    for form in tree.css("form[action]"):
        action = form.attributes.get("action") or ""
        if action_part not in action:
            continue
        hidden = _fields(form, tree, "message", "message_html")
        return PostingForm(absolute(tree, url, action), hidden, has_captcha(form))
    return None


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


__all__ = ["Answer", "LoginForm", "PostingForm", "classify_answer", "has_captcha",
           "login_error", "parse_login_form", "parse_posting_form"]
