"""Issue 14 on vBulletin: the real vB 4.2.3 and vB 3.8.11 thread pages
(``../shared/fixtures/vbulletin``, read in place) served under every lie about their
encoding — and as the windows-1251 pages of an old Russian board — read right, their
Russian vote is stored as written, and the forms go out in the encoding decided; a page
that reads right under no encoding is asked for twice, then refused in words that name it.
Each page is the real one with its first poster renamed «Ёжик», a red vote for «Шерлок» at
the top of his post, ``lang="ru"`` and the navbar's «Search» in Russian."""

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
from adapters.vbulletin.client import VbulletinForum  # noqa: E402
from adapters.vbulletin.topic import reads_as_vbulletin  # noqa: E402
from referee.core.errors import NetworkError  # noqa: E402

ROOT = "https://board.test/"
# version: (the thread's address, its page on the saved page, the first poster, the second,
#           his post's message, the element its text begins in)
PAGES = {
    4: ("showthread.php?t=9687", 1, "Rainmaker", "Mjölnir", 'id="post_message_365266"',
        '<blockquote class="postcontent restore ">'),
    3: ("showthread.php?t=128882", 152, "Shirohige", "BBOvenGuy", 'id="post_message_5768670"',
        'style="clear:both;z-index:0;">'),
}


def real_page(version: int, *, russian: bool = True) -> str:
    path = SHARED / "vbulletin" / f"vBulletin{version}.html"
    if not path.is_file():
        pytest.skip(f"{path.parent} is not here: the real vBulletin pages are read in place, "
                    "not copied (../shared/fixtures/vbulletin)")
    _, _, first, _, message, text_in = PAGES[version]
    html = path.read_bytes().decode("utf-8" if version == 4 else "cp1252")
    at = html.index(text_in, html.index(message)) + len(text_in)
    html = (html[:at] + VOTE_HTML + "<br />" + html[at:]).replace(first, VOTER)
    if russian:
        html = html.replace('lang="en"', 'lang="ru"', 1).replace(">Search<", ">Поиск<") \
            .replace('value="Search"', 'value="Поиск"')
    return html


def forum(version: int) -> VbulletinForum:
    http = HttpClient(ROOT, rate_limit=None, retries=1, sleep=lambda s: None,
                      random_=lambda: 0.0)
    return VbulletinForum(ForumSettings(url=ROOT + PAGES[version][0], retries=1), http=http)


def page_url(version: int) -> str:
    address, page, *_ = PAGES[version]
    return ROOT + address + (f"&page={page}" if page > 1 else "")


@pytest.mark.parametrize("version", [4, 3])
@pytest.mark.parametrize("reading", READINGS, ids=str)
def test_a_page_told_its_encoding_wrong_stores_the_vote_as_written(
        version: int, reading: Reading, tmp_path: Path) -> None:
    content, headers = served(real_page(version), reading)
    with respx.mock:
        respx.get(page_url(version)).mock(
            return_value=httpx.Response(200, content=content, headers=headers))
        with forum(version) as f:
            page = f.fetch_topic_page(PAGES[version][1])
            posted_in = f.charset
    assert [p.author for p in page.posts][:2] == [VOTER, PAGES[version][3]]
    assert the_vote(stored(page, tmp_path / "game.db")) == (VOTER, TARGET)
    assert posted_in == charset.codec_name(reading.written_in)   # the forms' charset


def test_a_page_that_reads_right_under_no_encoding_is_asked_twice_then_refused() -> None:
    headers = {"Content-Type": "text/html; charset=windows-1251"}
    with respx.mock:
        route = respx.get(page_url(4)).mock(
            return_value=httpx.Response(200, content=spoilt(real_page(4)), headers=headers))
        with forum(4) as f, pytest.raises(NetworkError) as refused:
            f.fetch_topic_page(1)
    assert route.call_count == 2
    assert "тема t=9687, страница 1" in refused.value.message
    assert "не читается ни одним из вариантов" in refused.value.message
    assert "ничего из неё не сохранено" in (refused.value.hint or "")


@pytest.mark.parametrize(
    ("page", "reads"),
    [
        # the page                                  reads as vBulletin
        ("vB 4 in Russian", True),
        ("vB 4 in Russian, its words spoilt", False),   # «Поиск», «Часовой пояс» garbled
        ("vB 3 in Russian", True),
        ("vB 3 in Russian, its words spoilt", False),
        ("vB 4 in English", True),
        ("vB 4 in English, its words spoilt", True),    # ASCII reads alike in every one
        ("vB 4 in Russian, no navbar search", True),    # nothing of vB's to judge by
    ],
)
def test_which_pages_read_as_vbulletin(page: str, reads: bool) -> None:
    version = int(page[3])
    html = real_page(version, russian="Russian" in page)
    if "Russian" in page:
        html = html.replace("All times are", "Часовой пояс")
    if "no navbar search" in page:
        html = html.replace('id="navbar_search"', "")
    if "spoilt" in page:
        html = html.encode("cp1251", "xmlcharrefreplace").decode("cp1252", "replace")
    assert reads_as_vbulletin(html) is reads


def test_the_words_decide_where_the_mojibake_cannot() -> None:
    # A short cp1251 page, its header says KOI8-R: that reading leaves one signature (a
    # capital inside «Поиск» read so), the right one as many (the nick «ЁжиК»). On the tie
    # the header's reading would win; its missing «Поиск» is what tells.
    page = ('<html dir="ltr" lang="ru"><body><li id="navbar_search"><a>Поиск</a></li>'
            "<p>ЁжиК</p></body></html>")
    content, header = page.encode("cp1251"), "text/html; charset=KOI8-R"
    assert charset.decide(content, header)[1] == "koi8-r"
    assert charset.decide(content, header, reads_right=reads_as_vbulletin) == (page, "cp1251")
