"""vBulletin thread addresses: which of vBulletin's URL forms a topic link has (vB 3/4
``showthread.php``, vB 4 friendly URLs, ``threads/``, vB 5, vBSEO; never XenForo's
``threads/title.N/``), the thread number in it, and any page's address in the same form,
so a board that enforces its canonical form answers without a redirect. Every form and its
source: README.md, «Addresses»."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal
from urllib.parse import SplitResult, parse_qs, urlsplit, urlunsplit

from adapters.address import board_root, no_topic, one_post, query_number, web_address

Form = Literal["query", "query_slug", "path", "threads", "vb5", "vbseo"]

_NODE = re.compile(r"^(\d+)(?:-([^/]*))?$")
_PAGE = re.compile(r"^page(\d+)$")
_QUERY_SLUG = re.compile(r"^(\d+)(?:-([^/&=]*))?(?:/page(\d+))?(?:&|$)")
_XENFORO_SLUG = re.compile(r"\.\d+$")
_VBSEO = re.compile(r"^(\d+)-([^/]+)\.html?$", re.IGNORECASE)
_NOT_VB5 = frozenset({"topic", "topics", "t", "threads", "thread", "forum.php", "index.php"})
_UCOZ_STYLE = re.compile(r"^\d+(?:-\d+)+$")
_BOARD_PAGES = frozenset({"forum.php", "private.php", "member.php", "usercp.php",
                          "forumdisplay.php"})
"""vB pages without a thread (PMs only); a bare ``/`` or ``index.php`` is phpBB's, so such a
board needs ``[forum] engine = "vbulletin"``."""

EXAMPLE = "https://forum.example.com/showthread.php?t=123"


@dataclass(frozen=True, slots=True)
class ThreadAddress:
    """A vBulletin thread as its link gives it."""

    root: str
    """The board's folder (ends with ``/``): where ``login.php`` and ``private.php`` live."""
    topic_id: int | None
    form: Form
    slug: str = ""
    base: str = ""
    """vB 5: the thread's address without a page suffix."""
    page: int = 1

    def page_url(self, page: int) -> str:
        """Page ``page`` of the thread in this address's form."""
        if self.topic_id is None:
            raise no_topic("t=…", EXAMPLE)
        more = page > 1
        if self.form == "query":
            return f"{self.root}showthread.php?t={self.topic_id}" + (
                f"&page={page}" if more else "")
        if self.form == "vbseo":
            return self.base + (f"-{page}" if more else "") + ".html"
        suffix = f"/page{page}" if more else ""
        node = f"{self.topic_id}-{self.slug}" if self.slug else str(self.topic_id)
        folder = {"query_slug": "showthread.php?", "path": "showthread.php/",
                  "threads": "threads/"}.get(self.form)
        return f"{self.root}{folder}{node}{suffix}" if folder else self.base + suffix


def parse_thread_url(url: str) -> ThreadAddress:
    """The address ``url`` names: a thread, or a bare board address (no topic: PMs only).

    Raises :class:`ConfigError` for a link to a single post (``showthread.php?p=…``) and for
    what is no web address."""
    parts = web_address(url, EXAMPLE)
    segments = parts.path.split("/")
    found = (_showthread(parts, segments) or _threads(parts, segments)
             or _vbseo(parts, segments) or _vb5(parts, segments))
    if found is not None:
        return found
    return ThreadAddress(root=board_root(parts), topic_id=None, form="query")


def claims(url: str) -> bool:
    """Whether ``url`` has one of vBulletin's thread shapes (or is a vB board page):
    ``showthread.php?t=N`` and vBulletin's friendly forms (``showthread.php/N-title``,
    ``threads/N-title``, vB 5's ``…/N-title``), not XenForo's ``threads/title.N/``."""
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return False
    segments = parts.path.split("/")
    name = segments[-1]
    if "showthread.php" in segments:
        query = parse_qs(parts.query)
        return "tid" not in query  # showthread.php?tid= is MyBB's
    if name in _BOARD_PAGES:
        return True
    return any(read(parts, segments) is not None for read in (_threads, _vbseo, _vb5))


