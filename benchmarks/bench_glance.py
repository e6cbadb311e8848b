"""The game at a glance on a benchmark game: ``status``, ``history`` (a day, the whole game,
the picture) and ``export`` of bench_game's 30-player game (1,000 posts a day, ~30 PMs a
night), played by the host at each phase's time, each command on a fresh
:class:`~referee.game.Game` as a new CLI run would do — and the export replayed against the
live results.

Run: ``python benchmarks/bench_glance.py --days 10 20``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "glance"))

from glance_bench import build  # noqa: E402

from referee.host.export import export_game  # noqa: E402
from referee.host.history import game_history, history_of_day  # noqa: E402
from referee.host.replay import replay  # noqa: E402
from referee.host.status import game_status  # noqa: E402
from referee.render.context import Context  # noqa: E402
from referee.render.export import replay_json, votes_csv  # noqa: E402
from referee.render.history import render_day_history, render_game_history  # noqa: E402
from referee.render.morning import private_results  # noqa: E402
from referee.render.status import render_status  # noqa: E402


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    t0 = time.perf_counter()
    value = fn()
    return time.perf_counter() - t0, value


def run(days: int) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="bench_glance_"))
    secs, bench = _timed(lambda: build(folder, days))
    out: dict[str, Any] = {"days": days, "build (sync + host plays every phase)": secs}
    last = bench.plan.days[-1].number

    def fresh() -> Any:
        return bench.at(bench.end)

    out["status"], _ = _timed(lambda: render_status(game_status(fresh(), private_results)))
    out["history --day last"], h = _timed(
        lambda: history_of_day(fresh(), last))
    ctx = Context.of(fresh().config)
    render_day_history(h, "bbcode", ctx)
    out["history --game"], _ = _timed(lambda: render_game_history(game_history(fresh())))
    try:
        from referee.render.plot import plot_day

        out["history --plot (day 1)"], _ = _timed(
            lambda: plot_day(history_of_day(fresh(), 1), folder / "d1.png", ctx))
    except ImportError:
        out["history --plot (day 1)"] = None
    out["export"], (data, events) = _timed(lambda: export_game(fresh()))
    replay_json(data)
    votes_csv(events, ctx)
    game = fresh()
    played = replay(data, game.config.night)
    hanged = [p["hanged"] for p in played["phases"] if "day" in p]
    out["replay == live hangings"] = hanged == list(bench.plan.hanged.values())
    out["vote events"] = len(events)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--days", type=int, nargs="+", default=[10, 20])
    args = parser.parse_args()
    results = [run(d) for d in args.days]
    for key in results[0]:
        cells = []
        for r in results:
            v = r[key]
            cells.append(f"{v:8.2f} s" if isinstance(v, float) else f"{v!s:>10}")
        print(f"{key:40} " + " ".join(cells))


if __name__ == "__main__":
    main()
