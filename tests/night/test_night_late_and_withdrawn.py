"""``referee resolve-night`` shows the host what the intake did not pass on (docs/rules.md N1, T2,
N14): requests taken back by their players («Отозвано игроками») and PMs that came at or
after the deadline («Опоздали»), in the text for the host and in ``--format json`` — never
silently absent."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from dbgame import HOST, build, day_start, referee, referee_text

from referee.core.kernel import PrivateMessage
from referee.store import Store

GAME = {
    "players": [
        {"nick": "Kom", "role": "commissar"}, {"nick": "Doc", "role": "doctor"},
        {"nick": "Don", "role": "mafia", "clan": "A"}, {"nick": "Анна", "role": "citizen"},
        {"nick": "Борис", "role": "citizen"}, {"nick": "Вера", "role": "citizen"},
    ],
    "phases": [{"day": 1, "votes": []}, {"night": 1, "requests": [
        {"actor": "Kom", "action": "check", "target": "Анна"},
        {"actor": "Doc", "action": "heal", "target": "Борис"},
    ]}],
}
DEADLINE = day_start(1) + timedelta(hours=20)


def _game(tmp_path: Path) -> tuple[Path, Path]:
    config, db = build(GAME, tmp_path)
    extra = [
        (300, "Doc", DEADLINE - timedelta(hours=2), "Отменяю лечение"),
        (301, "Don", DEADLINE, "Стреляем в Веру"),
        (302, "Вера", DEADLINE + timedelta(minutes=3), "Спокойной ночи"),
    ]
    with Store.open(db) as store:
        for pm_id, sender, sent, text in extra:
            store.save_pm(PrivateMessage(
                pm_id=pm_id, sender=sender, sender_id=None, recipients=(HOST,), sent_at=sent,
                subject="Ход", body_html=text, body_text=text))
    return config, db


def test_json_lists_withdrawn_requests_and_late_pms_N1_T2(tmp_path: Path) -> None:
    config, db = _game(tmp_path)
    doc = referee(config, db, day_start(2), "resolve-night", "--night", "1", "--dry-run")
    assert [(r["actor"], r["action"]) for r in doc["requests"]] == [("Kom", "check")]
    assert doc["withdrawn"] == [{
        "actor": "Doc", "action": "heal", "target": "Борис", "targets": [],
        "source_id": "101", "withdrawn_by_pm": 300, "text": "Отменяю лечение"}]
    assert [(lt["pm_id"], lt["sender"]) for lt in doc["late"]] == [(301, "Don")]
    assert "выстрел мафии: Вера" in doc["late"][0]["read"]


def test_text_for_the_host_lists_them_too_N1_T2(tmp_path: Path) -> None:
    config, db = _game(tmp_path)
    text = referee_text(config, db, day_start(2), "resolve-night", "--night", "1",
                        "--dry-run", "--format", "text")
    assert "Отозвано игроками (не исполняется, смену N1 не тратит):" in text
    assert "• ЛС #300 Doc: лечение → Борис" in text
    assert "Опоздали — после дедлайна ночи, не засчитаны (T2):" in text
    assert "• ЛС #301 от Don, 21.11 05:00: выстрел мафии: Вера" in text
    assert "Вера, 21.11" not in text  # late chat is not listed
