"""phpBB's PM folder export read (adapters/phpbb/pm_export.py) and the BBCode it carries
rendered the way prosilver renders it (adapters/phpbb/bbcode.py), checked on the real
board of fixtures/phpbb33-ru: its 70 posts' BBCode against their saved pages."""

from __future__ import annotations

import json
import re
import sys
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from adapters.phpbb.bbcode import bbcode_to_html
from adapters.phpbb.pm_export import parse_pm_export, same_message
from adapters.phpbb.pms import read_pm_folder
from adapters.phpbb.topic import parse_topic_page
from referee.core.errors import MalformedPage
from referee.core.kernel import PmListEntry
from referee.core.markup import QUOTE_MARK, plain_text

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "fixtures" / "phpbb33-ru"
MANIFEST = json.loads((FIXTURE / "manifest.json").read_text(encoding="utf-8"))
MSK = ZoneInfo("Europe/Moscow")
sys.path.insert(0, str(ROOT / "benchmarks"))
from phpbb_export import ExportRow, export_xml  # noqa: E402

_SMILEY = re.compile(r'<img class="smilies" [^>]*alt="([^"]*)"[^>]*>')


def _views() -> dict[int, object]:
    out = {}
    for n in range(1, 5):
        html = (FIXTURE / f"topic_p{n}_host.html").read_text(encoding="utf-8")
        page = parse_topic_page(html, url="http://x/viewtopic.php?t=3", tz=MSK,
                                      now=datetime(2026, 11, 30, tzinfo=UTC))
        out.update({p.post_id: p for p in page.posts})
    return out


VIEWS = _views()
POSTS = MANIFEST["posts"]


@pytest.mark.parametrize("post", POSTS, ids=[str(p["post_id"]) for p in POSTS])
def test_the_bbcode_of_every_real_post_renders_as_its_page_shows_it(post: dict) -> None:
    view = VIEWS[post["post_id"]]
    mine = bbcode_to_html(post["bbcode"])
    assert plain_text(mine) == view.body_text  # type: ignore[attr-defined]
    # Smilies stay as typed («:D»): the board's pictures are its own.
    assert mine == _SMILEY.sub(r"\1", view.body_html)  # type: ignore[attr-defined]


@pytest.mark.parametrize(("bbcode", "html"), [
    # what the host's PMs hold                              the HTML prosilver shows
    ("Проверяю [color=red]Kotik[/color]", 'Проверяю <span style="color:red">Kotik</span>'),
    ("[b]Лечу[/b] [i]Лису[/i]",
     '<strong class="text-strong">Лечу</strong> <em class="text-italics">Лису</em>'),
    ("[quote]старое[/quote]\nновое",
     '<blockquote class="uncited"><div>старое</div></blockquote>\nновое'),
    ('[quote="Лиса" post_id=5 time=1 user_id=63]Стреляем[/quote]',
     "<blockquote><div><cite>Лиса писал(а):</cite>Стреляем</div></blockquote>"),
    ("[code][b]x[/b] < y[/code]", '<div class="codebox"><pre><code>[b]x[/b] &lt; y</code>'
     "</pre></div>"),
    ("[b]не закрыт", '<strong class="text-strong">не закрыт</strong>'),  # closed at the end
    ("a [/b] [foo]b[/foo]", "a [/b] [foo]b[/foo]"),    # unknown or unmatched: text
    ("[color=javascript:x]y[/color]", "[color=javascript:x]y[/color]"),  # no such colour
    ("a & b <i>", "a &amp; b &lt;i&gt;"),
    ("[url=http://a.b/?x=1&y=2]тут[/url]", '<a href="http://a.b/?x=1&amp;y=2" '
     'class="postlink">тут</a>'),
    ("[list][*]раз[*]два[/list]", "<ul><li>раз</li><li>два</li></ul>"),
])
def test_bbcode_renders_like_prosilver(bbcode: str, html: str) -> None:
    assert bbcode_to_html(bbcode) == html


def test_quoted_lines_are_marked_so_the_intake_skips_them() -> None:
    text = plain_text(bbcode_to_html("[quote=Ведущий]Кого проверяешь?[/quote]\nПроверяю Лису"))
    assert text.split("\n") == [f"{QUOTE_MARK}Ведущий писал(а):",
                                f"{QUOTE_MARK}Кого проверяешь?", "Проверяю Лису"]


