"""W2, N15.14: the game is over when a side wins or nobody is left, and after that nothing is
counted, resolved or recorded as if it went on (``referee.game.Game``). The phase that ended
the game still answers, the same each time; the end is worked out from what is recorded
now, so a host's decision that changes a phase up to the end makes the game go on.

Each game (``ending_games.py``) is asked at the evening after Day 3's deadline, with the
players still voting and sending requests after the end.
"""

from __future__ import annotations

from contextlib import closing
from pathlib import Path

import pytest
from ending_games import ENDING, EVENING, HANGED, PARITY, build, dump, game, played

from referee.core.errors import RequestRefused
from referee.game import Game, GameOver
from referee.rules.night import DRAW as NOBODY
from referee.rules.night import TOWN_WINS, clan_wins

TOWN_AFTER_DAY_1 = "Игра окончена после дня 1: победа — мирные жители."
TOWN_AFTER_NIGHT_1 = "Игра окончена после ночи 1: победа — мирные жители."
DRAW_AFTER_NIGHT_1 = "Игра окончена после ночи 1: ничья — в живых не осталось никого."

# What each phase gives once the game has ended: «counted», or the refusal, word for word.
PHASES = """
game      phase    answer
HANGED    day 1    counted — the day that ends the game
HANGED    night 1  Игра окончена после дня 1: победа — мирные жители. Ночь 1 не разбирается.
HANGED    day 2    Игра окончена после дня 1: победа — мирные жители. День 2 не считается.
HANGED    night 2  Игра окончена после дня 1: победа — мирные жители. Ночь 2 не разбирается.
HANGED    day 3    Игра окончена после дня 1: победа — мирные жители. День 3 не считается.
AT_NIGHT  day 1    counted
AT_NIGHT  night 1  counted — the night that ends the game
AT_NIGHT  day 2    Игра окончена после ночи 1: победа — мирные жители. День 2 не считается.
AT_NIGHT  night 2  Игра окончена после ночи 1: победа — мирные жители. Ночь 2 не разбирается.
DRAW      night 1  counted — nobody is left
DRAW      day 2    Игра окончена после ночи 1: ничья — в живых не осталось никого. День 2 не считается.
DRAW      night 2  Игра окончена после ночи 1: ничья — в живых не осталось никого. Ночь 2 не разбирается.
"""  # noqa: E501 - a table reads better whole

# A turn's activity check is final when the next day starts (A1): a game over by then has
# none; one recorded before the end shows what it recorded.
TURNS = """
game      turn  answer
HANGED    1     Игра окончена после дня 1: победа — мирные жители. Ход 1 не проверяется.
HANGED    2     Игра окончена после дня 1: победа — мирные жители. Ход 2 не проверяется.
AT_NIGHT  1     Игра окончена после ночи 1: победа — мирные жители. Ход 1 не проверяется.
SILENT    1     checked — recorded before the end (it is what ended the game)
SILENT    2     Игра окончена после дня 2: победа — мирные жители. Ход 2 не проверяется.
"""


def rows(table: str) -> list[tuple[str, str, int, str]]:
    out = []
    for line in table.strip().splitlines()[1:]:
        name, phase, n, answer = line.split(maxsplit=3)
        out.append((name, phase, int(n), answer))
    return out


def turns(table: str) -> list[tuple[str, int, str]]:
    out = []
    for line in table.strip().splitlines()[1:]:
        name, n, answer = line.split(maxsplit=2)
        out.append((name, int(n), answer))
    return out


SILENT_DON = game("Ann, Bob, Cid, Eve, Don=mafia/A",
                  ("day", 1, "Ann Bob Cid → Eve"),   # Don writes nothing in turn 1 (A1)
                  ("day", 2, "Ann Bob → Cid"),       # Cid hanged, Don leaves (A3): town wins
                  ("day", 3, "Ann → Bob"))
"""W2 by an activity removal: Don, missing in turn 1, leaves at the end of Day 2."""


def silent_don(folder: Path) -> Game:
    """SILENT_DON played by the host up to the end: Day 1, Night 1, turn 1's check, Day 2."""
    folder.mkdir()
    config, db = build(SILENT_DON | {"silent": {1: ["Don"]}}, folder)
    # A3 as it was (its setting): Don's silent turn 1 ends his game at the end of Day 2, with
    # Cid's hanging. By default he leaves at the start of Day 2 (test_a3_when_players_leave).
    config.write_text(config.read_text(encoding="utf-8") + 'silent_leave = "end_of_day"\n',
                      encoding="utf-8")
    g = Game.open(config, db, clock=lambda: EVENING)
    g.tally_day(1)
    g.resolve_night(1)
    g.check_activity(1)
    g.tally_day(2)
    return g


