"""Which engine reads a board: one registry for every engine package under ``adapters/``.

An engine is a package ``adapters/<name>/`` whose ``__init__`` defines ``ENGINE``, an
:class:`Engine`; the registry finds every such package by itself, so a new engine is a new
folder and nothing else. The engine is ``[forum] engine`` when the host sets it, otherwise
the one whose address pattern the topic URL matches; when several match, the first page
decides (each engine knows its own markup).

Core code opens forums only here (:func:`open_forum`, :func:`open_poster`) and never
imports an engine package.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from typing import Any, cast

from adapters.base import ForumSettings, Secret, strip_sid
from referee.core.errors import ConfigError, ForumError
from referee.core.kernel import Forum, Poster

PasswordSource = Callable[[str], Secret]
"""Asks for the host's password (the environment or a prompt): username → secret."""


@dataclass(frozen=True, slots=True)
class Engine:
    """One forum engine as the registry knows it."""

    name: str
    """What ``[forum] engine`` says: ``"phpbb"``."""
    title: str
    """What a host calls it: ``"phpBB 3.x"``."""
    claims_url: Callable[[str], bool]
    """Whether a topic address has this engine's shape (``viewtopic.php?t=…``)."""
    topic_id: Callable[[str], int | None]
    """The topic's number in such an address (a :class:`ConfigError` when it has none that
    makes sense); None for a bare board address (reading only PMs)."""
    open_forum: Callable[[ForumSettings, PasswordSource | None], Forum]
    """The live board."""
    claims_page: Callable[[str], bool] | None = None
    """Whether a page's HTML is this engine's (to decide between engines claiming a URL,
    and which engine saved a snapshot folder)."""
    open_snapshot: Callable[[ForumSettings], Forum] | None = None
    """Saved pages as a forum (``[forum] snapshot``), when the engine reads them."""
    open_poster: Callable[[ForumSettings, PasswordSource | None], Poster] | None = None
    """Replies and PMs on the host's word, when the engine can send them."""
    post_url: Callable[[str, int], str] | None = None
    """A post's address from the topic's (``[forum] url``) and the post id, when the engine
    does not use phpBB's ``viewtopic.php?p=…``."""
    example: str = ""
    """A topic address of this engine, as its board client shows it in hints."""


def lazy_engine(name: str, title: str, *, claims_url: Callable[[str], bool], forum: str,
                topic_id: Callable[[str], int | None] | None = None,
                claims_page: Callable[[str], bool] | str | None = None,
                poster: str | None = None, pages: str | None = None,
                post_url: Callable[[str, int], str] | None = None, example: str = "") -> Engine:
    """An engine whose classes are imported only when a board is opened (an engine's HTML
    parsers are never loaded to read another's): ``forum="client:VbulletinForum"`` is the
    class in ``adapters/<name>/client.py``; ``poster`` posts over that board client;
    ``pages`` reads a snapshot folder (its :meth:`adapters.snapshot.SavedPages.open`);
    ``claims_page`` may be such a name too (``"page:looks_like_smf"``). The topic id is
    by default the second of ``urls.parse_topic_url``'s ``(board root, topic id)``."""
    def load(spec: str) -> Any:
        module, _, attr = spec.partition(":")
        return getattr(importlib.import_module(f"adapters.{name}.{module}"), attr)

    def address_topic(url: str) -> int | None:
        return cast("int | None", load("urls:parse_topic_url")(url)[1])

    def page_claimed(html: str) -> bool:
        return bool(load(cast(str, claims_page))(html))

    def open_forum(settings: ForumSettings, password: PasswordSource | None) -> Forum:
        return cast(Forum, load(forum)(settings, password=password))

    def open_poster(settings: ForumSettings, password: PasswordSource | None) -> Poster:
        return cast(Poster, load(poster or "")(open_forum(settings, password)))

    def open_pages(settings: ForumSettings) -> Forum:
        return cast(Forum, load(pages or "").open(settings))

    return Engine(name=name, title=title, claims_url=claims_url,
                  topic_id=topic_id or address_topic, open_forum=open_forum,
                  claims_page=page_claimed if isinstance(claims_page, str) else claims_page,
                  open_snapshot=open_pages if pages else None,
                  open_poster=open_poster if poster else None, post_url=post_url,
                  example=example)


@cache
def engines() -> dict[str, Engine]:
    """Every engine package under ``adapters/``, by name."""
    import adapters

    found: dict[str, Engine] = {}
    for info in sorted(pkgutil.iter_modules(adapters.__path__), key=lambda i: i.name):
        if not info.ispkg:
            continue
        engine = getattr(importlib.import_module(f"adapters.{info.name}"), "ENGINE", None)
        if isinstance(engine, Engine):
            found[engine.name] = engine
    return found


def engine_names() -> tuple[str, ...]:
    return tuple(engines())


def _named(name: str) -> Engine:
    engine = engines().get(name)
    if engine is None:
        known = ", ".join(f'"{n}"' for n in engines())
        raise ConfigError(f"[forum] engine = {name!r}: такого движка referee не знает",
                          f"известные движки: {known}")
    return engine


