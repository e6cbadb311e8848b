"""Issue 29 item 10: ``referee export игра.json`` writes ``игра.votes.csv`` as the README and
the help say, in the form a Russian Excel and LibreOffice open right by default: UTF-8 with
a byte-order mark, «;» between cells (the comma is the decimal sign there), CRLF lines."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from demo_run import ROOT, run
from typer.testing import CliRunner

from referee.cli import app


def test_the_csv_is_named_and_written_for_a_russian_excel(tmp_path: Path) -> None:
    res = run(tmp_path / "g.db", "2026-11-24 12:00", "export", str(tmp_path / "игра.json"))
    assert res.exit_code == 0, res.output
    path = tmp_path / "игра.votes.csv"
    assert path.exists() and f"{path}" in res.stdout
    raw = path.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")                     # UTF-8 with BOM
    assert b"\r\n" in raw and raw.count(b"\n") == raw.count(b"\r\n")   # CRLF only
    text = raw.decode("utf-8-sig")
    header = text.split("\r\n")[0]
    assert header.startswith("день;время;время UTC;сообщение;игрок")
    rows = list(csv.reader(io.StringIO(text, newline=""), delimiter=";"))
    assert all(len(r) == len(rows[0]) for r in rows) and len(rows) > 10


def test_readme_and_help_name_the_csv_as_it_is_written() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "`игра.votes.csv`" in readme and "ФАЙЛ.votes.csv" not in readme
    page = CliRunner().invoke(app, ["export", "-h"], terminal_width=100).stdout
    assert "игра.votes.csv" in page and "ФАЙЛ.votes.csv" not in page