def ask(g: Game, phase: str, n: int) -> object:
    return g.tally_day(n) if phase == "day" else g.resolve_night(n)


@pytest.fixture
def open_game(tmp_path: Path):  # noqa: ANN201 - a maker of Games over a played game
    games: list[Game] = []

    def make(name: str, **kw: object) -> tuple[Game, Path]:
        config, db = played(ENDING[name][0], tmp_path / name, **kw)  # type: ignore[arg-type]
        g = Game.open(config, db, clock=lambda: EVENING)
        games.append(g)
        return g, db

    yield make
    for g in games:
        g.close()


@pytest.mark.parametrize(("name", "phase", "n", "answer"), rows(PHASES),
                         ids=[f"{r[0]} {r[1]} {r[2]}" for r in rows(PHASES)])
def test_w2_n15_14_nothing_after_the_end_is_counted(open_game, name: str, phase: str,
                                                    n: int, answer: str) -> None:
    g, db = open_game(name)
    before = dump(db)
    if answer.startswith("counted"):
        ask(g, phase, n)
        assert dump(db) == before  # the host recorded it already: the same answer again
        return
    with pytest.raises(GameOver) as refused:
        ask(g, phase, n)
    assert refused.value.message == answer
    assert isinstance(refused.value, RequestRefused) and refused.value.exit_code == 2
    assert "referee status" in (refused.value.hint or "")
    assert dump(db) == before


@pytest.mark.parametrize(("name", "n", "answer"), turns(TURNS),
                         ids=[f"{r[0]} turn {r[1]}" for r in turns(TURNS)])
def test_w2_no_activity_check_after_the_end(open_game, tmp_path: Path, name: str, n: int,
                                            answer: str) -> None:
    if name == "SILENT":
        g = silent_don(tmp_path / name)
        db = g.store.path
    else:
        g, db = open_game(name)
    try:
        before = dump(db)
        if answer.startswith("checked"):
            assert [f.nick for f in g.check_activity(n).report.removed] == ["Don"]
        else:
            with pytest.raises(GameOver) as refused:
                g.check_activity(n)
            assert refused.value.message == answer
        assert dump(db) == before
    finally:
        g.close()


def test_w2_the_day_that_ends_the_game_answers_the_same_each_time(open_game) -> None:
    g, db = open_game("HANGED")
    first = g.tally_day(1)
    again = Game(g.config, g.store, g.clock).tally_day(1)
    assert first.tally.hanged == again.tally.hanged == "Don"
    assert first.winner == again.winner == TOWN_WINS
    assert first.recorded_at == again.recorded_at is not None


def test_w2_the_night_that_ends_the_game_answers_the_same_each_time(open_game) -> None:
    g, _ = open_game("AT_NIGHT")
    first = g.resolve_night(1)
    again = Game(g.config, g.store, g.clock).resolve_night(1)
    assert [d.player for d in first.outcome.deaths] == [d.player for d in again.outcome.deaths]
    assert sorted(d.player for d in first.outcome.deaths) == ["Ann", "Don"]
    assert first.winner == again.winner == TOWN_WINS
    assert first.already_recorded and again.already_recorded


def test_n15_14_a_draw_ends_the_game_too(open_game) -> None:
    g, _ = open_game("DRAW")
    assert g.resolve_night(1).winner == NOBODY
    assert g.end_before("day", 2) is not None and g.end_before("day", 2).result == NOBODY
    assert g.end_before("night", 1) is None  # the night that ended it is still the game's


def test_w2_a_clan_wins_at_parity_only_when_the_setting_says_so(tmp_path: Path) -> None:
    config, db = played(PARITY, tmp_path / "plain")
    with closing(Game.open(config, db, clock=lambda: EVENING)) as g:
        assert g.tally_day(2).tally.hanged == "Don"  # one against one: the game goes on
    config, db = played(PARITY, tmp_path / "parity", rules="clan_wins_at_parity = true")
    with closing(Game.open(config, db, clock=lambda: EVENING)) as g:
        with pytest.raises(GameOver) as over:
            g.tally_day(2)
    assert over.value.message == ("Игра окончена после ночи 1: победа — мафиозный клан «A». "
                                  "День 2 не считается.")
    assert over.value.end.result == clan_wins("A")


