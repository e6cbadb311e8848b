"""Reading one post as a vote: docs/rules.md V1 (phrase + red nick outside quotes), V2 (the nick
matched to the roster), V3 (a reason of at least 10 letters).

Each row is BBCode as a player types it; the post is rendered to HTML exactly as phpBB 3.3
shows it (s9e) and as phpBB 3.0 shows it (legacy markup), and both must read the same.
"""

from __future__ import annotations

import pytest
from votes_scenario import post, roster

from referee.config.game import VoteRules
from referee.rules.day.reading import find_vote

NO_RED = "нет красного ника"
R = "Молчит весь день и уходит от вопросов."  # a reason: 30+ letters

# BBCode of the post                                               red nick read    (V1)
FORMS = [
    (f"{R}\nМой голос – [color=red]Шерлок[/color]",                   "Шерлок"),
    (f"{R}\nМой голос — [color=#FF0000]Шерлок[/color]",               "Шерлок"),
    (f"{R}\nмой голос: [color=#ff0000]Шерлок[/color]",                "Шерлок"),
    (f"{R}\nМой голос - [color=red]Шерлок[/color]",                   "Шерлок"),
    (f"{R}\nМой голос \u2212 [color=red]Шерлок[/color]",              "Шерлок"),
    (f"{R}\nМОЙ  ГОЛОС [color=Red]Шерлок[/color]",                    "Шерлок"),
    (f"[color=red]Мой голос – Шерлок[/color]\n{R}",                   "Шерлок"),
    (f"{R}\nМой голос – [b][color=red]Шерлок[/color][/b]",            "Шерлок"),
    (f"{R}\nМой голос – [color=red][b]Шерлок[/b][/color]",            "Шерлок"),
    (f"[b][color=red]Мой голос – Шерлок[/color][/b]\n{R}",            "Шерлок"),
    (f"{R}\nМой голос – [color=red]Mr.[/color] [color=#f00]Smith[/color]", "Mr. Smith"),
    (f"{R}\nМой голос – [color=red]Шер[/color][color=darkred]лок[/color]", "Шерлок"),
    (f"{R}\nМой голос:\n[color=crimson]Шерлок[/color]",               "Шерлок"),
    (f"{R}\n[color=red]Шерлок[/color] — мой голос",                   "Шерлок"),
    (f"{R}\nМой голос – [color=firebrick]Шерлок[/color]!",            "Шерлок"),
    (f"{R} Мой голос – [color=red]Шерлок[/color], а [color=red]Лиса[/color] потом",
     "Шерлок"),
    # not red enough or not red at all: a near-vote the host is told about
    (f"{R}\nМой голос – [color=brown]Шерлок[/color]",                 NO_RED),
    (f"{R}\nМой голос – Шерлок",                                      NO_RED),
    (f"{R}\nМой голос – [b]Шерлок[/b]",                               NO_RED),
    (f"[color=red]Мой голос – [color=green]Шерлок[/color][/color]\n{R}", NO_RED),
    (f"{R}\n[color=red]Мой голос[/color] – Шерлок",                   NO_RED),
    ("Мой голос как у Лисы:\n[quote=Лиса]Мой голос – [color=red]Шерлок[/color][/quote]",
     NO_RED),
    # no «мой голос» outside quotes and code: not a vote at all
    (f"[quote=Лиса]{R}\nМой голос – [color=red]Шерлок[/color][/quote]\nСогласна.", None),
    ("[quote=Гроза][quote=Лиса]Мой голос – [color=red]Шерлок[/color][/quote]Да.[/quote]"
     "\nВот так вчера и было.", None),
    (f"{R}\n[code]Мой голос – [color=red]Шерлок[/color][/code]",      None),
    (f"{R}\n[color=red]Шерлок[/color] — мафия!",                      None),
    (f"{R}\nВключите мой голосовой чат, [color=red]Шерлок[/color]",   None),
]


@pytest.mark.parametrize("old", [False, True], ids=["phpBB 3.3", "phpBB 3.0"])
@pytest.mark.parametrize(("bb", "nick"), FORMS, ids=[f"row{i}" for i in range(len(FORMS))])
def test_v1_vote_phrase_and_red_nick(bb: str, nick: str | None, old: bool) -> None:
    reading = find_vote(post(1, "Гроза", "21.11 12:00", bb, old=old), roster())
    if nick is None:
        assert reading is None
    elif nick == NO_RED:
        assert reading is not None and reading.match_kind == "no_red"
        assert [str(p) for p in reading.problems] == ["V1: нет красного ника"]
    else:
        assert reading is not None and reading.typed == nick
        assert reading.valid, reading.problems


def test_v1_vote_phrases_setting() -> None:
    rules = VoteRules(phrases=("мой голос", "моё решение"))
    bb = f"{R}\nМое решение – [color=red]Лиса[/color]"
    reading = find_vote(post(1, "Гроза", "21.11 12:00", bb), roster(), rules)
    assert reading is not None and reading.target == "Лиса"
    assert find_vote(post(1, "Гроза", "21.11 12:00", bb), roster()) is None


