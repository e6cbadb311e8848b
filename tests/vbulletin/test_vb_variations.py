"""vBulletin markup the saved pages never showed (tests/vbulletin/vb_variants.py, written from
vB 3.8/4.2 templates with the Russian pack): the vote post «Мой голос – <red nick>» keeps its
author, time, number and body in vB 3's ``postbit`` and vB 4's horizontal ``postbit``, for
guests and names in colour; deleted stubs are skipped; coarse «detailed» dates and pages
without what referee reads are MalformedPage errors in Russian, never a traceback."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from support.vbulletin.pages import BOARD_ZONE, encode, red, vb3_quote, vote
from vb_variants import (
    Author,
    colour_name,
    vb3_page,
    vb3_postbit,
    vb4_date,
    vb4_deleted_stub,
    vb4_page,
    vb4_postbit,
)

from adapters.vbulletin.topic import decode_page, parse_topic_page
from adapters.vbulletin.urls import claims, parse_thread_url
from referee.config.game import VoteRules
from referee.core.errors import MalformedPage, RefereeError
from referee.core.markup import unquoted_lines
from referee.core.nicks import Roster
from referee.rules.day.reading import find_vote

NOW = datetime(2026, 11, 26, 20, 0, tzinfo=BOARD_ZONE)
ROSTER = Roster(["Шерлок", "Kotik", "Лиса", "Гроза", "Ёжик"])
REASON = "весь день молчит и уходит от вопросов"
URL = "https://mafia.test/forum/showthread.php?t=64"


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=BOARD_ZONE)


def read(page: str):
    html = decode_page(encode(page), "text/html; charset=windows-1251")
    return parse_topic_page(html, url=URL, tz=UTC, now=NOW, topic_id=64)


def target(post) -> str | None:
    reading = find_vote(post, ROSTER, VoteRules())
    return reading.target if reading is not None and not reading.problems else None


def my_vote(nick: str) -> str:
    """«Мой голос – <red nick>» with its reason, as vB renders [COLOR=Red]."""
    return f'{REASON}<br />\nМой голос – <font color="Red">{nick}</font>'


LISA = Author("Лиса", 105, colour_name("Лиса"))
GUEST = Author("Прохожий", None)
SHERLOCK = Author("Шерлок", 103, '<b><span style="color: darkgreen;">Шерлок</span></b>')


# --------------------------------------------------------------------------- vB 3 postbit

def _vb3_game() -> str:
    return vb3_page("".join([
        vb3_postbit(3001, 1, SHERLOCK, "20.11.2026, 18:00", "День первый начинается."),
        vb3_postbit(3002, 2, LISA, "Вчера, 12:34", my_vote("Kotik")),
        vb3_postbit(3003, 3, GUEST, "Сегодня, 09:15",
                    vb3_quote("Лиса", 3002, my_vote("Kotik")) + my_vote("Лиса")),
    ]), now=NOW)


def test_vb3_postbit_reads_the_date_beside_the_number() -> None:
    page = read(_vb3_game())
    assert [(p.post_id, p.author, p.author_id) for p in page.posts] == [
        (3001, "Шерлок", 103), (3002, "Лиса", 105), (3003, "Прохожий", None)]
    assert [p.posted_at for p in page.posts] == [
        datetime(2026, 11, 20, 15, 0, tzinfo=UTC), datetime(2026, 11, 25, 9, 34, tzinfo=UTC),
        datetime(2026, 11, 26, 6, 15, tzinfo=UTC)]
    assert page.title == "Мафия №64"


def test_vb3_postbit_votes_colour_names_guests_and_quotes() -> None:
    page = read(_vb3_game())
    lisa, guest = page.posts[1], page.posts[2]
    assert target(lisa) == "Kotik"
    assert '<font color="Red">Kotik</font>' in lisa.body_html
    assert "vbmenu_register" not in lisa.author and "Подпись" not in lisa.body_text
    assert guest.body_html.startswith("<blockquote><cite>Сообщение от Лиса</cite>")
    assert target(guest) == "Лиса"


def test_vb3_newest_first_is_told_by_the_numbers() -> None:
    page = vb3_page(vb3_postbit(3005, 9, LISA, "Сегодня, 10:00", "поздний")
                    + vb3_postbit(3004, 8, LISA, "Сегодня, 09:00", "ранний"), now=NOW)
    with pytest.raises(MalformedPage, match="от новых к старым"):
        read(page)


def test_a_vb3_quote_whose_author_line_is_worded_otherwise() -> None:
    odd = vb3_quote("Шерлок", 3001, my_vote("Kotik")).replace("Сообщение от", "Автор:")
    page = read(vb3_page(vb3_postbit(3010, 1, LISA, "Сегодня, 11:00", odd + my_vote("Шерлок")),
                         now=NOW))
    post = page.posts[0]
    assert post.body_html.startswith("<blockquote><cite>Автор: Шерлок</cite>")
    assert unquoted_lines(post.body_text) == [REASON, "Мой голос – Шерлок"]
    assert target(post) == "Шерлок"


# --------------------------------------------------------------------------- vB 4 postbit

def _vb4(blocks: list[str], first: int = 1) -> str:
    return vb4_page("".join(blocks), now=NOW, total=first + len(blocks) - 1, first=first,
                    last=first + len(blocks) - 1)


def test_vb4_horizontal_postbit_with_guests_and_colour_names() -> None:
    page = read(_vb4([
        vb4_postbit(4001, 1, SHERLOCK, vb4_date(at("2026-11-20 18:00"), NOW), "Начали."),
        vb4_postbit(4002, 2, LISA, vb4_date(at("2026-11-25 12:34"), NOW), my_vote("Kotik")),
        vb4_postbit(4003, 3, GUEST, vb4_date(at("2026-11-26 09:15"), NOW),
                    vote("Лиса", REASON, font=False)),
    ]))
    assert [(p.author, p.author_id) for p in page.posts] == [
        ("Шерлок", 103), ("Лиса", 105), ("Прохожий", None)]
    assert [p.posted_at for p in page.posts] == [
        datetime(2026, 11, 20, 15, 0, tzinfo=UTC), datetime(2026, 11, 25, 9, 34, tzinfo=UTC),
        datetime(2026, 11, 26, 6, 15, tzinfo=UTC)]
    assert [target(p) for p in page.posts] == [None, "Kotik", "Лиса"]
    assert all("Подпись" not in p.body_text for p in page.posts)
    assert (page.title, page.total_posts) == ("Мафия №64", 3)


def test_a_deleted_post_shown_to_a_moderator_is_not_a_post() -> None:
    page = read(_vb4([
        vb4_postbit(4001, 1, SHERLOCK, vb4_date(at("2026-11-26 10:00"), NOW), "Начали."),
        vb4_deleted_stub(4002, 2, LISA, vb4_date(at("2026-11-26 11:00"), NOW),
                         my_vote("Kotik")),
        vb4_postbit(4003, 3, GUEST, vb4_date(at("2026-11-26 12:00"), NOW), my_vote("Лиса")),
    ]))
    assert [p.post_id for p in page.posts] == [4001, 4003]


def test_minutes_ago_is_exact_enough_and_read() -> None:
    page = read(_vb4([vb4_postbit(4001, 1, LISA, "5 минут назад", my_vote("Kotik"))]))
    assert page.posts[0].posted_at == (NOW - timedelta(minutes=5)).astimezone(UTC)


@pytest.mark.parametrize("shown", ["2 часа назад", "1 час назад", "3 дня назад",
                                   "1 неделю назад", "2 Weeks Ago", "5 Hours Ago"])
def test_detailed_dates_coarser_than_a_minute_are_refused(shown: str) -> None:
    with pytest.raises(MalformedPage, match="приблизительно") as caught:
        read(_vb4([vb4_postbit(4001, 1, LISA, shown, my_vote("Kotik"))]))
    assert "Подробно" in (caught.value.hint or "")


def test_a_post_without_a_date_names_it() -> None:
    page = _vb4([vb4_postbit(4001, 1, LISA, "Сегодня,&nbsp;<span>09:00</span>",
                             my_vote("Kotik"))]).replace('<span class="date">', "<span>")
    with pytest.raises(MalformedPage, match="не найдена дата"):
        read(page)


def test_an_unreadable_date_has_a_vbulletin_hint() -> None:
    with pytest.raises(MalformedPage, match="не удалось разобрать дату") as caught:
        read(_vb4([vb4_postbit(4001, 1, LISA, "в прошлый четверг", my_vote("Kotik"))]))
    assert "phpBB" not in (caught.value.hint or "")


def test_texts_without_their_frames_are_named() -> None:
    page = _vb4([vb4_postbit(4001, 1, LISA, "Сегодня, 09:00", my_vote("Kotik"))]).replace(
        'id="post_4001"', 'id="entry_4001"')
    with pytest.raises(MalformedPage, match="нет их рамок"):
        read(page)


@pytest.mark.parametrize("cut", range(0, 12000, 600))
def test_a_cut_vb_page_is_read_or_refused_never_a_traceback(cut: int) -> None:
    whole = _vb4([vb4_postbit(4001, 1, LISA, "Сегодня, 09:00", my_vote("Kotik")),
                  vb4_postbit(4002, 2, GUEST, "Сегодня, 09:30", red("Лиса"))])
    for page in (whole, _vb3_game()):
        try:
            got = read(page[:cut])
        except RefereeError as error:
            assert str(error).strip()
        else:
            assert got.posts


# --------------------------------------------------------------------------- vBSEO

def test_vbseo_thread_links() -> None:
    address = parse_thread_url("https://mafia.test/igry/64-mafiya-64.html")
    assert (address.topic_id, address.form, address.root) == (64, "vbseo",
                                                              "https://mafia.test/")
    assert address.page_url(1) == "https://mafia.test/igry/64-mafiya-64.html"
    assert address.page_url(3) == "https://mafia.test/igry/64-mafiya-64-3.html"
    assert claims("https://mafia.test/forum/igry/64-mafiya-64.html")
    assert parse_thread_url("https://mafia.test/forum/igry/64-x.html").root == \
        "https://mafia.test/forum/"
    assert not claims("https://ucoz.test/forum/5-123-1.html")
    assert not claims("https://ipb.test/topic/123-mafia.html")


# --------------------------------------------------------------------------- pages, formats

def test_pages_are_read_from_the_links_when_the_page_of_phrase_is_worded_otherwise() -> None:
    from support.vbulletin.pages import VbPost, thread_page

    posts = [VbPost(5000 + k, "Лиса", 105, at("2026-11-20 18:00") + timedelta(minutes=k),
                    f"Пост {k}") for k in range(26)]
    for page_no in (1, 2, 3):
        html = thread_page(64, "Мафия №64", posts, page_no, 10, now=NOW)
        html = html.replace(f"Страница {page_no} из 3", f"Лист {page_no} / 3")
        page = read(html)
        assert (page.page, page.total_pages) == (page_no, 3)


@pytest.mark.parametrize(("shown", "utc"), [
    ("26 Ноябрь 2026, 18:00", "2026-11-26T15:00"),       # d F Y with vB's month phrases
    ("Четверг, 26 Ноябрь 2026 18:00", "2026-11-26T15:00"),
    ("26-11-2026, 06:00 PM", "2026-11-26T15:00"),         # m-d-Y told by the day above 12
    ("26.11.26, 18:00", "2026-11-26T15:00"),
    ("2026-11-26, 18:00", "2026-11-26T15:00"),
    ("26.11.2026 18:00", "2026-11-26T15:00"),             # mafia-game.ru / olegon.ru style
])
def test_date_formats_an_admin_may_set(shown: str, utc: str) -> None:
    page = read(_vb4([vb4_postbit(4001, 1, LISA, shown, my_vote("Kotik"))]))
    assert page.posts[0].posted_at == datetime.fromisoformat(utc).replace(tzinfo=UTC)
