"""Recorded commands at any game length (issue 30, item 2): ``status`` and ``history --game``
on a game whose phases are recorded, at 10 and 40 days, against ``tally`` of the last day,
each as a process, as a host runs them (``referee --config … --db … --now … status
--offline``); with ``--against COMMIT`` an older checkout reads the same databases beside
this one.

The games are :mod:`game_plan`'s (30 players, 1,000 posts and ~30 PMs a day), built once
through the library and kept for the next runs: served by the benchmark board, synced
in-process (``Game.sync``), then played as a host plays them with this checkout — every day
tallied, night resolved and turn checked at its time, each command a fresh
:class:`~referee.game.Game` in this process, the last day tallied too. A build takes a few
minutes at 40 days; it is kept under ``$TMPDIR/referee-bench-recorded/<commit>/`` (the
commit of this checkout, with a digest of uncommitted changes) and reused while the code
that built it is the same (``--rebuild`` builds it anew). The commands are measured at the
last night's deadline plus an hour: the last night and the last turn's activity check are
over and not recorded — the only phases a command may work out.

Every figure is the median of ``--runs`` rounds (at least 5), every side once a round, the
order turning, each on a fresh copy of the database; the ratios are medians of the
per-round ratios on CPU time (:mod:`timing`).

``python benchmarks/bench_recorded.py [--against da8be31] [--runs 5] [--rebuild]``
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_cold import code_of  # noqa: E402
from bench_game import COMMANDS, _copy_db, _play_as_host, _run, serve  # noqa: E402
from bench_sync import MOSCOW  # noqa: E402
from game_plan import GameTopic, Mailbox, make_plan, write_config  # noqa: E402
from timing import RUNS, Took, load, median, ratio, referee_command, rounds, run_process  # noqa: E402

SIZES = (10, 40)
ASKED = {"status": ["status", "--offline"], "history": ["history", "--game", "--offline"],
         "tally": ["tally", "--offline"]}
CACHE = Path(tempfile.gettempdir()) / "referee-bench-recorded"


def code_key() -> str:
    """This checkout's commit, with a digest of what is changed and not committed: the
    databases a build made are kept under it."""
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                              check=True).stdout

    commit = git("rev-parse", "--short=12", "HEAD").strip()
    changes = git("diff", "HEAD", "--", "referee", "adapters", "benchmarks")
    return commit + (f"-{hashlib.sha256(changes.encode()).hexdigest()[:8]}" if changes else "")


def recorded_game(days: int, root: Path, *, rebuild: bool = False) -> tuple[Path, Path, str]:
    """(config, the game's folder, the moment to run at, as ``--now``) of a ``days``-day
    game: built once (see the module), then read from ``root``. The folder holds
    ``recorded.db`` (every day recorded, the last night and turn not) and ``every.db``
    (the last night resolved and the last turn checked too: every phase recorded)."""
    folder = root / f"d{days}"
    done = folder / "built.json"
    if rebuild and folder.exists():
        shutil.rmtree(folder)
    if not done.exists():
        _build(days, folder)
    built = json.loads(done.read_text(encoding="utf-8"))
    return folder / "referee.toml", folder, built["at"]


def _build(days: int, folder: Path) -> None:
    work = folder.with_name(folder.name + ".building")
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    plan = make_plan(days)
    last = plan.days[-1]
    end = last.night_deadline + timedelta(hours=1)
    db = work / "recorded.db"
    t0 = time.perf_counter()
    board, base = serve(GameTopic(plan), Mailbox(plan))
    with board:
        config = write_config(plan, base, work)
        _run(config, db, end, lambda g: g.sync(pms=True))
    synced = time.perf_counter()
    _play_as_host(plan, config, db)
    _run(config, db, last.deadline + timedelta(minutes=10),
         lambda g: COMMANDS["tally"][1](g, last.number))
    every = _copy_db(db, work / "every.db")
    _run(config, every, last.night_deadline + timedelta(minutes=5),
         lambda g: COMMANDS["night"][1](g, last.number))
    _run(config, every, end, lambda g: COMMANDS["activity"][1](g, last.number))
    played = time.perf_counter()
    at = end.astimezone(MOSCOW).strftime("%Y-%m-%d %H:%M")
    (work / "built.json").write_text(json.dumps({
        "days": days, "at": at, "sync_s": round(synced - t0, 1),
        "host_s": round(played - synced, 1), "built": datetime.now().isoformat()}),
        encoding="utf-8")
    # The config names the folder it was written in (the cookie jar beside the database).
    text = (work / "referee.toml").read_text(encoding="utf-8")
    (work / "referee.toml").write_text(text.replace(str(work), str(folder)), encoding="utf-8")
    shutil.rmtree(folder, ignore_errors=True)
    work.rename(folder)
    print(f"built {days} days: sync {synced - t0:.0f} s, the host's commands "
          f"{played - synced:.0f} s", flush=True)


STATES = {"open": "recorded.db", "every": "every.db"}
"""The databases measured: the last night and turn over and not recorded (``open``), and
every phase recorded (``every``)."""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--against", help="an older commit to measure beside this checkout")
    ap.add_argument("--runs", type=int, default=RUNS)
    ap.add_argument("--rebuild", action="store_true", help="build the games anew")
    ap.add_argument("--games", type=Path, help="the folder of games built before (default: "
                    "kept under the commit of this checkout)")
    args = ap.parse_args(argv)
    print(f"load before: {load()}", flush=True)
    cache = args.games or CACHE / code_key()
    t0 = time.perf_counter()
    games = {days: recorded_game(days, cache, rebuild=args.rebuild) for days in SIZES}
    print(f"games ready in {time.perf_counter() - t0:.0f} s ({cache}); {load()}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        codes = {"this checkout": ROOT}
        if args.against:
            codes = {args.against: code_of(args.against, root / "old"), **codes}

        def side(code: Path, days: int, state: str, name: str) -> Took:
            config, folder, at = games[days]
            work = _copy_db(folder / STATES[state], root / "work.db")
            took, _ = run_process([*referee_command(), "--config", str(config), "--db",
                                   str(work), "--now", at, *ASKED[name]],
                                  {"PYTHONPATH": str(code)})
            return took

        sides = {f"{c}|{d}|{s}|{n}": (lambda c=c, d=d, s=s, n=n: side(codes[c], d, s, n))
                 for c in codes for d in SIZES for s in STATES for n in ASKED}
        times = rounds(sides, args.runs)
    print("\n| command (process) | recorded | code | 10 days: wall / CPU | 40 days: wall / CPU "
          "| 40 ÷ 10 days (CPU) | ÷ `tally`, 40 days (wall) |")
    print("|---|---|---|---:|---:|---:|---:|")
    for s in STATES:
        for n in ASKED:
            for c in codes:
                t10, t40 = times[f"{c}|10|{s}|{n}"], times[f"{c}|40|{s}|{n}"]
                growth = ratio(t10, t40)
                vs = ratio(times[f"{c}|40|{s}|tally"], t40, "wall")
                print(f"| `{n}` | {s} | {c} | {median(t10):.2f} / {median(t10, 'cpu'):.2f} s "
                      f"| {median(t40):.2f} / {median(t40, 'cpu'):.2f} s | "
                      f"{growth.ratio:.2f}× ({growth.spread()}) | {vs.ratio:.2f}× "
                      f"({vs.spread()}) |")
    print("\nrecorded: «open» — every day recorded, the last night and turn over and not "
          "(the command works them out); «every» — every phase recorded.")
    print(f"load after: {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