# ------------------------------------------------------------------ the export itself

def test_the_export_form_of_the_real_inbox() -> None:
    html = (FIXTURE / "pm_inbox.html").read_text(encoding="utf-8")
    page, form = read_pm_folder(html, url="http://b/ucp.php?i=pm&folder=inbox", tz=MSK,
                                      now=datetime(2026, 11, 30, tzinfo=UTC))
    assert form is not None
    assert form.action == "http://b/ucp.php?i=pm&mode=view&action=view_folder&f=0"
    assert form.fields["export_option"] == "XML" and "submit_export" in form.fields
    assert form.fields["creation_time"] == "1795971553" and form.fields["form_token"]
    assert form.row_ids == (7, 6, 5, 3, 2, 1, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8)
    assert (form.account, form.account_id) == ("Ведущий", 58)
    assert [e.pm_id for e in page.entries] == list(form.row_ids)
    assert page.entries[-1].sender_id == 66  # Ёжик


def test_a_folder_page_without_the_xml_option_has_no_export_form() -> None:
    html = (FIXTURE / "pm_inbox.html").read_text(encoding="utf-8")
    html = html.replace('<option value="XML">', '<option value="PDF">')
    assert read_pm_folder(html, url="http://b/ucp.php", tz=MSK,
                                now=datetime(2026, 11, 30, tzinfo=UTC))[1] is None


def test_the_export_rows_in_order_with_the_second_and_the_recipients() -> None:
    sent = datetime(2026, 11, 22, 6, 40, 27, tzinfo=UTC)
    xml = export_xml([ExportRow("Re: <ход> & \"план\"", "Ведущий", sent,
                                'Тень_Ночи – [color=red]мафия[/color] & "ещё"', ("Полковник",)),
                      ExportRow("Вопрос", "Пуаро", sent, "Можно?")])
    assert b'<date>2026-11-22T09:40:27+03:00</date>' in xml
    first, second = parse_pm_export(xml)
    assert (first.subject, first.sender, first.sent_at, first.recipients) == (
        'Re: <ход> & "план"', "Ведущий", sent, ("Полковник",))
    assert first.bbcode == 'Тень_Ночи – [color=red]мафия[/color] & "ещё"'
    assert (second.sender, second.recipients) == ("Пуаро", ())


def test_a_control_character_in_a_message_costs_only_that_character() -> None:
    xml = export_xml([ExportRow("Ход", "Лиса", datetime(2026, 11, 22, tzinfo=UTC),
                                "Стреляю\x0b в Kotik")])
    (row,) = parse_pm_export(xml)
    assert row.bbcode == "Стреляю в Kotik"


@pytest.mark.parametrize("answer", [
    b"<!DOCTYPE html><html><body>Form invalid</body></html>",   # a refused form key
    b'<?xml version="1.0"?>\n<phpbb>\n\t<privmsg>\n\t\t<subject>Cut',  # cut short
    b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><phpbb>&a;</phpbb>',
    b'<?xml version="1.0"?><smf><pm/></smf>',                     # not phpBB's
])
def test_anything_but_phpbbs_xml_is_refused_in_clear_words(answer: bytes) -> None:
    with pytest.raises(MalformedPage, match="выгрузк|не phpBB"):
        parse_pm_export(answer)


def test_an_export_row_pairs_with_its_listing_row_by_subject_sender_and_minute() -> None:
    sent = datetime(2026, 11, 21, 19, 20, 37, tzinfo=UTC)
    (row,) = parse_pm_export(export_xml([ExportRow("Ход", "Полковник", sent, "x")]))
    entry = PmListEntry(9, "Ход", "Полковник", sent.replace(second=0), "")
    assert same_message(row, entry)
    assert not same_message(row, PmListEntry(9, "Другой", "Полковник", None, ""))
    assert not same_message(row, PmListEntry(9, "Ход", "Лиса", None, ""))
    later = PmListEntry(9, "Ход", "Полковник", sent.replace(minute=21, second=0), "")
    assert not same_message(row, later)
