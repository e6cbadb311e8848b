"""The real saved XenForo pages (../shared/fixtures/xenforo, read in place) parse to their
manifests: every post's id, author, user id and time, and the body the manifest names."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from selectolax.lexbor import LexborHTMLParser

from adapters.base import ForumSettings
from adapters.charset import decode_lenient
from adapters.registry import engine_for
from adapters.xenforo import claims_page
from adapters.xenforo.page import reads_as_xenforo
from adapters.xenforo.topic import read_thread_page
from referee.core.markup import QUOTE_MARK

FIXTURES = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "xenforo"
NOW = datetime(2024, 6, 1, tzinfo=UTC)
URLS = {
    "Xenforo2": "https://xenforo.com/community/threads/a-dark-theme-option.8276/",
    "Xenforo1": "https://forums.sufficientvelocity.com/threads/renascence-a-homura-quest.10402/"
                "page-54",
}
CHROME = "Clicktoexpand...Clicktoshrink..."
VIEWER = {"Xenforo2": ZoneInfo("Europe/London"), "Xenforo1": ZoneInfo("America/Chicago")}
"""A zone consistent with what each page says of its viewer: XF.config.time / serverTimeInfo
«today» is the viewer's midnight (XF2: UTC+1 on 2019-07-03, the guest zone Europe/London;
XF1: UTC−5 on 2017-07-03, a US Central zone). XF1 prints wall times only, so its instants
depend on the zone's rules for 2014 (CDT −5 in October, CST −6 in December)."""


def _load(name: str) -> tuple[str, dict]:
    if not FIXTURES.is_dir():
        pytest.skip(f"{FIXTURES} is not here: the real XenForo pages are kept outside the "
                    "project (../shared/fixtures/xenforo)")
    html = decode_lenient((FIXTURES / f"{name}.html").read_bytes(), reads_right=reads_as_xenforo)
    manifest = json.loads((FIXTURES / f"{name}.manifest.json").read_text(encoding="utf-8"))
    return html, manifest


def _compact(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _without_chrome(text80: str) -> str:
    """The manifest's text without XF1's «Click to expand... Click to shrink...» (also
    when the 80-character cut fell inside it)."""
    text = _compact(text80).replace(CHROME, "")
    for k in range(len(CHROME), 0, -1):
        if text.endswith(CHROME[:k]):
            return text[:-k]
    return text


@pytest.mark.parametrize("name", ["Xenforo2", "Xenforo1"])
def test_every_post_matches_the_manifest(name: str) -> None:
    html, manifest = _load(name)
    view = read_thread_page(html, url=URLS[name], tz=VIEWER[name], now=NOW)
    posts = view.page.posts
    assert len(posts) == manifest["post_count"] == len(manifest["posts"])
    for post, want in zip(posts, manifest["posts"], strict=True):
        assert (post.post_id, post.author, post.author_id) == (
            want["id"], want["author"], want["user_id"])
        if want["utc"]:
            # data-time (unix seconds): exact, whatever offset the ISO text carries.
            assert post.posted_at == datetime.fromisoformat(want["utc"].replace("Z", "+00:00"))
        else:
            # XF1 prints the viewer's wall time only: read in the viewer's zone.
            shown = datetime.strptime(want["time_title"], "%b %d, %Y at %I:%M %p")
            assert post.posted_at == shown.replace(tzinfo=VIEWER[name]).astimezone(UTC)
        # The body is the element the manifest read, minus XenForo's own chrome (the
        # «Click to expand...» of quotes) and images, which the manifest's text leaves out.
        tree = LexborHTMLParser(f"<div>{post.body_html}</div>")
        for img in tree.css("img"):
            img.decompose()
        assert _compact(tree.body.text(separator=" ")).startswith(
            _without_chrome(want["text80"]))


def test_xenforo2_page_facts() -> None:
    html, _ = _load("Xenforo2")
    view = read_thread_page(html, url=URLS["Xenforo2"], tz=ZoneInfo("UTC"), now=NOW)
    page = view.page
    assert (page.topic_id, page.title, page.page, page.total_pages) == (
        8276, "a dark theme option", 1, 1)
    assert view.canonical == URLS["Xenforo2"]
    assert not view.logged_in and view.token == "1562130994,d8f3b3c32cbd2529ed60e8a76656f7c7"
    assert page.per_page == 20  # one page: the board's setting is unknown, XF's default
    assert page.total_posts == 8  # the last post's «#8»
    assert "\n" in page.posts[0].body_text  # <br /> line breaks
    assert claims_page(html)


def test_xenforo1_page_facts() -> None:
    html, _ = _load("Xenforo1")
    view = read_thread_page(html, url=URLS["Xenforo1"], tz=VIEWER["Xenforo1"], now=NOW)
    page = view.page
    assert (page.topic_id, page.page, page.total_pages, page.per_page) == (10402, 54, 347, 25)
    assert view.logged_in and (view.token or "").startswith("4076,")
    quoted = page.posts[1]
    # div.bbCodeQuote → <blockquote> with its attribution inside: quoted, never own words.
    assert quoted.body_text.splitlines()[0] == QUOTE_MARK + "Higure said: ↑"
    assert "OOC behavior? which part?" in quoted.body_text.splitlines()
    assert "Click to expand" not in quoted.body_html
    edited = next(p for p in page.posts if p.edit is not None)
    # «Dec 4, 2014 at 2:29 AM» in US Central winter time (CST, UTC−6).
    assert edited.edit.edited_at == datetime(2014, 12, 4, 8, 29, tzinfo=UTC)
    assert claims_page(html)


def test_a_board_zone_the_page_contradicts_gives_way_to_the_pages_own_offset() -> None:
    # [forum] timezone says UTC, the XF1 page says its viewer was at UTC−5: the wall times
    # printed without a zone are read at −5 (the host would otherwise be 5 hours off).
    html, _ = _load("Xenforo1")
    page = read_thread_page(html, url=URLS["Xenforo1"], tz=ZoneInfo("UTC"), now=NOW).page
    assert page.posts[0].posted_at == datetime(2014, 10, 31, 3, 48, tzinfo=UTC)  # 22:48 −5


def test_the_real_addresses_pick_xenforo() -> None:
    for url in URLS.values():
        assert engine_for(ForumSettings(url=url)).name == "xenforo"
