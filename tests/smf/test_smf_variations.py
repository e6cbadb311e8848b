"""SMF pages the saved 2.1.4 board never printed (tests/smf/smf_variants.py, written from
SMF 2.0's and 2.1's templates and the Russian packs): every variation gives the vote post
«Мой голос – <red nick>» its author, time, place and body, and a page referee cannot read
is a MalformedPage that names what is missing — never an empty page, never a traceback."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from smf_variants import (
    BOARD,
    MOSCOW,
    SmfPost,
    code20,
    plain_quote20,
    quote20,
    red,
    shown,
    spoiler,
    topic20,
    topic21,
    vote,
)

from adapters.smf.topic import parse_topic_page
from referee.config.game import VoteRules
from referee.core.errors import MalformedPage, RefereeError
from referee.core.markup import QUOTE_MARK, unquoted_lines
from referee.core.nicks import Roster
from referee.rules.day.reading import find_vote

NOW = datetime(2024, 3, 13, 22, 0, tzinfo=MOSCOW)
ROSTER = Roster(["Шерлок", "Kotik", "Лиса", "Гроза", "Ёжик", "Тень_Ночи"])
REASON = "весь день молчит и уходит от вопросов"


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=MOSCOW)


def url(start: int = 0) -> str:
    return f"{BOARD}?topic=7.{start}"


def read(page: str, start: int = 0):
    return parse_topic_page(page, url=url(start), tz=MOSCOW, now=NOW.astimezone(UTC))


def target(post) -> str | None:
    reading = find_vote(post, ROSTER, VoteRules())
    return reading.target if reading is not None and not reading.problems else None


GAME = [
    SmfPost(101, "Ведущий", 2, at("2024-03-11 20:00:00"), "День первый. Голосуем до 22:00."),
    SmfPost(102, "Шерлок", 3, at("2024-03-12 21:42:05"), vote("Kotik", REASON)),
    SmfPost(103, "Лиса", 5, at("2024-03-13 09:15:30"),
            quote20("Шерлок", 102, "12 Марта 2024, 21:42:05", vote("Kotik", REASON))
            + "Не верю.<br />" + vote("Шерлок", "слишком уверенно обвиняет", "#FF0000")),
    SmfPost(104, "Гость Вася", None, at("2024-03-13 10:00:00"), vote("Лиса", REASON)),
    SmfPost(105, "Гроза", 11, at("2024-03-13 11:00:00"),
            code20("Мой голос – Шерлок") + "Шучу.<br />" + vote("Kotik", REASON, "darkred"),
            edited=(at("2024-03-13 11:05:00"), "Гроза"),
            name_html='<span style="color: #0000FF;">Гроза</span>'),
    SmfPost(106, "Ёжик", 9, at("2024-03-13 12:00:00"),
            plain_quote20(vote("Лиса", REASON)) + spoiler(vote("Тень_Ночи", REASON))),
]


# --------------------------------------------------------------------------- SMF 2.0

def test_smf20_posts_authors_times_and_places() -> None:
    page = read(topic20(GAME, now=NOW))
    assert [(p.post_id, p.author, p.author_id, p.position) for p in page.posts] == [
        (101, "Ведущий", 2, 1), (102, "Шерлок", 3, 2), (103, "Лиса", 5, 3),
        (104, "Гость Вася", None, 4), (105, "Гроза", 11, 5), (106, "Ёжик", 9, 6)]
    times = [p.posted_at for p in page.posts]
    # «12 Марта 2024, 21:42:05» (seconds), «Сегодня в 09:15:30», the first post's «« : … »».
    assert times[:3] == [datetime(2024, 3, 11, 17, 0, tzinfo=UTC),
                         datetime(2024, 3, 12, 18, 42, 5, tzinfo=UTC),
                         datetime(2024, 3, 13, 6, 15, 30, tzinfo=UTC)]
    assert "Сегодня" in topic20(GAME, now=NOW)
    assert (page.topic_id, page.title, page.page, page.total_pages) == (7, "Мафия: игра 2", 1, 1)


def test_smf20_the_vote_post_and_what_is_not_the_posters_own() -> None:
    page = read(topic20(GAME, now=NOW))
    by_id = {p.post_id: p for p in page.posts}
    assert target(by_id[102]) == "Kotik"
    assert '<span style="color: red;" class="bbc_color">Kotik</span>' in by_id[102].body_html
    # 2.0's header «Цитата: Шерлок от …» stood before the blockquote: now it is its cite,
    # and the quoted vote is not Лиса's.
    lisa = by_id[103]
    assert lisa.body_html.startswith("<blockquote><cite>Цитата: Шерлок от 12 Марта 2024")
    assert "quoteheader" not in lisa.body_html and "quotefooter" not in lisa.body_html
    assert lisa.body_text.split("\n")[0].startswith(QUOTE_MARK)
    assert target(lisa) == "Шерлок"  # #FF0000 is red
    assert target(by_id[104]) == "Лиса"  # a guest's post is read like any other
    # A code box is no vote; the vote after it counts; the notice is no part of the body.
    groza = by_id[105]
    assert '<div class="codebox"><code>Мой голос – Шерлок</code></div>' in groza.body_html
    assert "<pre" not in groza.body_html and target(groza) == "Kotik"
    # An authorless quote is quoted; a spoiler mod's hidden text is the author's own.
    ezhik = by_id[106]
    assert ezhik.body_html.startswith("<blockquote><cite>Цитата</cite>")
    assert target(ezhik) == "Тень_Ночи"
    for post in page.posts:
        assert "Подпись" not in post.body_text and "Записан" not in post.body_text


def test_smf20_colour_by_membergroup_does_not_change_the_name() -> None:
    page = read(topic20(GAME, now=NOW))
    assert page.posts[4].author == "Гроза"


def test_smf20_edit_notice_in_guillemets() -> None:
    page = read(topic20(GAME, now=NOW))
    edit = page.posts[4].edit
    assert edit is not None and (edit.editor, edit.count) == ("Гроза", 1)
    assert edit.edited_at == datetime(2024, 3, 13, 8, 5, tzinfo=UTC)
    assert all(p.edit is None for p in page.posts if p.post_id != 105)


def test_smf20_an_ignored_members_post_is_still_read() -> None:
    # SMF 2.0 prints the body and hides it with a script: the vote is there.
    page = read(topic20(GAME, now=NOW, ignored=frozenset({102})))
    post = page.posts[1]
    assert target(post) == "Kotik" and "игнорируете" not in post.body_text


def _many(n: int) -> list[SmfPost]:
    start = at("2024-03-01 12:00:00")
    return [SmfPost(1000 + k, "Лиса", 5, start + timedelta(minutes=9 * k),
                    vote("Kotik", f"{REASON} {k}")) for k in range(n)]


@pytest.mark.parametrize("compact", [True, False])
@pytest.mark.parametrize(("page_no", "pages"), [(1, 12), (2, 12), (5, 12), (11, 12), (12, 12),
                                                (1, 2), (2, 2)])
def test_smf20_pages_compact_with_gaps_and_plain(compact: bool, page_no: int,
                                                pages: int) -> None:
    total = 25 * (pages - 1) + 7
    everyone = _many(total)
    start = (page_no - 1) * 25
    shown_posts = everyone[start:start + 25]
    page = read(topic20(shown_posts, page=page_no, total=total, now=NOW, compact=compact),
                start)
    assert (page.page, page.total_pages, page.per_page) == (page_no, pages, 25)
    assert [p.post_id for p in page.posts] == [p.post_id for p in shown_posts]
    assert page.posts[0].page == page_no
    if page_no < pages:
        assert page.next_url == url(start + 25) and page.total_posts is None
    else:
        assert page.next_url is None and page.total_posts == total


def test_smf20_first_post_without_a_reply_number_and_english_frames() -> None:
    html = topic20(GAME[:2], now=NOW)
    assert "<strong> :</strong>" in html  # the Russian pack's empty $txt['on']
    english = html.replace("<strong> :</strong>", "<strong> on:</strong>").replace(
        "<strong>Ответ #1 :</strong>", "<strong>Reply #1 on:</strong>").replace(
        "11 Марта 2024, 20:00:00", "March 11, 2024, 08:00:00 PM")
    page = read(english)
    assert page.posts[0].posted_at == datetime(2024, 3, 11, 17, 0, tzinfo=UTC)
    assert page.posts[1].posted_at == datetime(2024, 3, 12, 18, 42, 5, tzinfo=UTC)


def test_smf20_newest_first_is_refused() -> None:
    # «Показывать последние сообщения первыми»: the page's reply numbers go down.
    page = topic20(GAME[1:4], now=NOW).replace("<strong> :</strong>", "<strong>Ответ #9 :</strong>")
    with pytest.raises(MalformedPage, match="от новых к старым"):
        read(page.replace("Ответ #2 :", "Ответ #7 :"))


def test_smf20_nested_quotes_keep_both_headers_inside() -> None:
    inner = quote20("Шерлок", 102, "12 Марта 2024, 21:42:05", vote("Kotik", REASON))
    outer = quote20("Лиса", 103, "Сегодня в 09:15:30", inner + "Не верю.")
    post = SmfPost(107, "Kotik", 4, at("2024-03-13 13:00:00"),
                   outer + vote("Лиса", "цитирует чужие голоса вместо своих"))
    page = read(topic20([*GAME, post], now=NOW))
    kotik = page.posts[-1]
    assert kotik.body_html.startswith("<blockquote><cite>Цитата: Лиса от Сегодня в 09:15:30"
                                      "</cite><blockquote><cite>Цитата: Шерлок")
    assert unquoted_lines(kotik.body_text) == [
        "Мой голос – Лиса цитирует чужие голоса вместо своих"]
    assert target(kotik) == "Лиса"


# --------------------------------------------------------------------------- SMF 2.1

def test_smf21_guest_colour_name_yesterday_and_hex_red() -> None:
    posts = [
        SmfPost(201, "Ведущий", 2, at("2024-03-11 20:00:00"), "День второй."),
        SmfPost(202, "Прохожий", None, at("2024-03-12 23:59:00"), vote("Kotik", REASON)),
        SmfPost(203, "Лиса", 5, at("2024-03-13 21:42:00"),
                vote("Шерлок", REASON, "#ff0000"),
                name_html='<span style="color: #FF0000;">Лиса</span>',
                edited=(at("2024-03-13 21:50:00"), "Лиса")),
    ]
    page = read(topic21(posts, now=NOW))
    assert [(p.author, p.author_id) for p in page.posts] == [
        ("Ведущий", 2), ("Прохожий", None), ("Лиса", 5)]
    assert page.posts[1].posted_at == datetime(2024, 3, 12, 20, 59, tzinfo=UTC)  # «Вчера в»
    assert page.posts[2].posted_at == datetime(2024, 3, 13, 18, 42, tzinfo=UTC)  # «Сегодня в»
    assert [target(p) for p in page.posts] == [None, "Kotik", "Шерлок"]
    edit = page.posts[2].edit
    assert edit is not None and edit.editor == "Лиса"
    assert edit.edited_at == datetime(2024, 3, 13, 18, 50, tzinfo=UTC)
    assert all("Подпись" not in p.body_text for p in page.posts)


@pytest.mark.parametrize(("page_no", "pages"), [(1, 9), (5, 9), (9, 9)])
def test_smf21_long_topics_with_expand_gaps(page_no: int, pages: int) -> None:
    total = 25 * (pages - 1) + 3
    everyone = _many(total)
    start = (page_no - 1) * 25
    page = read(topic21(everyone[start:start + 25], page=page_no, total=total, now=NOW), start)
    assert (page.page, page.total_pages, page.per_page) == (page_no, pages, 25)
    assert (page.next_url is None) == (page_no == pages)


# --------------------------------------------------------------------------- refusals

def test_a_topic_page_without_posts_is_malformed_not_empty() -> None:
    # A theme that renames the post text's id: SMF's #forumposts is there, no post is.
    page = topic20(GAME, now=NOW).replace('id="msg_1', 'id="message_1')
    with pytest.raises(MalformedPage, match="не найдено ни одного сообщения"):
        read(page)


@pytest.mark.parametrize(("cut", "words"), [
    ('<div class="smalltext">&#171;', "нет времени"),
    ("<h4>", "нет автора"),
])
def test_a_post_without_its_time_or_author_names_what_is_missing(cut: str, words: str) -> None:
    page = topic20(GAME[:1], now=NOW)
    broken = page.replace(cut, cut.replace("smalltext", "small").replace("h4", "h6"))
    if cut == "<h4>":
        broken = broken.replace("</h4>", "</h6>")
    with pytest.raises(MalformedPage, match=words):
        read(broken)


def test_an_unreadable_time_is_a_malformed_page_with_smfs_own_hint() -> None:
    page = topic20(GAME[:2], now=NOW).replace("<strong>Вчера</strong> в 21:42:05",
                                              "когда-то весной")
    with pytest.raises(MalformedPage, match="сообщения 102") as caught:
        read(page)
    assert "Формат времени" in (caught.value.hint or "")


def test_a_page_that_is_no_topic_names_the_missing_post_list() -> None:
    page = "<html><head><script>var smf_scripturl = 'x';</script></head><body>Форум</body></html>"
    with pytest.raises(MalformedPage, match=r"не страница темы SMF: на ней нет списка"):
        read(page)


@pytest.mark.parametrize("cut", range(0, 9000, 450))
def test_a_cut_smf20_page_is_read_or_refused_never_a_traceback(cut: int) -> None:
    page = topic20(GAME, now=NOW)
    try:
        got = read(page[:cut])
    except RefereeError as error:
        assert str(error).strip()
    else:
        assert got.posts


def test_shown_helper_matches_smf_formats() -> None:
    assert shown(at("2024-03-01 09:05:07"), NOW) == "01 Марта 2024, 09:05:07"
    assert red("Kotik") == '<span style="color: red;" class="bbc_color">Kotik</span>'


def test_a_topic_address_with_a_separate_start() -> None:
    from adapters.smf.urls import topic_start

    assert topic_start(f"{BOARD}?topic=7;start=25") == (7, "25")
    assert topic_start(f"{BOARD}?topic=7.msg102#msg102") == (7, "msg102")
