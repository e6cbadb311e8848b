"""N12 — Комиссар and Сержант; N13 — ВСБ."""

from nighttable import Game, checks, dead, night, rejected

from referee.render.morning import private_results

PLAYERS = (
    "Pr=priest, Kom=commissar, Ser=sergeant, Doc=doctor, Nin=ninja, Bob, Ann, "
    "Don=mafia/A, Thug=thug/A, Son=boss_son/A, Jack=maniac"
)


def test_n12_commissar_learns_the_role() -> None:
    out = night(PLAYERS, ["Kom check Don"])
    assert checks(out) == {("Don", "mafia")}


def test_n12_boss_son_shows_as_boss_son() -> None:
    """Seed: «Также роль ВСБ может раскрыть комиссар»."""
    assert checks(night(PLAYERS, ["Kom check Son"])) == {("Son", "boss_son")}


def test_n12_sergeant_sees_every_result() -> None:
    out = night(PLAYERS, ["Kom check Don"])
    pms = private_results(out)
    assert {r for r, _ in pms} == {"Kom", "Ser"}
    assert all("Don" in text and "Мафия" in text for _, text in pms)


def test_n12_taken_commissar_no_result() -> None:
    out = night(PLAYERS, ["Pr take Kom", "Kom check Don"])
    assert out.checks == () and private_results(out) == []


def test_n12_beaten_commissar_no_result() -> None:
    """Seed: «... или будучи избитым громилой, сержант и комиссар не получают результаты»."""
    out = night(PLAYERS, ["Thug beat Kom", "Kom check Don"])
    assert out.checks == () and private_results(out) == []


def test_n12_commissar_killed_by_mafia_no_result_for_anyone() -> None:
    """Seed: «При убийстве комиссара ночным выстрелом мафии ... не получают результаты»."""
    out = night(PLAYERS, ["Don shoot Kom", "Kom check Don"])
    assert out.checks == () and private_results(out) == []
    assert "убит выстрелом мафии" in out.explain()


def test_n12_commissar_killed_by_maniac_result_reaches_the_sergeant() -> None:
    out = night(PLAYERS, ["Jack kill Kom", "Kom check Don"])
    assert [r for r, _ in private_results(out)] == ["Ser"]


def test_n12_commissar_shot_but_healed_gets_the_result() -> None:
    out = night(PLAYERS, ["Don shoot Kom", "Doc heal Kom", "Kom check Don"])
    assert checks(out) == {("Don", "mafia")}


def test_n12_sergeant_becomes_commissar_from_the_next_night() -> None:
    g = Game(PLAYERS)
    out = g.night(1, ["Don shoot Kom", "Ser check Don"])
    assert rejected(out) == [("Ser", "check", "роль Сержант не может делать это")]
    assert "получает значок" in out.explain()
    assert g.state.role_of("Ser") == "commissar"
    out2 = g.night(2, ["Ser check Don"])
    assert checks(out2) == {("Don", "mafia")}


def test_n12_commissar_hanged_sergeant_checks_that_night() -> None:
    g = Game(PLAYERS)
    g.day(1, hanged="Kom", voters=["Bob"])
    assert checks(g.night(1, ["Ser check Thug"])) == {("Thug", "thug")}


def test_n12_commissar_removed_sergeant_takes_the_badge() -> None:
    g = Game(PLAYERS)
    events = g.remove("Kom")
    assert g.state.role_of("Ser") == "commissar"
    assert any("сержант Ser получает значок" in e.explain() for e in events)


def test_n12_no_sergeant_left_no_promotion() -> None:
    g = Game(PLAYERS)
    g.night(1, ["Don shoot Ser"])
    g.day(2, hanged="Kom", voters=["Bob"])
    assert g.state.with_role("commissar") == ()


def test_n12_commissar_cannot_check_himself() -> None:
    assert rejected(night(PLAYERS, ["Kom check Kom"]))[0][2] == "нельзя выбрать себя"


def test_n13_boss_son_is_town() -> None:
    g = Game(PLAYERS)
    assert g.state.side_of("Son") == "town"
    assert g.state.clan_of("Son") == "A"


def test_n12_dead_commissar_receives_nothing() -> None:
    out = night(PLAYERS, ["Jack kill Kom", "Nin kill Ser", "Kom check Don"])
    assert dead(out) == {"Kom", "Ser"}
    assert checks(out) == {("Don", "mafia")}
    assert [r for r, _ in private_results(out) if r in ("Kom", "Ser")] == []
