"""N8 — Реаниматор and N9 — Некромант."""

import pytest
from nighttable import Game, causes, dead, night, rejected, said

from referee.render.morning import private_results
from referee.rules.night.kills import HealFailed, Protected

PLAYERS = (
    "Pr=priest, Kom=commissar, Doc=doctor, Nin=ninja, Necro=necromancer, Bob, Ann, Cid, "
    "Don=mafia/A, Vito=mafia/A, Thug=thug/A, Kami=kamikaze/A, "
    "Carlo=mafia/B, Jack=maniac"
)


# --- N8 Реаниматор


def test_n8_heal_saves_from_mafia() -> None:
    out = night(PLAYERS, ["Don shoot Bob", "Doc heal Bob"])
    assert dead(out) == set()
    assert out.saved == (("Bob", "Doc"),)


def test_n8_heal_saves_from_maniac() -> None:
    out = night(PLAYERS, ["Jack kill Bob", "Doc heal Bob"])
    assert dead(out) == set()


def test_n8_heal_powerless_when_mafia_and_maniac_shoot_the_same_player() -> None:
    """Seed: «если мафия и маньяк решат выстрелить по одному и тому же человеку,
    реаниматор бессилен ему помочь»."""
    out = night(PLAYERS, ["Don shoot Bob", "Jack kill Bob", "Doc heal Bob"])
    assert dead(out) == {"Bob"}
    assert causes(out, "Bob") == ("mafia:A", "maniac:Jack")
    assert any(isinstance(e, HealFailed) for e in out.events)


def test_n8_heal_powerless_against_two_clan_shots() -> None:
    out = night(PLAYERS, ["Don shoot Bob", "Carlo shoot Bob", "Doc heal Bob"])
    assert dead(out) == {"Bob"}


def test_n8_heal_does_not_stop_the_ninja() -> None:
    assert dead(night(PLAYERS, ["Nin kill Don", "Doc heal Don"])) == {"Don"}


def test_n8_heal_does_not_stop_the_kamikaze() -> None:
    assert dead(night(PLAYERS, ["Kami blow Bob", "Doc heal Bob"])) == {"Bob", "Kami"}


def test_n8_heal_saves_from_the_shot_only() -> None:
    out = night(PLAYERS, ["Don shoot Bob", "Nin kill Bob", "Doc heal Bob"])
    assert dead(out) == {"Bob"}
    assert causes(out, "Bob") == ("ninja:Nin",)


def test_n8_doctor_cannot_heal_himself() -> None:
    out = night(PLAYERS, ["Doc heal Doc"])
    assert rejected(out) == [("Doc", "heal", "нельзя выбрать себя")]
    assert out.events[0].rule == "N8"


def test_n8_doctor_cannot_heal_the_same_player_two_nights_in_a_row() -> None:
    g = Game(PLAYERS)
    g.night(1, ["Doc heal Bob"])
    out = g.night(2, ["Doc heal Bob", "Don shoot Bob"])
    assert rejected(out) == [
        ("Doc", "heal", "Bob уже был целью прошлой ночью — два раза подряд нельзя")
    ]
    assert dead(out) == {"Bob"}


def test_n8_doctor_may_heal_the_same_player_again_after_a_gap() -> None:
    g = Game(PLAYERS)
    g.night(1, ["Doc heal Bob"])
    g.night(2, ["Doc heal Ann"])
    assert rejected(g.night(3, ["Doc heal Bob"])) == []


def test_n8_doctor_killed_tonight_still_heals() -> None:
    """N2: deaths are applied at the end, all at once."""
    out = night(PLAYERS, ["Don shoot Doc", "Jack kill Bob", "Doc heal Bob"])
    assert dead(out) == {"Doc"}


# --- N9 Некромант


def protected_game() -> Game:
    g = Game(PLAYERS)
    g.day(1, lines=["Necro protect Bob Ann"])
    return g


@pytest.mark.parametrize(
    ("line", "cause"),
    [
        ("Don shoot Bob", "mafia"),
        ("Jack kill Bob", "maniac"),
        ("Nin kill Bob", "ninja"),
        ("Kami blow Bob", "blast"),
    ],
)
def test_n9_protection_prevents_death_by_each_killer(line: str, cause: str) -> None:
    g = protected_game()
    out = g.night(1, [line])
    assert "Bob" not in dead(out)
    saved = [e for e in out.events if isinstance(e, Protected)]
    assert [(e.player, [a.kind for a in e.attacks]) for e in saved] == [("Bob", [cause])]


def test_n9_protection_against_many_attackers_at_once() -> None:
    """Seed: «независимо от того, сколько народу попытается убить бедного клиента»."""
    g = protected_game()
    out = g.night(1, ["Don shoot Bob", "Jack kill Bob", "Carlo shoot Bob", "Nin kill Bob"])
    assert dead(out) == set()


def test_n9_protection_against_the_ambush() -> None:
    g = Game(PLAYERS)
    g.day(1, lines=["Necro protect Doc Ann"])
    out = g.night(1, ["Jack ambush", "Doc heal Jack"])
    assert dead(out) == set()


