"""«Мафия: партия 8» — a 3-day game on a MyBB.ru board, for the engine's end-to-end test.

Ten players; the host Ведущий_Макс. The posts are MyBB.ru's rendered HTML (PunBB colour
spans, ``div.quote-box`` quotes, a spoiler box, a code box), with chatter between the votes
so the topic runs past 100 posts (two ``post.get`` pages and a third). What a host counts:

- Day 1: Лиса 4 (Nika-77, Гроза, Полковник, Мотылёк), Шерлок 2 (Kotik, Тень_Ночи), Kotik 1
  (Шерлок, in a spoiler), Nika-77 1 (Лиса). Not counted: Снежок (no reason, V3), Ёжик (after
  the deadline), Nika-77's second vote (V4). Лиса is hanged.
- Night 1: the mafia shoot Nika-77, the doctor heals Гроза: Nika-77 dies.
- Day 2: Kotik 4 (Шерлок, Гроза as «Kоtik» with a Cyrillic о, Полковник, Ёжик), Шерлок 1
  (Kotik), Гроза 1 (Тень_Ночи: her post read first for Гроза, edited later to Шерлок — the
  first text counts, V4), Снежок 1 (Мотылёк). Not counted: Снежок (a smiley for a reason),
  Nika-77 (dead), Пуаро (not playing). Kotik is hanged.
- Night 2: the mafia shoot Мотылёк, the doctor heals Мотылёк: nobody dies.
- Day 3: Тень_Ночи 3 (Шерлок, Гроза — edited, first text never seen, flagged — Мотылёк),
  Шерлок 2 (Тень_Ночи, Снежок), Снежок 1 (Полковник). Not counted: Полковник's «vote» in a
  code box (no vote at all), Ёжик at 22:00 sharp (late, T2). Тень_Ночи is hanged.
"""

from __future__ import annotations

from datetime import datetime

from support.moscow import MSK, msk
from support.mybbru.board import BoardPm, BoardPost

HOST = ("Ведущий_Макс", 2)
PASSWORD = "пароль-Макса"
PLAYERS = {"Шерлок": 11, "Лиса": 12, "Kotik": 13, "Тень_Ночи": 14, "Гроза": 15, "Ёжик": 16,
           "Полковник": 17, "Nika-77": 18, "Мотылёк": 19, "Снежок": 20}
GUESTS = {"Пуаро": 21}
FIRST_ID = 52301

CONFIG = """
[game]
title = "Мафия: партия 8"
host = "Ведущий_Макс"
start = "2026-11-20 18:00"

[forum]
url = "{url}"
timezone = "Europe/Moscow"
username = "Ведущий_Макс"
rate_limit = 1000

[[schedule.days]]
day = 1
start = "2026-11-20 18:00"
deadline = "2026-11-21 22:00"
night_deadline = "2026-11-22 10:00"

[[schedule.days]]
day = 2
start = "2026-11-22 10:05"
deadline = "2026-11-23 22:00"
night_deadline = "2026-11-24 10:00"

[[schedule.days]]
day = 3
start = "2026-11-24 10:05"
deadline = "2026-11-25 22:00"

[players]
"Шерлок" = "commissar"
"Лиса" = "citizen"
"Kotik" = {{ role = "mafia", clan = "Ночные" }}
"Тень_Ночи" = {{ role = "mafia", clan = "Ночные" }}
"Гроза" = "citizen"
"Ёжик" = "doctor"
"Полковник" = "citizen"
"Nika-77" = "citizen"
"Мотылёк" = "citizen"
"Снежок" = "citizen"
"""

RED = '<span style="color: red">{}</span>'


def vote(nick: str, reason: str, *, colour: str = "red", dash: str = "–") -> str:
    return (f'<p>Мой голос {dash} <span style="color: {colour}">{nick}</span><br />'
            f"{reason}</p>")


