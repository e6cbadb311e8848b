"""The engine contract, played: the same small game (contract_game.py) on every engine's
board (stages.py, over the fake boards of tests/support), read and counted through the
library, must give the same posts, the same edit, the same deletion noticed, the same PMs
and the same tally; and every engine must refuse a wrong password and a missing topic in
Russian, and post the host's message exactly once. A new engine under ``adapters/`` is done
when it passes this file (adapters/README.md, «The contract suite»): it fails here until its
fake board is in tests/support and its stage in stages.py.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from contract_game import (
    CONFIG,
    COUNTS,
    DELETED,
    EDITED,
    HANGED,
    HOST,
    NIGHT_DEATHS,
    PMS,
    POSTS,
    READ_AT,
    REPLY,
    Post,
)
from stages import STAGES, Stage
from support.browser import save

from adapters.base import ForumSettings, Secret
from adapters.registry import engines
from referee.config.game import load_config
from referee.core.errors import ForumError, LoginFailed, TopicNotFound
from referee.game import Game
from referee.host.outgoing import Outgoing
from referee.host.publish import live_look, live_sender, publish
from referee.store import StoredPost

ENGINES = sorted(engines())
BREAKS: dict[tuple[str, str], str] = {}
"""(engine, case) → why the engine breaks that case (xfail, strict: fixed means told)."""


def per_engine(case: str) -> list[object]:
    return [pytest.param(name, id=name, marks=[pytest.mark.xfail(
        strict=True, reason=BREAKS[name, case])] if (name, case) in BREAKS else [])
        for name in ENGINES]


def stage_of(engine: str) -> Stage:
    if engine not in STAGES:
        pytest.fail(f"adapters/{engine}: no fake board in the contract suite — put it in "
                    "tests/support/ and its stage in tests/contract/stages.py")
    return STAGES[engine]()


def write_config(folder: Path, engine: str, url: str, extra: str = "") -> Path:
    path = folder / "referee.toml"
    path.write_text(CONFIG.format(engine=engine, url=url, extra=extra), encoding="utf-8")
    return path


@dataclass
class Played:
    """One engine's game as the library read it: after the first read, and after the
    edit and the deletion."""

    first: list[StoredPost]
    then: list[StoredPost]
    game: Game
    lines: list[str]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str], Played]]:
    """Every engine's game, read once per worker (the reads are the slow part)."""
    games: dict[str, Played] = {}

    def play(engine: str) -> Played:
        if engine not in games:
            stage = stage_of(engine)
            folder = tmp_path_factory.mktemp(engine)
            password = lambda user: Secret(stage.password)  # noqa: E731
            with stage.running() as url:
                game = Game.open(write_config(folder, engine, url), folder / "game.db",
                                 clock=lambda: READ_AT)
                game.sync(progress=None, password=password)
                first = game.store.posts()
                stage.edit(EDITED)
                stage.delete(DELETED)
                lines = game.sync(progress=None, password=password, full=True)
            games[engine] = Played(first, game.store.posts(), game, lines)
        return games[engine]

    yield play
    for read in games.values():
        read.game.close()


Row = tuple[int, str, datetime, str]


def shown(posts: list[StoredPost]) -> list[Row]:
    """The posts as the reader saw them: id, author, time (an instant), text."""
    return [(p.post_id, p.author, p.posted_at.astimezone(UTC), p.body_text) for p in posts]


def expected(posts: tuple[Post, ...]) -> list[Row]:
    return [(p.post_id, p.author, p.at.astimezone(UTC), p.text) for p in posts]


def pm_rows(game: Game) -> list[tuple[str, datetime, str, str]]:
    return [(m.sender, m.sent_at.astimezone(UTC), m.subject, m.body_text)
            for m in game.store.pms(folder="inbox")]


@pytest.mark.parametrize("engine", per_engine("posts"))
def test_the_posts_read_are_the_games(played: Callable[[str], Played], engine: str
        ) -> None:
    assert shown(played(engine).first) == expected(POSTS)


@pytest.mark.parametrize("engine", per_engine("edit"))
def test_an_edit_keeps_the_first_text_and_the_new(played: Callable[[str], Played], engine: str
        ) -> None:
    post = next(p for p in played(engine).then if p.post_id == EDITED.post_id)
    assert [r.body_text for r in post.revisions] == [POSTS[3].text, EDITED.text]
    assert post.body_text == EDITED.text


@pytest.mark.parametrize("engine", per_engine("shrunk"))
def test_a_deleted_post_is_noticed_on_the_re_read(played: Callable[[str], Played], engine: str
        ) -> None:
    read = played(engine)
    assert [p.post_id for p in read.then if p.missing_since is not None] == [DELETED]
    assert any(f"#{DELETED}" in line and "пропало" in line for line in read.lines)


@pytest.mark.parametrize("engine", per_engine("pms"))
def test_the_pms_read_are_the_nights(played: Callable[[str], Played], engine: str
        ) -> None:
    assert pm_rows(played(engine).game) == [(m.sender, m.at.astimezone(UTC), m.subject, m.text)
                                            for m in PMS]


@pytest.mark.parametrize("engine", per_engine("tally"))
def test_the_tally_is_the_hosts(played: Callable[[str], Played], engine: str
        ) -> None:
    game = played(engine).game
    day = game.tally_day(1)
    assert {c.target: [v.voter for v in c.voters] for c in day.tally.counts} == COUNTS
    assert day.tally.hanged == HANGED
    assert [d.player for d in game.resolve_night(1).outcome.deaths] == NIGHT_DEATHS


# --------------------------------------------------------------------------- saved pages