def engine_for(settings: ForumSettings,
               first_page: Callable[[str], str] | None = None) -> Engine:
    """The engine that reads ``settings``' board: the one named, or the one the address
    (and, when several fit, the first page) shows. ``first_page`` fetches a page's HTML;
    without it an ambiguous address is an error that asks for ``[forum] engine``."""
    if settings.engine:
        return _named(settings.engine)
    if settings.snapshot is not None and not settings.url:
        return _snapshot_engine(settings)
    url = settings.url or ""
    found = [e for e in engines().values() if e.claims_url(url)]
    if len(found) == 1:
        return found[0]
    known = ", ".join(f'"{n}"' for n in engines())
    if not found:
        raise ConfigError(
            f"по адресу {strip_sid(url)!r} не понять, на каком движке форум",
            f"проверьте [forum] url (ссылка на первую страницу темы) или укажите "
            f"[forum] engine — один из {known}",
        )
    if settings.snapshot is not None:
        return _snapshot_engine(settings, found)  # the saved pages tell, not the network
    if first_page is not None:
        html = first_page(url)
        by_page = [e for e in found if e.claims_page is not None and e.claims_page(html)]
        if len(by_page) == 1:
            return by_page[0]
    names = ", ".join(f'"{e.name}"' for e in found)
    raise ConfigError(f"адрес {strip_sid(url)!r} подходит нескольким движкам ({names})",
                      "укажите [forum] engine в referee.toml")


PAGE_SUFFIXES = (".html", ".htm", ".xhtml", ".shtml")
"""What a browser names a page it saves («Веб-страница, полностью» / «только HTML»)."""


def _snapshot_engine(settings: ForumSettings, among: list[Engine] | None = None) -> Engine:
    """A snapshot folder: the engine (of ``among``, when the address leaves several) whose
    pages it holds — the one most of its pages are of, each page told by its markup."""
    readers = [e for e in (among or engines().values()) if e.open_snapshot is not None]
    folder = settings.snapshot
    if not readers:
        names = ", ".join(e.title for e in among or ())
        raise ConfigError(f"{names}: чтение сохранённых страниц ([forum] snapshot) пока не "
                          "поддерживается", "укажите [forum] url живого форума")
    votes: Counter[str] = Counter()
    pages = 0
    if folder is not None and folder.is_dir():
        for path in sorted(folder.iterdir()):
            if not path.is_file() or path.suffix.lower() not in PAGE_SUFFIXES:
                continue
            pages += 1
            html = path.read_bytes()[:200_000].decode("utf-8", "replace")
            claiming = [e for e in readers if e.claims_page is not None and e.claims_page(html)]
            if len(claiming) == 1:
                votes[claiming[0].name] += 1
    if not votes:
        if len(readers) == 1:
            return readers[0]
        known = ", ".join(e.title for e in readers)
        raise ConfigError(
            f"в папке snapshot {folder} нет ни одной сохранённой страницы форума"
            if not pages else f"ни одна из страниц в папке snapshot {folder} ({pages}) не "
            f"похожа на страницу форума на {known}",
            "сохраните в неё страницы темы из браузера (Ctrl+S, «Веб-страница, полностью» "
            "или «только HTML»); если форум на одном из этих движков, укажите [forum] engine")
    (best, count), *rest = votes.most_common()
    if rest and rest[0][1] == count:
        names = ", ".join(f'"{name}"' for name, n in votes.items() if n == count)
        raise ConfigError(f"в папке snapshot {folder} поровну страниц разных движков ({names})",
                          "оставьте в папке страницы одного форума или укажите [forum] engine")
    return engines()[best]


def topic_id(url: str, engine: str | None = None) -> int | None:
    """The topic's number in a topic address, read by its engine's rules."""
    return engine_for(ForumSettings(url=url, engine=engine)).topic_id(url)


def post_url(topic_url: str, post_id: int, engine: str | None = None) -> str | None:
    """A post's address as its engine builds it, or None when the engine (as far as the
    address tells without the network) has no rule of its own."""
    try:
        found = engine_for(ForumSettings(url=topic_url, engine=engine))
    except ConfigError:
        return None
    return found.post_url(topic_url, post_id) if found.post_url is not None else None


def _probe(settings: ForumSettings) -> Callable[[str], str]:
    def first_page(url: str) -> str:
        with ForumSettings.of(replace(settings, cookie_file=None)).http_client(url) as http:
            return http.get(url).text
    return first_page


def open_forum(settings: ForumSettings, password: PasswordSource | None = None) -> Forum:
    """The board ``settings`` names, live or from its snapshot folder. Use it as a
    context manager (or call ``close()``) so the session is saved."""
    settings = ForumSettings.of(settings)  # the config's plain value, with the client
    engine = engine_for(settings, _probe(settings))
    if settings.snapshot is not None:
        if engine.open_snapshot is None:
            raise ConfigError(f"{engine.title}: чтение сохранённых страниц ([forum] snapshot) "
                              "пока не поддерживается", "укажите [forum] url живого форума")
        return engine.open_snapshot(settings)
    return engine.open_forum(settings, password)


def open_poster(settings: ForumSettings, password: PasswordSource | None = None) -> Poster:
    """What sends replies and PMs on the host's board."""
    settings = ForumSettings.of(settings)  # the config's plain value, with the client
    engine = engine_for(settings, _probe(settings))
    if engine.open_poster is None:
        raise ForumError(f"{engine.title}: отправка сообщений пока не поддерживается",
                         "скопируйте текст в тему вручную")
    return engine.open_poster(settings, password)


def can_post(settings: ForumSettings) -> bool:
    """Whether the engine (as far as the address tells without the network) can send."""
    if settings.engine and settings.engine not in engines():
        return False
    try:
        engine = engine_for(settings)
    except ConfigError:
        return True  # decided when the board is opened (the first page tells the engine)
    return engine.open_poster is not None
