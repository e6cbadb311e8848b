"""Game benchmark: the planned 30-player game (:mod:`game_plan`: 1,000 posts and ~30 PMs a
day) at 10, 20 and 40 days, served by a board in its own process with every page rendered
before the first request (:mod:`board`), synced and refereed the way a host runs it.

Measured in one run of the script (``python benchmarks/bench_game.py``):

- **requests**: a first sync of the game, counted by the board by kind (topic pages, PM
  folder pages, folder exports, opened PMs), on a board with phpBB's folder export and on
  one without it (PMs opened one by one, as before issue 15), with the seconds it took at
  no rate limit and the wall time at the default 2 requests/s worked out from the counts;
- **sync**: ``referee sync`` as a process (the wall time and its own peak memory) and the
  same sync in-process (its tracemalloc peak); re-syncs with nothing new and one new page;
- **commands**: ``tally`` of the last day, ``resolve-night`` of the last night and
  ``check-activity`` of the last turn, each in-process (a fresh :class:`~referee.game.Game`
  over a copy of the database, as a new CLI run) and as a process (``referee --config …
  --db … --now … tally --day N --offline``, as a host types it): *recorded* — every
  earlier phase recorded at its time, the last turn's commands in the host's order — and
  *cold* — each alone on the synced database, nothing recorded;
- **ratios**, every one the median of ``--runs`` rounds (at least 5) in which each side runs
  once, the order turning: the recorded commands against the parse of the same game's
  pages (target ≤ 10%), and the cold commands of each size against the size half as long
  (target for 40 ÷ 20 days: ≤ 2.05×, i.e. linear in the game's length).

The machine's load average is printed before and after. ``--json FILE`` keeps every figure.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_sync import DEFAULT_RATE, MOSCOW, TOPIC, first_sync_wall  # noqa: E402
from board import BoardProcess  # noqa: E402
from game_plan import PER_PAGE, GameSite, GameTopic, Mailbox, Plan, make_plan, write_config  # noqa: E402
from timing import (  # noqa: E402
    RUNS,
    Took,
    load,
    median,
    ratio,
    referee_command,
    rounds,
    run_process,
    timed,
)

from adapters.phpbb.page import decode_page  # noqa: E402
from adapters.phpbb.pm_export import FORM_KEY_WAIT  # noqa: E402
from adapters.phpbb.topic import parse_topic_page  # noqa: E402
from referee.game import Game  # noqa: E402

__all__ = ["GameTopic", "Mailbox", "Plan", "make_plan", "serve", "write_config"]

COMMANDS: dict[str, tuple[str, Callable[[Game, int], Any], str]] = {
    "tally": ("tally", lambda g, n: g.tally_day(n), "--day"),
    "night": ("resolve-night", lambda g, n: g.resolve_night(n), "--night"),
    "activity": ("check-activity", lambda g, n: g.check_activity(n), "--turn"),
}
"""Benchmark name → (the CLI command, the same in-process, its number option)."""


def serve(topic: GameTopic, mailbox: Mailbox, *, export: bool = True
          ) -> tuple[BoardProcess, str]:
    """The game's board on 127.0.0.1, in its own process: (the board, its address)."""
    board = BoardProcess(GameSite(topic, mailbox, export=export))
    return board, board.url


# ============================================================================ one game

@dataclass
class Size:
    """One length of the game, synced: its plan, config, databases and the last moment."""

    days: int
    plan: Plan
    folder: Path
    config: Path
    synced: Path
    """Synced, nothing recorded: where the cold commands start."""
    recorded: Path
    """Synced, every phase before the last turn recorded as the host does."""
    end: datetime
    pages: list[bytes]

    @property
    def now_arg(self) -> str:
        return self.end.astimezone(MOSCOW).strftime("%Y-%m-%d %H:%M")


def _copy_db(src: Path, dst: Path) -> Path:
    for suffix in ("", "-wal", "-shm"):
        f = Path(str(src) + suffix)
        if f.exists():
            shutil.copy(f, str(dst) + suffix)  # with its 0600 mode
    return dst


def _run(config: Path, db: Path, now: datetime, op: Callable[[Game], Any]) -> Any:
    g = Game.open(config, db, clock=lambda: now)
    try:
        return op(g)
    finally:
        g.close()


