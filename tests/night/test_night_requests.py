"""N1 — one change per game; N14 — invalid requests are rejected with a reason."""

from nighttable import Game, dead, night, rejected, said

from referee.config.game import NightRules
from referee.rules.actions import Request
from referee.rules.night import GameState, resolve_night
from referee.rules.night.events import ChangeIgnored, RequestChanged, RequestRepeated
from referee.rules.night.state import Death

PLAYERS = (
    "Pr=priest, Kom=commissar, Doc=doctor, Nin=ninja, Bob, Ann, Cid, "
    "Don=mafia/A, Vito=mafia/A, Thug=thug/A, Carlo=mafia/B, Jack=maniac"
)


# --- N1


def test_n1_first_request_counts_first_change_replaces_it() -> None:
    out = night(PLAYERS, ["Jack kill Bob", "Jack kill Ann"])
    assert dead(out) == {"Ann"}
    assert said(out, "Jack меняет заявку: было «Jack: убийство → Bob», "
                     "стало «Jack: убийство → Ann»")


def test_n1_second_change_the_same_night_is_ignored_and_flagged() -> None:
    out = night(PLAYERS, ["Jack kill Bob", "Jack kill Ann", "Jack kill Cid"])
    assert dead(out) == {"Ann"}
    assert [e.request.target for e in out.events if isinstance(e, ChangeIgnored)] == ["Cid"]


def test_n1_once_per_game_not_per_night() -> None:
    g = Game(PLAYERS)
    g.night(1, ["Kom check Bob", "Kom check Don"])
    out = g.night(3, ["Kom check Ann", "Kom check Jack"])
    assert [(c.target, c.result) for c in out.checks] == [("Ann", "citizen")]
    assert said(out, "сменить заявку можно только один раз за игру")


def test_n1_sending_order_not_list_order_decides() -> None:
    reqs = [Request("Jack", "kill", "Ann", order=2), Request("Jack", "kill", "Bob", order=1)]
    out = resolve_night(Game(PLAYERS).state, 1, reqs, NightRules())
    assert dead(out) == {"Ann"}


def test_n1_same_target_again_is_not_a_change() -> None:
    g = Game(PLAYERS)
    out = g.night(1, ["Doc heal Bob", "Doc heal Bob"])
    assert any(isinstance(e, RequestRepeated) for e in out.events)
    assert g.state.changes_left("Doc", 1) == 1


def test_n1_a_clan_counts_as_one_requester() -> None:
    out = night(PLAYERS, ["Don shoot Bob", "Vito shoot Ann", "Don shoot Cid"])
    assert dead(out) == {"Ann"}
    changed = [e.requester for e in out.events if isinstance(e, RequestChanged)]
    ignored = [e.requester for e in out.events if isinstance(e, ChangeIgnored)]
    assert changed == ["clan:A"] and ignored == ["clan:A"]


def test_n1_clans_count_their_changes_separately() -> None:
    out = night(PLAYERS, ["Don shoot Bob", "Don shoot Ann", "Carlo shoot Cid", "Carlo shoot Kom"])
    assert dead(out) == {"Ann", "Kom"}


def test_n1_kill_then_ambush_is_a_change() -> None:
    out = night(PLAYERS, ["Jack kill Bob", "Jack ambush", "Don shoot Jack"])
    assert dead(out) == {"Don"}


def test_n1_limits_kill_check_heal_only_a_take_or_beating_may_change_freely() -> None:
    # Seed: «Заявку на убийство/проверку/лечение можно сменить только один раз за игру».
    # The priest and the thug are not named there: their last request counts, and their
    # changes spend nothing.
    g = Game(PLAYERS)
    out = g.night(1, ["Pr take Bob", "Pr take Ann", "Pr take Cid",
                      "Thug beat Bob", "Thug beat Doc", "Thug beat Kom", "Kom check Don"])
    assert not any(isinstance(e, ChangeIgnored) for e in out.events)
    assert said(out, "такую заявку менять можно без ограничений")
    # The last beating (Kom) is the one that lands: no check result tonight (N4, N12).
    assert out.checks == () and g.state.changes_left("Pr", 1) == 1
    assert g.state.changes_left("Thug", 1) == 1


