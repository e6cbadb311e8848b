"""The engine contract (adapters/README.md), checked over every engine the registry finds:
a sixth engine is held to it by being a folder under ``adapters/``, nothing else.

What is checked here is what needs no board: the registry entry and its example address,
the skeleton (a ``BoardClient`` to read, a ``FormPoster`` to post, the core's one
``PostingError``, one ``MAX_PAGES``), the common file names, the lazy imports, and the
errors a host meets before the first request (no url, an unknown time zone, no username).
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

import adapters
from adapters.base import ForumSettings
from adapters.board import BoardClient
from adapters.poster import FormPoster
from adapters.registry import engine_for, engines
from referee.core.errors import ConfigError, LoginRequired

ENGINES = sorted(engines())
ROOT = Path(adapters.__file__).parent
TEMPLATE = ("__init__.py", "urls.py", "topic.py", "client.py", "posting.py", "snapshot.py",
            "README.md")


def settings(name: str, **changes: object) -> ForumSettings:
    base = ForumSettings(url=engines()[name].example, engine=name, timezone="Europe/Moscow")
    return replace(base, **changes)  # type: ignore[arg-type]


def test_every_engine_package_is_found() -> None:
    assert ENGINES == ["mybbru", "phpbb", "smf", "vbulletin", "xenforo"]


@pytest.mark.parametrize("name", ENGINES)
def test_the_example_address_is_the_engines_own(name: str) -> None:
    engine = engines()[name]
    assert engine.example and engine.claims_url(engine.example)
    assert isinstance(engine.topic_id(engine.example), int)
    assert engine_for(ForumSettings(url=engine.example), lambda url: "").name == name or \
        len([e for e in engines().values() if e.claims_url(engine.example)]) > 1


@pytest.mark.parametrize("name", ENGINES)
def test_the_engine_keeps_the_common_file_names(name: str) -> None:
    missing = [f for f in TEMPLATE if not (ROOT / name / f).exists()]
    assert not missing, f"adapters/{name}/ lacks {missing} (adapters/README.md, the template)"


@pytest.mark.parametrize("name", ENGINES)
def test_the_engine_writes_no_skeleton_of_its_own(name: str) -> None:
    # One PostingError (referee.core.errors), one MAX_PAGES (adapters.board), no guest-form
    # class, one HTML form value (adapters.form.HtmlForm).
    own = {f.name: f.read_text(encoding="utf-8") for f in (ROOT / name).glob("*.py")}
    copies = [(file, word) for file, text in own.items()
              for word in ("class PostingError", "MAX_PAGES =", "class _GuestForm",
                           "def __enter__", "class LoginForm", "class PostingForm")
              if word in text]
    assert not copies


@pytest.mark.parametrize("name", ENGINES)
def test_the_live_board_and_the_poster_are_the_skeletons(name: str) -> None:
    engine = engines()[name]
    assert engine.open_poster is not None and engine.open_snapshot is not None
    with engine.open_forum(settings(name), None) as forum:
        assert isinstance(forum, BoardClient)
        assert forum.requests == 0  # opening a board asks nothing yet
    with engine.open_poster(settings(name), None) as poster:
        assert isinstance(poster, FormPoster)


@pytest.mark.parametrize("name", ENGINES)
def test_a_board_without_an_address_is_refused_in_russian(name: str) -> None:
    with pytest.raises(ConfigError, match=r"\[forum\] url"):
        engines()[name].open_forum(settings(name, url=None), None)


@pytest.mark.parametrize("name", ENGINES)
def test_an_unknown_time_zone_is_refused_in_russian(name: str) -> None:
    with pytest.raises(ConfigError, match="часовой пояс"):
        engines()[name].open_forum(settings(name, timezone="Europe/Atlantis"), None)


@pytest.mark.parametrize("name", ENGINES)
def test_a_login_without_a_username_says_what_to_add_before_any_request(name: str) -> None:
    forum = engines()[name].open_forum(settings(name), None)
    try:
        with pytest.raises(LoginRequired, match="username"):
            forum.login()  # type: ignore[attr-defined]
        assert forum.requests == 0
    finally:
        forum.close()


def test_finding_the_engines_imports_no_engines_client() -> None:
    code = ("import sys; from adapters.registry import engines; engines(); "
            "print(sorted(m for m in sys.modules if m.endswith(('.client', '.posting'))"
            " and m.startswith('adapters.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT.parent).stdout
    assert out.strip() == "[]"
