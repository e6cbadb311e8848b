"""Doing one piece of deadline work (:class:`~referee.host.watch.plan.Job`) as the host would by
hand: ``tally --post`` at a day's deadline, ``resolve-night --post --send`` after the
night, ``check-activity --post`` after the turn — through the same game methods and the
same idempotent posting (:mod:`referee.host.publish`), so the watch records and posts exactly
what those commands do.

Each job's progress is kept in the game database (meta ``watch.job.<key>``): ``started``
before anything is recorded, ``sending`` with the very messages to send before the first
one goes out, then ``done`` (or ``late``, ``failed``). A watch that stops halfway and
starts again finishes the same messages: :mod:`referee.host.publish` skips those already sent,
and a message whose text would now be different is not made a second time.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import datetime
from typing import Any, Literal, Protocol

from referee.config.game import Config
from referee.core.errors import RefereeError
from referee.game import ActivityResult, Asked, DayResult, Game, NightResult
from referee.host.outgoing import Outgoing, activity_post, game_ref, night_messages, tally_post
from referee.host.outgoing import topic_ref as publish_topic
from referee.host.publish import MAYBE_SENT, run
from referee.host.watch.news import Look
from referee.host.watch.plan import Job, Options
from referee.store import Store

META = "watch.job."
"""Store meta key prefix of each job's progress."""
MAX_TRIES = 3
"""Rounds a job whose sending failed is tried again (a flood control, a form refused)."""

State = Literal["started", "sending", "done", "late", "failed"]


class Texts(Protocol):
    """The public texts of the deadline work, as the commands render them
    (:mod:`referee.render.watch` gives them; the library renders nothing itself)."""

    def tally_paste(self, result: DayResult, config: Config) -> str: ...

    def activity_public(self, result: ActivityResult, config: Config) -> str: ...

    def morning(self, result: NightResult, config: Config
                ) -> tuple[str, Sequence[tuple[str, str]]]: ...

    def reminder(self, day: int, deadline: datetime, now: datetime,
                 not_voted: Sequence[str], config: Config) -> str: ...


@dataclass(frozen=True, slots=True)
class JobDone:
    """What a job did, for the host's screen (and phone)."""

    job: Job
    at: datetime
    """The real time it was done (a laptop that slept past the deadline does it late)."""
    text: str = ""
    """The public text: posted with ``--post``, shown either way."""
    names: tuple[str, ...] = ()
    """Hanged / dead / removed / not voted / silent, as the job's kind says."""
    recorded: bool = False
    posting: bool = False
    """The host asked for it to go out (``--post``/``--send``)."""
    sent: tuple[tuple[str, int | None], ...] = ()
    """What went out now: (label, the forum's id)."""
    already: int = 0
    """Messages found sent before (by an earlier run, or the host by hand)."""
    failed: str | None = None
    maybe_sent: bool = False
    winner: str | None = None

    @property
    def kind(self) -> str:
        return {"remind": "reminder", "silent": "silent"}.get(self.job.kind, "deadline")


@dataclass(frozen=True, slots=True)
class JobLate:
    """A job whose moment passed without it: told once, then closed."""

    job: Job
    at: datetime
    kind: str = field(default="deadline", init=False)


# --------------------------------------------------------------------------- progress

def job_state(store: Store, key: str) -> dict[str, Any] | None:
    raw = store.get_meta(META + key)
    return json.loads(raw) if raw else None


def set_state(store: Store, key: str, state: State, at: datetime, **extra: Any) -> None:
    store.set_meta(META + key, json.dumps({"state": state, "at": at.isoformat(), **extra},
                                          ensure_ascii=False))


def progress(store: Store, jobs: Sequence[Job]) -> tuple[set[str], set[str]]:
    """(closed, started): the keys of jobs done or given up, and of jobs begun."""
    closed: set[str] = set()
    started: set[str] = set()
    for j in jobs:
        state = job_state(store, j.key)
        if state is None:
            continue
        (started if state["state"] in ("started", "sending") else closed).add(j.key)
    return closed, started


def after_end(game: Game, jobs: Sequence[Job]) -> set[str]:
    """The keys of the jobs fallen due whose phase comes after the end of the game (W2,
    N15.14): the game refuses them, so there is nothing to do. Not kept as done: a host's
    decision that makes the game go on opens them again."""
    out: set[str] = set()
    for j in jobs:
        if min(j.due, j.deadline or j.due) > game.now:
            continue
        asked: Asked = ("night" if j.kind == "resolve" else "turn" if j.kind == "activity"
                        else "day")
        if game.end_before(asked, j.number) is not None:
            out.add(j.key)
    return out


def close_late(store: Store, job: Job, at: datetime) -> JobLate:
    set_state(store, job.key, "late", at)
    return JobLate(job, at)


# --------------------------------------------------------------------------- the work

