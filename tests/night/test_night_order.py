"""N2 — the order of the night, and deaths applied at the end all at once."""

from nighttable import dead, night

from referee.rules.night import STEPS
from referee.rules.night.events import AmbushSet, Took
from referee.rules.night.kills import Attack, CheckResult, Died, Healed, Protected

PLAYERS = (
    "Pr=priest, Kom=commissar, Doc=doctor, Nin=ninja, Necro=necromancer, Bob, Ann, "
    "Don=mafia/A, Vito=mafia/A, Thug=thug/A, Kami=kamikaze/A, Jack=maniac"
)


def test_n2_steps_follow_the_rules_order() -> None:
    assert [s.__name__ for s in STEPS] == [
        "declare_ambush", "priest_takes", "thug_beats", "strikes", "doctor_heals",
        "ninja_turn", "necromancer_saves", "ninja_misses", "checks", "deaths",
    ]


def test_n2_the_log_reads_in_step_order() -> None:
    from nighttable import Game

    g = Game(PLAYERS)
    g.day(1, lines=["Necro protect Ann Bob"])
    out = g.night(1, [
        "Kom check Don", "Nin kill Ann", "Doc heal Bob", "Don shoot Bob", "Pr take Thug",
        "Jack ambush", "Kami blow Pr",
    ])
    kinds = [type(e) for e in out.events if type(e) in
             (AmbushSet, Took, Attack, Healed, Protected, CheckResult, Died)]
    first = {k: kinds.index(k) for k in set(kinds)}
    assert first[AmbushSet] < first[Took] < first[Attack] < first[Healed]
    assert first[Healed] < first[Protected] < first[CheckResult]
    assert first[CheckResult] < first[Died]


def test_n2_priest_acts_before_the_thug() -> None:
    out = night(PLAYERS, ["Pr take Thug", "Thug beat Pr"])
    assert not any(e.__class__.__name__ == "Beaten" for e in out.events)


def test_n2_strikes_are_simultaneous() -> None:
    """The kamikaze blowing the mafia executor does not stop the executor's shot."""
    out = night(PLAYERS, ["Kami blow Vito", "Don shoot Bob by Vito"])
    assert dead(out) == {"Kami", "Vito", "Bob"}


def test_n2_the_maniac_killing_the_doctor_does_not_stop_the_heal() -> None:
    out = night(PLAYERS, ["Jack kill Doc", "Don shoot Bob", "Doc heal Bob"])
    assert dead(out) == {"Doc"}


def test_n2_a_player_dies_once_with_every_cause() -> None:
    out = night(PLAYERS, ["Don shoot Bob", "Jack kill Bob", "Kami blow Bob"])
    assert [d.player for d in out.deaths].count("Bob") == 1
    assert set(dict((d.player, d.causes) for d in out.deaths)["Bob"]) == {
        "mafia:A", "maniac:Jack", "kamikaze:Kami"
    }


def test_n2_explanation_is_numbered_and_ends_with_the_deaths() -> None:
    text = night(PLAYERS, ["Don shoot Bob"]).explain()
    assert text.splitlines()[0] == "Ночь 1:"
    assert text.splitlines()[-1] == "Итог: погиб(ла): Bob."
