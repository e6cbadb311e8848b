"""The real SMF 2.1.4 topic pages («Мафия: игра 1», 70 posts on 3 pages) against the
manifest of the board that rendered them: ids, authors, user ids, times, places, texts,
quotes, colours, edit notices, pagination, and what the shared vote reader makes of them."""

from __future__ import annotations

import hashlib
import re
from datetime import timedelta

import pytest
from smf_pages import (
    MOSCOW,
    SAVED_AT,
    game_posts,
    html,
    manifest,
    page_url,
    topic,
    topic_posts,
    utc,
)

from adapters.smf.topic import parse_topic_page
from referee.core.errors import ConfigError, LoginRequired
from referee.core.markup import QUOTE_MARK, unquoted_lines
from referee.core.nicks import Roster
from referee.rules.day.reading import find_vote

_TAG = re.compile(r"\[/?(?:b|i|u|s|color|size|center|font|url|list|li)(?:=[^\]]*)?\]")
_NOTE_VOTE = re.compile(r"(?P<voter>[^ :]+(?: Марпл)?) -> (?P<target>Мисс Марпл|[^ ,()]+)")


def _own_text(bbcode: str) -> str:
    """What the author wrote outside quotes, BBCode tags removed (SMF 2.1 has no
    [spoiler], so that one stays as typed)."""
    bare = re.sub(r"\[quote[^\]]*\].*?\[/quote\]", "\n", bbcode, flags=re.S)
    return " ".join(_TAG.sub("", bare).split())


@pytest.mark.parametrize("who", ["guest", "host"])
def test_every_post_is_read_with_id_author_user_id_time_and_place(who: str) -> None:
    posts = topic_posts(who)
    expected = game_posts()
    assert len(posts) == len(expected) == 70
    for post, want in zip(posts, expected, strict=True):
        place = want["position"] - (want["page"] - 1) * 25 + 1
        assert (post.post_id, post.author, post.author_id, post.posted_at, post.page,
                post.position, post.topic_id) == (
            want["id_msg"], want["author"], want["author_id"], utc(want["time"]["utc"]),
            want["page"], place, 2)
        assert " ".join(" ".join(unquoted_lines(post.body_text)).split()) == \
            _own_text(want["bbcode"]), want["key"]


def test_a_guest_and_the_host_get_the_same_body_of_every_post() -> None:
    # The store keeps a new revision whenever a body hashes differently (edit forensics):
    # reading once as a guest and once as the host must not look like 70 edits.
    def digest(who: str) -> list[str]:
        return [hashlib.sha256(p.body_html.encode()).hexdigest() for p in topic_posts(who)]

    assert digest("guest") == digest("host")


def test_edit_notices_give_the_editor_and_the_edit_time_not_the_post_time() -> None:
    by_id = {p.post_id: p for p in topic_posts("guest")}
    edited = [w for w in game_posts() if w.get("modified")]
    assert [w["key"] for w in edited] == ["a13", "a59"]
    for want in game_posts():
        notice = by_id[want["id_msg"]].edit
        if not want.get("modified"):
            assert notice is None, want["key"]
            continue
        assert notice is not None
        edited_at = utc(want["modified"]["time"]["utc"])
        assert notice.editor == want["modified"]["by"]
        assert notice.edited_at == edited_at - timedelta(seconds=edited_at.second)
        assert notice.count == 1
        assert notice.edited_at != by_id[want["id_msg"]].posted_at


def test_the_edit_reason_is_not_part_of_the_editor() -> None:
    post = next(p for p in topic_posts("guest") if p.post_id == 60)
    assert post.edit is not None and post.edit.editor == "Гроза"
    assert "передумала" not in post.body_text


def test_quotes_are_blockquotes_whose_lines_are_marked() -> None:
    by_id = {p.post_id: p for p in topic_posts("guest")}
    quoting = [w for w in game_posts() if "[quote" in w["bbcode"]]
    assert [w["key"] for w in quoting] == ["a12", "a41"]
    for want in quoting:
        post = by_id[want["id_msg"]]
        assert post.body_html.startswith('<blockquote class="bbc_standard_quote"><cite>')
        quoted = [line for line in post.body_text.split("\n") if line.startswith(QUOTE_MARK)]
        assert quoted[0].startswith(QUOTE_MARK + "Цитата: ")
        inner = re.search(r"\[quote[^\]]*\](.*?)\[/quote\]", want["bbcode"], re.S)
        assert inner is not None
        assert " ".join(_TAG.sub("", inner.group(1)).split()) in " ".join(
            line[1:] for line in quoted[1:])
    for want in game_posts():
        if "[quote" not in want["bbcode"]:
            assert QUOTE_MARK not in by_id[want["id_msg"]].body_text


