"""Rendering the activity report: a public BBCode part the host can paste, a host-only table,
text and JSON (docs/rules.md A1–A3)."""

from __future__ import annotations

import json
from datetime import UTC

import pytest
from activity_scenario import posts, run
from support.moscow import MSK
from support.moscow import msk_short as msk

from referee.core.bbcode import escape
from referee.core.roles import ROLE_IDS, ROLE_NAMES_RU, role_name_ru
from referee.render.activity import HOST_ONLY_HEADER, render_activity
from referee.rules.day.activity import ActivityReport, Excuse, TurnDeath

EVIL_NICK = "[/b][url=http://evil.example]Злой[/url]"

ROLES = {"Лиса": "mafia", "Kotik": "boss_son", "Nika-77": "дон мафии", EVIL_NICK: "???"}


def turn_2_over() -> ActivityReport:
    """Turn 2 is over.
    player     | posts in turn 2 | Day 1 vote | Day 2 vote | expected
    Лиса       | 22.11 11:00     | counted    | counted    | stays
    Kotik      | none            | counted    | counted    | out, A1
    Nika-77    | 22.11 12:00     | none       | rejected   | out, A2
    EVIL_NICK  | none            | none       | none       | out, A1 + A2
    Гроза      | none            | counted    | none       | excused for turn 2
    Mr. Smith  | 22.11 12:00     | none       | none       | hanged at the end of Day 2
    """
    return run(
        2,
        alive=("Лиса", "Kotik", "Nika-77", EVIL_NICK, "Гроза", "Mr. Smith"),
        posts=posts([("Лиса", "22.11 11:00"), ("Nika-77", "22.11 12:00"),
                     ("Mr. Smith", "22.11 12:00")]),
        voters={1: ("Лиса", "Kotik", "Гроза"), 2: ("Лиса", "Kotik")},
        rejected={2: ("Nika-77",)},
        excuses=[Excuse("Гроза", 2, "уехала [b]на дачу[/b]")],
        deaths=[TurnDeath("Mr. Smith", msk("23.11 22:00"), "повешен")],
        now="24.11 10:05",
    )


def split(bbcode: str) -> tuple[str, str]:
    public, host = bbcode.split(HOST_ONLY_HEADER)
    return public, host


def test_bbcode_public_part_says_who_leaves_and_why_with_the_role() -> None:
    public, host = split(render_activity(turn_2_over(), "bbcode", ROLES, True, MSK))
    assert public.startswith("[b]Активность: ход 2 (22.11 10:05 – 24.11 10:05 МСК)[/b]")
    assert "[*][b]Kotik[/b] — пропал(а) без вести: ни одного сообщения в теме за ход 2. " \
           "Роль: [b]ВСБ[/b]. Выбывание — с началом дня 3 (в утренней сводке ночи 2)" in public
    # «дон мафии» in the roster is shown with the rules' name of the role.
    assert "[*][b]Nika-77[/b] — пропущено голосований: 2 (дни 1, 2), предел — 2. " \
           "Роль: [b]Мафия[/b]. Выбывание — в конце дня 2" in public
    assert "выбывают в конце дня, после подсчёта голосов; за молчание весь ход — с началом " \
           "следующего дня (в утренней сводке)." in public
    # The rule codes are the host's: never in the public part.
    assert "A1" not in public and "A2" not in public and "A3" not in public
    # Players who stay, the excused and the dead are only in the host's part.
    for nick in ("Лиса", "Гроза", "Mr. Smith"):
        assert nick not in public
        assert nick in host
    assert "[code]" in host and "погиб(ла) 23.11 22:00," in host


def test_bbcode_roles_are_revealed_only_when_the_setting_says_so() -> None:
    public, _ = split(render_activity(turn_2_over(), "bbcode", ROLES, False, MSK))
    assert "Роль:" not in public
    assert "ВСБ" not in public


def test_bbcode_escapes_nicks_and_host_text() -> None:
    out = render_activity(turn_2_over(), "bbcode", ROLES, True, MSK)
    assert "[url=" not in out and "[/url]" not in out
    assert f"[b]{escape(EVIL_NICK)}[/b]" in out
    assert "(A1, A2)" in out
    assert "[b]на дачу" not in out  # the excuse reason is the host's text, escaped too
    assert "Роль: [b]???[/b]" in out  # an unknown role is shown as written


