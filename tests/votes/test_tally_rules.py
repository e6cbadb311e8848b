"""The day tally, one test per rule (docs/rules.md V1–V6) and per setting.

Every table is a day of posts as the host sees them: post number, author, Moscow time and
what the player typed (BBCode, rendered as phpBB 3.3 renders it). Below each table: what
counts, what does not and why. Day 1 runs 20.11 18:00 → 21.11 22:00 (night until 22.11
10:00); players: Шерлок, Лиса, Kotik, Гроза, Ёжик, Mr. Smith, Снежок; host «Ведущий».
"""

from __future__ import annotations

import pytest
from support.moscow import msk_short as msk
from votes_scenario import PLAYERS, counts, flags, post, posts, rejections, run

from referee.config.game import Replacement, VoteRules
from referee.core.errors import GameError
from referee.rules.decisions import VoteDecision

REASON = "Весь день уходит от прямых вопросов."


def vote(nick: str, reason: str = REASON) -> str:
    """The standard vote post: a reason, then «Мой голос – [color=red]Ник[/color]»."""
    return f"{reason}\nМой голос – [color=red]{nick}[/color]"


def test_v1_vote_inside_the_day_window_by_a_living_player() -> None:
    t = run(posts([
        (1, "Шерлок",    "20.11 17:59",    vote("Лиса")),     # before the day: not looked at
        (2, "Лиса",      "20.11 18:00",    vote("Шерлок")),   # at the day start: counts
        (3, "Kotik",     "21.11 21:59:59", vote("Шерлок")),   # a second before: counts
        (4, "Гроза",     "21.11 22:00:00", vote("Шерлок")),   # at the deadline: late (T2)
        (5, "Ёжик",      "21.11 23:30",    vote("Шерлок")),   # after the deadline: late
        (6, "Снежок",    "22.11 10:00",    vote("Шерлок")),   # next day: not looked at
        (7, "Mr. Smith", "21.11 12:00",    f"{REASON}\nМой голос – Лиса"),  # no red
        (8, "Mr. Smith", "21.11 12:05",    f"{REASON} [color=red]Лиса[/color]"),  # no phrase
    ]))
    assert counts(t) == {"Шерлок": ["Лиса", "Kotik"]}
    assert rejections(t) == {4: "V1", 5: "V1", 7: "V1"}
    assert [r.reason for r in t.rejected] == ["нет красного ника", "после дедлайна",
                                              "после дедлайна"]


def test_v2_nick_matching_near_match_counts_flagged() -> None:
    t = run(posts([
        (1, "Шерлок", "20.11 19:00", vote("Mr. Smit")),   # one letter missing: near, flagged
        (2, "Лиса",   "20.11 20:00", vote("Cнежок")),     # Latin C: look-alike fold, counts
        (3, "Kotik",  "20.11 21:00", vote("Пуаро")),      # not in the game: rejected
        (4, "Kotik",  "20.11 22:00", vote("Снежок")),     # Kotik's first valid vote
    ]))
    assert counts(t) == {"Снежок": ["Лиса", "Kotik"], "Mr. Smith": ["Шерлок"]}
    assert rejections(t) == {3: "V2"}
    assert flags(t) == {1: ["V2"]}
    assert {v.post_id: v.match_kind for v in t.votes} == {1: "near", 2: "lookalike", 4: "exact"}


def test_v3_vote_without_reason_is_not_counted() -> None:
    t = run(posts([
        (1, "Гроза", "20.11 19:00", "Мой голос – [color=red]Kotik[/color]"),         # no reason
        (2, "Ёжик",  "20.11 19:30", "Мой голос – [color=red]Лиса[/color] :D"),       # smiley only
        (3, "Гроза", "20.11 20:00", vote("Mr. Smith", "Котик слишком весёлый, а Смит молчит.")),
    ]))
    assert counts(t) == {"Mr. Smith": ["Гроза"]}        # a rejected vote is no vote: 3 counts
    assert rejections(t) == {1: "V3", 2: "V3"}
    assert t.not_voted == ("Шерлок", "Лиса", "Kotik", "Ёжик", "Mr. Smith", "Снежок")


