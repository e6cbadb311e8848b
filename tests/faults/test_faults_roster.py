"""Issue 26 — the roster checked against the topic.

A nick mistyped in ``[players]`` («Nika77» for the forum's «Nika-77») made a player who
writes every day «не участвует в игре»: ``check`` said nothing, ``tally`` published her as
«не проголосовала» and dropped her vote, ``check-activity`` removed her publicly. Now
``sync``, ``check`` and ``tally`` name both nicks with the fix; ``tally`` and
``check-activity`` record and post nothing while the doubt stands, unless the host
confirms with ``--roster-ok``; the host part names the probable player of every vote
«не участвует в игре».
"""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from fault_helpers import Runner, referee, write_config
from support.phpbb.board import Board

from referee.config.forum import ForumConfig
from referee.config.game import Config, Player, load_config
from referee.core.kernel import Post
from referee.game.safety import probable_player, roster_doubts, stored_roster_doubts
from referee.store import Store

AFTER_DAY = "2026-11-21 23:00"
AFTER_TURN = "2026-11-22 12:00"


@pytest.fixture
def mistyped(board: Board, tmp_path: Path) -> Path:
    config = write_config(board, tmp_path)
    text = config.read_text(encoding="utf-8").replace('"Nika-77" =', '"Nika77" =')
    config.write_text(text, encoding="utf-8")
    return config


def results(db: Path) -> list[tuple[str, int]]:
    with closing(sqlite3.connect(db)) as conn:
        return conn.execute("SELECT phase, number FROM results ORDER BY phase").fetchall()


def test_sync_and_check_name_both_nicks_with_the_fix(mistyped: Path, run: Runner) -> None:
    synced = referee(mistyped, "sync", db=run.db)
    assert synced.returncode == 0, synced.stderr
    said = synced.stdout + synced.stderr
    assert "«Nika-77», которого нет в [players]" in said and "игрок «Nika77»" in said
    assert '[aliases] "Nika77" = ["Nika-77"]' in said
    checked = referee(mistyped, "check", db=run.db)
    assert "«Nika-77», которого нет в [players]" in checked.stdout + checked.stderr


def test_the_stored_check_finds_what_the_check_of_every_post_finds(
        mistyped: Path, run: Runner) -> None:
    """Issue 30: the commands check the roster on the store grouped by author (no post
    loaded, the same cost at any game length): the doubts of every stored post."""
    assert referee(mistyped, "sync", db=run.db).returncode == 0
    config = load_config(mistyped)
    with Store.open(run.db) as store:
        found = stored_roster_doubts(config, store)
        assert found == roster_doubts(config, store.posts())
    assert [(d.author, d.player) for d in found] == [("Nika-77", "Nika77")]


def test_tally_records_and_posts_nothing_while_the_roster_is_in_doubt(
        mistyped: Path, run: Runner) -> None:
    shown = referee(mistyped, "--now", AFTER_DAY, "tally", db=run.db)
    assert shown.returncode == 0, shown.stderr
    assert "СОСТАВ ПОД СОМНЕНИЕМ" in shown.stdout and "Итог записан" not in shown.stdout
    # The host part names the probable player of every vote «не участвует в игре».
    assert "не участвует в игре): вероятно, это игрок «Nika77»" in shown.stdout
    assert results(run.db) == []
    posted = referee(mistyped, "--now", AFTER_DAY, "tally", "--post", "--yes", db=run.db)
    assert posted.returncode != 0
    assert "не опубликован" in posted.stderr and "--roster-ok" in posted.stderr
    assert results(run.db) == []


def test_check_activity_removes_nobody_while_the_roster_is_in_doubt(
        mistyped: Path, run: Runner) -> None:
    done = referee(mistyped, "--now", AFTER_TURN, "check-activity", "--turn", "1",
                   "--post", "--yes", db=run.db)
    assert done.returncode != 0 and "--roster-ok" in done.stderr
    assert ("activity", 1) not in results(run.db)


def test_the_host_confirms_the_roster(mistyped: Path, run: Runner) -> None:
    done = referee(mistyped, "--now", AFTER_DAY, "tally", "--roster-ok", db=run.db)
    assert done.returncode == 0, done.stderr
    assert "Итог записан" in done.stdout and ("day", 1) in results(run.db)


# --------------------------------------------------------------------------- the rule

def post(pid: int, author: str, text: str = "Думаю, что день будет долгим") -> Post:
    from datetime import UTC, datetime
    return Post(pid, author, None, datetime(2026, 11, 20, 18, pid, tzinfo=UTC), "", text)


CONFIG = Config(path=Path("referee.toml"), host="Ведущий", forum=ForumConfig(),
                players=(Player("Nika77"), Player("Лиса"), Player("Kotik")))


@pytest.mark.parametrize(
    ("authors", "doubts"),
    [
        # who wrote in the topic                  → (outsider, listed player, votes)
        (["Nika77", "Лиса", "Kotik"], []),                      # all as listed
        (["Nika-77", "Лиса", "Kotik"], [("Nika-77", "Nika77", 0)]),   # punctuation
        (["Nika78", "Лиса", "Kotik"], [("Nika78", "Nika77", 0)]),     # one edit
        (["Nikа77", "Лиса", "Kotik"], []),                      # look-alike «а»: same nick
        (["Ведущий", "Nika77", "Лиса", "Kotik"], []),            # the host is no outsider
        (["Nika77", "Лиса", "Kotik", "Гость"], []),              # a guest who chats
        (["Nika77", "Лиса", "Kotik", "Kotik2"], []),             # Kotik posted: no doubt
    ],
)
def test_which_authors_put_the_roster_in_doubt(authors: list[str],
                                               doubts: list[tuple[str, str, int]]) -> None:
    found = roster_doubts(CONFIG, [post(i, a) for i, a in enumerate(authors)])
    assert [(d.author, d.player, d.votes) for d in found] == doubts


def test_an_outsider_whose_posts_look_like_votes_is_a_doubt() -> None:
    posts = [post(1, "Nika77"), post(2, "Лиса"), post(3, "Kotik"),
             post(4, "Гость", "Мой голос — Лиса, она молчит весь день")]
    (doubt,) = roster_doubts(CONFIG, posts)
    assert (doubt.author, doubt.player, doubt.votes) == ("Гость", None, 1)
    assert "похожи на голоса" in doubt.text() and "--roster-ok" in doubt.text()
    assert probable_player(CONFIG, "Nika_77") == "Nika77"
    assert probable_player(CONFIG, "Гость") is None
