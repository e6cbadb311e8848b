"""The contract's game: one small day and night, the same on every engine's board.

Six players and the host «Ведущий». Day 1 (20.11.2026 12:00–22:00 МСК) has 12 posts, five a
page (3 pages): six red votes «Мой голос – <ник>» with a reason, the rest talk. What a host
counts (docs/rules.md V1–V5): Лиса 3 (Шерлок, Ёжик, Полковник), Ёжик 2 (Kotik, Лиса), Kotik 1
(Гроза); Лиса is hanged. After the first read Kotik edits his vote to Полковник: the text the
referee saw first counts (V4), and the store keeps both texts. Then a moderator deletes
Гроза's greeting (#5002): the re-read notices the topic shrank. Night 1 is three PMs to the
host: the mafia shoot Шерлок, the commissar checks Kotik, the doctor heals Полковник —
Шерлок dies.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from support.moscow import msk

HOST = "Ведущий"
PLAYERS = {"Шерлок": 60, "Kotik": 62, "Лиса": 63, "Ёжик": 64, "Полковник": 67, "Гроза": 69}
USER_IDS = {HOST: 58, **PLAYERS}
PER_PAGE = 5
READ_AT = msk("2026-11-21 12:00")
"""When the contract's game is read (the night is over): every clock of the suite."""


@dataclass(frozen=True, slots=True)
class Post:
    """One post: ``vote`` the nick voted for in red after the ``words`` (a new line)."""

    post_id: int
    author: str
    at: datetime
    words: str
    vote: str | None = None

    @property
    def text(self) -> str:
        """What the referee must read from the post."""
        return f"{self.words}\nМой голос – {self.vote}" if self.vote else self.words


@dataclass(frozen=True, slots=True)
class Pm:
    pm_id: int
    sender: str
    at: datetime
    subject: str
    text: str


def _post(pid: int, author: str, hm: str, words: str, vote: str | None = None) -> Post:
    return Post(pid, author, msk(f"2026-11-20 {hm}"), words, vote)


POSTS = (
    _post(5001, HOST, "12:00", "Игра начинается! День 1 — до 22:00, голосуем красным."),
    _post(5002, "Гроза", "13:00", "Всем привет, я мирный, давайте искать мафию."),
    _post(5003, "Шерлок", "14:00", "Лиса всё время уходит от ответа", "Лиса"),
    _post(5004, "Kotik", "15:00", "Ёжик слишком тихий сегодня", "Ёжик"),
    _post(5005, "Лиса", "16:00", "Ёжик явно что-то скрывает", "Ёжик"),
    _post(5006, "Ёжик", "17:00", "Лиса защищает Kotik, это видно", "Лиса"),
    _post(5007, "Полковник", "18:00", "Голосую с большинством против Лисы", "Лиса"),
    _post(5008, "Гроза", "19:00", "Kotik путается в словах", "Kotik"),
    _post(5009, HOST, "20:00", "До конца дня два часа."),
    _post(5010, "Шерлок", "20:30", "Жду ваших голосов, время идёт."),
    _post(5011, "Kotik", "21:00", "Я мирный, честное слово."),
    _post(5012, "Гроза", "21:30", "Итак, всё решится сегодня."),
)
EDITED = Post(5004, "Kotik", POSTS[3].at, "Передумал: Полковник подозрителен", "Полковник")
EDITED_AT = msk("2026-11-21 09:00")
DELETED = 5002

PMS = (
    Pm(301, "Kotik", msk("2026-11-20 23:00"), "Ход мафии", "Стреляем в Шерлок, исполнитель Kotik."),
    Pm(302, "Шерлок", msk("2026-11-20 23:30"), "Проверка", "Проверяю Kotik"),
    Pm(303, "Ёжик", msk("2026-11-21 00:30"), "Лечение", "Лечу Полковник"),
)

COUNTS = {"Лиса": ["Шерлок", "Ёжик", "Полковник"], "Ёжик": ["Kotik", "Лиса"], "Kotik": ["Гроза"]}
HANGED = "Лиса"
NIGHT_DEATHS = ["Шерлок"]

REPLY = "[b]Итоги дня 1[/b]\nЛиса — 3: Шерлок, Ёжик, Полковник\nНа виселицу отправляется Лиса."

CONFIG = """\
[game]
title = "Мафия: контракт движков"
host = "Ведущий"

[forum]
engine = "{engine}"
url = "{url}"
timezone = "Europe/Moscow"
username = "Ведущий"
rate_limit = 1000
retries = 0
timeout = 5
{extra}
[[schedule.days]]
day = 1
start = "2026-11-20 12:00"
deadline = "2026-11-20 22:00"
night_deadline = "2026-11-21 10:00"

[players]
"Шерлок" = "commissar"
"Kotik" = {{ role = "mafia", clan = "Камин" }}
"Лиса" = {{ role = "mafia", clan = "Камин" }}
"Ёжик" = "doctor"
"Полковник" = "citizen"
"Гроза" = "citizen"
"""
