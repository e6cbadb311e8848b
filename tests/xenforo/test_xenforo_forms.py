"""XenForo forms and answers: the login form, why a login was refused, what an answer to a
reply says, the reply form that points elsewhere."""

from __future__ import annotations

import pytest
from support.xenforo.pages import document, editor_form, error_page, login_form, login_page

from adapters.base import ForumSettings
from adapters.form import HtmlForm
from adapters.xenforo import forms
from adapters.xenforo.client import XenforoForum
from adapters.xenforo.posting import PostingError, XenforoPoster

PREFIX = "/forum/"


def test_the_login_form_gives_its_fields_and_token() -> None:
    form = forms.parse_login_form(login_page(PREFIX, "1,tok"), "http://b.test/forum/login/")
    assert form is not None
    assert form.action == "http://b.test/forum/login/login"
    assert (form.first("text", "email"), form.first("password"), "remember" in form.named) == (
        "login", "password", True)
    assert form.hidden == {"_xfRedirect": "", "_xfToken": "1,tok"}
    assert not form.has_captcha


def test_a_login_form_inside_an_error_page_is_found() -> None:
    html = error_page("Вы должны войти для выполнения этого действия.", prefix=PREFIX,
                      csrf="1,tok", login=True, logged_in=False)
    assert forms.parse_login_form(html, "http://b.test/forum/conversations/") is not None


def test_a_captcha_is_noticed() -> None:
    html = login_page(PREFIX, "1,tok").replace(
        '<input type="hidden" name="_xfRedirect"',
        '<div data-xf-init="re-captcha" data-sitekey="x"></div><input type="hidden" '
        'name="_xfRedirect"')
    form = forms.parse_login_form(html, "http://b.test/forum/login/")
    assert form is not None and form.has_captcha


@pytest.mark.parametrize(("said", "kind"), [
    ("Неверный пароль. Пожалуйста, попробуйте ещё раз.", "wrong_password"),
    ("Incorrect password. Please try again.", "wrong_password"),
    ("Запрашиваемый пользователь 'Ведущий' не найден.", "wrong_username"),
    ("The requested user 'Host' could not be found.", "wrong_username"),
    ("Произошла ошибка безопасности. Пожалуйста, вернитесь назад…", "form_invalid"),
    ("Пожалуйста, пройдите проверку CAPTCHA.", "captcha_required"),
    ("Вы были заблокированы.", "banned"),
    ("Что-то пошло не так.", None),
])
def test_why_a_login_was_refused(said: str, kind: str | None) -> None:
    assert forms.login_error(login_page(PREFIX, "1,t", said)) == kind


@pytest.mark.parametrize(("said", "kind", "wait"), [
    ("Вы должны подождать не менее 12 секунд перед выполнением этого действия.", "flood", 12.0),
    ("You must wait at least 30 seconds before performing this action.", "flood", 30.0),
    ("Произошла ошибка безопасности. Пожалуйста, вернитесь назад.", "form_invalid", None),
    ("У вас нет прав для выполнения этого действия.", "refused", None),
])
def test_what_an_answer_to_a_post_says(said: str, kind: str, wait: float | None) -> None:
    html = document(f'<div class="blockMessage">{said}</div>', template="error",
                    title="Ошибка", logged_in=True, csrf="1,t")
    answer = forms.classify_answer(html)
    assert (answer.kind, answer.wait) == (kind, wait)


def test_a_login_page_as_an_answer_means_the_session_was_lost() -> None:
    html = document(login_form(PREFIX, "1,t"), template="login", title="Вход",
                    logged_in=False, csrf="1,t")
    assert forms.classify_answer(html).kind == "login"


def test_the_posting_form_leaves_the_editor_fields_to_the_poster() -> None:
    html = document(editor_form("/forum/threads/m.5/add-reply", "1,t"), template="r",
                    title="r", logged_in=True, csrf="1,t")
    form = forms.parse_posting_form(html, "add-reply", "http://b.test/forum/threads/m.5/reply")
    assert form is not None and form.action == "http://b.test/forum/threads/m.5/add-reply"
    assert form.hidden == {"attachment_hash": "0a1b2c3d", "_xfToken": "1,t"}


def test_a_reply_form_for_another_thread_is_never_posted(
        monkeypatch: pytest.MonkeyPatch) -> None:
    forum = XenforoForum(ForumSettings(url="http://b.test/forum/threads/m.5/", username="H"))
    poster = XenforoPoster(forum)
    monkeypatch.setattr(poster, "form_at", lambda *a, **k: HtmlForm(
        "http://b.test/forum/threads/other.6/add-reply", (("hidden", "_xfToken", "1,t"),)))
    monkeypatch.setattr(poster, "post", lambda *a, **k: pytest.fail("posted"))
    with pytest.raises(PostingError, match="не в тему игры"):
        poster.reply("Итоги")
    forum.close()