def run_job(game: Game, job: Job, options: Options, texts: Texts, look: Look,
            echo: Callable[[str], None]) -> JobDone:
    """Do ``job`` once (see the module docstring); ``echo`` shows the publishing listing."""
    store, now = game.store, game.now
    state = job_state(store, job.key)
    if state is not None and state["state"] == "sending":
        messages = [Outgoing(**m) for m in state["messages"]]
        done = JobDone(job, now, text=state.get("text", ""), names=tuple(state.get("names", ())),
                       posting=True)
        return _send(game, job, done, messages, echo, int(state.get("tries", 0)))
    set_state(store, job.key, "started", now)
    done, messages = _work(game, job, options, texts, look)
    if not messages:
        set_state(store, job.key, "done", game.now)
        return done
    set_state(store, job.key, "sending", game.now, text=done.text, names=list(done.names),
              messages=[asdict(m) for m in messages])
    return _send(game, job, done, messages, echo, 0)


def _recorded(game: Game, phase: str, number: int, look: Look, now: bool) -> bool:
    """Whether this round recorded the result: by the job itself, or moments before by the
    round's first look (walking the game to see its state records the days it passes).
    Only a result recorded before the round is «записан раньше»: on a fresh database
    nothing is."""
    if now:
        return True
    stored = game.store.result(phase, number)
    return stored is not None and stored.recorded_at >= look.at


def _work(game: Game, job: Job, options: Options, texts: Texts, look: Look
          ) -> tuple[JobDone, list[Outgoing]]:
    """The job's own part: record what the game records and make the texts to send."""
    config, n, now = game.config, job.number, game.now
    post = options.post
    if job.kind == "tally":
        result = game.tally_day(n)
        text = texts.tally_paste(result, config)
        hanged = result.recorded_hanged if result.recorded_hanged is not None else \
            result.tally.hanged
        done = JobDone(job, now, text, (hanged,) if hanged else (),
                       _recorded(game, "day", n, look, result.recorded), post,
                       winner=result.winner.explain() if result.winner else None)
        return done, [tally_post(config, n, text)] if post else []
    if job.kind == "resolve":
        night = game.resolve_night(n)
        report, private = texts.morning(night, config)
        deaths = tuple(d.player for d in night.outcome.deaths)
        done = JobDone(job, now, report, deaths,
                       _recorded(game, "night", n, look, night.recorded), post or options.send,
                       winner=night.winner.explain() if night.winner else None)
        if not (post or options.send):
            return done, []
        return done, night_messages(config, night, report=report, private=private, post=post,
                                    send=options.send, now=now)
    if job.kind == "activity":
        result = game.check_activity(n)
        text = texts.activity_public(result, config)
        gone = tuple(f.nick for f in result.report.removed)
        return (JobDone(job, now, text, gone,
                        _recorded(game, "activity", n, look, result.recorded), post),
                [activity_post(config, n, text)] if post else [])
    if job.kind == "remind":
        names = look.not_voted if look.phase == "day" and look.number == n else ()
        if not names:
            return JobDone(job, now), []
        deadline = job.deadline or now
        text = texts.reminder(n, deadline, now, names, config)
        message = Outgoing("post", game_ref(config), f"day:{n}:remind", publish_topic(config),
                           text.rstrip() + "\n", label=f"напоминание, день {n}")
        return JobDone(job, now, text, names, posting=post), [message] if post else []
    names = look.silent if look.phase == "day" and look.number == n else ()
    return JobDone(job, now, names=names), []


def _send(game: Game, job: Job, done: JobDone, messages: list[Outgoing],
          echo: Callable[[str], None], tries: int) -> JobDone:
    """Publish ``messages`` (once each: :func:`referee.host.publish.run`, confirmed when the
    watch started) and close the job; a failure is tried again in the next rounds, but a
    message the forum may have stored is never sent again (``referee mark-sent``)."""
    store = game.store
    try:
        outcome = run(game.config, store, messages, echo=echo, confirm=lambda q: True,
                      yes=True, now=game.clock)
    except RefereeError as e:
        maybe = any(store.get_meta(MAYBE_SENT + m.key) for m in messages)
        given_up = maybe or tries + 1 >= MAX_TRIES
        if given_up:
            set_state(store, job.key, "failed", game.now, error=e.message)
        else:
            state = job_state(store, job.key) or {}
            set_state(store, job.key, "sending", game.now, text=state.get("text", done.text),
                      names=state.get("names", list(done.names)),
                      messages=state.get("messages", [asdict(m) for m in messages]),
                      tries=tries + 1)
        return replace(done, failed=e.message + ("" if given_up else
                                                  " — попробую снова в следующий раз"),
                        maybe_sent=maybe)
    set_state(store, job.key, "done", game.now)
    sent = tuple((m.label, r.forum_id) for m, r in outcome.sent)
    return replace(done, sent=sent, already=len(outcome.already))
