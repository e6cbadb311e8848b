"""SMF 2.0 PM folder pages (tests/smf/smf20_pm.py, from SMF 2.0's PersonalMessage template
and the Russian pack): rows without cell classes, unread marks, every message's sender,
recipient, time and body, the folder's page index — and a folder page referee cannot read
is a MalformedPage naming what is missing."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from smf20_pm import Pm20, folder20
from smf_variants import BOARD, MOSCOW, quote20, vote

from adapters.smf.pms import MODE_ALL, parse_folder
from referee.core.errors import MalformedPage
from referee.core.markup import unquoted_lines

NOW = datetime(2024, 3, 13, 22, 0, tzinfo=MOSCOW)
URL = f"{BOARD}?action=pm;f=inbox;sort=date"

PMS = [
    Pm20(41, "Шерлок", 3, "Ведущий", datetime(2024, 3, 12, 23, 10, 5, tzinfo=MOSCOW),
         "Ночь 1", "Проверяю " + vote("Kotik", "подозрительно тихий")),
    Pm20(42, "Лиса", 5, "Ведущий", datetime(2024, 3, 13, 1, 2, 3, tzinfo=MOSCOW),
         "Ход", quote20("Ведущий", 40, "11 Марта 2024, 20:00:00", "Ваш ход?")
         + "Лечу Шерлока.", unread=True),
]


def read(page: str):
    return parse_folder(page, url=URL, folder="inbox", tz=MOSCOW, now=NOW.astimezone(UTC))


def test_smf20_folder_rows_and_messages() -> None:
    got = read(folder20(PMS, now=NOW))
    assert [(e.pm_id, e.subject, e.sender, e.unread) for e in got.entries] == [
        (41, "Ночь 1", "Шерлок", False), (42, "Ход", "Лиса", True)]
    assert got.entries[0].sent_at == datetime(2024, 3, 12, 20, 10, 5, tzinfo=UTC)  # «Вчера в»
    assert got.mode == MODE_ALL and (got.page, got.total_pages) == (1, 1)
    first, second = got.messages[41], got.messages[42]
    assert (first.sender, first.sender_id, first.recipients) == ("Шерлок", 3, ("Ведущий",))
    assert first.sent_at == datetime(2024, 3, 12, 20, 10, 5, tzinfo=UTC)
    assert second.sent_at == datetime(2024, 3, 12, 22, 2, 3, tzinfo=UTC)
    assert second.body_html.startswith("<blockquote><cite>Цитата: Ведущий от")
    assert unquoted_lines(second.body_text) == ["Лечу Шерлока."]
    assert "Подпись" not in first.body_text


@pytest.mark.parametrize("page_no", [1, 2, 3])
def test_smf20_folder_pages(page_no: int) -> None:
    got = read(folder20(PMS, now=NOW, page=page_no, total=60))
    assert (got.page, got.total_pages, got.per_page) == (page_no, 3, 25)


def test_a_page_without_the_folder_form_names_it() -> None:
    page = folder20(PMS, now=NOW).replace('name="pmFolder"', 'name="other"')
    with pytest.raises(MalformedPage, match="form#pmFolder"):
        read(page)


def test_a_message_without_its_time_line_is_malformed() -> None:
    page = folder20(PMS, now=NOW).replace('<span class="smalltext">&#171;', "<span>&#171;", 1)
    with pytest.raises(MalformedPage, match="Кому"):
        read(page)
