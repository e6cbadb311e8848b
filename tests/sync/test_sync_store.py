"""The game database (issue 3): what a later read reveals is kept, never overwritten."""

from __future__ import annotations

import sqlite3
import stat
from contextlib import closing
from datetime import timedelta
from pathlib import Path

import pytest
from sync_helpers import DAY1, page, post

from referee.core.errors import StoreError
from referee.store import SCHEMA_VERSION, Store

HERE = Path(__file__).parent

T0 = DAY1 + timedelta(days=1)
T1 = T0 + timedelta(hours=1)
T2 = T0 + timedelta(hours=2)


@pytest.fixture
def store(tmp_path: Path) -> Store:
    s = Store.open(tmp_path / "game.db")
    yield s
    s.close()


def texts(store: Store) -> dict[int, str]:
    return {p.post_id: p.body_text for p in store.posts()}


# --------------------------------------------------------------------------- V4 revisions

def test_v4_an_edit_never_erases_the_first_text(store: Store) -> None:
    store.save_topic_page(page(1, 1, post(1, 0), post(2, 5, "Мой голос – Kotik")), T0)
    saved = store.save_topic_page(
        page(1, 1, post(1, 0), post(2, 5, "Мой голос – Шерлок", edit_count=1)), T1
    )
    assert saved.edited_posts == 1
    vote = store.post(2)
    assert vote is not None
    assert vote.body_text == "Мой голос – Шерлок"                    # the page as it is now
    assert [r.body_text for r in vote.revisions] == ["Мой голос – Kotik", "Мой голос – Шерлок"]
    assert vote.first_revision.first_seen == T0                      # first text, first seen
    assert vote.as_post(vote.first_revision).body_text == "Мой голос – Kotik"
    assert vote.edit is not None and vote.edit.count == 1


def test_reading_the_same_text_again_adds_no_revision(store: Store) -> None:
    for when in (T0, T1, T2):
        store.save_topic_page(page(1, 1, post(1, 0, "текст")), when)
    p = store.post(1)
    assert p is not None and len(p.revisions) == 1
    assert (p.first_seen, p.last_seen) == (T0, T2)


def test_a_guest_session_id_in_a_link_is_not_an_edit(store: Store) -> None:
    link = '<a href="./viewtopic.php?p=1&amp;sid={}#p1">Лиса</a>'
    store.save_topic_page(page(1, 1, post(1, 0, html=link.format("a" * 32))), T0)
    saved = store.save_topic_page(page(1, 1, post(1, 0, html=link.format("b" * 32))), T1)
    assert saved.edited_posts == 0


def test_a_page_read_twice_unchanged_is_reported_unchanged(store: Store) -> None:
    first = store.save_topic_page(page(1, 1, post(1, 0)), T0)
    again = store.save_topic_page(page(1, 1, post(1, 0)), T1)
    assert (first.unchanged, first.new_posts) == (False, 1)
    assert (again.unchanged, again.new_posts) == (True, 0)


# --------------------------------------------------------------------------- deleted posts

def test_a_deleted_post_is_marked_missing_not_removed(store: Store) -> None:
    store.save_topic_page(page(1, 1, post(1, 0), post(2, 5), post(3, 9)), T0)
    saved = store.save_topic_page(page(1, 1, post(1, 0), post(3, 9)), T1)
    assert saved.missing_posts == 1
    gone = store.post(2)
    assert gone is not None and gone.missing_since == T1
    assert [p.post_id for p in store.posts(include_missing=False)] == [1, 3]
    assert [p.post_id for p in store.posts()] == [1, 2, 3]


def test_a_post_that_moved_to_the_previous_page_is_not_missing(store: Store) -> None:
    # Page 2 held posts 4–6. Post 2 on page 1 was deleted, so post 4 slid onto page 1;
    # only page 2 is read again (an incremental sync): post 4 is not lost.
    store.save_topic_page(page(1, 2, post(1, 0), post(2, 1), post(3, 2)), T0)
    store.save_topic_page(page(2, 2, post(4, 3), post(5, 4), post(6, 5)), T0)
    saved = store.save_topic_page(page(2, 2, post(5, 4), post(6, 5), post(7, 6)), T1)
    assert saved.missing_posts == 0
    assert saved.new_posts == 1


def test_a_post_seen_again_is_no_longer_missing(store: Store) -> None:
    store.save_topic_page(page(1, 1, post(1, 0), post(2, 5)), T0)
    store.save_topic_page(page(1, 1, post(1, 0)), T1)
    store.save_topic_page(page(1, 1, post(1, 0), post(2, 5)), T2)   # a moderator restored it
    p = store.post(2)
    assert p is not None and p.missing_since is None


