"""The real SMF 2.1 pages (fixtures/smf21-ru: rendered by our own SMF 2.1.4 board, Russian
pack, copied from ../shared/fixtures/smf21-ru with its README and manifest) and their
parses, read once per test session."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from zoneinfo import ZoneInfo

from adapters.charset import decode_lenient
from adapters.smf.page import reads_as_smf
from adapters.smf.pms import SmfFolder, parse_folder
from adapters.smf.topic import parse_topic_page
from referee.core.kernel import TopicPage

ROOT = Path(__file__).resolve().parents[2]
REAL = ROOT / "fixtures" / "smf21-ru"
BOARD = "http://127.0.0.1:8080"
MOSCOW = ZoneInfo("Europe/Moscow")
# Every page shows the board's clock in its header (01.12.2026 ~21:41 MSK); this is only
# the fallback the parsers never need.
SAVED_AT = datetime(2026, 12, 1, 18, 41, tzinfo=UTC)
TOPIC_PAGES = {1: 0, 2: 25, 3: 50}


@cache
def manifest() -> dict:
    return json.loads((REAL / "manifest.json").read_text(encoding="utf-8"))


@cache
def html(name: str) -> str:
    return decode_lenient((REAL / name).read_bytes(), "text/html; charset=UTF-8",
                          reads_right=reads_as_smf)


def page_url(name: str) -> str:
    for row in manifest()["pages"]:
        if row["file"] == name:
            return re.sub(r"PHPSESSID=0+&", "", row["final_url"])
    raise KeyError(name)


@cache
def topic(name: str) -> TopicPage:
    return parse_topic_page(html(name), url=page_url(name), tz=MOSCOW, now=SAVED_AT)


@cache
def folder(name: str) -> SmfFolder:
    kind = "sentbox" if "sent" in name else "inbox"
    return parse_folder(html(name), url=page_url(name), folder=kind, tz=MOSCOW, now=SAVED_AT)


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def topic_posts(who: str) -> list:
    return [p for n in TOPIC_PAGES for p in topic(f"topic_p{n}_{who}.html").posts]


def game_posts() -> list[dict]:
    """The manifest's posts of the game topic (topic 2)."""
    return [p for p in manifest()["posts"] if p["topic"] == 2]
