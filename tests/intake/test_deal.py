"""Dealing roles and the role PMs (docs/rules.md Setup, N5, N12, N13)."""

from __future__ import annotations

from collections import Counter
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.core.errors import ConfigError, GameError
from referee.core.kernel import PrivateMessage
from referee.core.nicks import Roster
from referee.core.roles import EXAMPLE_OF_ROLE
from referee.render.deal import role_pm_texts
from referee.rules.deal import RULES_SETUP, deal, default_setup, setup_roles
from referee.rules.intake import read_requests

NICKS_30 = [f"Игрок{i:02d}" for i in range(1, 31)]
SENT = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)


def counts(players: list) -> Counter:
    return Counter(p.role for p in players)


def test_the_rules_setup_for_30_players() -> None:
    players = deal(NICKS_30, None, seed=7)
    assert counts(players) == Counter(
        mafia=6, thug=2, kamikaze=2, boss_son=2, maniac=1, commissar=1, sergeant=1, ninja=1,
        doctor=1, necromancer=1, priest=1, citizen=11,
    )
    by_clan = Counter((p.clan, p.role) for p in players if p.clan)
    for clan in ("A", "B"):  # each clan: 3 Мафия + Громила + Камикадзе, and one ВСБ
        assert (by_clan[(clan, "mafia")], by_clan[(clan, "thug")],
                by_clan[(clan, "kamikaze")], by_clan[(clan, "boss_son")]) == (3, 1, 1, 1)


def test_the_same_seed_deals_the_same_game_and_another_seed_another() -> None:
    assert deal(NICKS_30, None, seed=42) == deal(NICKS_30, None, seed=42)
    assert deal(NICKS_30, None, seed=42) != deal(NICKS_30, None, seed=43)


def test_players_come_back_in_roster_order_each_with_a_role() -> None:
    players = deal(NICKS_30, None, seed=1)
    assert [p.nick for p in players] == NICKS_30
    assert all(p.role for p in players)


@pytest.mark.parametrize(
    ("players", "clans", "negative"),
    [
        # players, clans, clan members + maniac (the side against the town)
        (30, 2, 11),
        (26, 2, 11),
        (22, 2, 7),
        (16, 1, 6),
        (14, 1, 6),  # the fixture game: 3 Мафия, Громила, Камикадзе, Маньяк
        (10, 1, 4),
        (6, 1, 2),
    ],
)
def test_default_setup_scales_down(players: int, clans: int, negative: int) -> None:
    dealt = deal(NICKS_30[:players], None, seed=3)
    assert len({p.clan for p in dealt if p.role in ("mafia", "thug", "kamikaze")}) == clans
    assert sum(p.role in ("mafia", "thug", "kamikaze", "maniac") for p in dealt) == negative
    assert counts(dealt)["citizen"] >= 2
    assert counts(dealt)["commissar"] == 1


def test_too_few_players_is_an_error_with_the_numbers() -> None:
    with pytest.raises(GameError, match="игроков слишком мало для раздачи: 5"):
        deal(NICKS_30[:5], None, seed=1)


def test_a_setup_bigger_than_the_roster_is_an_error_with_the_numbers() -> None:
    with pytest.raises(GameError, match="нужно игроков: 19, а в \\[players\\] — 12"):
        deal(NICKS_30[:12], RULES_SETUP, seed=1)


def test_an_explicit_setup_with_citizens_must_fill_the_roster() -> None:
    setup = {"mafia": 2, "commissar": 1, "citizen": 4}
    assert counts(deal(NICKS_30[:7], setup, seed=1)) == Counter(mafia=2, commissar=1, citizen=4)
    with pytest.raises(GameError, match="= 7 игроков, а в \\[players\\] — 8"):
        deal(NICKS_30[:8], setup, seed=1)


def test_setup_accepts_russian_role_names_and_counts_clan_roles_per_clan() -> None:
    roles = setup_roles({"clans": 2, "мафия": 2, "громила": 1, "комиссар": 1}, 12)
    assert Counter(roles)[("mafia", "A")] == 2 and Counter(roles)[("thug", "B")] == 1


