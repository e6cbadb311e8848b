"""A MyBB.ru topic page as the board prints it (support/mybbru/pages.py, written from the facts in
adapters/mybbru/README.md), read without the API: the vote post's author, id, time, number
and body for members and guests, with and without ``data-posted`` (then «Сегодня 21:42:05»,
«Вчера 12:34:56», «2026-11-20 18:00:00» in the board's zone), the edit line, the subject,
the page links, and every page it cannot read refused in words that name what is missing."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest
from support.mybbru.pages import MSK, PageStyle, info_html, page, pagelink, post_html, topic_html

from adapters.mybbru.body import normalise_body
from adapters.mybbru.topic import HtmlTopicPage, parse_topic_page
from referee.core.errors import AccessDenied, MalformedPage, TopicNotFound
from referee.core.markup import QUOTE_MARK
from referee.core.nicks import Roster
from referee.rules.day.reading import find_vote

POSTED = int(datetime(2026, 11, 21, 21, 42, 5, tzinfo=MSK).timestamp())
NOW = datetime(2026, 11, 21, 23, 0, tzinfo=MSK)
ROSTER = Roster(["Лиса", "Шерлок", "Kotik", "Nika-77", "Гроза"])
VOTE = ('<p>Мой голос – <span style="color: {c}">Лиса</span><br />Весь день уходит от '
        "ответов и путается в показаниях.</p>")


def topic(*posts: str, page_no: int = 1, pages: int = 1, first: int = 1,
          subject: str = "Мафия: партия 7") -> str:
    return page(topic_html(topic_id=317, subject=subject, posts=list(posts), page=page_no,
                           pages=pages, first=first, total=first + len(posts) - 1),
                title=f"{subject} - Мафия на Рольке")


PLAIN = PageStyle()


def block(message: str, *, number: int = 37, style: PageStyle = PLAIN,
          user_id: int = 15, username: str = "Гроза", edited: int = 0,
          edited_by: str = "", posted: int = POSTED) -> str:
    return post_html(post_id=52337, user_id=user_id, username=username, posted=posted,
                     message=message, number=number, edited=edited, edited_by=edited_by,
                     style=style)


def read(html: str, *, page_no: int = 1) -> HtmlTopicPage:
    return parse_topic_page(html, topic_id=317, page=page_no, tz=MSK, now=NOW)


@pytest.mark.parametrize("colour", ["red", "#FF0000", "#ff0000"])
def test_the_vote_post_comes_out_whole(colour: str) -> None:
    tp = read(topic(block(VOTE.format(c=colour))))
    post = tp.posts[0]
    assert (post.post_id, post.author, post.author_id) == (52337, "Гроза", 15)
    assert post.posted_at == datetime(2026, 11, 21, 18, 42, 5, tzinfo=UTC)
    assert tp.numbers == (37,) and tp.first_number == 37
    assert post.body_html == normalise_body(VOTE.format(c=colour))[0]  # no signature
    assert "Подпись" not in post.body_text and "Играю честно" not in post.body_text
    reading = find_vote(post, ROSTER)
    assert reading is not None and (reading.target, reading.has_reason) == ("Лиса", True)
    assert (tp.title, tp.page, tp.last_page) == ("Мафия: партия 7", 1, 1)


def test_a_quoted_vote_a_spoiler_code_and_hidden_text() -> None:
    message = (
        '<div class="quote-box quote-main"><cite>Nika-77 написал(а):</cite><blockquote><p>'
        'Мой голос – <span style="color: red">Kotik</span></p></blockquote></div>'
        '<div class="quote-box spoiler-box"><div onclick="$(this).toggleClass(\'visible\');">'
        'Спойлер</div><blockquote><div class="quote-box quote-main"><cite>Лиса написал(а):'
        '</cite><blockquote><p>Мой голос – <span style="color: red">Шерлок</span></p>'
        "</blockquote></div><p>Мой голос – <span style=\"color: red\">Лиса</span><br />Она "
        "весь день молчит.</p></blockquote></div>"
        '<div class="code-box"><strong class="legend">Код:</strong><div class="blockcode">'
        '<div class="scrollbox" style="height: 4.5em"><pre>Мой голос – Гроза</pre></div>'
        "</div></div>"
        '<div class="quote-box hide-box"><cite>Скрытый текст:</cite><blockquote><p>роль: '
        "мирная</p></blockquote></div>")
    post = read(topic(block(message))).posts[0]
    lines = post.body_text.split("\n")
    assert lines[0] == QUOTE_MARK + "Nika-77 написал(а):"
    assert QUOTE_MARK + "Лиса написал(а):" in lines  # the quote inside the spoiler stays one
    assert "Мой голос – Лиса" in lines and "Спойлер" not in post.body_text
    assert '<div class="codebox"><code>Мой голос – Гроза</code></div>' in post.body_html
    assert "роль: мирная" in lines and "Скрытый текст" not in post.body_text
    reading = find_vote(post, ROSTER)
    assert reading is not None and reading.target == "Лиса"  # the author's own, in the spoiler


def test_a_guest_viewer_and_a_guest_author() -> None:
    member = block(VOTE.format(c="red"), style=PageStyle(data_user_id=False,
                                                         profile_links=False))
    guest = post_html(post_id=52338, user_id=1, username="Прохожий Вася", posted=POSTED + 60,
                      message="<p>Я просто читаю.</p>", number=38)
    tp = read(topic(member, guest, first=37))
    (gr, va) = tp.posts
    # No data-user-id and no profile link: the id comes from the «ЛС» link (uid=).
    assert (gr.author, gr.author_id) == ("Гроза", 15)
    assert (va.author, va.author_id) == ("Прохожий Вася", None)
    assert tp.numbers == (37, 38)
    # A viewer shown neither: the name alone (votes are matched by name).
    bare = member.replace('<li class="pl-email pm">', '<li class="pl-none">').replace(
        "uid=15", "")
    assert read(topic(bare)).posts[0].author_id is None


def test_a_profile_link_gives_the_id_when_the_post_div_has_none() -> None:
    post = read(topic(block(VOTE.format(c="red"), style=PageStyle(data_user_id=False)))).posts[0]
    assert post.author_id == 15


@pytest.mark.parametrize(("shown", "expected"), [
    (datetime(2026, 11, 21, 21, 42, 5, tzinfo=MSK), "Сегодня 21:42:05"),
    (datetime(2026, 11, 20, 12, 34, 56, tzinfo=MSK), "Вчера 12:34:56"),
    (datetime(2026, 11, 12, 9, 5, 0, tzinfo=MSK), "2026-11-12 09:05:00"),
])
def test_a_page_without_data_posted_is_read_from_the_permalink(shown: datetime,
                                                               expected: str) -> None:
    html = topic(block(VOTE.format(c="red"), posted=int(shown.timestamp()),
                       style=PageStyle(data_posted=False, now=NOW)))
    assert f">{expected}</a>" in html
    assert read(html).posts[0].posted_at == shown.astimezone(UTC)


def test_without_data_posted_and_without_a_zone_the_post_is_refused_by_name() -> None:
    html = topic(block(VOTE.format(c="red"), style=PageStyle(data_posted=False)))
    with pytest.raises(MalformedPage, match="у сообщения 52337 нет data-posted"):
        parse_topic_page(html, topic_id=317)
    garbled = html.replace("2026-11-21 21:42:05", "когда-то давно")
    with pytest.raises(MalformedPage, match="дата «когда-то давно» не читается"):
        read(garbled)


def test_the_edit_line_names_the_editor_and_its_time() -> None:
    edited = int(datetime(2026, 11, 21, 22, 10, tzinfo=MSK).timestamp())
    html = topic(block(VOTE.format(c="red"), edited=edited, edited_by="Kotik (мафия?)",
                       style=PageStyle(now=NOW)))
    assert "Отредактировано Kotik (мафия?) (Сегодня 22:10:00)" in html
    post = read(html).posts[0]
    assert post.edit is not None and post.edit.editor == "Kotik (мафия?)"
    assert post.edit.edited_at == datetime(2026, 11, 21, 19, 10, tzinfo=UTC)
    assert "Отредактировано" not in post.body_text
    # Without the zone the editor is still known; the time is not guessed.
    bare = parse_topic_page(html, topic_id=317).posts[0]
    assert bare.edit is not None and (bare.edit.editor, bare.edit.edited_at) == (
        "Kotik (мафия?)", None)


def test_the_subject_comes_from_the_heading_not_the_window_title() -> None:
    assert read(topic(block("<p>x</p>"), subject="Мафия: партия 7 (ночь)")).title == (
        "Мафия: партия 7 (ночь)")
    bare = ('<html><head><title>Тема - Форум</title></head><body>'
            + block("<p>x</p>") + "</body></html>")
    assert read(bare).title == "Тема - Форум"


@pytest.mark.parametrize(("here", "pages"), [(1, 10), (4, 10), (6, 10), (10, 10), (2, 3)])
def test_page_links_with_gaps_give_this_page_and_the_last(here: int, pages: int) -> None:
    tp = read(topic(block("<p>x</p>", number=(here - 1) * 25 + 1), page_no=here,
                    pages=pages, first=(here - 1) * 25 + 1))
    assert (tp.page, tp.last_page) == (here, pages)


def test_page_links_without_the_current_page_in_strong() -> None:
    links = pagelink(317, 3, 12).replace("<strong>3</strong>", '<span class="current">3'
                                         "</span>")
    html = topic(block("<p>x</p>")).replace(pagelink(317, 1, 1), links)
    tp = read(html, page_no=3)
    assert (tp.page, tp.last_page) == (3, 12)
    # Only «Вперёд» and a last link by href: the last page is still seen.
    only_next = ('<div class="pagelink">Страницы <strong>5</strong> <a class="next" '
                 'href="/viewtopic.php?id=317&amp;p=6">»</a> <a href="/viewtopic.php?id=317'
                 '&amp;p=40">Последняя</a></div>')
    tp = read(topic(block("<p>x</p>")).replace(pagelink(317, 1, 1), only_next))
    assert (tp.page, tp.last_page) == (5, 40)


def test_posts_numbered_out_of_order_give_no_first_number() -> None:
    tp = read(topic(block("<p>a</p>", number=3),
                    post_html(post_id=52400, user_id=12, username="Лиса", posted=POSTED,
                              message="<p>b</p>", number=7)))
    assert tp.numbers == (3, 7) and tp.first_number is None


def test_a_page_without_posts_is_refused_in_the_boards_words() -> None:
    gone = page(info_html("Неверный запрос. Ссылка, по которой Вы пришли, неверная или "
                          "устаревшая."))
    with pytest.raises(TopicNotFound) as e:
        read(gone)
    assert "темы 317 нет на форуме" in str(e.value) and "неверная или устаревшая" in str(e.value)
    login = page(info_html("Для просмотра этой страницы нужно войти.") + (
        '<form id="login" method="post" action="/login.php?action=in"><input type="text" '
        'name="req_username"><input type="password" name="req_password"></form>'))
    with pytest.raises(AccessDenied, match="скрыта от гостей"):
        read(login)
    odd = page(info_html("Форум временно закрыт на техническое обслуживание."))
    with pytest.raises(MalformedPage) as e:
        read(odd)
    assert "нет сообщений MyBB.ru" in str(e.value)
    assert "Форум временно закрыт на техническое обслуживание." in str(e.value)


def test_a_page_of_another_topic_is_never_read_as_this_one() -> None:
    html = topic(block("<p>x</p>")).replace('data-topic-id="317"', 'data-topic-id="318"')
    with pytest.raises(MalformedPage, match="тему 318 вместо темы 317"):
        read(html)


@pytest.mark.parametrize(("cut", "named"), [
    ('<li class="pa-author">', "нет автора (.pa-author)"),
    ('id="p52337-content" class="post-content"', "нет текста (div.post-content)"),
])
def test_a_post_missing_a_part_is_refused_by_its_name(cut: str, named: str) -> None:
    html = topic(block("<p>x</p>")).replace(cut, cut.replace("pa-author", "pa-who")
                                            .replace("content", "text"))
    with pytest.raises(MalformedPage, match=re.escape(named)):
        read(html)


def test_other_div_post_blocks_are_not_posts() -> None:
    extra = ('<div id="post-preview" class="post"><div class="post-content"><p>черновик</p>'
             '</div></div><div id="p" class="post"></div>')
    tp = read(topic(block("<p>x</p>") + extra))
    assert [p.post_id for p in tp.posts] == [52337]


def test_a_character_the_page_charset_lacks_comes_as_an_entity() -> None:
    # windows-1251 has no emoji: the board writes &#128077; and the reader gets the character.
    post = read(topic(block("<p>Согласна &#128077; &laquo;голос&raquo;</p>"))).posts[0]
    assert post.body_text == "Согласна \U0001F44D «голос»"
