"""The project's own vB 4 and vB 3 pages (Russian pack, windows-1251) through the parser:
quotes, colours, code, spoilers, relative and numeric dates, the footer's zone, edit notices,
pagination, and the pages that are no thread."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from support.vbulletin.pages import (
    BOARD_ZONE,
    VbPost,
    code,
    encode,
    message_page,
    plain_quote,
    quote,
    red,
    thread_page,
    vb3_quote,
    vb3_thread_page,
    vote,
)

from adapters.vbulletin.topic import decode_page, parse_topic_page, read_topic_page
from referee.config.game import VoteRules
from referee.core.errors import LoginRequired, MalformedPage, TopicNotFound
from referee.core.markup import QUOTE_MARK, unquoted_lines
from referee.core.nicks import Roster
from referee.rules.day.reading import find_vote

NOW = datetime(2026, 11, 26, 20, 0, tzinfo=BOARD_ZONE)
UTC_ZONE = ZoneInfo("UTC")


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=BOARD_ZONE)


def post(pid: int, author: str, when: str, body: str, **kw: object) -> VbPost:
    return VbPost(pid, author, 100 + pid % 50, at(when), body, **kw)  # type: ignore[arg-type]


def read(page_html: str, *, tz: ZoneInfo = UTC_ZONE, now: datetime = NOW):
    html = decode_page(encode(page_html), "text/html; charset=windows-1251")
    return parse_topic_page(html, url="https://mafia.test/forum/showthread.php?t=63", tz=tz,
                            now=now, topic_id=63)


POSTS = [
    post(1001, "Ведущий", "2026-11-20 18:00", "День первый начинается."),
    post(1002, "Лиса", "2026-11-25 12:34", vote("Kotik", "Kotik весь день молчит и юлит")),
    post(1003, "Шерлок", "2026-11-26 09:15",
         quote("Лиса", 1002, vote("Kotik", "Kotik весь день молчит и юлит"))
         + "Не верю Лисе.<br />\nМой голос: " + red("Лиса", font=False)),
    post(1004, "Гроза", "2026-11-26 10:00", code("Мой голос: Шерлок") + "Шучу, без голоса.",
         edited_by="Гроза", edited_at=at("2026-11-26 10:05")),
    post(1005, "Ёжик", "2026-11-21 08:00", plain_quote("Мой голос: Лиса") + "Поддерживаю."),
]


def test_russian_dates_today_yesterday_and_numeric_in_the_footer_zone() -> None:
    page = read(thread_page(63, "Мафия №63", POSTS, 1, 10, now=NOW))
    times = {p.post_id: p.posted_at for p in page.posts}
    # «20.11.2026, 18:00», «Вчера, 12:34», «Сегодня, 09:15» at GMT +3 (the footer), whatever
    # the host's [forum] timezone says (UTC here).
    assert times[1001] == datetime(2026, 11, 20, 15, 0, tzinfo=UTC)
    assert times[1002] == datetime(2026, 11, 25, 9, 34, tzinfo=UTC)
    assert times[1003] == datetime(2026, 11, 26, 6, 15, tzinfo=UTC)


def test_without_a_footer_the_hosts_timezone_is_used() -> None:
    html = thread_page(63, "Мафия №63", POSTS, 1, 10, now=NOW).replace(
        "Часовой пояс GMT +3, время:", "Время:")
    page = read(html, tz=ZoneInfo("Asia/Yekaterinburg"))
    assert page.posts[0].posted_at == datetime(2026, 11, 20, 13, 0, tzinfo=UTC)


def test_authors_user_ids_numbers_and_the_windows_1251_text() -> None:
    page = read(thread_page(63, "Мафия №63", POSTS, 1, 10, now=NOW))
    assert [(p.post_id, p.author, p.author_id, p.position) for p in page.posts] == [
        (1001, "Ведущий", 101, 1), (1002, "Лиса", 102, 2), (1003, "Шерлок", 103, 3),
        (1004, "Гроза", 104, 4), (1005, "Ёжик", 105, 5)]
    assert page.title == "Мафия №63" and page.topic_id == 63
    assert page.posts[0].body_text == "День первый начинается."


def test_a_quote_is_a_blockquote_with_its_author_and_its_vote_is_not_the_posters() -> None:
    page = read(thread_page(63, "Мафия №63", POSTS, 1, 10, now=NOW))
    sherlock = page.posts[2]
    assert sherlock.body_html.startswith("<blockquote><cite>Сообщение от Лиса</cite>")
    assert unquoted_lines(sherlock.body_text) == ["Не верю Лисе.", "Мой голос: Лиса"]
    assert all(line.startswith(QUOTE_MARK) for line in sherlock.body_text.split("\n")[:3])
    roster = Roster(["Лиса", "Шерлок", "Kotik", "Гроза", "Ёжик"])
    reading = find_vote(sherlock, roster, VoteRules())
    assert reading is not None and reading.target == "Лиса"


def test_colour_stays_as_vbulletin_renders_it_font_and_span() -> None:
    page = read(thread_page(63, "Мафия №63", POSTS, 1, 10, now=NOW))
    assert '<font color="Red">Kotik</font>' in page.posts[1].body_html
    assert 'style="color: #ff0000;"' in page.posts[2].body_html
    roster = Roster(["Лиса", "Шерлок", "Kotik"])
    reading = find_vote(page.posts[1], roster, VoteRules())
    assert reading is not None and reading.target == "Kotik"


def test_code_boxes_and_authorless_quotes() -> None:
    page = read(thread_page(63, "Мафия №63", POSTS, 1, 10, now=NOW))
    groza, ezhik = page.posts[3], page.posts[4]
    assert '<div class="codebox"><code>Мой голос: Шерлок</code></div>' in groza.body_html
    assert ezhik.body_html.startswith("<blockquote>Мой голос: Лиса</blockquote>")
    assert unquoted_lines(ezhik.body_text) == ["Поддерживаю."]


def test_edit_notice_today_in_the_footer_zone() -> None:
    page = read(thread_page(63, "Мафия №63", POSTS, 1, 10, now=NOW))
    edit = page.posts[3].edit
    assert edit is not None and edit.editor == "Гроза" and edit.count == 1
    assert edit.edited_at == datetime(2026, 11, 26, 7, 5, tzinfo=UTC)
    assert "редактировалось" not in page.posts[3].body_text


def test_a_spoiler_keeps_its_hidden_text_in_place() -> None:
    spoiler = ('<div class="bbcode_spoiler">Спойлер: <input type="button" value="Показать" '
               'onclick="toggle(this)" /><div style="display: none;">'
               + vote("Лиса", "Лиса путается в показаниях") + "</div></div>")
    page = read(thread_page(63, "Мафия №63", [post(1, "Ёжик", "2026-11-26 10:00", spoiler)],
                            1, 10, now=NOW))
    roster = Roster(["Лиса", "Ёжик"])
    reading = find_vote(page.posts[0], roster, VoteRules())
    assert reading is not None and reading.target == "Лиса"


def _many(n: int) -> list[VbPost]:
    start = at("2026-11-20 18:00")
    return [VbPost(2000 + k, "Лиса", 63, start + timedelta(minutes=7 * k), f"Пост {k}")
            for k in range(n)]


@pytest.mark.parametrize(("page_no", "first", "count"), [(1, 2000, 10), (2, 2010, 10),
                                                          (3, 2020, 6), (9, 2020, 6)])
def test_pagination_russian_page_of_and_results(page_no: int, first: int, count: int) -> None:
    page = read(thread_page(63, "Мафия №63", _many(26), page_no, 10, now=NOW))
    assert (page.page, page.total_pages, page.per_page, page.total_posts) == (
        min(page_no, 3), 3, 10, 26)
    assert [p.post_id for p in page.posts][:1] == [first] and len(page.posts) == count
    assert page.posts[0].page == page.page


def test_a_single_page_thread() -> None:
    page = read(thread_page(63, "Мафия №63", _many(4), 1, 10, now=NOW))
    assert (page.page, page.total_pages, page.total_posts, len(page.posts)) == (1, 1, 4, 4)


def test_newest_first_order_is_refused_with_the_setting_to_change() -> None:
    html = thread_page(63, "Мафия №63", _many(3), 1, 10, now=NOW)
    html = html.replace('name="1"', 'name="x1"').replace("#1<", "#9<").replace("#3<", "#1<")
    with pytest.raises(MalformedPage, match="от новых к старым"):
        read(html)


def test_vb3_russian_tables_quotes_colour_and_edit() -> None:
    posts = [
        post(501, "Лиса", "2026-11-26 12:34",
             vb3_quote("Шерлок", 500, vote("Лиса", "Лиса подозрительна"))
             + vote("Шерлок", "Шерлок врёт про проверку")),
        post(502, "Шерлок", "2026-11-25 18:00", vb3_quote(None, 0, "без автора") + "Ответ.",
             edited_by="Шерлок", edited_at=at("2026-11-26 11:00")),
    ]
    html = decode_page(encode(vb3_thread_page(63, "Мафия №63", posts, now=NOW)))
    page, order = read_topic_page(html, url="https://mafia.test/showthread.php?t=63",
                                  tz=UTC_ZONE, now=NOW)
    lisa, sherlock = page.posts
    assert (lisa.author, lisa.author_id, lisa.posted_at) == (
        "Лиса", 101, datetime(2026, 11, 26, 9, 34, tzinfo=UTC))
    assert lisa.body_html.startswith("<blockquote><cite>Сообщение от Шерлок</cite>")
    assert '<font color="Red">Шерлок</font>' in lisa.body_html
    assert unquoted_lines(lisa.body_text) == ["Шерлок врёт про проверку", "Мой голос: Шерлок"]
    assert sherlock.body_html.startswith("<blockquote>")
    assert sherlock.posted_at == datetime(2026, 11, 25, 15, 0, tzinfo=UTC)
    assert sherlock.edit is not None and sherlock.edit.editor == "Шерлок"
    assert sherlock.edit.edited_at == datetime(2026, 11, 26, 8, 0, tzinfo=UTC)
    assert page.title == "Мафия №63" and order is None


def test_a_page_asking_to_log_in_and_a_missing_thread() -> None:
    with pytest.raises(LoginRequired):
        read(message_page("Вы не зарегистрированы или у вас нет доступа к этой странице.",
                          now=NOW, user=None, login=True))
    with pytest.raises(TopicNotFound, match="Неверно указана тема"):
        read(message_page("Неверно указана тема. Если вы перешли по верной ссылке, "
                          "пожалуйста, сообщите администратору.", now=NOW, user=None))
    with pytest.raises(MalformedPage, match="не тема vBulletin"):
        read("<html><body><p>Просто страница</p></body></html>")


def test_a_post_hidden_by_the_hosts_ignore_list_is_an_error_a_deleted_stub_is_skipped() -> None:
    posts = _many(3)
    html = thread_page(63, "Мафия №63", posts, 1, 10, now=NOW)
    stub = ('<li class="postbitlegacy postbitdeleted postcontainer" id="post_2001">'
            "Сообщение удалено модератором.</li>")
    start, end = html.index('<li class="postbitlegacy postbitim postcontainer old" '
                            'id="post_2001">'), html.index('<li class="postbitlegacy postbitim '
                                                           'postcontainer old" id="post_2002">')
    deleted = html[:start] + stub + html[end:]
    assert [p.post_id for p in read(deleted).posts] == [2000, 2002]
    ignored = deleted.replace("postbitdeleted", "postbitignored").replace(
        "Сообщение удалено модератором.", "Это сообщение скрыто, так как Лиса в вашем "
        "списке игнорирования.")
    with pytest.raises(MalformedPage, match="списке игнорирования"):
        read(ignored)
    vb3 = vb3_thread_page(63, "Мафия №63", posts, now=NOW)
    cut = vb3.index('<div id="post_message_2001">')
    hidden = vb3[:cut] + "Это сообщение скрыто, так как Лиса в вашем списке игнорирования." + \
        vb3[vb3.index("<!-- / message -->", cut):]
    with pytest.raises(MalformedPage, match="списке игнорирования"):
        read_topic_page(decode_page(encode(hidden)), url="u", tz=UTC_ZONE, now=NOW)
