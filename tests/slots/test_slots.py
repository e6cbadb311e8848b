"""Replacements («замены»), written once: who plays a slot when (V5 and the roster)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from referee.config.game import Replacement
from referee.rules.slots import Slots


def at(hour: int) -> datetime:
    return datetime(2026, 11, 21, hour, 0, tzinfo=UTC)


# Барсук takes Лиса's slot from post 120; Ёжик takes Пуаро's from 18:00.
SLOTS = Slots(
    [Replacement("Лиса", "Барсук", from_post=120),
     Replacement("Пуаро", "Ёжик", from_time=at(18))],
    ["Лиса", "Пуаро", "Шерлок"],
)


@pytest.mark.parametrize(("author", "hour", "post", "slot"), [
    ("Барсук", 12, 119, "Барсук"),   # before his first post in the slot he is nobody's
    ("Барсук", 12, 120, "Лиса"),     # from the announced post on he plays Лиса
    ("барсук", 12, 200, "Лиса"),     # the nick's case does not matter
    ("Ёжик", 17, 300, "Ёжик"),       # before the time
    ("Ёжик", 18, 300, "Пуаро"),      # at the time: in force (T2: the moment counts)
    ("шерлок", 12, 1, "Шерлок"),     # a player's own post under his roster spelling
    ("Гость", 12, 1, "Гость"),       # nobody's slot
])
def test_a_posts_author_plays_the_slot_he_took_from_its_moment(
        author: str, hour: int, post: int, slot: str) -> None:
    assert SLOTS.slot_at(author, at(hour), post) == slot


@pytest.mark.parametrize(("slot", "hour", "post", "holder"), [
    ("Лиса", 12, 119, "Лиса"),
    ("Лиса", 12, 120, "Барсук"),
    ("Пуаро", 17, 999, "Пуаро"),
    ("Пуаро", 19, 999, "Ёжик"),
])
def test_who_holds_a_slot_at_a_post(slot: str, hour: int, post: int, holder: str) -> None:
    assert SLOTS.holder(slot, post, at(hour)) == holder


def test_messages_go_to_who_holds_the_slot_now() -> None:
    assert SLOTS.holder_now("Лиса", at(1)) == "Барсук"      # announced by post: in force
    assert SLOTS.holder_now("Пуаро", at(17)) == "Пуаро"
    assert SLOTS.holder_now("Пуаро", at(18)) == "Ёжик"


def test_a_replacement_is_an_alias_of_his_slot_for_night_mail() -> None:
    assert SLOTS.as_aliases({"Лиса": ["Лисичка"]}) == {
        "Лиса": ("Лисичка", "Барсук"), "Пуаро": ("Ёжик",)}