SCRIPT: list[tuple[str, str, str]] = [
    # (Moscow time, author, rendered message)
    ("2026-11-20 18:00", "Ведущий_Макс",
     "<p><strong>Мафия: партия 8. День 1.</strong><br />Голосуем красным: «Мой голос – ник» "
     "и аргумент.<br /><strong>День 1 до 21.11 22:00 МСК.</strong></p>"),
    ("2026-11-20 20:05", "Nika-77",
     vote("Лиса", "Начала игру с атаки на Шерлока без всякого повода, типичный ход мафии.")),
    ("2026-11-20 21:10", "Снежок", '<p>Мой голос – <span style="color: red">Мотылёк</span></p>'),
    ("2026-11-20 21:34", "Ёжик",
     '<div class="quote-box quote-main"><cite>Nika-77 написал(а):</cite><blockquote><p>'
     'Мой голос – <span style="color: red">Лиса</span></p></blockquote></div>'
     "<p>Рановато, по-моему. Я пока подожду с голосом.</p>"),
    ("2026-11-20 23:40", "Гроза",
     vote("Лиса", "Переход на личности в первом же посте и оправдания вместо ответа.",
          colour="#FF0000", dash="—")),
    ("2026-11-21 10:05", "Kotik",
     vote("Шерлок", "Слишком уверенно ведёт обсуждение, будто знает больше других.")),
    ("2026-11-21 11:30", "Шерлок",
     '<div class="quote-box spoiler-box"><div onclick="$(this).toggleClass(\'visible\')">'
     "Спойлер</div><blockquote><p>Мой голос – " + RED.format("Kotik") + "<br />Kotik весь "
     "день присматривается и не даёт ни одной версии.</p></blockquote></div>"),
    ("2026-11-21 14:03", "Полковник",
     '<p>Мой голос – <strong><span style="color: red">Лиса</span></strong><br />Её пост с '
     "цитатой — давление на голосующих, мирному так делать незачем.</p>"),
    ("2026-11-21 15:55", "Лиса",
     vote("Nika-77", "Nika-77 первой проголосовала без информации и собирает хвост голосов.",
          colour="darkred")),
    ("2026-11-21 17:10", "Тень_Ночи",
     vote("Шерлок", "Шерлок прячет голос под спойлер, значит ему есть что скрывать.")),
    ("2026-11-21 18:40", "Nika-77",
     vote("Снежок", "Передумала: Снежок голосовал молча и без аргумента.")),
    ("2026-11-21 20:50", "Мотылёк",
     '<p><span style="color: red">Мой голос: Лиса</span><br />Перечитала все её посты, '
     "объяснений так и не прозвучало.</p>"),
    ("2026-11-21 22:03", "Ёжик", vote("Лиса", "Опоздал, но пусть будет видно моё мнение.")),
    ("2026-11-21 22:10", "Ведущий_Макс",
     "<p><strong>Итоги дня 1.</strong> Город казнит Лису. Наступает ночь 1.</p>"),
    ("2026-11-22 10:05", "Ведущий_Макс",
     "<p><strong>Утро. День 2.</strong><br />Ночью убита Nika-77.<br />"
     "<strong>День 2 до 23.11 22:00 МСК.</strong></p>"),
    ("2026-11-22 11:30", "Шерлок",
     vote("Kotik", "Ночью я кое-что узнал, и Kotik вчера голосовал против меня без причины.")),
    ("2026-11-22 12:00", "Nika-77", vote("Kotik", "Я из могилы всё вижу, это он.")),
    ("2026-11-22 12:40", "Тень_Ночи",
     vote("Гроза", "Гроза вчера голосовала за мирную Лису, и сегодня молчит.")),
    # ---- the first sync happens here (see FIRST_SYNC_AFTER)
    ("2026-11-22 15:45", "Гроза",
     vote("Kоtik", "Вопрос Шерлоку выглядит как перевод стрелок, версий у Kotik нет.")),
    ("2026-11-22 16:30", "Снежок", '<p>Мой голос – <span style="color: red">Тень_Ночи</span>'
     "<br />:)</p>"),
    ("2026-11-22 17:15", "Пуаро", vote("Шерлок", "Я не играю, но болею против Шерлока.")),
    ("2026-11-22 18:00", "Kotik",
     vote("Шерлок", "Шерлок ведёт город за собой, и вчера это закончилось казнью мирной.")),
    ("2026-11-22 19:20", "Полковник",
     vote("Kotik", "Сначала присматривался, теперь резко атакует тех, кто голосовал по делу.")),
    ("2026-11-22 20:05", "Ёжик",
     vote("Kotik", "Я вчера уже это говорил: ни одной версии, одни вопросы к другим.")),
    ("2026-11-22 21:45", "Мотылёк",
     vote("Снежок", "Голосует со смайликом вместо аргумента, уходит от обсуждения.",
          colour="#ff0000")),
    ("2026-11-23 22:10", "Ведущий_Макс", "<p><strong>Итоги дня 2.</strong> Казнён Kotik.</p>"),
    ("2026-11-24 10:05", "Ведущий_Макс",
     "<p><strong>Утро. День 3.</strong><br />Ночью никто не погиб.<br />"
     "<strong>День 3 до 25.11 22:00 МСК.</strong></p>"),
    ("2026-11-24 11:00", "Полковник",
     '<div class="code-box"><strong class="legend">Код:</strong><div class="blockcode">'
     '<div class="scrollbox"><pre>Мой голос – Снежок</pre></div></div></div>'
     "<p>Вот так правильно оформлять голос, запомните образец.</p>"),
    ("2026-11-24 12:00", "Шерлок",
     vote("Тень_Ночи", "Проверка показала: Тень_Ночи — мафия. Голосуем дружно.")),
    ("2026-11-24 13:00", "Тень_Ночи",
     vote("Шерлок", "Шерлок врёт про проверку, настоящий комиссар убит ночью.")),
    ("2026-11-24 14:00", "Гроза",
     vote("Тень_Ночи", "Верю Шерлоку: его вчерашний голос за Kotik оказался точным.")),
    ("2026-11-24 15:00", "Снежок",
     vote("Шерлок", "Слишком удобная проверка, ровно в нужный момент.")),
    ("2026-11-24 16:00", "Мотылёк",
     '<div class="quote-box quote-main"><cite>Тень_Ночи написал(а):</cite><blockquote>'
     '<p>Мой голос – <span style="color: red">Шерлок</span></p></blockquote></div>'
     + vote("Тень_Ночи", "Её защита слабая, а вчера она голосовала вместе с Kotik.")),
    ("2026-11-24 17:00", "Полковник",
     vote("Снежок", "Снежок второй день подряд голосует против самых активных.")),
    ("2026-11-25 22:00", "Ёжик", vote("Тень_Ночи", "Ровно в дедлайн: это мафия, без сомнений.")),
    ("2026-11-25 22:10", "Ведущий_Макс",
     "<p><strong>Итоги дня 3.</strong> Казнена Тень_Ночи. Город победил.</p>"),
]

