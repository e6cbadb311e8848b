"""``referee watch``'s loop (issue 21): every round it reads the config again, syncs,
takes a look at the game, tells what is new since the last look, does the deadline work
that is due, and sleeps until the next round.

What a long job meets, and what the loop does:

- **The forum down.** A round whose sync fails says so (once when it starts, then each
  try), waits longer each time (:func:`referee.host.watch.plan.backoff`), does no deadline
  work without a fresh sync, and when the forum answers again says how long it was away;
  the incremental sync then reads everything missed.
- **The computer asleep.** The loop sleeps in short naps and looks at the wall clock
  after each: a jump forward is told with the real time, and the round that follows does
  the deadline work that fell due meanwhile, once, at the real time.
- **A second watch** on the same database is refused (:mod:`referee.host.watch.lock`).
- **The config edited.** Read again at each round when the file changed; a config that
  does not load is told, and the round goes on with the last good one.

The loop prints nothing: it hands every line to :class:`Screen` callbacks (the CLI draws
them) and, for the classes the host picked, to the :class:`~referee.host.watch.notify.Notifier`.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Protocol

from adapters.base import PASSWORD_ENV
from referee.config.game import Config, load_config
from referee.core.errors import (
    ConfigError,
    ForumError,
    LoginFailed,
    LoginRequired,
    RefereeError,
    RequestRefused,
)
from referee.game import Game
from referee.game.dealing import with_recorded_roster
from referee.host.publish import check_can_send
from referee.host.watch import plan
from referee.host.watch.jobs import JobDone, Texts, after_end, close_late, progress, run_job
from referee.host.watch.lock import WatchLock
from referee.host.watch.look import take_look
from referee.host.watch.news import Look, look_from_json, look_to_json, news
from referee.host.watch.notify import Notifier
from referee.store import Store

LOOK_META = "watch.look"
"""Store meta key of the last look (a restarted watch goes on from it)."""
NAP = 30.0
"""Seconds of one nap: the wall clock is looked at after each."""
JUMP = timedelta(minutes=2)
"""A nap that took this much longer than asked was the computer asleep."""
HEARTBEAT = timedelta(hours=1)
"""A quiet watch still writes its status line to a log this often."""


class Clock(Protocol):
    def now(self) -> datetime: ...

    def sleep(self, seconds: float) -> None: ...


@dataclass
class WallClock:
    """The real clock, optionally shifted (``--now`` sets where the watch starts and the
    time runs on from there: rehearsals)."""

    offset: timedelta = timedelta(0)

    def now(self) -> datetime:
        return datetime.now(UTC) + self.offset

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


def make_clock(start: datetime | None = None) -> Clock:
    """The watch's clock: the real one, or the real one running on from ``start``."""
    return WallClock(start - datetime.now(UTC) if start is not None else timedelta(0))


# --------------------------------------------------------------------------- what the loop tells

@dataclass(frozen=True, slots=True)
class Notice:
    """A line about the watch itself: ``what`` names it, ``facts`` carry its values.

    ``started``, ``stopped`` (why: ``until``/``over``/``schedule``/``interrupted``),
    ``forum_down`` (since, error, next try), ``forum_back`` (down since), ``config``
    (reloaded / kept: error), ``woke`` (from, to), ``notify`` (failed: error / back),
    ``error`` (a round's failure), ``sync`` (a warning of the sync)."""

    what: str
    at: datetime
    facts: dict[str, Any] = field(default_factory=dict)

    @property
    def kind(self) -> str:
        return {"forum_down": "forum", "forum_back": "forum", "config": "config",
                "error": "error", "sync": "forum"}.get(self.what, "phase")


@dataclass(frozen=True, slots=True)
class Status:
    """What the status line shows after a round."""

    look: Look | None
    now: datetime
    next_round: datetime | None
    down_since: datetime | None
    next_job: plan.Job | None
    until: datetime | None = None
    """``--until``: when the next round is that time, the line says the watch stops."""
    next_reread: datetime | None = None
    """When the open day's earlier pages are next read in full (:mod:`referee.game.reread`)."""


