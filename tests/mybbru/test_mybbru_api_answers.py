"""``api.php`` answers in the shapes a board may give beyond the documented one: errors with
a code only or ``"error": null`` beside a response, a windows-1251 answer, rows as null,
as an object keyed by id or as one row, numbers as ints, entities in names — and the vote
post read from them with the right author, time, number and body. What the reader cannot
use is refused by name (MalformedPage/ForumError), never a traceback."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime

import pytest

from adapters.mybbru import api
from referee.core.errors import ForumError, MalformedPage
from referee.core.nicks import Roster
from referee.rules.day.reading import find_vote

POSTED = int(datetime(2026, 11, 20, 20, 40, tzinfo=UTC).timestamp())  # 23:40 Moscow
VOTE = ('<p>Мой голос – <span style="color: #FF0000">Лиса</span><br />Переход на '
        "личности в первом же посте.</p>")
ROW = {"id": "52305", "topic_id": "317", "user_id": "15", "username": "Гроза",
       "posted": str(POSTED), "message": VOTE, "edited": "0", "edited_by": ""}


def answer(payload: object, encoding: str = "utf-8") -> bytes:
    return json.dumps(payload, ensure_ascii=False).encode(encoding)


def test_the_vote_row_comes_out_whole() -> None:
    posts = api.posts_of(api.response_of(answer({"response": [ROW]}), "post.get"),
                         page=1, topic_id=317)
    post = posts[0]
    assert (post.post_id, post.author, post.author_id, post.page, post.position) == (
        52305, "Гроза", 15, 1, 1)
    assert post.posted_at == datetime(2026, 11, 20, 20, 40, tzinfo=UTC)
    assert post.edit is None
    reading = find_vote(post, Roster(["Лиса", "Гроза"]))
    assert reading is not None and (reading.target, reading.has_reason) == ("Лиса", True)


@pytest.mark.parametrize("response", [
    {"52305": ROW, "52306": {**ROW, "id": "52306"}},  # a PHP array sent as an object
    ROW,  # one row alone
    {"posts": [ROW, {**ROW, "id": "52306"}]},  # wrapped, as users.get is
])
def test_rows_in_other_shapes(response: object) -> None:
    rows = api.rows_of(response, "post.get")
    assert [r["id"] for r in rows][:1] == ["52305"]


@pytest.mark.parametrize("response", [None, False, "", [], {}])
def test_nothing_is_no_rows(response: object) -> None:
    assert api.posts_of(response, page=2, topic_id=317) == []
    assert api.topic_info(response, 317) is None


@pytest.mark.parametrize(("error", "words"), [
    ({"code": 403}, "403"),
    ({"message": "Слишком много запросов, подождите минуту."},
     "Слишком много запросов, подождите минуту."),
    ({"text": "Тема не найдена"}, "Тема не найдена"),
    ("API выключен", "API выключен"),
    ({"code": ""}, "без описания"),
])
def test_an_error_is_said_in_the_boards_words(error: object, words: str) -> None:
    with pytest.raises(api.ApiRefused) as e:
        api.response_of(answer({"error": error}), "post.get")
    assert e.value.api_message == words


def test_an_empty_error_beside_a_response_is_no_refusal() -> None:
    assert api.response_of(answer({"error": None, "response": []}), "post.get") == []
    assert api.response_of(answer({"error": {}, "response": [ROW]}), "post.get") == [ROW]
    with pytest.raises(api.ApiUnavailable, match="нет поля response"):
        api.response_of(answer({"error": {}}), "post.get")


def test_an_answer_in_windows_1251() -> None:
    got = api.response_of(answer({"response": [ROW]}, "cp1251"), "post.get")
    assert got[0]["username"] == "Гроза"


@pytest.mark.parametrize("content", [b"<html><body>404</body></html>", b"[1, 2]", b""])
def test_not_the_api_is_api_unavailable(content: bytes) -> None:
    with pytest.raises(api.ApiUnavailable):
        api.response_of(content, "post.get")


def test_names_with_entities_read_as_the_page_shows_them() -> None:
    row = {**ROW, "username": "Кот &amp; Пёс", "edited": str(POSTED + 600),
           "edited_by": "Кот &amp; Пёс"}
    post = api.post_of(row, page=1, position=5, topic_id=317)
    assert post.author == "Кот & Пёс"
    assert post.edit is not None and post.edit.editor == "Кот & Пёс"
    assert post.edit.edited_at == datetime(2026, 11, 20, 20, 50, tzinfo=UTC)


@pytest.mark.parametrize(("row", "named"), [
    ({k: v for k, v in ROW.items() if k != "message"}, "нет поля message"),
    ({k: v for k, v in ROW.items() if k != "username"}, "нет поля username"),
    ({**ROW, "username": "  "}, "пустое имя автора"),
    ({k: v for k, v in ROW.items() if k != "posted"}, "нет времени (posted)"),
    ({**ROW, "posted": "вчера"}, "поле posted"),
    ({k: v for k, v in ROW.items() if k != "id"}, "нет поля id"),
    ({**ROW, "topic_id": "318"}, "темы 318 вместо темы 317"),
])
def test_a_row_the_reader_cannot_use_is_refused_by_name(row: dict[str, str],
                                                        named: str) -> None:
    with pytest.raises(MalformedPage, match=re.escape(named)):
        api.posts_of([row], page=1, topic_id=317)


def test_a_list_of_something_else_is_refused() -> None:
    with pytest.raises(ForumError, match="не список записей"):
        api.rows_of([1, 2, 3], "post.get")
