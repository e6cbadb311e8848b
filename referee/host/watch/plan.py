"""When ``referee watch`` does what (issue 21): its deadline work as a list of jobs, which
of them are due, and when to look next. Pure: the schedule, the options, the time and
what is done already in; decisions out.

A job is one piece of deadline work, named by a key kept in the game database once done
(``day:2:tally``), so that it is done once, even across a restart of the watch:

- ``tally`` (``--tally-at-deadline``): once Day N's deadline has passed — the day's result
  recorded and shown, with ``--post`` posted (V6);
- ``resolve`` (``--resolve-at-deadline``): once Night N is over — the night resolved and
  recorded, the morning report shown (``--post``), the private results sent (``--send``);
- ``activity`` (``--activity-at-deadline``): once turn N is over (Day N+1 starts, A1) —
  the activity check recorded and shown (``--post``);
- ``remind`` (``--remind M``): M minutes before Day N's deadline, who has not voted yet,
  shown (``--post``: posted); never after the deadline;
- ``silent`` (``--warn M``, always on): M minutes before Day N's deadline, the players
  with no post this turn (A1), told to the host; never after the deadline.

A deadline job waits for a sync that began after the deadline (plus :data:`GRACE`): a
vote posted a second before it is then on the page. Deadline work found undone when a
watch starts is done only for the latest deadline of each kind: older ones are told, not
done (the host has run those days by hand, or let them be).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Literal

from referee.config.game import DaySchedule
from referee.core.errors import GameError

JobKind = Literal["tally", "resolve", "activity", "remind", "silent"]

GRACE = timedelta(minutes=1)
"""How long after a deadline the watch syncs for the deadline's work."""
MIN_EVERY = timedelta(minutes=2)
"""The shortest ``--every``: an incremental sync is one to three requests, and a watch
that reads the forum more often than a host reloading the page would is not polite."""
MAX_BACKOFF = timedelta(minutes=30)
"""The longest wait between two tries while the forum does not answer."""
MIN_GAP = timedelta(seconds=20)
"""Never two rounds closer than this, whatever falls due."""


@dataclass(frozen=True, slots=True)
class Options:
    """What the host asked ``referee watch`` to do (the command's options)."""

    every: timedelta = timedelta(minutes=10)
    tally: bool = False
    resolve: bool = False
    activity: bool = False
    post: bool = False
    send: bool = False
    remind: timedelta | None = None
    warn: timedelta = timedelta(minutes=60)
    until: datetime | None = None

    def check(self) -> None:
        """Refuse options that ask for nothing or for too much."""
        if self.every < MIN_EVERY:
            raise GameError(
                f"--every {self.every.total_seconds() / 60:g}: чаще раза в "
                f"{MIN_EVERY.total_seconds() / 60:g} минуты форум не читается",
                "referee watch --every 2 (или больше)")
        if self.post and not (self.tally or self.resolve or self.activity or self.remind):
            raise GameError(
                "--post публикует то, что делают --tally-at-deadline, --resolve-at-deadline, "
                "--activity-at-deadline или --remind, а ни одна из них не задана",
                "например: referee watch --tally-at-deadline --post")
        if self.send and not self.resolve:
            raise GameError("--send отправляет итоги ночи: нужен и --resolve-at-deadline",
                            "referee watch --resolve-at-deadline --send")
        if self.remind is not None and self.remind <= timedelta(0):
            raise GameError("--remind: минут до дедлайна должно быть больше нуля",
                            "например: --remind 60")

    @property
    def posts_or_sends(self) -> bool:
        return self.post or self.send


@dataclass(frozen=True, slots=True)
class Job:
    """One piece of deadline work: due from ``due``; too late from ``until`` (reminders
    and warnings only make sense before the deadline)."""

    kind: JobKind
    number: int
    due: datetime
    until: datetime | None = None
    deadline: datetime | None = None
    """The deadline the job belongs to (shown with the job)."""

    @property
    def key(self) -> str:
        scope = "turn" if self.kind == "activity" else "night" if self.kind == "resolve" \
            else "day"
        return f"{scope}:{self.number}:{self.kind}"


