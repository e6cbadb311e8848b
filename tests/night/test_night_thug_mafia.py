"""N4 — Громила and N5 — Мафия: beatings, clan orders, executors, clans and their ВСБ."""

from nighttable import Game, causes, checks, dead, night, rejected, said

from referee.rules.night.events import Beaten, RequestChanged

PLAYERS = (
    "Pr=priest, Kom=commissar, Ser=sergeant, Doc=doctor, Nin=ninja, Bob, Ann, "
    "Don=mafia/A, Vito=mafia/A, ThugA=thug/A, KamiA=kamikaze/A, SonA=boss_son/A, "
    "Carlo=mafia/B, ThugB=thug/B, SonB=boss_son/B, Jack=maniac"
)


# --- N4 Громила


def test_n4_beaten_players_action_fails() -> None:
    out = night(PLAYERS, ["ThugA beat Doc", "Doc heal Bob", "Don shoot Bob"])
    assert dead(out) == {"Bob"}
    assert said(out, "Реаниматор Doc: лечение → Bob не исполнено — его избил громила ThugA")


def test_n4_beating_does_not_kill() -> None:
    out = night(PLAYERS, ["ThugA beat Bob"])
    assert dead(out) == set()
    assert [e.target for e in out.events if isinstance(e, Beaten)] == ["Bob"]


def test_n4_beating_the_priest_beats_both() -> None:
    out = night(PLAYERS, ["Pr take Ann", "ThugA beat Pr"])
    assert {e.target for e in out.events if isinstance(e, Beaten)} == {"Pr", "Ann"}
    assert said(out, "избиение священника: Pr, а с ним и гостя: Ann")


def test_n4_thug_cannot_beat_himself() -> None:
    out = night(PLAYERS, ["ThugA beat ThugA"])
    assert rejected(out) == [("ThugA", "beat", "нельзя выбрать себя")]


def test_n4_thug_cannot_beat_same_player_two_nights_in_a_row() -> None:
    g = Game(PLAYERS)
    g.night(1, ["ThugA beat Doc"])
    assert [r[0] for r in rejected(g.night(2, ["ThugA beat Doc"]))] == ["ThugA"]
    assert rejected(g.night(3, ["ThugA beat Doc"])) == []


def test_n4_beaten_executor_no_shot() -> None:
    out = night(PLAYERS, ["ThugB beat Vito", "Don shoot Bob by Vito"])
    assert dead(out) == set()


def test_n4_beaten_maniac_no_kill() -> None:
    assert dead(night(PLAYERS, ["ThugA beat Jack", "Jack kill Bob"])) == set()


def test_n4_thugs_of_two_clans_beat_at_the_same_time() -> None:
    """Both thugs act in step 3: each one's beating lands although he is beaten too."""
    out = night(PLAYERS, ["ThugA beat ThugB", "ThugB beat ThugA"])
    assert {e.target for e in out.events if isinstance(e, Beaten)} == {"ThugA", "ThugB"}


# --- N5 Мафия


def test_n5_clan_order_kills_target() -> None:
    out = night(PLAYERS, ["Don shoot Bob by Vito"])
    assert dead(out) == {"Bob"}
    assert causes(out, "Bob") == ("mafia:A",)
    assert said(out, "Клан «A» — выстрел: Bob; исполнитель: Vito")


def test_n5_without_executor_the_sender_is_executor() -> None:
    out = night(PLAYERS, ["Pr take Don", "Don shoot Bob"])
    assert dead(out) == set()
    assert said(out, "Мафия Don: выстрел мафии → Bob не исполнено — его забрал на беседу")


def test_n5_clan_cannot_shoot_its_own_boss_son() -> None:
    out = night(PLAYERS, ["Don shoot SonA"])
    assert dead(out) == set()
    assert rejected(out) == [
        ("Don", "shoot", "SonA — ВСБ этого клана, его клан стрелять в него не может")
    ]
    assert out.events[0].rule == "N5"


def test_n5_another_clan_can_shoot_the_boss_son() -> None:
    assert dead(night(PLAYERS, ["Carlo shoot SonA"])) == {"SonA"}


def test_n5_clans_may_shoot_each_other() -> None:
    out = night(PLAYERS, ["Don shoot Carlo", "Carlo shoot Don"])
    assert dead(out) == {"Don", "Carlo"}
    assert causes(out, "Don") == ("mafia:B",)


def test_n5_executor_must_be_a_living_member_of_the_clan() -> None:
    out = night(PLAYERS, ["Don shoot Bob by Carlo"])
    assert rejected(out) == [("Don", "shoot", "исполнитель Carlo не член клана A")]


def test_n5_clan_member_repeating_the_target_names_the_executor() -> None:
    out = night(PLAYERS, ["Don shoot Bob", "Vito shoot Bob by Vito", "Pr take Don"])
    assert dead(out) == {"Bob"}
    assert not any(isinstance(e, RequestChanged) for e in out.events)


def test_n5_each_clan_sends_its_own_order() -> None:
    out = night(PLAYERS, ["Don shoot Bob", "Carlo shoot Ann"])
    assert dead(out) == {"Bob", "Ann"}
    assert causes(out, "Ann") == ("mafia:B",)


def test_n5_only_mafia_send_the_shot() -> None:
    out = night(PLAYERS, ["ThugA shoot Bob"])
    assert rejected(out) == [("ThugA", "shoot", "роль Громила не может делать это")]


def test_n5_commissar_sees_clan_roles() -> None:
    out = night(PLAYERS, ["Kom check ThugB"])
    assert checks(out) == {("ThugB", "thug")}


# --- N15.1 beatings resolve as a chain

THREE_CLANS = "Doc=doctor, Bob, ThugA=thug/A, ThugB=thug/B, ThugC=thug/C, Don=mafia/A"


def test_n15_1_a_beating_into_a_loop_breaks_it() -> None:
    """ThugA and ThugB beat each other, but ThugC, whom nobody beats, beats ThugB first:
    ThugB's beating of ThugA never happens, so ThugA's beating of ThugB lands."""
    out = night(THREE_CLANS, ["ThugA beat ThugB", "ThugB beat ThugA", "ThugC beat ThugB"])
    beaten = {(e.thug, e.target) for e in out.events if isinstance(e, Beaten)}
    assert beaten == {("ThugA", "ThugB"), ("ThugC", "ThugB")}
    assert said(out, "Громила ThugB: избиение → ThugA не исполнено — его избил громила ThugA")


def test_n15_1_a_loop_of_three_are_all_beaten() -> None:
    out = night(THREE_CLANS, ["ThugA beat ThugB", "ThugB beat ThugC", "ThugC beat ThugA"])
    beatings = [e for e in out.events if isinstance(e, Beaten)]
    assert {e.target for e in beatings} == {"ThugA", "ThugB", "ThugC"}
    assert all(e.rule == "N15.1" for e in beatings)


def test_n15_1_a_chain_of_three_beats_only_the_second() -> None:
    """A beats B, B beats C, C beats the doctor: only B is beaten; C is free and beats Doc."""
    out = night(THREE_CLANS, ["ThugA beat ThugB", "ThugB beat ThugC", "ThugC beat Doc",
                              "Doc heal Bob", "Don shoot Bob"])
    assert {e.target for e in out.events if isinstance(e, Beaten)} == {"ThugB", "Doc"}
    assert dead(out) == {"Bob"}