def test_v3_host_accepts_or_rejects_a_vote() -> None:
    day = posts([
        (1, "Гроза", "20.11 19:00", vote("Лиса")),
        (2, "Ёжик",  "20.11 19:30", "Мой голос – [color=red]Лиса[/color] :D"),
    ])
    t = run(day, overrides=["accept 2", "reject 1 голос скопирован из другой игры"])
    assert counts(t) == {"Лиса": ["Ёжик"]}
    assert rejections(t) == {1: "V3"}
    assert t.rejected[0].reason == "отклонён ведущим: голос скопирован из другой игры"
    assert t.votes[0].accepted_by == "ведущий (засчитал)"
    assert t.overrides == (  # recorded in post order, to be shown to the host
        # Issue 29 item 7: the decision in Russian, never its command syntax.
        "сообщение #1: не засчитывать (голос скопирован из другой игры): голос Гроза не "
        "засчитан",
        "сообщение #2: засчитать: принят ведущим вопреки «V3: без аргумента»",
    )


def test_v3_host_sets_a_target() -> None:
    day = posts([
        (1, "Гроза", "20.11 19:00", vote("Шрлк")),                       # matches nobody
        (2, "Ёжик",  "20.11 19:30", f"{REASON}\nМой голос – Лиса"),      # no colour at all
    ])
    assert counts(run(day)) == {}
    only_accepted = run(day, overrides=["accept 2"])       # accepted, but for whom?
    assert counts(only_accepted) == {} and rejections(only_accepted) == {1: "V2", 2: "V1"}
    t = run(day, overrides=["set 1 target Шерлок", "set 2 target Лиса", "accept 99"])
    assert counts(t) == {"Шерлок": ["Гроза"], "Лиса": ["Ёжик"]}
    assert [v.accepted_by for v in t.votes] == ["ведущий (указал, за кого)"] * 2
    assert "сообщение #99: засчитать: сообщения 99 нет среди учтённых сообщений дня" \
        in t.overrides
    assert "сообщение #1: голос за Шерлок: голос Гроза — за Шерлок" in t.overrides
    assert not [o for o in t.overrides if "target" in o or "set " in o]


def test_v4_votes_cannot_be_changed() -> None:
    t = run(posts([
        (1, "Шерлок", "20.11 19:00", vote("Лиса")),     # first valid vote: counts
        (2, "Шерлок", "20.11 20:00", vote("Гроза")),    # change attempt: ignored
        (3, "Шерлок", "20.11 21:00", vote("Лиса")),     # same again: ignored
    ]))
    assert counts(t) == {"Лиса": ["Шерлок"]}
    assert rejections(t) == {2: "V4", 3: "V4"}
    assert "сообщение 1" in t.rejected[0].reason


def test_v4_edited_vote_first_seen_text_counts() -> None:
    # An earlier scrape stored post 5 voting Kotik; the author then edited it to Шерлок.
    seen_first = post(5, "Лиса", "21.11 14:10", vote("Kotik"))
    seen_later = post(5, "Лиса", "21.11 14:10", vote("Шерлок"), edited="21.11 14:26")
    t = run([[seen_first, seen_later]])
    assert counts(t) == {"Kotik": ["Лиса"]}
    assert flags(t) == {5: ["V4"]}
    assert "сначала голос за «Kotik», потом голос за «Шерлок»" in t.flags[0].text


def test_v4_edited_vote_never_seen_before_counts_flagged() -> None:
    t = run([post(5, "Лиса", "21.11 14:10", vote("Шерлок"), edited="21.11 14:26")])
    assert counts(t) == {"Шерлок": ["Лиса"]}
    assert [f.text for f in t.flags] == [
        "голос отредактирован после публикации, первый текст не сохранён"]


def test_v4_edit_that_keeps_the_vote_is_not_flagged() -> None:
    before = post(5, "Лиса", "21.11 14:10", vote("Шерлок"))
    after = post(5, "Лиса", "21.11 14:10", vote("Шерлок", "Опечатку поправила, голос тот же."))
    assert flags(run([[before, after]])) == {}


