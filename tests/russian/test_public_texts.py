"""Issue 13: the public texts of the demo game read as a host writes them.

Each public part (what ``--post`` posts, what a player gets by PM) is read whole against
the text a host would post without editing (``golden/``); none shows a rule code, a setting
id, a clan key or an internal role id; every command draws the same host-only divider."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from demo_run import STEPS, golden, play, private_night1, public, run

from referee.core.roles import ACTIONS, ROLE_IDS
from referee.render.parts import HOST_ONLY

RULE_CODE = re.compile(r"\b(?:T[12]|V[1-6]|A[1-3]|N1[0-5](?:\.\d+)?|N[1-9]|W[12])\b")
INTERNAL = re.compile(
    r"\b(?:" + "|".join(sorted({*ROLE_IDS, *ACTIONS}, key=len, reverse=True)) + r")\b"
    r"|\b(?:first_to_reach|earliest_last_vote|reveal_role\w*|tie\s*=|rules\.|clan:|\w+:\w+_)"
    r"|\b(?:mafia|kamikaze|ninja|maniac):\S")
NAMES = [name for name, _, _ in STEPS]


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """Every step's whole stdout, and the PMs: the role PMs and night 1's private results."""
    db = tmp_path_factory.mktemp("demo") / "game.db"
    out = play(db)
    out["deal_seed7"] = run(db, "2026-11-22 10:30", "deal", "--seed", "7", "--force",
                            "--dry-run").stdout
    out["private_night1"] = private_night1(db)
    return out


def _public(demo: dict[str, str], name: str) -> str:
    return demo[name] if name == "private_night1" else public(demo[name])


@pytest.mark.parametrize("name", [*NAMES, "deal_seed7", "private_night1"])
def test_each_public_text_reads_whole_as_a_host_would_post_it(
    demo: dict[str, str], name: str
) -> None:
    assert _public(demo, name) == golden(name)


@pytest.mark.parametrize("name", [*NAMES, "deal_seed7", "private_night1"])
def test_no_public_part_shows_a_rule_code_or_an_internal_id(
    demo: dict[str, str], name: str
) -> None:
    text = _public(demo, name)
    assert not RULE_CODE.findall(text), RULE_CODE.findall(text)
    assert not INTERNAL.findall(text), INTERNAL.findall(text)
    assert "\u200b" not in text            # no demo nick needs escaping


@pytest.mark.parametrize("name", [*NAMES, "deal_seed7"])
def test_every_command_draws_the_one_host_only_divider_once(
    demo: dict[str, str], name: str
) -> None:
    assert demo[name].count(HOST_ONLY) == 1
    assert "=" * 20 not in demo[name]


@pytest.mark.parametrize("name", [*NAMES, "deal_seed7"])
def test_no_invisible_character_where_no_nick_needs_escaping(
    demo: dict[str, str], name: str
) -> None:
    # The tool's own brackets («(N9)», «[b]») never get the zero-width space; the demo's
    # nicks have no «[», so no line of any part has one.
    assert "\u200b" not in demo[name]


def test_the_host_only_part_names_the_tie_rule_in_words(demo: dict[str, str]) -> None:
    assert "V6, ничья: кто первым набрал" in demo["tally_day1"].split(HOST_ONLY)[1]


def test_a_nick_always_stands_where_its_form_does_not_change(demo: dict[str, str]) -> None:
    # The sentences that name a player put the nick after a colon or a dash, or before the
    # dash — never after a preposition or a verb that would need another case.
    day1 = public(demo["tally_day1"])
    assert "Больше всех голосов: Mr. Smith — 6. На виселицу отправляется: Mr. Smith." in day1
    morning = public(demo["morning_night1"])
    assert "Этой ночью погибли (3):" in morning
    for bad in ("голосов у ", "вешают ", "отправляется Mr", "лечит ", "стреляет в "):
        assert bad not in day1 + morning


def test_the_demo_texts_are_the_golden_files_and_nothing_else() -> None:
    files = {p.stem for p in (Path(__file__).parent / "golden").glob("*.txt")}
    assert files == {*NAMES, "deal_seed7", "private_night1"}
