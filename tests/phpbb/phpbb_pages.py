"""Fixture pages for the phpBB parser tests, read and parsed once per test session.

The real pages come from a phpBB 3.3.10 board with the Russian pack
(fixtures/phpbb33-ru, see its README and manifest.json); the legacy-style pages are in
fixtures/phpbb30, fixtures/subsilver2 and fixtures/phpbb32 (each folder has a README that
says where every page comes from).
"""

from __future__ import annotations

import json
from datetime import datetime
from functools import cache
from pathlib import Path
from zoneinfo import ZoneInfo

from adapters.phpbb.page import decode_page
from adapters.phpbb.pms import parse_pm, parse_pm_folder
from adapters.phpbb.topic import parse_topic_page
from referee.core.kernel import PmFolderPage, PrivateMessage, TopicPage

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
REAL = FIXTURES / "phpbb33-ru"
BOARD = "http://127.0.0.1:8733"
MOSCOW = ZoneInfo("Europe/Moscow")
# The pages were saved on 29 Nov 2026 (README); no real page uses a relative date.
SAVED_AT = datetime(2026, 11, 29, 20, 0, tzinfo=MOSCOW)


@cache
def manifest() -> dict:
    return json.loads((REAL / "manifest.json").read_text(encoding="utf-8"))


@cache
def raw(relative: str) -> bytes:
    return (FIXTURES / relative).read_bytes()


@cache
def html(relative: str) -> str:
    return decode_page(raw(relative), "text/html; charset=UTF-8" if "phpbb33" in relative
                       else None)


def real_url(name: str) -> str:
    """Absolute URL a real page was saved from (manifest «files»)."""
    return BOARD + manifest()["files"][name]["url"].split(" ")[0]


@cache
def topic(name: str) -> TopicPage:
    return parse_topic_page(html(f"phpbb33-ru/{name}"), url=real_url(name), tz=MOSCOW,
                            now=SAVED_AT)


@cache
def pm(name: str) -> PrivateMessage:
    folder = "sentbox" if "f=-1" in real_url(name) else "inbox"
    return parse_pm(html(f"phpbb33-ru/{name}"), url=real_url(name), tz=MOSCOW, now=SAVED_AT,
                    folder=folder)


@cache
def pm_folder(name: str) -> PmFolderPage:
    return parse_pm_folder(html(f"phpbb33-ru/{name}"), url=real_url(name), tz=MOSCOW,
                           now=SAVED_AT)


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def with_message_panel(text: str, title: str = "Информация") -> str:
    """The real login page with its form replaced by phpBB 3.3's information panel.

    Markup of prosilver ``message_body.html`` (3.3: ``div#message`` > ``h2.message-title``
    + ``p``), which is what ``trigger_error()`` renders for NO_TOPIC, SORRY_AUTH_READ, …
    """
    import re

    panel = (f'<div class="panel" id="message" role="main">\n\t<div class="inner">\n'
             f'\t<h2 class="message-title">{title}</h2>\n\t<p>{text}</p>\n\t</div>\n</div>')
    page = html("phpbb33-ru/login.html")
    return re.sub(r'<form action="./ucp.php\?mode=login".*?</form>', panel, page, count=1,
                  flags=re.S)