# edited_vote     post 5 (edited)      post 6 (a later vote)   (setting, V4)
EDITED_VOTE = [
    ("count_flagged", "counts (flagged)",  "ignored: already voted"),
    ("void",          "rejected",          "counts"),
    ("missed",        "rejected",          "ignored: the day's vote is used up"),
]


@pytest.mark.parametrize(("setting", "edited", "later"), EDITED_VOTE,
                         ids=[e[0] for e in EDITED_VOTE])
def test_v4_edited_vote_setting(setting: str, edited: str, later: str) -> None:
    day = [
        [post(5, "Лиса", "21.11 14:10", vote("Kotik")),
         post(5, "Лиса", "21.11 14:10", vote("Шерлок"), edited="21.11 14:26")],
        post(6, "Лиса", "21.11 15:00", vote("Гроза")),
    ]
    t = run(day, rules=VoteRules(edited_vote=setting))
    expected = {
        "count_flagged": ({"Kotik": ["Лиса"]}, {6: "V4"}),
        "void": ({"Гроза": ["Лиса"]}, {5: "V4"}),
        "missed": ({}, {5: "V4", 6: "V4"}),
    }[setting]
    assert (counts(t), rejections(t)) == expected


def test_v5_dead_players_and_the_host_do_not_vote() -> None:
    alive = [p for p in PLAYERS if p != "Mr. Smith"]        # Mr. Smith was killed last night
    t = run(posts([
        (1, "Mr. Smith", "20.11 19:00", vote("Лиса")),      # dead voter
        (2, "Шерлок",    "20.11 19:10", vote("Mr. Smith")), # vote for a dead player
        (3, "Ведущий",   "20.11 19:20", vote("Лиса")),      # the host never votes
        (4, "Пуаро",     "20.11 19:30", vote("Лиса")),      # a forum user not in the game
        (5, "Лиса",      "20.11 19:40", vote("Лиса")),      # voting for oneself: allowed
        (6, "Шерлок",    "20.11 19:50", vote("Гроза")),     # Шерлок's first valid vote
    ]), alive=alive)
    assert counts(t) == {"Лиса": ["Лиса"], "Гроза": ["Шерлок"]}
    assert rejections(t) == {1: "V5", 2: "V5", 3: "V5", 4: "V5"}
    assert [r.reason for r in t.rejected] == [
        "Mr. Smith выбыл из игры", "голос за выбывшего игрока Mr. Smith",
        "сообщение ведущего: ведущий не голосует", "Пуаро не участвует в игре"]
    assert "Mr. Smith" not in t.not_voted and "Ведущий" not in t.not_voted
    assert t.rejected_voters == ()


def test_v6_most_votes_is_hanged() -> None:
    t = run(posts([
        (1, "Шерлок", "20.11 19:00", vote("Лиса")),
        (2, "Kotik",  "20.11 20:00", vote("Гроза")),
        (3, "Ёжик",   "20.11 21:00", vote("Лиса")),
    ]))
    assert counts(t) == {"Лиса": ["Шерлок", "Ёжик"], "Гроза": ["Kotik"]}
    assert (t.closed, t.hanged, t.leader) == (True, "Лиса", "Лиса")
    assert t.not_voted == ("Лиса", "Гроза", "Mr. Smith", "Снежок")


def test_v6_tie_the_one_who_first_reached_the_count_is_hanged() -> None:
    t = run(posts([
        (1, "Шерлок", "20.11 19:00", vote("Лиса")),     # Лиса 1 — the first vote of the day
        (2, "Kotik",  "20.11 20:00", vote("Шерлок")),   # Шерлок 1
        (3, "Гроза",  "20.11 21:00", vote("Шерлок")),   # Шерлок 2 — first to reach 2
        (4, "Ёжик",   "20.11 22:00", vote("Лиса")),     # Лиса 2 — a tie
    ]))
    assert counts(t) == {"Шерлок": ["Kotik", "Гроза"], "Лиса": ["Шерлок", "Ёжик"]}
    assert t.tied == ("Шерлок", "Лиса")
    assert t.hanged == "Шерлок"
    assert "Раньше других набрал(а) 2 (сообщение 3): Шерлок." in t.explanation


