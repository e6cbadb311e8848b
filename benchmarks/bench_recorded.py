"""Recorded commands at any game length (issue 30, item 2): ``status`` and ``history --game``
on a game whose phases are recorded, at 10 and 40 days, against ``tally`` of the last day,
under this checkout and under an older commit (``--against``), each as a process, as a
host runs them (``referee --config … --db … --now … status --offline``).

The games are :mod:`game_plan`'s, synced by ``referee sync`` from the served board and
played as a host plays them with this checkout (every day tallied, night resolved and turn
checked at its time, the last day tallied too): both versions then read the same recorded
databases (copied fresh for every run). Every figure is the median of ``--runs`` rounds
(at least 5), every side once a round, the order turning; the ratios are medians of the
per-round ratios on CPU time (:mod:`timing`).

``python benchmarks/bench_recorded.py --against da8be31``
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_cold import code_of  # noqa: E402
from bench_game import COMMANDS, _copy_db, _first_sync, _play_as_host, _run, serve  # noqa: E402
from bench_sync import MOSCOW  # noqa: E402
from game_plan import GameTopic, Mailbox, make_plan, write_config  # noqa: E402
from timing import RUNS, Took, load, median, ratio, referee_command, rounds, run_process  # noqa: E402

SIZES = (10, 40)
ASKED = {"status": ["status", "--offline"], "history": ["history", "--game", "--offline"],
         "tally": ["tally", "--offline"]}


def recorded_game(days: int, root: Path) -> tuple[Path, Path, str]:
    """(config, recorded database, the moment to run at) of a ``days``-day game."""
    plan = make_plan(days)
    folder = root / f"d{days}"
    folder.mkdir()
    synced = Path(_first_sync(plan, folder, "synced")["db"])
    board, base = serve(GameTopic(plan), Mailbox(plan))
    with board:
        config = write_config(plan, base, folder)
    db = _copy_db(synced, folder / "recorded.db")
    _play_as_host(plan, config, db)
    last = plan.days[-1]
    _run(config, db, last.deadline + timedelta(minutes=10),
         lambda g: COMMANDS["tally"][1](g, last.number))
    at = (last.night_deadline + timedelta(hours=1)).astimezone(MOSCOW)
    return config, db, at.strftime("%Y-%m-%d %H:%M")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", required=True, help="the commit to compare with")
    ap.add_argument("--runs", type=int, default=RUNS)
    args = ap.parse_args(argv)
    print(f"load before: {load()}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        codes = {args.against: code_of(args.against, root / "old"), "this checkout": ROOT}
        games = {days: recorded_game(days, root) for days in SIZES}
        print(f"games built; {load()}", flush=True)

        def side(code: Path, days: int, name: str) -> Took:
            config, db, at = games[days]
            work = _copy_db(db, db.with_name("work.db"))
            took, _ = run_process([*referee_command(), "--config", str(config), "--db",
                                   str(work), "--now", at, *ASKED[name]],
                                  {"PYTHONPATH": str(code)})
            return took

        sides = {(c, d, n): (lambda c=c, d=d, n=n: side(codes[c], d, n))
                 for c in codes for d in SIZES for n in ASKED}
        times = rounds({f"{c}|{d}|{n}": f for (c, d, n), f in sides.items()}, args.runs)
    print("\n| command (process) | code | 10 days | 40 days | 40 ÷ 10 days (CPU) | ÷ tally, "
          "40 days (CPU) |")
    print("|---|---|---:|---:|---:|---:|")
    for n in ASKED:
        for c in codes:
            t10, t40 = times[f"{c}|10|{n}"], times[f"{c}|40|{n}"]
            growth = ratio(t10, t40)
            vs = ratio(times[f"{c}|40|tally"], t40)
            print(f"| `{n}` | {c} | {median(t10):.2f} s | {median(t40):.2f} s | "
                  f"{growth.ratio:.2f}× ({growth.spread()}) | {vs.ratio:.2f}× "
                  f"({vs.spread()}) |")
    print(f"\nload after: {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
