"""subsilver2's private messages (a message table, a folder of table rows) on pages written
from its templates (phpbb_variant_pages), and what each broken page says in Russian."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from phpbb_variant_pages import subsilver_folder_page, subsilver_pm_page, topic_page
from phpbb_variants import (
    MOSCOW,
    NOW,
    URL,
    Vp,
    prosilver30,
    prosilver32,
    prosilver33,
    subsilver2,
)

from adapters.phpbb.pms import parse_pm, parse_pm_folder, read_pm_folder
from adapters.phpbb.snapshot import page_kind
from adapters.phpbb.topic import parse_topic_page
from referee.core.errors import MalformedPage

BOARD = "http://mafia.example"


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=MOSCOW)


MOVE = Vp(88, "Шерлок", 59, at("2026-11-20 23:10"),
          'Проверяю <span style="color: #FF0000">Лису</span>.',
          signature="Элементарно")


def test_a_subsilver2_pm_is_read_from_its_label_rows() -> None:
    html = subsilver_pm_page(MOVE, subject="Ночь 1", to=[("Ведущий", 58)])
    assert page_kind(html) == "pm"
    pm = parse_pm(html, url=f"{BOARD}/ucp.php?i=pm&mode=view&f=0&p=88", tz=MOSCOW, now=NOW)
    assert (pm.pm_id, pm.sender, pm.sender_id, pm.recipients, pm.subject) == (
        88, "Шерлок", 59, ("Ведущий",), "Ночь 1")
    assert pm.sent_at == at("2026-11-20 23:10").astimezone(UTC)
    assert pm.body_text == "Проверяю Лису." and "Элементарно" not in pm.body_html


def test_the_pm_id_comes_from_the_page_when_the_address_has_none() -> None:
    html = subsilver_pm_page(MOVE, subject="Ночь 1", to=[("Ведущий", 58)])
    pm = parse_pm(html, url=f"{BOARD}/ucp.php?i=pm&mode=view&f=0", tz=MOSCOW, now=NOW)
    assert pm.pm_id == 88


def test_a_subsilver2_inbox_lists_senders_dates_and_unread_rows() -> None:
    other = Vp(89, "Лиса", 63, at("2026-11-21 00:05"), "…")
    gone = Vp(90, "Kotik", 61, at("2026-11-21 00:20"), "…")
    html = subsilver_folder_page([(MOVE, "Ночь 1", True), (other, "Ход", False),
                                  (gone, "Ход 2", True)], deleted=90)
    assert page_kind(html) == "pm_folder"
    page, form = read_pm_folder(html, url=f"{BOARD}/ucp.php?i=pm&folder=inbox", tz=MOSCOW,
                                now=NOW)
    assert page.folder == "inbox" and (page.page, page.total_pages) == (1, 1)
    assert [(e.pm_id, e.subject, e.sender, e.sender_id, e.unread) for e in page.entries] == [
        (88, "Ночь 1", "Шерлок", 59, True), (89, "Ход", "Лиса", 63, False)]
    assert page.entries[0].sent_at == at("2026-11-20 23:10").astimezone(UTC)
    assert page.entries[0].url == f"{BOARD}/ucp.php?i=pm&mode=view&f=0&p=88"
    assert form is not None and form.fields["export_option"] == "XML"
    assert form.row_ids == (88, 89, 90)


def test_a_subsilver2_sent_folder_names_the_recipients() -> None:
    mine = Vp(91, "Ведущий", 58, at("2026-11-21 10:00"), "Утро")
    html = subsilver_folder_page([(mine, "Ночь прошла", False)], folder_id=-1,
                                 recipients={91: [("Шерлок", 59), ("Лиса", 63)]})
    page = parse_pm_folder(html, url=f"{BOARD}/ucp.php?i=pm&folder=sentbox", tz=MOSCOW, now=NOW)
    (entry,) = page.entries
    assert page.folder == "sentbox"
    assert (entry.sender, entry.recipients) == ("Ведущий", ("Шерлок", "Лиса"))


def test_an_empty_subsilver2_folder_is_a_folder() -> None:
    page = parse_pm_folder(subsilver_folder_page([]), url=f"{BOARD}/ucp.php?i=pm", tz=MOSCOW,
                           now=NOW)
    assert page.entries == ()


# --------------------------------------------------------------------------- broken pages

VOTE = Vp(700, "Ёжик", 66, at("2026-11-21 09:00"), 'Мой голос – <span style="color: #FF0000">'
          "Лиса</span>")


def _cut(html: str, start: str, end: str) -> str:
    first = html.index(start)
    return html[:first] + html[html.index(end, first) + len(end):]


@pytest.mark.parametrize(("variant", "render", "broken", "words"), [
    ("prosilver 3.3", prosilver33, lambda h: _cut(h, "<time", "</time>"), "дату"),
    ("prosilver 3.3", prosilver33, lambda h: h.replace('<div class="content">', "<div>"),
     "div.content"),
    ("prosilver 3.3", prosilver33,
     lambda h: _cut(_cut(h, '<p class="author">', "</p>"), "<dl class=\"postprofile\"", "</dl>"),
     "автор"),
    ("prosilver 3.2.0-3.2.8", prosilver32,
     lambda h: h.replace("Сегодня, 09:00", "когда-то утром"), "когда-то утром"),
    ("prosilver 3.0", prosilver30, lambda h: h.replace("Сб ноя 21, 2026 9:00 am", ""), "дат"),
    ("subsilver2 3.0", subsilver2, lambda h: h.replace('<div class="postbody">', "<div>", 1),
     "div.postbody"),
    ("subsilver2 3.0", subsilver2, lambda h: h.replace("Сегодня, 09:00", "на днях"),
     "на днях"),
], ids=["no <time>", "no content", "no author", "3.2 bad date", "3.0 no date",
        "subsilver2 no body", "subsilver2 bad date"])
def test_a_post_missing_a_part_is_a_malformed_page_naming_it(variant, render, broken, words
                                                             ) -> None:  # noqa: ANN001
    html = broken(topic_page(variant, render(VOTE)))
    with pytest.raises(MalformedPage) as raised:
        parse_topic_page(html, url=URL, tz=MOSCOW, now=NOW)
    message = str(raised.value)
    assert "p700" in message and words in message
    assert any("а" <= ch <= "я" for ch in message)  # in Russian


def test_a_pm_table_without_its_text_is_not_a_pm() -> None:
    html = subsilver_pm_page(MOVE, subject="Ночь 1", to=[]).replace('class="postbody"', "")
    with pytest.raises(MalformedPage, match="личное сообщение"):
        parse_pm(html, url=f"{BOARD}/ucp.php?i=pm&mode=view&f=0&p=88", tz=MOSCOW, now=NOW)


# --------------------------------------------------------------------------- prosilver 3.0

def _row30(pm_id: int, subject: str, who: str, unread: bool, *, sent: bool = False) -> str:
    image = "pm_unread" if unread else "pm_read"
    line = (f"Кому {who}" if sent else f'<a href="./memberlist.php?mode=viewprofile&amp;u=59">'
            f"{who}</a> &raquo; 20 ноя 2026, 23:10")
    info = '<dd class="info"><span>Отправлено: 20 ноя 2026, 23:10</span></dd>' if sent else ""
    return (f'<li class="row bg1"><dl class="icon" style="background-image: url(./styles/'
            f'prosilver/imageset/{image}.gif); background-repeat: no-repeat;"><dt><a href="./ucp'
            f'.php?i=pm&amp;mode=view&amp;f=0&amp;p={pm_id}" class="topictitle">{subject}</a>'
            f'<br />{line}</dt>{info}<dd class="mark"><input type="checkbox" name="marked_msg_'
            f'id[]" value="{pm_id}" /></dd></dl></li>')


@pytest.mark.parametrize("sent", [False, True], ids=["inbox", "sentbox"])
def test_a_30_prosilver_folder_row_is_read(sent: bool) -> None:
    who = '<a href="./memberlist.php?mode=viewprofile&amp;u=63">Лиса</a>' if sent else "Шерлок"
    html = ('<html lang="ru"><body><a href="./ucp.php?mode=logout&amp;sid=1">Выход [ Ведущий ]'
            '</a><form id="viewfolder" method="post" action="./ucp.php?i=pm"><ul class="topic'
            f'list cplist pmlist">{_row30(88, "Ночь 1", who, True, sent=sent)}</ul><input type="'
            f'hidden" name="cur_folder_id" value="{-1 if sent else 0}" /><ul class="linklist">'
            '<li class="rightside pagination">Сообщений: 1 &bull; Страница <strong>1</strong> '
            "из <strong>1</strong></li></ul></form></body></html>")
    page = parse_pm_folder(html, url=f"{BOARD}/ucp.php?i=pm", tz=MOSCOW, now=NOW)
    (entry,) = page.entries
    assert entry.pm_id == 88 and entry.unread
    assert entry.sent_at == at("2026-11-20 23:10").astimezone(UTC)
    if sent:
        assert (page.folder, entry.sender, entry.recipients) == ("sentbox", "Ведущий", ("Лиса",))
    else:
        assert (page.folder, entry.sender, entry.sender_id) == ("inbox", "Шерлок", 59)
