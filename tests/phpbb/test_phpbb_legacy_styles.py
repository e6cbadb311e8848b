"""Older phpBB markup: a real 3.0 prosilver page (English), 3.0 prosilver and subsilver2 pages
rendered from phpBB's templates (Russian), and 3.2.0–3.2.8 pages without ``<time>``.
Each fixture folder's README says where its pages come from."""

from __future__ import annotations

from datetime import datetime
from functools import cache
from zoneinfo import ZoneInfo

import pytest
from phpbb_pages import MOSCOW, html, manifest, raw, topic, utc

from adapters.phpbb.forms import is_logged_in
from adapters.phpbb.page import decode_page
from adapters.phpbb.snapshot import page_kind
from adapters.phpbb.topic import parse_topic_page
from referee.core.errors import MalformedPage
from referee.core.kernel import TopicPage
from referee.core.markup import QUOTE_MARK, unquoted_lines

NETTALLY_URL = "http://www.ilovephilosophy.com/viewtopic.php?f=1&t=194998&start=25"
# The board footer says «All times are UTC [ DST ]»: phpBB 3.0 added the DST hour.
NETTALLY_TZ = ZoneInfo("Etc/GMT-1")
RU30_URL = "http://mafia.example/viewtopic.php?f=2&t=77&start=30"
SUB_URL = "http://mafia.example/viewtopic.php?f=2&t=78&start=10"
SUB_RENDERED = datetime(2026, 11, 22, 15, 0, tzinfo=MOSCOW)
REL_RENDERED = datetime(2026, 11, 23, 22, 40, 30, tzinfo=MOSCOW)


@cache
def nettally() -> TopicPage:
    return parse_topic_page(html("phpbb30/nettally_ilovephilosophy_p2.html"), url=NETTALLY_URL,
                            tz=NETTALLY_TZ, now=datetime(2019, 6, 2, tzinfo=NETTALLY_TZ))


@cache
def ru30() -> TopicPage:
    return parse_topic_page(html("phpbb30/prosilver_ru_topic_last_page.html"), url=RU30_URL,
                            tz=MOSCOW, now=SUB_RENDERED)


@cache
def subsilver(name: str = "topic_page2.html") -> TopicPage:
    return parse_topic_page(html(f"subsilver2/{name}"), url=SUB_URL, tz=MOSCOW, now=SUB_RENDERED)


@cache
def relative(name: str) -> TopicPage:
    return parse_topic_page(html(f"phpbb32/{name}"), url="http://127.0.0.1:8733/viewtopic.php?t=3",
                            tz=MOSCOW, now=REL_RENDERED)


# --- real phpBB 3.0 page (NetTally test resource) -------------------------------------------

def test_real_30_page_gives_all_25_posts_with_authors_ids_and_times():
    page = nettally()
    assert len(page.posts) == 25
    first, last = page.posts[0], page.posts[-1]
    assert (first.post_id, first.author, first.author_id) == (2729870, "Jakob", 5996)
    assert first.posted_at == utc("2019-05-26T15:34:00Z")  # «Sun May 26, 2019 4:34 pm»
    assert (last.post_id, last.author, last.author_id) == (2730442, "promethean75", 43701)
    assert last.posted_at == utc("2019-06-01T18:20:00Z")  # «Sat Jun 01, 2019 7:20 pm»
    assert [p.position for p in page.posts] == list(range(1, 26))
    assert {p.author for p in page.posts} == {"Jakob", "promethean75", "Urwrongx1000",
                                              "Artimas", "Silhouette"}


def test_real_30_pagination_page_2_of_10():
    page = nettally()
    assert (page.topic_id, page.title) == (194998, "Biological Will")
    assert (page.page, page.total_pages, page.per_page, page.total_posts) == (2, 10, 25, 247)
    assert page.next_url == "http://www.ilovephilosophy.com/viewtopic.php?f=1&t=194998&start=50"


def test_real_30_english_edit_notices():
    edits = {p.post_id: p.edit for p in nettally().posts if p.edit is not None}
    assert set(edits) == {2729877, 2729880}
    assert (edits[2729877].editor, edits[2729877].count) == ("Jakob", 2)
    assert edits[2729877].edited_at == utc("2019-05-26T16:35:00Z")
    assert (edits[2729880].editor, edits[2729880].count) == ("Jakob", 1)


def test_real_30_body_is_content_without_signature_and_quotes_are_marked():
    posts = {p.post_id: p for p in nettally().posts}
    assert "For behold" not in posts[2729870].body_text  # that is Jakob's signature
    quoting = posts[2729876].body_text.split("\n")
    assert quoting[0] == QUOTE_MARK + "Urwrongx1000 wrote:"
    assert unquoted_lines(posts[2729876].body_text)[-1].startswith("But then if non living")
    assert QUOTE_MARK not in posts[2729870].body_text


