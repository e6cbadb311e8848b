"""A live 2-day game for ``referee watch`` on a phpBB 3.3 board on 127.0.0.1 (issue 21).

The board is the fault tests' board (``support/phpbb/board.py``: the real phpBB 3.3
markup of topic pages, the inbox and opened PMs) that also takes the host's replies and
PMs through phpBB's real forms (the fixtures of ``tests/publish``), and whose truth grows
with a fake clock: each scripted post and PM appears on the board once the clock reaches
its time, so a watch with that clock sees the game being played. ``down`` makes every
answer a 503 (the forum away).

The game (:func:`script`): 8 players; day 1 Лиса is hanged 4–2 (one vote without a
reason, V3; one vote after the deadline; an edited vote, V4); in night 1 the mafia shoot
Шерлок, the doctor heals him and the commissar checks Kotik; day 2 hangs Kotik, the last
mafioso, and the town wins (W2).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from datetime import datetime
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

from support.clock import FakeClock
from support.moscow import MSK, msk
from support.phpbb.board import HOST, PASSWORD, PREFIX, Board, BoardPm, BoardPost
from support.phpbb.posting_board import message_page

ROOT = Path(__file__).resolve().parents[3]

FIXTURES = ROOT / "fixtures" / "phpbb33-ru"


PLAYERS = {"Шерлок": 60, "Мисс Марпл": 61, "Kotik": 62, "Лиса": 63, "Ёжик": 64,
           "Тень_Ночи": 65, "Полковник": 67, "Гроза": 69}

CONFIG = """\
[game]
title = "Мафия у камина"
host = "Ведущий"

[forum]
url = "{url}"
timezone = "Europe/Moscow"
username = "Ведущий"
rate_limit = 1000
retries = 0
timeout = 5

[[schedule.days]]
day = 1
start = "2026-11-20 12:00"
deadline = "2026-11-20 22:00"
night_deadline = "2026-11-21 10:00"

[[schedule.days]]
day = 2
start = "2026-11-21 10:00"
deadline = "2026-11-21 22:00"
night_deadline = "2026-11-22 10:00"

