"""MyBB.ru and its family of free hostings (mybb.ru, rusff.me, rolka.me, hutt.ru, bbfast.ru,
spybb.ru, forums.guru, f-rpg.me, and boards on their own domains): a PunBB 1.2 fork whose
topics are ``viewtopic.php?id=N``.

The game is read through the board's JSON API (:mod:`.api`, :mod:`.client`), the topic's
HTML pages when a board has closed it (:mod:`.topic_page`); replies and PMs go through the
board's forms (:mod:`.posting`); saved topic pages are read by :mod:`.snapshot`. Facts and
how sure each is: ``README.md`` here.

Detection: a ``viewtopic.php?id=`` address is this engine's whatever the domain (phpBB's
topics are ``?t=``); the adapter then finds out on first use whether the board answers the
API, reads the HTML pages if not, and says plainly when the board is a plain PunBB/FluxBB
without MyBB.ru's API and markup. When another engine claims the same address, the first
page decides by its markup (:func:`claims_page`).
"""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

from adapters.base import ForumSettings
from adapters.registry import Engine, PasswordSource
from referee.kernel import Forum, Poster


def claims_url(url: str) -> bool:
    """``…/viewtopic.php?id=N`` (a topic) or ``?pid=N`` (one post of one)."""
    parts = urlsplit(url.strip())
    query = parse_qs(parts.query)
    return parts.path.endswith("viewtopic.php") and ("id" in query or "pid" in query)


def claims_page(html: str) -> bool:
    from adapters.mybbru.pages import is_mybb_page

    return is_mybb_page(html)


def topic_id(url: str) -> int | None:
    from adapters.mybbru.client import parse_topic_url

    return parse_topic_url(url)[1]


def open_forum(settings: ForumSettings, password: PasswordSource | None) -> Forum:
    from adapters.mybbru.client import MybbForum

    return MybbForum(settings, password=password)


def open_snapshot(settings: ForumSettings) -> Forum:
    from adapters.mybbru.snapshot import MybbPages
    from adapters.snapshot import open_saved

    return open_saved(settings, MybbPages)


def open_poster(settings: ForumSettings, password: PasswordSource | None) -> Poster:
    from adapters.mybbru.client import MybbForum
    from adapters.mybbru.posting import MybbPoster

    return MybbPoster(MybbForum(settings, password=password))


ENGINE = Engine(
    name="mybbru",
    title="MyBB.ru (rusff.me, rolka.me, …)",
    claims_url=claims_url,
    topic_id=topic_id,
    open_forum=open_forum,
    claims_page=claims_page,
    open_snapshot=open_snapshot,
    open_poster=open_poster,
)
