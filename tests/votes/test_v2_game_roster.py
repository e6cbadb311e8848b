"""V2 — the game's vote roster reads a nick in another case (flagged); the host's own word
(a command's --player / --target) and a forum username are never read that way."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.core.errors import RequestRefused
from referee.game import Game

DEMO = Path(__file__).resolve().parents[2] / "fixtures/demo/referee.toml"


def test_v2_the_vote_roster_reads_case_forms(tmp_path: Path) -> None:
    game = Game.open(DEMO, tmp_path / "game.db")
    try:
        roster = game.roster()
        assert roster.case_forms
        m = roster.match("за Шерлока")
        assert (m.nick, m.how, m.lead, m.flagged) == ("Шерлок", "case", "за", True)
        with pytest.raises(RequestRefused):
            game.known_player("Шерлоку", "--player")
        assert game.known_player("шерлок", "--player") == "Шерлок"
    finally:
        game.close()