FIRST_SYNC_AFTER = "2026-11-22 12:40"
"""The first sync reads the topic as it stood after Тень_Ночи's vote for Гроза."""
EDITED = {
    # author, time of the original → (new message, edit time)
    ("Тень_Ночи", "2026-11-22 12:40"): (
        vote("Шерлок", "Передумала: Шерлок слишком уверенно ведёт город, это подозрительно."),
        "2026-11-22 14:00"),
    ("Гроза", "2026-11-24 14:00"): (
        vote("Тень_Ночи", "Верю Шерлоку: его вчерашний голос за Kotik оказался точным. "
                          "Добавлю: она путается в показаниях."), "2026-11-24 14:30"),
}

CHATTER = [
    "Всем привет, читаю тему.", "Пока присматриваюсь, мнения нет.",
    "Согласен, что рано делать выводы.", "Интересная мысль, надо перечитать.",
    "Кто ещё не отписался сегодня?", "Я на работе, вечером напишу больше.",
    "Слишком много эмоций в теме.", "Давайте по фактам, без наездов.",
    "Поддерживаю осторожность, город не должен спешить.", "Хм, странное совпадение.",
    "Перечитал вчерашние посты, ничего нового.", "Жду итогов, всем удачи.",
]


def _chatter(day_start: str, count: int, authors: list[str]) -> list[tuple[str, str, str]]:
    """Posts without votes, one every 17 minutes from the day's start (between the votes)."""
    start = msk(day_start)
    out = []
    for i in range(count):
        at = start.timestamp() + 60 * (7 + 17 * i)
        when = datetime.fromtimestamp(at, MSK).strftime("%Y-%m-%d %H:%M:%S")
        out.append((when, authors[i % len(authors)], f"<p>{CHATTER[i % len(CHATTER)]}</p>"))
    return out


