"""The twelve real PMs of «Мафия: игра 2» (fixtures/phpbb33-ru) read as night 1 (N1–N14).

The roles are the game's own (manifest «roles_as_designed»): дон мафии and мафия are one
clan; the host's reading of each PM is the table below."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from intake_helpers import describe

from referee.config.game import (
    Config,
    DaySchedule,
    ForumConfig,
    Player,
)
from referee.core.forum_settings import ForumSettings
from referee.core.kernel import PmListEntry, PrivateMessage
from referee.core.roles import normalise_role
from referee.rules.intake import NightIntake, night_roster, read_night, read_requests

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "phpbb33-ru"
MANIFEST = json.loads((FIXTURE / "manifest.json").read_text(encoding="utf-8"))
MSK = ZoneInfo("Europe/Moscow")

EXPECTED = {
    8: "protect Kotik + Ира-Ира",  # некромант, during day 1
    9: "check Kotik",
    10: "heal Nika-77",  # «— она весь день писала…» is a reason, not a nick
    11: "shoot Мисс Марпл by Тень_Ночи",
    12: "beat Тень_Ночи",
    13: "take Снежок",
    14: "check Тень_Ночи",  # the commissar's change (N1)
    15: "ambush",
    16: "kill Nika-77",
    17: "blow Тень_Ночи",  # typed «Тень_Ночт»: near match, flagged
    18: "unreadable: chatty",  # a citizen chatting
}


def _utc(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00")).astimezone(UTC)


def _msk(value: str) -> datetime:
    return datetime.fromisoformat(value).replace(tzinfo=MSK).astimezone(UTC)


def manifest_pms() -> list[PrivateMessage]:
    """PMs built from the manifest's raw text (none of them has markup but pm 19)."""
    return [
        PrivateMessage(
            pm_id=p["msg_id"], sender=p["from"], sender_id=None, recipients=(p["to"],),
            sent_at=_utc(p["time"]["utc"]), subject=p["subject"], body_html=p["bbcode"],
            body_text=p["bbcode"],
        )
        for p in MANIFEST["private_messages"]
    ]


def parsed_pms() -> list[PrivateMessage]:
    """The same PMs from the saved pages, through the phpBB adapter's own parser."""
    parse = pytest.importorskip("adapters.phpbb.pms").parse_pm
    out = []
    for p in MANIFEST["private_messages"]:
        html = (FIXTURE / p["file"]).read_text(encoding="utf-8")
        out.append(parse(html, url=p["file"], tz=MSK, now=datetime(2026, 11, 30, tzinfo=UTC)))
    return out


def exported_pms() -> list[PrivateMessage]:
    """The same PMs as phpBB's folder export gives them (the BBCode as typed, the second
    they were sent), through the adapter's export reader: what a sync stores."""
    parse = pytest.importorskip("adapters.phpbb.pm_export")
    sys.path.insert(0, str(FIXTURE.parents[1] / "benchmarks"))
    from phpbb_export import ExportRow, export_xml

    pms = MANIFEST["private_messages"]
    rows = [ExportRow(p["subject"], p["from"], _utc(p["time"]["utc"]), p["bbcode"])
            for p in pms]
    form = parse.ExportForm("", {}, tuple(p["msg_id"] for p in pms), "Ведущий")
    out = []
    for p, row in zip(pms, parse.parse_pm_export(export_xml(rows)), strict=True):
        entry = PmListEntry(p["msg_id"], p["subject"], p["from"], None, "")
        out.append(parse.pm_from_export(row, entry, folder="inbox", form=form))
    return out


def game_config() -> Config:
    game = MANIFEST["game"]
    roles = {nick: normalise_role(r, nick) for nick, r in game["roles_as_designed"].items()}
    return Config(
        path=Path("referee.toml"),
        host=game["host"],
        forum=ForumConfig(ForumSettings(timezone="Europe/Moscow", snapshot=FIXTURE)),
        players=tuple(
            Player(nick, roles[nick], "mafia" if roles[nick] in ("mafia", "thug", "kamikaze")
                   else None)
            for nick in game["players"]
        ),
        schedule=(
            DaySchedule(1, _msk("2026-11-20 18:00"), _msk("2026-11-21 22:00"),
                        _msk("2026-11-22 10:00")),
            DaySchedule(2, _msk("2026-11-22 10:05"), _msk("2026-11-23 22:00"),
                        _msk("2026-11-24 10:00")),
        ),
    )