def test_when_the_topic_shrinks_later_pages_stop_being_the_cursor(store: Store) -> None:
    store.save_topic_page(page(1, 2, post(1, 0), post(2, 1), post(3, 2)), T0)
    store.save_topic_page(page(2, 2, post(4, 3)), T0)
    assert store.last_synced_page(3) == 2
    store.save_topic_page(page(1, 1, post(1, 0), post(2, 1), post(3, 2)), T1)
    assert store.last_synced_page(3) == 1
    p = store.post(4)
    assert p is not None and p.missing_since == T1


# --------------------------------------------------------------------------- pages, cursor

def test_the_page_cursor_remembers_what_each_page_held(store: Store) -> None:
    assert store.last_synced_page(3) is None
    store.save_topic_page(page(1, 2, post(1, 0), post(2, 1), post(3, 2)), T0, url="u1")
    store.save_topic_page(page(2, 2, post(4, 3)), T0, url="u2")
    assert store.last_synced_page(3) == 2
    assert store.topic_per_page(3) == 3
    info = store.page_info(3, 2)
    assert info is not None and info["post_ids"] == [4] and info["url"] == "u2"


def test_posts_between_two_instants(store: Store) -> None:
    store.save_topic_page(page(1, 1, post(1, 0), post(2, 60), post(3, 120)), T0)
    got = store.posts(since=DAY1 + timedelta(minutes=60), until=DAY1 + timedelta(minutes=120))
    assert [p.post_id for p in got] == [2]          # since inclusive, until exclusive (T2)


def test_a_page_is_stored_whole_or_not_at_all(store: Store) -> None:
    bad = post(2, 5)
    broken = type(bad)(**{**{f: getattr(bad, f) for f in bad.__slots__},
                          "posted_at": bad.posted_at.replace(tzinfo=None)})
    with pytest.raises(StoreError):
        store.save_topic_page(page(1, 1, post(1, 0), broken), T0)
    assert store.posts() == []
    assert store.last_synced_page(3) is None


# --------------------------------------------------------------------------- host decisions

def test_overrides_are_always_recorded_in_order(store: Store) -> None:
    store.add_override("vote.reject", "post:2", {"post_id": 2}, reason="голос без аргумента")
    store.add_override("excuse", "Ёжик", {"day": 2}, reason="предупредил заранее")
    store.add_override("vote.accept", "post:2", {"post_id": 2}, reason="передумал")
    assert [o.kind for o in store.overrides()] == ["vote.reject", "excuse", "vote.accept"]
    assert [o.kind for o in store.overrides("vote.")] == ["vote.reject", "vote.accept"]
    assert store.overrides("excuse")[0].payload == {"day": 2}
    assert store.overrides(subject="Ёжик")[0].reason == "предупредил заранее"
    with pytest.raises(StoreError):
        store.add_override("Drop Table", "x")


def test_a_result_is_written_once(store: Store) -> None:
    first = store.record_result("day", 1, {"hanged": "Mr. Smith"})
    again = store.record_result("day", 1, {"hanged": "Лиса"})
    assert again == first
    assert store.result("day", 1).payload == {"hanged": "Mr. Smith"}
    assert store.result("night", 1) is None
    with pytest.raises(StoreError):
        store.record_result("evening", 1, {})


def test_sent_keys_make_sending_idempotent(store: Store) -> None:
    assert store.was_sent("day1-result") is None
    store.mark_sent("day1-result", "post", "topic 3", "Итоги дня 1", forum_id=120)
    store.mark_sent("day1-result", "post", "topic 3", "другой текст")
    rec = store.was_sent("day1-result")
    assert rec is not None and (rec.body, rec.forum_id) == ("Итоги дня 1", 120)


# --------------------------------------------------------------------------- the file

def test_the_database_file_is_private_and_in_wal_mode(tmp_path: Path) -> None:
    with Store.open(tmp_path / "game.db") as s:
        assert s.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert stat.S_IMODE((tmp_path / "game.db").stat().st_mode) == 0o600


def columns(store: Store, table: str) -> set[str]:
    return {r[1] for r in store.conn.execute(f"PRAGMA table_info({table})")}


