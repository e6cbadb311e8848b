"""Issue 14 on SMF: the real page 1 of the game topic (``fixtures/smf21-ru``, a real SMF
2.1.4 board with the Russian pack) served under every lie about its encoding — and as the
windows-1251 page of an old board — reads right, and its Russian vote is stored as
written; a page that reads right under no encoding is asked for twice, then refused in
words that name it. The page is the real one with the host renamed «Ёжик» and a red vote
for «Шерлок» at the top of his first post."""

from __future__ import annotations

import sys
from pathlib import Path

import httpx
import pytest
import respx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "charset"))

from charset_cases import (  # noqa: E402
    FIXTURES,
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
from adapters.base import ForumSettings, HttpClient  # noqa: E402
from adapters.smf.client import SmfForum  # noqa: E402
from adapters.smf.page import reads_as_smf  # noqa: E402
from referee.core.errors import NetworkError  # noqa: E402

URL = "http://127.0.0.1:8080/index.php?topic=2.0"
REAL = FIXTURES / "smf21-ru"


def real_page(name: str = "topic_p1_host.html") -> str:
    html = (REAL / name).read_text(encoding="utf-8").replace("Ведущий", VOTER)
    return html.replace('id="msg_2">', f'id="msg_2">{VOTE_HTML}<br>', 1)


def forum() -> SmfForum:
    http = HttpClient("http://127.0.0.1:8080/index.php", rate_limit=None, retries=1,
                      sleep=lambda s: None, random_=lambda: 0.0)
    return SmfForum(ForumSettings(url=URL, timezone="Europe/Moscow", retries=1), http=http)


@pytest.mark.parametrize("reading", READINGS, ids=str)
def test_a_page_told_its_encoding_wrong_stores_the_vote_as_written(
        reading: Reading, tmp_path: Path) -> None:
    content, headers = served(real_page(), reading)
    with respx.mock:
        respx.get(URL).mock(return_value=httpx.Response(200, content=content, headers=headers))
        with forum() as f:
            page = next(f.fetch_topic_pages())
    assert [p.author for p in page.posts][:3] == [VOTER, "Шерлок", "Kotik"]
    assert the_vote(stored(page, tmp_path / "game.db")) == (VOTER, TARGET)


def test_a_page_that_reads_right_under_no_encoding_is_asked_twice_then_refused() -> None:
    headers = {"Content-Type": "text/html; charset=windows-1251"}
    with respx.mock:
        route = respx.get(URL).mock(
            return_value=httpx.Response(200, content=spoilt(real_page()), headers=headers))
        with forum() as f, pytest.raises(NetworkError) as refused:
            next(f.fetch_topic_pages())
    assert route.call_count == 2
    assert "тему 2, страницу 1" in refused.value.message
    assert "не читается ни одним из вариантов" in refused.value.message
    assert "ничего из неё не сохранено" in (refused.value.hint or "")


@pytest.mark.parametrize(
    ("page", "reads"),
    [
        # the page                                   reads as SMF
        ("topic_p1_host.html", True),
        ("topic_p1_host.html, its words spoilt", False),  # «Поиск» in the wrong code page
        ("login_page.html", True),
        ("login_page.html, its words spoilt", False),
        ("pm_inbox_host.html", True),
        ("topic_print_guest.html, its words spoilt", True),  # no search form: not judged
        ("topic_p1_host.html, English words", True),         # the English pack's
        ("topic_p1_host.html, English words spoilt", True),  # ASCII reads alike in all
        ("topic_p1_host.html, German", True),                # another language: not judged
    ],
)
def test_which_pages_read_as_smf(page: str, reads: bool) -> None:
    html = (REAL / page.split(",")[0]).read_text(encoding="utf-8")
    if "English" in page:
        html = html.replace("Поиск", "Search").replace("Помощь", "Help")
    if "German" in page:
        html = html.replace('lang="ru-RU"', 'lang="de-DE"').replace("Поиск", "Suche") \
            .replace("Помощь", "Hilfe")
    if "spoilt" in page:
        html = html.encode("utf-8").decode("cp1252", "replace")
    assert reads_as_smf(html) is reads


def test_the_words_decide_where_the_mojibake_cannot() -> None:
    # A short cp1251 page, its header says KOI8-R: that reading leaves one signature (a
    # capital inside «Поиск» read so), the right one as many (the nick «ЁжиК»). On the tie
    # the header's reading would win; its missing «Поиск» is what tells.
    page = ('<html lang="ru-RU"><body><form id="search_form"><input value="Поиск"></form>'
            "<p>ЁжиК</p></body></html>")
    content, header = page.encode("cp1251"), "text/html; charset=KOI8-R"
    assert charset.decide(content, header)[1] == "koi8-r"
    assert charset.decide(content, header, reads_right=reads_as_smf) == (page, "cp1251")
