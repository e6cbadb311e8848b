"""V4–V6 have one implementation (issue 28): ``history``, ``replay`` and ``export`` give the
answer of the day's own count, the one ``tally`` runs.

- Random days (hypothesis): votes and changes of vote by living and dead players, under
  every ``changes`` and ``tie`` setting, written as forum posts and counted by ``tally``;
  ``history`` tells that count vote by vote (after each vote the count as ``tally --as-of``
  that post gives it), and ``replay`` of the same votes hangs whom ``tally`` hangs.
- The demo and a game of the benchmark's kind: every day that is over, as ``history``,
  ``export`` and ``replay`` of the export see it, against ``tally`` of that day.

A second count written anywhere (a copy of the tie rule, of the change rule) fails here on
the first day where it disagrees.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from glance_bench import BenchGame
from glance_demo import at, demo, play_as_host
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.config.game import DaySchedule, NightRules, Player, VoteRules
from referee.core.kernel import Post
from referee.core.nicks import Roster
from referee.game import Game
from referee.host.chronicle import chronicle
from referee.host.export import export_game
from referee.host.history import day_history, history_of_day
from referee.host.replay import replay, tally_votes
from referee.rules.day.count import ReadVote, tally, tally_read
from referee.rules.day.result import Tally
from referee.rules.day.verdict import TIE_RULES
from referee.rules.night import GameState
from referee.rules.timeline import DayPlay, play_day

NICKS = ("Лиса", "Ёжик", "Kotik", "Барон", "Сова", "Zorro")
START = datetime(2026, 11, 20, 9, tzinfo=UTC)
WINDOW = DaySchedule(1, START, START + timedelta(hours=12))
ROSTER = Roster(NICKS)


def pairs(t: Tally) -> tuple[tuple[str, int], ...]:
    return tuple((c.target, c.votes) for c in t.counts)


def posts_of(votes: list[tuple[str, str]]) -> list[Post]:
    """Each vote as a post of the game topic, ten minutes apart, a red nick and a reason."""
    return [Post(200 + k, voter, None, START + timedelta(minutes=10 * (k + 1)),
                 f'Мой голос: <span style="color:red">{target}</span><br>'
                 "Весь день уводит обсуждение в сторону и молчит о главном.", "")
            for k, (voter, target) in enumerate(votes)]


def count(votes: list[tuple[str, str]], alive: tuple[str, ...], rules: VoteRules,
          as_of: int | None = None) -> Tally:
    return tally(posts_of(votes), WINDOW, alive=alive, roster=ROSTER, host="Ведущий",
                 rules=rules, as_of=as_of)


days = st.fixed_dictionaries({
    "votes": st.lists(st.tuples(st.sampled_from(NICKS), st.sampled_from(NICKS)), max_size=14),
    "dead": st.sets(st.sampled_from(NICKS), max_size=2),
    "rules": st.builds(VoteRules, changes=st.sampled_from(["forbidden", "last_counts",
                                                          "limited"]),
                       change_limit=st.integers(1, 2), tie=st.sampled_from(sorted(TIE_RULES)),
                       early_majority=st.booleans()),
})


@settings(max_examples=60, deadline=None, derandomize=True)
@given(day=days)
def test_history_is_the_days_count_vote_by_vote(day: dict) -> None:  # type: ignore[type-arg]
    alive = tuple(n for n in NICKS if n not in day["dead"])
    t = count(day["votes"], alive, day["rules"])
    h = day_history(t)
    assert h.final == pairs(t)
    assert h.leader == (t.counts[0].target if t.counts else None)
    if t.counts:
        assert h.reached is not None
        assert (h.reached.nick, h.reached.at, h.reached.post_id) == (
            t.counts[0].target, t.counts[0].reached_at, t.counts[0].reached_post)
    assert h.steps[-1].counts == pairs(t) if h.steps else not t.counts
    for step in h.steps:
        assert step.counts == pairs(count(day["votes"], alive, day["rules"], step.post_id))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(day=days)
def test_replay_counts_a_day_as_tally_does(day: dict) -> None:  # type: ignore[type-arg]
    state = GameState.new([Player(n, "citizen") for n in NICKS])
    state, _ = play_day(state, DayPlay(1, removals=tuple((n, "A1") for n in day["dead"])),
                        NightRules())
    t = count(day["votes"], state.alive, VoteRules())  # a replay has the default [rules]
    hanged, voters, counted = tally_votes(state, [{"voter": v, "target": x}
                                                  for v, x in day["votes"]])
    assert (hanged, counted) == (t.hanged, pairs(t))
    assert voters == [v.voter for c in t.counts if c.target == t.hanged for v in c.voters]
    read = [ReadVote(p.author, x, p.post_id, p.posted_at)
            for p, (_, x) in zip(posts_of(day["votes"]), day["votes"], strict=True)]
    assert tally_read(read, WINDOW, alive=state.alive, roster=ROSTER).counts == t.counts


def views_agree_with_tally(game: Game) -> int:
    """Every day over: ``history`` and the exported replay give ``tally``'s count and
    hanging. Returns the days compared."""
    story = chronicle(game)
    data, _ = export_game(game)
    played = replay(json.loads(json.dumps(data)), game.config.night)["phases"]
    for entry in story.days:
        t = game.tally_day(entry.day, record=False, _state=entry.before).tally
        h = history_of_day(game, entry.day, story)
        assert (h.final, h.leader, h.hanged) == (
            pairs(t), t.counts[0].target if t.counts else None, t.hanged), entry.day
        assert len(h.steps) == len(t.moves)
        phase = next(p for p in data["phases"] if p.get("day") == entry.day)
        if "votes" in phase:  # the replay counts them: tally's count, from the same votes
            _, _, counted = tally_votes(entry.before, phase["votes"])
            assert counted == pairs(t), entry.day
            assert next(p for p in played if p.get("day") == entry.day)["hanged"] == (
                entry.hanged), entry.day
    return len(story.days)


def test_the_demo_in_every_view_of_the_count(tmp_path: Path) -> None:
    game = demo(tmp_path / "game.db")
    assert views_agree_with_tally(at(game, "2026-11-24 12:00")) == 2  # nothing recorded
    assert views_agree_with_tally(play_as_host(game, "2026-11-24 12:00")) == 2  # recorded


def test_the_benchmark_game_in_every_view_of_the_count(bench: BenchGame) -> None:
    game = bench.at(bench.end)
    try:
        assert views_agree_with_tally(game) == len(bench.plan.days)
    finally:
        game.close()
