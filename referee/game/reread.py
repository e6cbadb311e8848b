"""Re-reading the open day by need, not by habit (issue 30).

An incremental sync reads the last stored page and any new ones. The earlier pages of the
day that is open (and of the last day that has closed and is not recorded yet) hold votes
that may be edited or deleted (docs/rules.md V4), so they are read again — but a watch
that syncs every 10 minutes must not read 40 pages each time for a few new posts. A sync
made with ``scheduled`` re-reads them:

- on a cadence: ``[forum] reread_every`` minutes after the last time they were all read
  (0: every sync, as a command run by hand does);
- once more when the last ``[forum] reread_before_deadline`` minutes before the deadline
  begin (the reminder and the preview then show the edits);
- **always once right after the deadline**: a day whose earlier pages were left unread by
  such a sync and not read again after its deadline is never recorded
  (:func:`unread_hold`) — an edit or deletion of a vote before the deadline is seen before
  any count is recorded, and V4's forensics (first-seen text) stay as they are;
- whenever the engine shows a cheap sign of change: the topic's post count on the last
  page differs from the posts stored and not missing (a post deleted, or one approved,
  somewhere above) — :func:`count_changed`.

What was read when is kept per topic and day in the store's ``meta`` (``reread:T:N``), so a
restarted watch keeps the cadence. ``referee sync`` by hand keeps the same schedule (``--full``
reads every page); a sync without ``scheduled`` (every other command the host runs by hand,
before it counts) re-reads those pages every time, as before.

The host's inbox has a cadence of its own. Night requests are read for the night they
count in, and one sent by day counts for the next night (docs/rules.md N1), so while a day
is open a scheduled sync lists the inbox every ``[forum] pm_every_by_day`` minutes (60), by
night every ``pm_every_by_night`` (0: every round) — and **always once after each start
and deadline** (a day's, a night's): the first scheduled sync after a night's deadline, or
after the end of a turn, has read every PM sent before it, before ``resolve-night`` or
``check-activity`` records anything. When the inbox was last listed whole is kept in
``meta`` (``pm_read``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from referee.config.game import DaySchedule
from referee.game.safety import INCOMPLETE
from referee.store import Store

if TYPE_CHECKING:  # the HTTP client loads when a command syncs, not with the game
    from referee.store.sync import SyncReport

KEY = "reread:{topic}:{day}"
PM_KEY = "pm_read"


@dataclass(frozen=True, slots=True)
class Memory:
    """What a topic's pages of one day were last read as."""

    at: datetime | None = None
    """When every page holding the day's posts was last read (None: never known)."""
    skipped: bool = False
    """A sync since then left some of them unread (the cadence had not come)."""


@dataclass(frozen=True, slots=True)
class DayPages:
    """One day a sync looks at: its window, the pages holding its posts, and whether they
    are read again in this sync."""

    window: DaySchedule
    pages: tuple[int, ...]
    due: bool


def memory(store: Store, topic_id: int, day: int) -> Memory:
    raw = store.get_meta(KEY.format(topic=topic_id, day=day))
    if not raw:
        return Memory()
    try:
        data = json.loads(raw)
        at = datetime.fromisoformat(data["at"]) if data.get("at") else None
        return Memory(at, bool(data.get("skipped")))
    except (ValueError, KeyError, TypeError):
        return Memory()  # written by another version: read the pages again


def _remember(store: Store, topic_id: int, day: int, m: Memory) -> None:
    store.set_meta(KEY.format(topic=topic_id, day=day), json.dumps(
        {"at": m.at.isoformat() if m.at else None, "skipped": m.skipped}))


def next_full(window: DaySchedule, m: Memory, every: timedelta,
              before: timedelta) -> datetime | None:
    """When the day's earlier pages are next read in full; None: at every sync."""
    if every <= timedelta(0) or m.at is None:
        return None
    if m.at >= window.deadline:
        return m.at + every  # read after the deadline: the cadence goes on until recorded
    at = m.at + every
    near = window.deadline - before
    if before > timedelta(0) and m.at < near < at:
        at = near
    return min(at, window.deadline)  # always once right after the deadline


def is_due(window: DaySchedule, m: Memory, now: datetime, every: timedelta,
           before: timedelta) -> bool:
    """Whether the day's earlier pages are read now; a read remembered later than now
    (``--now`` set before it) says nothing of now: they are."""
    at = next_full(window, m, every, before)
    return at is None or now >= at or (m.at is not None and m.at > now)


def _cadence(game: Any) -> tuple[timedelta, timedelta]:
    forum = game.config.forum
    return (timedelta(minutes=forum.reread_every),
            timedelta(minutes=forum.reread_before_deadline))


def days_read_again(game: Any) -> list[DaySchedule]:
    """The days whose pages a sync reads again: the one that is open and the last one that
    has closed and is not recorded yet (V4: its votes' edits matter until it is)."""
    now = game.now
    days = [d for d in game.schedule if d.start <= now < d.deadline]
    closed = [d for d in game.schedule if d.deadline <= now]
    if closed and game.store.result("day", closed[-1].day) is None:
        days.append(closed[-1])
    return days


def plan(game: Any, topic_id: int | None, *, scheduled: bool) -> list[DayPages]:
    """Per day looked at: its pages, and whether this sync reads them again."""
    if topic_id is None:
        return []
    every, before = _cadence(game)
    out = []
    for d in days_read_again(game):
        pages = tuple(game.store.pages_holding(d.start, d.night_deadline, topic_id=topic_id))
        due = not scheduled or is_due(d, memory(game.store, topic_id, d.day), game.now,
                                      every, before)
        out.append(DayPages(d, pages, due))
    return out


