"""MyBB.ru and its family of free hostings (mybb.ru, rusff.me, rolka.me, hutt.ru, …): a
PunBB 1.2 fork whose topics are ``viewtopic.php?id=N``, whatever the domain (phpBB's are
``?t=``); when another engine claims the same address, the first page decides by its
markup (``page.is_mybb_page``). The registry entry opens the engine's modules lazily; what
each does, and every fact it relies on with how sure it is: README.md beside this file.
"""

from __future__ import annotations

from adapters.mybbru.urls import EXAMPLE, claims_url
from adapters.registry import lazy_engine

ENGINE = lazy_engine(
    "mybbru", "MyBB.ru (rusff.me, rolka.me, …)", claims_url=claims_url,
    claims_page="page:is_mybb_page", forum="client:MybbForum", poster="posting:MybbPoster",
    pages="snapshot:MybbPages", example=EXAMPLE)
