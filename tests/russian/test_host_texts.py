"""Issue 29 item 7, the host's side: no internal clan key («клан «mafia»»), no command
syntax («set 9 target Kotik»), no doubled «отклонён ведущим: отклонён ведущим»."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from demo_run import run

from referee.host.status import Gone, Living, PhaseNow, Status
from referee.render.status import night_cause_ru, render_status
from referee.rules.day.count import rejected_by_host
from referee.rules.decisions import VoteDecision


def test_the_clan_the_host_did_not_name_has_no_name_in_the_status() -> None:
    now = datetime(2026, 11, 22, 12, tzinfo=UTC)
    status = Status("Игра", now, "UTC", PhaseNow("day", 2, now + timedelta(hours=1),
                                                 timedelta(hours=1)),
                    (Living("Лиса", "mafia", "mafia", "mafia"),
                     Living("Тень", "mafia", "Лисья нора", "mafia")),
                    (Gone("Kotik", "thug", "mafia", "hanged", 1, now),), (), None, None)
    text = render_status(status)
    assert "«mafia»" not in text and "Лиса — Мафия\n" in text
    assert "Тень — Мафия, клан «Лисья нора»" in text and "Kotik (Громила) —" in text
    assert night_cause_ru("mafia:mafia", "Ёжик") == "выстрел мафии"
    assert night_cause_ru("mafia:Лисья нора", "Ёжик") == "выстрел мафии (клан «Лисья нора»)"


@pytest.mark.parametrize(("decision", "words"), [
    (VoteDecision("set", 9, target="Kotik"), "сообщение #9: голос за Kotik"),
    (VoteDecision("accept", 85), "сообщение #85: засчитать"),
    (VoteDecision("accept", 85, reason="в ЛС"), "сообщение #85: засчитать (в ЛС)"),
    (VoteDecision("reject", 7), "сообщение #7: не засчитывать"),
    (VoteDecision("reject", 7, reason="флуд"), "сообщение #7: не засчитывать (флуд)"),
])
def test_a_vote_decision_reads_in_russian(decision: VoteDecision, words: str) -> None:
    assert str(decision) == words
    assert VoteDecision.parse("set 9 target Kotik") == VoteDecision("set", 9, target="Kotik")


@pytest.mark.parametrize(("reason", "label"), [
    ("", "отклонён ведущим"),
    ("отклонён ведущим", "отклонён ведущим"),       # recorded so by an older version
    ("флуд", "отклонён ведущим: флуд"),
])
def test_a_rejected_vote_is_said_rejected_once(reason: str, label: str) -> None:
    assert rejected_by_host(reason) == label
    assert VoteDecision.parse("reject 5").reason == ""


def test_the_cli_reject_without_a_reason_says_it_once(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    assert run(db, "2026-11-22 09:00", "tally", "--day", "1").exit_code == 0
    res = run(db, "2026-11-22 09:05", "vote", "reject", "100")
    assert res.exit_code == 0, res.output
    tally = run(db, "2026-11-22 09:10", "tally", "--day", "1", "--offline").stdout
    assert "отклонён ведущим: отклонён ведущим" not in res.stdout + tally
    assert "отклонён ведущим" in tally
    assert "target" not in tally and "reject 100" not in tally
