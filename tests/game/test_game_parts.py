"""The game is made of parts, not an inheritance chain (issue 28 item 5): each part is a
plain class that receives the parts it uses, and every method the game answers is one of
a part's own."""

from __future__ import annotations

import ast
import inspect
from dataclasses import fields
from pathlib import Path

import pytest

from referee.game import Game, _Asks, _Holds, _Reads
from referee.game.activity import Activity
from referee.game.core import GameCore
from referee.game.days import Days
from referee.game.leaving import Leaving
from referee.game.nights import Nights
from referee.game.reading import Reading
from referee.game.refusals import Refusals
from referee.game.states import States

PARTS: dict[str, type] = {
    "core": GameCore, "reading": Reading, "refusals": Refusals, "states": States,
    "leaving": Leaving, "days": Days, "nights": Nights, "activity": Activity,
}


@pytest.mark.parametrize("part", list(PARTS.values()), ids=list(PARTS))
def test_a_part_inherits_from_no_other_part(part: type) -> None:
    assert part.__bases__ == (object,)


@pytest.mark.parametrize("part", [p for p in PARTS.values() if p is not GameCore],
                         ids=[n for n in PARTS if n != "core"])
def test_a_part_reaches_only_the_parts_it_was_given(part: type) -> None:
    """``self.<part>.…`` in a part's module names a part its constructor receives."""
    given = set(inspect.signature(part.__init__).parameters) - {"self"}
    tree = ast.parse(Path(inspect.getfile(part)).read_text(encoding="utf-8"))
    reached = {node.value.attr for node in ast.walk(tree)
               if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
               and isinstance(node.value.value, ast.Name) and node.value.value.id == "self"
               and node.value.attr in {*PARTS, "phases"}}
    assert reached <= given


def test_every_method_the_game_answers_is_a_parts_own() -> None:
    """Under the part's own name: ``game.tally_day`` is ``game.days.tally_day``."""
    asked = {name: d for name, d in vars(Game).items() if isinstance(d, _Asks | _Reads)}
    assert len(asked) > 30
    for name, d in asked.items():
        assert d.name == name and hasattr(PARTS[d.part], name), f"Game.{name}"
    held = {name: d for name, d in vars(Game).items() if isinstance(d, _Holds)}
    core = {f.name for f in fields(GameCore)}
    assert {d.name for d in held.values()} <= core
