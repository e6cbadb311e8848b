"""When the watch does what (referee.host.watch.plan): the jobs a schedule gives, which are
due, the back-off while the forum is away, when to look next — scenario tables."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from support.moscow import november as at

from referee.config.game import DaySchedule
from referee.core.errors import GameError
from referee.host.watch.plan import GRACE, MAX_BACKOFF, Job, Options, backoff, due, jobs, next_round

SCHEDULE = (
    DaySchedule(1, at("20 12:00"), at("20 22:00"), at("21 10:00")),
    DaySchedule(2, at("21 10:00"), at("21 22:00"), at("22 10:00")),
)
ALL = Options(tally=True, resolve=True, activity=True, post=True, send=True,
              remind=timedelta(minutes=60))
MIN = timedelta(minutes=1)


def test_the_jobs_of_a_schedule_in_the_order_a_host_does_them() -> None:
    got = [(j.key, j.due) for j in jobs(SCHEDULE, ALL)]
    assert got == [
        ("day:1:silent", at("20 21:00")), ("day:1:remind", at("20 21:00")),
        ("day:1:tally", at("20 22:01")),
        ("night:1:resolve", at("21 10:01")), ("turn:1:activity", at("21 10:01")),
        ("day:2:silent", at("21 21:00")), ("day:2:remind", at("21 21:00")),
        ("day:2:tally", at("21 22:01")),
        ("night:2:resolve", at("22 10:01")), ("turn:2:activity", at("22 10:01")),
    ]


def test_only_the_work_asked_for_is_planned() -> None:
    assert [j.kind for j in jobs(SCHEDULE, Options(tally=True))] == [
        "silent", "tally", "silent", "tally"]


def keys(jobs_: tuple[Job, ...]) -> list[str]:
    return [j.key for j in jobs_]


DUE = [
    # (why, now, synced_at, closed, started, watch began, run, late)
    ("before the deadline: only the warning and the reminder",
     at("20 21:05"), at("20 21:05"), set(), set(), at("20 12:00"),
     ["day:1:silent", "day:1:remind"], []),
    ("a minute after the deadline, after a fresh sync: the tally",
     at("20 22:01"), at("20 22:01"), {"day:1:silent", "day:1:remind"}, set(), at("20 12:00"),
     ["day:1:tally"], []),
    ("the forum did not answer: no deadline work",
     at("20 22:01"), None, {"day:1:silent", "day:1:remind"}, set(), at("20 12:00"), [], []),
    ("a reminder whose deadline passed is late, never posted",
     at("20 22:01"), at("20 22:01"), set(), set(), at("20 12:00"),
     ["day:1:tally"], ["day:1:silent", "day:1:remind"]),
    ("started after night 2: the latest work of each kind is done, older work is told",
     at("22 11:00"), at("22 11:00"), set(), set(), at("22 11:00"),
     ["day:2:tally", "night:2:resolve", "turn:2:activity"],
     ["day:1:silent", "day:1:remind", "day:1:tally", "night:1:resolve", "turn:1:activity",
      "day:2:silent", "day:2:remind"]),
    ("work a watch began is finished, however old",
     at("21 11:00"), at("21 11:00"), {"day:1:silent", "day:1:remind"}, {"day:1:tally"},
     at("21 11:00"), ["day:1:tally", "night:1:resolve", "turn:1:activity"], []),
]


@pytest.mark.parametrize(("why", "now", "synced", "closed", "started", "began", "run", "late"),
                         DUE, ids=[r[0] for r in DUE])
def test_due(why: str, now: datetime, synced: datetime | None, closed: set[str],
             started: set[str], began: datetime, run: list[str], late: list[str]) -> None:
    d = due(jobs(SCHEDULE, ALL), synced_at=synced, now=now, closed=closed, started=started,
            watch_began=began)
    assert (keys(d.run), keys(d.late)) == (run, late)


BACKOFF = [
    (timedelta(minutes=10), 0, 10), (timedelta(minutes=10), 1, 10),
    (timedelta(minutes=10), 2, 20), (timedelta(minutes=10), 3, 30),
    (timedelta(minutes=10), 9, 30), (timedelta(minutes=60), 4, 60),
]


@pytest.mark.parametrize(("every", "failures", "minutes"), BACKOFF)
def test_backoff_doubles_up_to_half_an_hour(every: timedelta, failures: int,
                                            minutes: int) -> None:
    assert backoff(every, failures) == timedelta(minutes=minutes)
    assert backoff(every, failures) <= max(every, MAX_BACKOFF)


def test_the_next_round_comes_early_for_a_deadline_and_never_too_soon() -> None:
    plan = jobs(SCHEDULE, Options(tally=True))
    every = timedelta(minutes=10)
    assert next_round(at("20 21:55"), every, 0, plan, {"day:1:silent"}) == at("20 22:01")
    assert next_round(at("20 21:30"), every, 0, plan, {"day:1:silent"}) == at("20 21:40")
    # A job due in a few seconds still leaves the forum alone for 20 s.
    assert next_round(at("20 22:01") - timedelta(seconds=5), every, 0, plan,
                      {"day:1:silent"}) == at("20 22:01") + timedelta(seconds=15)
    assert GRACE == MIN


OPTIONS = [
    (Options(every=timedelta(minutes=1)), "--every 1: чаще раза в 2 минуты"),
    (Options(post=True), "--post публикует то, что делают"),
    (Options(send=True, tally=True), "--send отправляет итоги ночи"),
    (Options(remind=timedelta(0)), "--remind: минут до дедлайна должно быть больше нуля"),
]


@pytest.mark.parametrize(("options", "said"), OPTIONS, ids=[r[1] for r in OPTIONS])
def test_options_that_ask_for_nothing_or_too_much_are_refused(options: Options,
                                                              said: str) -> None:
    with pytest.raises(GameError) as e:
        options.check()
    assert str(e.value).startswith(said)