def test_bbcode_before_the_end_is_a_reminder() -> None:
    report = run(
        2,
        alive=("Лиса", "Kotik", "Nika-77"),
        posts=posts([("Лиса", "22.11 11:00"), ("Nika-77", "22.11 12:00")]),
        voters={1: ("Лиса", "Kotik"), 2: ("Лиса",)},
        now="23.11 12:00",
    )
    public, host = split(render_activity(report, "bbcode", ROLES, True, MSK))
    assert "Предварительно: голосование дня 2 — до 23.11 22:00 МСК" in public
    assert "Покидают игру" not in public and "Роль:" not in public
    assert "[*][b]Kotik[/b] — в ходе 2 ещё нет ни одного сообщения" in public
    assert "[*][b]Nika-77[/b] — в день 2 засчитанного голоса ещё нет" in public
    assert "ещё нет" in host and "предупреждение" in host


def test_bbcode_final_with_nobody_out() -> None:
    report = run(1, alive=("Лиса",), posts=posts([("Лиса", "20.11 19:00")]),
                 voters={1: ("Лиса",)}, now="22.11 10:05")
    public, _ = split(render_activity(report, "bbcode", None, True, MSK))
    assert "Никто не покидает игру за неактивность." in public


def test_text_is_a_readable_table() -> None:
    out = render_activity(turn_2_over(), "text", ROLES, True, MSK)
    assert "[b]Kotik" not in out and "[list]" not in out and "[code]" not in out
    lines = out.splitlines()
    header = next(i for i, line in enumerate(lines) if line.startswith("Ник "))
    assert "Голос д2" in lines[header]
    assert max(len(line) for line in lines[header:]) <= 100
    assert set(lines[header + 1]) <= {"-", "+"}
    # A long status wraps onto a line of its own (first cell blank); a long nick is cut.
    table = [line for line in lines[header + 2:] if line.split(" | ")[0].strip()]
    assert [line.split(" | ")[0].strip() for line in table] == [
        "Лиса", "Kotik", "Nika-77", EVIL_NICK[:19] + "…", "Гроза", "Mr. Smith"
    ]
    nika = table[2].split(" | ")
    # Issue 29 item 5: the missed votes are day labels («д1, д2»), not numbers that read
    # as counts against the limit.
    assert [c.strip() for c in nika[1:]] == ["1", "22.11 12:00", "не засчитан", "д1, д2",
                                            "выбывает (A2)"]
    assert "  - Kotik — пропал(а) без вести" in out and "Роль: ВСБ." in out


def test_json_has_turn_final_rows_removed() -> None:
    data = json.loads(render_activity(turn_2_over(), "json", ROLES, True, UTC))
    assert (data["turn"], data["final"]) == (2, True)
    assert len(data["rows"]) == 6
    assert {r["nick"]: r["rule"] for r in data["removed"]} == {
        "Kotik": "A1", "Nika-77": "A2", EVIL_NICK: "A1, A2"
    }
    kotik = next(r for r in data["removed"] if r["nick"] == "Kotik")
    assert (kotik["role"], kotik["role_ru"]) == ("boss_son", "ВСБ")
    nika = next(r for r in data["rows"] if r["nick"] == "Nika-77")
    assert nika["vote"] == "rejected" and nika["missed_days"] == [1, 2]
    assert nika["last_post_at"] == "2026-11-22T09:00:00+00:00"  # 12:00 Moscow in UTC
    hidden = json.loads(render_activity(turn_2_over(), "json", ROLES, False, UTC))
    assert all("role" not in r for r in hidden["removed"])


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="неизвестный формат"):
        render_activity(turn_2_over(), "html", None, False, UTC)  # type: ignore[arg-type]


def test_every_role_has_its_russian_name() -> None:
    assert set(ROLE_NAMES_RU) == set(ROLE_IDS)
    assert [role_name_ru(r) for r in ("doctor", "boss_son", "Дон мафии", "врач", "бармен")] == [
        "Реаниматор", "ВСБ", "Мафия", "Реаниматор", None
    ]
