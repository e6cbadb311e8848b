"""The rules core does no I/O (issue 28 item 3; brief: «the rules core (`referee/rules/day`,
`night`, `intake`) does no I/O»): importing it in a fresh interpreter loads no HTTP client,
no database, no HTML parser and no terminal toolkit. Each row is one package whose import
(with every module under it) must leave these libraries unloaded: the rules' folders, the
whole ``referee/rules/`` layer and ``referee/core/``, which every layer imports (issue 28
item 5)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FORBIDDEN = ("httpx", "sqlite3", "sqlite_utils", "selectolax", "typer", "click", "rich")
"""I/O and presentation libraries the pure core must never pull in."""

CORE_PACKAGES = ("referee.rules.day", "referee.rules.night", "referee.rules.intake",
                 "referee.rules", "referee.core")

_PROBE = """
import importlib, json, pkgutil, sys
pkg = importlib.import_module(sys.argv[1])
for info in pkgutil.walk_packages(pkg.__path__, f"{sys.argv[1]}."):
    importlib.import_module(info.name)
print(json.dumps(sorted(m for m in json.loads(sys.argv[2]) if m in sys.modules)))
"""


def _loaded_after_import(package: str) -> list[str]:
    """The forbidden libraries a fresh interpreter holds after importing ``package``."""
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, package, json.dumps(FORBIDDEN)],
        cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


@pytest.mark.parametrize("package", CORE_PACKAGES)
def test_the_rules_core_loads_no_io_library(package: str) -> None:
    assert _loaded_after_import(package) == []


_OFFLINE_TALLY = """
import json, sys
sys.argv = ["referee", "--config", "fixtures/demo/referee.toml", "--db", sys.argv[1],
            "tally", "--day", "1", "--offline"]
from referee.cli import main
try:
    main()
except SystemExit as done:
    assert not done.code, done.code
print(json.dumps(sorted(m for m in ("httpx", "selectolax") if m in sys.modules)))
"""


def test_an_offline_tally_loads_no_http_client(tmp_path: Path) -> None:
    # Issue 30 item 3: offline commands import no HTTP client; the demo's count is read
    # from an empty database, so nothing here can need the forum.
    done = subprocess.run(
        [sys.executable, "-c", _OFFLINE_TALLY, str(tmp_path / "demo.db")],
        cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []
