"""SMF's login, reply and PM forms and what SMF answers to them (a refusal is the form
again, HTTP 200, with its error or notice box). Pure: HTML in, values out. Facts and their
sources: README.md («Login», «Replies and PMs»).
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Literal

from adapters import poster
from adapters.form import HtmlForm, read_form
from adapters.html import squash
from adapters.smf.page import SmfPage
from adapters.smf.urls import strip_session
from referee.core.errors import MalformedPage

__all__ = [
    "AnswerKind",
    "classify_answer",
    "login_error",
    "parse_login_form",
    "parse_posting_form",
]

AnswerKind = Literal["token", "new_posts", "flood", "refused", "login", "unknown"]

_WAIT = ("подождать", "please wait", "wait")
_WRONG_PASSWORD = ("неверный пароль", "password incorrect", "wrong password")
_NO_USER = ("не существует", "не найден", "does not exist", "не зарегистрирован")
_TOKEN = ("сессия истекла", "session timed out", "session verification", "сессии",
          "token", "токен")
_NEW_REPLY = ("новый ответ", "new reply", "new replies")
_FLOOD = re.compile(r"\d+\s*(?:секунд|seconds)", re.IGNORECASE)


def parse_login_form(html: str, *, url: str) -> HtmlForm:
    """The login form: a browser posts both random tokens (hidden), the name (the first
    text box), the password and the chosen ``cookielength``."""
    page = SmfPage(html, url)
    node = page.login_form()
    if node is None:
        raise MalformedPage("на странице входа нет формы входа SMF",
                            f"откройте {strip_session(url)} в браузере")
    form = read_form(node, url, action="index.php?action=login2")
    if form.first("text") is None or form.first("password") is None:
        raise MalformedPage("в форме входа SMF нет полей имени и пароля",
                            f"откройте {strip_session(url)} в браузере")
    return _without_session(form)


def login_error(html: str) -> tuple[str, str]:
    """``(kind, SMF's words)`` for a refused login: kind is ``wait`` (too soon after the
    last login), ``wrong_password``, ``wrong_username``, ``token`` or ``other``."""
    page = SmfPage(html, "")
    box = page.tree.css_first("form#frmLogin .errorbox") or page.tree.css_first(".errorbox")
    said = squash(box.text()) if box is not None else page.notice()
    low = said.lower()
    if any(w in low for w in _WAIT):
        return "wait", said
    if any(w in low for w in _WRONG_PASSWORD):
        return "wrong_password", said
    if any(w in low for w in _NO_USER):
        return "wrong_username", said
    if any(w in low for w in _TOKEN):
        return "token", said
    return "other", said


def parse_posting_form(html: str, *, url: str) -> HtmlForm:
    """``form#postmodify``: a browser sends its hidden and text inputs, the selected
    options, ticked boxes and the text area; never the draft/preview buttons."""
    page = SmfPage(html, url)
    node = page.tree.css_first("form#postmodify")
    if node is None:
        page.raise_for_page("форму отправки", "форма отправки сообщения")
    return _without_session(read_form(node, url))


def _without_session(form: HtmlForm) -> HtmlForm:
    """The form's address without SMF's ``PHPSESSID=`` (a session secret), an ``&amp;``
    written twice read as ``&``."""
    return replace(form, action=strip_session(form.action.replace("&amp;", "&")))


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
        return Answer("new_posts", text=said, form=form)
    if any(w in low for w in ("сессия истекла", "session timed out", "session verification",
                              "already submitted", "уже отправлен")):
        return Answer("token", text=said, form=form)
    if _FLOOD.search(low):
        return Answer("flood", text=said, form=form)
    return Answer("refused", text=said, form=form)
