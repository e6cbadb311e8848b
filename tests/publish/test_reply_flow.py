"""The reply form of the game topic, posted like a browser would (phpBB posting.php).

Each test is one situation the host may meet on a real board: a normal reply, an expired
token, new posts in the topic while the form was open, flood control, a lost session, a
locked topic, an answer referee does not understand.
"""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest
from support.clock import FakeTime
from support.phpbb.posting_board import (
    FLOOD_ERROR,
    FORM_INVALID,
    PASSWORD,
    TOPIC_LOCKED,
    PostingBoard,
    html_response,
    page,
)

from adapters.phpbb.posting import FLOOD_WAIT, PhpbbPoster, PostingError
from referee.core.errors import LoginRequired

MakePoster = Callable[..., PhpbbPoster]
COUNT = "[b]Итоги дня 1[/b]\n[b]Mr. Smith — 6[/b]: Лиса, Kotik\n"


def test_reply_posts_every_field_of_the_form_a_second_after_it_was_served(
    board: PostingBoard, make_poster: MakePoster
) -> None:
    post_id = make_poster().reply(COUNT)
    assert post_id == 147                                   # from the 302 to viewtopic.php?p=147
    assert board.log == ["GET reply", "POST reply"]
    (sent,) = board.replies
    _, served_at, token = board.served[0]
    assert sent["message"] == COUNT
    assert sent["subject"] == "Re: Мафия: игра 2"           # kept as phpBB prefilled it
    assert sent["post"] == "Отправить"                      # the submit button phpBB checks
    assert sent["form_token"] == token
    assert sent["creation_time"] == "1795971701"
    assert sent["topic_cur_post_id"] == "145"
    assert (sent["icon"], sent["attach_sig"], sent["show_panel"]) == ("0", "on", "options-panel")
    # Gotcha 11: never in the second the form was made.
    assert board.posted_at[0] - served_at >= 1.0


def test_a_form_with_lastclick_is_posted_two_seconds_later(
    board: PostingBoard, make_poster: MakePoster
) -> None:
    # phpBB 3.0 forms carry «lastclick»; a submit within 2 s of it is dropped as a double click.
    board.reply_form_page = page("posting_reply_form.html").replace(
        '<input type="hidden" name="show_panel"',
        '<input type="hidden" name="lastclick" value="1795971649" />\n'
        '<input type="hidden" name="show_panel"', 1)
    make_poster().reply(COUNT)
    assert board.replies[0]["lastclick"] == "1795971649"
    assert board.posted_at[0] - board.served[0][1] >= 2.0


def test_an_expired_token_gets_one_fresh_form(board: PostingBoard, make_poster: MakePoster
                                              ) -> None:
    board.reply_answers = [board.form_again(FORM_INVALID)]
    assert make_poster().reply(COUNT) == 147
    assert board.log == ["GET reply", "POST reply", "GET reply", "POST reply"]
    first, second = board.replies
    assert first["form_token"] != second["form_token"]
    assert second["form_token"] == board.served[-1][2]        # the fresh form's token


def test_a_token_refused_twice_is_a_clear_error_and_nothing_is_stored(
    board: PostingBoard, make_poster: MakePoster
) -> None:
    board.reply_answers = [board.form_again(FORM_INVALID), board.form_again(FORM_INVALID)]
    with pytest.raises(PostingError, match="дважды отклонил ответ в теме t=3") as e:
        make_poster().reply(COUNT)
    assert not e.value.maybe_sent
    assert board.log.count("POST reply") == 2 and board.stored_replies == []


def test_new_posts_while_the_form_was_open_resubmit_the_same_text_once(
    board: PostingBoard, make_poster: MakePoster
) -> None:
    # phpBB hands the form back with «Было добавлено по крайней мере одно сообщение…» and
    # fresh tokens; the count was made from the synced posts and confirmed as it is.
    board.reply_answers = [board.new_posts_review()]
    assert make_poster().reply(COUNT) == 147
    assert board.log == ["GET reply", "POST reply", "POST reply"]
    first, second = board.replies
    assert second["message"] == first["message"] == COUNT
    assert second["topic_cur_post_id"] == "146"               # the review form's newest post
    assert second["form_token"] == board.served[-1][2]
    assert board.posted_at[1] - board.served[-1][1] >= 1.0


def test_new_posts_twice_in_a_row_stop_with_a_message(board: PostingBoard,
                                                      make_poster: MakePoster) -> None:
    board.reply_answers = [board.new_posts_review(), board.new_posts_review()]
    with pytest.raises(PostingError, match="всё время приходят новые сообщения"):
        make_poster().reply(COUNT)
    assert board.stored_replies == []


def test_a_form_that_points_at_another_topic_is_never_posted(
    board: PostingBoard, make_poster: MakePoster
) -> None:
    board.reply_answers = [board.new_posts_review(topic=1)]
    with pytest.raises(PostingError, match="ведёт в тему t=1, а не в тему игры t=3"):
        make_poster().reply(COUNT)
    assert board.log.count("POST reply") == 1


def test_flood_control_waits_the_interval_and_tries_once_more(
    board: PostingBoard, make_poster: MakePoster, clock: FakeTime
) -> None:
    board.reply_answers = [board.form_again(FLOOD_ERROR)]
    assert make_poster().reply(COUNT) == 147
    assert board.log == ["GET reply", "POST reply", "POST reply"]
    assert board.posted_at[1] - board.posted_at[0] >= 15.0    # phpBB's flood_interval
    assert FLOOD_WAIT in clock.sleeps


