"""Issue 27, item 1 (V5): ``watch`` plays with the roster ``referee deal`` recorded, as every
command does. A watch that built the game from ``[players]`` alone (nicks without roles)
could not resolve the night, kept the player the mafia shot alive, and told «голос засчитан»
for a vote for him, while ``tally`` rejected it (V5).

The scripted game of ``support/phpbb/game_board.py`` with roles left out of ``[players]`` and dealt
instead, and without the doctor's heal: night 1 kills Шерлок; on day 2 Kotik votes for him
(not counted, V5) and Шерлок votes himself (a dead voter, V5).
"""

from __future__ import annotations

import re
from pathlib import Path

from support.clock import FakeClock
from support.moscow import msk
from support.phpbb.game_board import GameBoard, script, write_config
from watch_helpers import watch

from referee.config.game import load_config
from referee.game import Game
from referee.rules import decisions
from referee.rules.decisions import Deal
from referee.store import Store


def dealt_game(board: GameBoard, folder: Path) -> tuple[Path, Path]:
    """The board's game without the heal; ``[players]`` without roles, the roles dealt."""
    board.lines = [line for line in script() if line.author != "Мисс Марпл" or not line.pm]
    config = write_config(folder, board)
    roles = load_config(config).players
    text = config.read_text(encoding="utf-8")
    head, _, block = text.partition("[players]\n")
    config.write_text(head + "[players]\n" + re.sub(r'^("[^"]+") = .*$', r'\1 = ""', block,
                                                    flags=re.M), encoding="utf-8")
    db = folder / "game.db"
    with Store.open(db) as store:
        decisions.record(store, Deal(7, tuple(roles), "referee deal"))
    return config, db


def test_watch_does_not_count_a_vote_for_the_player_the_night_killed(
    board: GameBoard, clock: FakeClock, tmp_path: Path,
) -> None:
    config, db = dealt_game(board, tmp_path)
    until = msk("2026-11-21 16:00")
    _, seen = watch(config, db, clock, until=until, every=30)
    told = "\n".join(seen.lines)
    assert "голос засчитан: Kotik → Шерлок" not in told
    assert any("Kotik → Шерлок" in line and "V5" in line for line in seen.having("не засчитан"))
    # The watch's count is the day's count (tally), at the same moment.
    game = Game.open(config, db, clock=lambda: until)
    try:
        t = game.tally_day(2, as_of=until, record=False).tally
        assert "Шерлок" not in t.alive
    finally:
        game.close()
    status = seen.statuses[-1]
    assert t.counts and all(f"{c.target} — {len(c.voters)}" in status for c in t.counts), \
        status
    assert "Шерлок" not in status.split("не голосовали", 1)[-1]
