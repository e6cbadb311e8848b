"""Cold commands of two versions of the code on the same games: how a change moved them.

``python benchmarks/bench_cold.py --against f62f5ab`` takes ``referee/`` and ``adapters/``
of that commit (``git archive``), syncs the benchmark game (:mod:`game_plan`) at each
length with the code of this checkout, and then runs ``tally``, ``resolve-night`` and
``check-activity`` of the last turn cold (nothing recorded) under each version: in-process
(a fresh interpreter opens the game and runs the command; the time taken from opening the
game to its end) and as ``referee`` processes, the sizes of one version in rounds (one run
each per round, both versions in every round, the order turning, at least 5 rounds). Times
are medians; the growth from one length to the next, and the old version's time over this
checkout's, are medians of per-round ratios of CPU time.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_game import COMMANDS, MOSCOW, _copy_db, _first_sync  # noqa: E402
from game_plan import make_plan  # noqa: E402
from timing import (  # noqa: E402
    RUNS,
    Took,
    load,
    median,
    ratio,
    referee_command,
    rounds,
    run_process,
)

IN_PROCESS = """
import sys, time
from datetime import datetime
import referee
from referee.game import Game
config, db, now, name, n, code = sys.argv[1:7]
assert referee.__file__.startswith(code), (referee.__file__, code)
now, n = datetime.fromisoformat(now), int(n)
w0, c0 = time.perf_counter(), time.process_time()
g = Game.open(config, db, clock=lambda: now)
op = {"tally": g.tally_day, "night": g.resolve_night, "activity": g.check_activity}[name]
op(n)
g.close()
print(time.perf_counter() - w0, time.process_time() - c0)
"""


def code_of(commit: str, into: Path) -> Path:
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "referee", "adapters"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


@dataclass(frozen=True, slots=True)
class SyncedGame:
    days: int
    config: Path
    db: Path
    end: datetime
    """The moment the commands run at: an hour after the last night."""


def synced_games(root: Path, lengths: list[int]) -> list[SyncedGame]:
    """The benchmark game at each length, synced by ``referee sync`` into ``root/dN``."""
    games = []
    for days in sorted(lengths):
        plan = make_plan(days)
        folder = root / f"d{days}"
        folder.mkdir()
        synced = _first_sync(plan, folder, "synced")
        games.append(SyncedGame(days, folder / "referee.toml", Path(synced["db"]),
                                plan.days[-1].night_deadline + timedelta(hours=1)))
    return games


def run(code: Path, game: SyncedGame, name: str, mode: str) -> Took:
    db = _copy_db(game.db, game.db.with_name("work.db"))
    env = {"PYTHONPATH": str(code)}
    if mode == "in":
        # Run from the game's folder: the current directory comes first on sys.path, and
        # a checkout's own referee/ there would win over PYTHONPATH.
        out = subprocess.run([sys.executable, "-c", IN_PROCESS, str(game.config), str(db),
                              game.end.isoformat(), name, str(game.days), str(code)],
                             env={**os.environ, **env}, cwd=game.db.parent, check=True,
                             capture_output=True, text=True).stdout.split()
        return Took(float(out[-2]), float(out[-1]))
    command, _, option = COMMANDS[name]
    local = game.end.astimezone(MOSCOW).strftime("%Y-%m-%d %H:%M")
    took, _ = run_process([*referee_command(), "--config", str(game.config), "--db", str(db),
                           "--now", local, command, option, str(game.days), "--offline"], env)
    return took


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", required=True, help="the commit to compare with")
    ap.add_argument("--days", type=int, nargs="*", default=[10, 20, 40])
    ap.add_argument("--runs", type=int, default=RUNS)
    args = ap.parse_args(argv)
    runs = max(RUNS, args.runs)
    print(f"# {load()} (before)", flush=True)
    with tempfile.TemporaryDirectory(prefix="bench_cold_") as tmp:
        root = Path(tmp)
        versions = {args.against: code_of(args.against, root / "old"), "this checkout": ROOT}
        games = synced_games(root, args.days)
        labels = list(versions)
        pairs = list(zip(games, games[1:], strict=False))
        head = " | ".join(f"{g.days} days" for g in games)
        growth = " | ".join(f"{b.days}/{a.days}" for a, b in pairs)
        speed = " | ".join(f"{labels[0]} ÷ now, {g.days} days" for g in games)
        print(f"| command | mode | code | {head} | {growth} | {speed} |")
        print("|---|---|---|" + "---:|" * (3 * len(games) - 1))
        for name, (command, _, _) in COMMANDS.items():
            for mode in ("in", "proc"):
                # Both versions at every length in each round, the order turning.
                times = rounds({f"{label}|{g.days}": (
                    lambda c=versions[label], g=g, n=name, m=mode: run(c, g, n, m))
                    for label in labels for g in games}, runs)
                where = "in-process" if mode == "in" else "process"
                for label in labels:
                    t = {g.days: times[f"{label}|{g.days}"] for g in games}
                    cells = [f"{median(t[g.days]):.2f} s" for g in games]
                    cells += [f"{ratio(t[a.days], t[b.days]).ratio:.2f}×" for a, b in pairs]
                    if label == labels[0]:
                        cells += [f"{ratio(times[f'{labels[1]}|{g.days}'], t[g.days]).ratio:.2f}×"
                                  for g in games]
                    else:
                        cells += ["" for _ in games]
                    print(f"| `{command}` | {where} | {label} | " + " | ".join(cells) + " |",
                          flush=True)
    print(f"\nTimes: wall clock medians of {runs} rounds; growth and «÷ now»: medians of "
          f"per-round ratios of CPU time.\n# {load()} (after)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
