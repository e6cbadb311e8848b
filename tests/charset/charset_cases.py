"""What the engines' charset tests share (issue 14): a real page told its encoding wrong.

A board says its encoding twice, in the page (``<meta charset>``) and in the HTTP header,
and either may lie. :data:`READINGS` is the table of the ways the engines' tests serve a page;
:func:`served` makes the bytes and the header of one row from the page's text, and
:func:`spoilt` a page that is mojibake under every encoding (UTF-8 that was once read as
windows-1251 and stored so, then sent as UTF-8). The post the tests look for is
:data:`VOTER`'s, voting for :data:`TARGET` in red; :func:`stored` puts a page through the
store and gives back what was kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from referee.core.kernel import TopicPage
from referee.core.nicks import Roster
from referee.rules.day.reading import find_vote
from referee.store import Store
from referee.store.rows import StoredPost

VOTER = "Ёжик"
TARGET = "Шерлок"
VOTE_HTML = f'Мой голос: <span style="color: red">{TARGET}</span> — весь день молчит.'
"""The vote put into the real page's first post (its author renamed :data:`VOTER`)."""
ROSTER = Roster([VOTER, TARGET, "Лиса", "Мисс Марпл"])
SHARED = Path(__file__).resolve().parents[3] / "shared" / "fixtures"
FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@dataclass(frozen=True, slots=True)
class Reading:
    """How a board sends a page: the bytes' encoding, what its ``<meta charset>`` says
    (None: the page has none), what the HTTP header says (None: no charset)."""

    written_in: str
    meta: str | None
    header: str | None

    def __str__(self) -> str:
        return f"{self.written_in}, meta {self.meta}, header {self.header}"


READINGS = [
    #       bytes in     <meta charset>   header charset
    Reading("utf-8",    "utf-8",         "windows-1251"),  # a host panel stamping cp1251
    Reading("utf-8",    None,            "windows-1251"),  # ... on a page that says nothing
    Reading("cp1251",   "windows-1251",  "UTF-8"),         # an old cp1251 board, UTF-8 server
    Reading("cp1251",   None,            "UTF-8"),
    Reading("cp1251",   "utf-8",         "UTF-8"),         # both lie: the bytes tell
]

_META = re.compile(r"<meta\b[^>]*\bcharset\s*=[^>]*>", re.IGNORECASE)
_LABEL = re.compile(r"(charset\s*=\s*[\"']?)[A-Za-z0-9_.:-]+", re.IGNORECASE)


def with_meta(html: str, label: str | None) -> str:
    """The page with every ``<meta … charset>`` saying ``label`` (None: taken out)."""
    if label is None:
        return _META.sub("", html)
    return _META.sub(lambda m: _LABEL.sub(lambda n: n.group(1) + label, m.group(0)), html)


def served(html: str, reading: Reading) -> tuple[bytes, dict[str, str]]:
    """The page as such a board sends it: bytes (characters its code page lacks as
    ``&#N;``, as a board prints them) and headers."""
    content = with_meta(html, reading.meta).encode(reading.written_in, "xmlcharrefreplace")
    header = f"text/html; charset={reading.header}" if reading.header else "text/html"
    return content, {"Content-Type": header}


def spoilt(html: str) -> bytes:
    """The page as mojibake under every encoding: its UTF-8 read as windows-1251 once
    (a broken database import), sent as UTF-8."""
    return html.encode("utf-8").decode("cp1251", "replace").encode("utf-8")


def stored(page: TopicPage, db: Path) -> list[StoredPost]:
    """What the store keeps of ``page``."""
    with Store.open(db) as store:
        store.save_topic_page(page, datetime(2026, 12, 1, tzinfo=UTC))
        return store.posts()


def the_vote(posts: list[StoredPost]) -> tuple[str, str | None]:
    """(voter, target) of the vote in the stored posts, as the tally reads it."""
    for post in posts:
        reading = find_vote(post, ROSTER)  # type: ignore[arg-type] - a stored post reads alike
        if reading is not None:
            return reading.voter, reading.target
    raise AssertionError("no stored post holds a vote")


__all__ = ["FIXTURES", "READINGS", "ROSTER", "SHARED", "TARGET", "VOTER", "VOTE_HTML",
           "Reading", "served", "spoilt", "stored", "the_vote", "with_meta"]
