"""Activity (docs/rules.md A1–A3) end to end on the real phpBB 3.3 pages of «Мафия: игра 2».

The four host pages of the topic are parsed with a tiny selectolax helper (the adapter's
parser is written in parallel); the vote tally is derived by hand from manifest.json below,
each line explained, because the tally module is written in parallel too.

Timeline (Moscow): Day 1 20.11 18:00 → deadline 21.11 22:00; Night 1 until 22.11 10:00;
Day 2 starts with the host's morning post 22.11 10:05 → deadline 23.11 22:00. Nothing is
scheduled after that, so turn 2 ends at Day 2's deadline (the schedule has no night
deadline for Day 2) — the end the brief asks for.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from activity_scenario import HOST, day, flags, row
from selectolax.lexbor import LexborHTMLParser
from support.moscow import msk_short as msk

from referee.config.game import ActivityRules
from referee.core.kernel import Post
from referee.core.markup import plain_text
from referee.rules.day.activity import ActivityReport, TurnDeath, check_activity

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "phpbb33-ru"

PLAYERS = (
    "Шерлок", "Мисс Марпл", "Kotik", "Тень_Ночи", "Лиса", "Ёжик", "Полковник", "Nika-77",
    "Гроза", "Мотылёк", "Снежок", "Доктор Ватсон", "Mr. Smith", "Ира-Ира",
)

SCHEDULE = (
    day(1, "20.11 18:00", "21.11 22:00", "22.11 10:00"),
    day(2, "22.11 10:05", "23.11 22:00"),
)

# Who the tally counts on each day (V1–V6), by hand from manifest.json:
# Day 1 (20.11 18:00 ≤ t < 21.11 22:00)
#   Шерлок         83 «Мой голос – Mr. Smith» with a reason                 counted
#   Гроза          85 no reason (rejected); 110 with a reason: first valid   counted
#   Мисс Марпл     87 vote only inside a quote; 105 long argument            counted
#   Ёжик           89 for Пуаро, not a player; 106 for Mr. Smith             counted
#   Доктор Ватсон  92 em dash, #FF0000                                       counted
#   Лиса           93 «мой голос:» #ff0000 (109 is only a nested quote)      counted
#   Полковник      94 no colour: not a vote; 107 «Mr. Smit», near match      counted (flagged)
#   Тень_Ночи      98 the whole line red                                     counted
#   Ира-Ира        99 «Cнежок» with a Latin C, folded to Снежок              counted
#   Снежок        100 for Лиса (108, a second vote, is ignored)              counted
#   Kotik         101 [b][color=red]                                         counted
#   Mr. Smith     103 [color=darkred]                                        counted
#   Мотылёк       104 reason is only a smiley; 115 after the deadline       REJECTED
#   Nika-77       no vote post at all                                        none
# (the host's hand count in post 116 lists the same 12 voters)
# Day 2 (22.11 10:05 ≤ t < 23.11 22:00)
#   Шерлок        119 for Лиса                                               counted
#   Kotik         120 for Тень_Ночи (136 is only a quote)                    counted
#   Ёжик          123 em dash, red                                           counted
#   Полковник     125 #FF0000 (142, a change attempt, is ignored)            counted
#   Тень_Ночи     126 edited from Kotik to Шерлок: a vote either way         counted (flagged)
#   Доктор Ватсон 129 for Лиса                                               counted
#   Гроза         141 for Тень_Ночи (128, 140 are not votes)                 counted
#   Лиса          144 at exactly 22:00:00, the deadline: late (T2)           REJECTED
#   Nika-77, Мотылёк, Снежок, Ира-Ира: no vote post                          none
COUNTED = {
    1: {"Шерлок", "Гроза", "Мисс Марпл", "Ёжик", "Доктор Ватсон", "Лиса", "Полковник",
        "Тень_Ночи", "Ира-Ира", "Снежок", "Kotik", "Mr. Smith"},
    2: {"Шерлок", "Kotik", "Ёжик", "Полковник", "Тень_Ночи", "Доктор Ватсон", "Гроза"},
}
REJECTED = {1: {"Мотылёк"}, 2: {"Лиса"}}

# Turn 1's deaths: Mr. Smith hanged when the host closed Day 1 (post 116, 21.11 22:10);
# Мисс Марпл killed on Night 1 (announced in the morning post; night deadline 22.11 10:00).
TURN_1_DEATHS = (
    TurnDeath("Mr. Smith", msk("21.11 22:10"), "казнён"),
    TurnDeath("Мисс Марпл", msk("22.11 10:00"), "убита мафией"),
)
ALIVE_AT_TURN_2 = tuple(p for p in PLAYERS if p not in ("Mr. Smith", "Мисс Марпл"))


def parse_topic_pages() -> list[Post]:
    """``div.post#pNNN`` → Post: author link, ``<time datetime>`` (UTC), quote-marked text."""
    out: list[Post] = []
    for page in (1, 2, 3, 4):
        html = (FIXTURE / f"topic_p{page}_host.html").read_text(encoding="utf-8")
        for node in LexborHTMLParser(html).css("div.post"):
            pid = (node.id or "")[1:]
            if not pid.isdigit():
                continue
            author = node.css_first("p.author a.username, p.author a.username-coloured")
            time = node.css_first("p.author time")
            content = node.css_first("div.content")
            assert author is not None and time is not None and content is not None
            out.append(Post(
                post_id=int(pid),
                author=author.text(strip=True),
                author_id=None,
                posted_at=datetime.fromisoformat(time.attributes["datetime"] or ""),
                body_html=content.html or "",
                body_text=plain_text(content.inner_html or ""),
                page=page,
            ))
    return out


