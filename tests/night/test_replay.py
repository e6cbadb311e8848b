"""The game replay (referee/host/replay.py): example games in fixtures/replay/, vote tallies,
and clear errors for bad input."""

import json
from pathlib import Path

import pytest

from referee.config.game import NightRules
from referee.core.errors import GameError
from referee.host.replay import replay, replay_text

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "replay"
RULES = NightRules()


def load(name: str) -> dict:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def deaths(phase: dict) -> dict[str, list[str]]:
    return {d["player"]: d["causes"] for d in phase["deaths"]}


def test_replay_town_wins() -> None:
    out = replay(load("town_wins.json"), RULES)
    day1, night1, day2, night2, day3 = out["phases"]
    # V6 tie: Don and Cid both have 2; Don reached 2 first. Ann's second vote is ignored (V4).
    assert day1["hanged"] == "Don"
    assert deaths(night1) == {"Ann": ["maniac:Jack"], "Carlo": ["ninja:Nin"]}
    assert night1["saved"] == [{"player": "Bob", "by": "Doc"}, {"player": "Kom", "by": "Necro"}]
    assert night1["checks"] == [{"by": "Kom", "target": "Vito", "result": "mafia"}]
    assert day2["hanged"] == "Vito"
    assert deaths(night2) == {
        "Kom": ["kamikaze:Boom"], "Brute": ["ambush:Jack"], "Boom": ["kamikaze:Boom"]
    }
    # Killed by the kamikaze, not by a mafia shot: the check result stands (N12).
    assert night2["checks"] == [{"by": "Kom", "target": "Jack", "result": "maniac"}]
    assert deaths(day3) == {"Jack": ["hanged"], "Cid": ["removed:пропал без вести"]}
    assert out["winner"] == "town"


def test_replay_ninja_testament() -> None:
    out = replay(load("ninja_testament.json"), RULES)
    day1, night1, _, night2, day3 = out["phases"]
    assert day1["hanged"] == "Nin"
    # Bob, the first voter, is shot; the testament passes to Ann, whom the necromancer saves.
    assert deaths(night1) == {"Bob": ["mafia:A"], "Cid": ["maniac:Jack"]}
    assert night1["saved"] == [{"player": "Ann", "by": "Necro"}]
    assert night1["rejected"] == [
        {"actor": "Nin", "action": "kill", "reason": "Nin мёртв — мёртвые не ходят"}
    ]
    assert night2["rejected"][0]["reason"] == "нельзя выбрать себя"
    assert day3["hanged"] == "Jack"
    assert out["winner"] == "town"


def test_replay_clan_wins() -> None:
    out = replay(load("clan_wins.json"), RULES)
    day1, night1, day2, night2, day3 = out["phases"]
    assert day1["hanged"] == "Jack"
    assert deaths(night1) == {"Kom": ["mafia:A"]}
    assert night1["checks"] == []  # N12: the commissar was shot by the mafia
    assert night1["rejected"][0]["actor"] == "Vito"  # N5: own ВСБ
    assert [day2["hanged"], day3["hanged"]] == ["Bob", "Ann"]
    assert deaths(night2) == {"Doc": ["mafia:A"]}
    assert out["winner"] == "clan:A"


def test_replay_output_is_json() -> None:
    out = replay(load("town_wins.json"), RULES)
    assert json.loads(json.dumps(out, ensure_ascii=False)) == out


def test_replay_text_is_the_hosts_explanation() -> None:
    text = replay_text(load("town_wins.json"), RULES)
    assert "Голоса: Don — 2, Cid — 2." in text
    assert "Ночь 2:" in text and "К маньяку Jack в засаду приходит и погибает: Brute" in text
    assert text.endswith("Игра окончена: победа — мирные жители.")


# --- V6 in the replay


def game(phases: list[dict]) -> dict:
    players = [{"nick": n, "role": "citizen"} for n in ("A", "B", "C", "D")]
    players.append({"nick": "M", "role": "mafia", "clan": "X"})
    return {"players": players, "phases": phases}


def votes(*pairs: str) -> list[dict]:
    return [{"voter": p.split(">")[0], "target": p.split(">")[1]} for p in pairs]


def test_v6_most_votes_is_hanged() -> None:
    out = replay(game([{"day": 1, "votes": votes("A>M", "B>C", "C>M")}]), RULES)
    assert out["phases"][0]["hanged"] == "M"


def test_v6_tie_goes_to_the_first_to_reach_the_final_count() -> None:
    out = replay(game([{"day": 1, "votes": votes("A>C", "B>M", "C>M", "D>C")}]), RULES)
    assert out["phases"][0]["hanged"] == "M"


def test_v6_no_votes_nobody_hanged() -> None:
    out = replay(game([{"day": 1, "votes": []}]), RULES)
    assert out["phases"][0] == {"day": 1, "hanged": None, "deaths": [], "rejected": []}


def test_v5_votes_by_or_for_the_dead_are_ignored() -> None:
    out = replay(game([
        {"night": 1, "requests": [{"actor": "M", "action": "shoot", "target": "A"}]},
        {"day": 2, "votes": votes("A>B", "M>B", "B>M", "C>M", "D>A")},
    ]), RULES)
    assert out["phases"][1]["hanged"] == "M"


def test_replay_hanged_and_voters_given_directly() -> None:
    out = replay(game([{"day": 1, "hanged": "M", "voters": ["A", "B"]}]), RULES)
    assert out["phases"][0]["hanged"] == "M" and out["winner"] == "town"


# --- bad input


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"phases": []}, 'файл переигровки: нет "players"'),
        ({"players": [{"nick": "A", "role": "wizard"}], "phases": []}, "неизвестная роль 'wizard'"),
        ({"players": [{"role": "citizen"}], "phases": []}, 'players[0]: нет "nick"'),
        (game([{"day": 1, "votes": votes("A>Zed")}]), "'Zed' — не игрок"),
        (game([{"night": 1, "requests": [{"actor": "M", "target": "A"}]}]), 'нет "action"'),
        (game([{"night": 1, "requests": [{"actor": "Q", "action": "shoot"}]}]),
         "'Q' — не игрок"),
        (game([{"night": 1, "requests": [{"actor": "M", "action": "poison"}]}]),
         "неизвестное действие 'poison'"),
        (game([{"day": 1, "night": 1}]), 'ровно один из ключей "day" или "night"'),
        (game([{"day": 1, "hanged": "Zed"}]), "'Zed' — не игрок"),
        (game([{"day": 1, "votes": [{"voter": "A"}]}]), 'нужны "voter" и "target"'),
        (game([{"nigth": 1}]), 'ровно один из ключей "day" или "night"'),
        (game([{"night": 1, "reqests": []}]), "неизвестные ключи: reqests"),
        (game([{"day": 1, "hanged": "A"}, {"night": 1}, {"day": 2, "hanged": "A"}]),
         "уже мёртв(а)"),
        (game([{"day": 1, "hanged": "A"}, {"day": 2, "hanged": "A"}]),
         "«день 2» не может идти после «день 1»"),
        ({"players": [{"nick": "A", "role": "citizen"}, {"nick": "A", "role": "mafia"}],
          "phases": []}, "указан дважды"),
    ],
)
def test_replay_bad_input_is_a_game_error(data: dict, message: str) -> None:
    with pytest.raises(GameError) as err:
        replay(data, RULES)
    assert message in str(err.value)


def test_replay_accepts_russian_role_names() -> None:
    data = {"players": [{"nick": "A", "role": "Комиссар"}, {"nick": "B", "role": "мафия"}],
            "phases": []}
    assert replay(data, RULES) == {"phases": [], "winner": None}
