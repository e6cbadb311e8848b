"""The colour words a vote profile may use: every CSS colour name, and the colour families a
board votes in (``[rules] vote_colours``: red on most boards, green on dota2.ru, «красным
или синим» on gipermafia).

A family is a hue and the CSS names that belong to it. The config checks a host's
``vote_colours`` against these words; :mod:`referee.rules.day.colour` decides with them whether a
post's colour is a vote colour (docs/rules.md V1).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

# Every CSS named colour (CSS Color 4): a keyword outside this set is invalid and a browser
# ignores the declaration.
CSS_COLOUR_NAMES = frozenset("""
aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue
blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson
cyan darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta
darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen darkslateblue darkslategray
darkslategrey darkturquoise darkviolet deeppink deepskyblue dimgray dimgrey dodgerblue firebrick
floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey
honeydew hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon
lightblue lightcoral lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey lightpink
lightsalmon lightseagreen lightskyblue lightslategray lightslategrey lightsteelblue lightyellow
lime limegreen linen magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple
mediumseagreen mediumslateblue mediumspringgreen mediumturquoise mediumvioletred midnightblue
mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid
palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum
powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen
seashell sienna silver skyblue slateblue slategray slategrey snow springgreen steelblue tan teal
thistle tomato turquoise violet wheat white whitesmoke yellow yellowgreen transparent
""".split())


@dataclass(frozen=True, slots=True)
class ColourFamily:
    """One family of ``vote_colours``: a hex/rgb/hsl colour belongs to it when its hue is
    within ``red_hue_tolerance`` of ``hue`` and its saturation is at least
    ``red_min_saturation``; a colour *name* belongs only when listed in ``names`` (a name
    never decides by hue: ``brown`` is hue-red, and nobody calls it red)."""

    id: str
    name_ru: str
    hue: float
    names: tuple[str, ...]


_FAMILIES = (
    # The red family's names are the ``red_colours`` setting (this tuple is its default).
    ColourFamily("red", "красный", 0.0, ("red", "darkred", "crimson", "firebrick")),
    ColourFamily("orange", "оранжевый", 30.0, ("orange", "darkorange", "orangered")),
    ColourFamily("yellow", "жёлтый", 60.0, ("yellow", "gold")),
    ColourFamily("green", "зелёный", 120.0, (
        "green", "darkgreen", "lime", "limegreen", "forestgreen", "seagreen", "lawngreen",
        "mediumseagreen", "springgreen")),
    ColourFamily("cyan", "голубой", 180.0, ("cyan", "aqua", "darkcyan", "darkturquoise",
                                            "deepskyblue")),
    ColourFamily("blue", "синий", 240.0, ("blue", "darkblue", "mediumblue", "navy",
                                          "royalblue", "midnightblue")),
    ColourFamily("purple", "фиолетовый", 285.0, ("purple", "darkviolet", "darkmagenta",
                                                 "blueviolet", "indigo", "rebeccapurple")),
    ColourFamily("pink", "розовый", 330.0, ("deeppink", "hotpink", "magenta", "fuchsia",
                                            "mediumvioletred")),
)

COLOUR_FAMILIES: Mapping[str, ColourFamily] = MappingProxyType({f.id: f for f in _FAMILIES})
"""Family id → :class:`ColourFamily`, the words ``[rules] vote_colours`` accepts besides
explicit CSS colours."""