def pages(days: list[DayPages], *, all_of_them: bool = False) -> list[int]:
    """The pages to read again: those of the days due (``all_of_them``: of every day)."""
    return sorted({p for d in days if d.due or all_of_them for p in d.pages})


def remember(store: Store, report: SyncReport, days: list[DayPages], at: datetime) -> None:
    """Keep what this sync read: a day whose pages were all read (again, or as the pages
    it resumed on) was read at ``at``; one whose earlier pages were left is marked."""
    if report.topic_id is None:
        return
    read_again = set(report.rechecked)
    for d in days:
        left = [p for p in d.pages if p < report.start_page and p not in read_again]
        old = memory(store, report.topic_id, d.window.day)
        new = Memory(old.at, True) if left else Memory(at, False)
        if new != old:
            _remember(store, report.topic_id, d.window.day, new)


def count_changed(store: Store, report: SyncReport) -> bool:
    """The cheap sign of change: the topic's post count, as its last page shows it, is not
    the number of its posts stored and not missing — a post was deleted (or one appeared)
    on a page not read in this sync."""
    if report.total_posts is None or report.topic_id is None:
        return False
    (stored,) = store.conn.execute(
        "SELECT COUNT(*) FROM posts WHERE topic_id=? AND missing_since IS NULL",
        (report.topic_id,)).fetchone()
    return stored != report.total_posts


def next_full_reread(game: Any) -> datetime | None:
    """When a scheduled sync next reads the open day's earlier pages in full (the watch's
    status line); None when no day is looked at or no page of it was read yet."""
    every, before = _cadence(game)
    times: list[datetime] = []
    for d in days_read_again(game):
        for m in _memories(game.store, d.day):
            at = next_full(d, m, every, before)
            times.append(at if at is not None else game.now)
    return min(times) if times else None


def _memories(store: Store, day: int) -> list[Memory]:
    rows = store.conn.execute("SELECT key FROM meta WHERE key LIKE ?",
                              (f"reread:%:{day}",)).fetchall()
    return [memory(store, int(k.split(":")[1]), day) for (k,) in rows]


def unread_hold(game: Any, window: DaySchedule) -> str | None:
    """Why Day ``window.day``'s count must not be recorded yet: a scheduled sync left its
    earlier pages unread and they were not read again after the deadline (an edit or
    deletion of a vote before it could be unseen). None when nothing stands."""
    if game.now < window.deadline:
        return None
    for m in _memories(game.store, window.day):
        if m.skipped and (m.at is None or m.at < window.deadline):
            return (f"{INCOMPLETE}: ранние страницы дня {window.day} не перечитаны после "
                    "дедлайна (их читали по расписанию наблюдения): правка или удаление "
                    "голоса могли остаться невидны. Итог не записан и не публикуется; запустите "
                    "referee sync, затем команду снова")
    return None


# --------------------------------------------------------------------------- the inbox

def pms_read_at(store: Store) -> datetime | None:
    """When a sync last listed the inbox to the end (None: never known)."""
    raw = store.get_meta(PM_KEY)
    try:
        return datetime.fromisoformat(raw) if raw else None
    except ValueError:
        return None  # written by another version: read the inbox again


def remember_pms(store: Store, at: datetime) -> None:
    """The inbox was listed to the end by a sync that began at ``at``."""
    store.set_meta(PM_KEY, at.isoformat())


def _by_night(schedule: tuple[DaySchedule, ...], at: datetime) -> bool:
    """Whether ``at`` falls in a night: from a day's deadline to its night deadline, else
    to the next day's start (T1), else on (a night whose end is not set yet)."""
    starts = {d.day: d.start for d in schedule}
    for d in schedule:
        end = d.night_deadline or starts.get(d.day + 1)
        if d.deadline <= at and (end is None or at < end):
            return True
    return False


def next_pm_read(game: Any) -> datetime | None:
    """When a scheduled sync next lists the inbox; None: at the next one (never read)."""
    last = pms_read_at(game.store)
    if last is None:
        return None
    forum = game.config.forum
    schedule = game.schedule
    every = forum.pm_every_by_night if _by_night(schedule, last) else forum.pm_every_by_day
    at = last + timedelta(minutes=every)
    # Always once after each start and deadline: what was sent before it is then read.
    moments = [t for d in schedule for t in (d.start, d.deadline, d.night_deadline)
               if t is not None and t > last]
    return min([at, *moments])


def pms_due(game: Any) -> bool:
    """Whether a scheduled sync lists the inbox now (also when it was last listed later
    than now: ``--now`` set before it)."""
    at = next_pm_read(game)
    last = pms_read_at(game.store)
    return at is None or game.now >= at or (last is not None and last > game.now)


def pms_left(game: Any) -> str:
    """The sync line of an inbox left for later (the host running ``referee sync`` sees
    when it is read)."""
    at = next_pm_read(game)
    forum = game.config.forum
    when = f" в {at.astimezone(game.config.tz):%d.%m %H:%M}" if at is not None else ""
    return (f"ЛС: не читались в этот раз — по расписанию (днём раз в "
            f"{forum.pm_every_by_day:g} мин, ночью раз в {forum.pm_every_by_night:g} мин, "
            f"после каждого дедлайна — сразу), следующее чтение{when}; прочитать сейчас: "
            "referee sync --sent")
