"""Issue 14 on XenForo: the real XF 2 thread page (``../shared/fixtures/xenforo``, read in
place) served under every lie about its encoding reads right, and its Russian vote is
stored as written; a page that reads right under no encoding is asked for twice, then
refused in words that name it. The page is the real one with its first poster renamed
«Ёжик», a red vote for «Шерлок» in his post, and the Russian words of the language pack
where the English page has its «Search» and «Forums»."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import pytest
import respx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "charset"))

from charset_cases import (  # noqa: E402
    READINGS,
    SHARED,
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
from adapters.base import ForumSettings, HttpClient  # noqa: E402
from adapters.xenforo.client import XenforoForum  # noqa: E402
from adapters.xenforo.page import reads_as_xenforo  # noqa: E402
from referee.core.errors import NetworkError  # noqa: E402

URL = "https://xenforo.com/community/threads/a-dark-theme-option.8276/"
PAGE = SHARED / "xenforo" / "Xenforo2.html"


def real_page(*, russian: bool = True) -> str:
    if not PAGE.is_file():
        pytest.skip(f"{PAGE.parent} is not here: the real XenForo pages are kept outside "
                    "the project (../shared/fixtures/xenforo)")
    html = PAGE.read_bytes().decode("utf-8").replace("dieketzer", VOTER)
    html = html.replace('<div class="bbWrapper">', f'<div class="bbWrapper">{VOTE_HTML}<br />',
                        1)
    if russian:
        html = html.replace('lang="en-US"', 'lang="ru-RU"', 1).replace(
            ">Search<", ">Поиск<").replace(">Forums<", ">Форумы<")
    return html


def forum() -> XenforoForum:
    http = HttpClient("https://xenforo.com/community/", rate_limit=None, retries=1,
                      sleep=lambda s: None, random_=lambda: 0.0)
    return XenforoForum(ForumSettings(url=URL, retries=1), http=http)


@pytest.mark.parametrize("reading", READINGS, ids=str)
def test_a_page_told_its_encoding_wrong_stores_the_vote_as_written(
        reading: Reading, tmp_path: Path) -> None:
    content, headers = served(real_page(), reading)
    with respx.mock:
        respx.get(URL).mock(return_value=httpx.Response(200, content=content, headers=headers))
        with forum() as f:
            page = f.fetch_topic_page(1)
    assert [p.author for p in page.posts][:2] == [VOTER, "krstep"]
    assert the_vote(stored(page, tmp_path / "game.db")) == (VOTER, TARGET)


def test_the_xenforo1_pages_own_bom_wins_over_the_header() -> None:
    path = SHARED / "xenforo" / "Xenforo1.html"
    if not path.is_file():
        pytest.skip(f"{path.parent} is not here (../shared/fixtures/xenforo)")
    url = ("https://forums.sufficientvelocity.com/threads/renascence-a-homura-quest.10402/"
           "page-54")
    raw = path.read_bytes().replace(b"TheBleachDoctor", VOTER.encode())
    assert raw.startswith(b"\xef\xbb\xbf")                     # saved as the board sent it
    headers = {"Content-Type": "text/html; charset=windows-1251"}
    with respx.mock:
        respx.get(url).mock(return_value=httpx.Response(200, content=raw, headers=headers))
        http = HttpClient("https://forums.sufficientvelocity.com/", rate_limit=None,
                          retries=0, sleep=lambda s: None)
        with XenforoForum(ForumSettings(url=url), http=http) as f:
            page = f.fetch_topic_page(54)
    assert [p.author for p in page.posts][:2] == [VOTER, "Crow"]


def test_a_page_that_reads_right_under_no_encoding_is_asked_twice_then_refused() -> None:
    headers = {"Content-Type": "text/html; charset=windows-1251"}
    with respx.mock:
        route = respx.get(URL).mock(
            return_value=httpx.Response(200, content=spoilt(real_page()), headers=headers))
        with forum() as f, pytest.raises(NetworkError) as refused:
            f.fetch_topic_page(1)
    assert route.call_count == 2
    assert "тема 8276, страница 1" in refused.value.message
    assert "не читается ни одним из вариантов" in refused.value.message
    assert "ничего из неё не сохранено" in (refused.value.hint or "")


@pytest.mark.parametrize(
    ("page", "reads"),
    [
        # the page                                              reads as XenForo
        ("russian", True),
        ("russian, its words spoilt", False),    # «Поиск» read in the wrong code page
        ("english", True),
        ("english, its words spoilt", True),     # ASCII reads the same in every one
        ("russian, no quick search", True),      # nothing of XenForo's to judge by
        ("german", True),                         # another language: not judged
    ],
)
def test_which_pages_read_as_xenforo(page: str, reads: bool) -> None:
    html = real_page(russian=page.startswith("russian"))
    if "spoilt" in page:
        html = html.encode("cp1251", "xmlcharrefreplace").decode("cp1252", "replace")
    if "no quick search" in page:
        html = html.replace('data-xf-init="quick-search"', "")
    if page == "german":
        html = html.replace('lang="en-US"', 'lang="de-DE"').replace(">Search<", ">Suche<")
    assert reads_as_xenforo(html) is reads


def test_the_words_decide_where_the_mojibake_cannot() -> None:
    # A short cp1251 page, its header says KOI8-R: that reading leaves one signature (a
    # capital inside «Поиск» read so), and the right one as many (the nick «ЁжиК»). On the
    # tie the header's reading would win; its missing «Поиск» is what tells.
    page = ('<html id="XF" lang="ru-RU"><body><form data-xf-init="quick-search"><h3>Поиск'
            "</h3></form><p>ЁжиК</p></body></html>")
    content, header = page.encode("cp1251"), "text/html; charset=KOI8-R"
    assert charset.decide(content, header)[1] == "koi8-r"
    assert charset.decide(content, header, reads_right=reads_as_xenforo) == (page, "cp1251")