def test_n1_the_limited_actions_are_a_setting() -> None:
    rules = NightRules(change_limited_actions=("check", "heal", "shoot", "kill", "blow",
                                               "take"))
    out = night(PLAYERS, ["Pr take Bob", "Pr take Ann", "Pr take Cid"], rules)
    assert [e.request.target for e in out.events if isinstance(e, ChangeIgnored)] == ["Cid"]


def test_n1_changes_per_game_is_a_setting() -> None:
    out = night(PLAYERS, ["Jack kill Bob", "Jack kill Ann"], NightRules(request_changes_per_game=0))
    assert dead(out) == {"Bob"}


def test_n1_invalid_request_is_not_the_request_nor_a_change() -> None:
    g = Game(PLAYERS)
    out = g.night(1, ["Doc heal Doc", "Doc heal Bob", "Don shoot Bob"])
    assert dead(out) == set()
    assert g.state.changes_left("Doc", 1) == 1


# --- N14


def test_n14_dead_actor_rejected() -> None:
    g = Game(PLAYERS)
    g.night(1, ["Don shoot Doc"])
    out = g.night(2, ["Doc heal Bob"])
    assert rejected(out) == [("Doc", "heal", "Doc мёртв — мёртвые не ходят")]


def test_n14_wrong_role_rejected() -> None:
    assert rejected(night(PLAYERS, ["Bob kill Ann"])) == [
        ("Bob", "kill", "роль Мирный житель не может делать это")
    ]


def test_n14_unknown_actor_rejected() -> None:
    assert rejected(night(PLAYERS, ["Ghost kill Ann"])) == [
        ("Ghost", "kill", "«Ghost» — нет такого игрока")
    ]


def test_n14_unknown_target_rejected() -> None:
    assert rejected(night(PLAYERS, ["Jack kill Annn"])) == [
        ("Jack", "kill", "«Annn» — нет такого игрока")
    ]


def test_n14_dead_target_rejected() -> None:
    g = Game(PLAYERS)
    g.night(1, ["Don shoot Bob"])
    assert rejected(g.night(2, ["Jack kill Bob"])) == [("Jack", "kill", "Bob уже мёртв")]


def test_n14_unknown_action_rejected() -> None:
    state = Game(PLAYERS).state
    out = resolve_night(state, 1, [Request("Jack", "poison", "Bob")], NightRules())
    assert out.rejected == (("Jack", "poison", "неизвестное действие «poison»"),)


def test_n14_missing_target_rejected() -> None:
    assert rejected(night(PLAYERS, ["Jack kill"])) == [("Jack", "kill", "нужна ровно одна цель")]


def test_n14_every_request_is_accounted_for() -> None:
    """Never silently dropped: each request is an order, a rejection, or an N1 event."""
    lines = ["Jack kill Bob", "Jack kill Ann", "Jack kill Cid", "Ghost kill Bob", "Doc heal Doc"]
    out = night(PLAYERS, lines)
    mentioned = [e.request for e in out.events if hasattr(e, "request")]
    mentioned += [e.new for e in out.events if isinstance(e, RequestChanged)]
    mentioned += [e.old for e in out.events if isinstance(e, RequestChanged)]
    assert {(r.actor, r.target) for r in mentioned} >= {
        ("Jack", "Bob"), ("Jack", "Ann"), ("Jack", "Cid"), ("Ghost", "Bob"), ("Doc", "Doc")
    }


def test_n14_removed_player_cannot_act() -> None:
    g = Game(PLAYERS)
    g.remove("Jack")
    assert rejected(g.night(1, ["Jack kill Bob"]))[0][2] == "Jack мёртв — мёртвые не ходят"


def test_n14_state_built_with_graveyard_rejects_the_dead() -> None:
    state = Game(PLAYERS).state.bury([Death("Kom", ("hanged",))])
    out = resolve_night(state, 1, [Request("Kom", "check", "Bob")], NightRules())
    assert out.rejected[0][2] == "Kom мёртв — мёртвые не ходят"
    assert isinstance(state, GameState)
