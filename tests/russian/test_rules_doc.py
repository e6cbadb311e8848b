"""Issue 13: the rules are inside the project — docs/rules.md names every rule the tool
applies, with the rules' sentence, the decision and the setting; every rule code an output
can show is there; the README and referee.toml point to it; the README's first bash block
stays the two commands CI runs."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
CODES = (["T1", "T2"] + [f"V{i}" for i in range(1, 7)] + ["A1", "A2", "A3"]
         + [f"N{i}" for i in range(1, 16)] + [f"N15.{i}" for i in range(1, 16)] + ["W1", "W2"])
CODE = re.compile(r"""["'](T[12]|V[1-6]|A[1-3]|N\d{1,2}(?:\.\d{1,2})?|W[12])["']""")


@pytest.mark.parametrize("code", CODES)
def test_docs_rules_names_every_rule(code: str) -> None:
    assert re.search(rf"(^### {re.escape(code)}\. |\*\*{re.escape(code)} )", DOC, re.M), code


@pytest.mark.parametrize("code", [c for c in CODES if "." not in c])
def test_each_rule_has_the_rules_sentence_the_decision_and_the_setting(code: str) -> None:
    section = DOC.split(f"### {code}. ", 1)[1].split("\n### ", 1)[0]
    for part in ("**В правилах игры:**", "**Решение:**", "**Настройка:**"):
        assert part in section, (code, part)


def test_every_rule_code_an_output_can_show_is_explained() -> None:
    shown = {m for p in [*ROOT.glob("referee/**/*.py")]
             for m in CODE.findall(p.read_text(encoding="utf-8"))}
    assert shown and not {c for c in shown if c not in CODES}, shown - set(CODES)


def test_the_readme_and_the_config_point_to_the_rules() -> None:
    for path in ("README.md", "referee.toml", "fixtures/demo/referee.toml"):
        assert "docs/rules.md" in (ROOT / path).read_text(encoding="utf-8"), path


def test_the_readmes_first_bash_block_is_the_two_commands_ci_runs() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("```bash\n", 1)[1].split("```", 1)[0]
    commands = [line for line in block.splitlines() if line.strip() and not line.startswith("#")]
    assert commands == [
        "pip install -e . && referee --config fixtures/demo/referee.toml tally --day 1",
        "pip install -e '.[test]' && python -m pytest",
    ]


def test_the_readme_is_russian_with_an_english_section_and_a_virtual_environment() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "## For contributors (English)" in readme and "## Устройство (Layout)" in readme
    for step in ("python3 -m venv .venv", "source .venv/bin/activate",
                 ".venv\\Scripts\\Activate.ps1", "Linux", "macOS", "Windows"):
        assert step in readme, step
    russian = readme.split("## For contributors (English)")[0]
    assert len(re.findall(r"[А-Яа-яЁё]", russian)) > len(re.findall(r"[A-Za-z]", russian))
