"""Activity check, rule by rule (docs/rules.md A1–A3, T1, T2), as tables a host can read.

The game: host «Ведущий»; Day 1 20.11 18:00 → deadline 21.11 22:00; Day 2 starts 22.11 10:05;
Day 3 24.11 10:05; Day 4 26.11 10:05; each day's deadline is 22:00 the next evening (see
``activity_scenario.SCHEDULE``). Turn N runs from Day N start to Day N+1 start. Times are
Moscow time. Default settings: 2 missed votes in total remove a player.
"""

from __future__ import annotations

import pytest
from activity_scenario import HOST, SCHEDULE, day, flags, post, posts, row, run
from support.moscow import msk_short as msk

from referee.config.game import ActivityRules
from referee.core.errors import GameError
from referee.rules.day.activity import (
    ActivityReport,
    Excuse,
    TurnDeath,
    check_activity,
    turn_window,
)

EVERYONE = ("Лиса", "Шерлок", "Kotik", "Гроза")
TURN_1_OVER = "22.11 10:05"
TURN_2_OVER = "24.11 10:05"
TURN_3_OVER = "26.11 10:05"


def test_A1_a_player_with_no_post_in_the_turn_is_missing() -> None:
    report = run(
        1,
        alive=EVERYONE,
        posts=posts([
            ("Лиса", "20.11 19:00"),    # a day post
            ("Шерлок", "21.11 23:30"),  # a night post: the turn includes Night 1
            ("Гроза", "20.11 17:59"),   # before Day 1 started: not in turn 1
            # Kotik: no post at all
        ]),
        voters={1: EVERYONE},  # everyone voted: only A1 is at stake
        now=TURN_1_OVER,
    )
    assert report.final
    assert flags(report) == {"Kotik": "removed A1", "Гроза": "removed A1"}
    assert [(r.nick, r.posts, r.status) for r in report.rows] == [
        ("Лиса", 1, "ok"),
        ("Шерлок", 1, "ok"),
        ("Kotik", 0, "removed"),
        ("Гроза", 0, "removed"),
    ]
    assert "пропал(а) без вести" in report.removed[0].explanation
    # The host's table shows when a silent player was last seen.
    assert row(report, "Гроза").last_seen_at == msk("20.11 17:59")


def test_A1_a_post_that_only_quotes_others_still_counts() -> None:
    # «хотя бы одно сообщение в топике игры»: any post is a post, even one made of quotes.
    only_quotes = post("Kotik", "21.11 12:00", "> Мой голос – Лиса\n> Лиса весь день молчит.")
    report = run(
        1,
        alive=("Лиса", "Kotik"),
        posts=[post("Лиса", "20.11 19:00"), only_quotes],
        voters={1: ("Лиса", "Kotik")},
        now=TURN_1_OVER,
    )
    assert flags(report) == {}
    assert (row(report, "Kotik").posts, row(report, "Kotik").status) == (1, "ok")


def test_T2_a_post_at_the_turn_end_or_later_belongs_to_the_next_turn() -> None:
    table = posts([
        ("Nika-77", "22.11 10:04:59"),  # one second before Day 2 starts: turn 1
        ("Kotik", "22.11 10:05:00"),    # exactly at Day 2 start: turn 2, late for turn 1
    ])
    turn_1 = run(1, alive=("Nika-77", "Kotik"), posts=table,
                 voters={1: ("Nika-77", "Kotik")}, now=TURN_1_OVER)
    assert flags(turn_1) == {"Kotik": "removed A1"}
    assert row(turn_1, "Nika-77").last_post_at == msk("22.11 10:04:59")

    turn_2 = run(2, alive=("Nika-77", "Kotik"), posts=table,
                 voters={1: ("Nika-77", "Kotik"), 2: ("Nika-77", "Kotik")}, now=TURN_2_OVER)
    assert flags(turn_2) == {"Nika-77": "removed A1"}
    assert row(turn_2, "Kotik").posts == 1


