"""What the Russian morphology (pymorphy3, rapidfuzz) costs a host: the offline demo tally
of another commit against this checkout's, its imports, and the first case form.

``python benchmarks/bench_morphology.py --against 494e0cb`` takes ``referee/`` and
``adapters/`` of that commit (``git archive``, :func:`bench_cold.code_of`), syncs the demo
game (``fixtures/demo/``, its saved pages) once with this checkout, and then:

1. runs ``referee --config fixtures/demo/referee.toml tally --day 1 --offline`` under each
   version as a process, in rounds (both versions every round, the order turning, at least
   5 rounds; a fresh copy of the synced database each run, so nothing is recorded before):
   wall and CPU medians, the ratio of CPU time as the median of per-round ratios;
2. runs the same command under ``python -X importtime`` per version: whether ``pymorphy3``
   is imported, and the share of the import time that is the morphology's (``pymorphy3``,
   its ``dawg`` dictionary reader, ``rapidfuzz``, ``referee.core.morphology``);
3. times (CPU), in fresh interpreters, the first case form of this checkout: loading the
   analyser, building the case forms of the demo roster, the first ``Roster.match`` of a
   declined nick, a second one, and a rebuilt roster's (the case forms are cached per set
   of nicks, :func:`referee.core.nicks._case_entries`).

Both versions' outputs are compared and their differing lines printed: a change in what
the demo's votes are read as is a change of the rules, not of speed.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_cold import code_of  # noqa: E402
from timing import RUNS, Took, load, median, ratio, rounds, run_process  # noqa: E402

CONFIG = ROOT / "fixtures" / "demo" / "referee.toml"
COMMAND = ("tally", "--day", "1", "--offline")
MORPHOLOGY = ("pymorphy3", "dawg", "dawg_python", "rapidfuzz")
# referee's own morphology module, by its last name: an older commit has it flat in referee/.
OWN_MORPHOLOGY = ".morphology"
# The CLI of one version: its referee/ first on the path, checked, then main().
LAUNCH = ("import sys; code = sys.argv.pop(1); sys.path.insert(0, code); import referee; "
          "assert referee.__file__.startswith(code), referee.__file__; "
          "from referee.cli import main; sys.argv[0] = 'referee'; sys.exit(main())")
FIRST_CASE = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from referee.config.game import load_config
from referee.core.nicks import Roster
config = load_config(sys.argv[2])
nicks = [p.nick for p in config.players]
out = {}
t = time.process_time()
from referee.core.morphology import analyzer
analyzer()
out["analyser"] = time.process_time() - t
t = time.process_time()
roster = Roster(nicks, case_forms=True)
roster.case_table()
out["forms"] = time.process_time() - t
t = time.process_time()
first = roster.match("за Шерлока")
out["first_match"] = time.process_time() - t
t = time.process_time()
roster.match("Лисой")
out["second_match"] = time.process_time() - t
t = time.process_time()
Roster(nicks, case_forms=True).match("Грозу")
out["rebuilt_roster"] = time.process_time() - t
t = time.process_time()
Roster(nicks).match("Mr. Smith")
out["exact_no_forms"] = time.process_time() - t
out["read"] = [first.nick, first.how]
out["nicks"] = len(nicks)
print(json.dumps(out))
"""


def argv(code: Path, db: Path, *python: str, command: tuple[str, ...] = COMMAND
         ) -> list[str]:
    return [sys.executable, *python, "-c", LAUNCH, str(code), "--config", str(CONFIG),
            "--db", str(db), *command]


