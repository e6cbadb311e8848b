"""What the SMF engine does to a post body beyond what the real pages show (SMF 2.1
``parse_bbc`` markup for ``[code]``, session ids in links, smiley sets), and which pages
and addresses it claims."""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser
from smf_pages import html

import adapters.phpbb as phpbb
import adapters.smf as smf
from adapters.smf.topic import normalise_body
from adapters.smf.urls import parse_topic_url, strip_session
from referee.core.markup import plain_text


def _body(inner: str) -> str:
    node = LexborHTMLParser(f'<div class="inner" id="msg_5">{inner}</div>').css_first("div")
    assert node is not None
    return normalise_body(node)


def test_smfs_code_box_becomes_the_projects_code_box() -> None:
    out = _body('<div class="codeheader"><span class="code floatleft">Код</span> <a class='
                '"codeoperation smf_select_text">[Выделить]</a></div><code class="bbc_code">'
                "Мой голос – Kotik</code>После кода.")
    assert out == '<div class="codebox"><code>Мой голос – Kotik</code></div>После кода.'
    assert "Выделить" not in plain_text(out)


def test_session_ids_and_smiley_sets_do_not_reach_the_body() -> None:
    out = _body('<a href="http://f/index.php?PHPSESSID=abc123&amp;msg=4">ссылка</a> '
                '<img src="http://f/Smileys/alienine/smiley.png" alt="&#58;&#41;" '
                'title="Улыбка" class="smiley">')
    assert "PHPSESSID" not in out and "alienine" not in out
    assert 'href="http://f/index.php?msg=4"' in out and 'alt=":)"' in out


def test_addresses() -> None:
    assert parse_topic_url("https://mafiaforum.example/index.php?topic=150.0") == (
        "https://mafiaforum.example/index.php", 150)
    assert parse_topic_url("https://f.example/forum/index.php/topic,7.25.html") == (
        "https://f.example/forum/index.php", 7)
    assert parse_topic_url("https://f.example/index.php?PHPSESSID=1f&topic=9.msg12#msg12")[1] == 9
    assert strip_session("https://f/index.php?PHPSESSID=abc&topic=2.0") == \
        "https://f/index.php?topic=2.0"


def test_post_links_in_outputs_are_smfs_permalinks() -> None:
    from adapters.registry import post_url
    from referee.render.tally import post_link

    topic = "https://f.example/index.php?topic=2.0"
    assert post_url(topic, 14) == "https://f.example/index.php?msg=14"
    assert post_link(14, topic) == "https://f.example/index.php?msg=14"
    assert 'href="http://127.0.0.1:8080/index.php?msg=14"' in html("topic_p1_guest.html")


def test_only_smf_claims_smf_pages_and_topic_addresses() -> None:
    page = html("topic_p1_guest.html")
    assert smf.ENGINE.claims_page(page) and not phpbb.claims_page(page)
    phpbb_page = "<html><body id=\"phpbb\">Powered by phpBB</body></html>"
    assert not smf.ENGINE.claims_page(phpbb_page)
    assert smf.claims_url("https://f/index.php?topic=2.0")
    assert not phpbb.claims_url("https://f/index.php?topic=2.0")
    assert not smf.claims_url("https://f/viewtopic.php?t=2")
    assert not smf.claims_url("https://f/index.php")  # a bare board address: phpBB's too
