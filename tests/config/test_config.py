"""referee.toml: the demo config loads; every broken key names itself and the fix."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from referee.config.game import load_config
from referee.core.errors import ConfigError

ROOT = Path(__file__).resolve().parents[2]

MINIMAL = """
[game]
host = "Ведущий"
[forum]
url = "https://forum.example/viewtopic.php?t=3"
timezone = "Europe/Moscow"
[players]
"Лиса" = { role = "мафия", clan = "A" }
"Шерлок" = "commissar"
"""


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "referee.toml"
    p.write_text(text, encoding="utf-8")
    return p


def test_demo_config_loads() -> None:
    cfg = load_config(ROOT / "fixtures/demo/referee.toml")
    assert cfg.host == "Ведущий"
    assert len(cfg.players) == 14
    assert cfg.player("Лиса").role == "mafia"
    assert cfg.player("Лиса").clan == "Лисья нора"
    # T2: deadlines are forum-time-zone instants stored as UTC: 22:00 MSK = 19:00 UTC.
    assert cfg.day(1).deadline == datetime(2026, 11, 21, 19, 0, tzinfo=UTC)
    assert cfg.forum.board.snapshot == ROOT / "fixtures/demo/pages"


def test_russian_role_names_and_default_clan(tmp_path: Path) -> None:
    cfg = load_config(write(tmp_path, MINIMAL))
    assert [(p.nick, p.role, p.clan) for p in cfg.players] == [
        ("Лиса", "mafia", "A"),
        ("Шерлок", "commissar", None),
    ]
    assert cfg.votes.tie == "first_to_reach"  # docs/rules.md V6 default
    assert cfg.votes.reason_min_letters == 10  # V3 default


@pytest.mark.parametrize(
    ("broken", "names"),
    [
        (MINIMAL.replace('host = "Ведущий"', ""), "[game] host"),
        (MINIMAL.replace('"Шерлок" = "commissar"', '"Шерлок" = "wizard"'), "players.'Шерлок'"),
        (MINIMAL.replace('timezone = "Europe/Moscow"', 'timezone = "Mars/Olympus"'), "timezone"),
        (MINIMAL + '[rules]\ntie = "coin"\n', "rules.tie"),
        (MINIMAL + "[rules]\nreason_min_letters = \"ten\"\n", "rules.reason_min_letters"),
        (MINIMAL + '[[schedule.days]]\nday = 1\nstart = "2026-11-20 18:00"\n', "deadline"),
        (MINIMAL + '[[schedule.days]]\nstart = "yesterday"\ndeadline = "x"\n', "start"),
        (MINIMAL.replace('url = "https://forum.example/viewtopic.php?t=3"', ""), "[forum]"),
        (MINIMAL + "[aliases]\n\"Nobody\" = [\"x\"]\n", "aliases"),
        ("[game\nhost=1", "это не TOML"),
    ],
)
def test_broken_config_names_the_key(tmp_path: Path, broken: str, names: str) -> None:
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, broken))
    assert names in str(err.value)


def test_password_in_config_is_refused_without_echoing_it(tmp_path: Path) -> None:
    text = MINIMAL.replace('timezone = "Europe/Moscow"', 'timezone = "UTC"\npassword = "hunter2"')
    with pytest.raises(ConfigError) as err:
        load_config(write(tmp_path, text))
    assert "REFEREE_PASSWORD" in str(err.value)
    assert "hunter2" not in str(err.value)


def test_missing_file_says_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="не найден"):
        load_config(tmp_path / "nope.toml")


def test_not_utf8(tmp_path: Path) -> None:
    p = tmp_path / "referee.toml"
    p.write_bytes(MINIMAL.encode("cp1251"))
    with pytest.raises(ConfigError, match="UTF-8"):
        load_config(p)