@pytest.mark.parametrize(
    "setup", [{"mafia": -1}, {"clans": 1, "thug": 1}, {"clans": 0, "mafia": 2}, {"шпион": 1}]
)
def test_an_invalid_setup_is_a_config_error(setup: dict) -> None:
    with pytest.raises(ConfigError):
        deal(NICKS_30[:10], setup, seed=1)


def test_duplicate_nicks_are_an_error() -> None:
    with pytest.raises(GameError, match="дважды"):
        deal(["Kotik", "kotik", *NICKS_30[:8]], None, seed=1)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(6, 40), seed=st.integers(0, 2**32))
def test_every_roster_size_gets_every_player_one_role(n: int, seed: int) -> None:
    dealt = deal(NICKS_30[: min(n, 30)] + [f"Extra{i}" for i in range(n - 30)], None, seed)
    assert len(dealt) == n
    setup = default_setup(n)
    clans = setup["clans"]
    assert counts(dealt)["mafia"] == setup["mafia"] * clans


# ------------------------------------------------------------------------------- role PMs

def texts(players: list) -> dict[str, tuple[str, str]]:
    return {nick: (subject, text) for nick, subject, text in role_pm_texts(players)}


def test_clan_members_see_each_other_and_their_own_boss_son_N5_N13() -> None:
    players = deal(NICKS_30, None, seed=5)
    pms = texts(players)
    for p in players:
        if p.role not in ("mafia", "thug", "kamikaze"):
            continue
        _, text = pms[p.nick]
        mates = [q.nick for q in players if q.clan == p.clan and q.nick != p.nick]
        strangers = [q.nick for q in players if q.clan and q.clan != p.clan]
        assert all(m in text for m in mates)
        assert not any(s in text for s in strangers)


def test_boss_son_is_told_he_is_a_citizen_N13() -> None:
    players = deal(NICKS_30, None, seed=5)
    pms = texts(players)
    son = next(p for p in players if p.role == "boss_son")
    citizen = next(p for p in players if p.role == "citizen")
    assert pms[son.nick][0] == "Ваша роль: Мирный житель"
    assert pms[son.nick][1].replace(son.nick, "X") == pms[citizen.nick][1].replace(
        citizen.nick, "X"
    )


def test_commissar_and_sergeant_know_each_other_N12() -> None:
    players = deal(NICKS_30, None, seed=5)
    pms = texts(players)
    com = next(p.nick for p in players if p.role == "commissar")
    serg = next(p.nick for p in players if p.role == "sergeant")
    assert f"Ваш сержант: {serg}." in pms[com][1]
    assert f"Ваш комиссар: {com}." in pms[serg][1]


def test_a_nick_cannot_inject_bbcode_into_the_role_pm() -> None:
    nicks = ["[/b][url=http://x]", *NICKS_30[:9]]
    for nick, _, text in role_pm_texts(deal(nicks, None, seed=2)):
        assert "[/b][url=" not in text
        if nick == nicks[0]:
            assert "[\u200b/b]" in text


@pytest.mark.parametrize("role", sorted(EXAMPLE_OF_ROLE))
def test_the_example_in_each_role_pm_reads_back_as_that_roles_request(role: str) -> None:
    example = EXAMPLE_OF_ROLE[role].split(" (")[0]
    text = example.replace("Ник1", "Kotik").replace("Ник2", "Лиса").replace("Ник", "Гроза")
    roster = Roster(["Kotik", "Лиса", "Гроза", "Отправитель"])
    pm = PrivateMessage(1, "Отправитель", None, ("Ведущий",), SENT, "", text, text)
    (request,) = read_requests(pm, role, roster, order=1).requests
    expected = {"commissar": "check", "sergeant": "check", "doctor": "heal", "mafia": "shoot",
                "maniac": "kill", "ninja": "kill", "thug": "beat", "kamikaze": "blow",
                "priest": "take", "necromancer": "protect"}[role]
    assert request.action == expected
    players = deal(NICKS_30, None, seed=9)
    holder = next((p for p in players if p.role == role), None)
    if holder is not None:
        assert f"[b]{EXAMPLE_OF_ROLE[role]}[/b]" in texts(players)[holder.nick][1]
