"""Every way the forum can refuse us ends in one error that says what happened and what
to do, never a traceback."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from support.phpbb.respx_board import FakeBoard, SyntheticTopic

from adapters.phpbb.client import PhpbbForum
from referee.core.errors import AccessDenied, ForumError, MalformedPage, TopicNotFound
from referee.core.kernel import PageCursor

MakeForum = Callable[..., PhpbbForum]


def message_page(text: str) -> bytes:
    """phpBB's information panel (message_body.html)."""
    return (
        '<!DOCTYPE html><html lang="ru"><head><meta charset="utf-8"><title>Информация</title>'
        '</head><body id="phpbb" class="nojs notouch section-viewtopic ltr "><div id="wrap">'
        '<div id="message" class="panel"><div class="inner"><h2 class="message-title">'
        f"Информация</h2><p>{text}</p></div></div></div></body></html>"
    ).encode()


@pytest.mark.parametrize(
    ("status", "body", "error", "says"),
    [
        (404, message_page("Запрошенной темы не существует."), TopicNotFound, "такой страницы нет"),
        (404, b"<html><body><h1>404 Not Found</h1>nginx</body></html>", TopicNotFound,
         "HTTP 404"),
        (403, message_page("Вам <strong>бессрочно</strong> закрыт доступ к конференции."),
         AccessDenied, "закрыт доступ"),
        (403, message_page("Вы не авторизованы для чтения данного форума."), AccessDenied,
         "HTTP 403"),
        (200, b"<html><body><h1>My blog</h1><p>Hello</p></body></html>", MalformedPage, "phpBB"),
        (418, b"<html><body>teapot</body></html>", ForumError, "HTTP 418"),
    ],
)
def test_each_refusal_has_its_own_error(
    board: FakeBoard, make_forum: MakeForum, status: int, body: bytes,
    error: type[Exception], says: str,
) -> None:
    board.topic_status[1] = board.html(body, status)
    with pytest.raises(error, match=says) as e:
        list(make_forum().fetch_topic_pages(PageCursor(1)))
    assert e.value.hint                                      # every error tells what to do


def test_a_topic_page_whose_posts_cannot_be_read_is_malformed(
    board: FakeBoard, make_forum: MakeForum
) -> None:
    page = SyntheticTopic(1, per_page=3).page(1)
    # A post with no author line and no date: not something phpBB prints.
    page = page.replace(b'<p class="author">', b'<p class="x-author">')
    board.topic_status[1] = board.html(page)
    with pytest.raises(MalformedPage):
        list(make_forum().fetch_topic_pages(PageCursor(1)))


def test_a_topic_answered_by_a_server_error_is_reported_after_retries(
    board: FakeBoard, make_forum: MakeForum
) -> None:
    board.topic_status[1] = httpx.Response(500)
    with pytest.raises(ForumError, match="HTTP 500 .* попыток: 5"):
        list(make_forum().fetch_topic_pages(PageCursor(1)))
    assert board.log == ["topic:1"] * 5                       # retries = 4 (the default)