def test_v1_red_colours_setting_in_a_post() -> None:
    bb = f"{R}\nМой голос – [color=maroon]Лиса[/color]"
    assert find_vote(post(1, "Гроза", "21.11 12:00", bb), roster()).match_kind == "no_red"
    rules = VoteRules(red_colours=("red", "maroon"))
    assert find_vote(post(1, "Гроза", "21.11 12:00", bb), roster(), rules).target == "Лиса"


# red text typed       roster nick     match kind   counts?   (V2)
NICKS = [
    ("Шерлок",           "Шерлок",       "exact",     True),
    ("шерлок",           "Шерлок",       "exact",     True),
    ("Mr.  Smith",       "Mr. Smith",    "exact",     True),
    ("Ежик",             "Ёжик",         "exact",     True),
    ("Cнежок",           "Снежок",       "lookalike", True),   # Latin C (U+0043)
    ("Kоtik",            "Kotik",        "lookalike", True),   # Cyrillic о
    ("Шерл",             "Шерлок",       "alias",     True),   # [aliases] in referee.toml
    ("Mr. Smit",         "Mr. Smith",    "near",      True),   # flagged
    ("Шерлока",          "Шерлок",       "near",      True),   # flagged
    ("Пуаро",            None,           "none",      False),  # registered, not playing
    ("Лис",              None,           "none",      False),  # too short for a near match
    ("Шерлок, он мафия", "Шерлок",       "exact",     True),   # flagged: red text too long
]


@pytest.mark.parametrize(("typed", "nick", "kind", "counts"), NICKS, ids=[n[0] for n in NICKS])
def test_v2_nick_matched_to_roster(typed: str, nick: str | None, kind: str, counts: bool) -> None:
    bb = f"{R}\nМой голос – [color=red]{typed}[/color]"
    reading = find_vote(post(1, "Гроза", "21.11 12:00", bb), roster(Шерлок=["Шерл"]))
    assert reading is not None
    assert (reading.target, reading.match_kind, reading.valid) == (nick, kind, counts)
    if kind == "near" or "," in typed:
        assert [f.rule for f in reading.flags] == ["V2"]
    if "," in typed:  # only the nick is the nick; «он мафия» is the player's own words
        assert reading.typed == "Шерлок" and reading.reason_letters > len(R.replace(" ", ""))
    if not counts:
        assert [p.rule for p in reading.problems] == ["V2"]


def test_v2_ambiguous_nick_is_not_guessed() -> None:
    bb = f"{R}\nМой голос – [color=red]Сова-3[/color]"
    reading = find_vote(post(1, "Гроза", "21.11 12:00", bb), roster(["Сова-1", "Сова-2"]))
    assert reading is not None and reading.target is None
    assert reading.match_kind == "ambiguous" and reading.candidates == ("Сова-1", "Сова-2")
    assert "Сова-1, Сова-2" in str(reading.problems[0])


# BBCode of the post                                                  has a reason? (V3)
REASONS = [
    ("Мой голос – [color=red]Kotik[/color]",                             False),
    ("Мой голос – [color=red]Лиса[/color] :D",                           False),
    ("Мой голос – [color=red]Лиса[/color] :lol: :shock: :lol: :shock:",  False),
    ("Мой голос – [color=red]Лиса[/color] 1234567890!!!",                False),
    ("Мой голос – [color=red]Лиса[/color] врёт всем",                    False),  # 8 letters
    ("Мой голос – [color=red]Лиса[/color] врёт всегда",                  True),   # 10 letters
    ("[color=red]Мой голос – Лиса[/color] врёт всегда",                  True),
    ("[color=red]Мой голос – Лиса, врёт всем[/color]",                   False),  # 8
    ("[color=red]Мой голос – Лиса, врёт всегда[/color]",                 True),   # 10
    ("Лиса врёт всегда.\nМой голос – [color=red]Лиса[/color]",           True),
    ("[quote=Гроза]Лиса защищала Смита весь день.[/quote]\n"
     "Мой голос – [color=red]Лиса[/color]",                              False),
    ("Мой голос – [color=red]Лиса[/color]\n[code]врёт всегда[/code]",    True),
]


@pytest.mark.parametrize(("bb", "reason"), REASONS, ids=[f"row{i}" for i in range(len(REASONS))])
def test_v3_vote_needs_a_reason(bb: str, reason: bool) -> None:
    for old in (False, True):
        reading = find_vote(post(1, "Гроза", "21.11 12:00", bb, old=old), roster())
        assert reading is not None and reading.target in ("Лиса", "Kotik")
        assert reading.has_reason is reason
        assert ("V3" in [p.rule for p in reading.problems]) is not reason


def test_v3_reason_min_letters_setting() -> None:
    bb = "Мой голос – [color=red]Лиса[/color] врёт"
    assert not find_vote(post(1, "Гроза", "21.11 12:00", bb), roster()).has_reason
    rules = VoteRules(reason_min_letters=4)
    assert find_vote(post(1, "Гроза", "21.11 12:00", bb), roster(), rules).has_reason


def test_v1_several_votes_in_one_post_first_is_read() -> None:
    bb = f"{R}\nМой голос – [color=red]Лиса[/color]\nМой голос – [color=red]Гроза[/color]"
    reading = find_vote(post(1, "Ёжик", "21.11 12:00", bb), roster())
    assert reading is not None and reading.target == "Лиса"
    assert [f.rule for f in reading.flags] == ["V4"]
