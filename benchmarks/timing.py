"""How the benchmarks time: paired runs, medians, processes, and how busy the machine was.

- A ratio is never one time divided by another taken at another moment: ``rounds`` runs
  every side once per round, ``runs`` rounds, the order turning, and ``ratio`` gives the
  median of the per-round ratios (and each side's median).
- Every time is taken on two clocks (:class:`Took`): the wall clock, what a host waits, and
  the CPU time of the process, what the code costs — the one a shared machine disturbs
  least, so the ratios are taken on it (and shown on the wall clock beside).
- A command is timed as a process too (:func:`run_process`), the way a host runs it:
  interpreter start, imports, config and database opening included; the child's own peak
  memory comes from ``wait4``.
- :func:`load` says how loaded the machine was, printed beside every table.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RUNS = 5
"""Rounds behind every ratio (at least five, the median is reported)."""

Clock = str
"""``"wall"`` (what a host waits) or ``"cpu"`` (what the code costs: user + system time of
the process, which other work on a shared machine disturbs far less)."""


@dataclass(frozen=True, slots=True)
class Took:
    wall: float
    cpu: float

    def on(self, clock: Clock) -> float:
        return self.cpu if clock == "cpu" else self.wall


@dataclass(frozen=True, slots=True)
class Paired:
    ratio: float
    """Median of b/a over the rounds."""
    a: float
    b: float
    ratios: tuple[float, ...]

    def spread(self) -> str:
        return f"{min(self.ratios):.2f}–{max(self.ratios):.2f}"


def timed(fn: Callable[[], Any]) -> Took:
    w0, c0 = time.perf_counter(), time.process_time()
    fn()
    return Took(time.perf_counter() - w0, time.process_time() - c0)


def rounds(sides: dict[str, Callable[[], Took]], runs: int = RUNS) -> dict[str, list[Took]]:
    """Every side once per round, ``runs`` rounds, the order turned by one each round (so
    no side always runs first, or right after the same other side); each side returns what
    it took. Ratios are then taken within a round (:func:`ratio`)."""
    names = list(sides)
    times: dict[str, list[Took]] = {n: [] for n in names}
    for i in range(runs):
        k = i % len(names)
        for name in names[k:] + names[:k]:
            times[name].append(sides[name]())
    return times


def ratio(a: Sequence[Took], b: Sequence[Took], clock: Clock = "cpu") -> Paired:
    """b/a of times taken in the same rounds: the median of the per-round ratios."""
    xs, ys = [t.on(clock) for t in a], [t.on(clock) for t in b]
    ratios = tuple(y / x for x, y in zip(xs, ys, strict=True))
    return Paired(statistics.median(ratios), statistics.median(xs), statistics.median(ys),
                  ratios)


def median(values: Sequence[Took], clock: Clock = "wall") -> float:
    return statistics.median(t.on(clock) for t in values)


def referee_command() -> list[str]:
    """``referee`` as installed beside this interpreter (the console script a host types)."""
    script = Path(sys.executable).with_name("referee")
    return [str(script)] if script.exists() else [sys.executable, "-m", "referee.cli"]


_LAUNCHER = r"""
import json, os, subprocess, sys, time
for line in sys.stdin:
    argv, env = json.loads(line)
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=dict(os.environ, **env))
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t0
    err = proc.stderr.read().decode("utf-8", "replace")
    print(json.dumps([seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024,
                      os.waitstatus_to_exitcode(status), err[-2000:]]), flush=True)
"""
_launcher: subprocess.Popen[str] | None = None


def run_process(argv: Sequence[str], env: dict[str, str] | None = None
                ) -> tuple[Took, float]:
    """Run ``argv`` (with ``env`` added to the environment) to its end: (what it took, the
    child's max RSS in MB). Its output is thrown away; a failure is an error of the
    benchmark.

    The child is started by a small launcher process of its own: a child forked from this
    (by then large) benchmark process would count the benchmark's memory in its peak."""
    global _launcher
    if _launcher is None or _launcher.poll() is not None:
        _launcher = subprocess.Popen([sys.executable, "-c", _LAUNCHER], text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert _launcher.stdin is not None and _launcher.stdout is not None
    _launcher.stdin.write(json.dumps([list(argv), env or {}]) + "\n")
    _launcher.stdin.flush()
    wall, cpu, mb, code, err = json.loads(_launcher.stdout.readline())
    if code:
        raise RuntimeError(f"{' '.join(argv)} failed ({code}): {err}")
    return Took(wall, cpu), mb


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return (f"load average {one:.2f} / {five:.2f} / {fifteen:.2f} (1/5/15 min) on "
            f"{os.cpu_count()} cores")
