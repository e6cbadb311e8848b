"""Issue 29 item 12: ``init`` asks the time zone again after a typo and understands «МСК»;
«неизвестный» is spelt right; ``--db`` given a folder is told in Russian."""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

import pytest
from demo_run import DEMO, ROOT
from typer.testing import CliRunner

from referee.cli import app, main
from referee.cli import setup as setup_commands
from referee.core.errors import RequestRefused
from referee.host.init_game import check_timezone

PAGES = ROOT / "fixtures" / "demo" / "pages"


@pytest.mark.parametrize("typed", ["МСК", "мск", "Москва", "msk", " Europe/Moscow "])
def test_moscow_time_as_a_host_names_it(typed: str) -> None:
    assert check_timezone(typed) == "Europe/Moscow"


def test_a_wrong_zone_is_told_with_the_right_spelling() -> None:
    with pytest.raises(RequestRefused) as caught:
        check_timezone("Марс/Олимп")
    assert "неизвестный часовой пояс" in caught.value.message
    assert "не известный" not in caught.value.message


def test_init_asks_the_zone_again_after_a_typo(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(setup_commands, "_interactive", lambda: True)
    config = tmp_path / "новая.toml"
    res = CliRunner().invoke(app, ["--config", str(config), "init", str(PAGES)],
                             input="Марс/Олимп\nмск\n")
    assert res.exit_code == 0, res.output
    assert res.stderr.count("Часовой пояс форума") == 2
    assert "неизвестный часовой пояс" in res.stderr and "Попробуйте ещё раз" in res.stderr
    written = tomllib.loads(config.read_text(encoding="utf-8"))
    assert written["forum"]["timezone"] == "Europe/Moscow"


def test_db_given_a_folder_is_told_in_russian(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "argv", ["referee", "--config", str(DEMO), "--db", str(tmp_path),
                                      "tally", "--offline"])
    with pytest.raises(SystemExit) as done:
        main()
    err = capsys.readouterr().err
    assert done.value.code == 4
    assert f"referee: {tmp_path} — это папка, а не файл базы игры" in err
    assert f"--db {tmp_path / 'игра.db'}" in err
    assert "unable to open" not in err
