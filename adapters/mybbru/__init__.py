"""MyBB.ru and its family of free hostings (mybb.ru, rusff.me, rolka.me, hutt.ru, bbfast.ru,
spybb.ru, forums.guru, f-rpg.me, and boards on their own domains): a PunBB 1.2 fork whose
topics are ``viewtopic.php?id=N``.

The game is read through the board's JSON API (:mod:`.api`, :mod:`.client`), the topic's
HTML pages when a board has closed it (:mod:`.topic`); replies and PMs go through the
board's forms (:mod:`.posting`); saved topic pages are read by :mod:`.snapshot`. Facts and
how sure each is: ``README.md`` here.

Detection: a ``viewtopic.php?id=`` address is this engine's whatever the domain (phpBB's
topics are ``?t=``); the adapter then finds out on first use whether the board answers the
API, reads the HTML pages if not, and says plainly when the board is a plain PunBB/FluxBB
without MyBB.ru's API and markup. When another engine claims the same address, the first
page decides by its markup (:func:`claims_page`).
"""

from __future__ import annotations

from adapters.mybbru.urls import claims_url, parse_topic_url
from adapters.registry import lazy_engine

__all__ = ["ENGINE", "claims_page", "claims_url", "topic_id"]


def claims_page(html: str) -> bool:
    from adapters.mybbru.page import is_mybb_page

    return is_mybb_page(html)


def topic_id(url: str) -> int | None:
    return parse_topic_url(url)[1]


ENGINE = lazy_engine(
    "mybbru", "MyBB.ru (rusff.me, rolka.me, …)", claims_url=claims_url, topic_id=topic_id,
    claims_page=claims_page, forum="client:MybbForum", poster="posting:MybbPoster",
    pages="snapshot:MybbPages",
    example="https://mafia.rolka.me/viewtopic.php?id=149")
