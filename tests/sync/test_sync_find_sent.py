"""Issue 26 — after a crash, the PM a run sent is found in the host's sent folder.

``referee.store.sync.find_sent`` looks among what a sync stored: the host's sent PM to the same
player with the same words (phpBB's «Отправленные», read by folder export) is the message
a killed run sent; another player, or other numbers, is not.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

import pytest
from support.phpbb.respx_board import FakeBoard

from adapters.phpbb.client import PhpbbForum
from referee.config.game import Config
from referee.store import Store
from referee.store.sync import find_sent, sync_pms

SENT = "Тень_Ночи – [color=red]мафия[/color]."
"""PM 19 of fixtures/phpbb33-ru/pm_sent.html as the host's BBCode sent it."""
LONG_AGO = datetime(2020, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("recipient", "body", "sender", "found"),
    [
        ("Полковник", SENT, "Ведущий", 19),
        ("полковник", "Тень_Ночи — мафия", "Ведущий", 19),     # case, dash, no BBCode
        ("Лиса", SENT, "Ведущий", None),                        # another player
        ("Полковник", "Тень_Ночи – [color=red]мирный[/color].", "Ведущий", None),
        ("Полковник", SENT, "Лиса", None),                      # not the host's
    ],
)
def test_the_sent_pm_is_found_in_the_sent_folder(
    board: FakeBoard, make_forum: Callable[..., PhpbbForum], config: Config, store: Store,
    recipient: str, body: str, sender: str, found: int | None,
) -> None:
    sync_pms(config, store, make_forum(), sent=True)
    assert find_sent(store, kind="pm", recipient=recipient, body=body, sender=sender,
                     since=LONG_AGO) == found
