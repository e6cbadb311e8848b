"""Issue 29 item 2: ``referee status --format bbcode`` (offered by ``-h``) renders the
host's status for the forum — the text's lines, bold heads, lists — never a traceback."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from glance_demo import DEMO
from typer.testing import CliRunner

from referee.cli import app
from referee.core.bbcode import ZWSP
from referee.host.status import Living, PhaseNow, Status
from referee.render.status import render_status


def test_the_cli_renders_the_status_as_bbcode(tmp_path: Path) -> None:
    base = ["--config", str(DEMO), "--db", str(tmp_path / "g.db"), "--now", "2026-11-23 12:00"]
    res = CliRunner().invoke(app, [*base, "status", "--format", "bbcode", "--offline"])
    assert res.exit_code == 0, res.output
    text = res.stdout
    assert text.startswith("[b]Мафия: игра 2 — состояние на 23.11 12:00")
    assert "Сейчас: день 2 — дедлайн 23.11 22:00, осталось 10 ч." in text
    assert "[b]В игре (14):[/b]\n[list]\n[*]Шерлок — Громила" in text
    assert "[*]День 1: дедлайн прошёл (21.11 22:00), итог не записан → referee tally --day 1" \
        in text
    assert text.count("[list]") == text.count("[/list]") == 2


def test_a_nick_cannot_open_a_tag_in_the_bbcode_status() -> None:
    now = datetime(2026, 11, 22, 12, tzinfo=UTC)
    status = Status("Игра", now, "UTC", PhaseNow("day", 2, now + timedelta(hours=1),
                                                 timedelta(hours=1)),
                    (Living("[url=http://x]Зло[/url]", "citizen", None, "citizen"),),
                    (), (), None, None)
    text = render_status(status, "bbcode")
    assert "[url=" not in text and f"[{ZWSP}url=http://x]Зло[{ZWSP}/url]" in text
