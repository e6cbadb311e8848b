"""Start-up of an offline command under two versions of the code: how much of it is imports.

``python benchmarks/bench_imports.py --against 494e0cb`` takes ``referee/``, ``adapters/``
and ``fixtures/demo/`` of that commit (``git archive``), has each version read its demo
game (the saved pages) into a database once, and then runs ``referee --config
fixtures/demo/referee.toml tally --day 1 --offline`` under each version as a process, in
rounds (both versions in every round, the order turning, at least 5 rounds), twice per
round and version:

- plainly, for the wall and CPU time a host waits (:func:`timing.run_process`);
- under ``python -X importtime``, for the time spent importing (the sum of the top-level
  imports' cumulative times: everything the process imported, at start or inside the
  command) and the share of that run's wall time it is; and whether the HTTP client
  (``httpx``) was loaded.

Times are medians; the new/old figures are medians of per-round ratios (issue 30 item 3:
offline commands import no HTTP client, goal −30% wall).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from timing import RUNS, Took, load, median, ratio, referee_command, rounds, run_process  # noqa: E402

DEMO = Path("fixtures") / "demo" / "referee.toml"
TALLY = ["tally", "--day", "1", "--offline"]
WATCHED = ("httpx", "selectolax", "sqlite_utils", "numpy", "pydantic", "typer", "rich", "click")
"""Libraries whose presence is reported for each version."""


@dataclass(frozen=True, slots=True)
class Imports:
    """One ``-X importtime`` run: seconds spent importing, the run's wall time, the
    watched libraries it loaded."""

    seconds: float
    wall: float
    loaded: frozenset[str]

    @property
    def share(self) -> float:
        return self.seconds / self.wall


def code_of(commit: str, into: Path) -> Path:
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit, "referee", "adapters",
                              "fixtures/demo"], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def synced_demo(code: Path, folder: Path) -> Path:
    """The version's demo game read from its saved pages into ``folder/NAME.db`` by it."""
    db = folder / f"{code.name}.db"
    subprocess.run([*referee_command(), "--config", str(code / DEMO), "--db", str(db), "sync"],
                   env={**os.environ, "PYTHONPATH": str(code)}, check=True,
                   capture_output=True)
    return db


def _work_db(db: Path) -> Path:
    """A fresh copy of the synced database for one run (a tally may record its count)."""
    work = db.with_name(f"work-{db.name}")
    shutil.copyfile(db, work)
    return work


def plain_run(code: Path, db: Path) -> Took:
    argv = [*referee_command(), "--config", str(code / DEMO), "--db", str(_work_db(db)), *TALLY]
    took, _ = run_process(argv, {"PYTHONPATH": str(code)})
    return took


def import_run(code: Path, db: Path) -> Imports:
    argv = [sys.executable, "-X", "importtime", *referee_command()[-1:], "--config",
            str(code / DEMO), "--db", str(_work_db(db)), *TALLY]
    if argv[3].endswith("referee.cli"):  # no console script: ``python -m referee.cli``
        argv[3:4] = ["-m", "referee.cli"]
    t0 = time.perf_counter()
    done = subprocess.run(argv, env={**os.environ, "PYTHONPATH": str(code)},
                          capture_output=True, text=True, check=True)
    wall = time.perf_counter() - t0
    total, loaded = 0, set()
    for line in done.stderr.splitlines():
        if not line.startswith("import time:") or "cumulative" in line:
            continue
        _, cumulative, name = line.split("|")
        if not name[1:].startswith(" "):  # a top-level import (one space after the bar)
            total += int(cumulative)
        loaded.update(w for w in WATCHED if name.strip().split(".")[0] == w)
    return Imports(total / 1e6, wall, frozenset(loaded))


def check_sides(sides: dict[str, Path]) -> None:
    """Each side must import its own ``referee`` (PYTHONPATH before the installed one)."""
    for name, code in sides.items():
        where = subprocess.run([sys.executable, "-c", "import referee; print(referee.__file__)"],
                               env={**os.environ, "PYTHONPATH": str(code)}, cwd=code,
                               capture_output=True, text=True, check=True).stdout.strip()
        if not where.startswith(str(code)):
            raise SystemExit(f"{name}: referee comes from {where}, not from {code}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", required=True, help="the commit to compare with")
    ap.add_argument("--runs", type=int, default=RUNS + 2)
    args = ap.parse_args(argv)
    print(f"before: {load()}")
    with tempfile.TemporaryDirectory(prefix="bench-imports-") as tmp:
        sides = {"old": code_of(args.against, Path(tmp) / "old"), "new": ROOT}
        check_sides(sides)
        dbs = {n: synced_demo(c, Path(tmp)) for n, c in sides.items()}
        for n, code in sides.items():  # warm the disk cache
            plain_run(code, dbs[n])
        walls = rounds({n: (lambda n=n, c=c: plain_run(c, dbs[n])) for n, c in sides.items()},
                       args.runs)
        found: dict[str, list[Imports]] = {n: [] for n in sides}
        for i in range(args.runs):
            order = list(sides) if i % 2 == 0 else list(reversed(sides))
            for n in order:
                found[n].append(import_run(sides[n], dbs[n]))
    print(f"after:  {load()}")
    print(f"\n`referee --config fixtures/demo/referee.toml tally --day 1 --offline`, "
          f"{args.runs} rounds, medians (range over rounds)\n")
    print(f"| measure | {args.against} (old) | this checkout (new) | new/old |")
    print("|---|---:|---:|---:|")
    for clock in ("wall", "cpu"):
        r = ratio(walls["old"], walls["new"], clock)
        print(f"| {clock} time, process | {median(walls['old'], clock) * 1000:.0f} ms | "
              f"{median(walls['new'], clock) * 1000:.0f} ms | {r.ratio:.2f} ({r.spread()}) |")
    imp = {n: [x.seconds for x in found[n]] for n in sides}
    per_round = [b / a for a, b in zip(imp["old"], imp["new"], strict=True)]
    print(f"| imports (`-X importtime`) | {statistics.median(imp['old']) * 1000:.0f} ms | "
          f"{statistics.median(imp['new']) * 1000:.0f} ms | {statistics.median(per_round):.2f} "
          f"({min(per_round):.2f}–{max(per_round):.2f}) |")
    share = {n: statistics.median(x.share for x in found[n]) for n in sides}
    print(f"| import share of the wall time | {share['old']:.0%} | {share['new']:.0%} | |")
    for w in WATCHED:
        marks = ["yes" if all(w in x.loaded for x in found[n]) else
                 "no" if not any(w in x.loaded for x in found[n]) else "sometimes"
                 for n in sides]
        print(f"| loads `{w}` | {marks[0]} | {marks[1]} | |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
