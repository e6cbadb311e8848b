"""SMF's login, reply and PM forms and what SMF answers to them (a refusal is the form
again, HTTP 200, with its error or notice box). Pure: HTML in, values out. Facts and their
sources: README.md («Login», «Replies and PMs»).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urljoin

from selectolax.lexbor import LexborNode as Node

from adapters import poster
from adapters.html import squash
from adapters.smf.page import SmfPage
from adapters.smf.urls import strip_session
from referee.core.errors import MalformedPage

__all__ = [
    "AnswerKind",
    "LoginForm",
    "PostingForm",
    "classify_answer",
    "login_error",
    "parse_login_form",
    "parse_posting_form",
]

AnswerKind = Literal["token", "new_reply", "flood", "refused", "login", "unknown"]

_WAIT = ("подождать", "please wait", "wait")
_WRONG_PASSWORD = ("неверный пароль", "password incorrect", "wrong password")
_NO_USER = ("не существует", "не найден", "does not exist", "не зарегистрирован")
_TOKEN = ("сессия истекла", "session timed out", "session verification", "сессии",
          "token", "токен")
_NEW_REPLY = ("новый ответ", "new reply", "new replies")
_FLOOD = re.compile(r"\d+\s*(?:секунд|seconds)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class LoginForm:
    action: str
    user_field: str
    password_field: str
    hidden: dict[str, str] = field(default_factory=dict)
    """Both random tokens, as the form holds them."""
    cookie_length: tuple[str, str] | None = None


@dataclass(frozen=True, slots=True)
class PostingForm:
    """A reply or PM form as a browser would post it (text fields and checked boxes)."""

    action: str
    fields: dict[str, str]
    textarea: str = "message"

    def value(self, name: str) -> str | None:
        return self.fields.get(name)


def parse_login_form(html: str, *, url: str) -> LoginForm:
    page = SmfPage(html, url)
    form = page.login_form()
    if form is None:
        raise MalformedPage("на странице входа нет формы входа SMF",
                            f"откройте {strip_session(url)} в браузере")
    user = form.css_first("input[name=user]") or form.css_first("input[type=text]")
    password = form.css_first("input[type=password]")
    if user is None or password is None:
        raise MalformedPage("в форме входа SMF нет полей имени и пароля",
                            f"откройте {strip_session(url)} в браузере")
    hidden = {name: node.attributes.get("value") or ""
              for node in form.css("input[type=hidden]")
              if (name := node.attributes.get("name"))}
    length = form.css_first("select[name=cookielength]")
    chosen = None
    if length is not None:
        option = length.css_first("option[selected]") or length.css_first("option")
        if option is not None:
            chosen = ("cookielength", option.attributes.get("value") or "")
    return LoginForm(
        action=_action(form, url, "index.php?action=login2"),
        user_field=user.attributes.get("name") or "user",
        password_field=password.attributes.get("name") or "passwrd",
        hidden=hidden, cookie_length=chosen,
    )


def login_error(html: str) -> tuple[str, str]:
    """``(kind, SMF's words)`` for a refused login: kind is ``wait`` (too soon after the
    last login), ``wrong_password``, ``no_user``, ``token`` or ``other``."""
    page = SmfPage(html, "")
    box = page.tree.css_first("form#frmLogin .errorbox") or page.tree.css_first(".errorbox")
    said = squash(box.text()) if box is not None else page.notice()
    low = said.lower()
    if any(w in low for w in _WAIT):
        return "wait", said
    if any(w in low for w in _WRONG_PASSWORD):
        return "wrong_password", said
    if any(w in low for w in _NO_USER):
        return "no_user", said
    if any(w in low for w in _TOKEN):
        return "token", said
    return "other", said


def parse_posting_form(html: str, *, url: str) -> PostingForm:
    """``form#postmodify`` with what a browser sends for it: hidden and text inputs, the
    selected options, checked boxes, the text area; never the draft/preview buttons."""
    page = SmfPage(html, url)
    form = page.tree.css_first("form#postmodify")
    if form is None:
        page.raise_for_page("форму отправки", "форма отправки сообщения")
        raise AssertionError  # pragma: no cover - raise_for_page always raises
    fields: dict[str, str] = {}
    for node in form.css("input"):
        _input(node, fields)
    for select in form.css("select"):
        name = select.attributes.get("name")
        option = select.css_first("option[selected]") or select.css_first("option")
        if name and option is not None:
            fields.setdefault(name, option.attributes.get("value") or "")
    area = form.css_first("textarea")
    textarea = area.attributes.get("name") or "message" if area is not None else "message"
    return PostingForm(action=_action(form, url, url), fields=fields, textarea=textarea)


def _input(node: Node, fields: dict[str, str]) -> None:
    name = node.attributes.get("name")
    kind = (node.attributes.get("type") or "text").lower()
    if not name or kind in ("submit", "button", "image", "file", "reset"):
        return
    if kind in ("checkbox", "radio"):
        if "checked" in node.attributes:
            fields[name] = node.attributes.get("value") or "on"
        return
    # A hidden «0» before a checkbox of the same name: the box, when checked, wins.
    fields.setdefault(name, node.attributes.get("value") or "")


def _action(form: Node, url: str, default: str) -> str:
    action = form.attributes.get("action") or default
    return strip_session(urljoin(url, action.replace("&amp;", "&")))


Answer = poster.Answer


def classify_answer(html: str, *, url: str) -> Answer:
    """What SMF made of a reply or PM POST that did not redirect (the redirect is the
    success): the error list of the form it shows again, a login form, or SMF's error
    box."""
    page = SmfPage(html, url)
    if page.login_form() is not None or (page.member_id == 0):
        return Answer("login", text=page.notice())
    listed = page.tree.css_first("#errors #error_list")
    said = squash(listed.text()) if listed is not None else ""
    form = None
    if page.tree.css_first("form#postmodify") is not None:
        form = parse_posting_form(html, url=url)
    if not said:
        said = page.notice()
        if not said:
            return Answer("unknown", form=form)
    low = said.lower()
    box = page.tree.css_first("#errors")
    serious = box is not None and "errorbox" in (box.attributes.get("class") or "")
    if not serious and any(w in low for w in _NEW_REPLY):
        return Answer("new_reply", text=said, form=form)
    if any(w in low for w in ("сессия истекла", "session timed out", "session verification",
                              "already submitted", "уже отправлен")):
        return Answer("token", text=said, form=form)
    if _FLOOD.search(low):
        return Answer("flood", text=said, form=form)
    return Answer("refused", text=said, form=form)