def test_A1_an_excuse_recorded_by_the_host_spares_the_silent_player() -> None:
    report = run(
        1,
        alive=("Kotik", "Гроза"),
        posts=[],  # neither posts nor votes in turn 1
        excuses=[Excuse("Kotik", 1, "в командировке до 22.11")],
        now=TURN_1_OVER,
    )
    assert flags(report) == {"Гроза": "removed A1"}
    kotik = row(report, "Kotik")
    assert (kotik.status, kotik.excused) == ("excused", "в командировке до 22.11")
    # The excuse covers Day 1's vote too: it is not a missed vote.
    assert kotik.missed_days == ()
    assert row(report, "Гроза").missed_days == (1,)


def test_A2_an_excuse_for_today_spares_the_missed_vote_warning() -> None:
    # Day 2 is still open. Both missed Day 1 and have not voted on Day 2 yet; one more miss
    # would remove them, but Nika-77 told the host she is away for turn 2.
    report = run(
        2,
        alive=("Nika-77", "Kotik"),
        posts=posts([("Nika-77", "22.11 11:00"), ("Kotik", "22.11 11:00")]),
        excuses=[Excuse("Nika-77", 2, "")],
        now="23.11 12:00",
    )
    assert flags(report) == {"Kotik": "warning A2"}
    assert row(report, "Nika-77").excused == "предупредил(а) ведущего"
    assert "ещё один пропуск — выбывание" in report.warnings[0].explanation


def test_A1_an_excuse_for_another_turn_does_not_count() -> None:
    report = run(1, alive=("Kotik",), excuses=[Excuse("Kotik", 2, "уеду")], now=TURN_1_OVER)
    assert flags(report) == {"Kotik": "removed A1"}


def test_A2_a_rejected_vote_is_a_missed_vote() -> None:
    # player  | day 1                      | day 2
    # Лиса    | counted                    | counted
    # Шерлок  | counted                    | none
    # Мотылёк | rejected (only a smiley)   | rejected (posted after the deadline)
    alive = ("Лиса", "Шерлок", "Мотылёк")
    report = run(
        2,
        alive=alive,
        posts=posts([(nick, "22.11 12:00") for nick in alive]),
        voters={1: ("Лиса", "Шерлок"), 2: ("Лиса",)},
        rejected={1: ("Мотылёк",), 2: ("Мотылёк",)},
        now=TURN_2_OVER,
    )
    assert flags(report) == {"Мотылёк": "removed A2"}
    motylek = row(report, "Мотылёк")
    assert (motylek.vote, motylek.missed_days) == ("rejected", (1, 2))
    assert "пропущено голосований: 2 (дни 1, 2)" in report.removed[0].explanation
    assert (row(report, "Шерлок").vote, row(report, "Шерлок").missed_days) == ("no", (2,))


# Turn 3 is over; everyone posted in it. «+» counted vote, «-» none, «x» day excused.
#   player   day 1  day 2  day 3   in total (default)      in a row
A2_TABLE = [
    ("Лиса",    "-+-", "removed A2", None),           # misses on days 1 and 3
    ("Шерлок",  "+--", "removed A2", "removed A2"),   # misses on days 2 and 3
    ("Kotik",   "-++", None, None),                   # one miss only
    ("Гроза",   "--+", None, None),  # limit reached on day 2: turn 2's decision, not turn 3's
    ("Nika-77", "-x-", "removed A2", "removed A2"),   # an excused day neither counts nor
]                                                     # breaks the run


def _a2_report(consecutive: bool) -> ActivityReport:
    alive = [nick for nick, *_ in A2_TABLE]
    voters = {d: [n for n, votes, *_ in A2_TABLE if votes[d - 1] == "+"] for d in (1, 2, 3)}
    excuses = [Excuse(n, d, "болел(а)") for n, votes, *_ in A2_TABLE
               for d in (1, 2, 3) if votes[d - 1] == "x"]
    return run(
        3,
        alive=alive,
        posts=posts([(nick, "24.11 12:00") for nick in alive]),
        voters=voters,
        excuses=excuses,
        rules=ActivityRules(missed_votes_consecutive=consecutive),
        now=TURN_3_OVER,
    )


def test_A2_two_missed_votes_in_total_not_necessarily_in_a_row() -> None:
    report = _a2_report(consecutive=False)
    assert flags(report) == {n: want for n, _, want, _ in A2_TABLE if want}
    assert row(report, "Лиса").missed_days == (1, 3)
    assert row(report, "Гроза").missed_days == (1, 2)


