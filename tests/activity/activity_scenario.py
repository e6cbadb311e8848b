"""Helpers for the activity tests: Moscow-time tables → the inputs of ``check_activity``.

Times in the tables are written as the host reads them on the forum, «20.11 18:00» (2026,
Moscow), and stored as UTC like everything else (docs/rules.md T2).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from support.moscow import msk_short as msk

from referee.config.game import ActivityRules, DaySchedule
from referee.core.kernel import Post
from referee.core.markup import QUOTE_MARK
from referee.rules.day.activity import (
    ActivityReport,
    ActivityRow,
    Excuse,
    TurnDeath,
    check_activity,
)

HOST = "Ведущий"


def day(n: int, start: str, deadline: str, night_deadline: str | None = None) -> DaySchedule:
    return DaySchedule(
        n, msk(start), msk(deadline), msk(night_deadline) if night_deadline else None
    )


def post(author: str, when: str, text: str = "Читаю тему, думаю.", post_id: int = 0) -> Post:
    """A topic post; lines of ``text`` starting with «> » were quoted from someone else."""
    lines = [
        QUOTE_MARK + line[2:] if line.startswith("> ") else line for line in text.split("\n")
    ]
    return Post(
        post_id=post_id,
        author=author,
        author_id=None,
        posted_at=msk(when),
        body_html="",
        body_text="\n".join(lines),
    )


def posts(table: Iterable[tuple[str, str]]) -> list[Post]:
    """A table of (author, «dd.mm HH:MM») rows → posts with ids in table order."""
    return [post(a, w, post_id=i) for i, (a, w) in enumerate(table, start=1)]


# The game every scenario uses unless it says otherwise: three days, each turn ending at
# the next morning's day start (docs/rules.md T1).
SCHEDULE = (
    day(1, "20.11 18:00", "21.11 22:00", "22.11 10:00"),
    day(2, "22.11 10:05", "23.11 22:00", "24.11 10:00"),
    day(3, "24.11 10:05", "25.11 22:00", "26.11 10:00"),
    day(4, "26.11 10:05", "27.11 22:00", "28.11 10:00"),
)


def run(
    turn: int,
    *,
    alive: Sequence[str],
    posts: Iterable[Post] = (),
    voters: Mapping[int, Iterable[str]] | None = None,
    rejected: Mapping[int, Iterable[str]] | None = None,
    excuses: Iterable[Excuse] = (),
    deaths: Iterable[TurnDeath] = (),
    now: str,
    rules: ActivityRules | None = None,
    schedule: Sequence[DaySchedule] = SCHEDULE,
    first_day: Mapping[str, int] | None = None,
) -> ActivityReport:
    """``check_activity`` with the scenario defaults; ``voters`` defaults to «nobody voted»
    on every day up to ``turn``."""
    counted = {d: set(v) for d, v in (voters or {}).items()}
    for d in range(1, turn + 1):
        counted.setdefault(d, set())
    return check_activity(
        turn,
        players_alive_at_turn_start=alive,
        posts=posts,
        schedule=schedule,
        counted_voters_by_day=counted,
        rejected_voters_by_day={d: set(v) for d, v in (rejected or {}).items()},
        excuses=excuses,
        deaths_during_turn=deaths,
        host=HOST,
        rules=rules or ActivityRules(),
        now=msk(now),
        first_day=first_day,
    )


def flags(report: ActivityReport) -> dict[str, str]:
    """nick → "removed A1" / "warning A2" / …; players with no flag are left out."""
    out = {f.nick: f"removed {f.rule}" for f in report.removed}
    out.update({f.nick: f"warning {f.rule}" for f in report.warnings})
    return out


def row(report: ActivityReport, nick: str) -> ActivityRow:
    return next(r for r in report.rows if r.nick == nick)
