"""The real saved vBulletin 3.8, 4.2 and 5.5 pages (../shared/fixtures/vbulletin, read in
place) parse to their manifests: every post's id, author, user id, time in UTC and text."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from adapters.vbulletin import claims_page
from adapters.vbulletin.topic import decode_page, read_topic_page
from referee.core.markup import QUOTE_MARK

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "fixtures" / "vbulletin"
if not SHARED.is_dir():
    pytest.skip(f"{SHARED} is not here: the real vBulletin pages are read in place, not copied",
                allow_module_level=True)

FETCHED = datetime.fromisoformat("2019-07-03T00:00:00+00:00")
# The saved pages were fetched in 2019; the host's zone is deliberately wrong (Moscow) so
# that only the footer's offset can give the manifests' UTC times.
HOST_ZONE = ZoneInfo("Europe/Moscow")
# Words of vBulletin's quote boxes that the manifests keep and the body drops on purpose:
# the «Quote:» caption (vB 3) and the «View Post» link (vB 5) are chrome, not the author's.
_CHROME = re.compile(r"Quote:|View Post|\s+")


def _page(version: int):
    html = decode_page((SHARED / f"vBulletin{version}.html").read_bytes())
    manifest = json.loads((SHARED / f"vBulletin{version}.manifest.json").read_text("utf-8"))
    page, _ = read_topic_page(html, url=f"https://board.test/vBulletin{version}.html",
                              tz=HOST_ZONE, now=FETCHED)
    return html, page, manifest


def _utc(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


@pytest.mark.parametrize("version", [3, 4, 5])
def test_every_post_has_the_manifests_id_author_user_and_utc_time(version: int) -> None:
    _, page, manifest = _page(version)
    assert len(page.posts) == manifest["post_count"]
    got = [(p.post_id, p.author, p.author_id, p.posted_at) for p in page.posts]
    want = [(m["id"], m["author"], m["user_id"], _utc(m["utc"])) for m in manifest["posts"]]
    assert got == want


@pytest.mark.parametrize("version", [3, 4, 5])
def test_every_post_text_starts_as_the_manifest_says(version: int) -> None:
    _, page, manifest = _page(version)
    for post, want in zip(page.posts, manifest["posts"], strict=True):
        text = _CHROME.sub("", post.body_text.replace(QUOTE_MARK, ""))
        # The manifest's extractor read an <iframe>'s fallback markup («<p>No iframe
        # support…») as text; a browser never shows it, and the body leaves it out.
        expected = want["text80"].split("<", 1)[0]
        assert text.startswith(_CHROME.sub("", expected)), post.post_id


def test_quotes_become_blockquotes_with_the_quoted_author_and_are_marked_as_quoted() -> None:
    for version, post_id, author in ((3, 5768670, "TinyRedLeaf"), (4, 365272, "sandsjames"),
                                     (5, 727761, "Buckeye")):
        _, page, _ = _page(version)
        post = next(p for p in page.posts if p.post_id == post_id)
        assert "<blockquote><cite>" in post.body_html and author in post.body_html
        assert "bbcode_container" not in post.body_html
        first = post.body_text.split("\n")[0]
        assert first.startswith(QUOTE_MARK) and author in first


def test_the_vb4_body_is_the_posts_own_text_not_one_big_quote() -> None:
    # vB 4 wraps every post in blockquote.postcontent: taken as the body, not as a quote.
    _, page, _ = _page(4)
    first = page.posts[0]
    assert not first.body_text.startswith(QUOTE_MARK)
    assert "postcontent" not in first.body_html


def test_vb3_colour_stays_as_font_color() -> None:
    _, page, _ = _page(3)
    post = next(p for p in page.posts if p.post_id == 5770009)
    assert '<font color="Red">' in post.body_html and '<font color="red">' in post.body_html


def test_vb3_edit_notices_give_editor_and_time_in_the_footer_zone() -> None:
    _, page, _ = _page(3)
    edits = {p.post_id: p.edit for p in page.posts if p.edit is not None}
    # «Last edited by Shirohige; 2016-02-01 at 03:31.» with «All times are GMT -5».
    assert edits[5768696].editor == "Shirohige"
    assert edits[5768696].edited_at == _utc("2016-02-01T08:31:00Z")
    assert edits[5768715].editor == "karice67"
    assert {e.count for e in edits.values()} == {1}


@pytest.mark.parametrize(("version", "page_no", "pages", "per_page", "total"),
                         [(3, 152, 155, 20, 3086), (4, 1, 2, 10, 15), (5, 1, 2, 15, None)])
def test_pagination_is_read(version: int, page_no: int, pages: int, per_page: int,
                            total: int | None) -> None:
    _, page, _ = _page(version)
    assert (page.page, page.total_pages, page.per_page, page.total_posts) == (
        page_no, pages, per_page, total)
    assert page.next_url


def test_titles_and_thread_numbers() -> None:
    assert _page(3)[1].topic_id == 128882
    assert _page(4)[1].topic_id == 9687
    assert _page(4)[1].title == "Legendary military columnist, author Bob Dorr dies at 76"
    assert _page(5)[1].title == "Isekai Quartet Discussion Thread"


@pytest.mark.parametrize("version", [3, 4, 5])
def test_every_saved_page_is_recognised_as_vbulletin(version: int) -> None:
    assert claims_page(_page(version)[0])
