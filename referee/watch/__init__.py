"""``referee watch``: the host's assistant that keeps the count while the day runs (issue 21).

- :mod:`referee.watch.news` — a look at the game and what is new between two looks (pure);
- :mod:`referee.watch.plan` — the deadline work as jobs, which are due, when to look next
  (pure);
- :mod:`referee.watch.look` — taking a look at the game after a sync;
- :mod:`referee.watch.jobs` — doing a job as the host's commands do it, once;
- :mod:`referee.watch.loop` — the loop: reload, sync, look, tell, work, sleep;
- :mod:`referee.watch.lock` — one watch per database;
- :mod:`referee.watch.notify` — the lines pushed to the host's Telegram.
"""

from __future__ import annotations

from referee.watch.jobs import JobDone, JobLate, Texts
from referee.watch.loop import Clock, Notice, Screen, Status, WallClock, Watch, make_clock
from referee.watch.news import (
    FirstLook,
    LeaderChanged,
    Look,
    NightPm,
    PhaseChanged,
    PostChanged,
    VoteCounted,
    VoteDropped,
    VoteRejected,
)
from referee.watch.plan import Job, Options

__all__ = [
    "Clock", "FirstLook", "Job", "JobDone", "JobLate", "LeaderChanged", "Look", "NightPm",
    "Notice", "Options", "PhaseChanged", "PostChanged", "Screen", "Status", "Texts",
    "VoteCounted", "VoteDropped", "VoteRejected", "WallClock", "Watch", "make_clock",
]
