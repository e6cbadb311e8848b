"""The watch's status line fitted to the terminal: never cut in the middle of a word, never
wrapped onto a second line, and fitted again at every redraw, so a window made narrower or
wider (80–120 columns and anything else) gets a line of its own width.

The line is parts joined by « · »: the phase first, the next look (or the stop) last, the
facts between them in the order they matter. What does not fit goes from the right of the
middle — the list of who has not voted before the leader — and only then is the phase
itself shortened with «…»: the host always sees what the game is at and when the watch
looks next.
"""

from __future__ import annotations

from typing import Any

from rich.cells import cell_len

SEP = " · "


def fit(line: str, width: int) -> str:
    """``line`` no wider than ``width`` columns, by the rule of the module doc."""
    if cell_len(line) <= width:
        return line
    parts = line.split(SEP)
    if len(parts) > 2:
        head, middle, last = parts[0], parts[1:-1], parts[-1]
        while middle:
            middle.pop()
            candidate = SEP.join([head, *middle, last])
            if cell_len(candidate) <= width:
                return candidate
        parts = [head, last]
    if len(parts) == 2:
        room = width - len(SEP) - cell_len(parts[1]) - 1
        if room >= 8:
            return parts[0][:room].rstrip() + "…" + SEP + parts[1]
    return SEP.join(parts)[:max(width - 1, 0)].rstrip() + "…"


class FittedLine:
    """A rich renderable: the line fitted to the width of the screen it is drawn on, at
    the moment it is drawn (so a resize is followed by the next redraw)."""

    def __init__(self, line: str, style: str = "bold") -> None:
        self.line = line
        self.style = style

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from rich.text import Text

        yield Text(fit(self.line, options.max_width), style=self.style, no_wrap=True,
                   overflow="crop")
