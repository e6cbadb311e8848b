"""Audit: whole games replayed against results derived by hand from the rules.

Every file in ``games/`` is one small game for one rule sentence of
``seed/rules.ru.txt`` or one docs/rules.md decision (``_rule``), with the reasoning (``_why``)
and the result a host would announce (``expected``): per phase who was hanged, who died
and of what, who was saved and by whom, the commissar's results and the rejected requests;
then the winner (W2). Lists are compared without order where order means nothing.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from referee import cli
from referee.cli import app
from referee.config.game import NightRules
from referee.core.errors import GameError
from referee.host.replay import replay

GAMES = Path(__file__).parent / "games"
GAME_FILES = sorted(GAMES.glob("*.json"))


def load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def deaths(entry: dict[str, Any]) -> dict[str, list[str]]:
    return {d["player"]: sorted(d["causes"]) for d in entry.get("deaths", [])}


def as_host_reads(entry: dict[str, Any]) -> dict[str, Any]:
    """One phase reduced to what the rules decide, with the order of lists dropped."""
    out: dict[str, Any] = {"deaths": deaths(entry)}
    out["rejected"] = Counter((r["actor"], r["action"]) for r in entry.get("rejected", []))
    if "day" in entry:
        out["day"] = entry["day"]
        out["hanged"] = entry.get("hanged")
    else:
        out["night"] = entry["night"]
        out["saved"] = sorted((s["player"], s["by"]) for s in entry.get("saved", []))
        out["checks"] = sorted((c["by"], c["target"], c["result"]) for c in entry.get("checks", []))
    return out


def test_there_is_a_game_per_rule() -> None:
    assert len(GAME_FILES) >= 40
    rules = {tag for f in GAME_FILES for tag in load(f)["_rule"].split()}
    for rule in ("N1", "N3", "N4", "N5", "N6", "N7", "N8", "N9", "N10", "N11", "N12", "N14",
                 "V4", "V5", "V6", "W1", "W2"):
        assert rule in rules, f"no audit game for {rule}"


@pytest.mark.parametrize("path", GAME_FILES, ids=[f.stem for f in GAME_FILES])
def test_game(path: Path) -> None:
    game = load(path)
    expected = game["expected"]
    got = replay(game, NightRules())
    assert len(got["phases"]) == len(expected["phases"]), game["_why"]
    for want, have in zip(expected["phases"], got["phases"], strict=True):
        assert as_host_reads(have) == as_host_reads(want), f"{path.stem}: {game['_why']}"
    assert got["winner"] == expected["winner"], f"{path.stem}: {game['_why']}"


# ------------------------------------------------------------------ through the CLI

CLI_GAMES = [
    "every_action_at_the_guest_fails",
    "ambush_every_visitor_dies",
    "testament_passes_to_the_next_voter",
    "town_wins",
]


def game_file(stem_end: str) -> Path:
    (path,) = [f for f in GAME_FILES if f.stem.split("_", 1)[1] == stem_end]
    return path


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    # No referee.toml in the working folder: the replay uses the docs/rules.md defaults.
    monkeypatch.chdir(tmp_path)
    return CliRunner()


@pytest.mark.parametrize("name", CLI_GAMES)
def test_cli_replay_json_is_the_library_result(runner: CliRunner, name: str) -> None:
    path = game_file(name)
    result = runner.invoke(app, ["replay", str(path), "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == replay(load(path), NightRules())


def test_cli_replay_text_tells_the_night_in_russian(runner: CliRunner) -> None:
    result = runner.invoke(app, ["replay", str(game_file("town_wins")), "--format", "text"])
    assert result.exit_code == 0, result.output
    text = result.output
    assert "День 1:" in text and "на виселице: Don" in text
    assert "Ночь 1:" in text and "Погибает: Анна" in text and "Погибает: Jack" in text
    assert "Игра окончена: победа — мирные жители." in text


def test_cli_replay_text_flags_an_ignored_change(runner: CliRunner) -> None:
    result = runner.invoke(app, ["replay", str(game_file("change_once_per_game")), "-f", "text"])
    assert result.exit_code == 0, result.output
    assert "только один раз за игру" in result.output
    assert "Игра продолжается." in result.output


# ------------------------------------------------------------------ bad input (N14, GameError)

BASE = [{"nick": "Анна", "role": "citizen"}, {"nick": "Don", "role": "mafia", "clan": "A"},
        {"nick": "Jack", "role": "maniac"}, {"nick": "Борис", "role": "citizen"},
        {"nick": "Вера", "role": "citizen"}]

BAD_GAMES: list[tuple[str, Any, str]] = [
    ("not an object", [1, 2], "объект JSON"),
    ("no players", {"phases": []}, "players"),
    ("no phases", {"players": BASE}, "phases"),
    ("unknown role", {"players": [{"nick": "A", "role": "wizard"}], "phases": []}, "wizard"),
    ("player without role", {"players": [{"nick": "A"}], "phases": []}, "role"),
    ("repeated nick", {"players": BASE + BASE[:1], "phases": []}, "дважды"),
    ("phase with day and night", {"players": BASE, "phases": [{"day": 1, "night": 1}]},
     "ровно один"),
    ("phase number not a number", {"players": BASE, "phases": [{"night": "one"}]},
     "целое положительное число"),
    ("unknown action", {"players": BASE, "phases": [
        {"night": 1, "requests": [{"actor": "Jack", "action": "stab", "target": "Анна"}]}]},
     "stab"),
    ("unknown nick in a request", {"players": BASE, "phases": [
        {"night": 1, "requests": [{"actor": "Jack", "action": "kill", "target": "Боб"}]}]},
     "Боб"),
    ("request without actor", {"players": BASE, "phases": [
        {"night": 1, "requests": [{"action": "kill", "target": "Анна"}]}]}, "actor"),
    ("unknown nick in a vote", {"players": BASE, "phases": [
        {"day": 1, "votes": [{"voter": "Анна", "target": "Боб"}]}]}, "Боб"),
    ("vote without target", {"players": BASE, "phases": [
        {"day": 1, "votes": [{"voter": "Анна"}]}]}, "target"),
    ("unknown phase key", {"players": BASE, "phases": [{"night": 1, "kills": []}]}, "kills"),
    ("hanging a dead player", {"players": BASE, "phases": [
        {"night": 1, "requests": [{"actor": "Jack", "action": "kill", "target": "Анна"}]},
        {"day": 2, "hanged": "Анна", "voters": []}]}, "уже мёртв(а)"),
    ("removed is not a list", {"players": BASE, "phases": [{"day": 1, "removed": 5}]},
     "removed"),
    ("removed is a bare nick", {"players": BASE, "phases": [{"day": 1, "removed": "Анна"}]},
     "removed"),
    ("votes is not a list", {"players": BASE, "phases": [{"day": 1, "votes": "Анна"}]},
     "votes"),
    ("requests is not a list", {"players": BASE, "phases": [{"night": 1, "requests": {}}]},
     "requests"),
    ("night 2 before day 1", {"players": BASE, "phases": [{"night": 2}, {"day": 1}]},
     "не по порядку"),
    ("night 1 twice", {"players": BASE, "phases": [{"night": 1}, {"night": 1}]}, "не по порядку"),
    ("a day skipped", {"players": BASE, "phases": [{"day": 1}, {"night": 1}, {"night": 2}]},
     "не по порядку"),
    ("a phase after the maniac has won", {"players": BASE[:1] + BASE[2:4], "phases": [
        {"night": 1, "requests": [{"actor": "Jack", "action": "kill", "target": "Анна"}]},
        {"day": 2, "votes": [{"voter": "Борис", "target": "Jack"}]}]},
     "игра уже закончилась после фазы «ночь 1» (победитель: maniac)"),
]


@pytest.mark.parametrize(("data", "says"), [(d, s) for _, d, s in BAD_GAMES],
                         ids=[n for n, _, _ in BAD_GAMES])
def test_bad_replay_is_a_clear_game_error(data: Any, says: str) -> None:
    with pytest.raises(GameError) as info:
        replay(data, NightRules())
    assert says.lower() in str(info.value).lower()


def test_request_by_a_dead_player_is_rejected_with_a_reason() -> None:
    """N14: a dead actor's request is a rule matter, not broken input: rejected, with why."""
    data = {"players": BASE, "phases": [
        {"night": 1, "requests": [{"actor": "Jack", "action": "kill", "target": "Анна"}]},
        {"day": 2, "votes": []},
        {"night": 2, "requests": [{"actor": "Анна", "action": "check", "target": "Don"}]}]}
    (rejected,) = replay(data, NightRules())["phases"][2]["rejected"]
    assert rejected["actor"] == "Анна" and "мёртв" in rejected["reason"]


@pytest.mark.parametrize(
    "content",
    ["{not json", "", "[", "\x00\x01", "[" * 100_000 + "]" * 100_000,
     '{"players": [], "phases": [{"night": ' + "9" * 5000 + "}]}"],
    ids=["broken", "empty", "unclosed", "binary", "nested too deep", "number too long"],
)
def test_cli_bad_file_is_one_line_without_traceback(
    content: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "game.json"
    path.write_text(content, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["referee", "replay", str(path)])
    with pytest.raises(SystemExit) as info:
        cli.main()
    assert info.value.code != 0
    err = capsys.readouterr().err
    assert err.startswith("referee: ") and "Traceback" not in err


@pytest.mark.parametrize(("data", "says"), [(d, s) for _, d, s in BAD_GAMES[:1] + BAD_GAMES[-3:]],
                         ids=[n for n, _, _ in BAD_GAMES[:1] + BAD_GAMES[-3:]])
def test_cli_bad_game_is_one_line_without_traceback(
    data: Any, says: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "argv", ["referee", "replay", str(path)])
    with pytest.raises(SystemExit):
        cli.main()
    err = capsys.readouterr().err
    assert err.startswith("referee: ") and says.lower() in err.lower() and "Traceback" not in err
