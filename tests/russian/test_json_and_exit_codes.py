"""Issue 29 item 9: ``--format json`` on the host's listings (votes, pms, check, export), and
the exit codes 0–5 documented in ``referee -h`` and in the README, as referee.core.errors has
them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from demo_run import DEMO, ROOT, run
from typer.testing import CliRunner

from referee.cli import app
from referee.core import errors


def test_votes_as_json(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    assert run(db, "2026-11-22 09:00", "sync").exit_code == 0
    res = run(db, "2026-11-22 09:00", "votes", "--day", "1", "--format", "json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["day"] == 1 and len(data["events"]) >= 10
    first = data["events"][0]
    assert set(first) >= {"post_id", "at", "voter", "target", "counted", "rule", "link"}
    assert any(not e["counted"] and e["rule"] == "V3" for e in data["events"])
    assert [e["at"] for e in data["events"]] == sorted(e["at"] for e in data["events"])


def test_pms_as_json(tmp_path: Path) -> None:
    res = run(tmp_path / "g.db", "2026-11-22 09:00", "pms", "--night", "1", "-f", "json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["night"] == 1 and data["pms"]
    assert {"pm_id", "sender", "sent_at", "subject", "text"} <= set(data["pms"][0])


def test_check_as_json(tmp_path: Path) -> None:
    res = run(tmp_path / "g.db", "2026-11-22 09:00", "check", "--offline", "-f", "json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["ok"] is True and data["errors"] == [] and len(data["schedule"]) == 2
    assert {"nick": "Мисс Марпл", "role": "priest", "clan": None} in data["players"]


def test_check_as_json_with_errors_exits_2(tmp_path: Path) -> None:
    bad = tmp_path / "referee.toml"
    bad.write_text("", encoding="utf-8")
    res = CliRunner().invoke(app, ["--config", str(bad), "check", "--offline", "-f", "json"])
    assert res.exit_code == 2
    assert len(json.loads(res.stdout)["errors"]) == 3


def test_export_as_json(tmp_path: Path) -> None:
    out = tmp_path / "игра.json"
    res = run(tmp_path / "g.db", "2026-11-22 09:00", "export", str(out), "-f", "json")
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["game_file"] == str(out) and Path(data["votes_csv"]).exists()
    assert data["vote_events"] > 0


CODES = {0: None, 1: errors.RefereeError, 2: errors.ConfigError, 3: errors.ForumError,
         4: errors.StoreError, 5: errors.GameError}


def test_the_exit_codes_are_the_errors_codes() -> None:
    for code, cls in CODES.items():
        assert cls is None or cls.exit_code == code
    assert errors.RequestRefused.exit_code == 2


@pytest.mark.parametrize("where", ["help", "README"])
def test_the_exit_codes_are_documented(where: str) -> None:
    if where == "help":
        text = CliRunner().invoke(app, ["-h"]).stdout
        found = dict(re.findall(r"^\s+(\d+) — (.+)$", text, re.M))
    else:
        text = (ROOT / "README.md").read_text(encoding="utf-8")
        found = dict(re.findall(r"^\| (\d+) \| (.+) \|$", text, re.M))
    assert {int(k) for k in found} == {*CODES, 130}
    assert "форум" in found["3"] and "база" in found["4"] and "referee.toml" in found["2"]
    assert DEMO.exists()
