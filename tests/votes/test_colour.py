"""docs/rules.md V1, the red test: which colours make a nick «красный».

Names decide by the list ``red_colours`` (default red, darkred, crimson, firebrick); every
hex/rgb/hsl colour by hue (within 20° of red) and saturation (at least 0.5).
"""

from __future__ import annotations

import pytest

from referee.config.game import VoteRules
from referee.rules.day.colour import is_red, parse_declarations, style_colour, style_is_red

# value typed in [color=…]  red?   why
COLOURS = [
    ("red",                True,  "listed name"),
    ("Red",                True,  "names are case-insensitive"),
    ("darkred",            True,  "listed name"),
    ("crimson",            True,  "listed name"),
    ("firebrick",          True,  "listed name"),
    ("brown",              False, "hue is red, but the name is not listed"),
    ("maroon",             False, "not listed by default"),
    ("orangered",          False, "not listed"),
    ("blue",               False, "not red"),
    ("#FF0000",            True,  "editor palette red"),
    ("#ff0000",            True,  "lower case hex"),
    ("#f00",               True,  "short hex"),
    ("#BF0000",            True,  "palette dark red"),
    ("#400000",            True,  "very dark, but hue 0 and saturation 1"),
    ("#A52A2A",            True,  "brown typed as hex: hue decides"),
    ("#DC143C",            True,  "crimson as hex, hue 348°"),
    ("#e74c3c",            True,  "IPS editor red, hue 6°"),
    ("#FF4500",            True,  "orangered as hex: hue 16°, within 20°"),
    ("#FF6600",            False, "orange: hue 24°"),
    ("#FF8080",            False, "pink: saturation just under 0.5"),
    ("#800040",            False, "hue 330°: 30° from red"),
    ("#000000",            False, "black has no hue"),
    ("#ff000080",          True,  "half transparent red is still red"),
    ("#ff000000",          False, "fully transparent"),
    ("rgb(255, 0, 0)",     True,  "rgb()"),
    ("rgb(184 49 47)",     True,  "space syntax, hue 1°"),
    ("rgba(255,0,0,0.3)",  True,  "rgba"),
    ("rgb(100%, 0%, 0%)",  True,  "percentages"),
    ("hsl(0, 100%, 50%)",  True,  "hsl red"),
    ("hsl(350deg 80% 40%)",True,  "hsl 10° off red"),
    ("hsl(120, 100%, 50%)",False, "hsl green"),
    ("#FF00000",           False, "not a colour (7 digits)"),
    ("redd",               False, "not a colour name"),
]


@pytest.mark.parametrize(("value", "red", "why"), COLOURS, ids=[c[0] for c in COLOURS])
def test_v1_red_colours(value: str, red: bool, why: str) -> None:
    assert is_red(value) is red, why


def test_v1_red_colours_setting_lists_names_and_hex() -> None:
    rules = VoteRules(red_colours=("red", "maroon", "brown"))
    assert is_red("maroon", rules) and is_red("brown", rules)
    assert not is_red("crimson", rules)  # no longer listed
    strict = VoteRules(red_hue_tolerance=5, red_min_saturation=0.9)
    assert is_red("#FF0000", strict)
    assert not is_red("#e74c3c", strict)  # hue 6°, saturation 0.74


# style attribute                                          colour a browser uses
STYLES = [
    ('color:red',                                          "red"),
    ('color: #FF0000',                                     "#FF0000"),
    ('  COLOR :  #F00 ; ',                                 "#F00"),
    ('color: red !important; color: blue',                 "red"),
    ('color: blue; color: #c0392b;',                       "#c0392b"),
    ('font-weight: bold',                                  None),
    ('background-color: red',                              None),
    ('color: rgb(255, 0, 0); font-family: "a;b"',          "rgb(255, 0, 0)"),
    ('/* x */ color: /* y */ crimson',                     "crimson"),
    ('color: redd; ',                                      None),
]


@pytest.mark.parametrize(("style", "colour"), STYLES, ids=[s[0] for s in STYLES])
def test_v1_style_attribute_is_css(style: str, colour: str | None) -> None:
    assert style_colour(style) == colour


def test_v1_style_declarations_and_inheritance() -> None:
    decls = parse_declarations("color:red!IMPORTANT;font-weight: bold;broken;x:")
    assert [(d.prop, d.value, d.important) for d in decls] == [
        ("color", "red", True), ("font-weight", "bold", False)]
    assert style_is_red("color: inherit") is None       # the parent's colour goes on
    assert style_is_red("font-weight: bold") is None
    assert style_is_red("color: initial") is False
    assert style_is_red("color: green") is False
