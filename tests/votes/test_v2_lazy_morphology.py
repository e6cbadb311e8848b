"""The morphology is loaded only when a vote needs it (issue 25: its import cost is paid by
a day with a nick typed in another case or mistyped, not by every count)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent

SCRIPT = """
import sys
sys.path.insert(0, {tests!r})
from vote_forms import REASON, read
for nick in ("Шерлок", "шерлок", "Kоtik", "Тень Ночи"):
    assert read(REASON + "\\nМой голос – [r]" + nick + "[/r]").verdict == "counted"
before = "pymorphy3" in sys.modules
reading = read(REASON + "\\nМой голос за [r]Шерлока[/r]")
print(before, "pymorphy3" in sys.modules, reading.target, reading.match_kind)
"""


def test_v2_exact_votes_never_load_the_morphology() -> None:
    out = subprocess.run([sys.executable, "-c", SCRIPT.format(tests=str(TESTS))],
                         capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "True", "Шерлок", "case"]