def test_real_30_guest_page_is_not_logged_in():
    assert is_logged_in(html("phpbb30/nettally_ilovephilosophy_p2.html")) is False


# --- phpBB 3.0 prosilver, Russian, rendered from the templates -------------------------------

def test_ru_30_posts_with_text_dates_in_the_viewer_timezone():
    got = [(p.post_id, p.author, p.author_id, p.posted_at) for p in ru30().posts]
    assert got == [
        (2231, "Шерлок", 59, utc("2026-11-22T08:02:00Z")),   # «Вс ноя 22, 2026 11:02 am»
        (2232, "Лиса", 63, utc("2026-11-22T08:47:00Z")),
        (2234, "admin", 2, utc("2026-11-22T09:15:00Z")),     # coloured admin link
        (2236, "Тень_Ночи", 62, utc("2026-11-22T11:10:00Z")),
        (2239, "Прохожий", None, utc("2026-11-22T18:58:00Z")),  # guest: bare name
        (2240, "Ведущий", 58, utc("2026-11-22T19:05:00Z")),  # «Вс ноя 22, 2026 10:05 pm»
    ]


def test_ru_30_last_page_of_four():
    page = ru30()
    assert (page.topic_id, page.title, page.page, page.total_pages, page.per_page,
            page.total_posts, page.next_url) == (77, "Мафия: игра 3", 4, 4, 10, 36, None)


def test_ru_30_edit_notice_with_reason():
    edit = next(p.edit for p in ru30().posts if p.post_id == 2236)
    assert (edit.editor, edit.count) == ("Тень_Ночи", 2)
    assert edit.edited_at == utc("2026-11-22T11:40:00Z")  # «Вс ноя 22, 2026 2:40 pm»


def test_ru_30_legacy_colour_markup_is_kept_in_the_body():
    posts = {p.post_id: p for p in ru30().posts}
    assert '<span style="color: #FF0000">Лиса</span>' in posts[2231].body_html
    assert ('<span style="font-weight: bold"><span style="color: red">Шерлок</span></span>'
            in posts[2232].body_html)
    assert posts[2232].body_text.split("\n")[0] == QUOTE_MARK + "Шерлок писал(а):"
    assert "Рыжая и хитрая" not in posts[2232].body_text  # signature
    assert "опечатка" not in posts[2236].body_text  # edit reason


def test_ru_30_host_page_is_logged_in():
    assert is_logged_in(html("phpbb30/prosilver_ru_topic_last_page.html")) is True


def test_hidden_foe_post_in_30_is_a_clear_error():
    # phpBB 3.0 prints a foe's post as div.ignore only: no author, no date, no text.
    page = html("phpbb30/prosilver_ru_topic_last_page.html")
    start = page.index('<div class="postbody">', page.index('<div id="p2239"'))
    end = page.index("</dl>", start) + len("</dl>")
    hidden = ('<div class="postbody"><div class="ignore">Это сообщение было оставлено '
              '<strong>Прохожий</strong>, находящимся в вашем чёрном списке.</div></div>')
    with pytest.raises(MalformedPage, match="p2239.*недругов"):
        parse_topic_page(page[:start] + hidden + page[end:], url=RU30_URL, tz=MOSCOW,
                         now=SUB_RENDERED)


# --- subsilver2, Russian, rendered from the templates ---------------------------------------

SUB_EXPECTED = [
    (3011, "Шерлок", 59, "2026-11-20T15:30:00Z"),     # «20 ноя 2026, 18:30»
    (3012, "Kotik", 61, "2026-11-21T09:05:00Z"),      # «Вчера, 12:05»
    (3013, "Лиса", 63, "2026-11-21T10:40:00Z"),
    (3014, "admin", 2, "2026-11-21T15:00:00Z"),
    (3015, "Прохожий", None, "2026-11-21T18:15:00Z"),
    (3016, "Тень_Ночи", 62, "2026-11-22T07:20:00Z"),  # «Сегодня, 10:20»
    (3017, "Ёжик", 66, "2026-11-22T08:45:00Z"),
    (3018, "Полковник", 67, "2026-11-22T09:30:00Z"),
    (3019, "Nika-77", 68, "2026-11-22T11:10:00Z"),
    (3020, "Гроза", 69, "2026-11-22T11:48:00Z"),      # «12 минут назад» at 15:00
]


@pytest.mark.parametrize("name", ["topic_page2.html", "topic_page2_cp1251.html"])
def test_subsilver2_posts_authors_ids_and_relative_dates(name):
    got = [(p.post_id, p.author, p.author_id, p.posted_at) for p in subsilver(name).posts]
    assert got == [(pid, a, uid, utc(t)) for pid, a, uid, t in SUB_EXPECTED]


