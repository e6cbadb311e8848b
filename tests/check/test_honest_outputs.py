"""Honest outputs (issue 12): the host's private reason never reaches a public part, a vote
whose post was deleted is never silent, and a night's deaths never show before its time.

The paste part is everything above the «ТОЛЬКО ДЛЯ ВЕДУЩЕГО» line; ``tally --post`` posts
exactly it (referee.render.day.day_paste).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from check_helpers import DEMO, DEMO_TEXT, ROOT, cli, dump, synced_demo

from referee.core.errors import GameError
from referee.render.tally import HOST_ONLY_RULE


def paste_and_host(text: str) -> tuple[str, str]:
    paste, _, host = text.partition(HOST_ONLY_RULE)
    assert host, text
    return paste, host


@pytest.fixture
def db(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return synced_demo(tmp_path, tmp_path_factory.getbasetemp())


# ------------------------------------------------------------------ private stays private

def test_the_reason_of_a_hanging_stays_in_the_host_part(db: Path) -> None:
    res = cli(DEMO, db, "hang", "--day", "1", "--nobody", "--reason", "проверка")
    assert res.exit_code == 0, res.output
    paste, host = paste_and_host(cli(DEMO, db, "tally", "--day", "1", "--offline").stdout)
    assert "проверка" not in paste
    assert "Решение ведущего: никого не вешают." in paste
    assert "причина ведущего: проверка" in host


def test_a_public_note_goes_with_the_result(db: Path) -> None:
    cli(DEMO, db, "hang", "--day", "1", "Лиса", "--reason", "секрет",
        "--public-note", "по договорённости игроков")
    paste, host = paste_and_host(cli(DEMO, db, "tally", "--day", "1", "--offline").stdout)
    assert "Решение ведущего (по договорённости игроков): на виселицу отправляется Лиса" in paste
    assert "секрет" not in paste and "секрет" in host


def test_the_reason_of_a_removal_stays_private(db: Path) -> None:
    cli(DEMO, db, "remove", "Гроза", "--after-day", "1", "--reason", "замена не нашлась")
    paste, _ = paste_and_host(cli(DEMO, db, "tally", "--day", "1", "--offline").stdout)
    assert "[b]Гроза[/b] — решение ведущего" in paste
    assert "замена не нашлась" not in paste
    cli(DEMO, db, "remove", "Снежок", "--after-day", "1", "--public-note", "по болезни")
    paste, _ = paste_and_host(cli(DEMO, db, "tally", "--day", "1", "--offline").stdout)
    assert "[b]Снежок[/b] — по болезни" in paste


# ------------------------------------------------------------------ deleted votes

def _deleted(tmp_path: Path, setting: str | None) -> Path:
    """The demo with Шерлок's counted vote (post 83, for Mr. Smith) deleted after a sync."""
    pages = tmp_path / "pages"
    pages.mkdir()
    for page in (ROOT / "fixtures/demo/pages").iterdir():
        (pages / page.name).write_bytes(page.read_bytes())
    text = DEMO_TEXT.replace('snapshot = "pages"', f'snapshot = "{pages}"')
    if setting:
        text = text.replace("[rules]\n", f'[rules]\ndeleted_vote = "{setting}"\n')
    config = tmp_path / "referee.toml"
    config.write_text(text, encoding="utf-8")
    db = tmp_path / "g.db"
    assert cli(config, db, "sync").exit_code == 0
    page = pages / "topic_p1_host.html"
    lines = page.read_text(encoding="utf-8").split("\n")
    start = next(i for i, line in enumerate(lines) if 'id="p83"' in line)
    end = next(i for i, line in enumerate(lines) if 'id="p84"' in line)
    page.write_text("\n".join(lines[:start] + lines[end:]), encoding="utf-8")
    res = cli(config, db, "sync", "--full")
    assert res.exit_code == 0 and "исчезло: 1" in res.output, res.output
    return config


def _count(config: Path, db: Path) -> dict:
    return json.loads(cli(config, db, "tally", "--day", "1", "--offline", "--format",
                          "json").stdout)


def test_a_deleted_vote_counts_flagged_by_default(tmp_path: Path) -> None:
    config = _deleted(tmp_path, None)
    db = tmp_path / "g.db"
    doc = _count(config, db)
    smith = next(c for c in doc["counts"] if c["target"] == "Mr. Smith")
    assert smith["votes"] == 6
    flag = next(f for f in doc["flags"] if f["post_id"] == 83)
    assert flag["rule"] == "V1" and "удалено из темы" in flag["text"]
    paste, host = paste_and_host(cli(config, db, "tally", "--day", "1", "--offline").stdout)
    assert "удалено" not in paste and "#83" in host and "удалено из темы" in host


def test_a_deleted_vote_is_void_when_the_setting_says_so(tmp_path: Path) -> None:
    config = _deleted(tmp_path, "void")
    db = tmp_path / "g.db"
    doc = _count(config, db)
    assert next(c for c in doc["counts"] if c["target"] == "Mr. Smith")["votes"] == 5
    rejected = next(r for r in doc["rejected"] if r["post_id"] == 83)
    assert "deleted_vote = void" in rejected["reason"]
    # The host may still count it (the V1 note is his to waive).
    assert cli(config, db, "vote", "accept", "83").exit_code == 0
    assert next(c for c in _count(config, db)["counts"]
                if c["target"] == "Mr. Smith")["votes"] == 6


# ------------------------------------------------------------------ no result before its time

BEFORE = "2026-11-22 09:00"  # night 1 ends at 10:00
DEATHS = ("Kotik", "Тень_Ночи", "Nika-77")


def test_a_night_still_going_on_shows_no_death(db: Path) -> None:
    before = dump(db)
    out = cli(DEMO, db, "resolve-night", "--night", "1", "--offline", now=BEFORE).stdout
    assert "Ночь 1 ещё идёт" in out and "Заявки (10)" in out
    assert "погиб" not in out and "Личные результаты" not in out
    doc = json.loads(cli(DEMO, db, "resolve-night", "--night", "1", "--offline", "--format",
                         "json", now=BEFORE).stdout)
    assert doc["early"] and doc["deaths"] == [] and doc["checks"] == [] and doc["private"] == []
    activity = cli(DEMO, db, "check-activity", "--turn", "1", "--offline", "--format", "text",
                   now=BEFORE).stdout
    assert "погиб(ла) ночью" not in activity
    assert dump(db) == before


def test_a_night_resolved_after_its_deadline_shows_its_deaths(db: Path) -> None:
    out = cli(DEMO, db, "resolve-night", "--night", "1", "--offline").stdout  # 10:30
    assert all(nick in out.split(HOST_ONLY_RULE)[0] for nick in DEATHS)
    again = cli(DEMO, db, "resolve-night", "--night", "1", "--offline", now=BEFORE).stdout
    assert "Итог ночи был записан раньше" in again
    assert all(nick in again.split(HOST_ONLY_RULE)[0] for nick in DEATHS)


def test_posting_a_night_before_its_end_is_refused(db: Path) -> None:
    before = dump(db)
    res = cli(DEMO, db, "resolve-night", "--night", "1", "--offline", "--post", "--yes",
              now=BEFORE)
    assert isinstance(res.exception, GameError), res.output
    assert "погиб" not in res.stdout
    assert dump(db) == before
