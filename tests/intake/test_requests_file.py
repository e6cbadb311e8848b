"""The host's requests file and edits (docs/rules.md N1, N5, N6, N9, N14)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from intake_helpers import ROSTER, describe

from referee.core.errors import ConfigError, GameError
from referee.rules.actions import Request
from referee.rules.intake.requests_file import (
    HostEdit,
    apply_host_edits,
    file_requests,
    load_requests_file,
    parse_requests_file,
)

FILE = """
[[request]]
night = 1
actor = "Лиса"
action = "shoot"
target = "Мисс Марпл"
executor = "Тень_Ночи"

[[request]]
night = 1
actor = "ежик"
action = "protect"
targets = ["Kotik", "Ира-Ира"]

[[request]]
night = 2
actor = "Гроза"
action = "ambush"

[[drop]]
night = 1
actor = "Kotik"
reason = "написал после дедлайна"
"""


def test_requests_file_gives_requests_from_the_file(tmp_path: Path) -> None:
    path = tmp_path / "requests.toml"
    path.write_text(FILE, encoding="utf-8")
    edits = load_requests_file(path, ROSTER)
    night_1 = file_requests(edits, 1)
    assert [describe(r) for r in night_1] == [
        "shoot Мисс Марпл by Тень_Ночи",
        "protect Kotik + Ира-Ира",
    ]
    assert [r.actor for r in night_1] == ["Лиса", "Ёжик"]  # «ежик» is Ёжик
    assert {r.source for r in night_1} == {"file"}
    assert [describe(r) for r in file_requests(edits, 2)] == ["ambush"]
    (drop,) = [e for e in edits if e.op == "drop"]
    assert (drop.night, drop.actor, drop.reason) == (1, "Kotik", "написал после дедлайна")


@pytest.mark.parametrize(
    ("entry", "error", "message"),
    [
        ('night = 1\nactor = "Пуаро"\naction = "check"\ntarget = "Kotik"', GameError,
         r"#1 \(кто: 'Пуаро'\): actor 'Пуаро' — не игрок"),
        ('night = 1\nactor = "Лиса"\naction = "shoot"\ntarget = "Тень_Ночт"', GameError,
         "может быть, 'Тень_Ночи'"),
        ('night = 1\nactor = "Лиса"\naction = "fly"\ntarget = "Kotik"', ConfigError,
         "не ночное действие"),
        ('night = 0\nactor = "Лиса"\naction = "shoot"\ntarget = "Kotik"', ConfigError,
         "нужен номер ночи"),
        ('night = 1\nactor = "Лиса"\naction = "shoot"', ConfigError, "нет target"),
        ('night = 1\nactor = "Ёжик"\naction = "protect"\ntarget = "Kotik"', ConfigError,
         "двух игроков"),
        ('night = 1\nactor = "Гроза"\naction = "ambush"\ntarget = "Kotik"', ConfigError,
         "нет цели"),
        ('night = 1\nactor = "Шерлок"\naction = "beat"\ntarget = "Kotik"\nexecutor = "Лиса"',
         ConfigError, "executor бывает только у выстрела"),
        ('night = 1\nactor = "Лиса"\naction = "shoot"\ntraget = "Kotik"', ConfigError,
         "неизвестные ключи"),
    ],
)
def test_a_wrong_entry_names_itself_and_the_fix(
    entry: str, error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message) as info:
        parse_requests_file(tomllib.loads("[[request]]\n" + entry), ROSTER, where="r.toml")
    assert "r.toml [[request]] #1" in str(info.value)


def test_a_file_that_is_not_toml_is_a_config_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text("[[request]\nnight = 1", encoding="utf-8")
    with pytest.raises(ConfigError, match="не TOML"):
        load_requests_file(path, ROSTER)


# ------------------------------------------------------------------------------ host edits

PLAYER_REQUESTS = (
    Request("Полковник", "check", "Kotik", order=1, source_id="9"),
    Request("Лиса", "shoot", "Мисс Марпл", executor="Тень_Ночи", order=2, source_id="11"),
    Request("Kotik", "blow", "Тень_Ночи", order=3, source_id="17"),
    Request("Гроза", "ambush", order=4, source_id="15"),
)


def edited(*edits: HostEdit, **kw: object) -> tuple[list[str], tuple[str, ...]]:
    requests, log = apply_host_edits(PLAYER_REQUESTS, edits, **kw)  # type: ignore[arg-type]
    return [f"{r.actor}: {describe(r)}" for r in requests], log


def test_host_drops_a_request_with_a_reason_N14() -> None:
    requests, log = edited(HostEdit("drop", 1, "Kotik", reason="после дедлайна"))
    assert "Kotik: blow Тень_Ночи" not in requests and len(requests) == 3
    assert log == ("ведущий: заявка Kotik отменена (причина: после дедлайна): "
                   "подрыв: Тень_Ночи",)


def test_host_drop_of_nothing_is_still_logged() -> None:
    requests, log = edited(HostEdit("drop", 1, "Снежок"))
    assert len(requests) == 4
    assert log == ("ведущий: отмена заявки Снежок — таких заявок не было",)


def test_host_request_replaces_the_players_so_it_is_not_his_change_N1() -> None:
    requests, log = edited(HostEdit("add", 1, "Полковник", "check", "Лиса", reason="ЛС в Telegram"))
    assert [r for r in requests if r.startswith("Полковник")] == ["Полковник: check Лиса"]
    assert log == (
        "ведущий: заявка Полковник заменена — было: Полковник: проверка: Kotik; "
        "стало: проверка: Лиса (причина: ЛС в Telegram)",
    )


def test_host_shot_replaces_the_clans_shot_whoever_sent_it_N5() -> None:
    edit = HostEdit("add", 1, "Тень_Ночи", "shoot", "Kotik", executor="Тень_Ночи")
    requests, _ = edited(edit, clans={"Лиса": "mafia", "Тень_Ночи": "mafia"})
    assert [r for r in requests if "shoot" in r] == ["Тень_Ночи: shoot Kotik by Тень_Ночи"]


def test_host_kill_replaces_the_maniacs_ambush_N6() -> None:
    requests, _ = edited(HostEdit("add", 1, "Гроза", "kill", "Лиса"))
    assert [r for r in requests if r.startswith("Гроза")] == ["Гроза: kill Лиса"]


def test_host_requests_come_after_the_players_and_say_who_made_them() -> None:
    result, _ = apply_host_edits(PLAYER_REQUESTS, [HostEdit("add", 1, "Шерлок", "beat", "Kotik")])
    host = result[-1]
    assert (host.source, host.order) == ("host", 5)
    assert host.note == "ведущий: избиение: Kotik"


def test_edits_of_another_night_do_not_apply() -> None:
    requests, log = edited(HostEdit("drop", 2, "Kotik"), night=1)
    assert len(requests) == 4 and log == ()
