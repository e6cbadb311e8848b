"""Posts that are not the topic's posts on the page (soft-deleted in a moderator's view, the
first post repeated above later pages), posts of foes, and the body's spoilers, colours and
chrome, on pages written from the facts (phpbb_variants)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from phpbb_variant_pages import topic_page
from phpbb_variants import (
    MOSCOW,
    NOW,
    URL,
    Vp,
    foe31,
    post_numbers,
    prosilver30,
    prosilver32,
    prosilver33,
    soft_deleted,
    subsilver2,
)

from adapters.phpbb.client import learned_per_page
from adapters.phpbb.topic import parse_topic_page
from referee.core.kernel import TopicPage
from referee.core.markup import QUOTE_MARK
from referee.core.nicks import Roster
from referee.rules.day.reading import find_vote

ROSTER = Roster(["Лиса", "Ёжик", "Шерлок", "Kotik"])
REASON = "Лиса весь день уходит от ответов и путается в показаниях."


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=MOSCOW)


def _posts(first: int, count: int, day: str = "2026-11-20") -> list[Vp]:
    return [Vp(first + i, "Шерлок" if i % 2 else "Kotik", 59 if i % 2 else 61,
               at(f"{day} 10:{i:02}:00"), f"Обсуждаем, реплика {first + i}.")
            for i in range(count)]


def _read(html: str) -> TopicPage:
    return parse_topic_page(html, url=URL, tz=MOSCOW, now=NOW)


# --------------------------------------------------------------------------- soft-deleted

def test_a_soft_deleted_post_a_moderator_sees_is_left_out_and_the_page_size_kept() -> None:
    posts = _posts(610, 10)
    gone = Vp(613, "Ёжик", 66, at("2026-11-20 10:03"), f"{REASON}<br />Мой голос – "
              '<span style="color:#FF0000">Лиса</span>')
    blocks = "".join(soft_deleted(gone) if p.post_id == 613 else prosilver33(p) for p in posts)
    page = _read(topic_page("prosilver 3.3", blocks, page=2, pages=3, total=25))
    assert 613 not in [p.post_id for p in page.posts] and len(page.posts) == 9
    # Every other post keeps its place on the page as the moderator sees it.
    assert [p.position for p in page.posts] == [1, 2, 3, 5, 6, 7, 8, 9, 10]
    assert (page.page, page.per_page) == (2, 10)
    assert learned_per_page(page) == 10  # the next page is asked for at start=20


def test_the_same_page_without_the_deleted_post_reads_the_same_for_others() -> None:
    posts = _posts(610, 10)
    with_mod = "".join(soft_deleted(p) if p.post_id == 613 else prosilver33(p) for p in posts)
    guest = "".join(prosilver33(p) for p in posts if p.post_id != 613)
    a = _read(topic_page("prosilver 3.3", with_mod, page=2, pages=3, total=25))
    b = _read(topic_page("prosilver 3.3", guest, page=2, pages=3, total=24))
    assert [(p.post_id, p.author, p.posted_at, p.body_html) for p in a.posts] == [
        (p.post_id, p.author, p.posted_at, p.body_html) for p in b.posts]


# --------------------------------------------------------------------------- pinned first

@pytest.mark.parametrize(("page_no", "pages", "total", "count"),
                         [(2, 3, 25, 10), (3, 3, 25, 5)], ids=["middle page", "last page"])
def test_the_first_post_repeated_above_a_later_page_is_not_read_twice(
        page_no: int, pages: int, total: int, count: int) -> None:
    first = Vp(600, "Ведущий", 58, at("2026-11-19 12:00"), "Правила игры: голосуем красным.")
    shown = _posts(600 + (page_no - 1) * 10, count)
    blocks = post_numbers(first, number=1) + "".join(
        post_numbers(p, number=(page_no - 1) * 10 + i + 1) for i, p in enumerate(shown))
    page = _read(topic_page("Post Numbers", blocks, page=page_no, pages=pages, total=total))
    assert [p.post_id for p in page.posts] == [p.post_id for p in shown]
    assert [p.position for p in page.posts] == list(range(1, count + 1))
    assert learned_per_page(page) == 10 or page_no == pages


def test_a_full_page_without_a_repeated_first_post_keeps_its_first_post() -> None:
    shown = _posts(610, 10)
    page = _read(topic_page("prosilver 3.3", "".join(prosilver33(p) for p in shown), page=2,
                            pages=3, total=25))
    assert [p.post_id for p in page.posts] == [p.post_id for p in shown]


# --------------------------------------------------------------------------- foes

def test_a_foes_post_in_31_and_later_is_whole_in_the_page_and_read() -> None:
    vote = Vp(620, "Kotik", 61, at("2026-11-21 09:00"), f"{REASON}<br />Мой голос – "
              '<span style="color:#FF0000">Лиса</span>')
    page = _read(topic_page("prosilver 3.3", foe31(vote)))
    (post,) = page.posts
    assert (post.author, post.author_id) == ("Kotik", 61)
    reading = find_vote(post, ROSTER)
    assert reading is not None and reading.target == "Лиса"
    assert "чёрном списке" not in post.body_text


# --------------------------------------------------------------------------- body

SPOILERS = {
    "ABBC3 3.1+": '<div class="spoilwrapper"><div class="spoiltitle"><span class="spoilbtn" '
                  'data-show="Показать" data-hide="Скрыть">Показать</span></div><div style="'
                  'display: none;" class="spoilcontent">{}</div></div>',
    "ABBC3 3.0": '<div class="spoilwrapper"><div class="spoiltitle"><input class="btnspoil" '
                 'type="button" value="Показать" onclick="show_spoiler(this)" /></div><div '
                 'class="spoilcontent" style="display: none;">{}</div></div>',
    "prosilver 3.0 code box": '<dl class="codebox"><dt>Спойлер: <a href="#" onclick="var c = '
                              "this.parentNode.parentNode.getElementsByTagName('dd')[0]; "
                              "c.style.display = ''; return false;\">Показать</a></dt><dd "
                              'style="display: none;">{}</dd></dl>',
    "quote-like blockquote": '<blockquote class="spoiler"><div><cite>Спойлер:</cite>{}</div>'
                             "</blockquote>",
    "hidden blockquote": '<blockquote><div style="display: none;">{}</div></blockquote>',
    "subsilver2 quote box": '<div class="quotetitle"><b>Спойлер:</b> <input type="button" '
                            'value="Показать" onclick="toggle(this)" /></div><div class="'
                            'quotecontent"><div style="display: none;">{}</div></div>',
    "details": "<details><summary>Спойлер</summary>{}</details>",
    "div.spoiler": '<div class="spoiler"><div class="spoiler-title">Спойлер</div><div class='
                   '"spoiler-body">{}</div></div>',
    "Hide BBCode": '<div class="hidebox hidebox_visible"><div class="hidebox_title">Скрытый '
                   "текст:</div><div>{}</div></div>",
}


@pytest.mark.parametrize("kind", sorted(SPOILERS))
def test_a_vote_inside_a_spoiler_is_the_authors_own(kind: str) -> None:
    inner = f'{REASON}<br />Мой голос – <span style="color: #FF0000">Лиса</span>'
    vote = Vp(630, "Ёжик", 66, at("2026-11-21 09:00"), "Под спойлером:" + SPOILERS[kind]
              .format(inner))
    (post,) = _read(topic_page("prosilver 3.0", prosilver30(vote))).posts
    reading = find_vote(post, ROSTER)
    assert reading is not None and reading.valid and reading.target == "Лиса"
    assert not any(line.startswith(QUOTE_MARK) for line in post.body_text.split("\n"))


@pytest.mark.parametrize("quote", [
    '<blockquote><div><cite>Kotik писал(а):</cite>Мой голос – <span style="color: #FF0000">'
    "Лиса</span></div></blockquote>",
    '<blockquote cite="./viewtopic.php?p=5#p5"><div><cite><a href="./memberlist.php?mode='
    'viewprofile&amp;u=61">Kotik</a> писал(а): <a href="./viewtopic.php?p=5#p5" data-post-id='
    '"5" onclick="if(document.getElementById(hash.substr(1)))href=hash"><i class="icon"></i>'
    '</a><span class="responsive-hide">21 ноя 2026, 08:00</span></cite>Мой голос – <span style='
    '"color:#FF0000">Лиса</span></div></blockquote>',
    '<blockquote class="uncited"><div>Мой голос – <span style="color:#FF0000">Лиса</span>'
    "</div></blockquote>",
    '<div class="quotetitle">Kotik писал(а):</div><div class="quotecontent">Мой голос – '
    '<span style="color: #FF0000">Лиса</span></div>',
], ids=["3.0/3.1", "3.2+ with the post link", "uncited", "subsilver2"])
def test_a_vote_in_a_quote_is_no_vote_and_stays_a_quote(quote: str) -> None:
    vote = Vp(631, "Ёжик", 66, at("2026-11-21 09:00"), quote + "Не согласен.")
    (post,) = _read(topic_page("prosilver 3.0", prosilver30(vote))).posts
    assert find_vote(post, ROSTER) is None
    assert post.body_text.split("\n")[0].startswith(QUOTE_MARK)


def test_a_real_code_box_stays_code() -> None:
    code = ('<dl class="codebox"><dt>Код: <a href="#" onclick="selectCode(this); return '
            'false;">Выделить всё</a></dt><dd><code>Мой голос – [color=red]Лиса[/color]</code>'
            "</dd></dl>")
    vote = Vp(632, "Ёжик", 66, at("2026-11-21 09:00"), code)
    (post,) = _read(topic_page("prosilver 3.0", prosilver30(vote))).posts
    assert post.body_html == code and find_vote(post, ROSTER) is None


@pytest.mark.parametrize("red", [
    '<span style="color: #FF0000">Лиса</span>', '<span style="color:#ff0000">Лиса</span>',
    '<span style="color: red">Лиса</span>', '<span style="color:darkred">Лиса</span>',
    '<font color="red">Лиса</font>', '<span style="color: rgb(255, 0, 0)">Лиса</span>',
    '<span style="font-weight: bold"><span style="color: #FF0000">Лиса</span></span>',
    '<strong class="text-strong"><span style="color:#FF0000">Лиса</span></strong>',
], ids=["3.0 hex", "3.2 hex", "named", "darkred", "font", "rgb", "3.0 bold", "3.2 bold"])
@pytest.mark.parametrize("render", [prosilver30, prosilver32, subsilver2],
                         ids=["prosilver 3.0", "prosilver 3.2", "subsilver2"])
def test_every_red_markup_is_read_as_the_vote(red: str, render) -> None:  # noqa: ANN001
    vote = Vp(633, "Ёжик", 66, at("2026-11-21 09:00"), f"{REASON}<br />Мой голос – {red}")
    variant = {prosilver30: "prosilver 3.0", prosilver32: "prosilver 3.3",
               subsilver2: "subsilver2 3.0"}[render]
    (post,) = _read(topic_page(variant, render(vote))).posts
    reading = find_vote(post, ROSTER)
    assert reading is not None and reading.valid and reading.target == "Лиса"


def test_attachments_and_inline_attachments_are_no_reason() -> None:
    body = ('Мой голос – <span style="color:#FF0000">Лиса</span><div class="inline-attachment">'
            '<dl class="file"><dt><a class="postlink" href="./download/file.php?id=3">улики.png'
            "</a></dt><dd>12 КБ, Просмотров: 5</dd></dl></div>")
    vote = Vp(634, "Ёжик", 66, at("2026-11-21 09:00"), body)
    end = '</div></div><div class="back2top"'
    html = prosilver33(vote).replace(
        end, '<dl class="attachbox"><dt>Вложения</dt><dd>скрин.png</dd></dl>' + end, 1)
    (post,) = _read(topic_page("prosilver 3.3", html)).posts
    assert "скрин" not in post.body_text
    reading = find_vote(post, ROSTER)
    assert reading is not None and reading.target == "Лиса" and not reading.valid


def test_the_title_comes_from_the_page_title_when_a_style_prints_no_heading() -> None:
    vote = Vp(635, "Ёжик", 66, at("2026-11-21 09:00"), "Привет")
    for variant, render in (("prosilver 3.3", prosilver33), ("prosilver 3.0", prosilver30),
                            ("subsilver2 3.0", subsilver2)):
        page = _read(topic_page(variant, render(vote), heading=False, title="Мафия - игра 6"))
        assert page.title == "Мафия - игра 6", variant


def test_times_stay_aware_utc() -> None:
    vote = Vp(636, "Ёжик", 66, at("2026-11-21 09:00:31"), "Привет")
    (post,) = _read(topic_page("prosilver 3.3", prosilver33(vote))).posts
    assert post.posted_at.tzinfo is UTC and post.posted_at.second == 31


def test_one_page_link_that_disagrees_with_the_others_does_not_set_the_page_size() -> None:
    shown = _posts(650, 10)
    html = topic_page("prosilver 3.3", "".join(prosilver33(p) for p in shown), page=3,
                      pages=5, total=45)
    # The link to page 2 rewritten to this page's own offset (a page that rewrote its
    # addresses): pages 4 and 5 still say 10 per page.
    html = html.replace('start=10" role="button">2<', 'start=25" role="button">2<')
    page = _read(html)
    assert (page.page, page.per_page) == (3, 10)
