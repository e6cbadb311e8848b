"""docs/rules.md A3 (revised 2026-12-04, issue 27 items 3 and 4), as scenario tables: when a
player who leaves for activity is out of the game.

- An A2 removal (missed votes) takes effect at the end of Day N, after its tally, and is in
  that day's summary — worked out at the deadline, whether ``check-activity`` has recorded
  the turn or not.
- An A1 removal (a silent turn N) takes effect when turn N ends, at the start of Day N+1: it
  is announced with the morning summary of night N, the player does not vote on Day N+1 and
  votes for him that day are votes for a player out of the game (V5). With
  ``silent_leave = "end_of_day"`` it takes effect at the end of Day N+1, after its tally.
"""

from __future__ import annotations

import sys
from contextlib import closing
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from referee.game import Game
from referee.render.morning import morning_report

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "night"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "glance"))
from dbgame import build, day_start  # noqa: E402
from glance_demo import at, demo  # noqa: E402


def _players(spec: str) -> list[dict[str, str]]:
    out = []
    for item in spec.split(","):
        nick, _, role = item.strip().partition("=")
        role, _, clan = (role or "citizen").partition("/")
        out.append({"nick": nick, "role": role} | ({"clan": clan} if clan else {}))
    return out


def _day(n: int, *votes: str) -> dict[str, object]:
    """``_day(2, "Dan Bob → Cid", "Kit → Bob")``: each voter's post for the target."""
    out = []
    for line in votes:
        voters, target = line.split("→")
        out += [{"voter": v, "target": target.strip()} for v in voters.split()]
    return {"day": n, "votes": out}


SILENT_DAN = {
    "players": _players("Ann, Bob, Cid, Dan, Eve, Kit=mafia/A, Max=mafia/A"),
    "phases": [
        _day(1, "Ann Bob Cid Eve Kit Max → Ann"),        # Dan writes nothing in turn 1 (A1)
        {"night": 1, "requests": []},
        _day(2, "Dan Bob → Cid", "Cid Eve → Dan", "Kit Max → Bob"),
    ],
    "silent": {1: ["Dan"]},
}
"""Dan is silent in turn 1; on Day 2 he votes and two players vote for him."""

A3_SILENT = """
setting      Day 2's counted votes                       Dan's votes (V5)          Dan leaves
morning      Bob→Cid Kit→Bob Max→Bob                      Dan→Cid Cid→Dan Eve→Dan   start 2
end_of_day   Dan→Cid Bob→Cid Cid→Dan Eve→Dan Kit→Bob Max→Bob  -                     end 2
"""


def _rows(table: str) -> list[tuple[str, set[str], set[str], tuple[str, int]]]:
    out = []
    for line in table.strip().splitlines()[1:]:
        setting, rest = line.split(maxsplit=1)
        left, _, leaves = rest.rpartition("  ")
        kind, day = leaves.split()
        counted, _, rejected = left.strip().partition("  ")
        out.append((setting, set(counted.split()), set(rejected.split()) - {"-"},
                    (kind, int(day))))
    return out


def _silent_game(folder: Path, setting: str) -> tuple[Path, Path]:
    config, db = build(SILENT_DAN, folder)
    config.write_text(config.read_text(encoding="utf-8") + f'silent_leave = "{setting}"\n',
                      encoding="utf-8")
    return config, db


def _open(config: Path, db: Path, now: datetime) -> Game:
    return Game.open(config, db, clock=lambda: now)


@pytest.mark.parametrize(("setting", "counted", "rejected", "leaves"), _rows(A3_SILENT),
                         ids=[r[0] for r in _rows(A3_SILENT)])
def test_a3_a_silent_turn_ends_the_game_of_the_player_at_the_next_morning(
    tmp_path: Path, setting: str, counted: set[str], rejected: set[str],
    leaves: tuple[str, int],
) -> None:
    config, db = _silent_game(tmp_path, setting)
    after_day2 = day_start(2) + timedelta(hours=11)
    with closing(_open(config, db, after_day2)) as g:
        t = g.tally_day(2, record=False).tally
        assert {f"{v.voter}→{v.target}" for v in t.votes} == counted
        v5 = {f"{r.voter}→{r.target}" for r in t.rejected if r.rule == "V5"}
        assert v5 == rejected
        # Who leaves when: not at Day 2's start (he votes), or already out then.
        start2, _ = g.state_before_day(2)
        assert start2.is_alive("Dan") == (leaves != ("start", 2))
        after2, _ = g.state_before_night(2)
        assert not after2.is_alive("Dan")
        # check-activity says when: the recorded flag carries the moment.
        report = g.check_activity(1, record=False).report
        (flag,) = [f for f in report.removed if f.nick == "Dan"]
        assert flag.effect == leaves
        when = ("с началом дня 2 (в утренней сводке ночи 1)" if leaves == ("start", 2)
                else "в конце дня 2, после подсчёта голосов")
        assert flag.takes_effect == when


def test_a3_the_morning_summary_names_the_silent_players_who_leave(tmp_path: Path) -> None:
    # The demo: turn 2 ends at night 2's deadline (no day 3 yet); Мисс Марпл, Снежок and
    # Ира-Ира wrote nothing in it. Nothing recorded by check-activity: worked out.
    game = at(demo(tmp_path / "game.db"), "2026-11-24 10:30")
    result = game.resolve_night(2, record=False)
    assert [r["nick"] for r in result.leaving] == ["Мисс Марпл", "Снежок", "Ира-Ира"]
    text = morning_report(result.outcome, result.morning_state, game.config.night,
                          result.leaving)
    assert "С началом дня 3 покидают игру (ни одного сообщения в теме за ход 2):" in text
    assert "• [b]Снежок[/b] — Мирный житель" in text
    assert "A1" not in text   # a public text: no rule codes
    for nick in ("Мисс Марпл", "Снежок", "Ира-Ира"):
        assert not result.morning_state.is_alive(nick)
        assert result.outcome.state.is_alive(nick)


@pytest.mark.parametrize("recorded", ["no", "yes"])
def test_a3_the_days_summary_carries_the_missed_vote_removal_worked_out(
    tmp_path: Path, recorded: str,
) -> None:
    # Мотылёк missed the votes of days 1 and 2 (A2): he leaves at the end of day 2, and the
    # summary of `tally --day 2` names him at the deadline — computed, before any
    # check-activity (issue 27, item 3), and the same once the turn is recorded.
    game = demo(tmp_path / "game.db")
    if recorded == "yes":
        at(game, "2026-11-24 10:30").check_activity(2)
    result = at(game, "2026-11-23 22:05").tally_day(2, record=False)
    assert [(r["nick"], "A2" in r["rule"]) for r in result.removals] == [("Мотылёк", True)]
    state, _ = at(game, "2026-11-23 22:05").state_before_night(2)
    assert not state.is_alive("Мотылёк")
