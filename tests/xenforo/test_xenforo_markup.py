"""XenForo 2 markup → kernel values, on pages written from the facts
(support/xenforo/pages.py): quotes, spoilers, colours, code, signatures, edit notices,
pagination, dates, error pages."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from selectolax.lexbor import LexborHTMLParser as parse
from support.moscow import msk as at
from support.xenforo.conversations import (
    XfConversation,
    XfMessage,
    conversation_list_page,
    conversation_page,
)
from support.xenforo.pages import (
    MOSCOW,
    XF_RED,
    XfPost,
    XfThread,
    code,
    error_page,
    quote,
    red,
    spoiler,
    thread_page,
    time_tag,
)

from adapters.xenforo.page import time_of
from adapters.xenforo.pms import parse_conversation_list, parse_conversation_page
from adapters.xenforo.topic import parse_topic_page
from referee.core.errors import AccessDenied, LoginRequired, MalformedPage, TopicNotFound
from referee.core.markup import QUOTE_MARK
from referee.core.nicks import Roster
from referee.rules.day.colour import is_red, style_is_red
from referee.rules.day.reading import find_vote

PREFIX = "/forum/"
ORIGIN = "http://board.test"
NOW = datetime(2026, 11, 22, 9, 0, tzinfo=MOSCOW)
ROSTER = Roster(["Лиса", "Ёжик", "Бармен", "Тень"])
UTC_ZONE = ZoneInfo("UTC")
REASON = "Лиса весь вечер уходит от прямых вопросов и меняет версии."


def one_post(html: str, *, version: str = "2.2", **kw: object) -> object:
    thread = XfThread(69072, "mafija-119", "Мафия №119")
    thread.posts.append(XfPost(5001, "Ёжик", 1007, at("2026-11-21 21:40"), html, **kw))
    page = thread_page(thread, 1, 15, prefix=PREFIX, origin=ORIGIN, now=NOW, logged_in=True,
                       csrf="1,abc", version=version)
    url = f"{ORIGIN}{PREFIX}{thread.route}"
    return parse_topic_page(page, url=url, tz=MOSCOW, now=NOW).posts[0]


# --------------------------------------------------------------------------- colour

@pytest.mark.parametrize(("css", "red_"), [
    (XF_RED, True),                   # XF2's editor «Красный»: hue 5.6°, saturation 0.71
    ("rgb(184, 49, 47)", True),       # a darker red seen on a XF 2.2 board: hue 0.9°
    ("#e25041", True),                # the same editor red as hex
    ("red", True),                    # [color=red] renders color: red
    ("rgb(243, 121, 52)", False),     # XF2's orange: hue 22°, past the 20° rule
    ("rgb(97, 189, 109)", False),     # XF2's green
    ("rgb(84, 172, 210)", False),     # XF2's blue
    ("rgb(250, 197, 28)", False),     # XF2's yellow
])
def test_xenforo_editor_colours_by_the_hue_rule(css: str, red_: bool) -> None:
    assert is_red(css) is red_
    assert style_is_red(f"color: {css}") is red_


# --------------------------------------------------------------------------- bodies

def test_a_vote_in_xf2_editor_red_counts() -> None:
    post = one_post(f"{REASON}<br />\nМой голос – {red('Лиса')}")
    reading = find_vote(post, ROSTER)
    assert reading is not None and reading.valid and reading.target == "Лиса"


def test_a_quoted_vote_is_never_a_vote_and_the_quote_is_marked() -> None:
    post = one_post(quote(PREFIX, "Лиса", 1002, 5000, "Мой голос – " + red("Ёжик"))
                    + "\nНе верю ни единому её слову.")
    assert find_vote(post, ROSTER) is None
    lines = post.body_text.splitlines()
    assert lines[0] == QUOTE_MARK + "Лиса сказал(а):"
    assert lines[-1] == "Не верю ни единому её слову."
    assert "Нажмите для раскрытия" not in post.body_html
    assert 'data-quote="Лиса"' in post.body_html and "<blockquote" in post.body_html


def test_own_vote_after_a_quoted_one_counts_for_its_own_target() -> None:
    post = one_post(quote(PREFIX, "Ёжик", 1007, 5000, "Мой голос – " + red("Лиса"))
                    + f"\n{REASON}<br />\nМой голос – " + red("Бармен", "red"))
    reading = find_vote(post, ROSTER)
    assert reading is not None and reading.target == "Бармен"


def test_a_vote_inside_a_spoiler_is_the_authors_own() -> None:
    post = one_post(f"{REASON}\n" + spoiler("Голос", "Мой голос – " + red("Лиса")))
    reading = find_vote(post, ROSTER)
    assert reading is not None and reading.valid and reading.target == "Лиса"
    assert "Спойлер" not in post.body_text and "<button" not in post.body_html
    assert not any(line.startswith(QUOTE_MARK) for line in post.body_text.splitlines())


def test_a_code_box_is_never_read_as_a_vote() -> None:
    post = one_post(f"{REASON}" + code("Мой голос – Лиса"))
    assert find_vote(post, ROSTER) is None or not find_vote(post, ROSTER).valid
    assert '<div class="codebox">' in post.body_html and "Код:" not in post.body_html


def test_the_signature_is_not_part_of_the_post() -> None:
    post = one_post("Просто мнение без голоса.")
    assert "Подпись" not in post.body_text and find_vote(post, ROSTER) is None


def test_edit_notices_give_the_time_and_the_editor() -> None:
    own = one_post("Текст", edited_at=at("2026-11-21 22:10"))
    assert own.edit is not None
    assert (own.edit.editor, own.edit.edited_at, own.edit.count) == (
        "Ёжик", at("2026-11-21 22:10").astimezone(UTC), 1)
    moderated = one_post("Текст", edited_at=at("2026-11-21 22:10"), by_moderator=True)
    assert moderated.edit is not None and moderated.edit.editor == "модератор"
    assert one_post("Текст").edit is None


# --------------------------------------------------------------------------- dates

@pytest.mark.parametrize("version", ["2.1", "2.2", "2.3"])
def test_the_machine_time_is_read_in_either_version(version: str) -> None:
    post = one_post("Текст", version=version)
    assert post.posted_at == at("2026-11-21 21:40").astimezone(UTC)


@pytest.mark.parametrize(("shown", "meant"), [
    ("Вчера в 21:40", "2026-11-21 21:40"),
    ("Сегодня в 08:15", "2026-11-22 08:15"),
    ("20 ноя 2026", "2026-11-20 00:00"),
    ("20 ноя 2026 в 18:30", "2026-11-20 18:30"),
])
def test_a_date_without_machine_attributes_is_read_from_its_text(shown: str, meant: str) -> None:
    node = parse(f'<time class="u-dt">{shown}</time>').css_first("time")
    assert time_of(node, MOSCOW, NOW) == at(meant).astimezone(UTC)


def test_the_iso_time_is_one_instant_whatever_its_offset() -> None:
    node = parse('<time class="u-dt" datetime="2026-11-21T21:40:00+0300">x</time>').css_first(
        "time")
    assert time_of(node, UTC_ZONE, NOW) == datetime(2026, 11, 21, 18, 40, tzinfo=UTC)


def test_xenforo_prints_relative_dates_as_the_issue_lists() -> None:
    assert "Вчера в 21:40" in time_tag(at("2026-11-21 21:40"), NOW)
    assert "Сегодня в 08:15" in time_tag(at("2026-11-22 08:15"), NOW)
    assert "12 ноя 2026" in time_tag(at("2026-11-12 08:15"), NOW)


# --------------------------------------------------------------------------- pages

def _thread(posts: int) -> XfThread:
    thread = XfThread(69072, "mafija-119", "Мафия №119")
    for i in range(posts):
        thread.posts.append(XfPost(6000 + i, "Ёжик", 1007, at("2026-11-21 10:00"), f"№{i}"))
    return thread


@pytest.mark.parametrize(("posts", "page", "per_page", "want"), [
    (75, 2, 15, (2, 5, 15)),    # a full page before the last
    (75, 5, 15, (5, 5, 15)),    # the last page: «#61» opens page 5 of 15-post pages
    (44, 3, 15, (3, 3, 15)),    # a short last page
    (10, 1, 15, (1, 1, 20)),    # one page: XenForo's default
    (400, 14, 15, (14, 27, 15)),  # «…» skips on both sides
])
def test_pagination_and_the_boards_page_size(posts: int, page: int, per_page: int,
                                              want: tuple[int, int, int]) -> None:
    thread = _thread(posts)
    html = thread_page(thread, page, per_page, prefix=PREFIX, origin=ORIGIN, now=NOW,
                       logged_in=False, csrf="1,a")
    tp = parse_topic_page(html, url=ORIGIN + PREFIX + thread.route, tz=MOSCOW, now=NOW)
    assert (tp.page, tp.total_pages, tp.per_page) == want
    assert tp.topic_id == 69072 and tp.title == "Мафия №119"
    assert [p.position for p in tp.posts] == list(range(1, len(tp.posts) + 1))


@pytest.mark.parametrize(("status", "login", "logged_in", "error"), [
    (403, True, False, LoginRequired),
    (403, False, True, AccessDenied),
    (404, False, False, TopicNotFound),
])
def test_error_pages_say_why(status: int, login: bool, logged_in: bool, error: type) -> None:
    from adapters.xenforo.page import raise_for_page

    html = error_page("Вы должны войти для выполнения этого действия.", prefix=PREFIX,
                      csrf="1,a", login=login, logged_in=logged_in)
    with pytest.raises(error):
        raise_for_page(parse(html), "http://x/threads/a.1/", "страница темы", status)


def test_a_page_that_is_no_thread_is_malformed() -> None:
    with pytest.raises(MalformedPage):
        parse_topic_page("<html><body><p>hello</p></body></html>", url="http://x/threads/a.1/",
                         tz=MOSCOW, now=NOW)


# --------------------------------------------------------------------------- conversations

def _conversation() -> XfConversation:
    c = XfConversation(301, "hod", "Ночь 1 — мафия",
                       [("Бармен", 1003), ("Ведущий мафии", 1001), ("Тень", 1004)])
    c.messages += [XfMessage(7001, "Бармен", 1003, at("2026-11-22 00:30"),
                             "Стреляем в Комиссар Рекс, исполнитель Тень."),
                   XfMessage(7002, "Ведущий мафии", 1001, at("2026-11-22 00:40"), "Принято.")]
    return c


def test_the_conversation_list_tells_each_conversations_size() -> None:
    html = conversation_list_page([_conversation()], 1, 20, prefix=PREFIX, origin=ORIGIN,
                                  now=NOW, csrf="1,a", unread={301})
    listing = parse_conversation_list(html, url=ORIGIN + PREFIX + "conversations/",
                                      tz=MOSCOW, now=NOW)
    (row,) = listing.rows
    assert (row.conversation_id, row.title, row.messages, row.route) == (
        301, "Ночь 1 — мафия", 2, "conversations/hod.301/")
    assert row.participants == ("Бармен", "Ведущий мафии", "Тень")
    assert (row.last_sender, row.last_at, row.unread) == (
        "Ведущий мафии", at("2026-11-22 00:40").astimezone(UTC), True)


def test_an_empty_conversation_list_is_still_the_list() -> None:
    html = conversation_list_page([], 1, 20, prefix=PREFIX, origin=ORIGIN, now=NOW, csrf="1,a")
    assert parse_conversation_list(html, url="http://x/conversations/", tz=MOSCOW,
                                   now=NOW).rows == ()


def test_a_conversation_page_gives_each_message_sender_and_time() -> None:
    html = conversation_page(_conversation(), 1, 15, prefix=PREFIX, origin=ORIGIN, now=NOW,
                             csrf="1,a")
    page = parse_conversation_page(html, url=ORIGIN + PREFIX + "conversations/hod.301/",
                                   tz=MOSCOW, now=NOW)
    assert page.conversation_id == 301 and page.title == "Ночь 1 — мафия"
    assert page.participants == ("Бармен", "Ведущий мафии", "Тень")
    assert [(m.message_id, m.sender, m.sender_id) for m in page.messages] == [
        (7001, "Бармен", 1003), (7002, "Ведущий мафии", 1001)]
    assert page.messages[0].sent_at == at("2026-11-22 00:30").astimezone(UTC)
    assert page.messages[0].body_text == "Стреляем в Комиссар Рекс, исполнитель Тень."