def importtime(code: Path, synced: Path, work: Path) -> tuple[float, float, bool]:
    """(all imports, the morphology's, whether pymorphy3 was imported) in ms: the sum of
    the modules' own import times (``-X importtime``, self column)."""
    db = work / "imports.db"
    shutil.copy(synced, db)
    err = subprocess.run(argv(code, db, "-X", "importtime"), capture_output=True, text=True,
                         check=True, cwd=ROOT).stderr
    total = morph = 0.0
    seen = False
    for line in err.splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        own, _cumulative, name = line.removeprefix("import time:").split("|")
        name = name.strip()
        total += int(own) / 1000
        if name.split(".")[0] in MORPHOLOGY or (name.startswith("referee.")
                                                and name.endswith(OWN_MORPHOLOGY)):
            morph += int(own) / 1000
            seen = seen or name.startswith("pymorphy3")
    return total, morph, seen


def output(code: Path, synced: Path, work: Path) -> list[str]:
    db = work / "output.db"
    shutil.copy(synced, db)
    out = subprocess.run(argv(code, db), capture_output=True, text=True, check=True, cwd=ROOT)
    return out.stdout.splitlines()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--against", default="main", help="the commit to compare with")
    parser.add_argument("--rounds", type=int, default=RUNS)
    args = parser.parse_args()
    runs = max(RUNS, args.rounds)
    with tempfile.TemporaryDirectory(prefix="bench_morphology_") as tmp:
        work = Path(tmp)
        old = code_of(args.against, work / "old")
        synced = work / "demo.db"
        subprocess.run(argv(ROOT, synced, command=("sync",)), check=True, cwd=ROOT,
                       capture_output=True)
        print(f"demo tally --day 1 --offline, {runs} rounds; {load()}")

        def side(code: Path, name: str) -> Took:
            db = work / f"{name}.db"
            shutil.copy(synced, db)
            took, _mb = run_process(argv(code, db))
            return took

        times = rounds({"old": lambda: side(old, "old"), "new": lambda: side(ROOT, "new")},
                       runs)
        paired = ratio(times["old"], times["new"])
        wall = ratio(times["old"], times["new"], "wall")
        for name, label in (("old", args.against), ("new", "this checkout")):
            print(f"  {label}: {median(times[name], 'wall') * 1000:.0f} ms wall, "
                  f"{median(times[name], 'cpu') * 1000:.0f} ms CPU")
        print(f"  this checkout ÷ {args.against}: {paired.ratio:.2f}× CPU (rounds "
              f"{paired.spread()}), {wall.ratio:.2f}× wall (rounds {wall.spread()})")
        for name, code in ((args.against, old), ("this checkout", ROOT)):
            total, morph, seen = importtime(code, synced, work)
            print(f"  imports, {name}: {total:.0f} ms own import time, morphology "
                  f"{morph:.0f} ms ({morph / total:.0%}); pymorphy3 imported: "
                  f"{'yes' if seen else 'no'}")
        before, after = output(old, synced, work), output(ROOT, synced, work)
        changed = [f"  - {a}\n  + {b}" for a, b in zip(before, after, strict=False) if a != b]
        print(f"  output: {len(before)} / {len(after)} lines, {len(changed)} differ"
              + ("".join("\n" + c for c in changed[:10])))
        firsts = [json.loads(subprocess.run(
            [sys.executable, "-c", FIRST_CASE, str(ROOT), str(CONFIG)], capture_output=True,
            text=True, check=True, cwd=ROOT).stdout) for _ in range(runs)]
        print(f"first case form, this checkout ({firsts[0]['nicks']} nicks; "
              f"«за Шерлока» read as {firsts[0]['read']}), CPU time, medians of {runs} "
              f"fresh interpreters:")
        for key, label in (("analyser", "import pymorphy3 + load the analyser"),
                           ("forms", "case forms of the roster"),
                           ("first_match", "first match of a declined nick"),
                           ("second_match", "second match"),
                           ("rebuilt_roster", "a rebuilt roster's first match (cached)"),
                           ("exact_no_forms", "exact match, no case forms")):
            values = sorted(f[key] for f in firsts)
            print(f"  {label}: {values[len(values) // 2] * 1000:.2f} ms "
                  f"({values[0] * 1000:.2f}–{values[-1] * 1000:.2f})")


if __name__ == "__main__":
    main()
