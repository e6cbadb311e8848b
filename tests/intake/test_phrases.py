"""Night requests as players write them, one table per role (docs/rules.md N1–N14).

Each row: what the player wrote, the sender's role, and what the host should read.
«by X» is the mafia executor (N5); «unreadable: …» means the PM is listed for the host
with its reason instead of being guessed (N14)."""

from __future__ import annotations

import pytest
from intake_helpers import read, show

COMMISSAR = [
    ("Проверяю Kotik", "check Kotik"),
    ("Проверка: Kotik", "check Kotik"),
    ("Проверь Лиса, пожалуйста", "check Лиса"),
    ("проверяю, пожалуй, Kotik", "check Kotik"),
    ("Проверка:\nТень_Ночи", "check Тень_Ночи"),
    ("Проверяю «Мисс Марпл».", "check Мисс Марпл"),
    ("Проверяю Доктор Ватсон", "check Доктор Ватсон"),
    ("проверяю mr. smith", "check Mr. Smith"),
    ("Проверяю Cнежок", "check Снежок"),  # Latin C, as phpBB users type it
    ("Проверяю Лису", "check Лиса"),  # accusative: read, flagged
    ("Проверяю Пуаро", "unreadable: unknown_nick"),
    ("Проверяю Kotik или Лиса", "unreadable: two_targets"),
    ("Проверяю", "unreadable: no_target"),
    ("Не проверяю никого", "unreadable: negated"),
    ("Бью Kotik", "unreadable: not_allowed"),
    ("Сегодня пропускаю ход", "unreadable: skip"),
    ("Привет, как дела?", "unreadable: no_action"),
]

DOCTOR = [
    ("Лечу Nika-77 — она весь день писала, мафия может её убрать.", "heal Nika-77"),
    ("Лечение: Снежок", "heal Снежок"),
    ("Лечу себя", "heal Доктор Ватсон"),  # read as asked; the engine rejects self-heal (N8)
    ("Лечу Мотылька", "heal Мотылёк"),  # genitive with the fleeting ё: read, flagged
    ("Лечу Мотю", "unreadable: unknown_nick"),  # too far from «Мотылёк»: not guessed
]

MAFIA = [
    ("Стреляем в Мисс Марпл, исполнитель Тень_Ночи.", "shoot Мисс Марпл by Тень_Ночи"),
    ("Убиваем Kotik, стреляет Mr. Smith", "shoot Kotik by Mr. Smith"),
    ("Выстрел в Гроза", "shoot Гроза by Лиса"),  # no executor named: the sender shoots (N5)
    ("Цель: Kotik, исполнитель Тень_Ночи", "shoot Kotik by Тень_Ночи"),
    ("Стреляем в Kotik\nИсполнитель: Тень_Ночи", "shoot Kotik by Тень_Ночи"),
    ("Стреляем в Kotik, исполнитель — я", "shoot Kotik by Лиса"),
    ("Стреляем в Kotik, Тень_Ночи стреляет", "shoot Kotik by Тень_Ночи"),
    ("Стреляем в Kotik, исполнитель Пуаро", "unreadable: unknown_nick"),
    ("Стреляем в Kotik, исполнитель Тень_Ночи или Mr. Smith", "unreadable: two_targets"),
    ("Засада", "unreadable: not_allowed"),
]

MANIAC = [
    ("Засада.", "ambush"),
    ("Сижу в засаде", "ambush"),
    ("Убиваю Nika-77", "kill Nika-77"),
    ("Стреляю в Kotik", "kill Kotik"),
]

