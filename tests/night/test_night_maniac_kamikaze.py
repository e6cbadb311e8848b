"""N6 — Маньяк (shot or «засада») and N7 — Камикадзе."""

import pytest
from nighttable import Game, causes, checks, dead, night, rejected, said

from referee.config.game import NightRules

PLAYERS = (
    "Pr=priest, Kom=commissar, Doc=doctor, Nin=ninja, Necro=necromancer, Bob, Ann, "
    "Don=mafia/A, Vito=mafia/A, Thug=thug/A, Kami=kamikaze/A, Jack=maniac"
)


# --- N6 Маньяк


def test_n6_maniac_kills() -> None:
    out = night(PLAYERS, ["Jack kill Bob"])
    assert dead(out) == {"Bob"}
    assert causes(out, "Bob") == ("maniac:Jack",)


def test_n6_taken_maniac_does_not_kill() -> None:
    assert dead(night(PLAYERS, ["Pr take Jack", "Jack kill Bob"])) == set()


def test_n6_beaten_maniac_does_not_kill() -> None:
    assert dead(night(PLAYERS, ["Thug beat Jack", "Jack kill Bob"])) == set()


@pytest.mark.parametrize(
    ("visitor", "line"),
    [
        ("Pr", "Pr take Jack"),
        ("Thug", "Thug beat Jack"),
        ("Vito", "Don shoot Jack by Vito"),
        ("Nin", "Nin kill Jack"),
        ("Kami", "Kami blow Jack"),
        ("Doc", "Doc heal Jack"),
    ],
)
def test_n6_ambush_kills_every_visitor(visitor: str, line: str) -> None:
    out = night(PLAYERS, ["Jack ambush", line])
    assert dead(out) == {visitor}
    assert causes(out, visitor) == ("ambush:Jack",)
    assert said(out, "сидит в засаде")


def test_n6_ambush_list_is_a_setting() -> None:
    rules = NightRules(ambush_kills=("mafia",))
    out = night(PLAYERS, ["Jack ambush", "Doc heal Jack", "Don shoot Jack by Vito"], rules)
    assert dead(out) == {"Vito"}


def test_n6_ambushing_maniac_kills_nobody_else() -> None:
    out = night(PLAYERS, ["Jack ambush", "Don shoot Bob"])
    assert dead(out) == {"Bob"}
    assert causes(out, "Bob") == ("mafia:A",)


def test_n6_taken_or_beaten_maniac_keeps_his_ambush() -> None:
    out = night(PLAYERS, ["Jack ambush", "Pr take Jack", "Thug beat Jack"])
    assert dead(out) == {"Pr", "Thug"}


def test_n6_check_is_not_a_visit() -> None:
    out = night(PLAYERS, ["Jack ambush", "Kom check Jack"])
    assert dead(out) == set()
    assert checks(out) == {("Jack", "maniac")}


def test_n6_no_ambush_two_nights_in_a_row() -> None:
    g = Game(PLAYERS)
    g.night(1, ["Jack ambush"])
    out = g.night(2, ["Jack ambush"])
    assert rejected(out) == [("Jack", "ambush", "засада две ночи подряд запрещена")]
    assert rejected(g.night(3, ["Jack ambush"])) == []


def test_n6_ambush_two_nights_in_a_row_when_the_setting_allows() -> None:
    g = Game(PLAYERS, NightRules(maniac_ambush_twice_in_a_row=True))
    g.night(1, ["Jack ambush"])
    assert rejected(g.night(2, ["Jack ambush"])) == []


def test_n6_ambush_death_is_not_a_shot_doctor_cannot_save() -> None:
    out = night(PLAYERS, ["Jack ambush", "Don shoot Jack by Vito", "Doc heal Vito"])
    assert dead(out) == {"Vito"}


# --- N7 Камикадзе


def test_n7_kamikaze_dies_with_his_target() -> None:
    out = night(PLAYERS, ["Kami blow Bob"])
    assert dead(out) == {"Bob", "Kami"}
    assert causes(out, "Kami") == ("kamikaze:Kami",)


def test_n7_blast_once_per_game() -> None:
    """The blast is spent even when the kamikaze survives it (here the host's state says so)."""
    g = Game(PLAYERS)
    g.state = g.state.evolve(kamikaze_used=frozenset({"Kami"}))
    out = g.night(2, ["Kami blow Bob"])
    assert rejected(out) == [("Kami", "blow", "камикадзе уже подорвал — подрыв один на игру")]


def test_n7_beaten_kamikaze_no_blast_not_used_up() -> None:
    g = Game(PLAYERS)
    out = g.night(1, ["Thug beat Kami", "Kami blow Bob"])
    assert dead(out) == set()
    assert "Kami" not in g.state.kamikaze_used
    assert dead(g.night(2, ["Kami blow Bob"])) == {"Bob", "Kami"}


def test_n7_doctor_cannot_stop_the_blast() -> None:
    out = night(PLAYERS, ["Kami blow Bob", "Doc heal Bob"])
    assert dead(out) == {"Bob", "Kami"}


def test_n7_blast_at_priest_kills_priest_guest_and_kamikaze() -> None:
    out = night(PLAYERS, ["Pr take Ann", "Kami blow Pr"])
    assert dead(out) == {"Pr", "Ann", "Kami"}



def test_n6_maniac_either_shoots_or_sits_in_ambush() -> None:
    """Kill then ambush in one night: the ambush is the (one) change of the request (N1)."""
    out = night(PLAYERS, ["Jack kill Bob", "Jack ambush", "Nin kill Jack"])
    assert dead(out) == {"Nin"}