def test_an_older_database_gains_new_columns_and_keeps_its_rows(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with Store.open(path) as s:
        s.save_topic_page(page(1, 1, post(1, 0)), T0)
        s.conn.execute("ALTER TABLE pages DROP COLUMN per_page")   # as an older version made it
    with Store.open(path) as s:
        assert "per_page" in columns(s, "pages")
        assert [p.post_id for p in s.posts()] == [1]
        assert s.schema_version() == SCHEMA_VERSION


def schema(conn: sqlite3.Connection) -> list[tuple[str, str, str]]:
    return conn.execute("SELECT type, name, sql FROM sqlite_master ORDER BY name").fetchall()


def test_a_database_made_by_sqlite_utils_opens_as_it_is(tmp_path: Path) -> None:
    # The store made its tables through sqlite-utils until issue 30 (item 3): plain sqlite3
    # now makes the very same ones, and finds nothing to add to a database made before.
    old = tmp_path / "old.db"
    with closing(sqlite3.connect(old)) as conn:
        conn.executescript((HERE / "sqlite_utils_schema.sql").read_text(encoding="utf-8"))
        made_before = schema(conn)
        posts_before = {r[1] for r in conn.execute("PRAGMA table_info(posts)")}
    # Issue 30 (recorded commands flat in the game's length) added one column to posts
    # («written») and two covering indexes: opening the older database adds exactly those.
    added = {"idx_posts_topic_id_posted_at_post_id_written",
             "idx_posts_author_missing_since_posted_at_post_id"}
    with Store.open(old) as s:
        opened = {name: (kind, sql) for kind, name, sql in schema(s.conn)}
        opened_posts = columns(s, "posts")
        assert s.schema_version() == SCHEMA_VERSION
    before = {name: (kind, sql) for kind, name, sql in made_before}
    assert set(opened) - set(before) == added
    assert {n for n in before if opened[n] != before[n]} == {"posts"}
    assert opened_posts - posts_before == {"written"} and posts_before <= opened_posts
    with Store.open(tmp_path / "new.db") as s:
        made_now = {name: (kind, sql) for kind, name, sql in schema(s.conn)}
        assert columns(s, "posts") == opened_posts
    assert {n: v for n, v in made_now.items() if n != "posts"} == {
        n: v for n, v in opened.items() if n != "posts"}


def test_a_database_from_a_newer_referee_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    with Store.open(path) as s:
        s.set_meta("schema_version", str(SCHEMA_VERSION + 1))
    with pytest.raises(StoreError, match="более новой версией referee"):
        Store.open(path)


def test_a_file_that_is_not_a_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_bytes(b"this is not sqlite " * 100)
    with pytest.raises(StoreError, match="не база referee"):
        Store.open(path)


def test_the_store_has_no_place_for_secrets(tmp_path: Path) -> None:
    with Store.open(tmp_path / "game.db") as s:
        tables = [r[0] for r in s.conn.execute("SELECT name FROM sqlite_master WHERE "
                                                "type='table'")]
        every = {c for t in tables for c in columns(s, t)}
    assert "body_html" in every and not every & {"password", "cookie", "sid", "token"}


def test_a_windows_mark_changes_whenever_a_save_writes_one_of_its_posts(store: Store) -> None:
    """Issue 30: a recorded day's voters are trusted while its posts' mark is the one
    recorded. Any save that writes a post of the window (read again, edited, gone, back)
    gives a new mark, and so does a post moved in or out; a save of other posts does not."""
    early, late = (DAY1, DAY1 + timedelta(minutes=30)), (DAY1 + timedelta(minutes=30), None)
    store.save_topic_page(page(1, 2, post(1, 0), post(2, 5), post(3, 10)), T0)
    store.save_topic_page(page(2, 2, post(4, 40), post(5, 45)), T0)
    marks = [store.window_mark(*early)]
    store.save_topic_page(page(2, 2, post(4, 40), post(5, 45, "правка", edit_count=1)), T1)
    assert store.window_mark(*early) == marks[-1]      # another window's posts written
    assert store.window_mark(*late) != store.window_mark(*early)
    for again in (page(1, 2, post(1, 0), post(2, 5), post(3, 10)),           # the same
                  page(1, 2, post(1, 0), post(2, 5, "правка", edit_count=1), post(3, 10)),
                  page(1, 2, post(1, 0), post(3, 10)),                       # 2 is gone
                  page(1, 2, post(1, 0), post(2, 5), post(3, 10)),           # and back
                  page(1, 2, post(1, 0), post(2, 5), post(3, 50))):          # 3 moved out
        store.save_topic_page(again, T1)
        assert store.window_mark(*early) not in marks
        marks.append(store.window_mark(*early))
