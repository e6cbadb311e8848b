"""`referee history`: a day's vote step by step (V6 at every vote), the whole game's table,
and the day as a picture.

The day tables read like a host's notes: the votes in order, then who led after each one
(★: the lead changed hands with it), and the vote with which the final leader reached the
final count.
"""

from __future__ import annotations

import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from glance_bench import BenchGame
from glance_demo import DEMO, at, demo, play_as_host
from support.moscow import MSK
from typer.testing import CliRunner

from referee.cli import app
from referee.config.game import DaySchedule, VoteRules
from referee.core.bbcode import ZWSP
from referee.core.errors import GameError
from referee.core.nicks import Roster
from referee.host.history import day_history, game_history, history_of_day
from referee.render.context import Context
from referee.render.history import ROLES_WARNING, render_day_history, render_game_history
from referee.render.plot import label, plot_day, series
from referee.rules.day.count import ReadVote, tally_read
from referee.rules.day.result import Tally

START = datetime(2026, 11, 20, 15, tzinfo=UTC)
MOSCOW = Context(tz=MSK, tz_name="Europe/Moscow")


def day_of(votes: str, rules: VoteRules | None = None) -> Tally:
    """«Ann→Bob, Cid→Dan, …»: votes ten minutes apart, in voting order, counted by the day's
    own count (every voter and target a living player)."""
    cast = [tuple(v.strip().split("→")) for v in votes.split(",") if v.strip()]
    players = tuple(dict.fromkeys(n for pair in cast for n in pair))
    read = [ReadVote(voter, target, 100 + i, START + timedelta(minutes=10 * (i + 1)))
            for i, (voter, target) in enumerate(cast)]
    return tally_read(read, DaySchedule(1, START, START + timedelta(days=1)), alive=players,
                      roster=Roster(players), rules=rules)


DAYS = [
    # (the votes, the leader after each vote (★ = taken with it), the final count reached by)
    ("Ann→Bob", "Bob★", ("Bob", 1, 1)),
    ("Ann→Bob, Cid→Dan", "Bob★ Bob", ("Bob", 1, 1)),
    ("Ann→Bob, Cid→Dan, Eve→Dan, Bob→Bob, Dan→Bob", "Bob★ Bob Dan★ Dan Bob★", ("Bob", 3, 5)),
    ("Ann→Dan, Bob→Cid, Cid→Cid, Dan→Dan", "Dan★ Dan Cid★ Cid", ("Cid", 2, 3)),
    ("Ann→Ann, Bob→Bob, Cid→Cid", "Ann★ Ann Ann", ("Ann", 1, 1)),
]


@pytest.mark.parametrize(("votes", "leaders", "reached"), DAYS, ids=[d[0] for d in DAYS])
def test_who_led_after_each_vote(votes: str, leaders: str,
                                 reached: tuple[str, int, int]) -> None:
    h = day_history(day_of(votes))
    assert " ".join(s.leader + ("★" if s.lead_changed else "") for s in h.steps) == leaders
    nick, count, vote = reached
    assert h.reached is not None
    assert (h.reached.nick, h.reached.votes, h.reached.post_id) == (nick, count, 99 + vote)
    assert h.lead_changes == tuple(s for s in h.steps[1:] if s.lead_changed)


def test_a_day_without_votes() -> None:
    h = day_history(day_of(""))
    assert h.steps == () and h.leader is None and h.reached is None
    assert "Засчитанных голосов нет." in render_day_history(h, "text")


def test_a_change_of_vote_moves_a_vote() -> None:
    """V4 (changes = last_counts): the change is a step of its own, the vote taken from Bob;
    Bob keeps the lead, his one vote reached first (V6: his count never fell below it)."""
    h = day_history(day_of("Ann→Bob, Cid→Bob, Ann→Cid", VoteRules(changes="last_counts")))
    assert [(s.voter, s.old, s.target, s.counts) for s in h.steps] == [
        ("Ann", None, "Bob", (("Bob", 1),)), ("Cid", None, "Bob", (("Bob", 2),)),
        ("Ann", "Bob", "Cid", (("Bob", 1), ("Cid", 1)))]
    assert h.leader == h.hanged == "Bob" and not h.lead_changes
    assert h.reached is not None and h.reached.post_id == 100
    assert series(h, "Bob")[1] == [0, 1, 2, 1, 1]
    shown = render_day_history(h, "text")
    assert "Ann → Cid (был за Bob)" in shown and "Ann → Bob (был" not in shown


def test_the_demo_day1_vote_by_vote(tmp_path: Path) -> None:
    game = at(demo(tmp_path / "game.db"), "2026-11-22 12:00")
    h = history_of_day(game, 1)
    assert [s.number for s in h.lead_changes] == [8, 10]  # Шерлок 3 at 12:40, then Smith 4
    assert h.steps[8].counts[:2] == (("Шерлок", 3), ("Mr. Smith", 3))  # Шерлок got there first
    assert h.reached is not None and (h.reached.nick, h.reached.votes, h.reached.post_id) == (
        "Mr. Smith", 6, 110)
    text = render_day_history(h, "bbcode", MOSCOW)
    assert "Смены лидера (2): 21.11 12:40 — Шерлок (голос 8); 21.11 14:35 — Mr. Smith (голос 10)." \
        in text
    # Issue 29 item 7: no post id and no rule code for the players; the vote's link, when
    # the topic's address is known.
    assert ("Итоговые 6 голосов Mr. Smith набрал(а) 21.11 17:30 (при равенстве голосов на "
            "виселицу идёт тот, кто набрал их раньше).") in text
    assert "V6" not in text and "#110" not in text
    linked = render_day_history(h, "bbcode", Context(tz=MSK, topic_url="https://f/viewtopic.php?t=3"))
    assert ("набрал(а) 21.11 17:30 ([url=https://f/viewtopic.php?p=110#p110]этим голосом[/url]; "
            "при равенстве") in linked
    assert text.startswith("[b]День 1: как шло голосование[/b]\n[code]\n")


