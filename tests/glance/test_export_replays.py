"""`referee export` gives a file that `referee replay` plays to the live game's results.

Each scenario is a moment of the demo game «Мафия: игра 2» with what the host did by then;
the live game's hangings, deaths, checks and winner (as ``tally`` and ``resolve-night``
report them) are held side by side with the replay of the exported file. Then the same on
a game of the benchmark's kind (thirty players, a thousand posts a day, the tied days of
its end with ``tie = "nobody"``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from glance_bench import BenchGame
from glance_demo import DEMO, at, demo, play_as_host
from typer.testing import CliRunner

from referee.cli import app
from referee.game import Game
from referee.host.chronicle import winner_token
from referee.host.export import export_game
from referee.host.replay import replay

Setup = Callable[[Game], Any]

SCENARIOS: list[tuple[str, str, str | None, Setup | None]] = [
    # (what happened, the moment, the host played every step up to, the host's decision)
    ("the host recorded every phase", "2026-11-24 12:00", "2026-11-24 12:00", None),
    ("nothing recorded: every phase counted from the posts and PMs", "2026-11-24 12:00",
     None, None),
    ("day 2 still going", "2026-11-23 12:00", "2026-11-23 12:00", None),
    ("night 1 still going: only day 1 is over", "2026-11-22 09:00", None, None),
    ("the host hangs Шерлок on day 1 over the count", "2026-11-24 12:00", "2026-11-24 12:00",
     lambda g: g.set_hanged(1, "Шерлок", "решение ведущего")),
    ("the host hangs nobody on day 2", "2026-11-24 12:00", None,
     lambda g: g.set_hanged(2, None)),
    ("the host drops Kotik's blast of night 1", "2026-11-24 12:00", None,
     lambda g: g.drop_action(1, "Kotik", reason="после дедлайна")),
    ("the host accepts Гроза's vote without a reason (V3): her later vote is then a change",
     "2026-11-24 12:00", None, lambda g: g.override_vote("accept", 85)),
    ("the host removes Снежок after day 1 (A3)", "2026-11-24 12:00", None,
     lambda g: g.remove("Снежок", 1, "замена не пришла")),
    ("the host adds a kill for the maniac on night 2", "2026-11-24 12:00", "2026-11-24 12:00",
     lambda g: g.add_action(2, "Гроза", "kill", target="Ёжик")),
]


def live_results(game: Game) -> dict[str, Any]:
    """The live game's results as its own commands report them."""
    out: dict[str, Any] = {"hanged": {}, "left": {}, "deaths": {}, "checks": {}, "winner": None}
    for d in game.schedule:
        if game.now < d.deadline and game.store.result("day", d.day) is None:
            break
        day = game.tally_day(d.day, record=False)
        hanged = day.recorded_hanged if day.recorded_at is not None else day.tally.hanged
        out["hanged"][d.day] = hanged
        out["left"][d.day] = sorted(r["nick"] for r in day.removals)
        out["winner"] = winner_token(day.winner)
        if out["winner"]:
            break
        try:
            end = game.night_window(d.day)[1]
        except Exception:  # noqa: BLE001 - a night without an end is not over
            break
        if game.now < end and game.store.result("night", d.day) is None:
            break
        night = game.resolve_night(d.day, record=False)
        out["deaths"][d.day] = {x.player: sorted(x.causes) for x in night.outcome.deaths}
        out["checks"][d.day] = [(c.by, c.target, c.result) for c in night.outcome.checks]
        out["winner"] = winner_token(night.winner)
        if out["winner"]:
            break
    return out


def replayed_results(data: dict[str, Any], game: Game) -> dict[str, Any]:
    played = replay(json.loads(json.dumps(data)), game.config.night)
    out: dict[str, Any] = {"hanged": {}, "left": {}, "deaths": {}, "checks": {},
                           "winner": played["winner"]}
    for p in played["phases"]:
        if "day" in p:
            out["hanged"][p["day"]] = p["hanged"]
            out["left"][p["day"]] = sorted(d["player"] for d in p["deaths"]
                                           if d["causes"] != ["hanged"])
        else:
            out["deaths"][p["night"]] = {d["player"]: sorted(d["causes"]) for d in p["deaths"]}
            out["checks"][p["night"]] = [(c["by"], c["target"], c["result"])
                                         for c in p["checks"]]
    return out


@pytest.mark.parametrize(("story", "moment", "played_until", "decision"), SCENARIOS,
                         ids=[s[0] for s in SCENARIOS])
