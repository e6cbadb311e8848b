"""Page kinds by DOM and the error each wrong page raises (gotcha 10: status codes lie)."""

from __future__ import annotations

import pytest
from phpbb_pages import BOARD, MOSCOW, SAVED_AT, html, with_message_panel

from adapters.phpbb.page import decode_page
from adapters.phpbb.pms import parse_pm, parse_pm_folder
from adapters.phpbb.snapshot import page_kind
from adapters.phpbb.topic import parse_topic_page
from referee.core.errors import (
    AccessDenied,
    ForumError,
    LoginRequired,
    MalformedPage,
    PmRemoved,
    TopicNotFound,
)

KINDS = {
    "topic_p1_guest.html": "topic",
    "topic_p3_host_en.html": "topic",
    "posting_reply_success.html": "topic",
    "login.html": "login",
    "login_failed.html": "login",
    "login_required.html": "login",
    "pm_8.html": "pm",
    "pm_19.html": "pm",
    "pm_inbox.html": "pm_folder",
    "pm_sent.html": "pm_folder",
    "posting_reply_form.html": "posting_form",
    "posting_reply_form_invalid.html": "posting_form",
    "pm_compose_form.html": "posting_form",
}


@pytest.mark.parametrize(("name", "kind"), KINDS.items())
def test_page_kind_of_each_real_page(name, kind):
    assert page_kind(html(f"phpbb33-ru/{name}")) == kind


def test_information_panel_is_a_message_page():
    assert page_kind(with_message_panel("Запрошенной темы не существует.")) == "message"


def test_unrelated_html_is_unknown():
    assert page_kind("<html><body><h1>It works!</h1></body></html>") == "unknown"


def _topic(page: str):
    return parse_topic_page(page, url=f"{BOARD}/viewtopic.php?t=3", tz=MOSCOW, now=SAVED_AT)


@pytest.mark.parametrize(
    ("page", "error"),
    [
        (lambda: html("phpbb33-ru/login_required.html"), LoginRequired),
        (lambda: with_message_panel("Запрошенной темы не существует."), TopicNotFound),
        (lambda: with_message_panel("The requested topic does not exist.", "Information"),
         TopicNotFound),
        (lambda: with_message_panel("Вы не авторизованы для чтения данного форума."),
         AccessDenied),
        (lambda: with_message_panel("Вам закрыт доступ к конференции.<br /><br />Для получения "
                                    "дополнительной информации свяжитесь с администратором."),
         AccessDenied),
        (lambda: with_message_panel("Конференция в настоящий момент отключена."), ForumError),
        (lambda: "<html><body><h1>It works!</h1></body></html>", MalformedPage),
        (lambda: html("phpbb33-ru/pm_inbox.html"), MalformedPage),
    ],
    ids=["login form", "no topic", "no topic (en)", "not authorised", "banned",
         "board disabled", "not phpbb", "another phpbb page"],
)
def test_topic_parser_raises_the_error_that_explains_the_page(page, error):
    with pytest.raises(error) as raised:
        _topic(page())
    assert f"{BOARD}/viewtopic.php?t=3" in str(raised.value)


def test_pm_removed_by_its_author_is_a_clear_error():
    page = with_message_panel("Вы не можете прочесть это сообщение, потому что оно было удалено "
                              "его автором.")
    with pytest.raises(PmRemoved, match="удалено автором"):
        parse_pm(page, url=f"{BOARD}/ucp.php?i=pm&mode=view&f=0&p=20", tz=MOSCOW, now=SAVED_AT)


def test_pm_pages_need_login():
    with pytest.raises(LoginRequired):
        parse_pm_folder(html("phpbb33-ru/login_required.html"), url=f"{BOARD}/ucp.php?i=pm",
                        tz=MOSCOW, now=SAVED_AT)


def test_post_without_a_date_is_a_malformed_page_naming_the_post():
    page = html("phpbb33-ru/topic_p4_guest.html")
    first = page.index('<div id="p136"')
    end = page.index("</time>", first) + len("</time>")
    start = page.index("<time", first)
    broken = page[:start] + "вчера вечером" + page[end:]
    with pytest.raises(MalformedPage, match="p136"):
        _topic(broken)


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        ("text/html; charset=windows-1251", "<html><body>Мой голос</body></html>"),
        (None, '<html><head><meta http-equiv="content-type" content="text/html; '
               'charset=windows-1251" /></head><body>Мой голос</body></html>'),
        (None, '<html><head><meta charset="windows-1251"></head><body>Мой голос</body></html>'),
    ],
    ids=["http header", "meta http-equiv", "meta charset"],
)
def test_windows_1251_pages_decode(content_type, body):
    assert "Мой голос" in decode_page(body.encode("cp1251"), content_type)


def test_the_declaration_that_reads_right_wins_and_utf8_is_the_default():
    body = '<meta charset="windows-1251">Голос'
    assert decode_page(body.encode("utf-8"), "text/html; charset=utf-8").endswith("Голос")
    assert decode_page("Голос".encode()) == "Голос"
