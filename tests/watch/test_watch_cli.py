"""``referee watch`` on the command line: options refused in clear words, the one question
asked at the start (and only when it posts or sends), plain lines when piped."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.clock import FakeClock
from support.phpbb.game_board import GameBoard
from typer.testing import CliRunner, Result
from watch_helpers import replies

import referee.host.watch
from referee.cli import app
from referee.core.errors import RefereeError
from referee.host.watch.lock import WatchLock

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "fixtures" / "demo" / "referee.toml"


@pytest.fixture
def run(config: Path, db: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch):  # noqa: ANN201
    """``referee --config … --db … --now START watch ARGS`` with the test's clock."""
    def fake_clock(start: object) -> FakeClock:
        if start is not None:
            clock.t = start  # type: ignore[assignment]
        return clock

    monkeypatch.setattr(referee.host.watch, "make_clock", fake_clock)

    def invoke(*args: str, start: str = "2026-11-20 21:30", input: str | None = None,
               cfg: Path = config) -> Result:
        return CliRunner().invoke(app, ["--config", str(cfg), "--db", str(db), "--now", start,
                                        "watch", *args], input=input)
    return invoke


def error_of(res: Result) -> RefereeError:
    assert isinstance(res.exception, RefereeError), res.output
    return res.exception


REFUSED = [
    (["--every", "1"], "--every 1: чаще раза в 2 минуты форум не читается"),
    (["--post"], "--post публикует то, что делают --tally-at-deadline"),
    (["--tally-at-deadline", "--send"], "--send отправляет итоги ночи"),
]


@pytest.mark.parametrize(("args", "said"), REFUSED, ids=[r[1][:20] for r in REFUSED])
def test_options_are_refused_in_clear_words(run, args: list[str], said: str) -> None:  # noqa: ANN001
    e = error_of(run(*args))
    assert e.exit_code == 5 and str(e).startswith(said)


def test_the_question_is_asked_once_at_the_start_and_no_posts_nothing(
    run, board: GameBoard  # noqa: ANN001
) -> None:
    res = run("--tally-at-deadline", "--remind", "60", "--post", "--until", "2026-11-20 23:00",
              input="n\n")
    assert res.exit_code == 0, res.output
    assert "публиковать в теме подсчёт голосов после дедлайна дня" in res.stderr
    assert "публиковать за 1 ч до дедлайна напоминание" in res.stderr
    assert "Ближайшее: подсчёт голосов дня 1 — 20.11 22:00." in res.stderr
    assert "Так и делать? [д/Н]" in res.stderr
    assert "Отменено: наблюдение не начато." in res.stderr
    assert board.log == [] and replies(board) == []


def test_yes_at_the_start_then_the_deadline_post_goes_without_a_question(
    run, board: GameBoard  # noqa: ANN001
) -> None:
    res = run("--tally-at-deadline", "--post", "--until", "2026-11-20 23:00", input="y\n")
    assert res.exit_code == 0, res.output
    assert res.stderr.count("[д/Н]") == 1
    assert len(replies(board)) == 1
    # Piped: plain lines, each with its time; the status line as «· …».
    lines = res.stdout.splitlines()
    assert "21:30 наблюдение за игрой «Мафия у камина» началось" in lines
    assert any(line.startswith("· день 1 · до конца 30 мин (20.11 22:00)") for line in lines)
    assert "22:01 день 1: итог записан — на виселицу — Лиса; отправлено: 1" in res.stdout


def test_a_watch_that_only_tells_asks_nothing(run, board: GameBoard) -> None:  # noqa: ANN001
    res = run("--until", "2026-11-20 22:30")
    assert res.exit_code == 0 and res.stderr == ""
    assert "22:00 дедлайн дня 1 прошёл: ночь 1 до 21.11 10:00" in res.stdout


def test_posting_from_saved_pages_is_refused_before_the_watch_starts(run) -> None:  # noqa: ANN001
    e = error_of(run("--tally-at-deadline", "--post", "--yes", cfg=DEMO))
    assert e.exit_code == 2 and "для отправки нужен живой форум" in str(e)


def test_a_second_watch_is_refused(run, db: Path) -> None:  # noqa: ANN001
    with WatchLock(db):
        e = error_of(run("--until", "2026-11-20 22:30"))
    assert e.exit_code == 5 and "уже запущен referee watch" in str(e)
