"""Doubts are asked, never guessed (docs/rules.md N14, issue 25): hesitation, alternatives,
conditions, «бы», questions, negation, chat that names players. Each row: the PM → what the
host is asked («unreadable: doubt» is «ведущему проверить» with the PM quoted and the
reason) or, where the doubt is only in a reason after the nick, what stands.

Also the property that a reading never picks a player the PM does not name."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from intake_helpers import PLAYERS, read, show

DOUBTS = [
    ("commissar", "Полковник", "Хм, проверю Kotik, наверно", "unreadable: doubt"),
    ("commissar", "Полковник", "Возможно, проверю Лису", "unreadable: doubt"),
    ("commissar", "Полковник", "Склоняюсь проверить Гроза", "unreadable: doubt"),
    ("commissar", "Полковник", "Хз, проверю Kotik", "unreadable: doubt"),
    ("commissar", "Полковник", "Проверка Kotik? Или Лиса?", "unreadable: doubt"),
    ("commissar", "Полковник", "Проверяю Kotik либо Снежок", "unreadable: two_targets"),
    ("commissar", "Полковник", "Проверяю Kotik, но может и Снежок", "unreadable: doubt"),
    ("commissar", "Полковник", "Проверю Kotik, если не будет новостей", "unreadable: doubt"),
    ("commissar", "Полковник", "Проверил бы Лису", "unreadable: doubt"),
    ("commissar", "Полковник", "Может проверить Kotik, как думаешь?", "unreadable: doubt"),
    ("commissar", "Полковник", "Пока не решил, проверю Kotik позже", "unreadable: doubt"),
    ("commissar", "Полковник", "Проверяю Kotik, он вроде странный", "check Kotik"),
    ("commissar", "Полковник", "Проверяю Kotik — весь день молчал", "check Kotik"),
    ("commissar", "Полковник", "Проверяю Kotik, думаю, он мафия", "check Kotik"),
    ("commissar", "Полковник", "Проверяю Kotik, потом расскажу почему", "check Kotik"),
    ("doctor", "Доктор Ватсон", "Лечу Kotik, может быть", "unreadable: doubt"),
    ("commissar", "Полковник", "Лиса вчера врала, Kotik тоже темнит",
     "unreadable: no_action"),
    ("commissar", "Полковник", "Не стану проверять Kotik", "unreadable: negated"),
    ("doctor", "Доктор Ватсон", "Лечу Kotik, возможно", "unreadable: doubt"),
    ("doctor", "Доктор Ватсон", "Вылечил бы Лису", "unreadable: doubt"),
    ("doctor", "Доктор Ватсон", "Лечу Kotik или себя", "unreadable: doubt"),
    ("doctor", "Доктор Ватсон", "Лечу Kotik, мафия его скорее всего тронет",
     "heal Kotik"),
    ("doctor", "Доктор Ватсон", "Не знаю, лечить ли Kotik", "unreadable: doubt"),
    ("doctor", "Доктор Ватсон", "Лечу Kotik. Хотя нет, лечу Лиса", "heal Лиса"),
    ("mafia", "Лиса", "Стреляем в Kotik, если Тень_Ночи согласна", "unreadable: doubt"),
    ("mafia", "Лиса", "Может, валим Гроза", "unreadable: doubt"),
    ("mafia", "Лиса", "Убиваем Kotik или Снежок, решайте", "unreadable: two_targets"),
    ("mafia", "Лиса", "Стреляли бы в Kotik", "unreadable: doubt"),
    ("mafia", "Лиса", "Стреляем в Kotik?", "unreadable: doubt"),
    ("maniac", "Гроза", "Может быть засада", "unreadable: doubt"),
    ("maniac", "Гроза", "Засада или убью Kotik", "unreadable: doubt"),
    ("maniac", "Гроза", "Убиваю Kotik, если не засада", "unreadable: doubt"),
    ("thug", "Шерлок", "Бью Kotik, хотя можно и Лису", "unreadable: doubt"),
    ("thug", "Шерлок", "Побил бы Снежок", "unreadable: doubt"),
    ("priest", "Мисс Марпл", "Возможно заберу Kotik", "unreadable: doubt"),
    ("priest", "Мисс Марпл", "Забираю Kotik или Гроза", "unreadable: two_targets"),
    ("kamikaze", "Kotik", "Взорву Лису, если она не уйдёт", "unreadable: doubt"),
    ("kamikaze", "Kotik", "Думаю подорвать Гроза", "unreadable: doubt"),
    ("ninja", "Ира-Ира", "Убью Kotik, наверное", "unreadable: doubt"),
    ("ninja", "Ира-Ира", "Убил бы Лису", "unreadable: doubt"),
    ("necromancer", "Ёжик", "Защищаю Kotik и Лису? не уверен", "unreadable: doubt"),
    ("citizen", "Снежок", "Kotik мафия, проверь его!", "unreadable: chatty"),
]


@pytest.mark.parametrize(("role", "sender", "text", "expected"), DOUBTS)
def test_doubts_are_asked_never_guessed_N14(
    role: str, sender: str, text: str, expected: str
) -> None:
    assert show(read(text, role, sender)) == expected


def test_the_question_quotes_the_pm_and_says_why_N14() -> None:
    (item,) = read("Может, проверю Kotik", "commissar").unreadable
    assert item.reason.startswith("ведущему проверить: ")
    assert "сомнение («Может»)" in item.reason
    assert item.excerpt == "Может, проверю Kotik"


ROLES = ["commissar", "doctor", "mafia", "maniac", "ninja", "thug", "priest", "kamikaze",
         "necromancer", "sergeant", "citizen"]
WORDS = ["проверяю", "лечу", "стреляем", "исполнитель", "засада", "бью", "забираю",
         "взрываю", "защищаю", "меняю", "на", "и", "или", "отменяю", "может", "себя", "я",
         "цель", "в", "к", "Пуаро", "вчера", "мафия", "кот", "если", "бы", "не", ",", ".",
         "?", "—", "\n", "передумал", "лучше", "вместо", "исп.", "стреляет", "пас"]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(ROLES), st.sampled_from(PLAYERS),
       st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(PLAYERS)), max_size=9))
def test_a_reading_never_picks_a_player_the_pm_does_not_name_N14(
    role: str, sender: str, parts: list[str]
) -> None:
    text = " ".join(parts)
    named = {p for p in PLAYERS if p in parts} | {sender}
    result = read(text, role, sender)
    for r in result.requests:
        assert set(r.all_targets()) <= named, (text, r)
        assert r.executor is None or r.executor in named, (text, r)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(ROLES), st.sampled_from(PLAYERS),
       st.lists(st.one_of(st.sampled_from(WORDS), st.sampled_from(PLAYERS)), min_size=1,
                max_size=9))
def test_a_pm_is_never_silently_dropped_N14(role: str, sender: str, parts: list[str]) -> None:
    """Every PM gives a request, a take-back or a listed reason — never nothing."""
    result = read(" ".join(parts), role, sender)
    assert result.requests or result.unreadable or result.withdrawals
