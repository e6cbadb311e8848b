"""Night PMs as players write them, one scenario table per role (docs/rules.md N1–N14, issue 25).

Each row: what the player wrote → what stands, or what the host is asked. Written from how
forum players write (first and third person, the clan's plural, imperative, future, slang
and gaming jargon, a noun or a role name without a verb, a nick in another case), not from
the fixtures. «by X» is the mafia executor (N5); «unreadable: doubt» is «ведущему
проверить» with the reason; any «unreadable: …» is listed for the host, never guessed (N14).
"""

from __future__ import annotations

import pytest
from intake_helpers import read, show

COMMISSAR = [
    ("Проверяю Kotik", "check Kotik"),
    ("проверяю kotik", "check Kotik"),
    ("ПРОВЕРЯЮ KOTIK", "check Kotik"),
    ("Проверю Лису", "check Лиса"),
    ("Проверим Шерлока", "check Шерлок"),
    ("Проверь, пожалуйста, Гроза", "check Гроза"),
    ("Проверить Kotik", "check Kotik"),
    ("Проверяем Лиса", "check Лиса"),
    ("Чекаю Kotik", "check Kotik"),
    ("Чекну Снежок", "check Снежок"),
    ("чек: Лиса", "check Лиса"),
    ("Пробиваю Гроза", "check Гроза"),
    ("Пробей Мотылька", "check Мотылёк"),
    ("Хочу проверить Kotik", "check Kotik"),
    ("Буду проверять Ёжика", "check Ёжик"),
    ("Проверка — Mr. Smith", "check Mr. Smith"),
    ("Проверка: Nika-77", "check Nika-77"),
    ("Комиссар проверяет Тень_Ночи", "check Тень_Ночи"),
    ("Ком: Kotik", "check Kotik"),
    ("Проверяю игрока Лиса", "check Лиса"),
    ("Сегодня проверяю Гроза", "check Гроза"),
    ("Этой ночью проверим Мисс Марпл", "check Мисс Марпл"),
    ("Привет! Проверяю Kotik.", "check Kotik"),
    ("Добрый вечер, ведущий. Проверка Шерлок", "check Шерлок"),
    ("Давай проверим Доктор Ватсон", "check Доктор Ватсон"),
    ("Смотрю Ира-Ира", "check Ира-Ира"),
    ("Гляну Kotik", "check Kotik"),
    ("Просвечиваю Лиса", "check Лиса"),
    ("Копаю под Гроза", "check Гроза"),
    ("Узнаю роль Kotik", "check Kotik"),
    ("Хочу узнать роль Гроза", "check Гроза"),
    ("Роль Снежок?", "unreadable: doubt"),
    ("Проверяю Kotik, он вчера странно голосовал", "check Kotik"),
    ("Проверяю Kotik — подозрительно молчит весь день", "check Kotik"),
    ("Проверяю Лиса. Спокойной ночи!", "check Лиса"),
    ("Проверяю Kotik!!!", "check Kotik"),
    ("проверяю тень_ночи", "check Тень_Ночи"),
    ("Моя проверка: Гроза", "check Гроза"),
    ("Ночная проверка — Снежок", "check Снежок"),
    ("Проверяю\nKotik", "check Kotik"),
    ("Ок, проверяю Мотылёк", "check Мотылёк"),
    ("Ну что, чекаем Полковника", "check Полковник"),
    # doubts and refusals: asked, never guessed
    ("Может, проверить Kotik?", "unreadable: doubt"),
    ("Проверить Kotik?", "unreadable: doubt"),
    ("Проверяю Kotik или Лиса", "unreadable: two_targets"),
    ("Проверяю Kotik и Лиса", "unreadable: two_targets"),
    ("Проверяю Kotik, Лиса", "unreadable: two_targets"),
    ("Проверю Kotik, если он не уйдёт", "unreadable: doubt"),
    ("Я бы проверил Лиса", "unreadable: doubt"),
    ("Проверяю Kotik, наверное", "unreadable: doubt"),
    ("Наверное, проверю Снежок", "unreadable: doubt"),
    ("Думаю проверить Гроза", "unreadable: doubt"),
    ("Не знаю, может быть проверю Kotik", "unreadable: doubt"),
    ("Не проверяю никого", "unreadable: negated"),
    ("Не буду проверять Kotik", "unreadable: negated"),
    ("Проверяю Пуаро", "unreadable: unknown_nick"),
    ("Проверяю", "unreadable: no_target"),
    ("Бью Kotik", "unreadable: not_allowed"),
    ("Пропускаю ход", "unreadable: skip"),
    ("Пас", "unreadable: skip"),
    ("Сегодня без хода", "unreadable: skip"),
    ("Привет, как дела?", "unreadable: no_action"),
    ("Kotik странный, Лиса тоже", "unreadable: no_action"),
    ("Проверяю Kotik. Проверяю Лиса.", "unreadable: doubt"),
]

