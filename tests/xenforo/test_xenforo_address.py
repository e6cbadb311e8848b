"""XenForo addresses, and the registry choosing the engine by them (or by ``[forum]
engine``)."""

from __future__ import annotations

import pytest

from adapters.base import ForumSettings
from adapters.registry import engine_for, post_url, topic_id
from adapters.xenforo.urls import parse_thread_url
from referee.core.errors import ConfigError
from referee.render.tally import post_link


@pytest.mark.parametrize(("url", "prefix", "thread", "slug", "page2"), [
    ("https://ne-kurim.ru/forum/threads/mafija-119.69072/", "https://ne-kurim.ru/forum/",
     69072, "mafija-119", "https://ne-kurim.ru/forum/threads/mafija-119.69072/page-2"),
    ("https://ne-kurim.ru/forum/threads/mafija-119.69072/page-7#post-5", "https://ne-kurim.ru/"
     "forum/", 69072, "mafija-119", "https://ne-kurim.ru/forum/threads/mafija-119.69072/page-2"),
    ("https://dota2.ru/forum/threads/mafija-2-0.1234567/post-99", "https://dota2.ru/forum/",
     1234567, "mafija-2-0", "https://dota2.ru/forum/threads/mafija-2-0.1234567/page-2"),
    ("https://board.example/index.php?threads/mafija.12/", "https://board.example/index.php?",
     12, "mafija", "https://board.example/index.php?threads/mafija.12/page-2"),
    ("https://board.example/threads/12/", "https://board.example/", 12, "",
     "https://board.example/threads/12/page-2"),
    ("https://xenforo.com/community/threads/a-dark-theme-option.8276/",
     "https://xenforo.com/community/", 8276, "a-dark-theme-option",
     "https://xenforo.com/community/threads/a-dark-theme-option.8276/page-2"),
])
def test_thread_addresses(url: str, prefix: str, thread: int, slug: str, page2: str) -> None:
    board, address = parse_thread_url(url)
    assert board.prefix == prefix
    assert address is not None and (address.thread_id, address.slug) == (thread, slug)
    assert address.page_url(2) == page2
    assert address.page_url(1) == page2.removesuffix("page-2")


def test_a_post_link_is_refused_with_a_hint() -> None:
    with pytest.raises(ConfigError, match="одно сообщение"):
        parse_thread_url("https://board.example/posts/123/")


@pytest.mark.parametrize("url", [
    "https://ne-kurim.ru/forum/threads/mafija-119.69072/",
    "https://board.example/index.php?threads/mafija.12/page-3",
])
def test_the_address_picks_xenforo(url: str) -> None:
    assert engine_for(ForumSettings(url=url)).name == "xenforo"


@pytest.mark.parametrize("url", [
    "https://forum.example/viewtopic.php?t=3",
    "https://forum.example/viewtopic.php?f=2&t=3&start=20",
])
def test_phpbb_addresses_stay_phpbb(url: str) -> None:
    assert engine_for(ForumSettings(url=url)).name == "phpbb"


def test_the_engine_can_be_forced() -> None:
    # A bare board address says nothing: [forum] engine = "xenforo" decides.
    assert engine_for(ForumSettings(url="https://board.example/forum/",
                                    engine="xenforo")).name == "xenforo"


def test_topic_numbers_through_the_registry() -> None:
    assert topic_id("https://ne-kurim.ru/forum/threads/mafija-119.69072/") == 69072
    assert topic_id("https://board.example/forum/", "xenforo") is None


def test_post_links_in_outputs_use_xenforos_own_addresses() -> None:
    topic = "https://ne-kurim.ru/forum/threads/mafija-119.69072/"
    assert post_url(topic, 5) == "https://ne-kurim.ru/forum/posts/5/"
    assert post_link(5, topic) == "https://ne-kurim.ru/forum/posts/5/"
    assert post_link(5, "https://board.example/index.php?threads/m.1/") == \
        "https://board.example/index.php?posts/5/"
    assert post_link(5, "https://forum.example/viewtopic.php?t=3") == \
        "https://forum.example/viewtopic.php?p=5#p5"