POSTS = parse_topic_pages()


def check(turn: int, alive: tuple[str, ...], deaths: tuple[TurnDeath, ...], now: str
          ) -> ActivityReport:
    return check_activity(
        turn,
        players_alive_at_turn_start=alive,
        posts=POSTS,
        schedule=SCHEDULE,
        counted_voters_by_day=COUNTED,
        rejected_voters_by_day=REJECTED,
        excuses=(),
        deaths_during_turn=deaths,
        host=HOST,
        rules=ActivityRules(),
        now=msk(now),
    )


def test_the_helper_reads_every_post_as_the_manifest_has_it() -> None:
    manifest = json.loads((FIXTURE / "manifest.json").read_text(encoding="utf-8"))
    want = [(p["post_id"], p["author"], p["time"]["utc"]) for p in manifest["posts"]]
    got = [(p.post_id, p.author, p.posted_at.isoformat().replace("+00:00", "Z"))
           for p in POSTS]
    assert got == want


def test_turn_1_everyone_posted() -> None:
    # Turn 1: 20.11 18:00 ≤ t < 22.11 10:05 (Day 2 start): posts 77–115 (+ the host's 116).
    #   player         posts in turn 1              count
    #   Kotik          77, 86, 101                  3
    #   Nika-77        78, 90, 102, 113             4
    #   Снежок         79, 96, 100, 108             4
    #   Mr. Smith      80, 88, 103, 112             4   hanged, not flagged
    #   Доктор Ватсон  81, 92, 111                  3
    #   Лиса           82, 93, 109                  3
    #   Шерлок         83, 114                      2
    #   Тень_Ночи      84, 98                       2
    #   Гроза          85, 97, 110                  3
    #   Мисс Марпл     87, 105                      2   killed on Night 1, not flagged
    #   Ёжик           89, 91, 106                  3
    #   Полковник      94, 107                      2
    #   Мотылёк        95, 104, 115                 3   115 is after the day deadline but
    #                                                   inside the turn: it counts for A1
    #   Ира-Ира        99                           1
    report = check(1, PLAYERS, TURN_1_DEATHS, now="22.11 10:05")
    assert report.final
    assert flags(report) == {}
    assert {r.nick: r.posts for r in report.rows} == {
        "Kotik": 3, "Nika-77": 4, "Снежок": 4, "Mr. Smith": 4, "Доктор Ватсон": 3,
        "Лиса": 3, "Шерлок": 2, "Тень_Ночи": 2, "Гроза": 3, "Мисс Марпл": 2, "Ёжик": 3,
        "Полковник": 2, "Мотылёк": 3, "Ира-Ира": 1,
    }
    assert {r.nick for r in report.rows if r.status == "died"} == {"Mr. Smith", "Мисс Марпл"}
    # A2 after Day 1: Мотылёк (rejected votes) and Nika-77 (no vote) have one miss each,
    # below the limit of 2.
    assert {r.nick: r.missed_days for r in report.rows if r.missed_days} == {
        "Мотылёк": (1,), "Nika-77": (1,)
    }
    assert (row(report, "Мотылёк").vote, row(report, "Nika-77").vote) == ("rejected", "no")
    assert row(report, "Мотылёк").last_post_at == msk("21.11 22:03:21")


