"""Which engine reads a board: ``viewtopic.php?id=`` is MyBB.ru's whatever the domain, the
setting forces it, and the first page decides where phpBB claims the address too."""

from __future__ import annotations

from pathlib import Path

import pytest

from adapters.base import ForumSettings
from adapters.registry import engine_for, engines, topic_id
from referee.config.game import load_config
from referee.core.errors import ConfigError

MYBB_PAGE = ('<html><head><script>var BoardID = 1700;</script></head><body>'
             '<div id="pun-viewtopic" class="punbb"><div id="p5" class="post topicpost" '
             'data-posted="1795186800"></div></div></body></html>')
PHPBB_PAGE = '<html><body id="phpbb" class="section-viewtopic"></body></html>'
FLUXBB_PAGE = '<html><body><div id="punwrap"><div class="blockpost rowodd" id="p1">'


@pytest.mark.parametrize("url", [
    "https://gipermafia.rolka.me/viewtopic.php?id=149",
    "https://mafia.rusff.me/viewtopic.php?id=12&p=3#p500",
    "https://forum-mafia-club.ru/viewtopic.php?id=7",  # a board on its own domain
    "http://127.0.0.1:8080/forum/viewtopic.php?id=317",
])
def test_a_punbb_style_topic_is_mybbru_whatever_the_domain(url: str) -> None:
    assert engine_for(ForumSettings(url=url)).name == "mybbru"


def test_phpbb_addresses_stay_phpbb() -> None:
    assert engine_for(ForumSettings(url="https://f.example/viewtopic.php?t=3")).name == "phpbb"
    assert engine_for(ForumSettings(url="https://f.example/viewtopic.php?f=2&t=3")).name == \
        "phpbb"


def test_the_setting_forces_the_engine() -> None:
    # A bare board address (PMs only) looks like phpBB's; the host says which it is.
    settings = ForumSettings(url="https://gipermafia.rolka.me/", engine="mybbru")
    assert engine_for(settings).name == "mybbru"


def test_the_config_accepts_the_engine(tmp_path: Path) -> None:
    cfg = tmp_path / "referee.toml"
    cfg.write_text('[game]\nhost = "Ведущий"\n[forum]\nengine = "mybbru"\n'
                   'url = "https://x.rolka.me/viewtopic.php?id=149"\ntimezone = "UTC"\n'
                   '[players]\n"A" = "citizen"\n',
                   encoding="utf-8")
    assert load_config(cfg).forum.board.engine == "mybbru"


def test_a_post_link_is_decided_by_the_first_page_then_refused() -> None:
    url = "https://gipermafia.rolka.me/viewtopic.php?pid=5#p5"
    assert {e.name for e in engines().values() if e.claims_url(url)} == {"mybbru", "phpbb"}
    assert engine_for(ForumSettings(url=url), lambda u: MYBB_PAGE).name == "mybbru"
    assert engine_for(ForumSettings(url=url), lambda u: PHPBB_PAGE).name == "phpbb"
    with pytest.raises(ConfigError, match="одно сообщение"):
        topic_id(url, "mybbru")


def test_the_topic_number_is_its_id() -> None:
    assert topic_id("https://gipermafia.rolka.me/viewtopic.php?id=149&p=2") == 149


def test_pages_tell_mybbru_from_phpbb_and_fluxbb() -> None:
    claims_page = engines()["mybbru"].claims_page
    assert claims_page is not None and claims_page(MYBB_PAGE)
    assert not claims_page(PHPBB_PAGE) and not claims_page(FLUXBB_PAGE)
