"""Within one PM (docs/rules.md N1, N5, N14): a correction later in the same message, the
executor as the subject, a condition anywhere, particles and pauses. Each row: the PM → what
stands or what the host is asked; a correction inside one PM is the request as the player
finally wrote it (no N1 change), another bare nick after a request is asked."""

from __future__ import annotations

import pytest
from intake_helpers import read, show

IN_ONE_PM = [
    ("commissar", "Полковник", "Проверяю Kotik. Нет, лучше Лиса.", "check Лиса"),
    ("commissar", "Полковник", "Проверяю Kotik. Вернее, Гроза", "check Гроза"),
    ("commissar", "Полковник", "Проверяю Kotik, то есть Снежок", "check Снежок"),
    ("commissar", "Полковник", "Проверяю Kotik. Ой, не так — Мотылёк", "check Мотылёк"),
    ("commissar", "Полковник", "Проверяю Kotik. Лиса.", "unreadable: doubt"),
    ("commissar", "Полковник", "Проверяю Kotik.\nKotik", "check Kotik"),
    ("doctor", "Доктор Ватсон", "Лечу Снежок. Хотя нет, Гроза", "heal Гроза"),
    ("doctor", "Доктор Ватсон", "Лечу Kotik... точнее Лису", "heal Лиса"),
    ("priest", "Мисс Марпл", "Забираю Kotik. Вместо Kotik — Снежок", "take Снежок"),
    ("mafia", "Лиса", "Стреляем в Kotik. Нет, в Гроза", "shoot Гроза by Лиса"),
    ("mafia", "Лиса", "Mr. Smith убивает Kotik", "shoot Kotik by Mr. Smith"),
    ("mafia", "Лиса", "Тень_Ночи мочит Снежок", "shoot Снежок by Тень_Ночи"),
    ("mafia", "Лиса", "Цель: Гроза. Стреляю сама.", "shoot Гроза by Лиса"),
    ("mafia", "Лиса", "Стреляем в Kotik, исполнитель Тень_Ночи. Если её заберут — стреляет "
     "Mr. Smith", "unreadable: doubt"),
    ("mafia", "Лиса", "Стреляем в Kotik. Если что, пиши", "shoot Kotik by Лиса"),
    ("commissar", "Полковник", "Проверяю Kotik. Если Лиса ночью умрёт — тогда Гроза",
     "unreadable: doubt"),
    ("commissar", "Полковник", "Пробью-ка Kotik", "check Kotik"),
    ("doctor", "Доктор Ватсон", "Вылечу-ка Снежок", "heal Снежок"),
    ("priest", "Мисс Марпл", "Забираю... ммм... Гроза", "take Гроза"),
    ("commissar", "Полковник", "Моя проверка на сегодняшнюю ночь — Kotik", "check Kotik"),
    ("doctor", "Доктор Ватсон", "Лечение для Мисс Марпл", "heal Мисс Марпл"),
    ("kamikaze", "Kotik", "Бабах! Цель — Гроза", "blow Гроза"),
    ("ninja", "Ира-Ира", "Иду за Kotik", "kill Kotik"),
    ("ninja", "Ира-Ира", "Ниндзя идёт за Лисой", "kill Лиса"),
    ("maniac", "Гроза", "Засада. Хотя нет, убиваю Kotik", "kill Kotik"),
    ("maniac", "Гроза", "Убиваю Kotik. Хотя нет, засада", "ambush"),
    ("commissar", "Полковник", "Проверяю Kotik. Хотя нет, проверяю Лиса", "check Лиса"),
    ("doctor", "Доктор Ватсон", "Лечу Kotik. Ой, не того, лечу Снежок", "heal Снежок"),
]


@pytest.mark.parametrize(("role", "sender", "text", "expected"), IN_ONE_PM)
def test_one_pm_read_as_the_player_finally_wrote_it_N1_N5_N14(
    role: str, sender: str, text: str, expected: str
) -> None:
    assert show(read(text, role, sender)) == expected


TOLD_NOT_ASKED = [
    ("commissar", "Полковник", "Вчера проверил Kotik, он чист", "unreadable: no_action"),
    ("doctor", "Доктор Ватсон", "Прошлой ночью вылечила Лису", "unreadable: no_action"),
    ("commissar", "Полковник", "Вчера проверил Kotik. Сегодня проверяю Лиса", "check Лиса"),
    ("mafia", "Лиса", "Мы стреляли в Гроза, а он живой. Стреляем в Kotik",
     "shoot Kotik by Лиса"),
]


@pytest.mark.parametrize(("role", "sender", "text", "expected"), TOLD_NOT_ASKED)
def test_the_past_tense_tells_it_asks_for_nothing_N14(
    role: str, sender: str, text: str, expected: str
) -> None:
    assert show(read(text, role, sender)) == expected
