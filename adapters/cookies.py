"""The session cookie file beside the game database: created 0600 from its first byte,
replaced whole under a temporary name of its own, and holding only the forum's own
cookies (issue 14: never one a foreign site set after a redirect)."""

from __future__ import annotations

import contextlib
import http.cookiejar
import json
import logging
import os
import stat
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

log = logging.getLogger("referee.http")

POSIX_MODES = os.name == "posix"
"""File modes mean something only on POSIX: on Windows every file reads as 0o666 and chmod
only toggles read-only, so tightening there would warn on every run and change nothing (the
user's profile folder is what keeps the file private)."""


def same_site(a: str, b: str) -> bool:
    """Whether two hosts are one site for cookies: equal, ignoring case and a ``www.``."""
    def norm(h: str) -> str:
        h = h.lower().rstrip(".")
        return h[4:] if h.startswith("www.") else h

    return norm(a) == norm(b)


_DEFAULT_PORTS = {"http": 80, "https": 443}


def same_origin(forum: str, url: str) -> bool:
    """Whether ``url`` is the forum at ``forum`` for its session (issue 26): the same
    scheme, host (ignoring case and a ``www.``) and port. Going up from http to https on
    the standard ports (80 → 443) is the same forum; going down, or to another port of the
    same machine (another web application there), is another site."""
    a, b = urlsplit(forum), urlsplit(url)
    if not same_site(a.hostname or "", b.hostname or ""):
        return False
    try:
        pa = a.port or _DEFAULT_PORTS.get(a.scheme)
        pb = b.port or _DEFAULT_PORTS.get(b.scheme)
    except ValueError:
        return False
    if a.scheme == b.scheme:
        return pa == pb
    return (a.scheme, b.scheme, pa, pb) == ("http", "https", 80, 443)


def cookie_path_for(db_path: Path) -> Path:
    """The session cookie file that belongs to a game database: ``game.db`` → ``game.cookies``."""
    return db_path.with_suffix(".cookies")


def own_cookie(domain: str, host: str) -> bool:
    """Whether a cookie for ``domain`` belongs to the forum at ``host`` (its own host, or a
    parent domain the forum set it for): never one a foreign site set after a redirect."""
    d = domain.lower().lstrip(".")
    return bool(d) and (same_site(d, host) or host.lower().endswith("." + d))


def save_cookies(jar: http.cookiejar.CookieJar, path: Path, host: str | None = None) -> None:
    """Write the jar as JSON to ``path`` (0600, replaced atomically), only the cookies of
    ``host`` when given.

    The temporary file has a name of its own (two runs saving at once each replace the file
    whole, and never each other's half-written one); an ``OSError`` (a full disk, a
    read-only folder) leaves the old file as it was."""
    rows = [
        {
            "name": c.name, "value": c.value, "domain": c.domain, "path": c.path,
            "secure": c.secure, "expires": c.expires,
            "domain_specified": c.domain_specified, "domain_initial_dot": c.domain_initial_dot,
            "http_only": c.has_nonstandard_attr("HttpOnly"),
        }
        for c in jar
        if not c.is_expired() and (host is None or own_cookie(c.domain, host))
    ]
    data = json.dumps(rows).encode("utf-8")
    # mkstemp creates the file 0600 from its first byte, under a name no other run uses.
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
        os.close(fd)
        fd = -1
        os.replace(tmp, path)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def load_cookies(jar: http.cookiejar.CookieJar, path: Path) -> int:
    """Fill the jar from ``path``; returns how many cookies were loaded.

    A file readable by others is tightened to 0600 first; an unreadable or corrupt file is
    ignored (the tool simply logs in again).
    """
    if not path.exists():
        return 0
    try:
        if POSIX_MODES and stat.S_IMODE(path.stat().st_mode) & 0o077:
            log.warning("файл cookies %s могли читать другие; права — 0600", path)
            os.chmod(path, 0o600)
        rows = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        log.warning("файл cookies %s не читается; он пропущен", path)
        return 0
    n = 0
    for r in rows if isinstance(rows, list) else []:
        try:
            cookie = http.cookiejar.Cookie(
                version=0, name=r["name"], value=r["value"], port=None, port_specified=False,
                domain=r["domain"], domain_specified=bool(r.get("domain_specified")),
                domain_initial_dot=bool(r.get("domain_initial_dot")), path=r.get("path", "/"),
                path_specified=True, secure=bool(r.get("secure")), expires=r.get("expires"),
                discard=False, comment=None, comment_url=None,
                rest={"HttpOnly": ""} if r.get("http_only") else {},
            )
        except (KeyError, TypeError):
            continue
        if not cookie.is_expired():
            jar.set_cookie(cookie)
            n += 1
    return n


__all__ = ["cookie_path_for", "load_cookies", "own_cookie", "same_origin", "same_site",
           "save_cookies"]
