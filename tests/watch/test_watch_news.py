"""What is new between two looks (referee.host.watch.news): scenario tables, one per kind of
news, each row a «before» and an «after» look and the news told."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from referee.host.watch.news import (
    FirstLook,
    LeaderChanged,
    Look,
    NightPm,
    PhaseChanged,
    PostChanged,
    SeenPm,
    SeenPost,
    SeenRejection,
    SeenVote,
    VoteCounted,
    VoteDropped,
    VoteRejected,
    look_from_json,
    look_to_json,
    news,
)
from referee.rules.actions import Request

T0 = datetime(2026, 11, 20, 12, 0, tzinfo=UTC)
DEADLINE = T0 + timedelta(hours=10)


def v(post: int, voter: str, target: str) -> SeenVote:
    return SeenVote(post, voter, target, T0 + timedelta(minutes=post))


def day(*votes: SeenVote, phase: str = "day", number: int = 1, **kw) -> Look:  # noqa: ANN003
    counts: dict[str, int] = {}
    for x in votes:
        counts[x.target] = counts.get(x.target, 0) + 1
    ordered = tuple(sorted(counts.items(), key=lambda c: -c[1]))
    return Look(T0, phase, number, DEADLINE, votes=votes, counts=ordered, **kw)  # type: ignore[arg-type]


def kinds(items: list) -> list[str]:  # noqa: ANN001
    return [type(i).__name__ for i in items]


# ------------------------------------------------------------------------------ votes

VOTES = [
    # (why, before, after, the vote news)
    ("a new vote, with the candidate's count",
     day(v(1, "Шерлок", "Лиса")), day(v(1, "Шерлок", "Лиса"), v(2, "Kotik", "Лиса")),
     [VoteCounted("Kotik", "Лиса", 2, 2, T0 + timedelta(minutes=2))]),
    ("nothing new: nothing told",
     day(v(1, "Шерлок", "Лиса")), day(v(1, "Шерлок", "Лиса")), []),
    ("a changed vote names the earlier target (V4 last_counts)",
     day(v(1, "Шерлок", "Лиса")), day(v(3, "Шерлок", "Kotik")),
     [VoteDropped("Шерлок", "Лиса", 0, 1),
      VoteCounted("Шерлок", "Kotik", 1, 3, T0 + timedelta(minutes=3), before="Лиса")]),
    ("a vote that no longer counts (its post vanished)",
     day(v(1, "Шерлок", "Лиса"), v(2, "Kotik", "Лиса")), day(v(2, "Kotik", "Лиса")),
     [VoteDropped("Шерлок", "Лиса", 1, 1)]),
]


@pytest.mark.parametrize(("why", "before", "after", "told"), VOTES, ids=[r[0] for r in VOTES])
def test_votes(why: str, before: Look, after: Look, told: list) -> None:  # noqa: ANN001
    assert [n for n in news(before, after) if n.kind == "vote"] == told


def test_a_vote_not_counted_is_told_once_with_its_reason() -> None:
    r = SeenRejection(7, "Тень_Ночи", "Kotik", "V3", "без аргумента")
    before, after = day(), day(rejected=(r,))
    assert news(before, after) == [VoteRejected("Тень_Ночи", "Kotik", "V3", "без аргумента", 7)]
    assert news(after, after) == []


# ------------------------------------------------------------------------------ posts

POSTS = [
    ("edited: a new text seen", SeenPost(4, "Kotik", 1, False), SeenPost(4, "Kotik", 2, False),
     "edited"),
    ("vanished from its page", SeenPost(4, "Kotik", 1, False), SeenPost(4, "Kotik", 1, True),
     "vanished"),
    ("back on its page", SeenPost(4, "Kotik", 1, True), SeenPost(4, "Kotik", 1, False), "back"),
    ("unchanged", SeenPost(4, "Kotik", 2, False), SeenPost(4, "Kotik", 2, False), None),
]


@pytest.mark.parametrize(("why", "before", "after", "change"), POSTS, ids=[r[0] for r in POSTS])
def test_posts(why: str, before: SeenPost, after: SeenPost, change: str | None) -> None:
    told = news(day(posts=(before,)), day(posts=(after,)))
    assert told == ([PostChanged(4, "Kotik", change)] if change else [])  # type: ignore[arg-type]


def test_a_new_post_is_told_by_what_it_holds_not_as_a_post() -> None:
    assert news(day(), day(posts=(SeenPost(5, "Лиса", 1, False),))) == []


# ------------------------------------------------------------------------------ leader

LEADERS = [
    ("the first leader", day(), day(v(1, "A", "Лиса")), [LeaderChanged((), ("Лиса",), 1)]),
    ("a tie", day(v(1, "A", "Лиса")), day(v(1, "A", "Лиса"), v(2, "B", "Kotik")),
     [LeaderChanged(("Лиса",), ("Лиса", "Kotik"), 1)]),
    ("the same leader with more votes: nothing",
     day(v(1, "A", "Лиса")), day(v(1, "A", "Лиса"), v(2, "B", "Лиса")), []),
]


@pytest.mark.parametrize(("why", "before", "after", "told"), LEADERS,
                         ids=[r[0] for r in LEADERS])
def test_leader(why: str, before: Look, after: Look, told: list) -> None:  # noqa: ANN001
    assert [n for n in news(before, after) if n.kind == "leader"] == told


# ------------------------------------------------------------------------------ phases, PMs

def test_the_first_look_is_a_summary() -> None:
    after = day(v(1, "A", "Лиса"))
    assert news(None, after) == [FirstLook(after)]


def test_the_deadline_passing_keeps_comparing_the_same_day() -> None:
    before = day(v(1, "A", "Лиса"))
    after = day(v(1, "A", "Лиса"), v(2, "B", "Лиса"), phase="night")
    told = news(before, after)
    assert kinds(told) == ["PhaseChanged", "VoteCounted"]
    assert told[0] == PhaseChanged("night", 1, DEADLINE)


def test_a_new_day_starts_from_nothing() -> None:
    before = day(v(1, "A", "Лиса"), phase="night")
    after = day(v(9, "A", "Лиса"), number=2)
    assert kinds(news(before, after)) == ["PhaseChanged", "VoteCounted", "LeaderChanged"]


def test_a_new_pm_is_told_once_with_its_reading() -> None:
    shoot = Request("Kotik", "shoot", "Шерлок", executor="Kotik", source_id="101")
    pm = SeenPm(101, "Kotik", T0, 1, (shoot,))
    before, after = day(phase="night"), day(phase="night", pms=(pm,))
    assert news(before, after) == [NightPm(pm)]
    assert news(after, after) == []


def test_a_look_kept_in_the_store_reads_back_as_it_was() -> None:
    look = day(v(1, "A", "Лиса"), rejected=(SeenRejection(2, "B", None, "V1", "нет"),),
               posts=(SeenPost(1, "A", 2, False),), pms=(SeenPm(5, "C", T0),),
               not_voted=("B",), silent=("C",))
    assert look_from_json(look_to_json(look)) == look
