"""Issue 14 on MyBB.ru: the board's HTML pages (the test board's own, windows-1251 as
MyBB.ru serves them) told their encoding wrong still read right — the topic page when the
API is closed, its Russian vote stored as written, and the reply form, whose answer goes
out in the encoding decided; a page that reads right under no encoding is asked for twice,
then refused in words that name it."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs

import pytest
from support.mybbru.board import BoardPost, MybbBoard, serve

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "charset"))

from charset_cases import (  # noqa: E402
    READINGS,
    TARGET,
    VOTE_HTML,
    VOTER,
    Reading,
    served,
    spoilt,
    stored,
    the_vote,
)

from adapters import charset  # noqa: E402
from adapters.base import ForumSettings, HttpClient, Secret  # noqa: E402
from adapters.mybbru.client import MybbForum  # noqa: E402
from adapters.mybbru.page import form_charset, reads_as_mybb  # noqa: E402
from adapters.mybbru.posting import MybbPoster  # noqa: E402
from referee.core.errors import NetworkError  # noqa: E402

START = 1795186800  # 2026-11-20 18:00 Moscow
TEXT = "Итоги дня 1: Лиса — 4 ✔, Ёжик — 1"
SPOILT = Reading("spoilt", "windows-1251", "windows-1251")
"""The page as mojibake under every encoding (:func:`charset_cases.spoilt`)."""


@dataclass
class MislabellingBoard(MybbBoard):
    """The test board with its HTML pages (the topic, the reply form) sent as ``reading``
    says instead of as MyBB.ru sends them (windows-1251, said so in the page and the
    header)."""

    reading: Reading = READINGS[0]

    def answer(self, method: str, path: str, query: dict[str, str], cookie: str,
               body: bytes) -> tuple[int, dict[str, str], bytes]:
        status, headers, content = super().answer(method, path, query, cookie, body)
        if method != "GET" or not path.endswith(("viewtopic.php", "post.php")):
            return status, headers, content
        html = content.decode("cp1251")
        if self.reading is SPOILT:
            return status, {"Content-Type": "text/html; charset=windows-1251"}, spoilt(html)
        content, headers = served(html, self.reading)
        return status, headers, content


@contextmanager
def board(reading: Reading, *, api: str = "404") -> Iterator[tuple[MislabellingBoard, str]]:
    b = MislabellingBoard(api=api, reading=reading, posts=[
        BoardPost(1000, 11, VOTER, START, f"<p>{VOTE_HTML}</p>"),
        BoardPost(1001, 12, "Лиса", START + 60, "<p>Я мирная, честно.</p>")])
    with serve(b) as root:
        yield b, root


def forum(root: str, username: str | None = None) -> MybbForum:
    settings = ForumSettings(url=f"{root}viewtopic.php?id=317", username=username,
                             timezone="Europe/Moscow", retries=1)
    http = HttpClient(root, rate_limit=None, retries=1, sleep=lambda s: None,
                      random_=lambda: 0.0)
    return MybbForum(settings, http=http, password=lambda user: Secret("пароль-Макса"))


@pytest.mark.parametrize("reading", READINGS, ids=str)
def test_a_topic_page_told_its_encoding_wrong_stores_the_vote_as_written(
        reading: Reading, tmp_path: Path) -> None:
    with board(reading) as (_, root), forum(root) as f:
        page = next(f.fetch_topic_pages())
    assert [p.author for p in page.posts] == [VOTER, "Лиса"]
    assert the_vote(stored(page, tmp_path / "game.db")) == (VOTER, TARGET)


def test_a_page_that_reads_right_under_no_encoding_is_asked_twice_then_refused() -> None:
    with board(SPOILT) as (b, root), forum(root) as f, pytest.raises(NetworkError) as refused:
        next(f.fetch_topic_pages())
    assert len([s for s in b.seen if s.path.endswith("viewtopic.php")]) == 2
    assert "страница 1 темы 317" in refused.value.message
    assert "не читается ни одним из вариантов" in refused.value.message
    assert "ничего из неё не сохранено" in (refused.value.hint or "")


@pytest.mark.parametrize(
    ("reading", "posted_in"),
    [
        # the form page is sent as                             the answer goes in
        (Reading("cp1251", "windows-1251", "windows-1251"), "cp1251"),  # MyBB.ru's own way
        (Reading("cp1251", None, "UTF-8"), "cp1251"),
        (Reading("cp1251", "utf-8", "UTF-8"), "cp1251"),
        (Reading("utf-8", "utf-8", "windows-1251"), "utf-8"),
        (Reading("utf-8", None, "windows-1251"), "utf-8"),
    ],
    ids=str,
)
def test_a_reply_goes_out_in_the_encoding_its_form_page_was_read_in(
        reading: Reading, posted_in: str) -> None:
    with board(reading, api="open") as (b, root), MybbPoster(forum(root, "Ведущий_Макс")) as p:
        p.reply(TEXT)
    sent = next(s for s in b.seen if s.method == "POST" and s.path.endswith("post.php"))
    message = parse_qs(sent.body.decode("ascii"), encoding=posted_in)["req_message"][0]
    assert message == (TEXT if posted_in == "utf-8" else TEXT.replace("✔", "&#10004;"))


def test_a_form_page_in_ascii_that_declares_nothing_is_answered_in_windows_1251() -> None:
    page = b'<html><body><form id="post" action="post.php?tid=317"></form></body></html>'
    assert form_charset(page, None, "utf-8") == "cp1251"
    assert form_charset(page, "text/html; charset=utf-8", "utf-8") == "utf-8"
    assert form_charset("<p>Ёжик</p>".encode(), None, "utf-8") == "utf-8"


@pytest.mark.parametrize(
    ("page", "reads"),
    [
        # the page                                         reads as MyBB.ru
        ('<div id="pun-navlinks"><ul class="container"><li id="navsearch"><a href="/search.php">'
         "<span>Поиск</span></a></li></ul></div>", True),
        ('<div id="pun-navlinks"><ul class="container"><li id="navsearch"><a href="/search.php">'
         "<span>Ïîèñê</span></a></li></ul></div>", False),    # «Поиск» read as windows-1252
        ('<div id="pun-navlinks"><ul><li><a><span>Search</span></a></li></ul></div>', True),
        ("<div><span>Ïîèñê</span></div>", True),               # no menu: nothing to judge by
        ('<html lang="de"><div id="pun-navlinks"><span>Suche</span></div></html>', True),
    ],
)
def test_which_pages_read_as_mybb(page: str, reads: bool) -> None:
    assert reads_as_mybb(page) is reads


def test_the_words_decide_where_the_mojibake_cannot() -> None:
    # A short cp1251 page, its header says KOI8-R: that reading leaves one signature (a
    # capital inside «Поиск» read so), the right one as many (the nick «ЁжиК»). On the tie
    # the header's reading would win; its missing «Поиск» is what tells.
    page = ('<html><body><div id="pun-navlinks"><span>Поиск</span></div><p>ЁжиК</p>'
            "</body></html>")
    content, header = page.encode("cp1251"), "text/html; charset=KOI8-R"
    assert charset.decide(content, header)[1] == "koi8-r"
    assert charset.decide(content, header, reads_right=reads_as_mybb) == (page, "cp1251")
