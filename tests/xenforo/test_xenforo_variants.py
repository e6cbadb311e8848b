"""A vote post «Мой голос – <red nick>» comes out with the right author, time, number and body
on every XenForo version and style the engine knows (xf_variants names each shape's source),
for members, guests and deleted members; placeholders, pinned first posts, pagination,
titles and the viewer's zone on pages written from the same facts."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from selectolax.lexbor import LexborHTMLParser as parse
from support.moscow import msk as at
from support.xenforo.pages import MOSCOW, XF_RED, code, page_nav, quote, red, spoiler, time_tag
from xf_variants import (
    PREFIX,
    ROUTE,
    VARIANTS,
    Vp,
    deleted,
    xf1,
    xf1_page,
    xf2_page,
    xf22,
)

from adapters.xenforo.posts import read_posts
from adapters.xenforo.topic import parse_topic_page
from referee.core.kernel import Post
from referee.core.markup import QUOTE_MARK
from referee.core.nicks import Roster
from referee.rules.day.reading import find_vote

Render = Callable[[Vp, datetime], str]
NOW = datetime(2026, 11, 22, 9, 0, tzinfo=MOSCOW)
URL = f"http://board.test{PREFIX}{ROUTE}"
ROSTER = Roster(["Лиса", "Ёжик", "Бармен", "Тень", "Гость Ночной"])
REASON = "Лиса весь вечер уходит от прямых вопросов и путается в показаниях."
VOTE = (f"{REASON}<br />\nМой голос – <b><span style=\"font-size: 18px\">"
        f"{red('Лиса')}</span></b>")


def _thread(vote: Vp, render: Render) -> str:
    host = Vp(7301, "Ведущий", 1001, at("2026-11-21 10:00"), 1, "День 1 начался.")
    other = Vp(7303, "Бармен", 1003, at("2026-11-21 22:05"), 3, "Пока думаю.")
    return xf2_page(render(host, NOW) + render(vote, NOW) + render(other, NOW))


def _check_vote(html: str, vote: Vp, *, number: int | None) -> None:
    page = parse_topic_page(html, url=URL, tz=MOSCOW, now=NOW)
    (post,) = [p for p in page.posts if p.post_id == vote.post_id]
    assert (post.author, post.author_id) == (vote.author, vote.user_id)
    assert post.posted_at == vote.at.astimezone(UTC)
    assert post.position == [p.post_id for p in page.posts].index(vote.post_id) + 1
    reading = find_vote(post, ROSTER)
    assert reading is not None and reading.valid and reading.target == "Лиса"
    assert "Подпись" not in post.body_text and "Бармен" not in post.body_text
    raw = read_posts(parse(html), URL, MOSCOW, NOW)
    assert [r.number for r in raw if r.post_id == vote.post_id] == [number]


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize(("author", "uid"), [("Ёжик", 1007), ("Гость Ночной", None)])
def test_a_vote_post_reads_alike_in_every_version_and_style(
        variant: str, author: str, uid: int | None) -> None:
    vote = Vp(7302, author, uid, at("2026-11-21 21:40"), 2, VOTE,
              edited_at=at("2026-11-21 21:52"))
    html = _thread(vote, VARIANTS[variant])
    # An article's first post prints no «#N»; every other shape prints it somewhere.
    _check_vote(html, vote, number=None if variant == "article" else 2)
    page = parse_topic_page(html, url=URL, tz=MOSCOW, now=NOW)
    (post,) = [p for p in page.posts if p.post_id == 7302]
    assert post.edit is not None and post.edit.editor == author
    assert post.edit.edited_at == at("2026-11-21 21:52").astimezone(UTC)
    assert page.title == "Мафия №119"  # the prefix label «Игра» is not the title


@pytest.mark.parametrize("recent", [True, False])
@pytest.mark.parametrize(("author", "uid"), [("Ёжик", 1007), ("Гость Ночной", None)])
def test_a_vote_post_reads_alike_on_xenforo_1(recent: bool, author: str,
                                             uid: int | None) -> None:
    # Page 54 of 25-post pages opens with post #1326, as on the real XF1 page.
    host = Vp(2146285, "Ведущий", 1001, at("2026-11-21 10:00"), 1326, "День 1 начался.")
    vote = Vp(2146286, author, uid, at("2026-11-21 21:40"), 1327, VOTE)
    html = xf1_page(xf1(host, NOW, recent) + xf1(vote, NOW, recent), page=54, last=347,
                    now=NOW)
    _check_vote(html, vote, number=1327)
    page = parse_topic_page(html, url=URL, tz=MOSCOW, now=NOW)
    assert (page.page, page.total_pages, page.per_page, page.title) == (54, 347, 25,
                                                                        "Мафия №119")


# --------------------------------------------------------------------------- colours

@pytest.mark.parametrize(("nick_html", "counts"), [
    (red("Лиса"), True),                                      # the editor's «Красный»
    ('<span style="color: #ff0000">Лиса</span>', True),       # [COLOR=#ff0000]
    ('<span style="color: #E25041">Лиса</span>', True),
    ('<span style="color: rgb(184, 49, 47)">Лиса</span>', True),
    ('<span style="color: red">Лиса</span>', True),           # [COLOR=red]
    ('<span style="color: darkred">Лиса</span>', True),
    ('<b><i><span style="font-size: 22px"><span style="color: red">Лиса</span></span></i></b>',
     True),
    ('<span style="color: rgb(84, 172, 210)">Лиса</span>', False),  # the editor's blue
    ("<b>Лиса</b>", False),
])
def test_colours_as_xenforo_writes_them(nick_html: str, counts: bool) -> None:
    vote = Vp(7302, "Ёжик", 1007, at("2026-11-21 21:40"), 2,
              f"{REASON}<br />\nМой голос – {nick_html}")
    page = parse_topic_page(_thread(vote, xf22), url=URL, tz=MOSCOW, now=NOW)
    (post,) = [p for p in page.posts if p.post_id == 7302]
    reading = find_vote(post, ROSTER)
    assert reading is not None and (reading.valid and reading.target == "Лиса") is counts


def test_a_whole_red_vote_line_counts() -> None:
    vote = Vp(7302, "Ёжик", 1007, at("2026-11-21 21:40"), 2,
              f'{REASON}<br />\n<span style="color: rgb(226, 80, 65)">Мой голос – Лиса</span>')
    page = parse_topic_page(_thread(vote, xf22), url=URL, tz=MOSCOW, now=NOW)
    reading = find_vote(page.posts[1], ROSTER)
    assert reading is not None and reading.valid and reading.target == "Лиса"


# --------------------------------------------------------------------------- bodies

def _body(html: str) -> Post:
    vote = Vp(7302, "Ёжик", 1007, at("2026-11-21 21:40"), 2, html)
    page = parse_topic_page(_thread(vote, xf22), url=URL, tz=MOSCOW, now=NOW)
    return page.posts[1]


def _bare_quote(inner: str, name: str | None = None) -> str:
    # XF 2.0–2.3 bb_code_tag_quote: [QUOTE] without a source, or with a name only.
    title = (f'<div class="bbCodeBlock-title">{name} сказал(а):</div>' if name else "")
    return ('<blockquote class="bbCodeBlock bbCodeBlock--expandable bbCodeBlock--quote">'
            f'{title}<div class="bbCodeBlock-content"><div class="bbCodeBlock-expandContent">'
            f'{inner}</div><div class="bbCodeBlock-expandLink"><a>Нажмите для раскрытия...</a>'
            "</div></div></blockquote>")


@pytest.mark.parametrize("quoted", [
    quote(PREFIX, "Лиса", 1002, 7300, "Мой голос – " + red("Ёжик")),
    _bare_quote("Мой голос – " + red("Ёжик")),
    _bare_quote("Мой голос – " + red("Ёжик"), name="Тень"),
    quote(PREFIX, "Тень", 1004, 7299,
          quote(PREFIX, "Лиса", 1002, 7298, "Мой голос – " + red("Ёжик")) + "Согласна."),
])
def test_a_quoted_vote_is_never_the_posters_and_the_own_vote_still_counts(quoted: str) -> None:
    post = _body(quoted + f"\n{REASON}<br />\nМой голос – " + red("Лиса"))
    reading = find_vote(post, ROSTER)
    assert reading is not None and reading.valid and reading.target == "Лиса"
    assert "Нажмите для раскрытия" not in post.body_text
    assert any(line.startswith(QUOTE_MARK) and "Ёжик" in line
               for line in post.body_text.splitlines())


@pytest.mark.parametrize("wrapped", [
    spoiler("Мой голос", "Мой голос – " + red("Лиса")),
    # [ISPOILER] (XF 2.1+): the text stays in place, blurred by CSS.
    '<span class="bbCodeInlineSpoiler" data-xf-click="toggle-class" data-class='
    '"bbCodeInlineSpoiler--active" data-xf-init="tooltip" title="Нажмите, чтобы показать">'
    "Мой голос – " + red("Лиса") + "</span>",
    # XF1 [SPOILER]: button + div.SpoilerTarget.
    '<div class="ToggleTriggerAnchor bbCodeSpoilerContainer"><button type="button" '
    'class="button bbCodeSpoilerButton ToggleTrigger Tooltip JsOnly"><span>Спойлер: '
    '<span class="SpoilerTitle">голос</span></span></button><div class="SpoilerTarget '
    'bbCodeSpoilerText">Мой голос – ' + red("Лиса") + "</div></div>",
])
def test_a_vote_inside_a_spoiler_is_the_authors_own(wrapped: str) -> None:
    post = _body(f"{REASON}<br />\n{wrapped}")
    reading = find_vote(post, ROSTER)
    assert reading is not None and reading.valid and reading.target == "Лиса"
    assert "Спойлер" not in post.body_text


def test_a_vote_in_a_code_box_is_never_read() -> None:
    post = _body(REASON + code("Мой голос – Лиса"))
    reading = find_vote(post, ROSTER)
    assert reading is None or not reading.valid
    assert '<div class="codebox">' in post.body_html


def test_a_link_preview_is_the_boards_not_the_posters() -> None:
    unfurl = ('<div class="bbCodeBlock bbCodeBlock--unfurl js-unfurl fauxBlockLink" '
              'data-unfurl="true" data-url="http://board.test/threads/x.1/"><div '
              'class="contentRow"><h3 class="contentRow-header">Мой голос – <span style='
              '"color: red">Бармен</span></h3><div class="contentRow-snippet">Тема</div>'
              "</div></div>")
    post = _body(f"{unfurl}\n{REASON}")
    assert "Бармен" not in post.body_text and find_vote(post, ROSTER) is None


# --------------------------------------------------------------------------- placeholders

def test_deleted_ignored_and_moderated_posts() -> None:
    vote = Vp(7302, "Ёжик", 1007, at("2026-11-21 21:40"), 2, VOTE)
    ignored = xf22(vote, NOW).replace("js-inlineModContainer", "js-inlineModContainer "
                                      "is-ignored", 1).replace(
        '<div class="message-content js-messageContent">',
        '<div class="message-content js-messageContent"><div class="messageNotice '
        'messageNotice--ignored">Вы игнорируете публикации этого пользователя.</div>', 1)
    waiting = Vp(7304, "Тень", 1004, at("2026-11-21 22:30"), 4, "Мой голос – " + red("Лиса"))
    moderated = xf22(waiting, NOW).replace(
        '<div class="message-content js-messageContent">',
        '<div class="message-content js-messageContent"><div class="messageNotice '
        'messageNotice--moderated">Это сообщение ожидает одобрения модератором, и скрыто '
        "от обычных посетителей.</div>", 1)
    html = xf2_page(ignored + deleted(7303, "Бармен", NOW, at("2026-11-21 22:00")) + moderated)
    page = parse_topic_page(html, url=URL, tz=MOSCOW, now=NOW)
    # A moderator's view of a soft-deleted post is a placeholder without its text: skipped.
    # Ignoring a member hides his posts by CSS only: still read. A post awaiting approval
    # that the host can see is read as the board shows it.
    assert [(p.post_id, p.position) for p in page.posts] == [(7302, 1), (7304, 2)]
    assert find_vote(page.posts[0], ROSTER).target == "Лиса"
    assert "игнорируете" not in page.posts[0].body_text
    assert "одобрения" not in page.posts[1].body_text


# --------------------------------------------------------------------------- pinned first post

def _later_page(pinned: str, first: int, page: int) -> str:
    posts = "".join(
        xf22(Vp(8000 + n, "Ёжик", 1007, at("2026-11-21 12:00") + timedelta(minutes=n), n,
                f"Сообщение {n}."), NOW) for n in range(first, first + 3))
    nav = page_nav(page, 5, lambda p: f"{PREFIX}{ROUTE}page-{p}")
    return xf2_page(posts, pinned=pinned, nav=nav)


@pytest.mark.parametrize("render", [xf22, VARIANTS["article"]])
def test_the_first_post_pinned_above_a_later_page_is_not_that_pages(render: Render) -> None:
    first = render(Vp(7301, "Ведущий", 1001, at("2026-11-20 10:00"), 1, "Правила игры."), NOW)
    page = parse_topic_page(_later_page(first, 41, 3), url=URL + "page-3", tz=MOSCOW, now=NOW)
    assert [p.post_id for p in page.posts] == [8041, 8042, 8043]
    assert [p.position for p in page.posts] == [1, 2, 3]
    assert (page.page, page.total_pages, page.per_page) == (3, 5, 20)
    # On the first page the pinned post is the page's own first post, once.
    one = xf2_page(xf22(Vp(7302, "Ёжик", 1007, at("2026-11-20 11:00"), 2, "Привет."), NOW),
                   pinned=first)
    assert [p.post_id for p in parse_topic_page(one, url=URL, tz=MOSCOW, now=NOW).posts] == [
        7301, 7302]


def test_an_add_on_repeating_the_first_post_inside_the_list_is_dropped_after_page_1() -> None:
    # XF1 «first post on every page» add-ons print it as the list's first item.
    first = Vp(100, "Ведущий", 1001, at("2026-11-20 10:00"), 1, "Правила игры.")
    posts = [Vp(200 + n, "Ёжик", 1007, at("2026-11-21 12:00"), 25 + n, f"№{n}") for n in (1, 2)]
    html = xf1_page("".join(xf1(p, NOW) for p in [first, *posts]), page=2, last=3, now=NOW)
    page = parse_topic_page(html, url=URL + "page-2", tz=MOSCOW, now=NOW)
    assert [p.post_id for p in page.posts] == [201, 202] and page.per_page == 25


def test_a_style_numbering_posts_per_page_keeps_every_post() -> None:
    posts = [Vp(300 + n, "Ёжик", 1007, at("2026-11-21 12:00"), n, f"№{n}") for n in (1, 2, 3)]
    html = xf1_page("".join(xf1(p, NOW) for p in posts), page=2, last=3, now=NOW)
    page = parse_topic_page(html, url=URL + "page-2", tz=MOSCOW, now=NOW)
    assert [p.post_id for p in page.posts] == [301, 302, 303]


def test_the_same_post_twice_on_a_page_is_read_once() -> None:
    p = Vp(7302, "Ёжик", 1007, at("2026-11-21 21:40"), 2, VOTE)
    page = parse_topic_page(xf2_page(xf22(p, NOW) + xf22(p, NOW)), url=URL, tz=MOSCOW, now=NOW)
    assert [q.post_id for q in page.posts] == [7302]


# --------------------------------------------------------------------------- pagination

def _numbered(first: int, count: int) -> str:
    return "".join(xf22(Vp(9000 + n, "Ёжик", 1007, at("2026-11-21 12:00"), n, f"№{n}"), NOW)
                   for n in range(first, first + count))


@pytest.mark.parametrize(("current", "total"), [(1, 120), (2, 120), (57, 120), (119, 120),
                                                (120, 120), (4, 7)])
def test_the_last_page_is_read_however_many_pages_collapse_into_an_ellipsis(
        current: int, total: int) -> None:
    nav = page_nav(current, total, lambda p: f"{PREFIX}{ROUTE}page-{p}")
    count = 20 if current < total else 7
    html = xf2_page(_numbered((current - 1) * 20 + 1, count), nav=nav)
    page = parse_topic_page(html, url=f"{URL}page-{current}", tz=MOSCOW, now=NOW)
    assert (page.page, page.total_pages, page.per_page) == (current, total, 20)
    assert page.total_posts == ((current - 1) * 20 + 7 if current == total else None)


def test_only_the_simple_nav_in_russian() -> None:
    nav = ('<div class="pageNavSimple"><a class="pageNavSimple-el pageNavSimple-el--current">'
           "57 из 120</a></div>")
    html = xf2_page(_numbered(1121, 20), nav=nav)
    page = parse_topic_page(html, url=f"{URL}page-57", tz=MOSCOW, now=NOW)
    assert (page.page, page.total_pages, page.per_page) == (57, 120, 20)


def test_a_page_without_any_nav_takes_its_number_from_the_address() -> None:
    html = xf2_page(_numbered(41, 5)).replace(f'href="http://board.test{PREFIX}{ROUTE}"',
                                              f'href="http://board.test{PREFIX}{ROUTE}page-3"')
    page = parse_topic_page(html, url=f"{URL}page-3", tz=MOSCOW, now=NOW)
    assert (page.page, page.total_pages, page.per_page) == (3, 3, 20)


def test_the_title_falls_back_to_the_head_without_the_page_number() -> None:
    html = xf2_page(_numbered(1, 1)).replace('<h1 class="p-title-value">', "<h2>").replace(
        "<title>Мафия №119 | Мафия-клуб</title>",
        "<title>Игра - Мафия №119 - Страница 2 | Мафия-клуб</title>")
    assert parse_topic_page(html, url=URL, tz=MOSCOW, now=NOW).title == "Игра - Мафия №119"


# --------------------------------------------------------------------------- the viewer's zone

def _text_only(p: Vp, shown: str) -> str:
    # A style that drops the machine attributes: the date is text only.
    html = xf22(p, NOW)
    start = html.index("<time")
    return html[:start] + f'<time class="u-dt">{shown}</time>' + html[html.index(
        "</time>", start) + len("</time>"):]


@pytest.mark.parametrize(("zone", "day_start", "meant"), [
    # The page says its viewer's midnight was 21:00 UTC (Moscow): a board zone of UTC that
    # disagrees gives way to it.
    ("UTC", (int(NOW.timestamp()), int(datetime(2026, 11, 21, 21, tzinfo=UTC).timestamp())),
     "2026-11-21 21:40"),
    # A guest page of a board whose default zone is Europe/Kiev (UTC+2 in November).
    ("Europe/Moscow", (int(NOW.timestamp()),
                       int(datetime(2026, 11, 21, 22, tzinfo=UTC).timestamp())),
     "2026-11-21 22:40"),
    # No such script: the board's zone.
    ("Europe/Moscow", None, "2026-11-21 21:40"),
])
def test_text_dates_are_read_in_the_zone_the_page_was_rendered_in(
        zone: str, day_start: tuple[int, int] | None, meant: str) -> None:
    p = Vp(7302, "Ёжик", 1007, at("2026-11-21 21:40"), 2, VOTE)
    html = xf2_page(_text_only(p, "Вчера в 21:40"), day_start=day_start)
    page = parse_topic_page(html, url=URL, tz=ZoneInfo(zone), now=NOW)
    assert page.posts[0].posted_at == at(meant).astimezone(UTC)


def test_a_players_text_never_sets_the_zone() -> None:
    p = Vp(7302, "Ёжик", 1007, at("2026-11-21 21:40"),
           2, f"{REASON} time: {{ now: {int(NOW.timestamp())}, today: 1795300000 }}")
    html = xf2_page(_text_only(p, "Вчера в 21:40"))
    page = parse_topic_page(html, url=URL, tz=MOSCOW, now=NOW)
    assert page.posts[0].posted_at == at("2026-11-21 21:40").astimezone(UTC)


@pytest.mark.parametrize(("shown", "meant"), [
    ("Вчера в 21:40", "2026-11-21 21:40"),
    ("Сегодня в 08:15", "2026-11-22 08:15"),
    ("Четверг в 18:00", "2026-11-19 18:00"),   # NOW is a Sunday: Thursday is 3 days back
    ("Пятница в 9:05", "2026-11-20 09:05"),
    ("Monday at 6:00 PM", "2026-11-16 18:00"),
    ("Только что", "2026-11-22 09:00"),
    ("Минуту назад", "2026-11-22 08:59"),
    ("5 минут назад", "2026-11-22 08:55"),
    ("20 ноя 2026", "2026-11-20 00:00"),
    ("16.06.17 в 14:51", "2017-06-16 14:51"),    # XF1 Russian title (forumhouse.ru)
    ("Oct 30, 2014 at 10:48 PM", "2014-10-30 22:48"),
])
def test_xenforos_date_texts(shown: str, meant: str) -> None:
    from adapters.xenforo.page import time_of

    node = parse(f'<span class="DateTime" title="{shown}">x</span>').css_first("span")
    assert time_of(node, MOSCOW, NOW) == at(meant).astimezone(UTC)


def test_xenforo_23_dates_without_the_machine_attributes() -> None:
    # data-time is 2.3's clock text, not an instant: with the instant attributes gone the
    # date and clock attributes are read in the page's zone.
    from adapters.xenforo.page import time_of

    stamp = re.sub(r' (?:datetime|data-timestamp)="[^"]*"', "",
                   time_tag(at("2026-11-21 21:40"), NOW, "2.3"))
    assert "data-time=\"21:40\"" in stamp
    node = parse(stamp.replace("title=", "data-title=")).css_first("time")
    assert time_of(node, MOSCOW, NOW) == at("2026-11-21 21:40").astimezone(UTC)


def test_xf_red_is_the_editor_palette() -> None:
    assert XF_RED == "rgb(226, 80, 65)"
