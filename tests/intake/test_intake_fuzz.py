"""Whatever a player types, reading it never crashes: it gives requests or items listed for
the host (N14). Random text is built from the words and marks the parser cares about."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from intake_helpers import PLAYERS, ROSTER, pm

from referee.core.errors import RefereeError
from referee.core.markup import QUOTE_MARK
from referee.core.roles import ROLE_IDS
from referee.rules.intake import read_requests

WORDS = [
    "Проверяю", "Лечу", "Стреляем", "в", "исполнитель", "стреляет", "Убиваю", "Бью",
    "Забираю", "к", "себе", "Засада", "Взрываю", "Защищаю", "и", "Меняю", "на",
    "Исправление:", "проверку", "выстрел", "не", "себя", "я", ",", ".", "—", "-", ":", "\n",
    "Тень_Ночт", "Лису", "Мотылька", "Пуаро", QUOTE_MARK, "\u200b", "ё", "[b]", "&amp;",
    *PLAYERS,
]
TEXT = st.one_of(
    st.text(max_size=200),
    st.lists(st.sampled_from(WORDS) | st.text(max_size=8), max_size=25).map(" ".join),
)


@settings(max_examples=300, deadline=None)
@given(text=TEXT, subject=st.text(max_size=30), role=st.sampled_from((None, *ROLE_IDS)))
def test_random_text_never_crashes_N14(text: str, subject: str, role: str | None) -> None:
    try:
        result = read_requests(pm(text, "Лиса", subject=subject), role, ROSTER, order=1)
    except RefereeError:
        return
    for r in result.requests:
        assert all(t in PLAYERS for t in r.all_targets())
        assert r.executor is None or r.executor in PLAYERS
    assert result.requests or result.unreadable  # never nothing at all