def _first_sync(plan: Plan, folder: Path, name: str, *, export: bool = True
                ) -> dict[str, Any]:
    """``referee sync`` of an empty database as a process, at no rate limit: its seconds
    and memory, the requests the board served by kind, and the wall time at the default
    rate worked out from them."""
    board, base = serve(GameTopic(plan), Mailbox(plan), export=export)
    with board:
        config = write_config(plan, base, folder)
        db = folder / f"{name}.db"
        took, mb = run_process([*referee_command(), "--config", str(config), "--db",
                                str(db), "sync"])
        served = board.stats()
    total = sum(served.values())
    waits = FORM_KEY_WAIT if served.get("export") else 0.0
    return {"seconds": took.wall, "cpu": took.cpu, "rss_mb": mb, "served": served,
            "requests": total,
            "wall_at_rate": first_sync_wall(total, DEFAULT_RATE, waits), "db": str(db)}


def build(days: int, tmp: Path, *, before: bool) -> tuple[Size, dict[str, Any]]:
    """Sync a ``days``-day game (``referee sync`` as a process; ``before``: also on a board
    without the folder export), sync it again in-process for its memory, re-sync it, and
    record every phase before the last turn as the host does."""
    plan = make_plan(days)
    folder = tmp / f"d{days}"
    folder.mkdir()
    out: dict[str, Any] = {"days": days, "pms": len(plan.pms)}
    if before:
        out["requests_opened"] = _first_sync(plan, folder, "opened", export=False)
    out["requests_export"] = _first_sync(plan, folder, "synced")
    synced = Path(out["requests_export"]["db"])
    topic = GameTopic(plan)
    out["posts"], out["pages"] = topic.total, topic.pages
    board, base = serve(topic, Mailbox(plan))
    with board:
        config = write_config(plan, base, folder)
        end = plan.days[-1].night_deadline + timedelta(hours=1)
        tracemalloc.start()
        _run(config, folder / "traced.db", end, lambda g: g.sync(pms=True))
        out["sync_peak_mb"] = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        again = _copy_db(synced, folder / "again.db")

        def resync() -> tuple[float, dict[str, int]]:
            board.reset()
            took = timed(lambda: _run(config, again, end, lambda g: g.sync(pms=True)))
            return took.wall, board.stats()

        out["resync_none"] = resync()
        board.control("add_page")
        out["resync_page"] = resync()
    recorded = _copy_db(synced, folder / "recorded.db")
    _play_as_host(plan, config, recorded)
    pages = [topic.page(n) for n in range(1, out["pages"] + 1)]  # as synced first
    size = Size(days, plan, folder, config, synced, recorded, end, pages)
    out["follows_plan"] = _follows_plan(size)
    return size, out


def _play_as_host(plan: Plan, config: Path, db: Path) -> None:
    """What a host has done by the last day: each day tallied after its deadline, each
    night resolved after it, each turn's activity checked once the next day began — every
    result recorded, each command a fresh run at its own time."""
    for day in plan.days[:-1]:
        steps = ((day.deadline + timedelta(minutes=10), "tally"),
                 (day.night_deadline + timedelta(minutes=5), "night"),
                 (plan.days[day.number].start + timedelta(minutes=10), "activity"))
        for at, name in steps:
            _run(config, db, at, lambda g, name=name, n=day.number: COMMANDS[name][1](g, n))


def _follows_plan(size: Size) -> str:
    """How many days and nights the referee resolved as the plan meant them."""
    plan = size.plan

    def check(g: Game) -> str:
        days = sum(g.tally_day(d.number, record=False).tally.hanged == plan.hanged[d.number]
                   for d in plan.days)
        nights = 0
        for d in plan.days:
            deaths = {x.player for x in g.resolve_night(d.number, record=False).outcome.deaths}
            nights += deaths == ({plan.killed[d.number]} if plan.killed[d.number] else set())
        return f"{days}/{len(plan.days)} days, {nights}/{len(plan.days)} nights"

    return _run(size.config, _copy_db(size.recorded, size.folder / "check.db"), size.end, check)


# ============================================================================ commands

def in_process(size: Size, source: Path, name: str, stem: str) -> Took:
    """Seconds of one command as a fresh in-process run over a copy of ``source`` (the copy
    is not timed)."""
    db = _copy_db(source, size.folder / f"{stem}.db")
    return timed(lambda: _run(size.config, db, size.end,
                              lambda g: COMMANDS[name][1](g, size.days)))


def as_process(size: Size, source: Path, name: str, stem: str) -> tuple[Took, float]:
    """(what it took, max RSS MB) of the command typed as a host types it, on a copy."""
    db = _copy_db(source, size.folder / f"{stem}.db")
    command, _, option = COMMANDS[name]
    return run_process([*referee_command(), "--config", str(size.config), "--db", str(db),
                        "--now", size.now_arg, command, option, str(size.days), "--offline"])


