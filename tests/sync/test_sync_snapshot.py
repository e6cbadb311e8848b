"""Offline source (``[forum] snapshot``): pages a host saved from the browser go through
the same parser and the same store as the live forum."""

from __future__ import annotations

import os
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from support.phpbb.respx_board import FIXTURES

from adapters.phpbb.snapshot import SnapshotForum, saved_pm_folder
from referee.config.game import Config
from referee.core.errors import ConfigError, TopicNotFound
from referee.core.kernel import Forum, PageCursor
from referee.store import Store
from referee.store.sync import open_adapter, sync_pms, sync_topic

SAVED = [f"topic_p{n}_host.html" for n in range(1, 5)] + [
    f"pm_{n}.html" for n in range(8, 20)] + ["pm_inbox.html", "login.html"]


def saved_folder(tmp_path: Path, names: list[str]) -> Path:
    folder = tmp_path / "saved"
    folder.mkdir(exist_ok=True)
    for name in names:
        shutil.copy(FIXTURES / name, folder / name)
    return folder


def snapshot_config(config: Config, folder: Path, url: str | None = None) -> Config:
    board = replace(config.forum.board, snapshot=folder, url=url)
    return replace(config, forum=replace(config.forum, board=board))


def test_a_saved_topic_is_synced_like_the_live_one(
    tmp_path: Path, config: Config, store: Store
) -> None:
    cfg = snapshot_config(config, saved_folder(tmp_path, SAVED))
    source = open_adapter(cfg)
    assert isinstance(source, SnapshotForum) and isinstance(source, Forum)
    report = sync_topic(cfg, store, source)
    assert (report.pages_fetched, report.new_posts, report.requests) == (4, 70, 0)
    assert report.topic_id == 3


def test_saved_pms_are_stored_and_their_folder_is_known(
    tmp_path: Path, config: Config, store: Store
) -> None:
    cfg = snapshot_config(config, saved_folder(tmp_path, SAVED))
    source = open_adapter(cfg)
    report = sync_pms(cfg, store, source, sent=True)
    assert report.new_pms == 12
    assert [pm.pm_id for pm in store.pms(folder="sentbox")] == [19]
    assert len(store.pms(folder="inbox")) == 11
    # The saved inbox lists the other game's PMs 1–7, whose pages were not saved.
    assert isinstance(source, SnapshotForum)
    assert [e.pm_id for e in source.not_saved] == [1, 2, 3, 5, 6, 7]


def test_files_that_are_not_topic_or_pm_pages_are_skipped_and_named(tmp_path: Path,
                                                                    config: Config) -> None:
    source = SnapshotForum(saved_folder(tmp_path, SAVED), forum=config.forum.settings())
    assert [p.name for p, _ in source.skipped] == ["login.html"]


@pytest.mark.parametrize(
    ("url", "expect"),
    [
        ("https://forum.test/viewtopic.php?t=3", 70),
        (None, ConfigError),                 # two topics and no way to tell the game
    ],
)
def test_pages_of_another_topic_in_the_folder(
    tmp_path: Path, config: Config, store: Store, url: str | None, expect: object
) -> None:
    # posting_reply_success.html is a page of the board's other topic (t=1).
    folder = saved_folder(tmp_path, SAVED + ["posting_reply_success.html"])
    cfg = snapshot_config(config, folder, url)
    if expect is ConfigError:
        with pytest.raises(ConfigError, match=r"страницы нескольких тем \(1, 3\)"):
            open_adapter(cfg)
        return
    report = sync_topic(cfg, store, open_adapter(cfg))
    assert report.new_posts == expect


@pytest.mark.parametrize("touch_first", [True, False])
def test_a_page_saved_twice_is_read_in_both_versions_oldest_first(
    tmp_path: Path, config: Config, store: Store, touch_first: bool
) -> None:
    # V4 needs the text before the edit: both saved versions of page 3 are read, the one
    # without the edit notice first — whatever the files' times say (a copy resets them).
    folder = saved_folder(tmp_path, ["topic_p3_host_before_edit.html", "topic_p3_host.html"])
    older = "topic_p3_host_before_edit.html" if touch_first else "topic_p3_host.html"
    os.utime(folder / older, (1_000_000, 1_000_000))
    source = SnapshotForum(folder, forum=config.forum.settings())
    before, after = source.fetch_topic_pages(PageCursor(1))
    assert any(p.body_text.endswith("Мой голос – Kotik") for p in before.posts)
    assert any(p.body_text.endswith("Мой голос – Шерлок") for p in after.posts)
    sync_topic(snapshot_config(config, folder, None), store, source)
    texts = [r.body_text.splitlines()[-1] for r in store.post(126).revisions]
    assert texts == ["Мой голос – Kotik", "Мой голос – Шерлок"]


def test_a_saved_pm_knows_the_folder_it_was_opened_from() -> None:
    assert saved_pm_folder((FIXTURES / "pm_19.html").read_text()) == "sentbox"
    assert saved_pm_folder((FIXTURES / "pm_8.html").read_text()) == "inbox"


def test_an_empty_or_missing_folder_says_what_to_save(tmp_path: Path, config: Config) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(TopicNotFound, match="нет ни одной сохранённой страницы"):
        list(SnapshotForum(empty, forum=config.forum.settings()).fetch_topic_pages(PageCursor(1)))
    with pytest.raises(ConfigError, match="папки \\[forum\\] snapshot .* нет"):
        SnapshotForum(tmp_path / "nowhere", forum=config.forum.settings())