DOCTOR = [
    ("Лечу Kotik", "heal Kotik"),
    ("Лечу Лису", "heal Лиса"),
    ("Вылечу Гроза", "heal Гроза"),
    ("Лечим Снежок", "heal Снежок"),
    ("Лечение: Мотылёк", "heal Мотылёк"),
    ("Лечение → Kotik", "heal Kotik"),
    ("Хилю Kotik", "heal Kotik"),
    ("Хил на Лиса", "heal Лиса"),
    ("Спасаю Ира-Ира", "heal Ира-Ира"),
    ("Спасу Nika-77", "heal Nika-77"),
    ("Реанимирую Шерлока", "heal Шерлок"),
    ("Откачиваю Ёжика", "heal Ёжик"),
    ("Спасение — Гроза", "heal Гроза"),
    ("Док: Лиса", "heal Лиса"),
    ("Реаниматор лечит Kotik", "heal Kotik"),
    ("Лечу себя", "heal Доктор Ватсон"),
    ("Лечу Kotik, пусть поживёт ещё", "heal Kotik"),
    ("Прикрываю Полковника", "heal Полковник"),
    ("Вылечи Kotik", "heal Kotik"),
    ("Буду лечить Гроза", "heal Гроза"),
    ("Лечу Мисс Марпл", "heal Мисс Марпл"),
    ("Сегодня лечу Mr. Smith — его точно будут убивать", "heal Mr. Smith"),
    ("Привет) лечу Тень_Ночи", "heal Тень_Ночи"),
    ("Полечу Kotik", "heal Kotik"),
    ("Подлечу Снежка", "heal Снежок"),
    ("ХИЛЮ ЛИСУ", "heal Лиса"),
    # doubts and refusals
    ("Лечу Kotik или Гроза", "unreadable: two_targets"),
    ("Может, вылечу Лиса", "unreadable: doubt"),
    ("Лечить Kotik?", "unreadable: doubt"),
    ("Если мафия стреляет в Kotik, лечу Kotik", "unreadable: doubt"),
    ("Лечил бы Kotik, но не знаю", "unreadable: doubt"),
    ("Проверяю Kotik", "unreadable: not_allowed"),
    ("Лечу", "unreadable: no_target"),
    ("Лечу Ватсона", "unreadable: unknown_nick"),
    ("Не лечу никого", "unreadable: negated"),
    ("Хилю Kotik, хотя может и Лису", "unreadable: doubt"),
]

MAFIA = [
    ("Стреляем в Kotik", "shoot Kotik by Лиса"),
    ("Стреляем в Kotik, исполнитель Тень_Ночи", "shoot Kotik by Тень_Ночи"),
    ("Убиваем Гроза, исп. Mr. Smith", "shoot Гроза by Mr. Smith"),
    ("Мочим Снежок. Исполнитель — Тень_Ночи", "shoot Снежок by Тень_Ночи"),
    ("Валим Kotik, стреляет Mr. Smith", "shoot Kotik by Mr. Smith"),
    ("Тень_Ночи стреляет в Kotik", "shoot Kotik by Тень_Ночи"),
    ("Выстрел: Гроза. Стреляет Тень_Ночи", "shoot Гроза by Тень_Ночи"),
    ("Цель — Kotik, исполнитель Mr. Smith", "shoot Kotik by Mr. Smith"),
    ("Заказ на Гроза", "shoot Гроза by Лиса"),
    ("Пристрелим Kotik", "shoot Kotik by Лиса"),
    ("Отстрел: Снежок", "shoot Снежок by Лиса"),
    ("Мафия стреляет в Ёжика", "shoot Ёжик by Лиса"),
    ("Убиваем Kotik, исполнитель я", "shoot Kotik by Лиса"),
    ("Стреляю в Kotik сама", "shoot Kotik by Лиса"),
    ("Валим Kotik, стрелять будет Тень_Ночи", "shoot Kotik by Тень_Ночи"),
    ("Наша цель — Гроза, стреляет Тень_Ночи", "shoot Гроза by Тень_Ночи"),
    ("Грохнем Шерлока, исп Тень_Ночи", "shoot Шерлок by Тень_Ночи"),
    ("Стреляем в Kotik\nисполнитель: Mr. Smith", "shoot Kotik by Mr. Smith"),
    ("Убиваем Мотылька", "shoot Мотылёк by Лиса"),
    ("Кокнем Ёжика, стреляет Тень_Ночи", "shoot Ёжик by Тень_Ночи"),
    ("Завалим Полковника", "shoot Полковник by Лиса"),
    ("Ликвидируем Kotik", "shoot Kotik by Лиса"),
    ("Шмаляем в Гроза", "shoot Гроза by Лиса"),
    ("Приветик! Стреляем в Снежок, исполнитель Mr. Smith", "shoot Снежок by Mr. Smith"),
    ("Убиваем Kotik. Стреляет Тень_Ночи.", "shoot Kotik by Тень_Ночи"),
    # doubts and refusals
    ("Стреляем в Kotik или Гроза", "unreadable: two_targets"),
    ("Может, убьём Kotik?", "unreadable: doubt"),
    ("Стреляем в Kotik, исполнитель Тень_Ночи или Mr. Smith", "unreadable: two_targets"),
    ("Засада", "unreadable: not_allowed"),
    ("Стреляем в Kotik, исполнитель Пуаро", "unreadable: unknown_nick"),
    ("Если Kotik не маньяк, стреляем в него", "unreadable: doubt"),
    ("Стреляем в Kotik, хотя можно и в Лису", "unreadable: doubt"),
]