def _parse(size: Size) -> Took:
    """Decode + parse of every page of the game's topic (the yardstick)."""
    now = datetime.now(UTC)
    base = "http://127.0.0.1/"

    def run() -> None:
        for n, raw in enumerate(size.pages, 1):
            parse_topic_page(decode_page(raw, "text/html; charset=UTF-8"),
                                   url=f"{base}viewtopic.php?t={TOPIC}&start={(n - 1) * PER_PAGE}",
                                   tz=MOSCOW, now=now)

    return timed(run)


def recorded_rounds(size: Size, runs: int) -> dict[str, Any]:
    """The last turn's commands in the host's order (each on what the one before recorded)
    in-process and as processes, in rounds with the parse of the pages."""
    before: dict[str, Path] = {}
    source = size.recorded
    for name in COMMANDS:  # the database each command finds in the host's order
        before[name] = source
        nxt = _copy_db(source, size.folder / f"after_{name}.db")
        _run(size.config, nxt, size.end, lambda g, name=name: COMMANDS[name][1](g, size.days))
        source = nxt
    sides: dict[str, Callable[[], Took]] = {"parse": lambda: _parse(size)}
    rss: dict[str, list[float]] = {}
    for name in COMMANDS:
        sides[f"in:{name}"] = lambda name=name: in_process(size, before[name], name, "rec")

        def proc(name: str = name) -> Took:
            took, mb = as_process(size, before[name], name, "recp")
            rss.setdefault(name, []).append(mb)
            return took

        sides[f"proc:{name}"] = proc
    times = rounds(sides, runs)
    out: dict[str, Any] = {"parse": median(times["parse"])}
    for name in COMMANDS:
        out[name] = {"in": median(times[f"in:{name}"]), "proc": median(times[f"proc:{name}"]),
                     "share": ratio(times["parse"], times[f"in:{name}"]).ratio,
                     "rss": max(rss[name])}
    return out


def cold_rounds(sizes: list[Size], runs: int) -> dict[str, Any]:
    """Each cold command at every size, in-process and as a process, in rounds: each size
    once per round, the order turning."""
    out: dict[str, Any] = {"rss": {}}
    for name in COMMANDS:
        for mode in ("in", "proc"):
            def side(size: Size, mode: str = mode, name: str = name) -> Took:
                if mode == "in":
                    return in_process(size, size.synced, name, "cold")
                took, mb = as_process(size, size.synced, name, "coldp")
                rss = out["rss"].setdefault(str(size.days), 0.0)
                out["rss"][str(size.days)] = max(rss, mb)
                return took

            times = rounds({str(s.days): (lambda s=s: side(s)) for s in sizes}, runs)
            out[f"{name}:{mode}"] = {
                "times": {d: median(t) for d, t in times.items()},
                "cpu": {d: median(t, "cpu") for d, t in times.items()},
                "ratios": {f"{b.days}/{a.days}": ratio(times[str(a.days)], times[str(b.days)])
                           for a, b in zip(sizes, sizes[1:], strict=False)},
                "wall_ratios": {
                    f"{b.days}/{a.days}": ratio(times[str(a.days)], times[str(b.days)], "wall")
                    for a, b in zip(sizes, sizes[1:], strict=False)},
            }
    return out


# ============================================================================ the tables

def requests_table(facts: dict[str, Any]) -> list[str]:
    kinds = (("topic", "topic pages"), ("folder", "PM listings"), ("export", "PM exports"),
             ("pm", "PM views"))
    lines = [f"First sync of the {facts['days']}-day game ({facts['posts']:,} posts, "
             f"{facts['pms']} PMs), requests the board served:", "",
             "| PMs read by | " + " | ".join(k[1] for k in kinds)
             + " | all | no rate limit | at 2 req/s |",
             "|---|" + "---:|" * (len(kinds) + 3)]
    for key, label in (("requests_opened", "opening each (before)"),
                       ("requests_export", "folder export (now)")):
        r = facts[key]
        cells = [str(r["served"].get(k, 0)) for k, _ in kinds]
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {r['requests']} | "
                     f"{r['seconds']:.1f} s | {r['wall_at_rate'] / 60:.1f} min |")
    return lines


