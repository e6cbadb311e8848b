"""Private messages through phpBB's compose form (ucp.php?i=pm&mode=compose).

The recipient is the field ``address_list[u][ID]=to``. With the id known (from the stored
posts) it is filled in directly; without it the name goes through the form's own
«Добавить получателей» button and phpBB fills the field in.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from support.phpbb.posting_board import FLOOD_ERROR, FORM_INVALID, PostingBoard

from adapters.phpbb.posting import PhpbbPoster, PostingError

MakePoster = Callable[..., PhpbbPoster]
CHECK = "Ночь 1: проверка комиссара Полковник — [b]Тень_Ночи[/b]: Мафия.\n"


def test_a_known_user_id_goes_straight_into_the_address_field(
    board: PostingBoard, make_poster: MakePoster
) -> None:
    pm_id = make_poster().send_pm("Полковник", CHECK, "Ночь 1: результат", user_id=67)
    assert pm_id == 30                               # from «Просмотреть сообщение» / the refresh
    assert board.log == ["GET compose", "POST pm"]
    (sent,) = board.pms
    assert sent["address_list[u][67]"] == "to"
    assert (sent["subject"], sent["message"], sent["post"]) == (
        "Ночь 1: результат", CHECK, "Отправить")
    assert sent["form_token"] == board.served[0][2]
    assert sent["status_switch"] == "0"
    # «Добавить»/«username_list» would make phpBB refresh the form instead of sending.
    assert "add_to" not in sent and "username_list" not in sent
    assert board.posted_at[0] - board.served[0][1] >= 1.0
    assert board.stored_pms == [(67, CHECK)]


def test_without_an_id_the_name_is_added_by_phpbb_first(
    board: PostingBoard, make_poster: MakePoster
) -> None:
    make_poster().send_pm("Ира-Ира", "промах 1 из 2\n", "Ночь 1: результат")
    assert board.log == ["GET compose", "POST add_to", "POST pm"]
    (added,) = board.add_to
    assert (added["username_list"], added["add_to"]) == ("Ира-Ира", "Добавить")
    (sent,) = board.pms
    assert sent["address_list[u][74]"] == "to"
    assert sent["form_token"] == board.served[1][2]       # the form phpBB handed back
    assert board.posted_at[1] - board.served[1][1] >= 1.0


def test_an_unknown_name_is_reported_with_phpbbs_words(board: PostingBoard,
                                                       make_poster: MakePoster) -> None:
    with pytest.raises(PostingError, match="нет пользователя «Незнакомец»") as e:
        make_poster().send_pm("Незнакомец", "текст\n", "тема")
    assert "не существуют" in str(e.value)
    assert board.pms == []


def test_the_address_of_a_handed_back_form_is_never_kept(
    board: PostingBoard, make_poster: MakePoster
) -> None:
    # A refused form comes back with the earlier recipient in it; the PM still goes only to
    # the one it is meant for.
    board.pm_answers = [board.form_again(FORM_INVALID, kind="compose")]
    make_poster().send_pm("Полковник", CHECK, "Ночь 1: результат", user_id=67)
    assert [k for k in board.pms[1] if k.startswith("address_list")] == ["address_list[u][67]"]
    assert board.log == ["GET compose", "POST pm", "GET compose", "POST pm"]


def test_pm_flood_control_waits_and_sends_once_more(board: PostingBoard,
                                                    make_poster: MakePoster) -> None:
    board.pm_answers = [board.form_again(FLOOD_ERROR, kind="compose")]
    assert make_poster().send_pm("Лиса", "текст\n", "тема", user_id=63) == 30
    assert board.posted_at[1] - board.posted_at[0] >= 15.0
    assert len(board.stored_pms) == 1


def test_a_redirect_is_no_proof_that_a_pm_was_sent(board: PostingBoard,
                                                   make_poster: MakePoster) -> None:
    import httpx

    # phpBB 3.0 sends a too-quick submit back to the inbox without sending anything.
    board.pm_answers = [board.raw(httpx.Response(302, headers={"location": "./ucp.php?i=pm"}))]
    with pytest.raises(PostingError, match="прежде чем запускать команду") as e:
        make_poster().send_pm("Лиса", "текст\n", "тема", user_id=63)
    assert e.value.maybe_sent
