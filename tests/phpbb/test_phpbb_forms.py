"""Login, reply and PM forms of the real board; phpBB's error and success answers."""

from __future__ import annotations

import pytest
from phpbb_pages import BOARD, html, with_message_panel

from adapters.phpbb.forms import (
    LoginErrorKind,
    is_logged_in,
    login_error,
    parse_login_form,
    parse_posting_form,
    posting_error,
    posting_success,
)

_WRONG_PASSWORD = ("Вы ввели неверный пароль. Проверьте его и попробуйте ввести ещё раз. Если "
                   "проблема со входом останется, то сообщите об этом")

# The real failed-login page with its error box rewritten to the other LOGIN_ERROR_* texts of
# the Russian pack (and the English pack), as phpBB prints them in the same div.error.
_CAPTCHA = ('<dl><dt><label for="confirm_code">Код подтверждения:</label></dt>'
            '<dd><img src="./app.php/captcha/confirm?confirm_id=a1b2&amp;type=1" alt="" /></dd>'
            '<dd><input type="text" name="confirm_code" id="confirm_code" size="8" '
            'maxlength="8" class="inputbox narrow" title="Код подтверждения" />'
            '<input type="hidden" name="confirm_id" id="confirm_id" value="a1b2" /></dd></dl>')


def _failed_login(text: str, *, captcha: bool = False) -> str:
    page = html("phpbb33-ru/login_failed.html")
    page = page.replace(_WRONG_PASSWORD, text, 1)
    if captcha:
        # captcha_default.html is included inside the login form's fieldset.
        end = page.index("</fieldset>", page.index('id="login"'))
        page = page[:end] + _CAPTCHA + page[end:]
    return page


def test_login_form_gives_action_hidden_fields_and_field_names():
    form = parse_login_form(html("phpbb33-ru/login.html"), url=f"{BOARD}/ucp.php?mode=login")
    assert form.action == f"{BOARD}/ucp.php?mode=login"
    assert (form.first("text"), form.first("password"), form.named["autologin"]) == (
        "username", "password", "checkbox")
    assert form.press("login", "") == ("login", "Вход")
    assert set(form.hidden) == {"redirect", "creation_time", "form_token", "sid"}
    assert form.hidden["sid"] == "4dd5a1220f642fdd95804df967fce0d7"
    assert form.hidden["creation_time"] == "1795971550"
    # The page has two «redirect» fields; PHP keeps the last one.
    assert form.hidden["redirect"] == "index.php"
    assert form.has_captcha is False


def test_login_required_page_keeps_the_way_back_to_the_requested_page():
    form = parse_login_form(html("phpbb33-ru/login_required.html"), url=f"{BOARD}/ucp.php?i=pm")
    assert form.hidden["redirect"] == "./ucp.php?i=pm"


@pytest.mark.parametrize(
    ("page", "kind"),
    [
        (lambda: html("phpbb33-ru/login_failed.html"), LoginErrorKind.WRONG_PASSWORD),
        (lambda: _failed_login("Вы ввели неверное имя пользователя. Проверьте его и попробуйте "
                               "ввести ещё раз."), LoginErrorKind.WRONG_USERNAME),
        (lambda: _failed_login("Вы превысили максимально допустимое количество попыток входа. "
                               "Теперь, кроме имени пользователя и пароля, вы должны пройти "
                               "проверку средством против спам-ботов.", captcha=True),
         LoginErrorKind.CAPTCHA_REQUIRED),
        (lambda: _failed_login("Ошибка отправки формы. Попробуйте ещё раз."),
         LoginErrorKind.FORM_INVALID),
        (lambda: _failed_login("Указанное имя пользователя в настоящее время неактивно."),
         LoginErrorKind.INACTIVE),
        (lambda: _failed_login("You have specified an incorrect password. Please check your "
                               "password and try again."), LoginErrorKind.WRONG_PASSWORD),
        (lambda: with_message_panel("Доступ к конференции закрыт для вашей учётной записи."),
         LoginErrorKind.BANNED),
        (lambda: _failed_login("Что-то совсем другое."), LoginErrorKind.UNKNOWN),
        (lambda: html("phpbb33-ru/login.html"), None),
    ],
    ids=["wrong password", "wrong username", "captcha now required", "form invalid",
         "inactive", "english wrong password", "banned", "unknown text", "no error"],
)
def test_failed_login_is_classified(page, kind):
    assert login_error(page()) == kind