# With changes = last_counts: Лиса reaches 2 at 11:00 and never drops below; Снежок reaches
# 2 at 11:45; Лиса's last counted vote (12:00) is later than Снежок's (11:45).
TIE_DAY = [
    (1, "Шерлок",    "21.11 10:00", vote("Лиса")),      # Лиса 1
    (2, "Kotik",     "21.11 11:00", vote("Лиса")),      # Лиса 2
    (3, "Гроза",     "21.11 11:30", vote("Снежок")),    # Снежок 1
    (4, "Ёжик",      "21.11 11:45", vote("Снежок")),    # Снежок 2
    (5, "Mr. Smith", "21.11 12:00", vote("Лиса")),      # Лиса 3
    (6, "Шерлок",    "21.11 13:00", vote("Гроза")),     # Шерлок changes: Лиса 2, Гроза 1
]

# tie setting          hanged                  (V6)
TIES = [
    ("first_to_reach",     ("Лиса",)),
    ("earliest_last_vote", ("Снежок",)),
    ("nobody",             ()),
    ("all",                ("Лиса", "Снежок")),
]


@pytest.mark.parametrize(("setting", "hanged"), TIES, ids=[t[0] for t in TIES])
def test_v6_tie_setting(setting: str, hanged: tuple[str, ...]) -> None:
    t = run(posts(TIE_DAY), rules=VoteRules(changes="last_counts", tie=setting))
    assert counts(t) == {"Лиса": ["Kotik", "Mr. Smith"], "Снежок": ["Гроза", "Ёжик"],
                         "Гроза": ["Шерлок"]}
    assert t.tied == ("Лиса", "Снежок")
    assert t.hanged_all == hanged
    assert t.hanged == (hanged[0] if hanged else None)


def test_v6_tie_first_to_reach_counts_the_rise_that_held() -> None:
    # changes = last_counts: Лиса reaches 2 at 11:00, loses a vote at 12:00 and is back at 2
    # only at 13:00; Снежок reached 2 at 12:30 and kept it. «Первым набрал» is read as the
    # moment from which the final count held, so Снежок is hanged.
    t = run(posts([
        (1, "Шерлок",    "21.11 10:00", vote("Лиса")),      # Лиса 1
        (2, "Kotik",     "21.11 11:00", vote("Лиса")),      # Лиса 2
        (3, "Гроза",     "21.11 11:30", vote("Снежок")),    # Снежок 1
        (4, "Kotik",     "21.11 12:00", vote("Гроза")),     # Kotik changes: Лиса 1
        (5, "Ёжик",      "21.11 12:30", vote("Снежок")),    # Снежок 2
        (6, "Mr. Smith", "21.11 13:00", vote("Лиса")),      # Лиса 2 again
    ]), rules=VoteRules(changes="last_counts"))
    assert counts(t) == {"Снежок": ["Гроза", "Ёжик"], "Лиса": ["Шерлок", "Mr. Smith"],
                         "Гроза": ["Kotik"]}
    assert t.hanged == "Снежок"


def test_v6_no_valid_votes_nobody_is_hanged() -> None:
    t = run(posts([(1, "Гроза", "20.11 19:00", "Мой голос – [color=red]Kotik[/color]")]))
    assert (t.counts, t.hanged, t.leader) == ((), None, None)
    assert t.explanation == "Засчитанных голосов нет: на виселицу никто не отправляется."


@pytest.mark.parametrize("early", [False, True], ids=["off", "on"])
def test_v6_early_majority_setting(early: bool) -> None:
    # 7 living players: an absolute majority is 4 votes.
    t = run(posts([
        (1, "Шерлок",    "20.11 19:00", vote("Лиса")),
        (2, "Kotik",     "20.11 19:10", vote("Лиса")),
        (3, "Гроза",     "20.11 19:20", vote("Лиса")),
        (4, "Ёжик",      "20.11 19:30", vote("Лиса")),     # the 4th vote: majority
        (5, "Снежок",    "20.11 19:40", vote("Шерлок")),
        (6, "Лиса",      "20.11 19:50", vote("Шерлок")),
    ]), rules=VoteRules(early_majority=early))
    if early:
        assert counts(t) == {"Лиса": ["Шерлок", "Kotik", "Гроза", "Ёжик"]}
        assert rejections(t) == {5: "V6", 6: "V6"}
        assert (t.closed_early_by, t.hanged) == (4, "Лиса")
    else:
        assert counts(t)["Шерлок"] == ["Снежок", "Лиса"]
        assert rejections(t) == {} and t.closed_early_by is None


