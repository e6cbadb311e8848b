"""W2, N15.14 at the command line: the host runs his usual commands on the evening after the
night that ended the game (``AT_NIGHT``: the town wins after Night 1; Day 3's deadline has
passed). Every count, resolution and decision after the end is refused in words (exit code
2, like every refusal), nothing is recorded and nothing is posted or sent; the phase that
ended the game, and the views of the game (status, history, export), keep working.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from ending_games import (
    AT_NIGHT,
    HANGED,
    dump,
    exit_code,
    played,
    referee,
    refusal,
)

import referee.host.publish as publishing

OVER = "Игра окончена после ночи 1: победа — мирные жители."

# The command the host types → what is not done. Post 2000 is Bob's vote of Day 2.
AFTER_THE_END = [
    (("tally",), "День 3 не считается."),
    (("tally", "--day", "2", "--post", "--yes"), "День 2 не считается."),
    (("tally", "--day", "2", "--as-of", "2000"), "День 2 не считается."),
    (("votes", "--day", "2"), "День 2 не считается."),
    (("resolve-night",), "Ночь 3 не разбирается."),
    (("resolve-night", "--night", "2", "--post", "--send", "--yes"), "Ночь 2 не разбирается."),
    (("resolve-night", "--night", "2", "--dry-run"), "Ночь 2 не разбирается."),
    (("check-activity",), "Ход 2 не проверяется."),
    (("check-activity", "--turn", "1"), "Ход 1 не проверяется."),
    (("check-activity", "--turn", "3", "--post", "--yes"), "Ход 3 не проверяется."),
    (("vote", "set", "2000", "--target", "Bob"),
     "Решение по сообщению 2000 (день 2) не записано."),
    (("vote", "reject", "2000"), "Решение по сообщению 2000 (день 2) не записано."),
    (("hang", "--day", "2", "Bob"), "Решение об итоге дня 2 не записано."),
    (("hang", "--day", "3", "--nobody"), "Решение об итоге дня 3 не записано."),
    (("remove", "Bob", "--after-day", "2"), "Выбывание после дня 2 не записано."),
    (("excuse", "Bob", "--turn", "2"), "Предупреждение на ход 2 не записано."),
    (("action", "add", "--night", "2", "Nin", "убийство", "Bob"),
     "Заявка на ночь 2 не записана."),
    (("action", "drop", "--night", "2", "Nin"), "Отмена заявок на ночь 2 не записана."),
    (("action", "import", "{requests}"), "Файл ночь2.toml не записан: в нём заявки на ночь 2."),
    (("tally", "--day", "2", "--deadline", "2026-11-21 20:00"), "Дедлайн дня 2 не записан."),
    (("tally", "--day", "4", "--start", "2026-11-23 09:00", "--deadline", "2026-11-23 19:00"),
     "Дедлайн дня 4 не записан."),
]

REQUESTS = """\
[[request]]
night = 2
actor = "Nin"
action = "kill"
target = "Bob"
"""


@pytest.fixture
def posted(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """What the commands handed to the forum (``referee.host.publish.run``): nothing is sent."""
    calls: list[Any] = []

    def run(config: object, store: object, messages: list[Any], **kw: object) -> None:
        calls.append([(m.phase, m.body) for m in messages])

    monkeypatch.setattr(publishing, "run", run)
    return calls


@pytest.fixture
def game(tmp_path: Path) -> tuple[Path, Path]:
    return played(AT_NIGHT, tmp_path / "game")


@pytest.mark.parametrize(("args", "refused"), AFTER_THE_END,
                         ids=[" ".join(a) for a, _ in AFTER_THE_END])
def test_w2_a_command_after_the_end_is_refused_and_nothing_recorded_or_sent(
    game: tuple[Path, Path], posted: list[Any], tmp_path: Path, args: tuple[str, ...],
    refused: str,
) -> None:
    config, db = game
    requests = tmp_path / "ночь2.toml"
    requests.write_text(REQUESTS, encoding="utf-8")
    before = dump(db)
    message = refusal(referee(config, db, *(a.format(requests=requests) for a in args)))
    assert message.startswith(f"{OVER} {refused}\n  → итог игры — referee status")
    assert dump(db) == before
    assert posted == []


def test_w2_the_night_that_ended_the_game_still_answers_the_same(
    game: tuple[Path, Path], posted: list[Any]
) -> None:
    config, db = game
    first = referee(config, db, "resolve-night", "--night", "1", "--format", "json")
    again = referee(config, db, "resolve-night", "--night", "1", "--format", "json")
    assert first.exit_code == again.exit_code == 0
    assert first.stdout == again.stdout and '"winner": "town"' in first.stdout
    before = dump(db)
    res = referee(config, db, "resolve-night", "--night", "1", "--post", "--yes")
    assert res.exit_code == 0, res.output
    # The morning report once more (sending it twice is for referee.host.publish to refuse).
    [[(phase, body)]] = posted
    assert phase == "night:1:report" and body.rstrip().endswith(
        "Игра окончена: победа — мирные жители.[/b]")
    assert dump(db) == before


def test_w2_the_day_that_ended_the_game_still_answers_the_same(
    tmp_path: Path, posted: list[Any]
) -> None:
    config, db = played(HANGED, tmp_path / "hanged", record=False)
    first = referee(config, db, "tally", "--day", "1", "--post", "--yes")  # records it
    assert first.exit_code == 0, first.output
    [[(phase, body)]] = posted
    assert phase == "day:1:tally" and "Игра окончена: победа — мирные жители." in body
    again = referee(config, db, "tally", "--day", "1", "--format", "json")
    assert '"hanged": "Don"' in again.stdout and '"winner": "town"' in again.stdout
    message = refusal(referee(config, db, "resolve-night", "--night", "1", "--post", "--yes"))
    assert message.startswith("Игра окончена после дня 1: победа — мирные жители. Ночь 1 не "
                              "разбирается.")
    assert len(posted) == 1


def test_w2_a_decision_up_to_the_end_is_still_the_hosts(tmp_path: Path) -> None:
    """The host undoes the hanging that ended the game: recorded, and the game goes on —
    the night after it and the next day count again."""
    config, db = played(HANGED, tmp_path / "hanged")
    assert exit_code(referee(config, db, "tally", "--day", "2")) == 2
    res = referee(config, db, "hang", "--day", "1", "--nobody", "--reason", "мультиаккаунт")
    assert res.exit_code == 0, res.output
    night = referee(config, db, "resolve-night", "--night", "1", "--format", "json")
    assert night.exit_code == 0, night.output
    assert '"winner": null' in night.stdout
    day = referee(config, db, "tally", "--day", "2", "--format", "json")
    assert day.exit_code == 0, day.output


def test_w2_the_views_of_the_game_keep_working(game: tuple[Path, Path], tmp_path: Path) -> None:
    config, db = game
    before = dump(db)
    status = referee(config, db, "status")
    assert status.exit_code == 0 and "Сейчас: Игра окончена: победа — мирные жители." in \
        status.stdout
    for args in (("history", "--game"), ("history", "--day", "1"), ("history",),
                 ("export", str(tmp_path / "игра.json"))):
        res = referee(config, db, *args)
        assert res.exit_code == 0, (args, res.output)
    assert (tmp_path / "игра.json").exists()
    later = referee(config, db, "history", "--day", "2")
    assert exit_code(later) == 5 and str(later.exception).startswith(
        f"{OVER} Дня 2 в игре не было.")
    assert dump(db) == before


def test_w2_status_lists_nothing_after_the_end(tmp_path: Path) -> None:
    """The game ended by Day 1's hanging: neither the night after it nor turn 1's activity
    check is an open item (the game refuses both)."""
    config, db = played(HANGED, tmp_path / "hanged")
    out = referee(config, db, "status").stdout
    assert "Игра окончена: победа — мирные жители." in out
    assert "Ещё не сделано" not in out, out
    for args in (("resolve-night", "--night", "1"), ("check-activity", "--turn", "1")):
        assert exit_code(referee(config, db, *args)) == 2


def test_w2_without_an_end_the_same_commands_count_on(tmp_path: Path) -> None:
    """The same game up to Night 1, but the ninja's kill never came: Don lives, the game
    goes on, and Day 2 is counted and recorded as ever."""
    config, db = played(AT_NIGHT, tmp_path / "on", record=False)
    res = referee(config, db, "action", "drop", "--night", "1", "Nin")
    assert res.exit_code == 0, res.output
    assert referee(config, db, "resolve-night", "--night", "1").exit_code == 0
    day = referee(config, db, "tally", "--day", "2", "--format", "json")
    assert day.exit_code == 0, day.output
    assert '"recorded": true' in day.stdout
