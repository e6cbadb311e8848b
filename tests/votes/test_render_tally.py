"""The tally as the host pastes it (BBCode), reads it (text) and a tool reads it (JSON).

docs/rules.md V1–V6 decide the numbers; these tests check what is shown: every candidate with
voters in voting order and times in the forum's zone, the hanging line with the tie
explanation, who has not voted, and every rejected post in a separate host-only part.
"""

from __future__ import annotations

import html
import json
from dataclasses import replace

from votes_scenario import PLAYERS, post, posts, run

from referee.core.bbcode import ZWSP
from referee.render.tally import (
    HOST_ONLY_RULE,
    post_link,
    render_json,
    render_parts,
    render_tally,
)

REASON = "Весь день уходит от прямых вопросов."
TOPIC = "https://forum.example/viewtopic.php?t=3"


def vote(nick: str, reason: str = REASON) -> str:
    return f"{reason}\nМой голос – [color=red]{nick}[/color]"


DAY = posts([
    (11, "Шерлок", "20.11 19:00", vote("Лиса")),
    (12, "Kotik",  "20.11 20:00", vote("Шерлок")),
    (13, "Гроза",  "20.11 21:00", vote("Шерлок")),
    (14, "Ёжик",   "20.11 22:00", vote("Лиса")),
    (15, "Лиса",   "20.11 22:30", "Мой голос – [color=red]Ёжик[/color]"),   # no reason
])


def test_bbcode_paste_part_counts_voters_and_times() -> None:
    paste, _ = render_parts(run(DAY), "bbcode", TOPIC, "Europe/Moscow")
    assert paste.splitlines() == [
        "[b]Подсчёт голосов — день 1[/b]",
        "",
        "[b]Шерлок — 2[/b]: Kotik ([url=https://forum.example/viewtopic.php?p=12#p12]20.11 "
        "20:00[/url]), Гроза ([url=https://forum.example/viewtopic.php?p=13#p13]20.11 21:00"
        "[/url])",
        "Лиса — 2: Шерлок ([url=https://forum.example/viewtopic.php?p=11#p11]20.11 19:00"
        "[/url]), Ёжик ([url=https://forum.example/viewtopic.php?p=14#p14]20.11 22:00[/url])",
        "",
        # Issue 29 item 7: the deciding vote is a link, not a post id players cannot see.
        "[b]Ничья, по 2: Шерлок, Лиса. Раньше других набрал(а) 2 ([url=https://forum.example/"
        "viewtopic.php?p=13#p13]этим голосом[/url]): Шерлок. На виселицу отправляется: "
        "Шерлок.[/b]",
        "Не проголосовали (3): Лиса, Mr. Smith, Снежок",
    ]


def test_host_only_part_is_separate_and_never_in_the_paste() -> None:
    out = render_tally(run(DAY), "bbcode", TOPIC, "Europe/Moscow")
    paste, host_only = out.split(HOST_ONLY_RULE)
    assert "без аргумента" not in paste and "#15" not in paste
    assert host_only.strip().splitlines()[:2] == [
        "Не засчитано (1):",
        "• #15 Лиса, 20.11 22:30 «Ёжик» — V3: без аргумента — "
        "https://forum.example/viewtopic.php?p=15#p15",
    ]


def test_times_in_the_forum_time_zone() -> None:
    paste, _ = render_parts(run(DAY), "text", None, "UTC")
    assert "Kotik (20.11 17:00)" in paste           # 20:00 Moscow is 17:00 UTC
    paste, _ = render_parts(run(DAY), "text", None, "Europe/Moscow")
    assert "Kotik (20.11 20:00)" in paste and "[" not in paste


def test_count_as_it_stands_mid_day() -> None:
    paste, _ = render_parts(run(DAY, as_of=12), "text", None, "Europe/Moscow")
    assert paste.splitlines()[0] == "Подсчёт голосов — день 1, на 20.11 20:00"
    assert "Лидер по голосам: Лиса" not in paste    # a tie 1:1 at that moment
    assert "Сейчас впереди: Лиса." in paste
    assert paste.splitlines()[-1].startswith("Ещё не проголосовали (5): ")


