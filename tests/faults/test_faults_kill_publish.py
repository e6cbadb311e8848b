"""Issue 26 — exactly once to the forum, proven by killing ``tally --post`` at random.

A served phpBB board on 127.0.0.1 (:mod:`support.phpbb.board`) holds the topic; the host's replies
land on it. Each trial publishes the day's count (sometimes with a second post) and is
killed at a seeded random point — before the intent is stored, after it and before the
forum is asked, after the forum took the post but before its answer came back, after the
answer but before the record, after the record — and a rerun (which may be killed again)
follows until one run finishes. Then every message is counted on the board: each must be
there exactly once. The crash is injected in-process (a ``BaseException`` where the
process would die); the rerun opens the database again, as a new process would, and looks
on the board through the real sync.
"""

from __future__ import annotations

import html
import random
import re
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from fault_helpers import Runner
from support.phpbb.board import DAY1, HOST, Board, BoardPost, make_posts

import referee.host.publish as publish_module
from referee.host.outgoing import Outgoing
from referee.host.publish import live_look, publish
from referee.store import Store

TRIALS = 40
SEED = 26
STAGES = ("before_intent", "before_send", "forum_took_it", "before_record", "after_record")


class Killed(BaseException):
    """The process dies here: nothing after this point of the run happens."""


class Clock:
    """The forum's and the run's time: a minute later at each look."""

    def __init__(self) -> None:
        self.t = DAY1 + timedelta(days=3)

    def __call__(self) -> datetime:
        self.t += timedelta(minutes=1)
        return self.t


def shown_as_forum(body: str) -> tuple[str, str]:
    """(html, text) of a reply as phpBB shows it: BBCode made markup, lines broken."""
    text = re.sub(r"\[/?[a-z*]+(?:=[^\]]*)?\]", "", body).strip()
    return html.escape(text, quote=False).replace("\n", "<br>\n"), text


class BoardPoster:
    """The host's replies on the served board; ``kill`` names the stage to die at."""

    def __init__(self, board: Board, clock: Clock, kill: str | None) -> None:
        self.board, self.clock, self.kill = board, clock, kill

    def reply(self, message: str, subject: str | None = None) -> int | None:
        if self.kill == "before_send":
            raise Killed
        markup, text = shown_as_forum(message)
        with self.board.lock:
            post_id = self.board.posts[-1].post_id + 1
            self.board.posts.append(BoardPost(post_id, HOST[0], HOST[1], self.clock(),
                                              markup, text))
        if self.kill == "forum_took_it":
            raise Killed                     # the forum has it; its answer never came back
        return post_id

    def send_pm(self, to: str, message: str, subject: str,
                user_id: int | None = None) -> int | None:
        raise AssertionError("no PMs in this test")

    def close(self) -> None:
        pass


def killing(store: Store, stage: str | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``store`` die at the stages that are the store's."""
    set_meta, mark_sent = store.set_meta, store.mark_sent

    def set_meta_or_die(key: str, value: str) -> None:
        if stage == "before_intent" and key.startswith(publish_module.INTENT):
            raise Killed
        set_meta(key, value)

    def mark_sent_or_die(*args, **kw):  # noqa: ANN002, ANN003, ANN202
        if stage == "before_record":
            raise Killed
        record = mark_sent(*args, **kw)
        if stage == "after_record":
            raise Killed
        return record

    monkeypatch.setattr(store, "set_meta", set_meta_or_die)
    monkeypatch.setattr(store, "mark_sent", mark_sent_or_die)


def one_run(run: Runner, board: Board, clock: Clock, messages: list[Outgoing],
            stage: str | None) -> bool:
    """One process's run of ``tally --post``; False when it was killed."""
    with Store.open(run.db) as store, pytest.MonkeyPatch.context() as mp:
        killing(store, stage, mp)
        try:
            publish(messages, store, open_sender=lambda: BoardPoster(board, clock, stage),
                    confirm=None, echo=lambda line: None, now=clock,
                    look=live_look(run.config(), store))
        except Killed:
            return False
    return True


def count(message: Outgoing, board: Board) -> int:
    _, text = shown_as_forum(message.body)
    return sum(p.author == HOST[0] and p.text == text for p in board.posts)


def test_killed_at_random_points_every_post_is_on_the_forum_exactly_once(
        tmp_path: Path) -> None:
    rnd = random.Random(SEED)
    board = Board(posts=make_posts(7), pms=[])
    clock = Clock()
    kills: dict[str, int] = dict.fromkeys(STAGES, 0)
    with board.running():
        run = Runner(board, tmp_path / "game.db")
        run.topic()
        sent: list[Outgoing] = []
        for trial in range(TRIALS):
            messages = [message(run, trial, rnd)]
            if rnd.random() < 0.3:
                messages.append(message(run, trial, rnd, second=True))
            stage: str | None = rnd.choice(STAGES)
            while not one_run(run, board, clock, messages, stage):
                kills[stage] += 1                                 # type: ignore[index]
                stage = rnd.choice(STAGES) if rnd.random() < 0.3 else None
            sent += messages
        counts = [count(m, board) for m in sent]
    duplicates = sum(c > 1 for c in counts)
    losses = sum(c == 0 for c in counts)
    print(f"\nkill test: {sum(kills.values())} kills {kills}, {len(sent)} messages, "
          f"{duplicates} duplicates, {losses} losses")
    assert sum(kills.values()) >= 30
    assert all(kills.values())                                    # every stage was hit
    assert (duplicates, losses) == (0, 0)


def message(run: Runner, trial: int, rnd: random.Random, *, second: bool = False) -> Outgoing:
    """The day's count of a trial (its own numbers, so every trial is its own message)."""
    votes = rnd.randint(2, 9)
    body = (f"[b]Итоги дня {trial + 1}[/b]\nЛиса — {votes}: Ёжик, Kotik\n"
            f"На виселицу отправляется Лиса.\n" if not second else
            f"[b]Проверка активности, ход {trial + 1}[/b]\nПропал без вести: Снежок ({votes})\n")
    from referee.host.outgoing import game_ref, topic_ref

    config = run.config()
    return Outgoing("post", game_ref(config), f"day:{trial + 1}:{'act' if second else 'tally'}",
                    topic_ref(config), body, label="подсчёт голосов")