def test_subsilver2_pagination_middle_page():
    page = subsilver()
    assert (page.topic_id, page.title, page.page, page.total_pages, page.per_page,
            page.total_posts) == (78, "Мафия: игра 4", 2, 3, 10, 25)
    assert page.next_url == "http://mafia.example/viewtopic.php?f=2&t=78&start=20"


def test_subsilver2_quotes_signature_and_edit_notice():
    posts = {p.post_id: p for p in subsilver().posts}
    assert posts[3013].body_text.split("\n")[:2] == [
        QUOTE_MARK + "Kotik писал(а):", QUOTE_MARK + "Мой голос – Лиса"]
    assert unquoted_lines(posts[3013].body_text)[-1] == "Мой голос – Kotik"
    assert all(line.startswith(QUOTE_MARK) for line in posts[3018].body_text.split("\n")[:-1])
    assert "колючий" not in posts[3017].body_text
    assert "редактировалось" not in posts[3016].body_text
    edit = posts[3016].edit
    assert (edit.editor, edit.edited_at, edit.count) == ("Тень_Ночи",
                                                         utc("2026-11-22T11:26:00Z"), 1)


def test_windows_1251_page_is_read_from_its_meta_charset():
    data = raw("subsilver2/topic_page2_cp1251.html")
    assert "Мафия".encode("cp1251") in data
    assert "Мафия: игра 4" in decode_page(data)
    assert "Мафия: игра 4" in decode_page(data, "text/html; charset=windows-1251")
    assert page_kind(decode_page(data)) == "topic"


# --- phpBB 3.2.0–3.2.8 (no <time>), relative date format ------------------------------------

@pytest.mark.parametrize(
    ("name", "real"),
    [("topic_p3_relative_dates.html", "topic_p3_guest.html"),
     ("topic_p4_relative_dates.html", "topic_p4_guest.html")],
)
def test_pages_without_time_elements_give_the_same_posts_to_the_minute(name, real):
    rebuilt = relative(name)
    truth = topic(real)
    assert [p.post_id for p in rebuilt.posts] == [p.post_id for p in truth.posts]
    assert [p.body_text for p in rebuilt.posts] == [p.body_text for p in truth.posts]
    for got, want in zip(rebuilt.posts, truth.posts, strict=True):
        # Text dates carry whole minutes; «N минут назад» is read as now − N minutes.
        assert 0 <= (got.posted_at - want.posted_at.replace(second=0)).total_seconds() < 60


def test_relative_page_shows_the_forms_phpbb_prints():
    page = html("phpbb32/topic_p4_relative_dates.html")
    assert "<time" not in page
    for text in ("Сегодня, 21:30", "40 минут назад", "30 минут назад"):
        assert text in page
    assert "Вчера, 10:05" in html("phpbb32/topic_p3_relative_dates.html")


def test_manifest_agrees_with_the_relative_page():
    times = {p["post_id"]: utc(p["time"]["utc"]) for p in manifest()["posts"]}
    for post in relative("topic_p3_relative_dates.html").posts:
        assert post.posted_at.replace(second=0) == times[post.post_id].replace(second=0)



def test_subsilver2_host_page_is_logged_in():
    assert is_logged_in(html("subsilver2/topic_page2.html")) is True


def _replace_between(page: str, start: str, end: str, new: str) -> str:
    first = page.index(start)
    last = page.index(end, first)
    return page[:first] + new + page[last:]


@pytest.mark.parametrize(
    ("style", "page"),
    [
        # prosilver 3.0 message_body.html: div#message > h2 (no class) + p.
        ("prosilver 3.0", lambda: _replace_between(
            html("phpbb30/prosilver_ru_topic_last_page.html"), '<div id="page-body">',
            '<div id="page-footer">',
            '<div id="page-body"><div class="panel" id="message"><div class="inner"><span '
            'class="corners-top"><span></span></span><h2>Информация</h2><p>Запрошенной темы не '
            'существует.</p><span class="corners-bottom"><span></span></span></div></div>'
            '</div>\n')),
        # subsilver2 message_body.html: table.tablebg > th + td.row1 > p.gen.
        ("subsilver2", lambda: _replace_between(
            html("subsilver2/topic_page2.html"), '<div id="pageheader">', '<div id="wrapfooter">',
            '<table class="tablebg" width="100%" cellspacing="1"><tr><th>Информация</th></tr>'
            '<tr><td class="row1" align="center"><br /><p class="gen">Запрошенной темы не '
            'существует.</p><br /></td></tr></table>\n')),
    ],
    ids=["prosilver 3.0", "subsilver2"],
)
def test_old_style_information_panel_is_read(style, page):
    from referee.core.errors import TopicNotFound

    text = page()
    assert page_kind(text) == "message"
    with pytest.raises(TopicNotFound):
        parse_topic_page(text, url=RU30_URL, tz=MOSCOW, now=SUB_RENDERED)