def test_captcha_in_the_login_form_is_noticed():
    page = _failed_login("Вы превысили максимально допустимое количество попыток входа.",
                         captcha=True)
    assert parse_login_form(page, url=f"{BOARD}/ucp.php?mode=login").has_captcha is True


@pytest.mark.parametrize(
    ("name", "logged_in"),
    [("topic_p1_host.html", True), ("pm_inbox.html", True), ("topic_p1_guest.html", False),
     ("login.html", False), ("login_failed.html", False)],
)
def test_logged_in_is_read_from_the_header(name, logged_in):
    assert is_logged_in(html(f"phpbb33-ru/{name}")) is logged_in


def test_reply_form_gives_token_fields_and_message_box():
    form = parse_posting_form(html("phpbb33-ru/posting_reply_form.html"),
                              url=f"{BOARD}/posting.php?mode=reply&t=3")
    assert form.action == f"{BOARD}/posting.php?mode=reply&t=3"
    assert form.hidden == {
        "topic_cur_post_id": "145",
        "show_panel": "options-panel",
        "creation_time": "1795971649",
        "form_token": "206f2564cee53a570b4ee5e689b14f7764ed31f2",
    }
    assert (form.textarea, form.fields["subject"], form.press("post", "")) == (
        "message", "Re: Мафия: игра 2", ("post", "Отправить"))
    assert form.sends("checkbox", "radio") == {"icon": "0", "attach_sig": "on"}
    assert form.has_captcha is False


def test_pm_compose_form_keeps_the_sid_of_its_action():
    form = parse_posting_form(html("phpbb33-ru/pm_compose_form.html"),
                              url=f"{BOARD}/ucp.php?i=pm&mode=compose")
    assert form.action == (f"{BOARD}/ucp.php?i=pm&mode=compose&action=post"
                           "&sid=ca99ca0a4b9743db6645eaf52e8ace67")
    assert form.hidden["form_token"] == "95f5d495bae38e6b56f83343c0311461356ab57c"
    assert form.hidden["creation_time"] == "1795971650"
    assert (form.textarea, form.fields["subject"]) == ("message", "")


def _reply_form_with_error(text: str) -> str:
    # posting_editor.html prints {ERROR} as <p class="error"> at the top of fieldset.fields1.
    page = html("phpbb33-ru/posting_reply_form.html")
    return page.replace('<fieldset class="fields1">',
                        f'<fieldset class="fields1">\n\t\t<p class="error">{text}</p>', 1)


@pytest.mark.parametrize(
    ("page", "says"),
    [
        (lambda: html("phpbb33-ru/posting_reply_form_invalid.html"),
         "Было добавлено по крайней мере одно сообщение в этой теме."),
        (lambda: _reply_form_with_error("Ошибка отправки формы. Попробуйте ещё раз."),
         "Ошибка отправки формы."),
        (lambda: _reply_form_with_error("Вы не можете так часто отправлять сообщения."),
         "Вы не можете так часто отправлять сообщения."),
        (lambda: with_message_panel("Эта тема закрыта, вы не можете редактировать и оставлять "
                                    "сообщения в ней."), "Эта тема закрыта"),
    ],
    ids=["new posts since you started", "form invalid", "flood", "topic locked"],
)
def test_posting_error_reads_phpbb_reason(page, says):
    error = posting_error(page())
    assert error is not None and says in error


@pytest.mark.parametrize("name", ["posting_reply_form.html", "posting_reply_success.html"])
def test_no_posting_error_on_a_clean_form_or_after_success(name):
    assert posting_error(html(f"phpbb33-ru/{name}")) is None


def test_success_is_the_newest_post_of_the_account_on_the_page_reached():
    assert posting_success(html("phpbb33-ru/posting_reply_success.html")) == 146


def test_success_panel_links_to_the_stored_post():
    page = with_message_panel('Ваше сообщение было успешно отправлено.<br /><br />'
                              '<a href="./viewtopic.php?p=147#p147">Просмотреть сообщение</a>')
    assert posting_success(page) == 147
    assert posting_error(page) is None


@pytest.mark.parametrize("name", ["posting_reply_form.html", "posting_reply_form_invalid.html",
                                  "topic_p1_guest.html"])
def test_no_success_without_a_stored_post(name):
    assert posting_success(html(f"phpbb33-ru/{name}")) is None