def test_A2_in_a_row_setting_needs_consecutive_misses() -> None:
    report = _a2_report(consecutive=True)
    assert flags(report) == {n: want for n, _, _, want in A2_TABLE if want}
    assert "подряд" in next(f for f in report.removed if f.nick == "Шерлок").explanation


def test_A2_limit_setting() -> None:
    # With a limit of 3, two misses (Лиса: days 1 and 3) are not enough.
    report = run(
        3,
        alive=("Лиса",),
        posts=[post("Лиса", "24.11 12:00")],
        voters={2: ("Лиса",)},
        rules=ActivityRules(missed_vote_limit=3),
        now=TURN_3_OVER,
    )
    assert flags(report) == {}
    report = run(
        3, alive=("Лиса",), posts=[post("Лиса", "24.11 12:00")],
        rules=ActivityRules(missed_vote_limit=3), now=TURN_3_OVER,
    )
    assert flags(report) == {"Лиса": "removed A2"}


def test_A2_days_before_a_player_joined_do_not_count() -> None:
    # Снежок joined on Day 2 (a replacement); Kotik played from Day 1. Both voted on no day.
    report = run(
        2,
        alive=("Снежок", "Kotik"),
        posts=posts([("Снежок", "22.11 12:00"), ("Kotik", "22.11 12:00")]),
        first_day={"Снежок": 2},
        now=TURN_2_OVER,
    )
    assert flags(report) == {"Kotik": "removed A2"}
    assert row(report, "Снежок").missed_days == (2,)


def test_a_player_who_died_during_the_turn_is_not_flagged() -> None:
    # Turn 2. None of them posted in turn 2 or voted on Day 1 or Day 2.
    #   Mr. Smith  hanged at the end of Day 2 (alive the whole day: Day 2 is a missed vote)
    #   Мисс Марпл killed on Night 2
    #   Ира-Ира    killed during Day 2, before its deadline (Day 2 does not count for A2)
    #   Kotik      alive: removed (A1 and A2) — the same data flags a living player
    deaths = [
        TurnDeath("Mr. Smith", msk("23.11 22:00"), "повешен"),
        TurnDeath("Мисс Марпл", msk("24.11 10:00"), "убита ночью"),
        TurnDeath("Ира-Ира", msk("23.11 15:00"), "убита днём"),
    ]
    report = run(
        2,
        alive=("Mr. Smith", "Мисс Марпл", "Ира-Ира", "Kotik"),
        deaths=deaths,
        now=TURN_2_OVER,
    )
    assert flags(report) == {"Kotik": "removed A1, A2"}
    assert [(r.nick, r.status, r.missed_days) for r in report.rows] == [
        ("Mr. Smith", "died", (1, 2)),
        ("Мисс Марпл", "died", (1, 2)),
        ("Ира-Ира", "died", (1,)),
        ("Kotik", "removed", (1, 2)),
    ]


def test_the_host_is_never_flagged_and_the_dead_are_not_listed() -> None:
    # The roster passed by mistake includes the host; Mr. Smith died in turn 1 and is not
    # alive at the start of turn 2, though a post of his in turn 2 is in the topic.
    report = run(
        2,
        alive=(HOST, "Лиса"),
        posts=posts([(HOST, "22.11 10:05"), ("Mr. Smith", "22.11 11:00")]),
        now=TURN_2_OVER,
    )
    assert [r.nick for r in report.rows] == ["Лиса"]
    assert flags(report) == {"Лиса": "removed A1, A2"}


# One game, turn 2, looked at three times. Day 1: Лиса and Kotik voted, Nika-77 did not.
# Turn 2 so far: Лиса posted 22.11 11:00 and voted; Nika-77 posted 22.11 12:00, no vote;
# Kotik is silent.
#   now           final  votes closed  Лиса  Kotik                  Nika-77
WARN_TABLE = [
    ("23.11 12:00", False, False, None, "warning A1",      "warning A2"),  # all still have time
    ("23.11 23:00", False, True,  None, "warning A1",      "removed A2"),  # Day 2 votes closed
    ("24.11 10:05", True,  True,  None, "removed A1",      "removed A2"),  # the turn is over
]


