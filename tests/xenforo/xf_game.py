"""A whole 3-day game of forum Mafia on a XenForo 2 board, day by day, in Russian.

Nine players (three mafia of the clan «Стая», a doctor, a commissar, four citizens) and the
host «Ведущий мафии». What a host counts, by the rules (docs/rules.md V1–V6):

- Day 1: Лиса 4 (Ёжик, Марго — her vote is in a spoiler, Комиссар Рекс — an edited post,
  Пилот — ``#e25041``), Ёжик 3 (Лиса, Бармен — XF2's editor red, Тень), Бармен 1 (Снежок —
  ``[color=red]``; he quoted Ёжик's vote). Not counted: Пилот's quote of Лиса's vote (a
  quote), Доктор Хаус (no reason, V3, then late), the host (V5), a vote in a code box, the
  signatures' red «мой голос». Лиса is hanged.
- Night 1: the mafia shoot Комиссар Рекс (the doctor heals Ёжик): he dies.
- Day 2: Бармен 4 (Ёжик, Снежок, Пилот, Марго — she edits her vote to Тень after it was
  seen: the first text counts, V4), Ёжик 2 (Бармен, Тень); Доктор Хаус votes for the dead
  Комиссар Рекс (V5). Бармен is hanged.
- Night 2: the mafia shoot Доктор Хаус (the doctor heals Марго): he dies.
- Day 3: Тень 4 (Ёжик, Снежок, Марго, Пилот — his first post was green, his second red),
  Пилот 1 (Тень). Тень is hanged: the town wins.
"""

from __future__ import annotations

from support.moscow import msk
from support.xenforo.board import Member, XfBoard
from support.xenforo.conversations import XfConversation, XfMessage
from support.xenforo.pages import XF_RED, XfPost, XfThread, code, quote, red, spoiler

HOST = "Ведущий мафии"
PASSWORD = "Пароль-ведущего-18"
PEOPLE = {HOST: 1001, "Лиса": 1002, "Бармен": 1003, "Тень": 1004, "Доктор Хаус": 1005,
          "Комиссар Рекс": 1006, "Ёжик": 1007, "Снежок": 1008, "Марго": 1009, "Пилот": 1010}
GAME_THREAD = (69072, "mafija-119", "Мафия №119: Стая")
VOTE_THREAD = (69073, "golosovanie-mafija-119", "Мафия №119 — голосование")
FILLER = ("Я пока присматриваюсь, мнения ещё нет.", "Интересно, кто же первым ошибётся.",
          "Тишина в теме подозрительная, все затаились.", "Ночью было скучно, ждём итогов.",
          "Читаю тему и делаю пометки.", "Кто-нибудь заметил, как быстро все согласились?")

CONFIG = """
[game]
title = "Мафия №119"
host = "Ведущий мафии"
start = "2026-11-20 17:00"

[forum]
url = "{url}"
{vote}
timezone = "Europe/Moscow"
username = "Ведущий мафии"
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
night_deadline = "2026-11-26 10:00"

[players]
"Лиса" = {{ role = "mafia", clan = "Стая" }}
"Бармен" = {{ role = "mafia", clan = "Стая" }}
"Тень" = {{ role = "mafia", clan = "Стая" }}
"Доктор Хаус" = "doctor"
"Комиссар Рекс" = "commissar"
"Ёжик" = "citizen"
"Снежок" = "citizen"
"Марго" = "citizen"
"Пилот" = "citizen"
"""


def vote(reason: str, nick: str, colour: str = XF_RED) -> str:
    return f"{reason}<br />\nМой голос – {red(nick, colour)}"


