"""vBulletin's forms and what the board answers to them: login (the navbar form, the
password as ``vbulletin_md5.js`` hashes it), a reply, a PM. Pure. Sources and what is
**unverified**: README.md, «Login and posting»."""

from __future__ import annotations

import hashlib
import re
from typing import Literal

from selectolax.lexbor import LexborHTMLParser

from adapters.form import HtmlForm, find_form, read_form
from adapters.poster import Answer
from adapters.vbulletin.topic import is_logged_in, message_text

_POST_ID = re.compile(r"[?&;]p=(\d+)|#post(\d+)")
_REFRESH_URL = re.compile(r"url\s*=\s*['\"]?([^'\">]+)", re.IGNORECASE)
_WAIT = re.compile(r"(?:in|через)\s+(\d+)\s*(?:seconds?|сек)", re.IGNORECASE)

LoginOutcome = Literal["ok", "wrong_password", "strikes", "unknown"]


# --------------------------------------------------------------------------- the password

def md5_fields(password: str) -> tuple[str, str]:
    """``vb_login_md5password`` and ``vb_login_md5password_utf`` as a browser's
    ``md5hash()`` fills them: the password trimmed of spaces; characters above U+00FF
    written as ``&#N;`` for the first (``str_to_ent``), the low byte of each UTF-16 unit for
    the second (``hex_md5`` with ``chrsz = 8``)."""
    raw = password.strip(" ").encode("utf-16-le", "surrogatepass")
    units = [int.from_bytes(raw[i:i + 2], "little") for i in range(0, len(raw), 2)]
    ent = "".join(chr(u) if u <= 255 else f"&#{u};" for u in units)
    first = hashlib.md5(ent.encode("latin-1")).hexdigest()
    second = hashlib.md5(bytes(u & 0xFF for u in units)).hexdigest()
    return first, second


# --------------------------------------------------------------------------- forms


_CAPTCHA = ('input[name*="humanverify"], input[name="recaptcha_response_field"], '
            "div.g-recaptcha")


def login_form(html: str, url: str) -> HtmlForm | None:
    """The page's login form (the navbar's on a guest's page, or the no-permission page's)."""
    node = find_form(LexborHTMLParser(html), holding='input[name="vb_login_username"]')
    return None if node is None else read_form(node, url, action="login.php?do=login", box="1")


def posting_form(html: str, url: str, action_word: str) -> HtmlForm | None:
    """The reply (``newreply.php``) or PM (``private.php``) form with a text area. A browser
    sends its hidden and text fields, ticked boxes, selected options, and the ``sbutton``
    (vB's submit) — never «Preview» or other buttons; the PM form has a text area for the
    recipients too: the text box is «message»."""
    node = find_form(LexborHTMLParser(html), action_has=action_word, holding="textarea[name]")
    return None if node is None else read_form(node, url, box="1", captcha=_CAPTCHA)


# --------------------------------------------------------------------------- answers

def login_outcome(html: str) -> LoginOutcome:
    """What the answer page to a login POST says (the cookie is checked first)."""
    tree = LexborHTMLParser(html)
    text = (message_text(tree) or " ".join(tree.text().split()))[:2000].lower()
    if "quota" in text or "исчерпали" in text or "15 минут" in text:
        return "strikes"
    if ("invalid username or password" in text or "неправильн" in text or "неверн" in text
            or "incorrect" in text):
        return "wrong_password"
    if ("thank you for logging in" in text or "спасибо, что зашли" in text
            or is_logged_in(tree)):
        return "ok"
    return "unknown"


def stored_at(target: str, *, pm: bool, said: str = "") -> Answer | None:
    """A stored message, when the board sends the host on to it (a redirect or its
    refresh page): a PM back to ``private.php``, a reply to its post
    (``showthread.php?p=N#postN``); None when ``target`` is neither."""
    post = _POST_ID.search(target)
    if pm and "private.php" in target:
        return Answer("stored", None, said)
    if not pm and post is not None:
        return Answer("stored", int(post.group(1) or post.group(2)), said)
    return None


def classify_answer(html: str, *, pm: bool) -> Answer:
    """The board's answer page (HTTP 200) to a reply or PM POST.

    Stored: vBulletin's redirect page («Thank you for posting…», a refresh or a link to
    ``showthread.php?p=N#postN``; for a PM, back to ``private.php``). Refused: the form again
    with an error list, or vBulletin's message box (security token, flood control)."""
    tree = LexborHTMLParser(html)
    refresh = tree.css_first('meta[http-equiv="Refresh"], meta[http-equiv="refresh"]')
    target = ""
    if refresh is not None and (m := _REFRESH_URL.search(refresh.attributes.get("content")
                                                          or "")):
        target = m.group(1)
    errors = [" ".join(li.text().split()) for li in tree.css(
        "div.blockrow.error li, div.errorblock li, td.panelsurround ol li, ol.errors li")]
    said = "; ".join(e for e in errors if e) or message_text(tree)
    low = said.lower()
    if target and not errors and (stored := stored_at(target, pm=pm, said=said)) is not None:
        return stored
    if "security token" in low or "маркер безопасности" in low or "ключ безопасности" in low:
        return Answer("token", text=said)
    if "between posts" in low or "flood" in low or "между сообщениями" in low or \
            "подождать" in low and "сообщени" in low:
        wait = _WAIT.search(said)
        return Answer("flood", text=said, wait=float(wait.group(1)) if wait else None)
    if not is_logged_in(tree) and tree.css_first('input[name="vb_login_username"]') is not None:
        return Answer("login", text=said)
    if said:
        return Answer("refused", text=said)
    return Answer("unknown")


__all__ = [
    "Answer",
    "classify_answer",
    "login_form",
    "login_outcome",
    "md5_fields",
    "posting_form",
    "stored_at",
]