def test_the_demo_exported_replays_to_the_live_results(
        tmp_path: Path, story: str, moment: str, played_until: str | None,
        decision: Setup | None) -> None:
    game = demo(tmp_path / "game.db")
    if played_until:
        game = play_as_host(game, played_until)
    if decision:
        decision(game)
    game = at(game, moment)
    data, _ = export_game(game)
    assert replayed_results(data, game) == live_results(at(game, moment)), story


def test_the_fully_played_demo_in_figures(tmp_path: Path) -> None:
    game = play_as_host(demo(tmp_path / "game.db"), "2026-11-24 12:00")
    data, events = export_game(game)
    got = replayed_results(data, game)
    assert got["hanged"] == {1: "Mr. Smith", 2: "Лиса"}
    assert got["left"] == {1: [], 2: ["Мотылёк"]}
    assert got["deaths"] == {1: {"Kotik": ["kamikaze:Kotik"], "Тень_Ночи": ["kamikaze:Kotik"],
                                 "Nika-77": ["ninja:Ира-Ира"]}, 2: {}}
    assert got["checks"][1] == [("Полковник", "Тень_Ночи", "mafia")]
    # The necromancer's naming was sent by day 1: the replay has it in day 1 (N9).
    day1 = data["phases"][0]
    assert [r["action"] for r in day1["requests"]] == ["protect"]
    assert len(day1["votes"]) == 12
    # Counted and not counted: 12 + 7 posts of day 1, 4 + 6 of day 2.
    assert [sum(e.day == d for e in events) for d in (1, 2)] == [19, 10]


def test_the_cli_writes_a_file_that_referee_replay_reads(tmp_path: Path) -> None:
    game = play_as_host(demo(tmp_path / "game.db"), "2026-11-24 12:00")
    game.close()
    base = ["--config", str(DEMO), "--db", str(tmp_path / "game.db"), "--now",
            "2026-11-24 12:00"]
    out = CliRunner().invoke(app, [*base, "export", str(tmp_path / "g.json"), "--offline"])
    assert out.exit_code == 0, out.output
    assert (tmp_path / "g.votes.csv").exists()
    played = CliRunner().invoke(app, ["replay", str(tmp_path / "g.json")])
    assert played.exit_code == 0, played.output
    result = json.loads(played.stdout)
    assert [p.get("hanged") for p in result["phases"] if "day" in p] == ["Mr. Smith", "Лиса"]


# ---------------------------------------------------------------------- the benchmark's size

def test_a_benchmark_game_exported_replays_to_the_live_results(bench: BenchGame) -> None:
    game = bench.at(bench.end)
    data, events = export_game(game)
    got = replayed_results(data, game)
    assert got == live_results(bench.at(bench.end))
    assert got["hanged"] == bench.plan.hanged
    assert {n: set(d) for n, d in got["deaths"].items()} == {
        n: ({k} if k else set()) for n, k in bench.plan.killed.items()}
    # Tied days hang nobody by the game's rule, not the replay's «first to reach»: the file
    # says so with "hanged": null.
    tied = [p for p in data["phases"] if p.get("day") in (8, 9)]
    assert [p.get("hanged", "?") for p in tied] == [None, None]
    assert len({e.post_id for e in events}) == len(events) > 9 * 25


def test_the_vote_csv_has_every_vote_event_and_no_formula(tmp_path: Path) -> None:
    import csv
    import io
    from datetime import UTC, datetime

    from referee.host.export import VoteEvent
    from referee.render.context import Context
    from referee.render.export import CSV_HEADERS, votes_csv

    game = play_as_host(demo(tmp_path / "game.db"), "2026-11-24 12:00")
    _, events = export_game(game)
    rows = list(csv.reader(io.StringIO(votes_csv(events, Context.of(game.config))),
                           delimiter=";"))
    assert tuple(rows[0]) == CSV_HEADERS
    assert len(rows) == 1 + len(events) == 1 + 29
    first_counted = next(r for r in rows[1:] if r[7] == "да")
    assert first_counted[:8] == ["1", "2026-11-20 19:22:01", "2026-11-20T16:22:01+00:00", "83",
                                 "Шерлок", "Mr. Smith", "Mr. Smith", "да"]
    assert first_counted[10].endswith("viewtopic.php?p=83#p83")
    at = datetime(2026, 11, 20, 16, tzinfo=UTC)
    nasty = VoteEvent(1, at, 1, "=HYPERLINK(\"http://x\")", "+1", "@Bob", False, "V2", "-")
    row = next(csv.reader(io.StringIO(votes_csv([nasty]).splitlines()[1]), delimiter=";"))
    assert row[4:7] == ["'=HYPERLINK(\"http://x\")", "'+1", "'@Bob"] and row[9] == "'-"
