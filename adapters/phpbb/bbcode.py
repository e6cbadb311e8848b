"""A message's BBCode, as phpBB's folder export gives it, → the HTML its view would show.

The export (``ucp_pm_viewfolder.php``, ``export_option=XML``) carries each PM's text the way
the author typed it (``decode_message``: the stored text unparsed back into BBCode). The
kernel's body contract (:class:`referee.core.kernel.Post`) is normalised HTML, so the text is
rendered the way prosilver renders it: quotes as ``<blockquote>`` with their author in a
``<cite>``, code boxes as ``div.codebox``, colour as ``style="color: …"``, line breaks as
``<br>``. :func:`referee.core.markup.plain_text` of the result is then what it is of the view.

Only what phpBB 3.3 ships is rendered (``[b] [i] [u] [color] [size] [quote] [code] [url]
[email] [img] [list] [*]``, plus ``[s]``, ``[spoiler]`` and ``[center]`` that Russian boards
add). Any other bracket stays text, as phpBB shows a tag it does not know; a tag left open
is closed at the end of the message, as phpBB's text formatter does.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

_TAG = re.compile(r"\[(/?)([a-z*]+)(?:=([^\]\n]*?))?((?:\s+[a-z_]+=[^\]\n]*?)*)\]", re.I)
_SAFE_URL = re.compile(r"^(?:https?|ftp)://|^\./|^/|^mailto:", re.I)
_COLOUR = re.compile(r"^(?:#[0-9a-f]{3}(?:[0-9a-f]{3})?|[a-z]+)$", re.I)
_LIST_STYLES = {"1": "decimal", "a": "lower-alpha", "A": "upper-alpha", "i": "lower-roman",
                "I": "upper-roman", "disc": "disc", "circle": "circle", "square": "square"}

QUOTE_BY = "писал(а):"
"""The Russian pack's ``QUOTED_BY`` after the author's name («Ник писал(а):»)."""

_SIMPLE = {
    "b": ('<strong class="text-strong">', "</strong>"),
    "i": ('<em class="text-italics">', "</em>"),
    "u": ('<span style="text-decoration:underline">', "</span>"),
    "s": ('<span style="text-decoration:line-through">', "</span>"),
    "center": ('<div style="text-align:center">', "</div>"),
    "spoiler": ('<div class="spoiler"><div class="spoiler-body">', "</div></div>"),
}
_BLOCKS = frozenset({"quote", "code", "list", "*", "center", "spoiler"})
_KNOWN = frozenset({*_SIMPLE, "color", "size", "quote", "code", "url", "email", "img",
                    "list", "*"})


@dataclass
class _Open:
    tag: str
    close: str
    parts: list[str] = field(default_factory=list)


def bbcode_to_html(text: str) -> str:
    """phpBB BBCode → the HTML prosilver shows for it (see the module's notes)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    stack: list[_Open] = [_Open("", "")]
    pos = 0
    after = 0  # line breaks after the tag before that only set it on its own line
    for m in _TAG.finditer(text):
        if m.start() < pos:
            continue
        closing, tag, arg, attrs = m.group(1), m.group(2).lower(), m.group(3), m.group(4)
        in_code = stack[-1].tag == "code" and not (closing and tag == "code")
        block = tag in _BLOCKS and not in_code
        before = (1 if closing else 2) if block else 0
        stack[-1].parts.append(_text(text[pos:m.start()], stack, after, before))
        pos = m.end()
        after = (2 if closing else 1) if block else 0
        if in_code:
            stack[-1].parts.append(html.escape(m.group(0), quote=False))
        elif closing:
            _close(stack, tag, m.group(0))
        elif tag in ("url", "email", "img") and (tag == "img" or not arg):
            # The address is the content itself: nothing inside is BBCode.
            end = text.lower().find(f"[/{tag}]", pos)
            if end < 0:
                stack[-1].parts.append(html.escape(m.group(0), quote=False))
                continue
            stack[-1].parts.append(_link(tag, text[pos:end]))
            pos = end + len(tag) + 3
        elif tag in _KNOWN:
            _open(stack, tag, arg, attrs or "", m.group(0))
        else:
            stack[-1].parts.append(html.escape(m.group(0), quote=False))
    stack[-1].parts.append(_text(text[pos:], stack, after, 0))
    while len(stack) > 1:
        _close(stack, stack[-1].tag, "")
    return "".join(stack[0].parts)


def _text(chunk: str, stack: list[_Open], lead: int, trail: int) -> str:
    """Text between tags. Line breaks that only set a block tag (a quote, a list and its
    items, a code box) on its own line are no ``<br>``: up to two outside the tag and one
    inside, as phpBB's text formatter ignores the whitespace around block tags."""
    if not chunk:
        return ""
    escaped = html.escape(chunk, quote=False)
    if stack[-1].tag == "code":
        return escaped
    head = tail = ""
    while lead and escaped.startswith("\n"):
        head, escaped, lead = head + "\n", escaped[1:], lead - 1
    while trail and escaped.endswith("\n"):
        tail, escaped, trail = tail + "\n", escaped[:-1], trail - 1
    return head + escaped.replace("\n", "<br>\n") + tail


def _open(stack: list[_Open], tag: str, arg: str | None, attrs: str, raw: str) -> None:
    if tag == "*":
        if stack[-1].tag == "*":
            _close(stack, "*", "")
        stack.append(_Open("*", "</li>", ["<li>"]))
        return
    start, end = _start_tag(tag, arg, attrs)
    if start is None:
        stack[-1].parts.append(html.escape(raw, quote=False))
        return
    stack.append(_Open(tag, end, [start]))


def _start_tag(tag: str, arg: str | None, attrs: str) -> tuple[str | None, str]:
    value = (arg or "").strip().strip('"')
    if tag in _SIMPLE:
        return _SIMPLE[tag]
    if tag == "color":
        if not _COLOUR.match(value):
            return None, ""
        return f'<span style="color:{value}">', "</span>"
    if tag == "size":
        if not value.isdigit():
            return None, ""
        return f'<span style="font-size:{value}%;line-height:116%">', "</span>"
    if tag == "quote":
        author = _quote_author(arg, attrs)
        if not author:
            return '<blockquote class="uncited"><div>', "</div></blockquote>"
        return (f"<blockquote><div><cite>{html.escape(author, quote=False)} {QUOTE_BY}"
                "</cite>", "</div></blockquote>")
    if tag == "code":
        return '<div class="codebox"><pre><code>', "</code></pre></div>"
    if tag == "list":
        if not value:
            return "<ul>", "</ul>"
        style = _LIST_STYLES.get(value, "decimal")
        return f'<ol style="list-style-type:{style}">', "</ol>"
    if tag in ("url", "email"):
        href = value if tag == "url" else f"mailto:{value}"
        if tag == "url" and not _SAFE_URL.match(href):
            href = "http://" + href
        return f'<a href="{html.escape(href)}" class="postlink">', "</a>"
    return None, ""


def _quote_author(arg: str | None, attrs: str) -> str:
    """``[quote="Ник" post_id=1 time=2 user_id=3]`` (3.2+) or ``[quote="Ник"]`` → «Ник»."""
    value = (arg or "").strip()
    if value.startswith('"'):
        value = value[1:]
        value = value[: value.rfind('"')] if '"' in value else value
    elif attrs:
        value = value.split()[0] if value else ""
    return html.unescape(value).strip()


def _close(stack: list[_Open], tag: str, raw: str) -> None:
    """Close ``tag`` and anything opened inside it; a closing tag that matches nothing
    open stays text."""
    names = [o.tag for o in stack[1:]]
    if tag not in names:
        stack[-1].parts.append(html.escape(raw, quote=False))
        return
    while True:
        top = stack.pop()
        body = "".join(top.parts)
        # An item's own line break stays after it: «<li>one</li>\n<li>two</li>».
        tail = "\n" if top.tag == "*" and body.endswith("\n") else ""
        stack[-1].parts.append(body.removesuffix(tail) + top.close + tail)
        if top.tag == tag:
            return


def _link(tag: str, inner: str) -> str:
    target = inner.strip()
    if tag == "img":
        if not _SAFE_URL.match(target):
            return html.escape(f"[img]{inner}[/img]", quote=False)
        return f'<img src="{html.escape(target)}" class="postimage" alt="Изображение">'
    href = f"mailto:{target}" if tag == "email" else target
    if tag == "url" and not _SAFE_URL.match(href):
        href = "http://" + href
    return f'<a href="{html.escape(href)}" class="postlink">{html.escape(inner, quote=False)}</a>'


__all__ = ["QUOTE_BY", "bbcode_to_html"]
