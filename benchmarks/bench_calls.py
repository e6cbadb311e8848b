"""How the cold commands grow with the game, counted rather than timed.

``python benchmarks/bench_calls.py [--against COMMIT]`` syncs the benchmark game
(:mod:`game_plan`) at 10, 20 and 40 days and runs ``tally``, ``resolve-night`` and
``check-activity`` of the last turn cold (nothing recorded) in a fresh interpreter each,
under :mod:`cProfile`, and reports the Python function calls each made from opening the
game to its end. Unlike a time, a count is the same on a busy
machine and a quiet one: the ratio of 40 days to 20 is what linear or not means, free of
the noise of a shared 2-core machine (the times are in ``bench_game.py``/``bench_cold.py``).
With ``--against`` the same counts for the code of another commit (``git archive``), side by
side.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_cold import SyncedGame, code_of, synced_games  # noqa: E402
from bench_game import COMMANDS, _copy_db  # noqa: E402

COUNTED = """
import cProfile, pstats, sys
from datetime import datetime
import referee
from referee.game import Game
config, db, now, name, n, code = sys.argv[1:7]
assert referee.__file__.startswith(code), (referee.__file__, code)
now, n = datetime.fromisoformat(now), int(n)
profile = cProfile.Profile()
profile.enable()
g = Game.open(config, db, clock=lambda: now)
{"tally": g.tally_day, "night": g.resolve_night, "activity": g.check_activity}[name](n)
g.close()
profile.disable()
print(pstats.Stats(profile).total_calls)
"""


def count(code: Path, game: SyncedGame, name: str) -> int:
    db = _copy_db(game.db, game.db.with_name("work.db"))
    out = subprocess.run([sys.executable, "-c", COUNTED, str(game.config), str(db),
                          game.end.isoformat(), name, str(game.days), str(code)],
                         env={"PYTHONPATH": str(code), "PATH": "/usr/bin:/bin"},
                         cwd=game.db.parent, check=True, capture_output=True,
                         text=True).stdout.split()
    return int(out[-1])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--against", help="also count the code of this commit")
    ap.add_argument("--days", type=int, nargs="*", default=[10, 20, 40])
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bench_calls_") as tmp:
        root = Path(tmp)
        versions = {"this checkout": ROOT}
        if args.against:
            versions = {args.against: code_of(args.against, root / "old"), **versions}
        games = synced_games(root, args.days)
        pairs = list(zip(games, games[1:], strict=False))
        head = " | ".join(f"{g.days} days" for g in games)
        growth = " | ".join(f"{b.days}/{a.days}" for a, b in pairs)
        print(f"| cold command | code | {head} | {growth} |")
        print("|---|---|" + "---:|" * (len(games) + len(pairs)))
        for name, (command, _, _) in COMMANDS.items():
            for label, code in versions.items():
                calls = {g.days: count(code, g, name) for g in games}
                cells = [f"{calls[g.days]:,}" for g in games]
                cells += [f"{calls[b.days] / calls[a.days]:.2f}×" for a, b in pairs]
                print(f"| `{command}` | {label} | " + " | ".join(cells) + " |", flush=True)
    print("\nPython function calls (cProfile) from opening the game to the command's end, "
          "in a fresh interpreter; the same on any machine load.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