def test_w2_an_end_not_recorded_yet_is_the_end_and_the_host_is_told(open_game) -> None:
    """Night 1 is over and ended the game, but the host has not resolved it: the next day
    is refused all the same (as ``status`` says: over), and the refusal says how to record
    it. Day 1, past its deadline, is recorded on the way as every command records it; the
    refused day is not."""
    g, db = open_game("AT_NIGHT", record=False)
    with pytest.raises(GameOver) as over:
        g.tally_day(2)
    assert over.value.message == TOWN_AFTER_NIGHT_1 + " День 2 не считается."
    assert "ночь 1 ещё не записана" in (over.value.hint or "")
    assert "referee resolve-night --night 1" in (over.value.hint or "")
    assert [(r.phase, r.number) for r in g.store.results()] == [("day", 1)]


# ------------------------------------------------------------------ the end changed by the host

def test_w2_a_hanging_the_host_undoes_lets_the_game_go_on(open_game) -> None:
    g, _ = open_game("HANGED")
    with pytest.raises(GameOver):
        g.tally_day(2)
    g.set_hanged(1, None, "голоса из мультиаккаунта")  # the day that ended the game: allowed
    assert g.end_before("day", 2) is None
    assert g.resolve_night(1).winner is None
    assert g.tally_day(2).tally.hanged is not None   # counted now: the game went on
    g.set_hanged(1, "Don")                           # and back: over again
    with pytest.raises(GameOver) as over:
        g.tally_day(2)
    assert over.value.message.startswith(TOWN_AFTER_DAY_1)


def test_w2_a_request_the_host_drops_lets_the_game_go_on(open_game) -> None:
    g, _ = open_game("AT_NIGHT")
    g.drop_action(1, "Nin", "kill", "заявка пришла после дедлайна")
    assert g.resolve_night(1).winner is None   # Don lives
    assert g.tally_day(2).tally.closed         # Day 2 is the game's again


def test_w2_an_activity_removal_the_host_excuses_lets_the_game_go_on(tmp_path: Path) -> None:
    """Don went missing in turn 1 (A1) and leaves at the end of Day 2 (A3): with Cid
    hanged that day, only town is left. The host learns Don had warned him: the excuse
    (turn 1, before the end) takes the removal back, and the game goes on."""
    with closing(silent_don(tmp_path / "silent")) as g:
        assert g.tally_day(2).winner == TOWN_WINS
        for refused in (lambda: g.resolve_night(2), lambda: g.tally_day(3)):
            with pytest.raises(GameOver):
                refused()
        g.excuse("Don", 1, "предупредил, что уезжает")
        assert g.check_activity(1).report.removed == ()
        assert g.tally_day(2).winner is None
        assert g.resolve_night(2).winner is None
        assert g.tally_day(3).tally.hanged == "Bob"


# ------------------------------------------------------------------ no sides, no end

def test_w2_a_game_without_sides_is_never_over(tmp_path: Path) -> None:
    """Roles not dealt yet, or only town listed (a count of votes only): nobody can win,
    so Day 1's hanging ends nothing and no summary says it does."""
    config, db = played(HANGED, tmp_path, record=False)
    text = config.read_text(encoding="utf-8")
    for players in (text.replace('"Don" = { role = "mafia", clan = "A" }', '"Don" = ""'),
                    text.replace('"Don" = { role = "mafia", clan = "A" }', '"Don" = "citizen"')):
        config.write_text(players, encoding="utf-8")
        with closing(Game.open(config, db, clock=lambda: EVENING)) as g:
            assert g.tally_day(1).winner is None
            assert g.end_before("day", 3) is None
            assert g.tally_day(2).tally.closed


@pytest.mark.parametrize("name", ["HANGED", "AT_NIGHT", "DRAW"])
def test_w2_the_end_is_worked_out_once_per_run(open_game, name: str) -> None:
    g, _ = open_game(name)
    kind, n = ENDING[name][1]
    end = g.end_before("day", 3)
    assert end is not None and (end.phase, end.number) == (kind, n) and end.recorded
    assert g.end_before("day", 3) is end