# changes setting     counted vote of Шерлок     rejected posts   (V4 setting)
CHANGES = [
    ("forbidden",   VoteRules(),                                   "Лиса",  {2: "V4", 3: "V4"}),
    ("last_counts", VoteRules(changes="last_counts"),              "Kotik", {1: "V4", 2: "V4"}),
    ("limited 1",   VoteRules(changes="limited", change_limit=1),  "Гроза", {1: "V4", 3: "V4"}),
]


@pytest.mark.parametrize(("name", "rules", "target", "rejected"), CHANGES,
                         ids=[c[0] for c in CHANGES])
def test_v4_changes_setting(name: str, rules: VoteRules, target: str,
                            rejected: dict[int, str]) -> None:
    t = run(posts([
        (1, "Шерлок", "20.11 19:00", vote("Лиса")),
        (2, "Шерлок", "20.11 20:00", vote("Гроза")),
        (3, "Шерлок", "20.11 21:00", vote("Kotik")),
    ]), rules=rules)
    assert counts(t) == {target: ["Шерлок"]}
    assert rejections(t) == rejected


def test_replacement_takes_the_slot_with_its_votes() -> None:
    # Буря replaces Гроза from post 5 on: votes by and for the slot carry over.
    players = (*PLAYERS, "Буря")
    t = run(posts([
        (1, "Гроза",  "20.11 19:00", vote("Лиса")),       # the slot's vote: still counts
        (2, "Буря",   "20.11 19:05", vote("Kotik")),      # not in the game yet
        (3, "Шерлок", "20.11 19:10", vote("Гроза")),      # for the slot: now shown as Буря
        (5, "Буря",   "20.11 20:00", vote("Шерлок")),     # the slot has voted already
        (6, "Kotik",  "20.11 20:10", vote("Буря")),       # for the slot by the new nick
        (7, "Гроза",  "20.11 20:20", vote("Снежок")),     # replaced: no longer plays
    ]), players=players, replacements=[Replacement("Гроза", "Буря", from_post=5)])
    assert counts(t) == {"Буря": ["Шерлок", "Kotik"], "Лиса": ["Гроза"]}
    assert rejections(t) == {2: "V5", 5: "V4", 7: "V5"}
    assert "Буря" in t.alive and "Гроза" not in t.alive
    assert "Гроза заменён игроком Буря" in [r.reason for r in t.rejected]


def test_as_of_the_count_as_it_stood_then() -> None:
    day = posts([
        (1, "Шерлок", "20.11 19:00", vote("Лиса")),
        (2, "Kotik",  "20.11 20:00", vote("Гроза")),
        (3, "Ёжик",   "21.11 12:00", vote("Гроза")),
    ])
    t = run(day, as_of=2)
    assert counts(t) == {"Лиса": ["Шерлок"], "Гроза": ["Kotik"]}
    assert (t.closed, t.hanged, t.leader) == (False, None, "Лиса")   # Лиса reached 1 first
    by_time = run(day, as_of=msk("21.11 12:00"))
    assert counts(by_time) == {"Гроза": ["Kotik", "Ёжик"], "Лиса": ["Шерлок"]}
    assert (by_time.closed, by_time.hanged, by_time.leader) == (False, None, "Гроза")
    assert run(day, as_of=msk("21.11 22:00")).hanged == "Гроза"
    with pytest.raises(GameError, match="сообщение 99"):
        run(day, as_of=99)


def test_host_override_syntax() -> None:
    assert VoteDecision.parse("accept 85") == VoteDecision("accept", 85)
    assert VoteDecision.parse("reject #p85 флуд") == VoteDecision("reject", 85, "флуд")
    assert VoteDecision.parse("set 99 target Mr. Smith") == VoteDecision("set", 99,
                                                                         target="Mr. Smith")
    for bad in ("accept", "drop 85", "set 85 Шерлок", "reject x"):
        with pytest.raises(GameError):
            VoteDecision.parse(bad)