def test_the_day_in_progress_is_the_count_as_it_stands(tmp_path: Path) -> None:
    game = at(demo(tmp_path / "game.db"), "2026-11-21 13:00")
    h = history_of_day(game, 1)
    assert not h.closed and len(h.steps) == 8 and h.steps[-1].leader == "Шерлок"
    text = render_day_history(h, "text", MOSCOW)
    assert "(день идёт, счёт на 21.11 13:00)" in text
    assert "Нынешние 3 голоса Шерлок набрал(а) 21.11 12:40" in text
    with pytest.raises(GameError, match="день 2 ещё не начался"):
        history_of_day(game, 2)


def test_nicks_cannot_inject_bbcode() -> None:
    nasty = "[/code][url=http://x]Ник[/url]"
    text = render_day_history(day_history(day_of(f"Ann→{nasty}, {nasty}→Ann")), "bbcode")
    assert "[url=" not in text and text.count("[/code]") == 1
    assert f"[{ZWSP}/code]" in text


def test_the_demo_game_table(tmp_path: Path) -> None:
    game = play_as_host(demo(tmp_path / "game.db"), "2026-11-24 12:00")
    g = game_history(game)
    assert [(d.day, d.hanged, d.votes, d.counted) for d in g.days] == [
        (1, "Mr. Smith", 6, 12), (2, "Лиса", 4, 4)]
    assert [d.leaving for d in g.days] == [(), (("Мотылёк", "citizen"),)]
    assert [[n for n, _, _ in x.deaths] for x in g.nights] == [["Kotik", "Тень_Ночи", "Nika-77"],
                                                               []]
    rows = {p.nick: (p.days_voted, len(p.days_in_game), p.at_mafia, p.at_maniac, p.at_town)
            for p in g.players}
    assert rows["Шерлок"] == ((1, 2), 2, 2, 0, 0)        # Mr. Smith, then Лиса
    assert rows["Лиса"] == ((1,), 2, 1, 0, 0)            # Шерлок, her own clan's thug
    assert rows["Ира-Ира"] == ((1,), 2, 0, 0, 1)         # Снежок, a citizen
    assert rows["Мотылёк"] == ((), 2, 0, 0, 0)
    text = render_game_history(g, "bbcode", game.config.title)
    assert text.startswith("[b]Итоги игры «Мафия: игра 2»[/b]\n" + ROLES_WARNING)
    assert "Mr. Smith (Мафия)" in text and "6 из 12" in text


def test_a_benchmark_game_day_and_table(bench: BenchGame, tmp_path: Path) -> None:
    game = bench.at(bench.end)
    g = game_history(game)
    assert [d.hanged for d in g.days] == list(bench.plan.hanged.values())
    cast = sum(p.votes_cast for p in g.players)
    assert cast == sum(d.counted for d in g.days)
    assert cast == sum(p.at_mafia + p.at_maniac + p.at_town for p in g.players)
    h = history_of_day(game, 1)
    assert h.leader == bench.plan.hanged[1] and len(h.steps) == 30
    pytest.importorskip("matplotlib")
    picture = plot_day(h, tmp_path / "d1.png", MOSCOW)
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_picture(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    h = day_history(day_of("Ann→$x^2$, Bob→_hidden, Cid→$x^2$"))
    path = plot_day(h, tmp_path / "day.png", MOSCOW, "Игра «1»")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert label("$x^2$") == r"\$x^2\$" and label("_hidden") == " _hidden"
    xs, ys = series(h, "$x^2$")
    assert ys == [0, 1, 2, 2] and xs[0] == h.start and xs[-1] == h.deadline


def test_without_matplotlib_the_command_says_how_to_get_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(GameError) as e:
        plot_day(day_history(day_of("Ann→Bob")), tmp_path / "d.png")
    assert "pip install -e '.[plot]'" in (e.value.hint or "")


def test_the_cli(tmp_path: Path) -> None:
    base = ["--config", str(DEMO), "--db", str(tmp_path / "g.db"), "--now", "2026-11-24 12:00"]
    out = CliRunner().invoke(app, [*base, "history", "--day", "1", "--format", "text"])
    assert out.exit_code == 0, out.output
    assert out.stdout.startswith("День 1: как шло голосование\n")
    out = CliRunner().invoke(app, [*base, "history", "--game", "--offline"])
    assert "[b]Игроки[/b]" in out.stdout
    if "matplotlib" in sys.modules or _has_matplotlib():
        picture = tmp_path / "day2.png"
        out = CliRunner().invoke(app, [*base, "history", "--day", "2", "--plot", str(picture),
                                       "--offline"])
        assert out.exit_code == 0, out.output
        assert picture.exists() and f"Рисунок: {picture}" in out.stderr


def _has_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True
