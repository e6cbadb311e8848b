"""Issue 30 item 3: a command loads what it needs, when it runs.

An offline ``tally`` of the demo game loads no HTTP client, no pydantic (typer reads the
command line's values through it: :mod:`referee.cli.params` reads them plainly), no
sqlite-utils or numpy (they make the schema of a new or older database only; reading is
plain sqlite3), no rich or click (nothing is drawn or
asked), no package metadata scan (pymorphy3 is told where its dictionary is) and none of
the other commands' libraries (the watch, the sending).
"""

from __future__ import annotations

import json
import subprocess
import sys
from enum import StrEnum
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from referee.cli import app
from referee.cli.params import NOT_NUMBER, NOT_WHOLE, plain_reader

ROOT = Path(__file__).resolve().parents[1]

NOT_LOADED = ("httpx", "pydantic", "sqlite_utils", "numpy", "rich", "click",
              "importlib.metadata", "referee.host.watch", "referee.host.publish",
              "referee.host.outgoing", "referee.store.sync")

CLI = "import sys; from referee.cli import main; sys.argv[0] = 'referee'; main()"
_OFFLINE_TALLY = """
import json, sys
watched = json.loads(sys.argv[2])
sys.argv = ["referee", "--config", "fixtures/demo/referee.toml", "--db", sys.argv[1],
            "tally", "--day", "1", "--offline"]
from referee.cli import main
try:
    main()
except SystemExit as done:
    assert not done.code, done.code
print(json.dumps(sorted(m for m in watched if m in sys.modules)))
"""


def test_an_offline_tally_loads_only_what_it_needs(tmp_path: Path) -> None:
    # The demo's saved pages read into the database first: the count reads real votes.
    subprocess.run([sys.executable, "-c", CLI, "--config", "fixtures/demo/referee.toml",
                    "--db", str(tmp_path / "demo.db"), "sync"],
                   cwd=ROOT, capture_output=True, text=True, check=True)
    done = subprocess.run(
        [sys.executable, "-c", _OFFLINE_TALLY, str(tmp_path / "demo.db"),
         json.dumps(NOT_LOADED)], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


class Colour(StrEnum):
    red = "red"
    blue = "blue"


def read(annotation: Any, value: Any, **info: Any) -> Any:
    reader = plain_reader(annotation, typer.models.OptionInfo(**info))
    assert reader is not None
    return reader(value, None, None)


@pytest.mark.parametrize(("annotation", "value", "expected"), [
    (int, "12", 12), (int, " 3 ", 3), (float, "2.5", 2.5), (float, "4", 4.0),
    (str, "Лиса", "Лиса"), (bool, "yes", True), (bool, "0", False), (bool, True, True),
    (list[str], ("a", "b"), ["a", "b"]), (Colour, "blue", Colour.blue),
    (Path, "игра/referee.toml", Path("игра/referee.toml")),
])
def test_plain_values_are_read_as_typer_read_them(annotation: Any, value: Any,
                                                   expected: Any) -> None:
    got = read(annotation, value)
    assert got == expected and type(got) is type(expected)


@pytest.mark.parametrize(("annotation", "said"), [(int, NOT_WHOLE), (float, NOT_NUMBER)])
def test_a_value_that_is_no_number_is_said_in_pydantics_words(annotation: Any,
                                                               said: str) -> None:
    with pytest.raises(ValueError, match=said):
        read(annotation, "x")


def test_a_ranged_or_parsed_value_is_left_to_typer() -> None:
    assert plain_reader(int, typer.models.OptionInfo(min=1)) is None
    assert plain_reader(str, typer.models.OptionInfo(parser=str.upper)) is None
    assert plain_reader(dict[str, int], typer.models.OptionInfo()) is None


@pytest.mark.parametrize(("args", "said"), [
    (["tally", "--day", "x"], "нужно целое число"),
    (["tally", "-f", "html"], "— не одно из: 'bbcode', 'text', 'json'."),
])
def test_a_wrong_value_is_still_said_in_russian(args: list[str], said: str) -> None:
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 2 and said in res.output
