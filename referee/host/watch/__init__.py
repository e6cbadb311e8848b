"""``referee watch``: the host's assistant that keeps the count while the day runs (issue 21).

- :mod:`referee.host.watch.news` — a look at the game and what is new between two looks (pure);
- :mod:`referee.host.watch.plan` — the deadline work as jobs, which are due, when to look next
  (pure);
- :mod:`referee.host.watch.look` — taking a look at the game after a sync;
- :mod:`referee.host.watch.jobs` — doing a job as the host's commands do it, once;
- :mod:`referee.host.watch.loop` — the loop: reload, sync, look, tell, work, sleep;
- :mod:`referee.host.watch.lock` — one watch per database;
- :mod:`referee.host.watch.notify` — the lines pushed to the host's Telegram.
"""

from __future__ import annotations

from referee.host.watch.jobs import JobDone, JobLate, Texts
from referee.host.watch.loop import Clock, Notice, Screen, Status, WallClock, Watch, make_clock
from referee.host.watch.news import (
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
from referee.host.watch.plan import Job, Options

__all__ = [
    "Clock", "FirstLook", "Job", "JobDone", "JobLate", "LeaderChanged", "Look", "NightPm",
    "Notice", "Options", "PhaseChanged", "PostChanged", "Screen", "Status", "Texts",
    "VoteCounted", "VoteDropped", "VoteRejected", "WallClock", "Watch", "make_clock",
]
