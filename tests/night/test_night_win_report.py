"""W1/W2 — sides and winning; the public morning report and the private PMs."""

from nighttable import Game, night, roster

from referee.config.game import NightRules
from referee.core.bbcode import ZWSP
from referee.core.errors import GameError
from referee.render.morning import morning_report
from referee.rules.night import (
    DRAW,
    MANIAC_WINS,
    TOWN_WINS,
    GameState,
    apply_day,
    clan_wins,
    winner,
)
from referee.rules.night.state import Death

RULES = NightRules()


def after_deaths(players: str, *dead: str) -> GameState:
    state = GameState.new(roster(players))
    return state.bury([Death(n, ("removed:test",)) for n in dead])


TWO_CLANS = (
    "Kom=commissar, Bob, Ann, Don=mafia/A, Thug=thug/A, SonA=boss_son/A, "
    "Carlo=mafia/B, SonB=boss_son/B, Jack=maniac"
)


def test_w1_sides() -> None:
    s = GameState.new(roster(TWO_CLANS))
    assert [s.side_of(n) for n in ("Kom", "Bob", "SonA", "Don", "Thug", "Jack")] == [
        "town", "town", "town", "clan", "clan", "maniac"
    ]


def test_w2_game_goes_on() -> None:
    assert winner(GameState.new(roster(TWO_CLANS)), RULES) is None


def test_w2_town_wins_when_clans_and_maniac_are_dead() -> None:
    s = after_deaths(TWO_CLANS, "Don", "Thug", "Carlo", "Jack")
    assert winner(s, RULES) == TOWN_WINS


def test_w2_no_town_win_while_the_maniac_lives() -> None:
    assert winner(after_deaths(TWO_CLANS, "Don", "Thug", "Carlo"), RULES) is None


def test_w2_clan_wins_when_only_its_members_and_its_boss_son_live() -> None:
    s = after_deaths(TWO_CLANS, "Kom", "Bob", "Ann", "Carlo", "SonB", "Jack")
    assert winner(s, RULES) == clan_wins("A")


def test_w2_another_clans_boss_son_alive_no_clan_win() -> None:
    s = after_deaths(TWO_CLANS, "Kom", "Bob", "Ann", "Carlo", "SonA", "Jack")
    assert winner(s, RULES) is None


def test_w2_clan_wins_at_parity_when_the_setting_says_so() -> None:
    s = after_deaths(TWO_CLANS, "Kom", "Bob", "Carlo", "SonB", "Jack", "SonA")
    # Don + Thug against Ann: parity reached.
    assert winner(s, RULES) is None
    assert winner(s, NightRules(clan_wins_at_parity=True)) == clan_wins("A")


def test_w2_no_parity_win_while_another_clan_lives() -> None:
    s = after_deaths(TWO_CLANS, "Kom", "Bob", "Ann", "SonA", "SonB", "Jack")
    assert winner(s, NightRules(clan_wins_at_parity=True)) is None


def test_w2_maniac_alone_wins() -> None:
    s = after_deaths(TWO_CLANS, "Kom", "Bob", "Ann", "Don", "Thug", "SonA", "Carlo", "SonB")
    assert winner(s, RULES) == MANIAC_WINS


def test_w2_maniac_with_one_other_player_wins() -> None:
    s = after_deaths(TWO_CLANS, "Kom", "Bob", "Don", "Thug", "SonA", "Carlo", "SonB")
    assert winner(s, RULES) == MANIAC_WINS


def test_n15_14_nobody_left_is_a_draw() -> None:
    """N15.14: nobody alive — the game is over, and nobody won («ничья»)."""
    s = after_deaths("Bob, Don=mafia/A", "Bob", "Don")
    assert winner(s, RULES) == DRAW
    assert DRAW.token == "draw" and DRAW.is_draw


# --- the morning report


def test_morning_report_names_the_dead_and_their_roles() -> None:
    out = night("Bob, Ann, Don=mafia/A, Jack=maniac", ["Don shoot Bob"])
    text = morning_report(out, out.state, RULES)
    assert "[b]Bob[/b] — Мирный житель" in text
    assert "mafia" not in text and "Don" not in text


def test_morning_report_hides_roles_when_the_setting_says_so() -> None:
    out = night("Bob, Ann, Don=mafia/A, Jack=maniac", ["Don shoot Bob"])
    text = morning_report(out, out.state, NightRules(reveal_role_on_death=False))
    assert "[b]Bob[/b]" in text and "Мирный" not in text


def test_morning_report_never_tells_who_was_saved() -> None:
    out = night("Bob, Doc=doctor, Don=mafia/A, Jack=maniac", ["Don shoot Bob", "Doc heal Bob"])
    text = morning_report(out, out.state, RULES)
    assert "никто не погиб" in text and "Bob" not in text and "Doc" not in text


def test_morning_report_escapes_nicks() -> None:
    nick = "[/b][img]x"
    out = night(f"{nick}, Ann, Don=mafia/A, Jack=maniac", [f"Don shoot {nick}"])
    text = morning_report(out, out.state, RULES)
    assert f"[{ZWSP}/b][{ZWSP}img]x" in text
    assert "[img]" not in text


def test_morning_report_says_when_the_game_is_over() -> None:
    out = night("Bob, SonA=boss_son/A, Don=mafia/A", ["Don shoot Bob"])
    text = morning_report(out, out.state, RULES)
    assert "Игра окончена: победа — мафиозный клан «A»." in text


def test_n15_14_morning_report_says_a_draw() -> None:
    out = night("Bob, Kami=kamikaze/A", ["Kami blow Bob"])
    text = morning_report(out, out.state, RULES)
    assert text.endswith("[b]Игра окончена: ничья — в живых не осталось никого.[/b]")


def test_morning_report_promoted_sergeant_revealed_with_his_badge() -> None:
    g = Game("Kom=commissar, Ser=sergeant, Bob, Ann, Don=mafia/A, Jack=maniac")
    g.day(1, hanged="Kom", voters=["Bob"])
    out = g.night(1, ["Don shoot Ser"])
    assert "Сержант, получивший значок комиссара" in morning_report(out, out.state, RULES)


# --- the day side


def test_day_hanging_unknown_or_dead_player_is_an_error() -> None:
    g = Game("Bob, Ann, Don=mafia/A")
    try:
        apply_day(g.state, 1, "Bbo", [])
    except GameError as e:
        assert "'Bbo' — не игрок" in str(e)
    else:
        raise AssertionError("no error")
    g.day(1, hanged="Bob", voters=["Ann"])
    try:
        apply_day(g.state, 2, "Bob", [])
    except GameError as e:
        assert "уже мёртв(а) (день 1)" in str(e)
    else:
        raise AssertionError("no error")


def test_roster_errors_are_game_errors() -> None:
    for players in ("Bob, Bob", "Bob=wizard"):
        try:
            GameState.new(roster(players))
        except GameError:
            continue
        raise AssertionError(players)