def test_turn_2_silent_players_and_the_one_who_never_votes_leave() -> None:
    # Turn 2: 22.11 10:05 ≤ t < 23.11 22:00: posts 118–143 (144 is at the end instant).
    #   player         posts in turn 2       Day 1 / Day 2 vote     verdict
    #   Kotik          118, 120, 127, 136    counted / counted      stays
    #   Шерлок         119, 134              counted / counted      stays
    #   Лиса           121, 131, 139         counted / rejected     stays: one miss (day 2)
    #   Nika-77        122, 130, 135, 143    none    / none         out, A2: posts on both
    #                                                               days but never votes
    #   Ёжик           123, 138              counted / counted      stays
    #   Тень_Ночи      124, 126, 137         counted / counted      stays
    #   Полковник      125, 132, 142         counted / counted      stays
    #   Гроза          128, 140, 141         counted / counted      stays
    #   Доктор Ватсон  129, 133              counted / counted      stays
    #   Мотылёк        —                     rejected / none        out, A1 and A2
    #   Снежок         —                     counted / none         out, A1 (one miss only)
    #   Ира-Ира        —                     counted / none         out, A1 (one miss only)
    report = check(2, ALIVE_AT_TURN_2, (), now="23.11 22:10")
    assert report.final and report.window.end == msk("23.11 22:00")
    assert flags(report) == {
        "Мотылёк": "removed A1, A2",
        "Снежок": "removed A1",
        "Ира-Ира": "removed A1",
        "Nika-77": "removed A2",
    }
    assert {r.nick: r.posts for r in report.rows} == {
        "Kotik": 4, "Шерлок": 2, "Лиса": 3, "Nika-77": 4, "Ёжик": 2, "Тень_Ночи": 3,
        "Полковник": 3, "Гроза": 3, "Доктор Ватсон": 2, "Мотылёк": 0, "Снежок": 0,
        "Ира-Ира": 0,
    }
    lisa = row(report, "Лиса")
    assert (lisa.last_post_at, lisa.vote, lisa.missed_days) == (
        msk("23.11 13:10:13"), "rejected", (2,)
    )
    assert row(report, "Nika-77").missed_days == (1, 2)
    assert row(report, "Мотылёк").last_seen_at == msk("21.11 22:03:21")


def test_turn_2_at_noon_on_the_last_day_is_a_warning_list() -> None:
    # 23.11 12:00: the pages as a scrape at noon would see them (posts up to 138), and the
    # Day 2 votes counted so far: Шерлок 119, Kotik 120, Ёжик 123, Полковник 125,
    # Тень_Ночи 126, Доктор Ватсон 129 (Гроза votes only at 19:45).
    now = "23.11 12:00"
    seen = [p for p in POSTS if p.posted_at <= msk(now)]
    counted_by_noon = {1: COUNTED[1], 2: COUNTED[2] - {"Гроза"}}
    report = check_activity(
        2,
        players_alive_at_turn_start=ALIVE_AT_TURN_2,
        posts=seen,
        schedule=SCHEDULE,
        counted_voters_by_day=counted_by_noon,
        excuses=(),
        deaths_during_turn=(),
        host=HOST,
        rules=ActivityRules(),
        now=msk(now),
    )
    assert not report.final and not report.votes_final
    # Silent so far: Мотылёк, Снежок, Ира-Ира (A1). One more miss removes Мотылёк and
    # Nika-77, who missed Day 1 (A2). Гроза and Лиса have not voted yet either, but a first
    # miss is allowed, so they are not warned.
    assert flags(report) == {
        "Мотылёк": "warning A1, A2",
        "Снежок": "warning A1",
        "Ира-Ира": "warning A1",
        "Nika-77": "warning A2",
    }
    assert report.removed == ()