class WatchTexts(Texts, Protocol):
    """Everything the watch says: the deadline texts and the lines."""

    def line(self, item: Any, config: Config, at: datetime) -> str: ...

    def shown(self, done: JobDone, config: Config) -> str: ...

    def plan(self, options: plan.Options, now_due: Sequence[plan.Job],
             later: Sequence[plan.Job], config: Config) -> str: ...

    def status(self, status: Status, config: Config) -> str: ...


@dataclass
class Screen:
    """Where the lines go: ``say`` one line (an event), ``status`` the status line after
    a round, ``tick`` the status line while napping (a live display redraws it; a log
    does not want it)."""

    say: Callable[[str], None]
    status: Callable[[str], None]
    tick: Callable[[str], None] = lambda line: None


# --------------------------------------------------------------------------- the watch

class Watch:
    """One ``referee watch`` run over a game (see the module docstring)."""

    def __init__(self, config_path: Path, db_path: Path | None, options: plan.Options,
                 texts: WatchTexts, screen: Screen | None = None, clock: Clock | None = None,
                 notifier: Notifier | None = None) -> None:
        options.check()
        self.config_path = config_path
        self.config = load_config(config_path)
        self.stamp = _stamp(config_path)
        self.db_path = db_path or self.config.db_path
        self.options = options
        self.texts = texts
        self.screen = screen or Screen(say=lambda line: None, status=lambda line: None)
        self.clock = clock or make_clock()
        until = options.until
        if until is not None and until <= self.clock.now():
            tz = self.config.tz
            raise RequestRefused(
                f"--until {until.astimezone(tz):%Y-%m-%d %H:%M} уже прошло "
                f"(сейчас {self.clock.now().astimezone(tz):%Y-%m-%d %H:%M})",
                "укажите время позже, чем сейчас, или запустите без --until")
        self.own_notifier = notifier is None
        self.notifier = notifier if notifier is not None else Notifier(self.config.notify)
        self.began = self.clock.now()
        self.failures = 0
        self.down_since: datetime | None = None
        self.last: Look | None = None
        self.wake_at = self.began
        self.told = False
        self.status_at: datetime | None = None
        self.next_reread: datetime | None = None

    # -- before the run

    def agreed(self, *, show: Callable[[str], None],
               ask: Callable[[str], bool] | None) -> bool:
        """The one question of a watch that posts or sends (``ask`` None: ``--yes``): what
        it will do without asking again, and what is due at once. Posting needs the live
        forum and the host's login: a missing setting is told now, not at 22:00."""
        if not self.options.posts_or_sends:
            return True
        check_can_send(self.config)
        if ask is None:
            return True
        show(self.texts.plan(self.options, *self.coming(), self.config))
        return ask("Так и делать?")

    def keep_password(self, prompt: Callable[[str], str] | None) -> None:
        """A watch runs for days: the forum password is asked once at the start, in case
        the session ends meanwhile, and kept in this process only (as ``REFEREE_PASSWORD``
        would be). Not asked without a login, from a snapshot, or without a terminal."""
        forum = self.config.forum.board
        if prompt is None or not forum.username or forum.snapshot is not None or \
                os.environ.get(PASSWORD_ENV):
            return
        value = prompt(f"Пароль форума для {forum.username} (на время наблюдения, нигде "
                       "не сохраняется): ")
        if value:
            os.environ[PASSWORD_ENV] = value

    def coming(self) -> tuple[list[plan.Job], list[plan.Job]]:
        """(jobs due already, the next jobs of each kind): what the confirmation names."""
        with self._game() as game:
            all_jobs = plan.jobs(game.schedule, self.options)
            closed, started = progress(game.store, all_jobs)
        now = self.clock.now()
        due = plan.due(all_jobs, synced_at=now, now=now, closed=closed, started=started,
                       watch_began=now)
        later: dict[str, plan.Job] = {}
        for j in all_jobs:
            if j.key not in closed and j.due > now and j.kind != "silent":
                later.setdefault(j.kind, j)
        return [j for j in due.run if j.kind != "silent"], list(later.values())

    # -- the run

    def run(self) -> str:
        """Watch until the game or its schedule is over, ``--until``, or Ctrl-C; returns
        why it stopped."""
        with WatchLock(self.db_path):
            self.began = self.clock.now()
            self._tell(Notice("started", self.began, {"notify": self.notifier.off_because}))
            try:
                until = self.options.until
                while True:
                    why = self.round()
                    if why is None and until is not None and self.clock.now() >= until:
                        why = "until"
                    if why is None:
                        self._nap(min(self.wake_at, until) if until else self.wake_at)
                        if until is not None and self.clock.now() >= until:
                            why = "until"
                    if why is not None:
                        self._tell(Notice("stopped", self.clock.now(), {"why": why}))
                        return why
            except KeyboardInterrupt:
                self._tell(Notice("stopped", self.clock.now(), {"why": "interrupted"}))
                return "interrupted"
            except (LoginRequired, LoginFailed) as e:
                # Logging in needs the host: the watch cannot go on by itself.
                self._tell(Notice("error", self.clock.now(), {"error": e.message,
                                                              "hint": e.hint}))
                raise
            finally:
                self._flush()
                self.notifier.close()

    def round(self) -> str | None:
        """One round; returns why the watch is over, or None to go on. A round that fails
        (the database busy or refused, the game's data not allowing a count) is told and
        tried again later: the watch does not stop for it."""
        self._reload()
        try:
            return self._round()
        except (LoginRequired, LoginFailed):
            raise
        except RefereeError as e:
            now = self.clock.now()
            self._tell(Notice("error", now, {"error": e.message, "hint": e.hint}))
            self.wake_at = plan.next_round(now, self.options.every, 1, [], ())
            self._flush()
            return None

    def _round(self) -> str | None:
        started = self.clock.now()
        with self._game() as game:
            synced_at = self._sync(game, started)
            look = take_look(game)
            before = self.last or _stored_look(game.store)
            for item in news(before, look):
                self._tell(item)
            game.store.set_meta(LOOK_META, json.dumps(look_to_json(look), ensure_ascii=False))
            self.last = look
            over = self._jobs(game, look, synced_at)
        self._flush()
        return over

    def _jobs(self, game: Game, look: Look, synced_at: datetime | None) -> str | None:
        all_jobs = plan.jobs(game.schedule, self.options)
        closed, started = progress(game.store, all_jobs)
        # W2: the work after the end of the game is none (never kept as done: after_end),
        # yet it is the latest of its kind: older work is not done in its place.
        gone = after_end(game, all_jobs) if look.winner is not None else set()
        due = plan.due(all_jobs, synced_at=synced_at, now=game.now, closed=closed,
                       started=started, watch_began=self.began)
        closed |= gone
        for job in due.late:
            if job.key not in gone:
                self._tell(close_late(game.store, job, game.now))
                closed.add(job.key)
        for job in (j for j in due.run if j.key not in gone):
            try:
                # A game of its own: the look's counts are cached unrecorded (record=False),
                # and the job must count and record as a command run by hand does.
                fresh = Game(game.config, game.store, game.clock)
                done = run_job(fresh, job, self.options, self.texts, look, self.screen.say)
            except RefereeError as e:
                self._tell(Notice("error", game.now, {"error": e.message, "hint": e.hint,
                                                      "job": job}))
                continue
            if done.failed is None or done.maybe_sent:
                closed.add(job.key)
            if not (done.job.kind == "silent" and not done.names):
                self._tell(done)
            if done.text and not done.posting:
                self.screen.say(self.texts.shown(done, self.config))
        now = game.now
        self.wake_at = plan.next_round(now, self.options.every, self.failures, all_jobs, closed)
        if self.options.until is not None:  # the watch ends at --until, not at a round
            self.wake_at = min(self.wake_at, self.options.until)
        self._status(look, now, [j for j in all_jobs if j.key not in closed and j.due > now])
        if look.winner is not None and not any(
                j.key not in closed and (j.deadline or j.due) <= now
                for j in all_jobs if j.until is None):
            return "over"  # and the work of the deadline that ended the game is done
        if plan.finished(game.schedule, all_jobs, now, closed):
            return "schedule"
        return None

    # -- the pieces

    def _status(self, look: Look, now: datetime, pending: Sequence[plan.Job]) -> None:
        """The status line: drawn after every round; a log gets it when the round told
        something, or once an hour to show the watch is alive."""
        line = self.texts.status(
            Status(look, now, self.wake_at, self.down_since, pending[0] if pending else None,
                   until=self.options.until, next_reread=self.next_reread), self.config)
        if self.told or self.status_at is None or now - self.status_at >= HEARTBEAT:
            self.screen.status(line)
            self.told, self.status_at = False, now
        else:
            self.screen.tick(line)

    def _game(self) -> _OpenGame:
        return _OpenGame(self.config, self.db_path, self.clock)

    def _sync(self, game: Game, started: datetime) -> datetime | None:
        """Sync; the time it began, or None when the forum did not answer."""
        try:
            # By need: the open day's earlier pages on their schedule (issue 30).
            lines = game.sync(scheduled=True)
        except (LoginRequired, LoginFailed):
            raise
        except ForumError as e:
            self.failures += 1
            first = self.down_since is None
            if first:
                self.down_since = started
            wait = plan.backoff(self.options.every, self.failures)
            self._tell(Notice("forum_down", game.now, {
                "since": self.down_since, "error": e.message, "first": first,
                "next": game.now + wait}))
            return None
        from referee.game.reread import next_full_reread

        self.next_reread = next_full_reread(game)
        if self.down_since is not None:
            self._tell(Notice("forum_back", game.now, {"since": self.down_since}))
        self.failures, self.down_since = 0, None
        for line in lines:
            if line.startswith("!"):
                self._tell(Notice("sync", game.now, {"warning": line.lstrip("! ")}))
        return started

    def _reload(self) -> None:
        stamp = _stamp(self.config_path)
        if stamp == self.stamp:
            return
        self.stamp = stamp
        now = self.clock.now()
        try:
            config = load_config(self.config_path)
        except ConfigError as e:
            self._tell(Notice("config", now, {"error": e.message, "hint": e.hint}))
            return
        if self.own_notifier and config.notify != self.config.notify:
            self._flush()
            self.notifier.close()
            self.notifier = Notifier(config.notify)
        self.config = config
        self._tell(Notice("config", now, {}))

    def _nap(self, until: datetime) -> None:
        while True:
            now = self.clock.now()
            if now >= until:
                return
            step = min((until - now).total_seconds(), NAP)
            self.clock.sleep(step)
            after = self.clock.now()
            if after - now > timedelta(seconds=step) + JUMP:
                self._tell(Notice("woke", after, {"from": now}))
                self._flush()
                return
            self.screen.tick(self.texts.status(
                Status(self.last, after, until, self.down_since, None,
                       until=self.options.until, next_reread=self.next_reread), self.config))

    def _tell(self, item: object) -> None:
        line = self.texts.line(item, self.config, self.clock.now())
        if line:
            self.told = True
            self.screen.say(line)
            self.notifier.push(getattr(item, "kind", "phase"), line)

    def _flush(self) -> None:
        failed, back = self.notifier.flush()
        if failed or back:
            self.screen.say(self.texts.line(
                Notice("notify", self.clock.now(), {"error": failed, "back": back}),
                self.config, self.clock.now()))


class _OpenGame:
    """A game over a store opened for one round only, so that the host's own commands
    run between rounds."""

    def __init__(self, config: Config, db: Path, clock: Clock) -> None:
        self.config, self.db, self.clock = config, db, clock

    def __enter__(self) -> Game:
        store = Store.open(self.db)
        try:
            # The roster ``referee deal`` recorded, as every command plays with
            # (:meth:`Game.open`): without its roles no night is resolved and a player the
            # night killed would still be counted alive (V5).
            config = with_recorded_roster(self.config, store)
        except RefereeError:
            store.close()
            raise
        self.game = Game(config, store, self.clock.now)
        return self.game

    def __exit__(self, *exc: object) -> None:
        self.game.close()


def _stored_look(store: Store) -> Look | None:
    raw = store.get_meta(LOOK_META)
    if not raw:
        return None
    try:
        return look_from_json(json.loads(raw))
    except (ValueError, KeyError, TypeError):
        return None  # a look written by another version: start afresh


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_mtime_ns, st.st_size