def test_flood_control_twice_stops_and_says_the_rerun_is_safe(
    board: PostingBoard, make_poster: MakePoster
) -> None:
    board.reply_answers = [board.form_again(FLOOD_ERROR), board.form_again(FLOOD_ERROR)]
    with pytest.raises(PostingError) as e:
        make_poster().reply(COUNT)
    text = str(e.value)
    assert "защита форума от флуда" in text and "сразу после предыдущего" in text
    assert "второй раз не уйдёт" in text
    assert board.stored_replies == []


def test_after_flood_control_the_next_message_keeps_the_distance(
    board: PostingBoard, make_poster: MakePoster
) -> None:
    poster = make_poster()
    board.reply_answers = [board.form_again(FLOOD_ERROR)]
    poster.reply(COUNT)
    poster.reply("второе сообщение\n")
    stored_first, second_post = board.posted_at[1], board.posted_at[2]
    assert second_post - stored_first >= 15.0
    assert board.log.count("POST reply") == 3                  # no second flood refusal


def test_a_guest_gets_the_login_form_then_the_reply_is_posted_as_the_host(
    board: PostingBoard, make_poster: MakePoster
) -> None:
    post_id = make_poster(logged_in=False).reply(COUNT)
    assert post_id == 147
    assert board.log == ["GET reply", "POST login", "GET reply", "POST reply"]
    assert board.login_posts[0]["password"] == PASSWORD
    assert PASSWORD not in str(board.replies)


def test_a_form_served_to_a_guest_is_not_used(board: PostingBoard,
                                              make_poster: MakePoster) -> None:
    # Boards that let guests reply serve the form without a login: log in first.
    board.guest_forms = True
    make_poster(logged_in=False).reply(COUNT)
    assert board.log == ["GET reply", "GET login", "POST login", "GET reply", "POST reply"]


def test_a_session_lost_before_the_post_logs_in_and_posts_a_fresh_form(
    board: PostingBoard, make_poster: MakePoster
) -> None:
    board.reply_answers = [board.raw(lambda: board._guest_login())]
    assert make_poster().reply(COUNT) == 147
    assert board.log == ["GET reply", "POST reply", "POST login", "GET reply", "POST reply"]


def test_a_locked_topic_is_reported_in_phpbbs_words(board: PostingBoard,
                                                    make_poster: MakePoster) -> None:
    board.reply_answers = [board.panel(TOPIC_LOCKED)]
    with pytest.raises(PostingError, match="Эта тема закрыта") as e:
        make_poster().reply(COUNT)
    assert not e.value.maybe_sent


def test_the_topic_page_after_the_post_gives_its_id(board: PostingBoard,
                                                    make_poster: MakePoster) -> None:
    # What a browser lands on after the redirect: the topic with the host's new post 146
    # (newer than post 145, the topic's last when the form was made).
    board.reply_answers = [board.raw(html_response(page("posting_reply_success.html")))]
    assert make_poster().reply(COUNT) == 146


@pytest.mark.parametrize(
    ("answer", "why"),
    [
        (lambda: httpx.Response(302, headers={"location": "./viewtopic.php?f=2&t=3"}),
         "a redirect without the new post (phpBB's cancel goes there too)"),
        (lambda: html_response(page("topic_p4_host.html")),
         "a topic page with no post newer than the form"),
        (lambda: httpx.Response(500), "HTTP 500"),
    ],
    ids=["redirect without p", "old topic page", "server error"],
)
def test_an_answer_that_proves_nothing_says_look_before_rerunning(
    board: PostingBoard, make_poster: MakePoster, answer: Callable[[], httpx.Response],
    why: str,
) -> None:
    board.reply_answers = [board.raw(answer)]
    with pytest.raises(PostingError, match="прежде чем запускать команду") as e:
        make_poster().reply(COUNT)
    assert e.value.maybe_sent, why
    assert board.log.count("POST reply") == 1                 # never posted blindly again


def test_a_connection_broken_during_the_post_is_not_retried(
    board: PostingBoard, make_poster: MakePoster
) -> None:
    def broken(form: dict[str, str]) -> httpx.Response:
        raise httpx.ReadTimeout("timed out")

    board.reply_answers = [broken]
    with pytest.raises(PostingError, match="связь оборвалась") as e:
        make_poster().reply(COUNT)
    assert e.value.maybe_sent
    assert board.log.count("POST reply") == 1


def test_a_refused_connection_never_reached_the_forum(
    board: PostingBoard, make_poster: MakePoster
) -> None:
    def refused(form: dict[str, str]) -> httpx.Response:
        raise httpx.ConnectError("refused")

    board.reply_answers = [refused, refused, refused, refused, refused]
    with pytest.raises(PostingError):
        make_poster().reply(COUNT)
    assert board.stored_replies == []


def test_no_topic_in_the_url_is_a_config_message(clock: FakeTime, board: PostingBoard) -> None:
    from support.phpbb.posting_board import forum_config, make_poster_for

    poster = make_poster_for(forum_config(url="https://forum.test/index.php"), clock)
    with pytest.raises(Exception, match="нет номера темы"):
        poster.reply(COUNT)


def test_login_required_message_when_even_the_login_does_not_help(
    board: PostingBoard, make_poster: MakePoster
) -> None:
    board.guest_forms = True
    poster = make_poster(logged_in=False)
    # The board keeps serving the guest form: the login «worked» but the page disagrees.
    board.reply_form_page = board.reply_form_page.replace('id="username_logged_in"', 'id="x"')
    board.reply_form_page = board.reply_form_page.replace("mode=logout", "mode=nologout")
    with pytest.raises(LoginRequired, match="гостю .* сразу после входа"):
        poster.reply(COUNT)
    assert board.replies == []
