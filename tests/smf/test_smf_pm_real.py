"""The real SMF 2.1.4 personal-message pages of the host against the manifest: the inbox
(27 PMs on 2 pages of 25, display mode «все сразу»), the sent box, one-at-a-time views and
the conversation mode."""

from __future__ import annotations

import re

import pytest
from smf_pages import folder, manifest, utc

from adapters.smf.pms import MODE_ALL, MODE_CONVERSATION, MODE_ONE
from referee.core.markup import QUOTE_MARK, unquoted_lines

_TAG = re.compile(r"\[/?(?:b|i|u|s|color|size|center|url)(?:=[^\]]*)?\]")


def _own(bbcode: str) -> str:
    bare = re.sub(r"\[quote[^\]]*\].*?\[/quote\]", "\n", bbcode, flags=re.S)
    return " ".join(_TAG.sub("", bare).split())


def _pms(box: str) -> list[dict]:
    return [p for p in manifest()["pms"] if p["folder_for_host"] == box]


def _check(pm, want: dict) -> None:
    assert (pm.pm_id, pm.sender, pm.sender_id, list(pm.recipients), pm.sent_at, pm.subject) == (
        want["id_pm"], want["from"], want["from_id"], want["to"], utc(want["time"]["utc"]),
        want["subject"])
    assert " ".join(" ".join(unquoted_lines(pm.body_text)).split()) == _own(want["bbcode"])


def test_the_inbox_in_display_mode_all_shows_every_message_of_its_page() -> None:
    first, last = folder("pm_inbox_p1_host.html"), folder("pm_inbox_p2_host.html")
    assert (first.page, first.total_pages, first.per_page, first.mode) == (1, 2, 25, MODE_ALL)
    assert (last.page, last.total_pages, last.per_page, last.mode) == (2, 2, 25, MODE_ALL)
    shown = {**first.messages, **last.messages}
    expected = _pms("inbox")
    assert len(expected) == 27 and sorted(shown) == [p["id_pm"] for p in expected]
    for want in expected:
        _check(shown[want["id_pm"]], want)
    # The rows, oldest first (SMF's date order), say the same.
    rows = [*first.entries, *last.entries]
    assert [e.pm_id for e in rows] == [p["id_pm"] for p in expected]
    assert all(e.sender == shown[e.pm_id].sender and e.sent_at == shown[e.pm_id].sent_at
               for e in rows)


def test_plain_action_pm_opens_the_last_page_with_the_newest_unread_pms() -> None:
    landing = folder("pm_inbox_host.html")
    assert (landing.page, landing.total_pages, landing.starts) == (2, 2, {1: 0})
    assert [(e.pm_id, e.subject, e.unread) for e in landing.entries] == [
        (41, "Редактирование", True), (42, "Спасибо", True)]


def test_the_sent_box_names_the_recipients() -> None:
    sent = folder("pm_sentbox_host.html")
    expected = _pms("sent")
    assert sorted(sent.messages) == [p["id_pm"] for p in expected]
    for want in expected:
        _check(sent.messages[want["id_pm"]], want)
    assert all(e.sender == "Ведущий" and e.recipients for e in sent.entries)


def test_a_reply_with_a_quote_marks_the_quoted_lines() -> None:
    pm = folder("pm_sentbox_host.html").messages[33]
    assert pm.body_html.startswith('<blockquote class="bbc_standard_quote"><cite>')
    assert [line for line in pm.body_text.split("\n") if line.startswith(QUOTE_MARK)][1] \
        == QUOTE_MARK + "Проверяю Тень_Ночи"


@pytest.mark.parametrize("pm_id", [p["id_pm"] for p in manifest()["pms"]
                                   if p["id_pm"] not in (39, 40, 42)])
def test_one_at_a_time_views_show_just_their_message(pm_id: int) -> None:
    want = next(p for p in manifest()["pms"] if p["id_pm"] == pm_id)
    suffix = "_sent" if want["folder_for_host"] == "sent" else ""
    view = folder(f"pm_view_{pm_id}{suffix}_host.html")
    assert view.mode == MODE_ONE and list(view.messages) == [pm_id]
    _check(view.messages[pm_id], want)


def test_mode_one_rows_link_to_each_message_and_mode_two_is_told_apart() -> None:
    one = folder("pm_inbox_mode1_host.html")
    assert one.mode == MODE_ONE and list(one.messages) == [42]
    assert one.entries[0].url == ("http://127.0.0.1:8080/index.php?action=pm;pmid=41;kstart;"
                                  "f=inbox;start=25;sort=date;#msg41")
    assert folder("pm_inbox_mode2_host.html").mode == MODE_CONVERSATION
    assert folder("pm_inbox_mode0_again_host.html").mode == MODE_ALL