class Game119:
    """The game's truth, added to the board day by day (``day1()``, ``night1()``, …)."""

    def __init__(self, board: XfBoard, *, vote_thread: bool = False) -> None:
        self.board = board
        self.next_post = 5000
        self.next_message = 7000
        self.game = XfThread(*GAME_THREAD)
        self.votes = XfThread(*VOTE_THREAD) if vote_thread else self.game
        board.threads[self.game.thread_id] = self.game
        if vote_thread:
            board.threads[self.votes.thread_id] = self.votes
        self.filler = 0

    # -- helpers

    def post(self, who: str, when: str, html: str, *, thread: XfThread | None = None) -> XfPost:
        self.next_post += 1
        p = XfPost(self.next_post, who, PEOPLE[who], msk(when), html)
        (thread or self.votes).posts.append(p)
        return p

    def talk(self, when: str, who: str | None = None) -> XfPost:
        """A discussion post in the game thread (no vote)."""
        self.filler += 1
        names = [n for n in PEOPLE if n != HOST]
        author = who or names[self.filler % len(names)]
        return self.post(author, when, FILLER[self.filler % len(FILLER)], thread=self.game)

    def pm(self, cid: int, title: str, people: list[str], who: str, when: str,
           text: str) -> None:
        c = self.board.conversations.get(cid)
        if c is None:
            c = XfConversation(cid, "hod", title, [(n, PEOPLE[n]) for n in people])
            self.board.conversations[cid] = c
        self.next_message += 1
        c.messages.append(XfMessage(self.next_message, who, PEOPLE[who], msk(when), text))

    # -- the days

    def day1(self) -> None:
        self.post(HOST, "2026-11-20 18:00", "Игра начинается! <b>День 1</b>. Голосуем до "
                  "21.11 22:00 по МСК: «Мой голос – Ник», ник красным.", thread=self.game)
        ezh = self.post("Ёжик", "2026-11-20 18:30", vote(
            "Лиса весь вечер уходит от прямых вопросов и меняет версии.", "Лиса"))
        self.post("Снежок", "2026-11-20 19:10", quote(
            self.board.prefix, "Ёжик", PEOPLE["Ёжик"], ezh.post_id,
            "Мой голос – " + red("Лиса")) + "\nНе соглашусь: Бармен подозрительно рьяно "
            "защищает Лису и путается.<br />\nМой голос – " + red("Бармен", "red"))
        fox = self.post("Лиса", "2026-11-20 19:40", vote(
            "Ёжик нападает без единого аргумента, типичная тактика мафии.", "Ёжик"))
        for hour in range(20, 24):
            self.talk(f"2026-11-20 {hour}:15")
        for hour in range(8, 12):
            self.talk(f"2026-11-21 {hour:02d}:20")
        self.post("Марго", "2026-11-21 12:00", "Моё решение под спойлером, аргументы простые: "
                  "Лиса путается в показаниях весь день.\n"
                  + spoiler("Голос", "Мой голос – " + red("Лиса")))
        self.post("Бармен", "2026-11-21 13:00", "Мой голос – " + red("Ёжик")
                  + " — он явно отвлекает внимание от настоящей мафии.")
        self.post("Тень", "2026-11-21 14:00", vote(
            "Ёжик ведёт город не туда и слишком агрессивен.", "Ёжик"))
        self.post("Пилот", "2026-11-21 15:00", quote(
            self.board.prefix, "Лиса", PEOPLE["Лиса"], fox.post_id,
            "Мой голос – " + red("Ёжик")) + "\nНе верю ни единому её слову.")
        self.post("Доктор Хаус", "2026-11-21 16:00", "Мой голос – " + red("Лиса"))
        rex = self.post("Комиссар Рекс", "2026-11-21 17:00", vote(
            "Лиса слишком нервничает, её версия про вечер не сходится.", "Лиса"))
        rex.edited_at = msk("2026-11-21 17:20")
        self.post("Пилот", "2026-11-21 18:00", vote(
            "Подумал ещё раз: Лиса врёт про ночные разговоры.", "Лиса", "#e25041"))
        self.post(HOST, "2026-11-21 20:00", "Напоминаю: голосование до 22:00! Пример: "
                  "Мой голос – " + red("Ёжик", "red"))
        self.post("Снежок", "2026-11-21 20:30", "Формат для новичков, скопируйте:"
                  + code("Мой голос – Тень"))
        self.post("Доктор Хаус", "2026-11-21 22:05", vote(
            "Передумал и аргументирую: Бармен весь день юлил.", "Бармен"))

    def night1(self) -> None:
        mafia = ["Бармен", HOST, "Тень"]
        self.pm(301, "Ночь 1 — мафия", mafia, "Бармен", "2026-11-22 00:30",
                "Стреляем в Комиссар Рекс, исполнитель Тень.")
        self.pm(301, "Ночь 1 — мафия", mafia, HOST, "2026-11-22 00:40", "Принято.")
        self.pm(302, "Доктор", ["Доктор Хаус", HOST], "Доктор Хаус", "2026-11-22 01:00",
                "Лечу Ёжик")
        self.pm(303, "Комиссар", ["Комиссар Рекс", HOST], "Комиссар Рекс", "2026-11-22 01:30",
                "Проверяю Бармен")
        self.pm(304, "Болтовня", ["Снежок", HOST], "Снежок", "2026-11-21 23:00",
                "Привет! Скучно без роли, как думаешь, кто мафия?")

    def day2(self) -> None:
        self.post(HOST, "2026-11-22 10:05", "Ночью погиб <b>Комиссар Рекс</b>. День 2, "
                  "голосуем до 23.11 22:00.", thread=self.game)
        self.post("Ёжик", "2026-11-22 11:00", vote(
            "Бармен защищал Лису весь первый день, это не случайно.", "Бармен"))
        self.post("Снежок", "2026-11-22 12:00", vote(
            "Поддерживаю: Бармен явно из той же команды.", "Бармен"))
        self.post("Бармен", "2026-11-22 13:00", vote(
            "Ёжик снова гонит волну на невиновных, остановите его.", "Ёжик"))
        self.post("Тень", "2026-11-22 14:00", vote(
            "Согласна с Барменом, Ёжик топит мирных.", "Ёжик"))
        self.post("Доктор Хаус", "2026-11-22 15:00", vote(
            "Комиссар перед смертью намекал мне на него.", "Комиссар Рекс"))
        for hour in range(16, 22):
            self.talk(f"2026-11-22 {hour}:30")
        self.post("Пилот", "2026-11-23 10:00", vote(
            "Бармен голосовал против Ёжика вместе с Лисой, всё сходится.", "Бармен"))
        self.post("Марго", "2026-11-23 11:00", vote(
            "Думаю, Бармен — мафия, слишком складно врёт.", "Бармен"))

    def edit_margo_day2(self) -> None:
        """Марго changes her day-2 vote to Тень after the host's tool saw it."""
        post = next(p for p in self.votes.posts
                    if p.author == "Марго" and p.at == msk("2026-11-23 11:00"))
        post.html = vote("Думаю, Тень — мафия, слишком складно врёт.", "Тень")
        post.edited_at = msk("2026-11-23 19:00")

    def night2(self) -> None:
        mafia = ["Бармен", HOST, "Тень"]
        self.pm(301, "Ночь 1 — мафия", mafia, "Тень", "2026-11-24 01:00",
                "Стреляем в Доктор Хаус, исполнитель Тень.")
        self.pm(302, "Доктор", ["Доктор Хаус", HOST], "Доктор Хаус", "2026-11-24 01:10",
                "Лечу Марго")

    def day3(self) -> None:
        self.post(HOST, "2026-11-24 10:05", "Ночью погиб <b>Доктор Хаус</b>. День 3, "
                  "голосуем до 25.11 22:00.", thread=self.game)
        self.post("Ёжик", "2026-11-24 11:00", vote(
            "Тень голосовала вместе с Барменом, она последняя из стаи.", "Тень"))
        self.post("Снежок", "2026-11-24 12:00", vote(
            "Всё очевидно: Тень прикрывала обоих напарников.", "Тень"))
        self.post("Тень", "2026-11-24 13:00", vote(
            "Пилот слишком уверен в себе, это подозрительно.", "Пилот"))
        self.post("Пилот", "2026-11-24 14:00", vote(
            "Тень последняя из стаи, без сомнений.", "Тень", "rgb(97, 189, 109)"))
        self.post("Пилот", "2026-11-24 15:00", vote(
            "Исправляюсь, теперь красным: Тень последняя из стаи.", "Тень"))
        self.talk("2026-11-24 18:00")
        self.post("Марго", "2026-11-25 10:00", vote(
            "Присоединяюсь: Тень весь день молчала о главном.", "Тень"))


def make_board(**kw: object) -> XfBoard:
    members = {n: Member(n, uid) for n, uid in PEOPLE.items()}
    members[HOST] = Member(HOST, PEOPLE[HOST], PASSWORD)
    return XfBoard(members=members, **kw)  # type: ignore[arg-type]


def config_text(board: XfBoard, *, vote_thread: bool = False) -> str:
    url = board.base + XfThread(*GAME_THREAD).route
    vote_url = f'vote_url = "{board.base}{XfThread(*VOTE_THREAD).route}"' if vote_thread else ""
    return CONFIG.format(url=url, vote=vote_url)