def command_table(facts: list[dict[str, Any]], recorded: dict[int, Any],
                  cold: dict[str, Any]) -> list[str]:
    heads = [f"{f['days']} days" for f in facts]
    lines = ["| measure | " + " | ".join(heads) + " |", "|---|" + "---:|" * len(heads)]

    def row(label: str, cells: list[str]) -> None:
        lines.append(f"| {label} | " + " | ".join(cells) + " |")

    row("posts / PMs", [f"{f['posts']:,} / {f['pms']}" for f in facts])
    row("`referee sync`, first (process)", [
        f"{f['requests_export']['seconds']:.1f} s, {f['requests_export']['requests']} req, "
        f"{f['requests_export']['rss_mb']:.0f} MB" for f in facts])
    row("first sync at 2 req/s (from the requests)", [
        f"{f['requests_export']['wall_at_rate'] / 60:.1f} min" for f in facts])
    row("first sync in-process: tracemalloc peak", [f"{f['sync_peak_mb']:.1f} MB"
                                                    for f in facts])
    row("re-sync, nothing new", [
        f"{f['resync_none'][0] * 1000:.0f} ms, {sum(f['resync_none'][1].values())} req"
        for f in facts])
    row("re-sync, one new page", [
        f"{f['resync_page'][0] * 1000:.0f} ms, {sum(f['resync_page'][1].values())} req"
        for f in facts])
    row("parse of the pages (decode+parse)", [f"{recorded[f['days']]['parse']:.2f} s"
                                               for f in facts])
    for name, (command, _, _) in COMMANDS.items():
        row(f"`{command}`, recorded: in-process / process", [
            f"{recorded[f['days']][name]['in']:.3f} / {recorded[f['days']][name]['proc']:.2f} s"
            f" ({100 * recorded[f['days']][name]['share']:.1f}%)" for f in facts])
    for name, (command, _, _) in COMMANDS.items():
        row(f"`{command}`, cold: in-process / process (CPU)", [
            f"{cold[f'{name}:in']['times'][str(f['days'])]:.2f} / "
            f"{cold[f'{name}:proc']['times'][str(f['days'])]:.2f} s "
            f"({cold[f'{name}:in']['cpu'][str(f['days'])]:.2f} / "
            f"{cold[f'{name}:proc']['cpu'][str(f['days'])]:.2f} s)" for f in facts])
    def peak(f: dict[str, Any]) -> float:
        return max([cold["rss"][str(f["days"])], f["requests_export"]["rss_mb"],
                    *(recorded[f["days"]][n]["rss"] for n in COMMANDS)])

    row("max RSS of a `referee` process (target < 200 MB)",
        [f"{peak(f):.0f} MB" for f in facts])
    row("outcome follows the plan", [f["follows_plan"] for f in facts])
    return lines


def scale_table(cold: dict[str, Any], runs: int) -> list[str]:
    pairs = list(cold["tally:in"]["ratios"])
    lines = ["| cold command | " + " | ".join(f"{p} days, in-process" for p in pairs) + " | "
             + " | ".join(f"{p} days, process" for p in pairs) + " |",
             "|---|" + "---:|" * (2 * len(pairs))]
    for name, (command, _, _) in COMMANDS.items():
        cells = []
        for mode in ("in", "proc"):
            for p in pairs:
                r = cold[f"{name}:{mode}"]["ratios"][p]
                w = cold[f"{name}:{mode}"]["wall_ratios"][p]
                cells.append(f"{r.ratio:.2f}× ({r.spread()}); wall {w.ratio:.2f}×")
        lines.append(f"| `{command}` | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append(f"Each ratio: CPU time, the median of {runs} rounds (range in brackets), the "
                 "wall clock's median beside; the target for 40 ÷ 20 days is ≤ 2.05× "
                 "(linear).")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--days", type=int, nargs="*", default=[10, 20, 40],
                    help="game lengths (40 pages of 25 posts a day)")
    ap.add_argument("--runs", type=int, default=RUNS, help="rounds behind every ratio (≥5)")
    ap.add_argument("--json", type=Path, help="write every figure to this file")
    args = ap.parse_args(argv)
    runs = max(RUNS, args.runs)
    print(f"# {load()} (before)", flush=True)
    tmp = Path(tempfile.mkdtemp(prefix="bench_game_"))
    try:
        built = [build(days, tmp, before=i == 0) for i, days in enumerate(sorted(args.days))]
        sizes = [s for s, _ in built]
        facts = [f for _, f in built]
        recorded = {s.days: recorded_rounds(s, runs) for s in sizes}
        cold = cold_rounds(sizes, runs)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    lines = [*requests_table(facts[0]), "", *command_table(facts, recorded, cold), "",
             *scale_table(cold, runs), "",
             "Recorded: in-process / process seconds (in brackets: the in-process time as a "
             "share of the parse, target ≤ 10%). Cold: nothing recorded, every earlier day "
             "and night counted once.", f"# {load()} (after)"]
    print("\n".join(lines))
    if args.json:
        args.json.write_text(json.dumps({"facts": facts, "recorded": recorded, "cold": cold},
                                        ensure_ascii=False, indent=1, default=repr))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
