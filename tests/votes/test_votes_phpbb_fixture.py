"""The tally (docs/rules.md V1–V6) end to end on the real phpBB 3.3.10 pages of «Мафия: игра 2».

The topic pages are read with the project's phpBB parser (adapters/phpbb/topic.py), exactly
as a scrape would store them. The expected counts are worked out by hand from the raw BBCode
in manifest.json; every post that looks like a vote is explained below. The host's own count
in post 116 is game content, not a reference, but it agrees with day 1.

Day 1: 20.11 18:00 → deadline 21.11 22:00 (Moscow), night until 22.11 10:00; 14 players.
Day 2: 22.11 10:05 → deadline 23.11 22:00. Mr. Smith was hanged on day 1 and Мисс Марпл
killed on night 1 (the host's morning post 117 says so); nobody else died, so 12 are alive.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from functools import cache
from pathlib import Path

from selectolax.lexbor import LexborHTMLParser
from support.moscow import MSK
from support.moscow import msk_short as msk
from votes_scenario import s9e

from adapters.phpbb.topic import parse_topic_page
from referee.config.game import DaySchedule
from referee.core.kernel import Post
from referee.core.nicks import Roster
from referee.render.tally import render_parts
from referee.rules.day.count import tally
from referee.rules.day.reading import find_vote
from referee.rules.day.result import Tally

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "phpbb33-ru"
MANIFEST = json.loads((FIXTURE / "manifest.json").read_text(encoding="utf-8"))
PLAYERS: list[str] = MANIFEST["game"]["players"]
HOST = MANIFEST["game"]["host"]
ROSTER = Roster(PLAYERS)
TOPIC_URL = "http://127.0.0.1:8733/viewtopic.php?t=3"

DAY1 = DaySchedule(1, msk("20.11 18:00"), msk("21.11 22:00"), msk("22.11 10:00"))
DAY2 = DaySchedule(2, msk("22.11 10:05"), msk("23.11 22:00"))
ALIVE_DAY2 = [p for p in PLAYERS if p not in ("Mr. Smith", "Мисс Марпл")]


@cache
def page(name: str) -> tuple[Post, ...]:
    html = (FIXTURE / name).read_text(encoding="utf-8")
    now = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    return parse_topic_page(html, url=TOPIC_URL, tz=MSK, now=now).posts


def topic(viewer: str = "host", before_edit_seen: bool = True) -> list[list[Post]]:
    """Every post with its stored revisions, first seen first (V4). With
    ``before_edit_seen``, page 3 was also scraped before post 126 was edited."""
    revisions: dict[int, list[Post]] = {}
    scrapes = [f"topic_p{i}_{viewer}.html" for i in range(1, 5)]
    if before_edit_seen:
        scrapes.insert(0, "topic_p3_host_before_edit.html")
    for name in scrapes:
        for p in page(name):
            seen = revisions.setdefault(p.post_id, [])
            if not seen or seen[-1].body_html != p.body_html:
                seen.append(p)
    return [revisions[pid] for pid in sorted(revisions)]


def day1() -> Tally:
    return tally(topic(), DAY1, alive=PLAYERS, roster=ROSTER, host=HOST)


def day2(before_edit_seen: bool = True, **kw: object) -> Tally:
    return tally(topic(before_edit_seen=before_edit_seen), DAY2, alive=ALIVE_DAY2,
                 roster=ROSTER, host=HOST, **kw)  # type: ignore[arg-type]


def counts(t: Tally) -> dict[str, list[tuple[str, int]]]:
    return {c.target: [(v.voter, v.post_id) for v in c.voters] for c in t.counts}


def test_fixture_pages_parse_into_all_70_posts() -> None:
    items = topic()
    assert len(items) == MANIFEST["topic"]["post_count"] == 70
    assert [len(revs) for revs in items if len(revs) > 1] == [2]   # only post 126 changed
    by_id = {p["post_id"]: p for p in MANIFEST["posts"]}
    for revs in items:
        assert revs[-1].author == by_id[revs[-1].post_id]["author"]
        assert revs[-1].posted_at == datetime.fromisoformat(
            by_id[revs[-1].post_id]["time"]["utc"].replace("Z", "+00:00"))


def test_fixture_day1_tally() -> None:
    t = day1()
    assert counts(t) == {
        # 83 Шерлок «Мой голос – [color=red]Mr. Smith[/color]» after a reason    counted
        # 92 Доктор Ватсон, em dash, [color=#FF0000]                            counted
        # 105 Мисс Марпл, long argument, the red nick on the last line          counted
        # 106 Ёжик: his first vote (89, for Пуаро) matched nobody, so this one  counted
        # 107 Полковник «Mr. Smit»: near match, flagged (his 94 had no colour)  counted
        # 110 Гроза: her first vote (85) had no reason, so this one             counted
        "Mr. Smith": [("Шерлок", 83), ("Доктор Ватсон", 92), ("Мисс Марпл", 105),
                      ("Ёжик", 106), ("Полковник", 107), ("Гроза", 110)],
        # 93 Лиса «мой голос: [color=#ff0000]Шерлок[/color]», colon, lower case counted
        # 98 Тень_Ночи: the whole line «Мой голос – Шерлок» in red              counted
        # 103 Mr. Smith [color=darkred]                                         counted
        "Шерлок": [("Лиса", 93), ("Тень_Ночи", 98), ("Mr. Smith", 103)],
        # 99 Ира-Ира «Cнежок» with a Latin C: look-alike fold to Снежок         counted
        "Снежок": [("Ира-Ира", 99)],
        # 100 Снежок for Лиса (his 108 for Mr. Smith is a change: ignored)      counted
        "Лиса": [("Снежок", 100)],
        # 101 Kotik «[b][color=red]Тень_Ночи[/color][/b]»                       counted
        "Тень_Ночи": [("Kotik", 101)],
    }
    # Not votes at all: 87 (Мисс Марпл) and 109 (Лиса) hold red votes only inside quotes.
    assert {r.post_id: str(r.notes[0]) for r in t.rejected} == {
        76: "V5: сообщение ведущего: ведущий не голосует",   # the red «Ник» template
        85: "V3: без аргумента",                             # Гроза → Kotik, no reason
        89: "V2: ник «Пуаро» не найден среди игроков",       # registered, not playing
        94: "V1: нет красного ника",                         # «мой голос – Mr. Smith», no colour
        104: "V3: без аргумента",                            # Мотылёк → Лиса «:D» only
        108: "V4: голос уже отдан (сообщение 100, голос — Лиса): менять голос нельзя",
        115: "V1: после дедлайна",                           # Мотылёк at 21.11 22:03
    }
    assert [(f.post_id, f.rule) for f in t.flags] == [(107, "V2")]
    assert t.hanged == "Mr. Smith" and t.tied == ()
    assert t.not_voted == ("Nika-77", "Мотылёк")


def test_fixture_day2_tally_tie_and_the_edited_vote() -> None:
    t = day2()
    assert counts(t) == {
        # 119 Шерлок, 123 Ёжик (em dash), 129 Доктор Ватсон: Лиса reaches 3 at 22.11 15:30
        "Лиса": [("Шерлок", 119), ("Ёжик", 123), ("Доктор Ватсон", 129)],
        # 120 Kotik, 125 Полковник (#FF0000), 141 Гроза: 3 only at 23.11 19:45
        # (Kotik's 136 is a quote; Полковник's 142 is a change: ignored)
        "Тень_Ночи": [("Kotik", 120), ("Полковник", 125), ("Гроза", 141)],
        # 126 Тень_Ночи: the page saved before the edit showed Kotik, so Kotik counts and
        # the edit to Шерлок is flagged (V4)
        "Kotik": [("Тень_Ночи", 126)],
    }
    assert {r.post_id: r.label for r in t.rejected} == {
        117: "V5: сообщение ведущего: ведущий не голосует",
        142: "V4: голос уже отдан (сообщение 125, голос — Тень_Ночи): менять голос нельзя",
        144: "V1: после дедлайна",                   # Лиса at exactly 23.11 22:00:00
    }
    assert [(f.post_id, f.rule) for f in t.flags] == [(126, "V4")]
    # 3:3 — Лиса reached 3 first (post 129, 22.11 15:30), so Лиса is hanged (V6).
    assert t.tied == ("Лиса", "Тень_Ночи") and t.hanged == "Лиса"
    assert t.not_voted == ("Лиса", "Nika-77", "Мотылёк", "Снежок", "Ира-Ира")


def test_fixture_day2_edit_never_seen_counts_the_new_text_flagged() -> None:
    t = day2(before_edit_seen=False)
    assert counts(t)["Шерлок"] == [("Тень_Ночи", 126)]
    assert "Kotik" not in counts(t)
    assert [f.text for f in t.flags] == [
        "голос отредактирован после публикации, первый текст не сохранён"]
    assert t.hanged == "Лиса"


def test_fixture_day2_as_it_stood_before_groza_voted() -> None:
    t = day2(as_of=msk("23.11 19:00"))
    assert {c.target: c.votes for c in t.counts} == {"Лиса": 3, "Тень_Ночи": 2, "Kotik": 1}
    assert (t.closed, t.hanged, t.leader) == (False, None, "Лиса")


def readings(viewer: str) -> dict[int, tuple[str, str | None, bool]]:
    out = {}
    for revs in topic(viewer, before_edit_seen=False):
        reading = find_vote(revs[-1], ROSTER)
        if reading is not None:
            out[reading.post_id] = (reading.voter, reading.target, reading.valid)
    return out


def test_fixture_guest_and_host_pages_read_the_same_votes() -> None:
    # 29 posts hold «мой голос» outside quotes: 26 players' posts with a red nick, 94
    # without colour, and the host's two red «Ник» templates (76, 117). The guest sees the
    # same posts without the host's page chrome.
    host = readings("host")
    assert len(host) == 29 and host[94] == ("Полковник", None, False)
    assert [pid for pid, (voter, _, _) in host.items() if voter == HOST] == [76, 117]
    assert readings("guest") == host


def test_fixture_day1_paste_text() -> None:
    paste, host_only = render_parts(day1(), "text", TOPIC_URL, MSK)
    assert paste == "\n".join([
        "Подсчёт голосов — день 1",
        "",
        "Mr. Smith — 6: Шерлок (20.11 19:22), Доктор Ватсон (20.11 21:58), "
        "Мисс Марпл (21.11 14:00), Ёжик (21.11 14:35), Полковник (21.11 15:20), "
        "Гроза (21.11 17:30)",
        "Шерлок — 3: Лиса (20.11 22:40), Тень_Ночи (21.11 10:10), Mr. Smith (21.11 12:40)",
        "Снежок — 1: Ира-Ира (21.11 10:45)",
        "Лиса — 1: Снежок (21.11 11:02)",
        "Тень_Ночи — 1: Kotik (21.11 11:30)",
        "",
        "Больше всех голосов: Mr. Smith — 6. На виселицу отправляется: Mr. Smith.",
        "Не проголосовали (2): Nika-77, Мотылёк",
    ])
    assert "• #85 Гроза, 20.11 19:58 «Kotik» — V3: без аргумента — " \
           "http://127.0.0.1:8733/viewtopic.php?p=85#p85" in host_only.splitlines()


def test_scenario_helper_renders_bbcode_like_phpbb() -> None:
    # The rule tables build posts with votes_scenario.s9e(); it must give the HTML the real
    # board gave for the same BBCode (every post but the host's [list] opening post).
    by_id = {p["post_id"]: p["bbcode"] for p in MANIFEST["posts"]}
    compared = 0
    for revs in topic(before_edit_seen=False):
        p = revs[-1]
        if "[list" in by_id[p.post_id]:
            continue
        ours = LexborHTMLParser(f"<div>{s9e(by_id[p.post_id])}</div>").css_first("div")
        assert ours is not None and ours.inner_html == p.body_html, p.post_id
        compared += 1
    assert compared == 69
