"""Which PMs belong to a night (docs/rules.md N1, N9, T2, N14): the window, the necromancer's day
PMs, early requests, the host's own mail, non-players and replacements."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from intake_helpers import describe, pm

from referee.config.game import Config, DaySchedule, ForumConfig, NightRules, Player, Replacement
from referee.core.forum_settings import ForumSettings
from referee.rules.intake import NightIntake, read_night

D1 = datetime(2026, 11, 20, 15, 0, tzinfo=UTC)
NIGHT_START = datetime(2026, 11, 21, 19, 0, tzinfo=UTC)
NIGHT_END = datetime(2026, 11, 22, 7, 0, tzinfo=UTC)
PLAYERS = (
    Player("Полковник", "commissar"),
    Player("Ёжик", "necromancer"),
    Player("Лиса", "mafia", "mafia"),
    Player("Kotik", "citizen"),
    Player("Гроза", "maniac"),
)


def config(*, replacements: tuple[Replacement, ...] = (), turns: int = 3) -> Config:
    return Config(
        path=Path("referee.toml"),
        host="Ведущий",
        forum=ForumConfig(ForumSettings(url="http://forum/viewtopic.php?t=3")),
        players=PLAYERS,
        schedule=(
            DaySchedule(1, D1, NIGHT_START, NIGHT_END),
            DaySchedule(2, NIGHT_END + timedelta(minutes=5), NIGHT_END + timedelta(hours=36),
                        NIGHT_END + timedelta(hours=48)),
        ),
        replacements=replacements,
        night=NightRules(necromancer_turns=turns),
    )


def night(pms: list, n: int = 1, cfg: Config | None = None) -> NightIntake:
    cfg = cfg or config()
    day = cfg.day(n)
    assert day is not None and day.night_deadline is not None
    return read_night(pms, cfg, n, (day.deadline, day.night_deadline))


def table(intake: NightIntake) -> list[str]:
    return [f"{r.source_id}: {describe(r)}" for r in intake.requests] + [
        f"{u.pm_id}: unreadable {u.kind}" for u in intake.unreadable
    ]


def test_window_start_counts_and_the_deadline_is_late_T2() -> None:
    pms = [
        pm("Проверяю Kotik", pm_id=1, sent_at=NIGHT_START),
        pm("Проверяю Лиса", pm_id=2, sent_at=NIGHT_END - timedelta(seconds=1)),
        pm("Проверяю Гроза", pm_id=3, sent_at=NIGHT_END),
    ]
    assert table(night(pms)) == ["1: check Kotik", "2: check Лиса"]


def test_pms_are_read_in_sending_order_not_list_order_N1() -> None:
    pms = [
        pm("Меняю проверку на Лиса", pm_id=9, sent_at=NIGHT_START + timedelta(hours=2)),
        pm("Проверяю Kotik", pm_id=4, sent_at=NIGHT_START + timedelta(hours=1)),
    ]
    intake = night(pms)
    assert table(intake) == ["4: check Kotik", "9: check Лиса"]
    assert [r.order for r in intake.requests] == [1, 2]


def test_the_same_pm_seen_twice_is_read_once() -> None:
    one = pm("Проверяю Kotik", pm_id=5, sent_at=NIGHT_START + timedelta(hours=1))
    assert table(night([one, one])) == ["5: check Kotik"]


def test_necromancer_day_pm_counts_for_the_following_night_N9() -> None:
    pms = [pm("Защищаю Kotik и Лиса", "Ёжик", pm_id=1, sent_at=D1 + timedelta(hours=2))]
    assert table(night(pms, 1)) == ["1: protect Kotik + Лиса"]
    assert table(night(pms, 2)) == []  # it belongs to night 1 only


def test_necromancer_night_pm_is_noted_to_count_from_the_next_night_N15_5() -> None:
    pms = [pm("Защищаю Kotik и Лиса", "Ёжик", pm_id=1, sent_at=NIGHT_START + timedelta(hours=1))]
    (request,) = night(pms, 1).requests
    assert request.note == ("защита некроманта: Kotik и Лиса; N9: заявка некроманта пришла "
                            "ночью 1 (по правилам — днём): защита действует с ночи 2 (N15.5)")


def test_necromancer_day_pm_after_his_last_turn_is_listed_N9() -> None:
    sent = NIGHT_END + timedelta(hours=2)  # day 2
    pms = [pm("Защищаю Kotik и Лиса", "Ёжик", pm_id=1, sent_at=sent)]
    assert table(night(pms, 2, config(turns=1))) == ["1: unreadable necromancer_turn"]


def test_another_roles_request_by_day_counts_for_the_night_N1() -> None:
    """N1: a request reaches the host before the night's deadline — by day too."""
    pms = [
        pm("Проверяю Kotik", pm_id=1, sent_at=D1 + timedelta(hours=3)),
        pm("Привет! Скучно.", "Kotik", pm_id=2, sent_at=D1 + timedelta(hours=4)),
    ]
    intake = night(pms)
    assert table(intake) == ["1: check Kotik", "2: unreadable chatty"]
    assert "прислано днём 1" in intake.requests[0].note


def test_hosts_own_pms_and_pms_to_others_are_ignored() -> None:
    t = NIGHT_START + timedelta(hours=1)
    pms = [
        pm("Тень_Ночи – мафия.", "Ведущий", pm_id=1, sent_at=t, to="Полковник"),
        pm("Проверяю Kotik", "Полковник", pm_id=2, sent_at=t, to="Лиса"),
    ]
    assert table(night(pms)) == []


def test_a_non_player_is_listed_N14() -> None:
    pms = [pm("Проверяю Kotik", "Пуаро", pm_id=3, sent_at=NIGHT_START + timedelta(hours=1))]
    intake = night(pms)
    assert table(intake) == ["3: unreadable non_player"]
    assert "Пуаро" in intake.unreadable[0].reason


def test_a_replacement_writes_for_his_slot() -> None:
    cfg = config(replacements=(Replacement("Полковник", "Новичок", from_time=D1),))
    pms = [pm("Проверяю Kotik", "Новичок", pm_id=4, sent_at=NIGHT_START + timedelta(hours=1))]
    intake = night(pms, 1, cfg)
    assert table(intake) == ["4: check Kotik"]
    assert intake.requests[0].actor == "Полковник"


def test_a_change_in_a_later_pm_keeps_the_clans_executor_N1_N5() -> None:
    t = NIGHT_START + timedelta(hours=1)
    pms = [
        pm("Стреляем в Kotik, исполнитель Лиса", "Лиса", pm_id=1, sent_at=t),
        pm("Меняю выстрел на Гроза", "Лиса", pm_id=2, sent_at=t + timedelta(hours=1)),
    ]
    assert table(night(pms)) == ["1: shoot Kotik by Лиса", "2: shoot Гроза by Лиса"]
