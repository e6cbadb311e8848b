"""Issue 29 item 13: «Дон» / «дон мафии» — a role these rules do not have — is read as
Мафия, and ``referee check`` says so instead of keeping silent."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from check_helpers import DEMO_TEXT, ROOT

from referee.config.game import load_config
from referee.host.checkup import run_checkup

LISA = '"Лиса" = { role = "mafia", clan = "Лисья нора" }'


@pytest.mark.parametrize("typed", ["Дон", "дон мафии", "Дон Мафии", "ДОН"])
def test_a_don_is_mafia_and_check_says_so(tmp_path: Path, typed: str) -> None:
    assert LISA in DEMO_TEXT
    text = DEMO_TEXT.replace(LISA, f'"Лиса" = {{ role = "{typed}", clan = "Лисья нора" }}')
    text = text.replace('snapshot = "pages"', f'snapshot = "{ROOT / "fixtures/demo/pages"}"')
    path = tmp_path / "referee.toml"
    path.write_text(text, encoding="utf-8")
    lisa = next(p for p in load_config(path).players if p.nick == "Лиса")
    assert lisa.role == "mafia"
    result = run_checkup(path, tmp_path / "g.db", now=datetime(2026, 11, 21, tzinfo=UTC),
                         offline=True)
    assert result.ok
    assert f"Лиса: «{typed}» считается ролью «Мафия» — в правилах игры (docs/rules.md) дона " \
           "нет, своей ночной проверки у него нет" in result.warnings


def test_plain_mafia_gets_no_such_warning(tmp_path: Path) -> None:
    path = tmp_path / "referee.toml"
    path.write_text(DEMO_TEXT.replace('snapshot = "pages"',
                                      f'snapshot = "{ROOT / "fixtures/demo/pages"}"'),
                    encoding="utf-8")
    result = run_checkup(path, tmp_path / "g.db", now=datetime(2026, 11, 21, tzinfo=UTC),
                         offline=True)
    assert not [w for w in result.warnings if "дона нет" in w]