def ambiguous(url: str) -> bool:
    """``threads/123`` without a title: vBulletin's rewrite form and XenForo's alike."""
    segments = urlsplit(url.strip()).path.split("/")
    found = _threads_index(segments)
    node = _NODE.match(segments[found + 1]) if found is not None else None
    return node is not None and node.group(2) is None


def _page_after(segments: list[str], index: int) -> int:
    rest = [s for s in segments[index + 1:] if s]
    match = _PAGE.match(rest[0]) if rest else None
    return int(match.group(1)) if match else 1


def _showthread(parts: SplitResult, segments: list[str]) -> ThreadAddress | None:
    if "showthread.php" not in segments:
        return None
    at = segments.index("showthread.php")
    root = board_root(parts, "/".join(segments[:at]) + "/")
    query = parse_qs(parts.query)
    if at + 1 < len(segments) and (node := _NODE.match(segments[at + 1])):
        return ThreadAddress(root, int(node.group(1)), "path", node.group(2) or "",
                             page=_page_after(segments, at + 1))
    if (topic := query_number(query, "t", EXAMPLE)) is not None:
        page = query.get("page", ["1"])[0]
        return ThreadAddress(root, topic, "query", page=int(page) if page.isdigit() else 1)
    if (friendly := _QUERY_SLUG.match(parts.query)) is not None:
        return ThreadAddress(root, int(friendly.group(1)), "query_slug", friendly.group(2) or "",
                             page=int(friendly.group(3) or 1))
    if "p" in query or "postid" in query:
        raise one_post("p=…", "t=…")
    return ThreadAddress(root, None, "query")


def _threads_index(segments: list[str]) -> int | None:
    for i, seg in enumerate(segments[:-1]):
        nxt = segments[i + 1]
        if seg == "threads" and _NODE.match(nxt) and not _XENFORO_SLUG.search(nxt):
            return i
    return None


def _threads(parts: SplitResult, segments: list[str]) -> ThreadAddress | None:
    at = _threads_index(segments)
    if at is None:
        return None
    node = _NODE.match(segments[at + 1])
    assert node is not None
    return ThreadAddress(board_root(parts, "/".join(segments[:at]) + "/"), int(node.group(1)),
                         "threads", node.group(2) or "", page=_page_after(segments, at + 1))


def _vbseo(parts: SplitResult, segments: list[str]) -> ThreadAddress | None:
    """vBSEO's ``/forum-title/123-thread-title.html``: a thread segment after a forum
    segment; the board's folder is the one above the forum's (vBSEO's default formats)."""
    if len(segments) < 3 or not segments[-2] or segments[-2].lower() in _NOT_VB5:
        return None
    found = _VBSEO.match(segments[-1])
    if found is None or not any(ch.isalpha() for ch in found.group(2)):
        return None  # uCoz's /forum/5-123-1 has digits only
    base = urlunsplit((parts.scheme, parts.netloc,
                       "/".join(segments[:-1]) + f"/{found.group(1)}-{found.group(2)}", "", ""))
    return ThreadAddress(board_root(parts, "/".join(segments[:-2]) + "/"), int(found.group(1)),
                         "vbseo", found.group(2), base=base)


def _vb5(parts: SplitResult, segments: list[str]) -> ThreadAddress | None:
    """``/forum/channel/123-title[/page2]``: a node segment with a title, after at least one
    channel segment; not IPB's ``topic/123-title`` nor uCoz's ``/forum/2-15-1``."""
    cut = segments[:-1] if segments and _PAGE.match(segments[-1] or "x") else segments
    while cut and not cut[-1]:
        cut = cut[:-1]
    if len(cut) < 3:
        return None
    node = _NODE.match(cut[-1])
    if (node is None or not node.group(2) or "." in cut[-1] or _UCOZ_STYLE.match(cut[-1])
            or cut[-2].lower() in _NOT_VB5 or not cut[-2]):
        return None
    base = urlunsplit((parts.scheme, parts.netloc, "/".join(cut), "", ""))
    page = _PAGE.match(segments[-1]) if segments[-1] else None
    return ThreadAddress(board_root(parts, "/".join(cut[:2]) + "/"), int(node.group(1)), "vb5",
                         node.group(2), base=base, page=int(page.group(1)) if page else 1)


__all__ = ["EXAMPLE", "ThreadAddress", "ambiguous", "claims", "parse_thread_url"]