def _night_end(day: DaySchedule, following: DaySchedule | None) -> datetime | None:
    return day.night_deadline or (following.start if following else None)


def jobs(schedule: Sequence[DaySchedule], options: Options) -> list[Job]:
    """Every job of the game the options ask for, in the order they fall due (a night's
    morning report before the activity list of the same moment, as a host does them)."""
    days = sorted(schedule, key=lambda d: d.day)
    out: list[Job] = []
    order = {"silent": 0, "remind": 1, "tally": 2, "resolve": 3, "activity": 4}
    for i, d in enumerate(days):
        following = days[i + 1] if i + 1 < len(days) else None
        out.append(Job("silent", d.day, d.deadline - options.warn, d.deadline, d.deadline))
        if options.remind is not None:
            out.append(Job("remind", d.day, d.deadline - options.remind, d.deadline,
                           d.deadline))
        if options.tally:
            out.append(Job("tally", d.day, d.deadline + GRACE, deadline=d.deadline))
        end = _night_end(d, following)
        if options.resolve and end is not None:
            out.append(Job("resolve", d.day, end + GRACE, deadline=end))
        turn_end = following.start if following else end or d.deadline
        if options.activity:
            out.append(Job("activity", d.day, turn_end + GRACE, deadline=turn_end))
    return sorted(out, key=lambda j: (j.due, order[j.kind], j.number))


@dataclass(frozen=True, slots=True)
class Due:
    """What to do in this round: ``run`` now; ``late`` jobs whose moment has passed without
    them (a reminder after its deadline, old deadline work at a start): told, then closed."""

    run: tuple[Job, ...]
    late: tuple[Job, ...]


def due(all_jobs: Iterable[Job], *, synced_at: datetime | None, now: datetime,
        closed: Collection[str], started: Collection[str], watch_began: datetime) -> Due:
    """The jobs to do after a sync that began at ``synced_at`` (None: the sync failed, so
    no deadline work: it waits for the forum). ``closed`` are the keys done or given up;
    ``started`` the keys a watch began and did not finish (finished first, whatever
    their age)."""
    run: list[Job] = []
    late: list[Job] = []
    pending = [j for j in all_jobs if j.key not in closed]
    newest: dict[str, Job] = {}
    for j in pending:
        if j.until is None and j.due <= watch_began:
            newest[j.kind] = j  # the latest deadline of its kind that passed before the start
    for j in pending:
        if j.until is not None and now >= j.until:
            late.append(j)
        elif synced_at is None or j.due > synced_at:
            continue  # not yet, or no fresh sync to do it from
        elif (j.until is not None or j.key in started or j.due > watch_began
              or newest.get(j.kind) == j):
            run.append(j)
        else:
            late.append(j)
    return Due(tuple(run), tuple(late))


def backoff(every: timedelta, failures: int) -> timedelta:
    """The wait before the next round: ``every``, doubled for each round in a row the
    forum did not answer, up to :data:`MAX_BACKOFF` (or ``every`` when that is longer)."""
    if failures <= 0:
        return every
    return min(every * (2 ** (failures - 1)), max(every, MAX_BACKOFF))


def next_round(now: datetime, every: timedelta, failures: int, all_jobs: Iterable[Job],
               closed: Collection[str]) -> datetime:
    """When to look next: after :func:`backoff`, or earlier at the next moment a job falls
    due, but never within :data:`MIN_GAP` of now."""
    at = now + backoff(every, failures)
    for j in all_jobs:
        if j.key not in closed and now < j.due < at:
            at = j.due
    return max(at, now + MIN_GAP)


def finished(schedule: Sequence[DaySchedule], all_jobs: Iterable[Job], now: datetime,
             closed: Collection[str]) -> bool:
    """The game's schedule is over and nothing asked for is left to do."""
    days = sorted(schedule, key=lambda d: d.day)
    if not days:
        return True
    last = days[-1]
    end = last.night_deadline or last.deadline
    return now >= end + GRACE and all(
        j.key in closed or (j.until is not None and now >= j.until) for j in all_jobs)
