"""How the intake reads the harder cases: flags, notes, quotes, several requests in one PM,
and names that look like action words (docs/rules.md V2, N1, N5, N12, N14)."""

from __future__ import annotations

import pytest
from intake_helpers import ROSTER, pm, read, show

from referee.core.markup import QUOTE_MARK
from referee.core.nicks import Roster
from referee.rules.intake import read_requests


def test_near_match_is_counted_and_flagged_V2() -> None:
    result = read("Взрываю Тень_Ночт", "kamikaze", "Kotik")
    (flag,) = result.flags
    assert (flag.typed, flag.nick, flag.kind) == ("Тень_Ночт", "Тень_Ночи", "near")
    assert flag.note in result.requests[0].note


def test_case_ending_is_counted_and_flagged() -> None:
    result = read("Проверяю Лису", "commissar")
    assert show(result) == "check Лиса"
    assert [(f.typed, f.nick, f.kind) for f in result.flags] == [("Лису", "Лиса", "inflected")]


@pytest.mark.parametrize("typed", ["Kotik", "KOTIK", "Cнежок", "ежик", "мисс  марпл"])
def test_exact_and_look_alike_nicks_are_not_flagged_V2(typed: str) -> None:
    result = read(f"Проверяю {typed}", "commissar")
    assert len(result.requests) == 1 and result.flags == ()


def test_ambiguous_name_is_not_guessed_N14() -> None:
    roster = Roster(["Катя-1", "Катя-2", "Полковник"])
    result = read_requests(pm("Проверяю Катя-3"), "commissar", roster, order=1)
    (item,) = result.unreadable
    assert item.kind == "ambiguous_nick"
    assert "Катя-1" in item.reason and "Катя-2" in item.reason
    assert result.requests == ()


def test_unknown_name_says_what_was_typed_N14() -> None:
    (item,) = read("Проверяю Пуаро", "commissar").unreadable
    assert "«Пуаро» — нет такого игрока" in item.reason
    assert item.excerpt == "Проверяю Пуаро"


def test_quoted_lines_are_ignored() -> None:
    text = f"{QUOTE_MARK}Проверяю Kotik\nПроверяю Лиса"
    assert show(read(text, "commissar")) == "check Лиса"


def test_a_reply_that_only_quotes_is_empty() -> None:
    assert show(read(f"{QUOTE_MARK}Проверяю Kotik", "commissar")) == "unreadable: empty"


def test_several_requests_in_one_pm_keep_their_order_N1() -> None:
    result = read_requests(
        pm("Проверяю Kotik.\nНет, меняю на Лиса"), "commissar", ROSTER, order=7
    )
    assert [(r.target, r.order) for r in result.requests] == [("Kotik", 7), ("Лиса", 8)]
    assert "исправление" in result.requests[1].note


def test_another_roles_verb_inside_chat_is_not_a_request() -> None:
    text = "Лечу Kotik, мафия может его убить"
    assert show(read(text, "doctor", "Доктор Ватсон")) == "heal Kotik"


def test_another_roles_verb_opening_a_sentence_is_listed_N14() -> None:
    text = "Лечу Kotik. Убиваю Лиса"
    assert show(read(text, "doctor", "Доктор Ватсон")) == "heal Kotik / unreadable: not_allowed"


def test_a_nick_that_looks_like_an_action_word_is_a_nick() -> None:
    roster = Roster(["Засада", "Проверка", "Гроза"])
    result = read_requests(pm("Проверяю Засада", "Гроза"), "commissar", roster, order=1)
    assert show(result) == "check Засада"


def test_nick_in_subject_with_verb_in_body_and_verb_in_subject() -> None:
    assert show(read("Kotik", "commissar", subject="Проверка")) == "check Kotik"
    # A commissar's PM of one nick is his check, as a host reads it: counted, flagged.
    bare = read("Kotik", "commissar", subject="Ход комиссара")
    assert show(bare) == "check Kotik"
    assert [f.kind for f in bare.flags] == ["bare"]


def test_sergeant_check_is_passed_on_with_a_note_N12() -> None:
    (req,) = read("Проверяю Kotik", "sergeant", "Мотылёк").requests
    assert req.action == "check" and "N12" in req.note


def test_request_carries_pm_time_and_id() -> None:
    result = read_requests(pm("Бью Kotik", "Шерлок", pm_id=42), "thug", ROSTER, order=3)
    (req,) = result.requests
    assert (req.source, req.source_id, req.order, req.actor) == ("pm", "42", 3, "Шерлок")
    assert req.sent_at is not None


def test_executor_change_keeps_the_target_N5() -> None:
    first = read_requests(pm("Стреляем в Kotik", "Лиса"), "mafia", ROSTER, order=1)
    later = read_requests(
        pm("Исполнитель — Mr. Smith", "Лиса", pm_id=2), "mafia", ROSTER, order=2,
        earlier=first.requests,
    )
    assert show(later) == "shoot Kotik by Mr. Smith"


def test_changed_shot_keeps_the_earlier_executor_N1_N5() -> None:
    first = read_requests(
        pm("Стреляем в Kotik, исполнитель Тень_Ночи", "Лиса"), "mafia", ROSTER, order=1
    )
    later = read_requests(
        pm("Меняю выстрел на Гроза", "Лиса", pm_id=2), "mafia", ROSTER, order=2,
        earlier=first.requests,
    )
    assert show(later) == "shoot Гроза by Тень_Ночи"


def test_change_without_noun_keeps_the_earlier_action_N1() -> None:
    first = read_requests(pm("Убиваю Kotik", "Гроза"), "maniac", ROSTER, order=1)
    later = read_requests(
        pm("Меняю Kotik на Лиса", "Гроза", pm_id=2), "maniac", ROSTER, order=2,
        earlier=first.requests,
    )
    assert show(later) == "kill Лиса"
    assert "было: Kotik" in later.requests[0].note


def test_a_nick_that_injects_bbcode_is_only_text() -> None:
    roster = Roster(["[/color][url=x]", "Полковник"])
    result = read_requests(pm("Проверяю [/color][url=x]"), "commissar", roster, order=1)
    assert show(result) == "check [/color][url=x]"
