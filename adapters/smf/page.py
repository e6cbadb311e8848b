"""What every SMF page shares: the check that it reads right, its reader
(``smf_member_id``), the header's clock (the board's «now», and the zone
it prints times in) and the login and error boxes SMF answers with HTTP 200. Facts and their
sources: README.md («Addresses and pages», «Time zones»).
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from typing import NoReturn
from zoneinfo import ZoneInfo

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from adapters import charset
from adapters.html import iso_utc, squash
from adapters.smf.urls import strip_session
from referee.core.dates import parse_forum_date
from referee.core.errors import (
    AccessDenied,
    ConfigError,
    DateParseError,
    LoginRequired,
    MalformedPage,
    TopicNotFound,
)

__all__ = ["SmfPage", "looks_like_smf", "reads_as_smf"]

_MEMBER = re.compile(r"var smf_member_id\s*=\s*(\d+)")
_MARKUP = re.compile(r"var smf_scripturl\s*=|<body[^>]+id=\"smf\"|Simple Machines Forum",
                     re.IGNORECASE)
_NOT_FOUND = ("отсутствует или недоступна", "does not exist", "не существует",
              "off-limits", "not available")


def looks_like_smf(html: str) -> bool:
    """Whether a page was printed by SMF (its head script and logo say so)."""
    return bool(_MARKUP.search(html))


reads_as_smf = charset.reads_in_language(('id="search_form"',),
                                         ("Поиск", "Помощь", ">Search<", ">Help<"))
"""Whether decoded page text reads as SMF in the board's language: the header's search form
(``form#search_form``) comes with the pack's «Поиск» and «Помощь» (or «Search», «Help»)."""


class SmfPage:
    """One SMF page, parsed once."""

    def __init__(self, html: str, url: str) -> None:
        self.html = html
        self.url = url
        self.tree = LexborHTMLParser(html)
        head = html[:20000]
        member = _MEMBER.search(head)
        self.member_id = int(member.group(1)) if member else None

    @property
    def logged_in(self) -> bool:
        return bool(self.member_id)

    def content(self) -> Node:
        """The page's own part (menus and header left out)."""
        return (self.tree.css_first("#main_content_section") or self.tree.body
                or self.tree.root)

    # -- the board's clock

    def clock(self) -> tuple[datetime, str] | None:
        """The board's «now» from the header: ``(UTC instant, the same as printed)``."""
        node = self.tree.css_first("div.user time[datetime]") or self.tree.css_first(
            "time[datetime]")
        if node is None:
            return None
        when = iso_utc(node.attributes.get("datetime"))
        return None if when is None else (when, squash(node.text()))

    def now(self, fallback: datetime) -> datetime:
        """The instant «Сегодня»/«Вчера» on this page are relative to: the board's clock
        when the header shows it (the reader's own clock may be off), else ``fallback``."""
        found = self.clock()
        return found[0] if found else fallback

    def check_zone(self, tz: ZoneInfo) -> None:
        """Refuse to read a page printed in another zone than ``[forum] timezone``: SMF
        prints times as text only, so a wrong zone would move every post past or before
        the deadlines without a word (docs/rules.md T2)."""
        found = self.clock()
        if found is None:
            return
        when, text = found
        try:
            shown = parse_forum_date(text, tz=tz, now=when)
            as_utc = parse_forum_date(text, tz=ZoneInfo("UTC"), now=when)
        except DateParseError:
            return  # an unknown clock format: the post dates will tell
        exact = when.replace(second=0, microsecond=0)
        if shown == exact:
            return
        offset = _hours(as_utc - exact)
        want = _hours(when.astimezone(tz).utcoffset() or timedelta())
        raise ConfigError(
            f"форум показывает время в зоне UTC{offset} («{text}» в {exact:%H:%M} UTC), "
            f"а в referee.toml [forum] timezone = \"{tz.key}\" (UTC{want}): "
            "время каждого сообщения разошлось бы с дедлайнами",
            "укажите в [forum] timezone часовой пояс, в котором форум показывает время "
            "(часовой пояс в профиле ведущего на форуме), например \"Europe/Moscow\"",
        )

    # -- what SMF answers instead of the page asked for

    def login_form(self) -> Node | None:
        return self.content().css_first("form#frmLogin") or self.tree.css_first(
            "form#frmLogin")

    def notice(self) -> str:
        """The text of SMF's message box on an access or error page."""
        box = (self.tree.css_first("#fatal_error .padding")
               or self.tree.css_first("#fatal_error .windowbg")
               or self.content().css_first("p.information")
               or self.tree.css_first("#fatal_error"))
        return squash(box.text())[:300] if box is not None else ""

    def raise_for_page(self, what: str, expected: str, *, missing: str = "") -> NoReturn:
        """Raise the error this page stands for when it is not ``expected`` (a login form
        → :class:`LoginRequired`; SMF's error box → not found / not allowed; anything else
        → :class:`MalformedPage` naming ``missing``, what the page lacks)."""
        said = self.notice()
        if self.login_form() is not None:
            raise LoginRequired(
                f"форум просит войти, чтобы показать {what}" + (f": «{said}»" if said else ""),
                "проверьте [forum] username и пароль ведущего (REFEREE_PASSWORD)",
            )
        if said and any(word in said.lower() for word in _NOT_FOUND):
            raise TopicNotFound(
                f"форум не показывает {what}: «{said}»",
                "проверьте [forum] url: откройте его в браузере под учётной записью "
                "ведущего; тему могли удалить или перенести в закрытый раздел",
            )
        if said:
            raise AccessDenied(f"форум не показывает {what}: «{said}»",
                               "откройте страницу в браузере под учётной записью ведущего")
        raise MalformedPage(
            f"страница {strip_session(self.url)} — не {expected} SMF"
            + (f": на ней нет {missing}" if missing else ""),
            "проверьте [forum] url и [forum] engine; откройте страницу в браузере — если "
            "это SMF, сохраните её (Ctrl+S) и передайте разработчикам",
        )


def _hours(delta: timedelta) -> str:
    minutes = round(delta.total_seconds() / 60)
    sign = "+" if minutes >= 0 else "-"
    h, m = divmod(abs(minutes), 60)
    return f"{sign}{h}" + (f":{m:02d}" if m else "")

