"""N10 — Ниндзя (misses, harakiri) and N11 — the ninja's testament."""

from nighttable import Game, causes, dead, night, said

from referee.render.morning import private_results
from referee.rules.night.kills import NinjaMiss

PLAYERS = (
    "Pr=priest, Kom=commissar, Doc=doctor, Nin=ninja, Necro=necromancer, "
    "Bob, Ann, Cid, Dan, Don=mafia/A, Vito=mafia/A, Son=boss_son/A, Jack=maniac"
)


def misses(out) -> list[int]:  # type: ignore[no-untyped-def]
    return [e.misses for e in out.events if isinstance(e, NinjaMiss)]


def test_n10_ninja_kills() -> None:
    out = night(PLAYERS, ["Nin kill Don"])
    assert dead(out) == {"Don"}
    assert causes(out, "Don") == ("ninja:Nin",)
    assert misses(out) == []


def test_n10_doctor_cannot_stop_the_ninja() -> None:
    assert dead(night(PLAYERS, ["Nin kill Don", "Doc heal Don"])) == {"Don"}


def test_n10_killing_a_town_player_is_a_miss() -> None:
    out = night(PLAYERS, ["Nin kill Bob"])
    assert misses(out) == [1]
    assert ("Nin", "Ночь 1: ваша жертва была мирной — промах 1 из 2.") in private_results(out)


def test_n10_killing_the_boss_son_is_a_miss() -> None:
    """W1: the ВСБ plays for the town."""
    assert misses(night(PLAYERS, ["Nin kill Son"])) == [1]


def test_n10_killing_the_maniac_is_no_miss() -> None:
    assert misses(night(PLAYERS, ["Nin kill Jack"])) == []


def test_n10_second_miss_is_harakiri_the_same_night() -> None:
    g = Game(PLAYERS)
    g.night(1, ["Nin kill Bob"])
    out = g.night(2, ["Nin kill Ann"])
    assert dead(out) == {"Ann", "Nin"}
    assert causes(out, "Nin") == ("harakiri:Nin",)
    assert said(out, "харакири")


def test_n10_misses_need_not_be_on_consecutive_nights() -> None:
    g = Game(PLAYERS)
    g.night(1, ["Nin kill Bob"])
    g.night(2, ["Nin kill Don"])
    assert dead(g.night(3, ["Nin kill Ann"])) == {"Ann", "Nin"}


def test_n10_priest_with_town_guest_is_one_miss() -> None:
    """Seed: «священник перед смертью отпускает ниндзе грех случайного убийства посетителя»."""
    out = night(PLAYERS, ["Pr take Bob", "Nin kill Pr"])
    assert dead(out) == {"Pr", "Bob"}
    assert misses(out) == [1]


def test_n10_priest_with_town_guest_after_one_miss_is_harakiri() -> None:
    g = Game(PLAYERS)
    g.night(1, ["Nin kill Bob"])
    out = g.night(2, ["Pr take Ann", "Nin kill Pr"])
    assert dead(out) == {"Pr", "Ann", "Nin"}


def test_n10_target_already_dead_tonight_nothing_happens_no_miss() -> None:
    out = night(PLAYERS, ["Don shoot Bob", "Nin kill Bob"])
    assert causes(out, "Bob") == ("mafia:A",)
    assert misses(out) == []
    assert said(out, "уже погибла этой ночью — ничего не происходит, промах не засчитан")


def test_n10_target_saved_by_doctor_is_not_already_dead() -> None:
    out = night(PLAYERS, ["Don shoot Bob", "Doc heal Bob", "Nin kill Bob"])
    assert causes(out, "Bob") == ("ninja:Nin",)
    assert misses(out) == [1]


def test_n10_ninja_checked_shows_as_citizen() -> None:
    out = night(PLAYERS, ["Kom check Nin"])
    assert [(c.target, c.result) for c in out.checks] == [("Nin", "citizen")]


def test_n10_ninja_need_not_move() -> None:
    out = night(PLAYERS, [])
    assert dead(out) == set() and out.rejected == ()


# --- N11 Завещание ниндзя