[players]
"Шерлок" = "commissar"
"Мисс Марпл" = "doctor"
"Kotik" = {{ role = "mafia", clan = "Камин" }}
"Лиса" = {{ role = "mafia", clan = "Камин" }}
"Ёжик" = "citizen"
"Тень_Ночи" = "citizen"
"Полковник" = "citizen"
"Гроза" = "citizen"
{extra}"""


def vote(words: str, target: str) -> tuple[str, str]:
    """(html, text) of a post with a red vote, as phpBB renders ``[color=red]``."""
    return (f'{html.escape(words, quote=False)}<br>\nМой голос – '
            f'<span style="color:red">{html.escape(target)}</span>',
            f"{words}\nМой голос – {target}")


def chat(words: str) -> tuple[str, str]:
    return html.escape(words, quote=False), words


@dataclass(frozen=True, slots=True)
class Line:
    """One scripted post (``pm`` False) or PM: who, when, what; ``edits`` the id of the
    scripted post it replaces (an edit keeps the post's id)."""

    at: datetime
    author: str
    body: tuple[str, str]
    pm: bool = False
    subject: str = ""
    edits: int | None = None


def script() -> list[Line]:
    d1, n1, d2 = "2026-11-20", "2026-11-21", "2026-11-21"
    return [
        Line(msk(f"{d1} 10:00"), "Ведущий", chat("Игра начинается! День 1 — до 22:00, "
                                                 "голосуем красным: «Мой голос – ник».")),
        Line(msk(f"{d1} 13:00"), "Гроза", chat("Всем привет, я мирный, давайте искать мафию.")),
        Line(msk(f"{d1} 14:00"), "Шерлок", vote("Лиса всё время уходит от ответа", "Лиса")),
        Line(msk(f"{d1} 15:00"), "Мисс Марпл", vote("Согласна, Лиса путается в словах", "Лиса")),
        Line(msk(f"{d1} 16:00"), "Kotik", vote("Ёжик слишком тихий сегодня", "Ёжик")),
        Line(msk(f"{d1} 16:30"), "Лиса", vote("Ёжик явно что-то скрывает", "Ёжик")),
        Line(msk(f"{d1} 17:00"), "Ёжик", vote("Лиса защищает Kotik, это видно", "Лиса")),
        Line(msk(f"{d1} 18:00"), "Тень_Ночи", vote("", "Kotik")),
        Line(msk(f"{d1} 19:00"), "Kotik", vote("Передумал: Тень_Ночи подозрителен", "Тень_Ночи"),
             edits=4),
        Line(msk(f"{d1} 20:00"), "Полковник", vote("Голосую с большинством против Лисы",
                                                   "Лиса")),
        Line(msk(f"{d1} 22:10"), "Гроза", vote("Опоздал, но всё же считаю так", "Kotik")),
        Line(msk(f"{n1} 00:30"), "Kotik", chat("Стреляем в Шерлок, исполнитель Kotik."), pm=True,
             subject="Ход мафии"),
        Line(msk(f"{n1} 01:00"), "Шерлок", chat("Проверяю Kotik"), pm=True, subject="Проверка"),
        Line(msk(f"{n1} 01:30"), "Мисс Марпл", chat("Лечу Шерлок"), pm=True, subject="Лечение"),
        Line(msk(f"{n1} 02:00"), "Ёжик", chat("Привет! Ночью скучно, когда нет роли."), pm=True,
             subject="Привет"),
        Line(msk(f"{d2} 11:00"), "Шерлок", vote("Проверил ночью: Kotik из мафии", "Kotik")),
        Line(msk(f"{d2} 12:00"), "Мисс Марпл", vote("Верю комиссару, голосую так", "Kotik")),
        Line(msk(f"{d2} 13:00"), "Ёжик", vote("Комиссар открылся, поддерживаю его", "Kotik")),
        Line(msk(f"{d2} 14:00"), "Kotik", vote("Шерлок лжекомиссар и врёт всем", "Шерлок")),
        Line(msk(f"{d2} 15:00"), "Полковник", vote("Kotik защищался вчера Лисой", "Kotik")),
        Line(msk(f"{d2} 21:30"), "Гроза", vote("В последний момент, но голосую", "Kotik")),
    ]


# --------------------------------------------------------------------------- the board

@dataclass
class GameBoard(Board):
    """The fault tests' board, growing with ``clock`` and taking the host's messages."""

    clock: FakeClock = field(default_factory=lambda: FakeClock(msk("2026-11-20 11:00")))
    lines: list[Line] = field(default_factory=script)
    down: bool = False
    replies: list[tuple[datetime, str]] = field(default_factory=list)
    """The host's replies as posted: (time, BBCode text)."""
    sent_pms: list[tuple[int, str, str]] = field(default_factory=list)
    """The host's PMs: (recipient id, subject, text)."""
    next_id: int = 1000

    def __post_init__(self) -> None:
        self.posts, self.pms, self.per_page = [], [], 10
        super().__post_init__()
        self.shown: dict[int, int] = {}  # scripted line → board post id
        self.next_pm = 100

    def reveal(self) -> None:
        """Everything scripted up to the clock's time is on the board."""
        for i, line in enumerate(self.lines):
            if i in self.shown or line.at > self.clock.now():
                continue
            uid = PLAYERS.get(line.author, HOST[1])
            page_html, text = line.body
            if line.pm:
                self.pms.append(BoardPm(self.next_pm, line.author, uid, line.at, line.subject,
                                        page_html, text))
                self.shown[i] = self.next_pm
                self.next_pm += 1
            elif line.edits is not None:
                pid = self.shown[line.edits]
                at = next(k for k, p in enumerate(self.posts) if p.post_id == pid)
                old = self.posts[at]
                self.posts[at] = BoardPost(pid, old.author, old.author_id, old.posted_at,
                                           page_html, text)
                self.shown[i] = pid
            else:
                self.shown[i] = self._add(line.author, uid, line.at, page_html, text)

    def _add(self, author: str, uid: int, at: datetime, page_html: str, text: str) -> int:
        pid = self.next_id
        self.next_id += 1
        self.posts.append(BoardPost(pid, author, uid, at, page_html, text))
        return pid

    def answer(self, h: BaseHTTPRequestHandler) -> None:
        with self.lock:
            self.reveal()
        if self.down:
            self.log.append("down")
            self._send(h, 503, [], b"<html><body>Service Unavailable</body></html>")
            return
        super().answer(h)

    def _key(self, h: BaseHTTPRequestHandler) -> str:
        url = urlsplit(h.path)
        q = {k: v[0] for k, v in parse_qs(url.query).items()}
        path = url.path.rsplit("/", 1)[-1]
        if path == "posting.php" and q.get("mode") == "reply":
            return "reply"
        if path == "ucp.php" and q.get("i") == "pm" and q.get("mode") == "compose":
            return "compose"
        return super()._key(h)

    def _page(self, h: BaseHTTPRequestHandler, key: str, form: dict[str, str],
              *rest: Any) -> tuple[int, list[tuple[str, str]], bytes]:
        if key not in ("reply", "compose"):
            return super()._page(h, key, form, *rest)
        if f"{PREFIX}_u={HOST[1]}" not in (h.headers.get("Cookie") or ""):
            return 200, self._guest_cookies(), _fixture("login_required.html")
        if h.command != "POST":
            name = "posting_reply_form.html" if key == "reply" else "pm_compose_form.html"
            return 200, [], _fixture(name)
        if key == "reply":
            body = form["message"]
            pid = self._add(HOST[0], HOST[1], self.clock.now(),
                            html.escape(body, quote=False).replace("\n", "<br>\n"), body)
            self.replies.append((self.clock.now(), body))
            return 302, [("Location", f"./viewtopic.php?p={pid}#p{pid}")], b""
        to = next(int(m.group(1)) for k in form
                  if (m := re.match(r"address_list\[u\]\[(\d+)\]", k)))
        self.sent_pms.append((to, form.get("subject", ""), form["message"]))
        mid = 900 + len(self.sent_pms)
        return 200, [], message_page(
            'Сообщение успешно отправлено.<br /><br /><a href="./ucp.php?i=pm&amp;mode=view'
            f'&amp;p={mid}">Просмотреть сообщение</a>',
            refresh=f"./ucp.php?i=pm&amp;mode=view&amp;p={mid}").encode("utf-8")


def _fixture(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def write_config(folder: Path, board: GameBoard, extra: str = "") -> Path:
    path = folder / "referee.toml"
    path.write_text(CONFIG.format(url=board.topic_url, extra=extra), encoding="utf-8")
    return path


__all__ = ["MSK", "PASSWORD", "PLAYERS", "FakeClock", "GameBoard", "Line", "msk", "script",
           "write_config"]