def test_user_text_cannot_inject_bbcode() -> None:
    # A player registered as «[/color][url=http://evil]Лиса»; the vote shows that nick in red.
    evil = "[/color][url=http://evil]Лиса"
    shown = f'{REASON}<br>\nМой голос – <span style="color:red">{html.escape(evil)}</span>'
    day = [replace(post(1, "Шерлок", "20.11 19:00", "x"), body_html=shown)]
    t = run(day, players=(*PLAYERS, evil), alive=(*PLAYERS, evil))
    assert t.counts[0].target == evil
    out = render_tally(t, "bbcode", None, "UTC")
    assert "[url=http://evil]" not in out and "[/color]" not in out
    assert f"[{ZWSP}/color][{ZWSP}url=http://evil]Лиса — 1" in out


def test_json_has_day_hanged_counts_and_rejected() -> None:
    doc = json.loads(render_tally(run(DAY), "json", TOPIC, "Europe/Moscow"))
    assert (doc["day"], doc["hanged"], doc["tied"]) == (1, "Шерлок", ["Шерлок", "Лиса"])
    assert [(c["target"], c["votes"], [v["voter"] for v in c["voters"]])
            for c in doc["counts"]] == [("Шерлок", 2, ["Kotik", "Гроза"]),
                                        ("Лиса", 2, ["Шерлок", "Ёжик"])]
    assert doc["counts"][0]["voters"][0] | {"flags": None} == {
        "voter": "Kotik", "post_id": 12, "time": "2026-11-20T17:00:00+00:00",
        "local": "20.11 20:00", "typed": "Шерлок", "match": "exact", "accepted_by": "V1–V5",
        "flags": None, "link": "https://forum.example/viewtopic.php?p=12#p12"}
    assert [(r["post_id"], r["voter"], r["reason"], r["rule"]) for r in doc["rejected"]] == [
        (15, "Лиса", "без аргумента", "V3")]
    assert doc["not_voted"] == ["Лиса", "Mr. Smith", "Снежок"]


def test_post_links() -> None:
    assert post_link(85) == "viewtopic.php?p=85#p85"
    assert post_link(85, "https://f.ru/forum/viewtopic.php?f=2&t=3&start=20") == \
        "https://f.ru/forum/viewtopic.php?p=85#p85"
    assert post_link(85, "https://f.ru/forum/") == "https://f.ru/forum/viewtopic.php?p=85#p85"


def test_host_asked_posts_listed_apart() -> None:
    """docs/rules.md V1: a post put to the host (two alternatives) is not among the
    rejected ones but under «Ведущему проверить», with the command that settles it."""
    day = posts([
        (21, "Kotik", "20.11 20:00", "Молчит весь день и путает показания.\n"
                                     "Мой голос – [color=red]Шерлок или Лиса[/color]"),
        (22, "Лиса", "20.11 22:30", "Мой голос – [color=red]Ёжик[/color]"),   # no reason
    ])
    out = render_tally(run(day), "text", TOPIC, "Europe/Moscow")
    host_only = out.split(HOST_ONLY_RULE)[1].strip().splitlines()
    assert host_only[:2] == [
        "Не засчитано (1):",
        "• #22 Лиса, 20.11 22:30 «Ёжик» — V3: без аргумента — "
        "https://forum.example/viewtopic.php?p=22#p22",
    ]
    assert host_only[3].startswith("Ведущему проверить — не засчитано, пока ведущий не "
                                   "укажет ник (referee vote set НОМЕР --target НИК) (1):")
    assert host_only[4].startswith("• #21 Kotik, 20.11 20:00 «Шерлок или Лиса» — V2: "
                                   "ведущему проверить: ")
    doc = json.loads(render_json(run(day), TOPIC, "Europe/Moscow"))
    assert [r["asks_host"] for r in doc["rejected"]] == [True, False]
