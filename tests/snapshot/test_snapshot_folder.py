"""The engine-neutral half of ``[forum] snapshot`` (adapters/snapshot.py), on the real phpBB
pages of fixtures/phpbb33-ru: what a browser adds to a saved page, the files that are not
pages, the encodings, which engine a folder is of, and the refusals — a folder of another
engine, of another topic, of no topic page at all — each saying what the folder holds."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support.browser import Browser, save

from adapters.base import ForumSettings
from adapters.phpbb.snapshot import SnapshotForum
from adapters.registry import engine_for, open_forum
from adapters.snapshot import saved_from
from referee.core.errors import ConfigError, TopicNotFound
from referee.core.kernel import PageCursor

PHPBB = Path(__file__).resolve().parents[2] / "fixtures" / "phpbb33-ru"
BOARD = "http://127.0.0.1:8733/"
TOPIC = f"{BOARD}viewtopic.php?t=3"
PAGES = {1: "topic_p1_host.html", 2: "topic_p2_host.html", 3: "topic_p3_host.html",
         4: "topic_p4_host.html"}


def save_phpbb(folder: Path, name: str, browser: Browser, url: str | None = None) -> Path:
    return save(folder, (PHPBB / name).read_bytes(), url or f"{BOARD}{name}", browser=browser)


def topic_folder(folder: Path, browser: Browser = "chrome") -> Path:
    for n, name in PAGES.items():
        save_phpbb(folder, name, browser, f"{TOPIC}&start={(n - 1) * 20}")
    return folder


@pytest.mark.parametrize(("head", "want"), [
    ("<!DOCTYPE html>\n<!-- saved from url=(0038)https://forum.test/viewtopic.php?t=3 -->",
     "https://forum.test/viewtopic.php?t=3"),
    ("<!-- saved from url=(0044)https://forum.test/viewtopic.php?t=3&amp;p=7 -->\n<html>",
     "https://forum.test/viewtopic.php?t=3&p=7"),
    ("<!-- saved from url=(0014)about:internet -->", None),  # IE's for a local page
    ("<html><!-- a comment --></html>", None),
])
def test_the_address_a_browser_noted(head: str, want: str | None) -> None:
    assert saved_from(head + "<body></body></html>") == want


@pytest.mark.parametrize("browser", ["chrome", "firefox", "html_only", "no_scripts"])
def test_pages_saved_by_any_browser_read_as_the_live_pages(browser: Browser,
                                                           tmp_path: Path) -> None:
    folder = topic_folder(tmp_path / "p", browser)
    forum = open_forum(ForumSettings(url=TOPIC, snapshot=folder, timezone="Europe/Moscow"))
    pages = list(forum.fetch_topic_pages(PageCursor(1)))
    assert [p.page for p in pages] == [1, 2, 3, 4] and sum(len(p.posts) for p in pages) == 70
    noted = forum.topic_page_url(2)
    assert noted == (f"{TOPIC}&start=20" if browser in ("chrome", "no_scripts") else "")


def test_what_is_not_a_page_is_listed_with_its_reason(tmp_path: Path) -> None:
    folder = topic_folder(tmp_path / "p")
    (folder / "archive.mhtml").write_text("MIME-Version: 1.0", encoding="utf-8")
    (folder / "notes.txt").write_text("ход ночи", encoding="utf-8")
    (folder / ".DS_Store").write_bytes(b"\0")
    save_phpbb(folder, "login.html", "chrome")
    forum = SnapshotForum(folder, forum=ForumSettings(url=TOPIC))
    why = {p.name: w for p, w in forum.skipped}
    assert "archive.mhtml" in why and "веб-архив" in why["archive.mhtml"]
    assert why["notes.txt"] == "не сохранённая страница (не .html)"
    assert all("рядом со страницей" in w for n, w in why.items() if n.endswith("_files"))
    assert ".DS_Store" not in why
    assert [w for n, w in why.items() if n.endswith(".html")] == [
        "это не страница темы и не ЛС (login)"]


def test_a_page_saved_in_its_own_encoding_or_rewritten_to_utf8_reads_the_same(
        tmp_path: Path) -> None:
    text = (PHPBB / "topic_p1_host.html").read_text(encoding="utf-8")
    cp1251 = text.replace('charset="utf-8"', 'charset="windows-1251"').replace(
        "charset=utf-8", "charset=windows-1251").encode("cp1251", "xmlcharrefreplace")
    for browser in ("firefox", "chrome"):
        folder = tmp_path / browser
        save(folder, cp1251, TOPIC, browser=browser, content_type="text/html; charset=cp1251")
        (page,) = SnapshotForum(folder, forum=ForumSettings(url=TOPIC)).fetch_topic_pages()
        assert page.posts[0].author == "Ведущий" and "Мафия" in page.title


def test_a_file_no_encoding_reads_right_is_skipped_never_stored_as_mojibake(
        tmp_path: Path) -> None:
    folder = topic_folder(tmp_path / "p")
    spoilt = (PHPBB / "topic_p1_host.html").read_bytes().replace(
        b'charset="utf-8"', b'charset="koi8-r"')
    broken = folder / "сломанная.html"
    broken.write_bytes(spoilt.replace("Ведущий".encode(), "Ведущий".encode() + b"\xff\xfe"))
    forum = SnapshotForum(folder, forum=ForumSettings(url=TOPIC))
    assert dict(forum.skipped)[broken].startswith("не понять наверняка, в какой он кодировке")
    assert sum(len(tp.posts) for tp in forum.fetch_topic_pages()) == 70


# --------------------------------------------------------------------------- which engine

def test_the_engine_of_a_folder_is_the_one_most_pages_are_of(tmp_path: Path) -> None:
    folder = topic_folder(tmp_path / "p")
    xf = ('<!DOCTYPE html><html id="XF" data-template="thread_view"><head><title>Другая'
          '</title></head><body></body></html>')
    save(folder, xf.encode("utf-8"), "https://xf.test/threads/x.5/")
    assert engine_for(ForumSettings(snapshot=folder)).name == "phpbb"
    forum = open_forum(ForumSettings(snapshot=folder, timezone="Europe/Moscow"))
    assert "страница форума на другом движке (XenForo)" in dict(
        (p.name, w) for p, w in forum.skipped).values()


@pytest.mark.parametrize(("content", "said"), [
    (None, "нет ни одной сохранённой страницы форума"),
    (b"<html><body>just a page</body></html>", "не похожа на страницу форума"),
])
def test_a_folder_no_engine_claims_is_refused_in_words(tmp_path: Path, content: bytes | None,
                                                       said: str) -> None:
    folder = tmp_path / "p"
    folder.mkdir()
    if content is not None:
        (folder / "page.html").write_bytes(content)
    with pytest.raises(ConfigError, match=said):
        open_forum(ForumSettings(snapshot=folder))


def test_as_many_pages_of_two_engines_ask_for_the_engine(tmp_path: Path) -> None:
    folder = tmp_path / "p"
    save_phpbb(folder, "topic_p1_host.html", "chrome")
    xf = '<html id="XF"><head><title>Другая</title></head><body></body></html>'
    save(folder, xf.encode("utf-8"), "https://xf.test/threads/x.5/")
    with pytest.raises(ConfigError, match="поровну страниц разных движков"):
        engine_for(ForumSettings(snapshot=folder))


# --------------------------------------------------------------------------- refusals

def test_a_folder_of_another_engine_is_refused_saying_whose_pages_it_holds(
        tmp_path: Path) -> None:
    folder = topic_folder(tmp_path / "p")
    with pytest.raises(ConfigError) as refused:
        open_forum(ForumSettings(url="https://xf.test/threads/mafija.5/", snapshot=folder))
    assert refused.value.message.endswith(
        "сохранены страницы форума на phpBB 3.x, а referee читает её как форум на XenForo")


def test_a_folder_of_another_topic_is_refused_saying_which_it_holds(tmp_path: Path) -> None:
    folder = topic_folder(tmp_path / "p")
    shutil.copy(PHPBB / "pm_8.html", folder / "pm_8.html")
    with pytest.raises(ConfigError) as refused:
        SnapshotForum(folder, forum=ForumSettings(url=f"{BOARD}viewtopic.php?t=9"))
    assert "нет страниц темы 9, которую называет [forum] url: в ней страницы темы 3 " \
           "«Мафия: игра 2» (стр. 1, 2, 3, 4), ЛС: 1" in refused.value.message


def test_a_folder_without_a_topic_page_says_what_it_holds_when_the_topic_is_read(
        tmp_path: Path) -> None:
    folder = tmp_path / "p"
    for name in ("pm_8.html", "pm_9.html", "pm_inbox.html", "login.html"):
        save_phpbb(folder, name, "firefox")
    forum = SnapshotForum(folder, forum=ForumSettings(url=TOPIC))
    assert [pm.pm_id for pm in forum.fetch_pm_folder("inbox").entries] == [8, 9]
    with pytest.raises(TopicNotFound, match=r"нет ни одной сохранённой страницы темы игры "
                                            r"\(в ней ЛС: 2, других страниц: 1\)"):
        list(forum.fetch_topic_pages())
