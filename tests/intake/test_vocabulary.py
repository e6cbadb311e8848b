"""The request vocabulary is data a host can read (issue 25): docs/rules.md «Словарь
заявок» shows exactly the tables the reader uses, every table is broad, and every entry is
found by the reader in a sentence of its own."""

from __future__ import annotations

from pathlib import Path

import pytest
from vocabulary_docs import HEAD, render

from referee.rules.intake.vocabulary import ACTION_FAMILIES, find_words, tables

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def test_docs_show_the_vocabulary_the_reader_uses() -> None:
    text = DOCS.read_text(encoding="utf-8")
    start = text.index(HEAD)
    end = text.find("\n## ", start + len(HEAD))
    section = text[start:] if end < 0 else text[start: end].rstrip("\n") + "\n"
    assert section == render()


MINIMUM = {"check": 40, "heal": 30, "strike": 50, "beat": 30, "take": 30, "ambush": 15,
           "blow": 15, "protect": 20, "executor": 15, "change": 12, "withdraw": 12,
           "skip": 8, "correction": 20, "hesitation": 20, "opener": 100}


@pytest.mark.parametrize(("family", "least"), MINIMUM.items())
def test_every_table_is_broad(family: str, least: int) -> None:
    assert len(tables()[family]) >= least


@pytest.mark.parametrize("family", ACTION_FAMILIES)
def test_every_action_word_is_found_as_its_family(family: str) -> None:
    for entry in tables()[family]:
        word = entry.removeprefix("=")
        found = find_words(f"{word} ".casefold().replace("ё", "е"))
        assert found and found[0].family == family, (family, entry, found)
