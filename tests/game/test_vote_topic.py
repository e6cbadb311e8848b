"""``[forum] vote_url``: a separate voting topic. Votes are read from it only; a red vote
posted in the discussion topic does not count (V1: a vote is a post in the voting topic)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from referee.core.kernel import Post, TopicPage
from referee.core.markup import plain_text
from referee.game import Game
from referee.rules.night import TOWN_WINS

CONFIG = """
[game]
host = "Host"
[forum]
url = "https://forum.example/viewtopic.php?t=10"
vote_url = "https://forum.example/viewtopic.php?t=11"
timezone = "UTC"
[[schedule.days]]
day = 1
start = "2026-11-20 10:00"
deadline = "2026-11-21 10:00"
[players]
"Ann" = "citizen"
"Bob" = "citizen"
"Cid" = { role = "mafia", clan = "A" }
"""

REASON = "он весь день уходил от ответов и путал показания"


def vote(post_id: int, author: str, target: str, topic: int, hour: int) -> Post:
    html = f'{REASON}<br>Мой голос – <span style="color:red">{target}</span>'
    return Post(post_id, author, post_id, datetime(2026, 11, 20, hour, tzinfo=UTC), html,
                plain_text(html), page=1, topic_id=topic)


def test_votes_come_from_the_voting_topic_only(tmp_path: Path) -> None:
    cfg = tmp_path / "referee.toml"
    cfg.write_text(CONFIG, encoding="utf-8")
    game = Game.open(cfg, tmp_path / "g.db", clock=lambda: datetime(2026, 11, 22, tzinfo=UTC))
    discussion = TopicPage(10, "Игра", 1, 1, 20, (vote(1, "Ann", "Cid", 10, 11),))
    voting = TopicPage(11, "Голосование", 1, 1, 20, (vote(2, "Bob", "Cid", 11, 12),
                                                      vote(3, "Cid", "Bob", 11, 13)))
    game.store.save_topic_page(discussion)
    game.store.save_topic_page(voting)
    t = game.tally_day(1).tally
    assert {c.target: [v.voter for v in c.voters] for c in t.counts} == {
        "Cid": ["Bob"], "Bob": ["Cid"],
    }
    # Tie 1:1 — Cid reached 1 first (12:00), so Cid is hanged (V6 first_to_reach).
    assert t.hanged == "Cid"
    assert "Ann" in t.not_voted


def test_the_tally_says_when_the_hanging_ends_the_game(tmp_path: Path) -> None:
    # W2: Cid is the clan's only member; hanging him leaves only town: town wins.
    cfg = tmp_path / "referee.toml"
    cfg.write_text(CONFIG.replace('vote_url = "https://forum.example/viewtopic.php?t=11"\n',
                                  ""), encoding="utf-8")
    game = Game.open(cfg, tmp_path / "g.db", clock=lambda: datetime(2026, 11, 22, tzinfo=UTC))
    game.store.save_topic_page(TopicPage(10, "Игра", 1, 1, 20, (
        vote(1, "Ann", "Cid", 10, 11), vote(2, "Bob", "Cid", 10, 12))))
    result = game.tally_day(1)
    assert result.tally.hanged == "Cid" and result.winner == TOWN_WINS
    from referee.render.context import Context
    from referee.render.day import day_paste

    assert "Игра окончена: победа — мирные жители." in day_paste(result, Context.of(game.config))
