"""Private messages and PM folders of the real phpBB 3.3.10 board against its manifest."""

from __future__ import annotations

import re

import pytest
from phpbb_pages import BOARD, manifest, pm, pm_folder, utc

PMS = manifest()["private_messages"]
USER_IDS = {u["username"]: u["user_id"] for u in manifest()["users"]}


def _bbcode_text(bbcode: str) -> str:
    return re.sub(r"\[/?[a-z*]+(=[^\]]*)?\]", "", bbcode)


@pytest.mark.parametrize("want", PMS, ids=[p["file"] for p in PMS])
def test_each_private_message_is_read_with_sender_time_subject_and_text(want):
    got = pm(want["file"])
    assert (got.pm_id, got.sender, got.sender_id, got.recipients, got.subject) == (
        want["msg_id"], want["from"], USER_IDS[want["from"]], (want["to"],), want["subject"])
    # PM pages print minutes only («21 ноя 2026, 22:35»); the seconds are lost.
    assert got.sent_at == utc(want["time"]["utc"]).replace(second=0)
    assert got.body_text == _bbcode_text(want["bbcode"])


def test_the_host_own_message_is_read_from_the_sent_folder():
    got = pm("pm_19.html")
    assert (got.folder, got.sender, got.recipients) == ("sentbox", "Ведущий", ("Полковник",))


def test_inbox_lists_every_message_with_sender_date_and_unread_flag():
    inbox = pm_folder("pm_inbox.html")
    assert (inbox.folder, inbox.page, inbox.total_pages) == ("inbox", 1, 1)
    game2 = {e.pm_id: e for e in inbox.entries if e.pm_id >= 8}
    for want in PMS:
        if want["to"] != "Ведущий":
            continue
        entry = game2.pop(want["msg_id"])
        assert (entry.subject, entry.sender, entry.unread) == (want["subject"], want["from"],
                                                               True)
        assert entry.sent_at == utc(want["time"]["utc"]).replace(second=0)
        assert entry.url == f"{BOARD}/ucp.php?i=pm&mode=view&f=0&p={want['msg_id']}"
    assert game2 == {}
    # The six PMs of the other game on the same board were already read.
    assert [e.unread for e in inbox.entries if e.pm_id < 8] == [False] * 6


def test_inbox_after_reading_has_no_unread_messages():
    before = pm_folder("pm_inbox.html")
    after = pm_folder("pm_inbox_after_reading.html")
    assert [e.pm_id for e in after.entries] == [e.pm_id for e in before.entries]
    assert not any(e.unread for e in after.entries)
    assert sum(e.unread for e in before.entries) == 11


def test_sent_folder_lists_recipients_and_the_account_as_sender():
    sent = pm_folder("pm_sent.html")
    assert sent.folder == "sentbox"
    [entry] = sent.entries
    assert (entry.pm_id, entry.sender, entry.recipients, entry.subject) == (
        19, "Ведущий", ("Полковник",), "Re: Ход комиссара (исправление)")
    assert entry.sent_at == utc("2026-11-22T06:40:00Z")


# ucp_pm_history.html (3.3) as phpBB renders it below a reply: the earlier PM of the
# conversation, with its rendered text and its raw BBCode in a hidden div.
_HISTORY = (
    '<h3 id="review" class="review"><span class="right-box"><a href="#review">Развернуть'
    "</a></span> История сообщений:</h3>\n"
    '<div id="topicreview" class="topicreview"><div class="post bg2"><div class="inner">\n'
    '<div class="postbody" id="pr14">\n'
    '<h3><a href="./ucp.php?i=pm&amp;mode=view&amp;f=0&amp;p=14">Ход комиссара (исправление)'
    "</a></h3>\n"
    '<p class="author"><span><i class="icon fa-file fa-fw icon-lightgray icon-md" '
    'aria-hidden="true"></i><span class="sr-only">Сообщение</span></span> Отправлено: '
    "<strong>22 ноя 2026, 00:05</strong><br />\n"
    ' <a href="./memberlist.php?mode=viewprofile&amp;u=67" class="username">Полковник</a></p>\n'
    '<div class="content">Меняю проверку на <span style="color:red">Kotik</span>.</div>\n'
    '<div id="message_14" style="display: none;">Меняю проверку на [color=red]Kotik[/color].'
    "</div>\n"
    "</div></div></div></div>\n<hr />\n"
)


def test_message_history_below_a_pm_is_not_part_of_it():
    from phpbb_pages import MOSCOW, SAVED_AT, html

    from adapters.phpbb.pms import parse_pm

    page = html("phpbb33-ru/pm_19.html").replace(
        '<fieldset class="display-options">', _HISTORY + '<fieldset class="display-options">', 1)
    got = parse_pm(page, url=f"{BOARD}/ucp.php?i=pm&mode=view&f=-1&p=19", tz=MOSCOW,
                   now=SAVED_AT, folder="sentbox")
    assert (got.pm_id, got.sender, got.subject) == (19, "Ведущий",
                                                   "Re: Ход комиссара (исправление)")
    assert got.body_text == "Тень_Ночи – мафия."
    assert "Kotik" not in got.body_html


def test_empty_folder_says_no_messages_and_keeps_its_name_from_the_url():
    # ucp_pm_viewfolder.html prints <p><strong>{L_NO_MESSAGES}</strong></p> instead of the
    # list and leaves out the fieldset that carries cur_folder_id.
    import re

    from phpbb_pages import MOSCOW, SAVED_AT, html

    from adapters.phpbb.pms import parse_pm_folder
    from adapters.phpbb.snapshot import page_kind

    page = html("phpbb33-ru/pm_sent.html")
    page = re.sub(r'<ul class="topiclist two-columns">.*?<ul class="topiclist cplist pmlist[^"]*">'
                  r".*?</ul>", "<p><strong>Нет сообщений</strong></p>", page, count=1, flags=re.S)
    page = page.replace('<input type="hidden" name="cur_folder_id" value="-1" />', "")
    assert page_kind(page) == "pm_folder"
    empty = parse_pm_folder(page, url=f"{BOARD}/ucp.php?i=pm&folder=sentbox", tz=MOSCOW,
                            now=SAVED_AT)
    assert (empty.folder, empty.page, empty.total_pages, empty.entries) == ("sentbox", 1, 1, ())