OTHERS = [
    ("Убиваю Nika-77", "ninja", "Ира-Ира", "kill Nika-77"),
    ("Бью Тень_Ночи", "thug", "Шерлок", "beat Тень_Ночи"),
    ("Избиваю Kotik", "thug", "Шерлок", "beat Kotik"),
    ("Забираю к себе Снежок", "priest", "Мисс Марпл", "take Снежок"),
    ("Забираю Kotik", "priest", "Мисс Марпл", "take Kotik"),
    ("Забираю на беседу Полковника", "priest", "Мисс Марпл", "take Полковник"),
    ("Цель — Kotik", "ninja", "Ира-Ира", "kill Kotik"),
    ("Моя цель — выжить", "ninja", "Ира-Ира", "unreadable: no_action"),
    ("Взрываю Тень_Ночт", "kamikaze", "Kotik", "blow Тень_Ночи"),
    ("Подрываю Лиса", "kamikaze", "Kotik", "blow Лиса"),
    ("Убиваю Лиса", "kamikaze", "Kotik", "unreadable: not_allowed"),
    ("Взрываю себя и Лиса", "kamikaze", "Kotik", "blow Лиса"),
    ("Подрываюсь вместе с Лиса", "kamikaze", "Kotik", "blow Лиса"),
    ("Защищаю Kotik и Ира-Ира", "necromancer", "Ёжик", "protect Kotik + Ира-Ира"),
    ("Воскрешаю Снежок, Гроза", "necromancer", "Ёжик", "protect Снежок + Гроза"),
    ("Защищаю Kotik, он хороший", "necromancer", "Ёжик", "protect Kotik"),
    ("Защищаю Kotik и Пуаро", "necromancer", "Ёжик", "unreadable: unknown_nick"),
    ("Проверяю Kotik", "sergeant", "Мотылёк", "check Kotik"),
    ("Проверяю Kotik", "citizen", "Снежок", "unreadable: not_allowed"),
    ("Как думаешь, Лиса правда мафия?", "citizen", "Снежок", "unreadable: chatty"),
    ("Проверяю Kotik", None, "Пуаро", "unreadable: non_player"),
]

CHANGES = [
    ("Меняю проверку на Тень_Ночи. Kotik слишком очевиден", "commissar", "Полковник",
     "check Тень_Ночи"),
    ("Меняю Kotik на Лиса", "commissar", "Полковник", "check Лиса"),
    ("Меняю цель на Лиса", "commissar", "Полковник", "check Лиса"),
    ("Исправление: проверяю Гроза", "commissar", "Полковник", "check Гроза"),
    ("Меняю лечение на Снежок", "doctor", "Доктор Ватсон", "heal Снежок"),
    ("Меняю выстрел на Kotik, исполнитель Mr. Smith", "mafia", "Лиса",
     "shoot Kotik by Mr. Smith"),
    ("Меняю засаду на выстрел в Kotik", "maniac", "Гроза", "kill Kotik"),
    ("Меняю на засаду", "maniac", "Гроза", "ambush"),
    ("Меняю проверку на Kotik", "doctor", "Доктор Ватсон", "unreadable: not_allowed"),
    ("Исправление!", "commissar", "Полковник", "unreadable: no_target"),
]


@pytest.mark.parametrize(("text", "expected"), COMMISSAR)
def test_commissar_check_N12(text: str, expected: str) -> None:
    assert show(read(text, "commissar")) == expected


@pytest.mark.parametrize(("text", "expected"), DOCTOR)
def test_doctor_heal_N8(text: str, expected: str) -> None:
    assert show(read(text, "doctor", "Доктор Ватсон")) == expected


@pytest.mark.parametrize(("text", "expected"), MAFIA)
def test_mafia_shot_and_executor_N5(text: str, expected: str) -> None:
    assert show(read(text, "mafia", "Лиса")) == expected


@pytest.mark.parametrize(("text", "expected"), MANIAC)
def test_maniac_kill_or_ambush_N6(text: str, expected: str) -> None:
    assert show(read(text, "maniac", "Гроза")) == expected


@pytest.mark.parametrize(("text", "role", "sender", "expected"), OTHERS)
def test_other_roles_N3_N4_N7_N9_N10(
    text: str, role: str | None, sender: str, expected: str
) -> None:
    assert show(read(text, role, sender)) == expected


@pytest.mark.parametrize(("text", "role", "sender", "expected"), CHANGES)
def test_change_of_request_N1(text: str, role: str, sender: str, expected: str) -> None:
    assert show(read(text, role, sender)) == expected
