"""Is this text red? CSS ``style`` attributes → colours → the red test of docs/rules.md V1.

Forums keep the colour exactly as the player typed it (research/phpbb.md §2): phpBB 3.3
writes ``style="color:red"`` or ``color:#ff0000``, legacy posts ``style="color: #FF0000"``,
other engines ``rgb(…)`` or ``#c0392b;``. So the ``style`` attribute is parsed as CSS
declarations and the colour as a CSS colour value; nothing here matches strings of markup.

Red (V1, setting ``red_colours``): a colour *name* is red only if it is in the list (the
list wins over hue: ``brown`` is hue-red but nobody calls it red); any hex/rgb/hsl colour is
red if its hue is within ``red_hue_tolerance`` degrees of 0° and its HSV saturation is at
least ``red_min_saturation``. A fully transparent colour is not red.

Other boards vote in other colours: ``vote_colours`` lists colour families (red, green,
blue, … — :mod:`referee.core.css_colours`; each a hue with the same tolerance and saturation)
and explicit CSS colours; the default is ``["red"]``, the test above.
"""

from __future__ import annotations

import colorsys
import math
import re
from dataclasses import dataclass

from referee.config.game import VoteRules
from referee.core.css_colours import COLOUR_FAMILIES, CSS_COLOUR_NAMES


@dataclass(frozen=True, slots=True)
class Colour:
    """An sRGB colour, channels 0..1. ``name`` is set when it was written as a keyword."""

    r: float
    g: float
    b: float
    alpha: float = 1.0
    name: str | None = None

    @property
    def hsv(self) -> tuple[float, float, float]:
        """(hue in degrees 0..360, saturation 0..1, value 0..1)."""
        h, s, v = colorsys.rgb_to_hsv(self.r, self.g, self.b)
        return h * 360.0, s, v


# ----------------------------------------------------------------------------- CSS

_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_IMPORTANT = re.compile(r"!\s*important\s*$", re.I)


@dataclass(frozen=True, slots=True)
class Declaration:
    prop: str
    value: str
    important: bool = False


def parse_declarations(style: str) -> list[Declaration]:
    """Split a ``style`` attribute into declarations (CSS Syntax, simplified).

    Semicolons inside parentheses or quotes do not split; comments are dropped; property
    names are case-insensitive; a declaration without a colon or value is skipped, as a
    browser skips it.
    """
    text = _COMMENT.sub(" ", style or "")
    parts: list[str] = []
    depth = 0
    quote = ""
    start = 0
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(0, depth - 1)
        elif ch == ";" and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    out: list[Declaration] = []
    for part in parts:
        prop, sep, value = part.partition(":")
        prop = prop.strip().lower()
        value = value.strip()
        if not sep or not prop or not value:
            continue
        important = bool(_IMPORTANT.search(value))
        if important:
            value = _IMPORTANT.sub("", value).strip()
            if not value:
                continue
        out.append(Declaration(prop, value, important))
    return out


def style_colour(style: str) -> str | None:
    """The value of the ``color`` property a browser would use, or None if none is set.

    Cascade inside one attribute: the last declaration wins, an ``!important`` one wins
    over any normal one. A value that is not a colour is ignored, as a browser ignores it.
    """
    chosen: Declaration | None = None
    for d in parse_declarations(style):
        if d.prop != "color":
            continue
        if _KEYWORD_VALUES.get(d.value.lower()) is None and parse_colour(d.value) is None:
            continue
        if chosen is None or d.important or not chosen.important:
            chosen = d
    return chosen.value if chosen else None


# Values that are valid for ``color`` but are not a colour of their own.
_KEYWORD_VALUES = {"inherit": "inherit", "currentcolor": "inherit", "unset": "inherit",
                   "initial": "initial", "revert": "initial", "revert-layer": "initial"}


# ----------------------------------------------------------------------------- colours

# A name outside CSS_COLOUR_NAMES is invalid and a browser ignores the declaration.
# Names decide by the list in the rules, not by hue.
_CSS_NAMES = CSS_COLOUR_NAMES

# RGB of the red-ish names, so a hex in ``red_colours`` and a listed name can be compared.
_NAMED_RGB: dict[str, tuple[int, int, int]] = {
    "red": (255, 0, 0), "darkred": (139, 0, 0), "crimson": (220, 20, 60),
    "firebrick": (178, 34, 34), "maroon": (128, 0, 0), "indianred": (205, 92, 92),
    "brown": (165, 42, 42), "tomato": (255, 99, 71), "orangered": (255, 69, 0),
    "salmon": (250, 128, 114), "lightcoral": (240, 128, 128), "deeppink": (255, 20, 147),
    "black": (0, 0, 0), "white": (255, 255, 255),
}

_NUM = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?"
_FUNC = re.compile(r"^(rgba?|hsla?)\(\s*(.*?)\s*\)$", re.I | re.S)
_HEX = re.compile(r"^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$", re.I)
_NAME = re.compile(r"^[a-z]+$", re.I)
_ARG = re.compile(rf"^({_NUM})(%|deg|rad|grad|turn)?$", re.I)