@pytest.mark.parametrize(("now", "final", "votes_final", "lisa", "kotik", "nika"), WARN_TABLE)
def test_warning_before_the_end_final_after(
    now: str, final: bool, votes_final: bool, lisa: str | None, kotik: str, nika: str
) -> None:
    report = run(
        2,
        alive=("Лиса", "Kotik", "Nika-77"),
        posts=posts([("Лиса", "22.11 11:00"), ("Nika-77", "22.11 12:00")]),
        voters={1: ("Лиса", "Kotik"), 2: ("Лиса",)},
        now=now,
    )
    assert (report.final, report.votes_final) == (final, votes_final)
    want = {"Лиса": lisa, "Kotik": kotik, "Nika-77": nika}
    assert flags(report) == {n: f for n, f in want.items() if f}
    assert row(report, "Kotik").status == kotik.split()[0]
    # Kotik has missed no vote before Day 2, so he is not warned about A2: one miss is allowed.
    assert row(report, "Kotik").vote == "no"


def test_A3_removals_take_effect_at_the_end_of_a_day_or_the_next_morning() -> None:
    # A2 is settled at Day 2's deadline: out at the end of Day 2. A1 is settled when turn 2
    # ends: out at the start of Day 3 (A3 revised; test_a3_when_players_leave.py has both
    # settings). A flag that is both takes effect at the earlier.
    report = run(
        2,
        alive=("Kotik", "Nika-77", "Гроза"),
        posts=[post("Nika-77", "22.11 12:00")],
        voters={1: ("Kotik",), 2: ()},
        now=TURN_2_OVER,
    )
    effective = {f.nick: (f.rule, f.effect) for f in report.removed}
    assert effective == {"Kotik": ("A1", ("start", 3)), "Nika-77": ("A2", ("end", 2)),
                         "Гроза": ("A1, A2", ("end", 2))}
    assert "после подсчёта голосов" in report.note


def test_T1_turn_window() -> None:
    # Turn N ends at Day N+1 start; the last scheduled day ends at its night deadline, or at
    # its day deadline when that is all we know.
    w = turn_window(1, SCHEDULE)
    assert (w.start, w.day_deadline, w.end, w.end_basis) == (
        msk("20.11 18:00"), msk("21.11 22:00"), msk("22.11 10:05"), "next_day_start"
    )
    assert turn_window(4, SCHEDULE).end == msk("28.11 10:00")
    assert turn_window(4, SCHEDULE).end_basis == "night_deadline"
    only_deadline = (day(1, "20.11 18:00", "21.11 22:00"),)
    assert turn_window(1, only_deadline).end == msk("21.11 22:00")
    assert turn_window(1, only_deadline).end_basis == "day_deadline"
    with pytest.raises(GameError, match="дня 5 нет в расписании"):
        turn_window(5, SCHEDULE)
    overlapping = (day(1, "20.11 18:00", "21.11 22:00"), day(2, "21.11 20:00", "22.11 22:00"))
    with pytest.raises(GameError, match="день 2 начинается .* раньше дедлайна дня 1"):
        turn_window(1, overlapping)


def test_a_missing_tally_or_an_unstarted_turn_is_an_error() -> None:
    # The day-1 tally was never given: A2 cannot be decided for turn 2.
    with pytest.raises(GameError, match="нет подсчёта голосов дня 1"):
        check_activity(
            2, players_alive_at_turn_start=("Лиса",), posts=(), schedule=SCHEDULE,
            counted_voters_by_day={2: ()}, excuses=(), deaths_during_turn=(), host=HOST,
            rules=ActivityRules(), now=msk(TURN_2_OVER),
        )
    with pytest.raises(GameError, match="ещё не начался"):
        run(2, alive=("Лиса",), now="22.11 10:00")
    with pytest.raises(GameError, match="без часового пояса"):
        check_activity(
            1, players_alive_at_turn_start=("Лиса",), posts=(), schedule=SCHEDULE,
            counted_voters_by_day={1: ()}, excuses=(), deaths_during_turn=(), host=HOST,
            rules=ActivityRules(), now=msk(TURN_1_OVER).replace(tzinfo=None),
        )
