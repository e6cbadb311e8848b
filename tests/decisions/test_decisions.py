"""Host decisions are typed values; one place turns them into store rows and back."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from referee.rules import decisions
from referee.rules.decisions import (
    Excuse,
    Hanging,
    NightEdit,
    Removal,
    ScheduleChange,
    VoteDecision,
)
from referee.store import Store

AT = datetime(2026, 11, 21, 19, 0, tzinfo=UTC)

EVERY_KIND = [
    VoteDecision("accept", 85, reason="голос засчитан ведущим"),
    VoteDecision("reject", 86, reason="флуд"),
    VoteDecision("set", 99, target="Снежок"),
    Hanging(2, "Лиса", "по итогам обсуждения"),
    Hanging(3, None),
    Removal("Мотылёк", 2, "замена не пришла"),
    Excuse("Ира-Ира", 3, "предупредила об отъезде"),
    NightEdit("add", 1, "Шерлок", "check", "Лиса"),
    NightEdit("add", 2, "Kotik", "blow", targets=("Лиса", "Тень_Ночи"), source="file"),
    NightEdit("add", 2, "Лиса", "shoot", "Пуаро", executor="Тень_Ночи"),
    NightEdit("drop", 2, "Пуаро", "heal", reason="прислал после срока"),
    NightEdit("drop", 3, "Пуаро"),
    ScheduleChange(2, AT),
    ScheduleChange(5, AT, start=datetime(2026, 11, 20, 19, 0, tzinfo=UTC)),
]


@pytest.fixture
def store(tmp_path: Path) -> Store:
    return Store.open(tmp_path / "game.db")


@pytest.mark.parametrize("decision", EVERY_KIND, ids=lambda d: type(d).__name__)
def test_a_recorded_decision_reads_back_as_it_was_made(store: Store,
                                                       decision: decisions.Decision) -> None:
    decisions.record(store, decision)
    assert decisions.recorded(store, type(decision)) == [decision]


def test_the_record_keeps_every_decision_in_order_and_kinds_apart(store: Store) -> None:
    for d in EVERY_KIND:
        decisions.record(store, d)
    assert [d for _, d in decisions.all_recorded(store)] == EVERY_KIND
    assert decisions.recorded(store, Hanging) == [d for d in EVERY_KIND if isinstance(d, Hanging)]
    edits = decisions.recorded(store, NightEdit)
    assert all(e.decision_id is not None for e in edits)


def test_rows_written_before_decisions_were_typed_still_read(store: Store) -> None:
    """Databases of earlier versions hold the same rows (the schema did not change)."""
    store.add_override("action.add", "Шерлок", {"night": 1, "action": "check",
                                                "target": "Лиса", "targets": [],
                                                "executor": None}, "")
    store.add_override("vote.set", "99", {"target": "Снежок"}, "")
    store.add_override("schedule.deadline", "2", {"deadline": AT.isoformat()}, "")
    assert decisions.recorded(store, NightEdit)[0] == NightEdit("add", 1, "Шерлок", "check",
                                                                "Лиса")
    assert decisions.recorded(store, VoteDecision) == [VoteDecision("set", 99, target="Снежок")]
    assert decisions.recorded(store, ScheduleChange) == [ScheduleChange(2, AT)]