MANIAC = [
    ("Засада", "ambush"),
    ("Засада.", "ambush"),
    ("Сижу в засаде", "ambush"),
    ("Сяду в засаду", "ambush"),
    ("В засаду!", "ambush"),
    ("Засяду", "ambush"),
    ("Ухожу в засаду", "ambush"),
    ("Сегодня засада", "ambush"),
    ("Убиваю Kotik", "kill Kotik"),
    ("Мочу Лису", "kill Лиса"),
    ("Режу Снежок", "kill Снежок"),
    ("Валю Мотылька", "kill Мотылёк"),
    ("Маньячу Kotik", "kill Kotik"),
    ("Маньяк убивает Шерлока", "kill Шерлок"),
    ("Стреляю в Kotik", "kill Kotik"),
    ("Убью Mr. Smith", "kill Mr. Smith"),
    ("Зарежу Ира-Ира", "kill Ира-Ира"),
    ("Убийство: Полковник", "kill Полковник"),
    # doubts and refusals
    ("Убиваю Kotik. Или засада", "unreadable: doubt"),
    ("Может, засада?", "unreadable: doubt"),
    ("Убиваю Kotik или Гроза", "unreadable: two_targets"),
    ("Бью Kotik", "unreadable: not_allowed"),
    ("Не убиваю никого", "unreadable: negated"),
]

NINJA = [
    ("Убиваю Kotik", "kill Kotik"),
    ("Режу Лису", "kill Лиса"),
    ("Ниндзя убивает Гроза", "kill Гроза"),
    ("Кил Kotik", "kill Kotik"),
    ("Устраняю Снежок", "kill Снежок"),
    ("Ликвидирую Мотылька", "kill Мотылёк"),
    ("Убиваю Лиса, она точно мафия", "kill Лиса"),
    ("Цель — Шерлок", "kill Шерлок"),
    ("Сегодня не хожу", "unreadable: skip"),
    ("Моя цель — выжить", "unreadable: no_action"),
    ("Может, убью Kotik", "unreadable: doubt"),
    ("Лечу Kotik", "unreadable: not_allowed"),
]

THUG = [
    ("Бью Kotik", "beat Kotik"),
    ("Избиваю Лису", "beat Лиса"),
    ("Изобью Гроза", "beat Гроза"),
    ("Побью Снежка", "beat Снежок"),
    ("Отметелю Мотылька", "beat Мотылёк"),
    ("Громила бьёт Kotik", "beat Kotik"),
    ("Избиение: Ёжик", "beat Ёжик"),
    ("Вырубаю Kotik", "beat Kotik"),
    ("Наваляю Лисе", "beat Лиса"),
    ("Бьём Полковника", "beat Полковник"),
    ("Отлуплю Ира-Ира", "beat Ира-Ира"),
    ("Бью Kotik или Лиса", "unreadable: two_targets"),
    ("Бью себя? нет", "unreadable: doubt"),
    ("Проверяю Kotik", "unreadable: not_allowed"),
]

PRIEST = [
    ("Забираю Kotik", "take Kotik"),
    ("Забираю к себе Лиса", "take Лиса"),
    ("Беру на беседу Гроза", "take Гроза"),
    ("Приглашаю Снежок", "take Снежок"),
    ("Зову к себе Мотылька", "take Мотылёк"),
    ("Беседа с Ёжиком", "take Ёжик"),
    ("Исповедую Kotik", "take Kotik"),
    ("Уведу Шерлока", "take Шерлок"),
    ("Гость: Полковник", "take Полковник"),
    ("Заберу Nika-77", "take Nika-77"),
    ("Священник забирает Kotik", "take Kotik"),
    ("Забираю на беседы о вечном Лису", "take Лиса"),
    ("Забираю Kotik или Лису", "unreadable: two_targets"),
    ("Забрать Kotik?", "unreadable: doubt"),
    ("Убиваю Kotik", "unreadable: not_allowed"),
]

