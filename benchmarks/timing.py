"""How the benchmarks time: paired runs, medians, processes, and how busy the machine was.

- A ratio is never one time divided by another taken at another moment: ``paired`` runs
  both sides one after the other, ``runs`` times, swapping which goes first, and gives the
  median of the per-pair ratios (and each side's median).
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
"""Paired runs behind every ratio (at least five, the median is reported)."""


@dataclass(frozen=True, slots=True)
class Paired:
    ratio: float
    """Median of b/a over the pairs."""
    a: float
    b: float
    ratios: tuple[float, ...]

    def spread(self) -> str:
        return f"{min(self.ratios):.2f}–{max(self.ratios):.2f}"


def timed(fn: Callable[[], Any]) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def paired(a: Callable[[], float], b: Callable[[], float], runs: int = RUNS) -> Paired:
    """``a`` and ``b`` each return the seconds they took (so setup stays out of the time);
    run in pairs, ``runs`` times, alternating which one goes first."""
    times = rounds({"a": a, "b": b}, runs)
    return ratio(times["a"], times["b"])


def rounds(sides: dict[str, Callable[[], float]], runs: int = RUNS) -> dict[str, list[float]]:
    """Every side once per round, ``runs`` rounds, the order turned by one each round (so
    no side always runs first, or right after the same other side); each side returns the
    seconds it took. Ratios are then taken within a round (:func:`ratio`)."""
    names = list(sides)
    times: dict[str, list[float]] = {n: [] for n in names}
    for i in range(runs):
        k = i % len(names)
        for name in names[k:] + names[:k]:
            times[name].append(sides[name]())
    return times


def ratio(a: Sequence[float], b: Sequence[float]) -> Paired:
    """b/a of times taken in the same rounds: the median of the per-round ratios."""
    ratios = tuple(y / x for x, y in zip(a, b, strict=True))
    return Paired(statistics.median(ratios), statistics.median(a), statistics.median(b),
                  ratios)


def referee_command() -> list[str]:
    """``referee`` as installed beside this interpreter (the console script a host types)."""
    script = Path(sys.executable).with_name("referee")
    return [str(script)] if script.exists() else [sys.executable, "-m", "referee.cli"]


_LAUNCHER = r"""
import json, os, subprocess, sys, time
for line in sys.stdin:
    argv = json.loads(line)
    t0 = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - t0
    err = proc.stderr.read().decode("utf-8", "replace")
    print(json.dumps([seconds, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status),
                      err[-2000:]]), flush=True)
"""
_launcher: subprocess.Popen[str] | None = None


def run_process(argv: Sequence[str]) -> tuple[float, float]:
    """Run ``argv`` to its end: (wall seconds, the child's max RSS in MB). Its output is
    thrown away; a failure is an error of the benchmark.

    The child is started by a small launcher process of its own: a child forked from this
    (by then large) benchmark process would count the benchmark's memory in its peak."""
    global _launcher
    if _launcher is None or _launcher.poll() is not None:
        _launcher = subprocess.Popen([sys.executable, "-c", _LAUNCHER], text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert _launcher.stdin is not None and _launcher.stdout is not None
    _launcher.stdin.write(json.dumps(list(argv)) + "\n")
    _launcher.stdin.flush()
    seconds, mb, code, err = json.loads(_launcher.stdout.readline())
    if code:
        raise RuntimeError(f"{' '.join(argv)} failed ({code}): {err}")
    return seconds, mb


def load() -> str:
    one, five, fifteen = os.getloadavg()
    return (f"load average {one:.2f} / {five:.2f} / {fifteen:.2f} (1/5/15 min) on "
            f"{os.cpu_count()} cores")


def median(values: Sequence[float]) -> float:
    return statistics.median(values)
