"""What every SMF 2.1 page shares: its text, the reader it was made for, the board's clock,
and the error and login boxes SMF answers with HTTP 200.

Facts (each verified on the real pages of fixtures/smf21-ru unless marked):

- ``<meta charset="UTF-8">`` and ``Content-Type: text/html; charset=UTF-8``; older boards
  may be windows-1251 (SMF 2.0 default for Russian: source, not in the saved pages). Pages
  are decoded by :mod:`adapters.charset`, which takes the declared encoding only when the
  page then reads right (:func:`reads_as_smf`).
- Every page but the print view has the header's ``form#search_form``, and with it the
  language pack's «Поиск» (its button, the menu) and «Помощь» (the footer); the English
  pack's «Search»/«Help» are from SMF's language files, not in the saved pages.
- ``var smf_member_id = N;`` in the head: 0 for a guest, the member's id when logged in
  (``topic_p1_guest.html`` / ``topic_p1_host.html``); ``var smf_session_var`` and
  ``smf_session_id`` name and value the session token every form carries.
- The header ``div.user`` holds ``<time datetime="2026-12-01T18:41:48Z">01 декабря 2026,
  21:41</time>``: the board's clock, in UTC and as text in the reader's zone. Post times
  are text only, so this is the one place where the zone the page was printed in shows.
- A page the reader may not see is HTTP 200 with ``form#frmLogin`` in the content and
  «Только зарегистрированные пользователи имеют доступ…» or «Тема или раздел, которую вы
  ищете, отсутствует или недоступна…» (``closed_topic_guest.html``,
  ``pm_inbox_guest.html``, ``reply_form_guest.html``).
- Fatal errors for logged-in readers are ``div#fatal_error`` (SMF 2.1
  ``Errors.template.php``; not in the saved pages).
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from selectolax.lexbor import LexborHTMLParser
from selectolax.lexbor import LexborNode as Node

from adapters import charset
from referee.core.dates import parse_forum_date
from referee.core.errors import (
    AccessDenied,
    ConfigError,
    DateParseError,
    LoginRequired,
    MalformedPage,
    TopicNotFound,
)

__all__ = ["SmfPage", "decode_page", "looks_like_smf", "reads_as_smf"]

_MEMBER = re.compile(r"var smf_member_id\s*=\s*(\d+)")
_SESSION_VAR = re.compile(r"var smf_session_var\s*=\s*[\"']([^\"']+)[\"']")
_SESSION_ID = re.compile(r"var smf_session_id\s*=\s*[\"']([^\"']+)[\"']")
_MARKUP = re.compile(r"var smf_scripturl\s*=|<body[^>]+id=\"smf\"|Simple Machines Forum",
                     re.IGNORECASE)
_SID = re.compile(r"(?<=[?&;])PHPSESSID=[^&;#]*[&;]?", re.IGNORECASE)
_UI_WORDS = ("Поиск", "Помощь", ">Search<", ">Help<")
_NOT_FOUND = ("отсутствует или недоступна", "does not exist", "не существует",
              "off-limits", "not available")


def looks_like_smf(html: str) -> bool:
    """Whether a page was printed by SMF (its head script and logo say so)."""
    return bool(_MARKUP.search(html))


def reads_as_smf(text: str) -> bool:
    """Whether decoded page text reads as SMF in the board's language: a page with the
    header's search form (``form#search_form``) shows its language pack's «Поиск» and
    «Помощь» (or «Search» and «Help»), and under a wrong encoding the Russian words are the
    first to go. A page without it, or one that declares a language not written in
    Cyrillic, is not judged by its words."""
    if 'id="search_form"' not in text or charset.in_other_language(text):
        return True
    return any(word in text for word in _UI_WORDS)


def decode_page(content: bytes, content_type: str | None = None) -> str:
    """Page bytes → text for what is never stored (:func:`adapters.charset.decode_lenient`);
    pages that are parsed come through :meth:`adapters.base.HttpClient.get_text`."""
    return charset.decode_lenient(content, content_type, reads_right=reads_as_smf)


def squash(text: str) -> str:
    """Whitespace (and no-break spaces) folded to single spaces."""
    return " ".join(text.replace("\u00a0", " ").split())


class SmfPage:
    """One SMF page, parsed once."""

    def __init__(self, html: str, url: str) -> None:
        self.html = html
        self.url = url
        self.tree = LexborHTMLParser(html)
        head = html[:20000]
        member = _MEMBER.search(head)
        self.member_id = int(member.group(1)) if member else None
        var, value = _SESSION_VAR.search(head), _SESSION_ID.search(head)
        self.session = (var.group(1), value.group(1)) if var and value else None

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
        value = (node.attributes.get("datetime") or "").strip()
        try:
            parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
            if parsed.tzinfo is None:
                return None
            when = parsed.astimezone(UTC)
        except (ValueError, OverflowError):  # «9999-12-31T23:59:59-12:00» is no clock
            return None
        return when, squash(node.text())

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

    def raise_for_page(self, what: str, expected: str, *, missing: str = "") -> None:
        """Raise the error this page stands for when it is not ``expected`` (a login form
        → :class:`LoginRequired`; SMF's error box → not found / not allowed; anything else
        → :class:`MalformedPage` naming ``missing``, what the page lacks)."""
        if self.login_form() is not None:
            said = self.notice()
            raise LoginRequired(
                f"форум просит войти, чтобы показать {what}" + (f": «{said}»" if said else ""),
                "проверьте [forum] username и пароль ведущего (REFEREE_PASSWORD)",
            )
        said = self.notice()
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
            f"страница {self._address()} — не {expected} SMF"
            + (f": на ней нет {missing}" if missing else ""),
            "проверьте [forum] url и [forum] engine; откройте страницу в браузере — если "
            "это SMF, сохраните её (Ctrl+S) и передайте разработчикам",
        )

    def _address(self) -> str:
        return _SID.sub("", self.url)


def _hours(delta: timedelta) -> str:
    minutes = round(delta.total_seconds() / 60)
    sign = "+" if minutes >= 0 else "-"
    h, m = divmod(abs(minutes), 60)
    return f"{sign}{h}" + (f":{m:02d}" if m else "")


def int_or_none(value: str | None) -> int | None:
    try:
        return int(value) if value else None
    except ValueError:
        return None
