"""Writing BBCode that is safe to paste into the forum.

Anything a player typed (nicks, quoted text, reasons) goes through :func:`escape` before it
is put into a summary, so a nick such as ``[/color][url=http://x]`` cannot close our tags or
inject its own. phpBB has no escape syntax for ``[``; a zero-width space after every ``[``
keeps the text looking the same while no BBCode tag can start there.
"""

from __future__ import annotations

ZWSP = "\u200b"


def escape(text: str) -> str:
    """User text → BBCode-inert text (looks identical on the forum)."""
    return text.replace("[", "[" + ZWSP)


def b(text: str) -> str:
    return f"[b]{text}[/b]"


def colour(text: str, value: str = "red") -> str:
    return f"[color={value}]{text}[/color]"


def url(href: str, text: str) -> str:
    # The href is ours (built from the forum URL and a post id), never a player's text.
    return f"[url={href}]{text}[/url]"


def spoiler(text: str, title: str = "") -> str:
    return f"[spoiler={escape(title)}]{text}[/spoiler]" if title else f"[spoiler]{text}[/spoiler]"