def test_colours_stay_as_smf_prints_them() -> None:
    by_id = {p.post_id: p for p in topic_posts("guest")}
    seen = set()
    for want in game_posts():
        for colour, inner in re.findall(r"\[color=([^\]]+)\](.*?)\[/color\]", want["bbcode"],
                                        re.S):
            text = _TAG.sub("", inner).split("\n")[0]
            assert f'<span style="color: {colour};" class="bbc_color">' in \
                by_id[want["id_msg"]].body_html, want["key"]
            assert text in by_id[want["id_msg"]].body_text
            seen.add(colour)
    assert {"red", "#FF0000"} <= seen


def test_pages_know_their_number_size_and_next_page() -> None:
    got = [(t.page, t.total_pages, t.per_page, t.next_url, t.total_posts, t.title)
           for t in (topic(f"topic_p{n}_guest.html") for n in (1, 2, 3))]
    assert got == [
        (1, 3, 25, "http://127.0.0.1:8080/index.php?topic=2.25", None, "Мафия: игра 1"),
        (2, 3, 25, "http://127.0.0.1:8080/index.php?topic=2.50", None, "Мафия: игра 1"),
        (3, 3, 25, None, 70, "Мафия: игра 1"),
    ]
    single = topic("closed_topic_host.html")
    assert (single.page, single.total_pages, single.per_page, single.topic_id) == (1, 1, 2, 3)


def test_literal_spoiler_and_smileys() -> None:
    by_id = {p.post_id: p for p in topic_posts("guest")}
    assert "[spoiler]" in by_id[15].body_text  # SMF 2.1 has no spoiler tag
    smiley = by_id[63]
    assert 'class="smiley"' in smiley.body_html and "src=" not in smiley.body_html
    assert ":)" in smiley.body_text


def test_the_shared_vote_reader_reads_each_vote_the_manifest_names() -> None:
    roster = Roster([p["name"] if isinstance(p, dict) else p for p in manifest()["players"]])
    by_id = {p.post_id: p for p in topic_posts("guest")}
    checked = 0
    for want in game_posts():
        notes = list(_NOTE_VOTE.finditer(want.get("note", "")))
        if not notes or want["note"].startswith("quotes"):
            continue
        reading = find_vote(by_id[want["id_msg"]], roster)
        # An edited vote: the page shows the text after the edit (the note's last arrow).
        assert reading is not None and reading.target == notes[-1]["target"], want["key"]
        checked += 1
    assert checked >= 30
    # a12 quotes a vote and votes nothing; «мой голос» without red is no vote (a25, a28).
    for pid in (13,):
        assert find_vote(by_id[pid], roster) is None
    for pid in (26, 29):
        reading = find_vote(by_id[pid], roster)
        assert reading is None or reading.target is None


def test_today_dates_are_read_against_the_boards_own_clock() -> None:
    # Two posts made while capturing, printed «Сегодня в 21:42» (the header clock says
    # 01.12.2026 21:42 MSK): the host's clock is not asked.
    tp = parse_topic_page(html("reply_result_host.html"), url=page_url("reply_result_host.html"),
                          tz=MOSCOW, now=SAVED_AT + timedelta(days=30))
    by_id = {p.post_id: p for p in tp.posts}
    for want in manifest()["posted_during_capture"]:
        when = utc(want["time"]["utc"])
        assert by_id[want["id_msg"]].posted_at == when - timedelta(seconds=when.second)


def test_a_page_printed_in_another_zone_than_the_config_says_is_refused() -> None:
    with pytest.raises(ConfigError) as err:
        parse_topic_page(html("topic_p1_guest.html"), url=page_url("topic_p1_guest.html"),
                         tz=MOSCOW.__class__("UTC"), now=SAVED_AT)
    assert "UTC+3" in err.value.message and "[forum] timezone" in err.value.message


def test_a_members_only_topic_asks_a_guest_to_log_in() -> None:
    with pytest.raises(LoginRequired) as err:
        topic("closed_topic_guest.html")
    assert "отсутствует или недоступна" in err.value.message


def test_the_print_view_cannot_serve_a_sync() -> None:
    # Measured on topic_print_guest.html: the whole topic in 1 request (32 812 bytes)
    # instead of 3 pages (210 060 bytes), but SMF prints it for paper — without colour
    # (every red vote turns black), without message ids, user ids and edit notices.
    page = html("topic_print_guest.html")
    normal = [html(f"topic_p{n}_guest.html") for n in (1, 2, 3)]
    assert page.count('class="postheader"') == 70
    assert sum(p.count("bbc_color") for p in normal) == 40
    assert "bbc_color" not in page and "color:" not in page.split("</style>", 1)[1]
    assert not re.search(r'id="msg\d+"|action=profile;u=|Последнее редактирование', page)
    assert "Мой голос – Kotik потому что слишком активно" in page