def night_1(pms: list[PrivateMessage]) -> NightIntake:
    config = game_config()
    day = config.day(1)
    assert day is not None and day.night_deadline is not None
    return read_night(pms, config, 1, (day.deadline, day.night_deadline))


def _reading(intake: NightIntake) -> dict[int, str]:
    out: dict[int, list[str]] = {}
    for r in intake.requests:
        out.setdefault(int(r.source_id or 0), []).append(describe(r))
    for u in intake.unreadable:
        out.setdefault(u.pm_id or 0, []).append(f"unreadable: {u.kind}")
    return {k: " / ".join(v) for k, v in out.items()}


@pytest.mark.parametrize("source", [manifest_pms, parsed_pms, exported_pms],
                         ids=["manifest", "html", "export"])
def test_real_night_1_pms_read_as_the_host_reads_them_N1_N14(source: object) -> None:
    intake = night_1(source())  # type: ignore[operator]
    assert _reading(intake) == EXPECTED


def test_exported_pms_read_as_their_views_N1() -> None:
    # The same requests, flags, notes and unread items whether a PM was opened or exported;
    # only the times are finer (the export has the seconds, the view the minute).
    def minute(intake: NightIntake) -> NightIntake:
        def cut(when: datetime | None) -> datetime | None:
            return when.replace(second=0) if when is not None else None

        return replace(
            intake, requests=tuple(replace(r, sent_at=cut(r.sent_at)) for r in intake.requests),
            unreadable=tuple(replace(u, sent_at=cut(u.sent_at)) for u in intake.unreadable))

    assert minute(night_1(exported_pms())) == night_1(parsed_pms())


def test_the_hosts_own_pm_is_ignored() -> None:
    intake = night_1(manifest_pms())
    assert 19 not in intake.pm_ids
    assert all(r.source_id != "19" for r in intake.requests)
    assert all(u.pm_id != 19 for u in intake.unreadable)


def test_requests_are_in_sending_order_and_point_to_their_pm_N1() -> None:
    intake = night_1(manifest_pms())
    assert [r.order for r in intake.requests] == list(range(1, len(intake.requests) + 1))
    assert [r.source_id for r in intake.requests] == [
        "8", "9", "10", "11", "12", "13", "14", "15", "16", "17"
    ]
    times = [r.sent_at for r in intake.requests]
    assert times == sorted(times)
    assert all(r.source == "pm" for r in intake.requests)


def test_the_kamikaze_typo_is_read_but_flagged_V2() -> None:
    intake = night_1(manifest_pms())
    assert [(f.pm_id, f.typed, f.nick, f.kind) for f in intake.flags] == [
        (17, "Тень_Ночт", "Тень_Ночи", "near")
    ]
    blow = next(r for r in intake.requests if r.action == "blow")
    assert "«Тень_Ночт» прочитано как Тень_Ночи (близкое совпадение)" in blow.note


def test_the_commissars_change_is_a_later_check_with_a_note_N1() -> None:
    intake = night_1(manifest_pms())
    checks = [r for r in intake.requests if r.actor == "Полковник"]
    assert [(r.action, r.target) for r in checks] == [("check", "Kotik"), ("check", "Тень_Ночи")]
    assert checks[0].order < checks[1].order
    assert "исправление" in checks[1].note and "исправление" not in checks[0].note


def test_the_necromancers_day_pm_counts_for_night_1_N9() -> None:
    intake = night_1(manifest_pms())
    protect = next(r for r in intake.requests if r.action == "protect")
    assert protect.actor == "Ёжик" and protect.source_id == "8"
    assert "прислано днём 1" in protect.note
    assert intake.day_requests == (protect,)
    assert protect not in intake.night_requests
    assert len(intake.night_requests) == len(intake.requests) - 1


def test_the_citizens_chat_is_listed_not_guessed_N14() -> None:
    intake = night_1(manifest_pms())
    (chat,) = intake.unreadable
    assert (chat.pm_id, chat.sender, chat.kind) == (18, "Nika-77", "chatty")
    assert "Мирный житель" in chat.reason


def test_mafia_shot_without_an_executor_is_the_senders_N5() -> None:
    config = game_config()
    pm = manifest_pms()[3]  # pm 11, Лиса
    bare = PrivateMessage(pm.pm_id, pm.sender, None, pm.recipients, pm.sent_at, pm.subject,
                          "Стреляем в Мисс Марпл.", "Стреляем в Мисс Марпл.")
    result = read_requests(bare, "mafia", night_roster(config), order=1)
    (shot,) = result.requests
    assert (shot.target, shot.executor) == ("Мисс Марпл", "Лиса")
    assert "N5" in shot.note