def test_n9_one_resurrection_in_all() -> None:
    g = protected_game()
    assert dead(g.night(1, ["Don shoot Bob"])) == set()
    assert dead(g.night(2, ["Don shoot Ann"])) == {"Ann"}


def test_n9_both_named_die_the_same_night_first_named_is_saved() -> None:
    g = protected_game()
    assert dead(g.night(1, ["Don shoot Bob", "Jack kill Ann"])) == {"Ann"}


def test_n9_not_the_kamikazes_own_death() -> None:
    g = Game(PLAYERS)
    g.day(1, lines=["Necro protect Kami Bob"])
    out = g.night(1, ["Kami blow Bob"])
    assert dead(out) == {"Kami"}
    assert [e.player for e in out.events if isinstance(e, Protected)] == ["Bob"]


def test_n9_does_not_cover_the_priests_guest() -> None:
    g = Game(PLAYERS)
    g.day(1, lines=["Necro protect Pr Ann"])
    out = g.night(1, ["Pr take Cid", "Don shoot Pr"])
    assert dead(out) == {"Cid"}


def test_n9_covers_the_named_player_even_when_he_is_a_guest_hit_through_the_priest() -> None:
    g = Game(PLAYERS)
    g.day(1, lines=["Necro protect Cid Ann"])
    out = g.night(1, ["Pr take Cid", "Don shoot Pr"])
    assert dead(out) == {"Pr"}


def test_n9_only_during_turns_1_to_3() -> None:
    g = Game(PLAYERS)
    events = g.day(4, lines=["Necro protect Bob Ann"])
    assert rejected(events) == [
        ("Necro", "protect", "некромант выбирает только в течение ходов 1–3")
    ]


def test_n9_named_on_day_3_still_counts() -> None:
    g = Game(PLAYERS)
    assert rejected(g.day(3, lines=["Necro protect Bob Ann"])) == []
    assert dead(g.night(3, ["Don shoot Bob"])) == set()


def test_n9_two_different_players() -> None:
    g = Game(PLAYERS)
    assert rejected(g.day(1, lines=["Necro protect Bob Bob"]))[0][2] == (
        "нужно назвать двух разных игроков"
    )
    assert rejected(g.day(1, lines=["Necro protect Bob"]))[0][2] == (
        "нужно назвать двух разных игроков"
    )


def test_n9_necromancer_cannot_protect_himself() -> None:
    g = Game(PLAYERS)
    assert rejected(g.day(1, lines=["Necro protect Necro Bob"]))[0][2] == "себя воскрешать нельзя"


def test_n9_names_once_per_game() -> None:
    g = protected_game()
    assert rejected(g.day(2, lines=["Necro protect Cid Doc"]))[0][2] == (
        "некромант уже назвал своих двоих — это делается один раз"
    )


def test_n15_5_named_during_the_night_counts_from_the_next_night() -> None:
    """N15.5 (seed: «Заявка некроманта отправляется не ночью»): a naming sent during a
    night does not cover that night; it counts from the next one."""
    g = Game(PLAYERS)
    out = g.night(1, ["Necro protect Bob Ann", "Don shoot Bob"])
    assert dead(out) == {"Bob"}
    assert said(out, "действует с ночи 2 (названо ночью — действует со следующей ночи)")
    g.day(2)
    assert dead(g.night(2, ["Don shoot Ann"])) == set()


def test_n9_named_on_night_4_is_too_late() -> None:
    g = Game(PLAYERS)
    out = g.night(4, ["Necro protect Bob Ann", "Don shoot Bob"])
    assert dead(out) == {"Bob"}
    assert rejected(out)[0][0] == "Necro"


def test_n9_dead_necromancer_resurrects_nobody() -> None:
    g = protected_game()
    g.day(1, hanged="Necro", voters=["Cid"])
    assert dead(g.night(1, ["Don shoot Bob"])) == {"Bob"}


def test_n9_necromancer_is_told_his_protection_was_used() -> None:
    g = protected_game()
    out = g.night(1, ["Don shoot Bob"])
    assert ("Necro", "Ночь 1: ваша защита сработала, в живых остаётся: Bob. Воскрешение "
            "израсходовано.") in private_results(out)


def test_n9_night_actions_are_not_accepted_by_day() -> None:
    g = Game(PLAYERS)
    assert rejected(g.day(1, lines=["Don shoot Bob"]))[0][2].startswith("днём принимается")


def test_n8_heal_lasts_one_night() -> None:
    """Seed: «Этот выбранный игрок становится на один ход неуязвим»."""
    g = Game(PLAYERS)
    g.night(1, ["Doc heal Bob"])
    assert dead(g.night(2, ["Don shoot Bob", "Doc heal Ann"])) == {"Bob"}


def test_n9_protection_against_harakiri() -> None:
    """N9: any cause but the kamikaze's own death — the ninja's harakiri included."""
    g = Game(PLAYERS)
    g.day(1, lines=["Necro protect Nin Ann"])
    g.night(1, ["Nin kill Bob"])
    out = g.night(2, ["Nin kill Cid"])
    assert dead(out) == {"Cid"}
    assert said(out, "Защита некроманта спасает: Nin (харакири; некромант — Necro)")
