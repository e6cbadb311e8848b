"""Topic pages of the real phpBB 3.3.10 board («Мафия: игра 2») against its manifest."""

from __future__ import annotations

import re

import pytest
from phpbb_pages import BOARD, manifest, topic, utc

from referee.core.markup import QUOTE_MARK, unquoted_lines

GUEST = ["topic_p1_guest.html", "topic_p2_guest.html", "topic_p3_guest.html",
         "topic_p4_guest.html"]
HOST = ["topic_p1_host.html", "topic_p2_host.html", "topic_p3_host.html",
        "topic_p4_host.html"]


def _all_posts(names: list[str]):
    return [post for name in names for post in topic(name).posts]


@pytest.mark.parametrize("pages", [GUEST, HOST], ids=["guest", "host"])
def test_every_post_of_the_topic_is_read_with_author_id_time_and_place(pages):
    expected = manifest()["posts"]
    posts = _all_posts(pages)
    assert len(posts) == len(expected) == 70
    for post, want in zip(posts, expected, strict=True):
        got = (post.post_id, post.author, post.author_id, post.posted_at, post.page,
               post.position, post.topic_id)
        assert got == (want["post_id"], want["author"], want["author_user_id"],
                       utc(want["time"]["utc"]), want["page"], want["position_on_page"], 3)


@pytest.mark.parametrize("name", ["topic_p1_host_en.html", "topic_p3_host_en.html"])
def test_english_pages_give_the_same_posts_as_russian_ones(name):
    russian = topic(name.replace("_en", ""))
    english = topic(name)
    # Quote captions are translated («wrote:» / «писал(а):»); the players' own lines are not.
    assert [(p.post_id, p.author, p.author_id, p.posted_at, unquoted_lines(p.body_text))
            for p in english.posts] == [
        (p.post_id, p.author, p.author_id, p.posted_at, unquoted_lines(p.body_text))
        for p in russian.posts]


def test_quoted_lines_are_marked_and_own_lines_are_not():
    by_id = {p.post_id: p for p in _all_posts(GUEST)}
    quoting = [p for p in manifest()["posts"] if "[quote" in p["bbcode"]]
    assert quoting, "the fixture has posts with quotes"
    for want in quoting:
        text = by_id[want["post_id"]].body_text
        quoted = [line for line in text.split("\n") if line.startswith(QUOTE_MARK)]
        assert quoted, f"post {want['post_id']} quotes someone"
        # What the quoter wrote after [/quote] is his own text.
        own_tail = re.sub(r"\[/?[a-z*]+(=[^\]]*)?\]", "", want["bbcode"].rsplit("[/quote]", 1)[1])
        own_tail_lines = [line.strip() for line in own_tail.split("\n") if line.strip()]
        assert own_tail_lines[-1] in unquoted_lines(text)
    for want in manifest()["posts"]:
        if "[quote" not in want["bbcode"]:
            assert QUOTE_MARK not in by_id[want["post_id"]].body_text


def test_post_body_is_the_content_only_without_notice_or_signature():
    edited = next(p for p in topic("topic_p3_host.html").posts if p.post_id == 126)
    assert "редактировалось" not in edited.body_html
    assert "редактировалось" not in edited.body_text
    assert edited.body_text.endswith("Мой голос – Шерлок")
    assert '<span style="color:red">Шерлок</span>' in edited.body_html


@pytest.mark.parametrize(
    ("name", "editor", "moscow_time", "count"),
    [
        ("topic_p3_host.html", "Тень_Ночи", "2026-11-22T14:26:00+03:00", 1),
        ("topic_p3_guest.html", "Тень_Ночи", "2026-11-22T14:26:00+03:00", 1),
        ("topic_p3_host_en.html", "Тень_Ночи", "2026-11-22T14:26:00+03:00", 1),
    ],
)
def test_edit_notice_gives_editor_time_and_count(name, editor, moscow_time, count):
    notices = {p.post_id: p.edit for p in topic(name).posts if p.edit is not None}
    assert list(notices) == [126]
    assert notices[126].editor == editor
    assert notices[126].edited_at == utc(moscow_time)
    assert notices[126].count == count


def test_page_saved_before_the_edit_has_no_notice_and_the_old_target():
    before = next(p for p in topic("topic_p3_host_before_edit.html").posts if p.post_id == 126)
    after = next(p for p in topic("topic_p3_host.html").posts if p.post_id == 126)
    assert before.edit is None
    assert before.body_text.endswith("Мой голос – Kotik")
    assert after.body_text.endswith("Мой голос – Шерлок")
    assert before.posted_at == after.posted_at


@pytest.mark.parametrize(
    ("name", "page", "next_start"),
    [
        ("topic_p1_guest.html", 1, 20),
        ("topic_p2_guest.html", 2, 40),
        ("topic_p3_host.html", 3, 60),
        ("topic_p4_host.html", 4, None),
    ],
)
def test_pagination_first_middle_and_last_page(name, page, next_start):
    result = topic(name)
    assert (result.page, result.total_pages, result.per_page, result.total_posts) == (
        page, 4, 20, 70)
    if next_start is None:
        assert result.next_url is None
    else:
        assert result.next_url == f"{BOARD}/viewtopic.php?t=3&start={next_start}"


def test_one_page_topic_has_no_next_page():
    from phpbb_pages import MOSCOW, SAVED_AT, html

    from adapters.phpbb.topic import parse_topic_page

    result = parse_topic_page(html("phpbb33-ru/posting_reply_success.html"),
                              url=f"{BOARD}/viewtopic.php?p=146", tz=MOSCOW, now=SAVED_AT)
    assert (result.topic_id, result.title, result.page, result.total_pages) == (
        1, "Welcome to phpBB3", 1, 1)
    assert result.next_url is None
    assert result.total_posts == 2
    assert [p.post_id for p in result.posts] == [1, 146]


def test_topic_title_and_id():
    result = topic("topic_p2_host.html")
    assert (result.topic_id, result.title) == (3, "Мафия: игра 2")


def test_foe_or_soft_deleted_post_hidden_by_css_is_still_read():
    # 3.1+ keeps the hidden post in the page (viewtopic_body.html, S_POST_HIDDEN): a
    # div.ignore notice, and the profile and content with style="display: none;".
    from phpbb_pages import MOSCOW, SAVED_AT, html

    from adapters.phpbb.topic import parse_topic_page

    page = html("phpbb33-ru/topic_p4_guest.html")
    page = page.replace('<dl class="postprofile" id="profile138">',
                        '<dl class="postprofile" id="profile138" style="display: none;">', 1)
    page = page.replace(
        '<div id="post_content138">',
        '<div class="ignore" id="post_hidden138">Автором этого сообщения является <strong>'
        '<a href="./memberlist.php?mode=viewprofile&amp;u=66" class="username">Ёжик</a>'
        '</strong>, находящийся в вашем чёрном списке.<br /><a class="display_post" '
        'data-post-id="138" href="./viewtopic.php?p=138&amp;view=show#p138">Показать это '
        'сообщение</a>.</div>\n<div id="post_content138" style="display: none;">', 1)
    hidden = parse_topic_page(page, url=f"{BOARD}/viewtopic.php?t=3&start=60", tz=MOSCOW,
                              now=SAVED_AT)
    shown = topic("topic_p4_guest.html")
    assert hidden.posts == shown.posts
