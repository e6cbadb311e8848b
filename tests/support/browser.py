"""What a browser writes when the host saves a page («Сохранить страницу как…»), for the
snapshot tests: the page as the board served it, rewritten the way browsers rewrite it.

- ``chrome`` («Веб-страница, полностью»): ``<!-- saved from url=(NNNN)… -->`` after the
  doctype, every link and form made absolute, images, styles and scripts moved to a
  ``<name>_files`` folder beside the page, ``<base>`` pointed at that folder, the text
  rewritten into UTF-8 and every charset declaration with it;
- ``firefox`` («Веб-страница, полностью»): no address noted, links absolute, resources
  moved, ``<base>`` dropped, the page's own encoding and declaration kept;
- ``html_only`` («Веб-страница, только HTML»): the bytes as served;
- ``no_scripts``: as Chrome, and every script removed (a «simplified» save, an extension).

Files are named after the page's ``<title>`` as browsers name them (``/:*?"<>|`` become
``_``; a second save of the same page gets « (1)»), and dated with the moment the page was
saved, which is what «Сегодня в …» on it is relative to.
"""

from __future__ import annotations

import os
import re
from datetime import datetime
from pathlib import Path
from typing import Literal
from urllib.parse import urljoin, urlsplit

from adapters import charset

Browser = Literal["chrome", "firefox", "html_only", "no_scripts"]

_LINK = re.compile(r"""(\s(?:href|action)\s*=\s*)(["'])(.*?)\2""", re.IGNORECASE | re.S)
_RESOURCE = re.compile(r"""(<(?:img|script|link)\b[^>]*?\s(?:src|href)\s*=\s*)(["'])(.*?)\2""",
                       re.IGNORECASE | re.S)
_BASE = re.compile(r"<base\b[^>]*>", re.IGNORECASE)
_SCRIPT = re.compile(r"<script\b.*?</script\s*>|<noscript\b.*?</noscript\s*>",
                     re.IGNORECASE | re.S)
_DOCTYPE = re.compile(r"^\s*<!DOCTYPE[^>]*>\s*", re.IGNORECASE)
_META_CHARSET = re.compile(r"""(<meta[^>]+?charset\s*=\s*["']?)[A-Za-z0-9_.:-]+""",
                           re.IGNORECASE)
_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.S)


def file_name(folder: Path, text: str, fallback: str) -> str:
    """The name a browser gives the saved page: its title, made a file name."""
    found = _TITLE.search(text)
    title = " ".join((found.group(1) if found else "").split()) or fallback
    stem = re.sub(r'[/\\:*?"<>|]', "_", title)[:120].strip(". ") or fallback
    name, n = f"{stem}.html", 0
    while (folder / name).exists():
        n += 1
        name = f"{stem} ({n}).html"
    return name


def _absolute_links(text: str, url: str) -> str:
    base = _BASE.search(text)
    found = re.search(r"""href\s*=\s*["']([^"']+)""", base.group(0)) if base else None
    root = urljoin(url, found.group(1)) if found else url

    def link(m: re.Match[str]) -> str:
        value = m.group(3).replace("&amp;", "&")
        if value.startswith(("javascript:", "data:", "mailto:")) or not value:
            return m.group(0)
        return f"{m.group(1)}{m.group(2)}{urljoin(root, value).replace('&', '&amp;')}{m.group(2)}"

    return _LINK.sub(link, text)


def _local_resources(text: str, files: str) -> str:
    def local(m: re.Match[str]) -> str:
        tag = m.group(1).lower()
        if tag.startswith("<link") and "stylesheet" not in tag and "icon" not in tag:
            return m.group(0)
        name = urlsplit(m.group(3)).path.rsplit("/", 1)[-1] or "resource"
        return f"{m.group(1)}{m.group(2)}./{files}/{name}{m.group(2)}"

    return _RESOURCE.sub(local, text)


def rewrite(served: bytes, url: str, *, browser: Browser, files: str = "page_files",
            content_type: str | None = None) -> bytes:
    """The file ``browser`` writes for a page served as ``served`` from ``url``."""
    if browser == "html_only":
        return served
    text, codec = charset.decide_lenient(served, content_type)
    text = _local_resources(_absolute_links(text, url), files)
    if browser == "firefox":
        return _BASE.sub("", text).encode(codec, "xmlcharrefreplace")
    if browser == "no_scripts":
        text = _SCRIPT.sub("", text)
    text = _BASE.sub(f'<base href="./{files}/">', text)
    text = _META_CHARSET.sub(lambda m: m.group(1) + "UTF-8", text)
    doctype = _DOCTYPE.match(text)
    head = doctype.group(0) if doctype else ""
    comment = f"<!-- saved from url=({len(url):04d}){url} -->\n"
    return (head + comment + text[len(head):]).encode("utf-8")


def save(folder: Path, served: bytes, url: str, *, browser: Browser = "chrome",
         at: datetime | None = None, name: str | None = None,
         content_type: str | None = None) -> Path:
    """Save one page into ``folder`` as ``browser`` would; returns the file."""
    folder.mkdir(parents=True, exist_ok=True)
    shown, _ = charset.decide_lenient(served, content_type)
    name = name or file_name(folder, shown, "page")
    files = name.rsplit(".", 1)[0] + "_files"
    path = folder / name
    path.write_bytes(rewrite(served, url, browser=browser, files=files,
                             content_type=content_type))
    if browser != "html_only":
        (folder / files).mkdir(exist_ok=True)
        (folder / files / "style.css").write_text("body{}", encoding="utf-8")
    if at is not None:
        os.utime(path, (at.timestamp(), at.timestamp()))
    return path


__all__ = ["Browser", "file_name", "rewrite", "save"]
