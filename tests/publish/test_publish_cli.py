"""The host's commands with --post/--send on the demo game («Мафия: игра 2», the real
phpBB 3.3 pages): what is shown, what is asked, what reaches the forum, what a re-run does.

The game database is the demo synced from its saved pages; the config is the same game on a
live board (``[forum] url``, no snapshot), which is the respx board of
support/phpbb/posting_board.py.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.clock import FakeTime
from support.phpbb.posting_board import PASSWORD, TOPIC_URL, PostingBoard, make_poster_for
from typer.testing import CliRunner, Result

import referee.host.publish as publish_module
from referee.cli import app
from referee.core.errors import RefereeError
from referee.store import Store

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "fixtures" / "demo" / "referee.toml"
HOST_ONLY = "ТОЛЬКО ДЛЯ ВЕДУЩЕГО"


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo game synced once from its saved pages (topic + the host's PMs)."""
    from referee.game import Game

    path = tmp_path_factory.mktemp("demo") / "template.db"
    game = Game.open(DEMO, path)
    game.sync()
    game.close()
    return path


@pytest.fixture
def live(tmp_path: Path, demo_db: Path, board: PostingBoard, clock: FakeTime,
         monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """CLI arguments for the demo game on the live (fake) board, with a fresh copy of the
    synced database; the poster starts logged out, so it logs in with the password."""
    text = DEMO.read_text(encoding="utf-8")
    lines = [ln for ln in text.splitlines() if not ln.startswith("snapshot")]
    text = "\n".join(f'url = "{TOPIC_URL}"' if ln.startswith("url =") else ln for ln in lines)
    (tmp_path / "referee.toml").write_text(text + "\n", encoding="utf-8")
    shutil.copy(demo_db, tmp_path / "game.db")
    monkeypatch.setattr(publish_module, "sender_factory", lambda cfg, db: make_poster_for(
        cfg.forum, clock, logged_in=False, cookie_file=tmp_path / "game.cookies"))
    yield ["--config", str(tmp_path / "referee.toml"), "--db", str(tmp_path / "game.db")]


def invoke(args: list[str], input: str | None = None) -> Result:
    return CliRunner().invoke(app, args, input=input, catch_exceptions=False)


def invoke_error(args: list[str]) -> tuple[Result, RefereeError]:
    """A run that ends in the project's error (``referee.cli.main`` prints ``str(error)``
    and exits with ``error.exit_code``)."""
    res = CliRunner().invoke(app, args)
    assert isinstance(res.exception, RefereeError), res.output
    return res, res.exception


def paste_of(stderr: str) -> str:
    """The text to send as the listing shows it once (stderr): between its title line and
    the closing rule. stdout keeps only the host-only part then."""
    listing = stderr.split("━" * 24 + " ", 1)[1]
    return listing.split("\n", 1)[1].split("\n" + "━" * 24, 1)[0].strip()


DAY1 = ["--now", "2026-11-22 09:00", "tally", "--day", "1", "--offline"]
NIGHT1 = ["--now", "2026-11-22 10:30", "resolve-night", "--night", "1", "--offline"]


# ------------------------------------------------------------------------------ tally --post

def test_tally_post_shows_the_paste_asks_and_posts_exactly_it(
    live: list[str], board: PostingBoard, tmp_path: Path
) -> None:
    res = invoke([*live, *DAY1, "--post"], input="д\n")
    assert res.exit_code == 0, res.output
    (sent,) = board.replies
    paste = paste_of(res.stderr)
    assert "[b]Mr. Smith — 6[/b]" in paste
    assert sent["message"].strip() == paste                  # the paste part, nothing else
    assert HOST_ONLY not in sent["message"] and "V3" not in sent["message"]
    # The listing and the question (stderr) show that text and not the host-only part;
    # stdout shows the host-only part only: the text to send appears once.
    assert HOST_ONLY not in res.stderr and res.output.count("[b]Mr. Smith — 6[/b]") == 1
    assert res.stdout.lstrip().startswith("━") and "V3" in res.stdout
    assert "Отправить 1 сообщ. в тему? [д/Н]" in res.stderr
    assert "Отправлено: Сообщение в тему (t=3) — подсчёт голосов, день 1 (#147)" in res.stderr
    # The password went into the login form only: not on screen, not in the database.
    assert board.login_posts[0]["password"] == PASSWORD
    assert PASSWORD not in res.output
    assert PASSWORD.encode() not in (tmp_path / "game.db").read_bytes()
    with Store.open(tmp_path / "game.db") as store:
        (record,) = store.sent()
    assert (record.kind, record.recipient, record.forum_id) == ("post", "topic:3", 147)


def test_tally_post_again_sends_nothing_and_says_when_it_was_sent(
    live: list[str], board: PostingBoard
) -> None:
    invoke([*live, *DAY1, "--post", "--yes"])
    res = invoke([*live, *DAY1, "--post", "--yes"])
    assert res.exit_code == 0
    assert board.log.count("POST reply") == 1
    assert "уже отправлено" in res.stderr and "(#147)" in res.stderr


def test_answering_no_posts_and_records_nothing(live: list[str], board: PostingBoard,
                                                tmp_path: Path) -> None:
    res = invoke([*live, *DAY1, "--post"], input="n\n")
    assert res.exit_code == 0
    assert board.log == []                                   # not even a login
    assert "Отменено: ничего не отправлено." in res.stderr
    with Store.open(tmp_path / "game.db") as store:
        assert store.sent() == []


def test_yes_posts_without_a_question(live: list[str], board: PostingBoard) -> None:
    res = invoke([*live, *DAY1, "--post", "--yes"])
    assert res.exit_code == 0 and "[д/Н]" not in res.stderr
    assert len(board.replies) == 1


def test_dry_run_shows_the_post_and_sends_and_records_nothing(
    live: list[str], board: PostingBoard, tmp_path: Path
) -> None:
    res = invoke([*live, *DAY1, "--post", "--dry-run"])
    assert res.exit_code == 0
    assert board.log == []
    assert "[b]Mr. Smith — 6[/b]" in paste_of(res.stderr)
    assert "--dry-run: ничего не отправлено и не записано." in res.stderr
    with Store.open(tmp_path / "game.db") as store:
        assert store.sent() == []
        assert store.result("day", 1) is None                 # the hanging is not recorded


def test_a_snapshot_config_cannot_post_and_says_so(tmp_path: Path, demo_db: Path,
                                                   board: PostingBoard) -> None:
    shutil.copy(demo_db, tmp_path / "game.db")
    _, error = invoke_error(["--config", str(DEMO), "--db", str(tmp_path / "game.db"), *DAY1,
                             "--post", "--yes"])
    assert error.exit_code == 2
    assert "для отправки нужен живой форум" in str(error) and "[forum] url" in str(error)
    # Seeing what would be sent needs no forum at all.
    res = invoke(["--config", str(DEMO), "--db", str(tmp_path / "game.db"), *DAY1, "--post",
                  "--dry-run"])
    assert res.exit_code == 0 and "--dry-run: ничего не отправлено" in res.stderr
    assert board.log == []


# ------------------------------------------------------------------------------ night

def test_resolve_night_posts_the_morning_report_and_sends_the_private_results(
    live: list[str], board: PostingBoard
) -> None:
    res = invoke([*live, *NIGHT1, "--post", "--send", "--yes"])
    assert res.exit_code == 0, res.output
    (report,) = board.replies
    assert report["message"].strip() == paste_of(res.stderr)
    assert "[b]Утро после ночи 1[/b]" in report["message"] and HOST_ONLY not in report["message"]
    # N12 to the commissar, N10 to the ninja; ids known from their posts in the topic.
    assert [to for to, _ in board.stored_pms] == [67, 74]
    assert "[b]Тень_Ночи[/b] — Мафия." in board.stored_pms[0][1]
    assert {pm["subject"] for pm in board.pms} == {"Ночь 1: результат"}


def test_a_failure_between_two_pms_and_the_rerun_sends_only_the_rest(
    live: list[str], board: PostingBoard
) -> None:
    refused = ("Некоторые пользователи не могут быть добавлены, так как они отключили "
               "получение личных сообщений.")
    board.pm_answers = [lambda form: board.store_pm(form), board.form_again(refused, "compose")]
    res, error = invoke_error([*live, *NIGHT1, "--send", "--yes"])
    assert error.exit_code == 3
    assert "Отправлено 1 из 2; не отправлено: ЛС для Ира-Ира" in res.stderr
    assert "отключили получение личных сообщений" in str(error)
    assert [to for to, _ in board.stored_pms] == [67]

    res = invoke([*live, *NIGHT1, "--send", "--yes"])
    assert res.exit_code == 0, res.output
    assert [to for to, _ in board.stored_pms] == [67, 74]   # only the rest
    assert "уже отправлено" in res.stderr and "ЛС для Полковник" in res.stderr


def test_a_night_that_is_not_over_is_not_sent(live: list[str], board: PostingBoard) -> None:
    _, error = invoke_error([*live, "--now", "2026-11-22 02:00", "resolve-night", "--night",
                             "1", "--offline", "--send", "--yes"])
    assert error.exit_code == 5
    assert "ночь 1 ещё не закончилась" in str(error)
    assert board.log == []


# ------------------------------------------------------------------------------ activity, deal

def test_check_activity_posts_the_public_part_only(live: list[str], board: PostingBoard) -> None:
    res = invoke([*live, "--now", "2026-11-24 10:30", "check-activity", "--turn", "2",
                  "--offline", "--post", "--yes"])
    assert res.exit_code == 0, res.output
    (sent,) = board.replies
    message = sent["message"]
    assert message.strip() == paste_of(res.stderr)
    assert "[code]" in res.stdout and "Покидают игру" not in res.stdout
    assert HOST_ONLY not in message and "[code]" not in message


def test_deal_send_sends_every_role_pm_once(live: list[str], board: PostingBoard) -> None:
    # The demo's [players] types every role: dealing over them takes --force (issue 12).
    res = invoke([*live, "deal", "--seed", "7", "--force", "--send", "--yes"])
    assert res.exit_code == 0, res.output
    assert len(board.pms) == 14 and board.add_to == []       # ids known from the topic
    assert all(pm["subject"].startswith("Ваша роль: ") for pm in board.pms)
    again = invoke([*live, "deal", "--seed", "7", "--force", "--send", "--yes"])
    assert again.exit_code == 0 and len(board.pms) == 14
    _, error = invoke_error([*live, "deal", "--seed", "8", "--force", "--send", "--yes"])
    assert error.exit_code == 2 and "роли уже разосланы игрокам (--seed 7)" in str(error)
