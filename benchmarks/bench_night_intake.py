"""What reading the night PMs costs, now and at another revision (issue 25).

    python benchmarks/bench_night_intake.py --against 494e0cb [--days 10] [--runs 5]

The PMs of bench_game's 30-player game (``game_plan.py``: every role's requests, the
necromancer's day PM, citizens' chat) plus, each night, the 60 held-out PMs of
``heldout_night_pms.py`` re-sent by the plan's players of the same roles, are read night by
night with :func:`referee.rules.intake.read_night`, each night given only its own span
(:func:`referee.rules.intake.night_span`), as ``Game.night_intake`` does. Each side runs in a
process of its own, with the revision's ``referee`` package first on the path:

- **import**: ``import referee.rules.intake`` in a fresh interpreter;
- **first night**: night 1 read in that process — the vocabulary, the morphology dictionary
  (pymorphy3, loaded on first use) and every cache are cold;
- **later nights**: the median of nights 2…N in the same process (warm caches).

Rounds alternate the sides (``timing.py``): medians of ``--runs`` rounds, CPU time (the
machine is shared), wall beside.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent

_CHILD = r"""
import json, sys, time
tree, here, days = sys.argv[1], sys.argv[2], int(sys.argv[3])
sys.path[:0] = [tree, here]
w0, c0 = time.perf_counter(), time.process_time()
import referee.rules.intake as intake
imp = (time.perf_counter() - w0, time.process_time() - c0)
from night_pms import night_game
config, pms = night_game(days)
nights = []
for n in range(1, days + 1):
    day = config.day(n)
    window = (day.deadline, day.night_deadline)
    since, until = intake.night_span(config, n, window)
    chosen = [p for p in pms if since <= p.sent_at < until]
    w0, c0 = time.perf_counter(), time.process_time()
    got = intake.read_night(chosen, config, n, window)
    nights.append((time.perf_counter() - w0, time.process_time() - c0, len(chosen),
                   len(got.requests)))
print(json.dumps({"import": imp, "nights": nights}))
"""


def _side(tree: Path, days: int) -> dict:
    out = subprocess.run([sys.executable, "-c", _CHILD, str(tree), str(HERE), str(days)],
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def _checkout(rev: str) -> Path:
    path = Path("/tmp") / f"bench-night-intake-{rev}"
    if not path.exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), rev],
                       check=True, capture_output=True)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", required=True, help="the git revision to compare with")
    parser.add_argument("--days", type=int, default=10)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    from timing import load  # noqa: PLC0415

    sides = {"now": ROOT, args.against: _checkout(args.against)}
    print(f"before: {load()}")
    results: dict[str, list[dict]] = {name: [] for name in sides}
    names = list(sides)
    for i in range(args.runs):
        k = i % len(names)
        for name in names[k:] + names[:k]:
            results[name].append(_side(sides[name], args.days))
    print(f"after: {load()}")
    print(f"\n{args.days} nights, {args.runs} rounds; median CPU s (wall s)\n")
    print("| measure | " + " | ".join(names) + " | ratio now/" + args.against + " |")
    print("|---|" + "---:|" * (len(names) + 1))
    rows = {
        "import referee.rules.intake": lambda r: r["import"],
        "first night": lambda r: r["nights"][0][:2],
        "later nights (median)": lambda r: (
            statistics.median(n[0] for n in r["nights"][1:]),
            statistics.median(n[1] for n in r["nights"][1:])),
    }
    for label, pick in rows.items():
        cells, cpu = [], {}
        for name in names:
            wall = statistics.median(pick(r)[0] for r in results[name])
            cpu[name] = statistics.median(pick(r)[1] for r in results[name])
            cells.append(f"{cpu[name] * 1000:.0f} ms ({wall * 1000:.0f})")
        ratio = cpu["now"] / cpu[args.against] if cpu[args.against] else float("nan")
        print(f"| {label} | " + " | ".join(cells) + f" | {ratio:.2f} |")
    sample = results["now"][0]["nights"]
    print(f"\nPMs per night (now): {[n[2] for n in sample]}; requests: "
          f"{[n[3] for n in sample]}")
    print(f"requests (at {args.against}): {[n[3] for n in results[args.against][0]['nights']]}")


if __name__ == "__main__":
    t0 = time.perf_counter()
    main()
    print(f"\n(took {time.perf_counter() - t0:.0f} s)")
