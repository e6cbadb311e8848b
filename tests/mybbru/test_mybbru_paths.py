"""The same topic read through the API (``post.get``) and from its HTML pages (the API
closed) comes out the same, post for post: author, id, time, place (page of 100, position),
body and edit notice — the whole 3-day game of mybb_game.py, with its quoted votes, spoiler,
code box, colours and edits, on pages printed as MyBB.ru prints them (support/mybbru/pages.py)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from mybb_game import board_posts
from support.moscow import msk
from support.mybbru.board import MybbBoard, serve
from support.mybbru.pages import MSK, PageStyle

from adapters.base import ForumSettings, Secret
from adapters.mybbru.client import MybbForum
from referee.core.kernel import Post
from referee.core.nicks import Roster
from referee.rules.day.reading import find_vote


def read_all(board: MybbBoard, *, api: str) -> list[Post]:
    board.api = api
    with serve(board) as root:
        settings = ForumSettings(url=f"{root}viewtopic.php?id=317", rate_limit=1000,
                                 timezone="Europe/Moscow")
        with MybbForum(settings, password=lambda user: Secret("x")) as forum:
            return [p for page in forum.fetch_topic_pages() for p in page.posts]


@pytest.fixture(params=[PageStyle(), PageStyle(data_posted=False, data_user_id=False)],
                ids=["data-posted", "dates as text"])
def board(request: pytest.FixtureRequest) -> Iterator[MybbBoard]:
    yield MybbBoard(posts=board_posts(), style=request.param)


def test_the_api_and_the_pages_give_the_same_posts(board: MybbBoard) -> None:
    through_api = read_all(board, api="open")
    from_pages = read_all(board, api="404")
    assert len(through_api) == len(board.posts) > 100  # two pages of 100
    assert [p.post_id for p in from_pages] == [p.post_id for p in through_api]
    for a, h in zip(through_api, from_pages, strict=True):
        assert h == a, f"сообщение {a.post_id} прочитано по-разному"


def test_the_vote_post_is_right_in_both(board: MybbBoard) -> None:
    # Гроза's day-1 vote: «Мой голос — <span style="color: #FF0000">Лиса</span>».
    when = msk("2026-11-20 23:40").astimezone(UTC)
    number = next(i for i, b in enumerate(board.posts, 1) if b.posted == when.timestamp())
    for api in ("open", "404"):
        post = next(p for p in read_all(board, api=api) if p.posted_at == when)
        assert (post.author, post.author_id, post.page, post.position) == (
            "Гроза", 15, 1, number)
        reading = find_vote(post, Roster(["Лиса", "Шерлок", "Kotik", "Nika-77"]))
        assert reading is not None and (reading.target, reading.has_reason) == ("Лиса", True)
        assert post.edit is None


def test_an_edit_reads_the_same_from_the_api_and_the_edit_line(board: MybbBoard) -> None:
    edited = {p.post_id: p.edit for p in read_all(board, api="404") if p.edit is not None}
    assert set(edited) == {b.id for b in board.posts if b.edited}
    first = min(edited)
    edit = edited[first]
    assert edit is not None and edit.editor == "Тень_Ночи"
    assert edit.edited_at == datetime(2026, 11, 22, 14, 0, tzinfo=MSK).astimezone(UTC)