@dataclass
class Saved:
    game: Game
    pms_saved: bool


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str], Saved]]:
    """Every engine's game as the host saved it from the browser (Chrome, «Веб-страница,
    полностью»): the topic's pages and the pages of the PMs, read from the folder."""
    games: dict[str, Saved] = {}

    def read(engine: str) -> Saved:
        if engine not in games:
            stage = stage_of(engine)
            folder = tmp_path_factory.mktemp(f"{engine}-saved")
            pages = folder / "страницы"
            with stage.running() as url:
                forum = engines()[engine].open_forum(settings(engine, url),
                                                     lambda user: Secret(stage.password))
                try:
                    topic = stage.topic_pages(url, forum)
                    forum.login()  # type: ignore[attr-defined]
                    for address in [*topic, *stage.pm_pages(url)]:
                        r = forum.http.get(address)  # type: ignore[attr-defined]
                        save(pages, r.content, address, browser="chrome",
                             content_type=r.headers.get("content-type"))
                finally:
                    forum.close()
            config = write_config(folder, engine, url, f'snapshot = "{pages}"\n')
            game = Game.open(config, folder / "game.db", clock=lambda: READ_AT)
            game.sync(progress=None)
            games[engine] = Saved(game, bool(stage.pm_pages(url)))
        return games[engine]

    yield read
    for s in games.values():
        s.game.close()


@pytest.mark.parametrize("engine", per_engine("saved_posts"))
def test_saved_pages_give_the_same_posts(saved: Callable[[str], Saved], engine: str) -> None:
    assert shown(saved(engine).game.store.posts()) == expected(POSTS)


@pytest.mark.parametrize("engine", per_engine("saved_tally"))
def test_saved_pages_give_the_same_tally(saved: Callable[[str], Saved], engine: str) -> None:
    day = saved(engine).game.tally_day(1)
    assert {c.target: [v.voter for v in c.voters] for c in day.tally.counts} == COUNTS
    assert day.tally.hanged == HANGED


@pytest.mark.parametrize("engine", per_engine("saved_pms"))
def test_saved_pms_are_the_nights(saved: Callable[[str], Saved], engine: str) -> None:
    read = saved(engine)
    if not read.pms_saved:
        pytest.skip(f"{engine}: the saved-pages reader takes no PMs (adapters/{engine}/README.md)")
    assert pm_rows(read.game) == [(m.sender, m.at.astimezone(UTC), m.subject, m.text)
                                  for m in PMS]
    assert [d.player for d in read.game.resolve_night(1).outcome.deaths] == NIGHT_DEATHS


# --------------------------------------------------------------------------- the errors

@pytest.fixture
def stage(request: pytest.FixtureRequest) -> Iterator[tuple[Stage, str]]:
    s = stage_of(request.param)
    with s.running() as url:
        yield s, url


def settings(engine: str, url: str) -> ForumSettings:
    return ForumSettings(url=url, engine=engine, timezone="Europe/Moscow", username=HOST,
                         rate_limit=1000.0, retries=0, timeout=5.0)


def russian(error: ForumError) -> bool:
    return bool(re.search("[а-яё]{4}", error.message, re.I))


@pytest.mark.parametrize("stage", per_engine("login"), indirect=True)
def test_a_wrong_password_is_refused_in_russian(stage: tuple[Stage, str]) -> None:
    s, url = stage
    forum = engines()[s.engine].open_forum(settings(s.engine, url),
                                           lambda user: Secret("не тот пароль"))
    try:
        with pytest.raises(LoginFailed) as refused:
            forum.login()  # type: ignore[attr-defined]
    finally:
        forum.close()
    assert russian(refused.value) and "Traceback" not in str(refused.value)


@pytest.mark.parametrize("stage", per_engine("login_first"), indirect=True)
def test_the_right_password_logs_in_before_any_page_is_read(stage: tuple[Stage, str]) -> None:
    # A host reading only the PMs (a bare board address) logs in first thing.
    s, url = stage
    forum = engines()[s.engine].open_forum(settings(s.engine, url),
                                           lambda user: Secret(s.password))
    try:
        forum.login()  # type: ignore[attr-defined]
        listed = forum.fetch_pm_folder("inbox").entries
    finally:
        forum.close()
    assert len(listed) == len(PMS)


@pytest.mark.parametrize("stage", per_engine("missing"), indirect=True)
def test_a_missing_topic_is_told_in_russian(stage: tuple[Stage, str]) -> None:
    s, url = stage
    forum = engines()[s.engine].open_forum(settings(s.engine, s.missing_topic(url)),
                                           lambda user: Secret(s.password))
    try:
        with pytest.raises(TopicNotFound) as missing:
            next(iter(forum.fetch_topic_pages()))
    finally:
        forum.close()
    assert russian(missing.value)


@pytest.mark.parametrize("stage", per_engine("post_once"), indirect=True)
def test_the_hosts_message_reaches_the_forum_once(stage: tuple[Stage, str], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    s, url = stage
    monkeypatch.setenv("REFEREE_PASSWORD", s.password)
    config = load_config(write_config(tmp_path, s.engine, url))
    game = Game.open(config.path, tmp_path / "game.db", clock=lambda: READ_AT)
    try:
        before = s.host_posts()
        message = Outgoing("post", url, "day:1:tally", "topic", REPLY, label="итоги дня 1")
        said: list[str] = []
        for _ in range(2):  # the host runs the command twice
            publish([message], game.store, open_sender=lambda: live_sender(
                config, tmp_path / "game.db"), confirm=None, echo=said.append,
                now=lambda: READ_AT, look=live_look(config, game.store))
    finally:
        game.close()
    new = s.host_posts()[len(before):]
    assert len(new) == 1 and "Итоги дня 1" in new[0]
    assert any("повторно не отправляю" in line for line in said)

