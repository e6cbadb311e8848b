"""Vote colours as a profile (issue 12, docs/rules.md V1): ``[rules] vote_colours`` takes colour
families — each a hue with the tolerance and saturation settings red has — and explicit CSS
colours. Boards vote in green (dota2.ru) or «красным или синим» (gipermafia); the default
stays red, exactly as before."""

from __future__ import annotations

import pytest
from votes_scenario import post, roster

from referee.config.game import VoteRules
from referee.rules.day.colour import is_red
from referee.rules.day.reading import find_vote

GREEN = VoteRules(vote_colours=("green",))
RED_OR_BLUE = VoteRules(vote_colours=("red", "blue"))
EXPLICIT = VoteRules(vote_colours=("#cc6600",))

# colour as typed      profile          a vote colour?
CASES = [
    ("red",              VoteRules(),     True),
    ("#ff0000",          VoteRules(),     True),
    ("green",            VoteRules(),     False),   # the default stays red only
    ("#00aa00",          VoteRules(),     False),
    ("green",            GREEN,           True),
    ("darkgreen",        GREEN,           True),
    ("lime",             GREEN,           True),
    ("#008000",          GREEN,           True),
    ("#33cc33",          GREEN,           True),    # hue 120°, saturation 0.75
    ("rgb(0, 150, 0)",   GREEN,           True),
    ("#80ff00",          GREEN,           False),   # hue 90°: beyond 20° of green
    ("#99cc99",          GREEN,           False),   # too pale (saturation 0.25)
    ("red",              GREEN,           False),
    ("olive",            GREEN,           False),   # a name counts only when listed
    ("blue",             RED_OR_BLUE,     True),
    ("navy",             RED_OR_BLUE,     True),
    ("#0000ff",          RED_OR_BLUE,     True),
    ("crimson",          RED_OR_BLUE,     True),
    ("#1e90ff",          RED_OR_BLUE,     False),   # dodger blue: hue 210°
    ("green",            RED_OR_BLUE,     False),
    ("#cc6600",          EXPLICIT,        True),
    ("#CC6600",          EXPLICIT,        True),
    ("rgb(204, 102, 0)", EXPLICIT,        True),
    ("#cc6601",          EXPLICIT,        False),   # an explicit colour is itself only
    ("orange",           EXPLICIT,        False),
    ("transparent",      GREEN,           False),
]


@pytest.mark.parametrize(("value", "rules", "counts"), CASES)
def test_a_colour_is_a_vote_colour_of_its_profile(value: str, rules: VoteRules,
                                                  counts: bool) -> None:
    assert is_red(value, rules) is counts


def test_the_hue_tolerance_applies_to_every_family() -> None:
    wide = VoteRules(vote_colours=("green",), red_hue_tolerance=35)
    assert is_red("#80ff00", wide)  # hue 90°, within 35° of green


def test_the_red_family_keeps_its_names_setting() -> None:
    rules = VoteRules(vote_colours=("red", "green"), red_colours=("red", "maroon"))
    assert is_red("maroon", rules) and is_red("green", rules) and not is_red("crimson", rules)


R = "Молчит весь день и уходит от вопросов."


def test_a_green_vote_is_read_on_a_green_board() -> None:
    bb = f"{R}\nМой голос – [color=green]Лиса[/color]"
    p = post(1, "Гроза", "21.11 12:00", bb)
    assert find_vote(p, roster()).match_kind == "no_red"  # red board: not a vote
    assert find_vote(p, roster(), GREEN).target == "Лиса"
