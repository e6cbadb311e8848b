"""SMF 2.1 and 2.0 (Simple Machines Forum): the registry entry, which opens the engine's
modules lazily (finding the engines costs no parser import). The modules, and every markup
fact they rely on with where it was verified: README.md beside this file.
"""

from __future__ import annotations

from adapters.registry import lazy_engine
from adapters.smf.urls import EXAMPLE, claims_url, post_url

ENGINE = lazy_engine(
    "smf", "SMF 2.1/2.0", claims_url=claims_url, claims_page="page:looks_like_smf",
    forum="client:SmfForum", poster="posting:SmfPoster", pages="snapshot:SmfPages",
    post_url=post_url, example=EXAMPLE)
