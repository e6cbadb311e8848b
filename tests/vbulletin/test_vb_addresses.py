"""vBulletin's thread addresses, engine detection from the URL (and from the first page when
an address fits two engines), and ``[forum] engine = "vbulletin"``."""

from __future__ import annotations

import pytest

from adapters.base import ForumSettings
from adapters.registry import engine_for, topic_id
from adapters.vbulletin.urls import ambiguous, claims, parse_thread_url
from referee.core.errors import ConfigError

VB_PAGE = '<html><head><meta name="generator" content="vBulletin 4.2.2" /></head></html>'
XF_PAGE = '<html id="XF" data-app="public"><body>XenForo</body></html>'


@pytest.mark.parametrize(("url", "topic", "page", "form"), [
    ("https://forum.igromania.ru/showthread.php?t=1234567&page=3", 1234567, 3, "query"),
    ("https://f.test/forum/showthread.php?t=63", 63, 1, "query"),
    ("https://f.test/showthread.php?63-Форумная-мафия/page2", 63, 2, "query_slug"),
    ("https://f.test/forums/showthread.php/9687-Legendary-military/page2", 9687, 2, "path"),
    ("https://www.mafiauniverse.com/forums/threads/6604-Modbot-Setups/page3", 6604, 3,
     "threads"),
    ("https://f.test/forum/threads/45708", 45708, 1, "threads"),
    ("https://fandompost.vbulletin.net/forum/anime/general/727744-isekai-quartet/page2",
     727744, 2, "vb5"),
])
def test_thread_addresses_in_every_vbulletin_form(url: str, topic: int, page: int,
                                                  form: str) -> None:
    address = parse_thread_url(url)
    assert (address.topic_id, address.page, address.form) == (topic, page, form)
    assert claims(url)
    again = parse_thread_url(address.page_url(5))
    assert (again.topic_id, again.page, again.form) == (topic, 5, form)
    assert parse_thread_url(address.page_url(1)).page == 1


def test_page_addresses_keep_the_hosts_form() -> None:
    assert parse_thread_url("https://f.test/forum/showthread.php?t=63").page_url(2) == \
        "https://f.test/forum/showthread.php?t=63&page=2"
    assert parse_thread_url("https://f.test/threads/63-Мафия/page4").page_url(2) == \
        "https://f.test/threads/63-Мафия/page2"
    address = parse_thread_url("https://f.test/forum/showthread.php/63-Мафия")
    assert address.root == "https://f.test/forum/"
    assert address.page_url(3) == "https://f.test/forum/showthread.php/63-Мафия/page3"


@pytest.mark.parametrize("url", [
    "https://xf.test/threads/mafia-game.123/",          # XenForo
    "https://xf.test/threads/63-mafia.123/page-2",       # XenForo, a title starting with digits
    "https://mybb.test/showthread.php?tid=12",           # MyBB
    "https://phpbb.test/viewtopic.php?t=3",              # phpBB
    "https://smf.test/index.php?topic=5.0",              # SMF
    "https://ucoz.test/forum/2-15-1",                    # uCoz
    "https://ipb.test/topic/123-mafia/",                 # Invision
])
def test_other_engines_addresses_are_not_claimed(url: str) -> None:
    assert not claims(url)


def test_engine_is_detected_from_the_address() -> None:
    for url in ("https://f.test/showthread.php?t=63", "https://f.test/threads/63-mafia",
                "https://f.test/forum/private.php"):
        assert engine_for(ForumSettings(url=url)).name == "vbulletin"
    assert engine_for(ForumSettings(url="https://f.test/viewtopic.php?t=3")).name == "phpbb"
    assert topic_id("https://f.test/showthread.php/63-mafia/page2") == 63


def test_threads_with_a_bare_number_is_ambiguous_and_the_first_page_decides() -> None:
    url = "https://f.test/threads/63"
    assert ambiguous(url) and not ambiguous("https://f.test/threads/63-mafia")
    settings = ForumSettings(url=url)
    # Alone among the engines present vBulletin claims it; with a XenForo engine beside it the
    # page decides, and a XenForo page is not claimed by vBulletin.
    from adapters.vbulletin import claims_page
    assert claims_page(VB_PAGE) and not claims_page(XF_PAGE)
    assert engine_for(settings, lambda u: VB_PAGE).name == "vbulletin"


def test_the_host_may_force_the_engine() -> None:
    forced = ForumSettings(url="https://f.test/", engine="vbulletin")
    assert engine_for(forced).name == "vbulletin"
    assert topic_id("https://f.test/", "vbulletin") is None


def test_a_link_to_one_post_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="одно сообщение"):
        parse_thread_url("https://f.test/showthread.php?p=365272#post365272")
    with pytest.raises(ConfigError, match="не номер темы"):
        parse_thread_url("https://f.test/showthread.php?t=abc")
    with pytest.raises(ConfigError, match="не адрес"):
        parse_thread_url("showthread.php?t=1")