KAMIKAZE = [
    ("Взрываю Лиса", "blow Лиса"),
    ("Подрываю Гроза", "blow Гроза"),
    ("Взорву Снежок", "blow Снежок"),
    ("Подорву Мотылька", "blow Мотылёк"),
    ("Взрываюсь вместе с Шерлоком", "blow Шерлок"),
    ("Подрыв: Ёжик", "blow Ёжик"),
    ("Обнимаю Лису", "blow Лиса"),
    ("Взрываю себя и Гроза", "blow Гроза"),
    ("Подрываюсь с Полковником", "blow Полковник"),
    ("Камикадзе взрывает Тень_Ночи", "blow Тень_Ночи"),
    ("Взрываю Лиса или Гроза", "unreadable: two_targets"),
    ("Может, взорву Лису", "unreadable: doubt"),
    ("Убиваю Лиса", "unreadable: not_allowed"),
]

NECROMANCER = [
    ("Защищаю Kotik и Лиса", "protect Kotik + Лиса"),
    ("Воскрешаю Гроза, Снежок", "protect Гроза + Снежок"),
    ("Протект: Kotik + Лиса", "protect Kotik + Лиса"),
    ("Оберегаю Шерлока и Мотылька", "protect Шерлок + Мотылёк"),
    ("Защита — Kotik, Nika-77", "protect Kotik + Nika-77"),
    ("Некромант защищает Kotik и Лису", "protect Kotik + Лиса"),
    ("Защищаю Kotik", "protect Kotik"),
    ("Защищаю Kotik и Пуаро", "unreadable: unknown_nick"),
    ("Может, защищу Kotik и Лису", "unreadable: doubt"),
]

SERGEANT_AND_CITIZEN = [
    ("Проверяю Kotik", "sergeant", "Мотылёк", "check Kotik"),
    ("Чекаю Лису", "sergeant", "Мотылёк", "check Лиса"),
    ("Проверяю Kotik", "citizen", "Снежок", "unreadable: not_allowed"),
    ("Как думаешь, Лиса правда мафия?", "citizen", "Снежок", "unreadable: chatty"),
    ("Убиваю Kotik", "citizen", "Снежок", "unreadable: not_allowed"),
]


@pytest.mark.parametrize(("text", "expected"), COMMISSAR)
def test_commissar_phrasings_N12(text: str, expected: str) -> None:
    assert show(read(text, "commissar")) == expected


@pytest.mark.parametrize(("text", "expected"), DOCTOR)
def test_doctor_phrasings_N8(text: str, expected: str) -> None:
    assert show(read(text, "doctor", "Доктор Ватсон")) == expected


@pytest.mark.parametrize(("text", "expected"), MAFIA)
def test_mafia_phrasings_N5(text: str, expected: str) -> None:
    assert show(read(text, "mafia", "Лиса")) == expected


@pytest.mark.parametrize(("text", "expected"), MANIAC)
def test_maniac_phrasings_N6(text: str, expected: str) -> None:
    assert show(read(text, "maniac", "Гроза")) == expected


@pytest.mark.parametrize(("text", "expected"), NINJA)
def test_ninja_phrasings_N10(text: str, expected: str) -> None:
    assert show(read(text, "ninja", "Ира-Ира")) == expected


@pytest.mark.parametrize(("text", "expected"), THUG)
def test_thug_phrasings_N4(text: str, expected: str) -> None:
    assert show(read(text, "thug", "Шерлок")) == expected


@pytest.mark.parametrize(("text", "expected"), PRIEST)
def test_priest_phrasings_N3(text: str, expected: str) -> None:
    assert show(read(text, "priest", "Мисс Марпл")) == expected


@pytest.mark.parametrize(("text", "expected"), KAMIKAZE)
def test_kamikaze_phrasings_N7(text: str, expected: str) -> None:
    assert show(read(text, "kamikaze", "Kotik")) == expected


@pytest.mark.parametrize(("text", "expected"), NECROMANCER)
def test_necromancer_phrasings_N9(text: str, expected: str) -> None:
    assert show(read(text, "necromancer", "Ёжик")) == expected


@pytest.mark.parametrize(("text", "role", "sender", "expected"), SERGEANT_AND_CITIZEN)
def test_sergeant_and_citizen_phrasings_N12_N14(
    text: str, role: str, sender: str, expected: str
) -> None:
    assert show(read(text, role, sender)) == expected