def test_n11_first_voter_dies_the_same_night() -> None:
    g = Game(PLAYERS)
    g.day(1, hanged="Nin", voters=["Bob", "Ann", "Cid"])
    out = g.night(1, [])
    assert dead(out) == {"Bob"}
    assert causes(out, "Bob") == ("testament:Nin",)


def test_n11_first_voter_killed_this_night_the_second_dies() -> None:
    g = Game(PLAYERS)
    g.day(1, hanged="Nin", voters=["Bob", "Ann", "Cid"])
    out = g.night(1, ["Don shoot Bob"])
    assert dead(out) == {"Bob", "Ann"}
    assert causes(out, "Ann") == ("testament:Nin",)


def test_n11_chain_skips_every_dead_voter() -> None:
    """Seed: «Если и он погиб, то умирает третий... ниндзя не должен остаться не отмщенным»."""
    g = Game(PLAYERS)
    g.day(1, hanged="Nin", voters=["Bob", "Ann", "Cid", "Dan"])
    out = g.night(1, ["Don shoot Bob", "Jack kill Ann", "Pr take Dan"])
    assert dead(out) == {"Bob", "Ann", "Cid"}
    assert said(out, "умирает Cid (Bob и Ann уже мертвы)")


def test_n11_voter_dead_before_the_night_is_skipped() -> None:
    g = Game(PLAYERS)
    g.night(1, ["Don shoot Bob"])
    g.day(2, hanged="Nin", voters=["Bob", "Ann"])
    assert dead(g.night(2, [])) == {"Ann"}


def test_n11_nobody_left_to_die() -> None:
    g = Game(PLAYERS)
    g.day(1, hanged="Nin", voters=["Bob"])
    out = g.night(1, ["Don shoot Bob"])
    assert dead(out) == {"Bob"}
    assert said(out, "исполнять некому")


def test_n11_necromancer_saves_the_chosen_voter_and_the_testament_is_spent() -> None:
    g = Game(PLAYERS)
    g.day(1, lines=["Necro protect Bob Dan"])
    g.day(1, hanged="Nin", voters=["Bob", "Ann"])
    out = g.night(1, [])
    assert dead(out) == set()
    assert dead(g.night(2, [])) == set()


def test_n11_testament_only_that_night() -> None:
    g = Game(PLAYERS)
    g.day(1, hanged="Nin", voters=["Bob"])
    g.night(1, ["Pr take Ann"])
    assert dead(g.night(2, [])) == set()


def test_n11_only_hanging_leaves_a_testament() -> None:
    g = Game(PLAYERS)
    g.remove("Nin")
    assert dead(g.night(1, [])) == set()


def test_n11_hanging_someone_else_leaves_no_testament() -> None:
    g = Game(PLAYERS)
    g.day(1, hanged="Don", voters=["Bob"])
    assert dead(g.night(1, [])) == set()


# --- N15.7 a miss is a town player the ninja actually kills


def test_n15_7_a_kill_the_necromancer_prevents_is_no_miss_and_no_pm() -> None:
    g = Game(PLAYERS)
    g.day(1, lines=["Necro protect Bob Dan"])
    out = g.night(1, ["Nin kill Bob"])
    assert dead(out) == set() and misses(out) == []
    assert not [to for to, _ in private_results(out) if to == "Nin"]
    assert said(out, "цель спасена некромантом (Bob) — убийства не было, промах не засчитан")


def test_n15_7_priest_saved_but_town_guest_killed_is_one_miss() -> None:
    g = Game(PLAYERS)
    g.day(1, lines=["Necro protect Pr Dan"])
    out = g.night(1, ["Pr take Ann", "Nin kill Pr"])
    assert dead(out) == {"Ann"}
    assert misses(out) == [1]


def test_n15_7_harakiri_is_a_death_the_necromancer_prevents() -> None:
    """N9: the second miss brings harakiri the same night; the ninja, named by the
    necromancer, is saved from it (the miss is counted after the necromancer's step, so
    his protection is still there)."""
    g = Game(PLAYERS)
    g.night(1, ["Nin kill Bob"])
    g.day(2, lines=["Necro protect Nin Dan"])
    out = g.night(2, ["Nin kill Ann"])
    assert dead(out) == {"Ann"}
    assert misses(out) == [2]
    assert [(p, by) for p, by in out.saved] == [("Nin", "Necro")]
