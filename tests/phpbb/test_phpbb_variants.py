"""A vote post «Мой голос – <red nick>» comes out with the right author, time, number and body
on every phpBB version and style the engine knows (phpbb_variants names each shape and
adapters/phpbb/README.md its source), for members, coloured administrators and guests; the
date formats a viewer may set; what is not the author's text left out."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from phpbb_variant_pages import family, topic_page
from phpbb_variants import (
    MOSCOW,
    NOW,
    POST_VARIANTS,
    TIME_ELEMENT,
    URL,
    Vp,
    prosilver30,
    prosilver32,
    subsilver2,
)

from adapters.phpbb.snapshot import page_kind
from adapters.phpbb.topic import parse_topic_page
from referee.core.kernel import Post, TopicPage
from referee.core.nicks import Roster
from referee.rules.day.reading import find_vote

ROSTER = Roster(["Лиса", "Ёжик", "Шерлок", "Kotik", "Прохожий", "admin"])
REASON = "Лиса весь день уходит от ответов и путается в показаниях."


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=MOSCOW)


def vote_body(variant: str) -> str:
    """The vote as the variant's phpBB renders [color=#FF0000]: 3.0/3.1 keep the space
    after the colon, s9e (3.2+) drops it."""
    old = family(variant) != "3.1+" or variant == "prosilver 3.1"
    red = ('<span style="color: #FF0000">Лиса</span>' if old
           else '<span style="color:#FF0000">Лиса</span>')
    return f"{REASON}<br />Мой голос – {red}"


def _page(variant: str, vote: Vp, fmt: str | None = None) -> TopicPage:
    render = POST_VARIANTS[variant]
    host = Vp(501, "Ведущий", 58, at("2026-11-20 18:00:07"), "День 1 начался.")
    other = Vp(503, "Шерлок", 59, at("2026-11-21 11:52:40"), "Пока думаю, голос позже.",
               signature='<span style="color: #FF0000">Шерлок всегда прав</span>')
    blocks = "".join(render(p, fmt) if fmt else render(p) for p in (host, vote, other))
    html = topic_page(variant, blocks)
    assert page_kind(html) == "topic"
    return parse_topic_page(html, url=URL, tz=MOSCOW, now=NOW)


def _exact(variant: str, got: datetime, want: datetime) -> None:
    if variant in TIME_ELEMENT:
        assert got == want.astimezone(UTC)
    else:  # text dates carry whole minutes
        assert got == want.astimezone(UTC).replace(second=0)


def _the_vote(page: TopicPage, post_id: int) -> Post:
    (post,) = [p for p in page.posts if p.post_id == post_id]
    return post


@pytest.mark.parametrize("variant", sorted(POST_VARIANTS))
@pytest.mark.parametrize(("author", "uid", "colour"), [
    ("Ёжик", 66, ""), ("admin", 2, "AA0000"), ("Прохожий", None, "")],
    ids=["member", "coloured admin", "guest"])
def test_a_vote_post_reads_alike_in_every_version_and_style(
        variant: str, author: str, uid: int | None, colour: str) -> None:
    vote = Vp(502, author, uid, at("2026-11-21 10:41:15"), vote_body(variant), colour=colour,
              edited_at=at("2026-11-21 10:55:00"),
              signature='<span style="color: #FF0000">Лиса</span> — моя любимица')
    page = _page(variant, vote)
    assert [p.post_id for p in page.posts] == [501, 502, 503]
    post = _the_vote(page, 502)
    assert (post.author, post.author_id, post.page, post.position) == (author, uid, 1, 2)
    _exact(variant, post.posted_at, vote.at)
    assert (page.topic_id, page.title, page.page, page.total_pages) == (77, "Мафия: игра 5", 1, 1)
    reading = find_vote(post, ROSTER)
    assert reading is not None and reading.valid and reading.target == "Лиса"
    assert "любимица" not in post.body_text and "редактировалось" not in post.body_text
    assert "поблагодарили" not in post.body_text and "Ёжик" not in post.body_text.replace(
        author, "")
    assert post.edit is not None and post.edit.editor == author
    assert post.edit.edited_at == at("2026-11-21 10:55").astimezone(UTC)
    assert "Шерлок всегда прав" not in _the_vote(page, 503).body_text


TEXT_DATES = ["d M Y, H:i", "D M d, Y g:i a", "D M d, Y H:i", "d.m.Y, H:i", "|d M Y|, H:i"]


@pytest.mark.parametrize("fmt", TEXT_DATES)
@pytest.mark.parametrize("variant", ["prosilver 3.0", "prosilver 3.1", "prosilver 3.2.0-3.2.8",
                                     "AllanStyle-SUBSILVER", "number after the date",
                                     "phpBBex", "subsilver2 3.0", "subsilver2 3.3 port"])
@pytest.mark.parametrize("when", ["2026-11-18 18:00", "2026-11-20 23:59", "2026-11-21 00:30",
                                  "2026-11-21 11:05", "2026-11-21 11:59:30"],
                         ids=["days ago", "yesterday", "today", "55 min ago", "just now"])
def test_every_date_format_a_viewer_may_set_gives_the_minute(
        variant: str, fmt: str, when: str) -> None:
    vote = Vp(502, "Ёжик", 66, at(when), vote_body(variant))
    post = _the_vote(_page(variant, vote, fmt), 502)
    if fmt.startswith("|") and when.endswith(("11:05", "11:59:30")):
        # «N минут назад» / «менее минуты назад»: the latest instant the words allow.
        assert 0 <= (post.posted_at - vote.at.astimezone(UTC)).total_seconds() < 60
    else:
        assert post.posted_at == vote.at.astimezone(UTC).replace(second=0)


@pytest.mark.parametrize("render", [prosilver30, prosilver32, subsilver2],
                         ids=["3.0", "3.2.0-3.2.8", "subsilver2"])
def test_the_english_pack_and_its_default_format(render) -> None:  # noqa: ANN001
    vote = Vp(502, "Ёжик", 66, at("2026-11-20 18:00"), "Мой голос – "
              '<span style="color: #FF0000">Лиса</span>')
    html = (render(vote, "D M d, Y g:i a").replace("Пт ноя", "Fri Nov")
            .replace("Добавлено:", "Posted:").replace("Сообщение", "Post"))
    page = parse_topic_page(topic_page("prosilver 3.0" if render is prosilver30 else (
        "subsilver2 3.0" if render is subsilver2 else "prosilver 3.3"), html),
        url=URL, tz=MOSCOW, now=NOW)
    assert page.posts[0].posted_at == at("2026-11-20 18:00").astimezone(UTC)
