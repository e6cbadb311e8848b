"""N3 — Священник: the guest's action fails, actions aimed at the guest fail, actions aimed
at the priest hit both. One test per sentence of the seed's priest section."""

from nighttable import Game, checks, dead, night, rejected, said

from referee.rules.night.events import Beaten, Blocked
from referee.rules.night.kills import Healed

TOWN = "Pr=priest, Kom=commissar, Doc=doctor, Nin=ninja, Bob, Ann"
CLAN = "Don=mafia/A, Vito=mafia/A, Thug=thug/A, Kami=kamikaze/A"
ALL = f"{TOWN}, {CLAN}, Jack=maniac"


# --- «если священник забрал X, то он ...» — the guest's own action fails


def test_n3_priest_takes_commissar_no_check() -> None:
    out = night(ALL, ["Pr take Kom", "Kom check Don"])
    assert out.checks == ()
    assert said(out, "Комиссар Kom: проверка → Don не исполнено — его забрал на беседу")


def test_n3_priest_takes_ninja_no_kill() -> None:
    out = night(ALL, ["Pr take Nin", "Nin kill Don"])
    assert dead(out) == set()


def test_n3_priest_takes_doctor_no_heal() -> None:
    out = night(ALL, ["Pr take Doc", "Doc heal Bob", "Don shoot Bob"])
    assert dead(out) == {"Bob"}
    assert not any(isinstance(e, Healed) for e in out.events)


def test_n3_priest_takes_kamikaze_no_blast_and_not_used_up() -> None:
    g = Game(ALL)
    out = g.night(1, ["Pr take Kami", "Kami blow Bob"])
    assert dead(out) == set()
    assert said(out, "подрыв не израсходован")
    out2 = g.night(2, ["Kami blow Bob"])
    assert dead(out2) == {"Bob", "Kami"}


def test_n3_priest_takes_maniac_no_kill() -> None:
    out = night(ALL, ["Pr take Jack", "Jack kill Bob"])
    assert dead(out) == set()


def test_n3_priest_takes_mafia_executor_shot_void() -> None:
    out = night(ALL, ["Pr take Vito", "Don shoot Bob by Vito"])
    assert dead(out) == set()
    blocked = [e for e in out.events if isinstance(e, Blocked)]
    assert blocked and blocked[0].actor == "Vito" and blocked[0].rule == "N3"


def test_n3_priest_takes_mafia_sender_who_is_not_executor_shot_stands() -> None:
    out = night(ALL, ["Pr take Don", "Don shoot Bob by Vito"])
    assert dead(out) == {"Bob"}


def test_n3_priest_takes_thug_no_beating() -> None:
    out = night(ALL, ["Pr take Thug", "Thug beat Doc", "Doc heal Bob", "Don shoot Bob"])
    assert dead(out) == set()
    assert not any(isinstance(e, Beaten) for e in out.events)


# --- «Все заявки, обращенные в сторону этого игрока, остаются неисполненными»


def test_n3_mafia_shot_at_guest_fails() -> None:
    out = night(ALL, ["Pr take Bob", "Don shoot Bob"])
    assert dead(out) == set()
    assert said(out, "Bob у священника Pr")


def test_n3_maniac_kill_of_guest_fails() -> None:
    assert dead(night(ALL, ["Pr take Bob", "Jack kill Bob"])) == set()


def test_n3_ninja_kill_of_guest_fails() -> None:
    assert dead(night(ALL, ["Pr take Don", "Nin kill Don"])) == set()


def test_n3_kamikaze_blast_at_guest_fails_and_is_not_used_up() -> None:
    g = Game(ALL)
    assert dead(g.night(1, ["Pr take Bob", "Kami blow Bob"])) == set()
    assert "Kami" not in g.state.kamikaze_used


def test_n3_thug_beating_guest_fails() -> None:
    out = night(ALL, ["Pr take Doc", "Thug beat Doc"])
    assert not any(isinstance(e, Beaten) for e in out.events)


def test_n3_heal_of_guest_fails() -> None:
    out = night(ALL, ["Pr take Bob", "Doc heal Bob"])
    assert not any(isinstance(e, Healed) for e in out.events)


def test_n3_check_of_guest_gives_nothing() -> None:
    out = night(ALL, ["Pr take Don", "Kom check Don"])
    assert out.checks == ()


# --- «если заявка обращена к священнику, то она касается обоих»


def test_n3_check_of_priest_gives_two_results() -> None:
    out = night(ALL, ["Pr take Don", "Kom check Pr"])
    assert checks(out) == {("Pr", "priest"), ("Don", "mafia")}


def test_n3_heal_of_priest_heals_guest_too() -> None:
    out = night(ALL, ["Pr take Bob", "Don shoot Pr", "Doc heal Pr"])
    assert dead(out) == set()
    assert set(out.saved) == {("Pr", "Doc"), ("Bob", "Doc")}


def test_n3_mafia_shot_at_priest_kills_guest_too() -> None:
    out = night(ALL, ["Pr take Bob", "Don shoot Pr"])
    assert dead(out) == {"Pr", "Bob"}
    assert said(out, "удар по священнику задевает и его гостя; священник: Pr")


def test_n3_thug_beating_priest_beats_both() -> None:
    out = night(ALL, ["Pr take Doc", "Thug beat Pr"])
    beaten = {e.target for e in out.events if isinstance(e, Beaten)}
    assert beaten == {"Pr", "Doc"}


def test_n3_kamikaze_blowing_priest_kills_three() -> None:
    out = night(ALL, ["Pr take Bob", "Kami blow Pr"])
    assert dead(out) == {"Pr", "Bob", "Kami"}


def test_n3_ninja_killing_priest_kills_guest_too() -> None:
    out = night(ALL, ["Pr take Don", "Nin kill Pr"])
    assert dead(out) == {"Pr", "Don"}


def test_n3_maniac_killing_priest_kills_both() -> None:
    out = night(ALL, ["Pr take Bob", "Jack kill Pr"])
    assert dead(out) == {"Pr", "Bob"}


# --- ambush, and the priest's own limits


def test_n3_priest_taking_ambushing_maniac_dies_and_ambush_stands() -> None:
    out = night(ALL, ["Jack ambush", "Pr take Jack", "Don shoot Jack by Vito"])
    assert dead(out) == {"Pr", "Vito"}
    assert said(out, "К маньяку Jack в засаду приходит и погибает: Pr")


def test_n3_priest_cannot_take_same_player_two_nights_in_a_row() -> None:
    g = Game(ALL)
    g.night(1, ["Pr take Bob"])
    out = g.night(2, ["Pr take Bob"])
    assert rejected(out) == [("Pr", "take", "Bob уже был целью прошлой ночью — два раза подряд "
                              "нельзя")]
    out3 = g.night(3, ["Pr take Bob"])
    assert rejected(out3) == []


def test_n3_priest_cannot_take_himself() -> None:
    out = night(ALL, ["Pr take Pr"])
    assert rejected(out) == [("Pr", "take", "нельзя выбрать себя")]
    assert out.events[0].rule == "N3"


def test_n3_commissar_taken_checking_the_priest_learns_nothing() -> None:
    """Seed: «естественно, если сам находится у него, то он будет недееспособным»."""
    out = night(ALL, ["Pr take Kom", "Kom check Pr"])
    assert out.checks == ()


def test_n3_guest_of_priest_killed_in_ambush_is_nobody() -> None:
    """The priest died at the maniac's door: nobody is his guest, nothing else is shielded."""
    out = night(ALL, ["Jack ambush", "Pr take Jack", "Nin kill Pr"])
    assert dead(out) == {"Pr"}
    assert checks(out) == set()