def _day1() -> list[str]:
    return list(PLAYERS)


def timeline() -> list[tuple[str, str, str]]:
    """Every post of the game (time, author, message), oldest first."""
    alive2 = [n for n in PLAYERS if n not in ("Лиса", "Nika-77")]
    alive3 = [n for n in alive2 if n != "Kotik"]
    posts = SCRIPT + _chatter("2026-11-20 18:00", 45, _day1()) \
        + _chatter("2026-11-22 10:05", 45, alive2) + _chatter("2026-11-24 10:05", 25, alive3)
    return sorted(posts, key=lambda p: msk(p[0]))


def user_id(nick: str) -> int:
    return {**PLAYERS, **GUESTS, HOST[0]: HOST[1]}[nick]


def board_posts(until: str | None = None, *, edited: bool = True) -> list[BoardPost]:
    """The topic's posts (ids from 52301, one id skipped as a deleted post leaves it), up to
    ``until`` (Moscow time, inclusive); ``edited``: with the later edits applied."""
    out: list[BoardPost] = []
    next_id = FIRST_ID
    for when, author, message in timeline():
        if until is not None and msk(when) > msk(until):
            break
        post = BoardPost(next_id, user_id(author), author, int(msk(when).timestamp()), message)
        change = EDITED.get((author, when[:16]))
        if edited and change is not None:
            post.message, post.edited, post.edited_by = (
                change[0], int(msk(change[1]).timestamp()), author)
        out.append(post)
        next_id += 2 if next_id == FIRST_ID + 37 else 1
    return out


def night_pms() -> list[BoardPm]:
    """The night requests in the host's dialogs, with the host's answers."""
    rows = [
        # (id, partner, mine, subject, message, Moscow time)
        (9001, "Шерлок", True, "Роль", "<p>Твоя роль: <strong>Комиссар</strong>.</p>",
         "2026-11-20 17:00"),
        (9002, "Kotik", True, "Роль", "<p>Твоя роль: <strong>Мафия</strong>.</p>",
         "2026-11-20 17:01"),
        (9010, "Kotik", False, "Ночь 1",
         "<p>Стреляем в Nika-77, исполнитель Тень_Ночи.</p>", "2026-11-21 23:10"),
        (9011, "Ёжик", False, "Ночь 1", "<p>Лечу Гроза</p>", "2026-11-21 23:20"),
        (9012, "Шерлок", False, "Ночь 1", "<p>Проверяю Kotik</p>", "2026-11-21 23:30"),
        (9013, "Шерлок", True, "Ночь 1", "<p>Принято.</p>", "2026-11-21 23:35"),
        (9020, "Тень_Ночи", False, "Ночь 2", "<p>Стреляем в Мотылёк.</p>", "2026-11-23 23:00"),
        (9021, "Ёжик", False, "Ночь 2", "<p>Лечу Мотылёк</p>", "2026-11-23 23:10"),
        (9022, "Шерлок", False, "Ночь 2", "<p>Проверяю Тень_Ночи</p>", "2026-11-23 23:20"),
    ]
    return [BoardPm(i, user_id(who), who, mine, subject, text, int(msk(when).timestamp()))
            for i, who, mine, subject, text, when in rows]