def parse_colour(value: str) -> Colour | None:
    """A CSS colour value → :class:`Colour`; None if it is not one we understand.

    Accepts keywords (any case), ``#rgb``, ``#rgba``, ``#rrggbb``, ``#rrggbbaa``,
    ``rgb()``/``rgba()`` with commas or spaces (``/ alpha``), numbers or percentages, and
    ``hsl()``/``hsla()`` with deg/rad/grad/turn hues.
    """
    v = value.strip()
    if not v:
        return None
    if m := _HEX.match(v):
        return _from_hex(m.group(1))
    if m := _FUNC.match(v):
        return _from_function(m.group(1).lower(), m.group(2))
    if _NAME.match(v):
        name = v.lower()
        if name == "transparent":
            return Colour(0, 0, 0, 0.0, name)
        if name not in _CSS_NAMES:
            return None
        rgb = _NAMED_RGB.get(name)
        if rgb is None:
            # A valid name without a table entry: only the name list decides about it.
            return Colour(math.nan, math.nan, math.nan, 1.0, name)
        return Colour(rgb[0] / 255, rgb[1] / 255, rgb[2] / 255, 1.0, name)
    return None


def _from_hex(digits: str) -> Colour:
    if len(digits) in (3, 4):
        digits = "".join(c * 2 for c in digits)
    channels = [int(digits[i:i + 2], 16) / 255 for i in range(0, len(digits), 2)]
    alpha = channels[3] if len(channels) == 4 else 1.0
    return Colour(channels[0], channels[1], channels[2], alpha)


def _from_function(func: str, body: str) -> Colour | None:
    alpha_part: str | None = None
    if "/" in body:
        body, alpha_part = (s.strip() for s in body.split("/", 1))
    args = [a for a in re.split(r"\s*,\s*|\s+", body.strip()) if a]
    if alpha_part is None and len(args) == 4:
        alpha_part = args.pop()
    if len(args) != 3:
        return None
    parsed = [_ARG.match(a) for a in args]
    if not all(parsed):
        return None
    nums = [(float(m.group(1)), (m.group(2) or "").lower()) for m in parsed if m]
    alpha = 1.0
    if alpha_part is not None:
        am = _ARG.match(alpha_part)
        if not am:
            return None
        alpha = float(am.group(1)) / (100 if am.group(2) == "%" else 1)
    alpha = _clamp(alpha)
    if func.startswith("rgb"):
        chans = [_clamp(n / 100 if unit == "%" else n / 255) for n, unit in nums]
        if any(unit not in ("", "%") for _, unit in nums):
            return None
        return Colour(chans[0], chans[1], chans[2], alpha)
    (h, hunit), (s, sunit), (light, lunit) = nums
    turns = {"": 1 / 360, "deg": 1 / 360, "rad": 1 / (2 * math.pi), "grad": 1 / 400,
             "turn": 1.0}.get(hunit)
    if turns is None:
        return None
    sat = _clamp(s / 100 if sunit == "%" else s / 100)
    lig = _clamp(light / 100 if lunit == "%" else light / 100)
    r, g, b = colorsys.hls_to_rgb((h * turns) % 1.0, lig, sat)
    return Colour(r, g, b, alpha)


def _clamp(x: float) -> float:
    return min(1.0, max(0.0, x))


# ----------------------------------------------------------------------------- red test

def is_red(value: str, rules: VoteRules | None = None) -> bool:
    """docs/rules.md V1: is this CSS colour value a colour the vote profile accepts
    (``vote_colours``, red by default; the name keeps the rules' word for it)?

    For a family (red, green, blue, …) a keyword counts only if listed (for red:
    ``rules.red_colours``); a hex/rgb/hsl colour counts if it equals a listed colour or its
    hue is within ``red_hue_tolerance`` of the family's hue with saturation at least
    ``red_min_saturation``. An explicit CSS colour in ``vote_colours`` counts as itself.
    """
    rules = rules or VoteRules()
    colour = parse_colour(value)
    if colour is None or colour.alpha <= 0:
        return False
    return any(_in_profile(colour, entry.strip().lower(), rules)
               for entry in rules.vote_colours)


def _in_profile(colour: Colour, entry: str, rules: VoteRules) -> bool:
    family = COLOUR_FAMILIES.get(entry)
    if family is None:  # an explicit CSS colour: the same name, or the same sRGB value
        other = parse_colour(entry)
        if other is None:
            return False
        if colour.name is not None and other.name is not None:
            return colour.name == other.name
        return _same_rgb(colour, other)
    listed = ({c.strip().lower() for c in rules.red_colours} if family.id == "red"
              else set(family.names))
    if colour.name is not None:
        return colour.name in listed
    for item in listed:
        other = parse_colour(item)
        if other is not None and _same_rgb(colour, other):
            return True
    hue, sat, _ = colour.hsv
    off = abs((hue - family.hue + 180.0) % 360.0 - 180.0)
    return off <= rules.red_hue_tolerance and sat >= rules.red_min_saturation


def _same_rgb(a: Colour, b: Colour) -> bool:
    return all(abs(x - y) < 0.5 / 255 for x, y in ((a.r, b.r), (a.g, b.g), (a.b, b.b)))


def style_is_red(style: str, rules: VoteRules | None = None) -> bool | None:
    """What a ``style`` attribute does to the text colour: True (red), False (some other
    colour, which also ends an inherited red), None (sets no colour, or ``inherit``:
    the parent's colour goes on)."""
    value = style_colour(style)
    if value is None:
        return None
    keyword = _KEYWORD_VALUES.get(value.lower())
    if keyword == "inherit":
        return None
    if keyword == "initial":
        return False
    return is_red(value, rules)
