"""The thin commands over the demo game: each prints what the host needs and records the
host's decisions (the rules themselves are tested in their own folders)."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from referee.cli import app
from referee.store import Store

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "fixtures/demo/referee.toml"


def run(tmp_path: Path, *args: str, now: str = "2026-11-22 10:30"):  # noqa: ANN201
    db = tmp_path / "c.db"
    res = CliRunner().invoke(app, ["--config", str(DEMO), "--db", str(db), "--now", now, *args])
    assert res.exit_code == 0, res.output
    return res


def test_pms_lists_the_nights_mail(tmp_path: Path) -> None:
    out = run(tmp_path, "pms", "--night", "1").stdout
    # Night 1 runs 21.11 22:00 – 22.11 10:00: PMs 9–18 (the necromancer's PM 8 came by day).
    for sender in ("Полковник", "Доктор Ватсон", "Лиса", "Шерлок", "Мисс Марпл", "Гроза",
                   "Ира-Ира", "Kotik", "Nika-77"):
        assert sender in out
    assert "Защищаю" not in out
    assert "Засада." in out


def test_votes_lists_every_vote_event_with_links(tmp_path: Path) -> None:
    run(tmp_path, "sync")
    out = run(tmp_path, "votes", "--day", "1").stdout
    assert "viewtopic.php?p=85#p85" in out  # rejected, V3
    assert "viewtopic.php?p=83#p83" in out  # counted
    assert "V3" in out


def test_vote_override_is_recorded_and_shown(tmp_path: Path) -> None:
    run(tmp_path, "sync")
    run(tmp_path, "vote", "reject", "83", "--reason", "голос из мультиаккаунта")
    doc = json.loads(run(tmp_path, "tally", "--day", "1", "--offline", "--format",
                         "json").stdout)
    assert {"post_id": 83} .items() <= next(
        r for r in doc["rejected"] if r["post_id"] == 83).items()
    smith = next(c for c in doc["counts"] if c["target"] == "Mr. Smith")
    assert smith["votes"] == 5
    kinds = [o.kind for o in Store.open(tmp_path / "c.db").overrides()]
    assert kinds == ["vote.reject"]


def test_excuse_and_hang_and_remove_are_recorded(tmp_path: Path) -> None:
    run(tmp_path, "sync")
    assert "Снежок" in run(tmp_path, "excuse", "снежок", "--turn", "2").stdout
    assert "никого не вешают" in run(tmp_path, "hang", "--day", "1", "--nobody").stdout
    assert "Гроза" in run(tmp_path, "remove", "Гроза", "--after-day", "1").stdout
    kinds = [o.kind for o in Store.open(tmp_path / "c.db").overrides()]
    assert kinds == ["excuse", "result.day", "player.remove"]


def test_unknown_nick_is_a_clear_error(tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["--config", str(DEMO), "--db", str(tmp_path / "e.db"),
                                   "excuse", "Пуаро", "--turn", "1"])
    assert res.exit_code != 0
    assert "Пуаро" in str(res.exception)


def test_sync_says_which_saved_pages_are_missing_or_unusable(tmp_path: Path) -> None:
    pages = tmp_path / "pages"
    pages.mkdir()
    src = ROOT / "fixtures/demo/pages"
    (pages / "topic_p1_host.html").write_bytes((src / "topic_p1_host.html").read_bytes())
    # A page cut short while saving, and a file that is no forum page at all.
    (pages / "topic_p2_host.html").write_bytes((src / "topic_p2_host.html").read_bytes()[:30000])
    (pages / "notes.html").write_text("<html><body>заметки</body></html>", encoding="utf-8")
    cfg = tmp_path / "referee.toml"
    cfg.write_text(DEMO.read_text(encoding="utf-8"), encoding="utf-8")
    res = CliRunner().invoke(app, ["--config", str(cfg), "sync"])
    assert res.exit_code == 0, res.output
    assert "страницы 2–4 темы не прочитаны" in res.stderr
    assert "пропущен сохранённый файл topic_p2_host.html" in res.stderr
    assert "пропущен сохранённый файл notes.html" in res.stderr


def test_hanged_role_is_revealed_only_when_the_setting_says_so(tmp_path: Path) -> None:
    # V6: «The hanged player's role is revealed (setting)».
    shown = run(tmp_path, "tally", "--day", "1").stdout.split("ТОЛЬКО ДЛЯ ВЕДУЩЕГО")[0]
    assert "Mr. Smith — [b]Мафия[/b]." in shown
    cfg = tmp_path / "referee.toml"
    cfg.write_text(DEMO.read_text(encoding="utf-8").replace(
        "reveal_role_on_hanging = true", "reveal_role_on_hanging = false"), encoding="utf-8")
    (tmp_path / "pages").symlink_to(ROOT / "fixtures/demo/pages")
    res = CliRunner().invoke(app, ["--config", str(cfg), "--now", "2026-11-22 10:30",
                                   "tally", "--day", "1"])
    assert res.exit_code == 0, res.output
    assert "Мафия" not in res.stdout.split("ТОЛЬКО ДЛЯ ВЕДУЩЕГО")[0]
