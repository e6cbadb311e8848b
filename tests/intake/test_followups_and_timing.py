"""A night's PMs read together (docs/rules.md N1, T2, N14): later PMs that change, repeat or take
back an earlier request, and when a request counts.

Each row of the follow-up table: the sender's PMs in sending order → the requests passed to
the night engine (the engine applies the once-per-game change of N1 to them), the requests
taken back («Отозвано игроками»: not carried out, no change used), and what the host is
asked. A take-back followed by a new request leaves the earlier one in place, so the new
one is the change N1 counts; a bare nick that would change a request is asked, never
guessed (a guess would use up the change)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from intake_helpers import describe, pm

from referee.config.game import Config, DaySchedule, ForumConfig, Player
from referee.core.forum_settings import ForumSettings
from referee.rules.intake import NightIntake, read_night

D1 = datetime(2026, 11, 20, 15, 0, tzinfo=UTC)
N1_START = datetime(2026, 11, 21, 19, 0, tzinfo=UTC)
N1_END = datetime(2026, 11, 22, 7, 0, tzinfo=UTC)
D2_END = N1_END + timedelta(hours=36)
N2_END = N1_END + timedelta(hours=48)
PLAYERS = (
    Player("Полковник", "commissar"),
    Player("Доктор Ватсон", "doctor"),
    Player("Мисс Марпл", "priest"),
    Player("Лиса", "mafia", "mafia"),
    Player("Тень_Ночи", "mafia", "mafia"),
    Player("Гроза", "maniac"),
    Player("Kotik", "citizen"),
    Player("Снежок", "citizen"),
)
CONFIG = Config(
    path=Path("referee.toml"),
    host="Ведущий",
    forum=ForumConfig(ForumSettings(url="http://forum/viewtopic.php?t=3")),
    players=PLAYERS,
    schedule=(
        DaySchedule(1, D1, N1_START, N1_END),
        DaySchedule(2, N1_END + timedelta(minutes=5), D2_END, N2_END),
    ),
)


def night(pms: list, n: int = 1) -> NightIntake:
    day = CONFIG.day(n)
    assert day is not None and day.night_deadline is not None
    return read_night(pms, CONFIG, n, (day.deadline, day.night_deadline))


def sequence(sender: str, texts: list[str]) -> NightIntake:
    pms = [pm(t, sender, pm_id=i + 1, sent_at=N1_START + timedelta(hours=i + 1))
           for i, t in enumerate(texts)]
    return night(pms)


FOLLOW_UPS = [
    ("Полковник", ["Проверяю Kotik", "Меняю на Лиса"],
     ["check Kotik", "check Лиса"], [], []),
    ("Полковник", ["Проверяю Kotik", "Нет, лучше Лиса"],
     ["check Kotik", "check Лиса"], [], []),
    ("Полковник", ["Проверяю Kotik", "Передумал: Лиса"],
     ["check Kotik", "check Лиса"], [], []),
    ("Полковник", ["Проверяю Kotik", "Лиса вместо Kotik"],
     ["check Kotik", "check Лиса"], [], []),
    ("Полковник", ["Проверяю Kotik", "Лиса"], ["check Kotik"], [], ["doubt"]),
    ("Полковник", ["Проверяю Kotik", "Kotik"], ["check Kotik", "check Kotik"], [], []),
    ("Полковник", ["Проверяю Kotik", "Может, лучше Лиса?"], ["check Kotik"], [], ["doubt"]),
    ("Полковник", ["Проверяю Kotik", "Лиса или Гроза"], ["check Kotik"], [],
     ["no_action"]),
    ("Полковник", ["Проверяю Kotik", "Отменяю проверку"], [], ["check Kotik"], []),
    ("Полковник", ["Проверяю Kotik", "Забудьте, что я писал"], [], ["check Kotik"], []),
    ("Полковник", ["Проверяю Kotik", "Отзываю заявку"], [], ["check Kotik"], []),
    ("Полковник", ["Проверяю Kotik", "Отменяю проверку", "Проверяю Лиса"],
     ["check Kotik", "check Лиса"], [], []),
    ("Полковник", ["Проверяю Kotik", "Отменяю проверку Kotik. Проверяю Лиса"],
     ["check Kotik", "check Лиса"], [], []),
    ("Полковник", ["Отменяю проверку"], [], [], ["follow_up"]),
    ("Полковник", ["Проверяю Kotik", "Проверяю Лиса"], ["check Kotik", "check Лиса"], [], []),
    ("Полковник", ["Kotik"], ["check Kotik"], [], []),
    ("Доктор Ватсон", ["Лечу Kotik", "Ой, не того. Лечу Лиса"],
     ["heal Kotik", "heal Лиса"], [], []),
    ("Доктор Ватсон", ["Лечу Kotik", "Отмена лечения"], [], ["heal Kotik"], []),
    ("Доктор Ватсон", ["Лечу Kotik", "Отзываю лечение, лечу Лиса"],
     ["heal Kotik", "heal Лиса"], [], []),
    ("Мисс Марпл", ["Забираю Kotik", "Отмена"], [], ["take Kotik"], []),
    ("Мисс Марпл", ["Забираю Kotik", "Нет, лучше Снежок"], ["take Kotik", "take Снежок"],
     [], []),
    ("Лиса", ["Стреляем в Kotik, исполнитель Тень_Ночи", "Исполнитель — Лиса"],
     ["shoot Kotik by Тень_Ночи", "shoot Kotik by Лиса"], [], []),
    ("Лиса", ["Стреляем в Kotik", "Отменяем выстрел"], [], ["shoot Kotik by Лиса"], []),
    ("Лиса", ["Стреляем в Kotik, исполнитель Тень_Ночи", "Меняем цель на Снежок"],
     ["shoot Kotik by Тень_Ночи", "shoot Снежок by Тень_Ночи"], [], []),
    ("Гроза", ["Убиваю Kotik", "Передумал, засада"], ["kill Kotik", "ambush"], [], []),
    ("Гроза", ["Засада", "Отменяю засаду"], [], ["ambush"], []),
]


@pytest.mark.parametrize(("sender", "texts", "stands", "withdrawn", "asked"), FOLLOW_UPS)
def test_later_pms_change_repeat_or_take_back_N1(
    sender: str, texts: list[str], stands: list[str], withdrawn: list[str], asked: list[str]
) -> None:
    intake = sequence(sender, texts)
    assert [describe(r) for r in intake.requests] == stands
    assert [describe(w.request) for w in intake.withdrawn] == withdrawn
    assert [u.kind for u in intake.unreadable] == asked


def test_a_take_back_is_listed_with_what_the_player_wrote() -> None:
    (item,) = sequence("Полковник", ["Проверяю Kotik", "Отменяю проверку"]).withdrawn
    assert (item.withdrawal.pm_id, item.withdrawal.excerpt) == (2, "Отменяю проверку")
    assert item.request.source_id == "1"


# ------------------------------------------------------------------------------ timing

TIMING = [
    # (sent at, night read, requests standing, late listed, flagged «timing»)
    (D1 + timedelta(hours=3), 1, ["check Kotik"], [], False),
    (N1_START, 1, ["check Kotik"], [], False),
    (N1_END - timedelta(seconds=1), 1, ["check Kotik"], [], False),
    (N1_END, 1, [], ["Полковник"], False),
    (N1_END + timedelta(minutes=30), 1, [], ["Полковник"], False),
    (N1_END, 2, ["check Kotik"], [], True),
    (N1_END + timedelta(minutes=59), 2, ["check Kotik"], [], True),
    (N1_END + timedelta(hours=2), 2, ["check Kotik"], [], False),
    (D2_END - timedelta(minutes=1), 2, ["check Kotik"], [], False),
    (N2_END, 2, [], ["Полковник"], False),
    (N2_END + timedelta(hours=20), 2, [], ["Полковник"], False),
    (N2_END + timedelta(days=3), 2, [], [], False),
]


@pytest.mark.parametrize(("sent", "n", "stands", "late", "flagged"), TIMING)
def test_a_request_counts_before_the_deadline_and_is_listed_after_it_N1_T2(
    sent: datetime, n: int, stands: list[str], late: list[str], flagged: bool
) -> None:
    intake = night([pm("Проверяю Kotik", "Полковник", pm_id=1, sent_at=sent)], n)
    assert [describe(r) for r in intake.requests] == stands
    assert [lt.sender for lt in intake.late] == late
    assert any(f.kind == "timing" for f in intake.flags) is flagged


def test_a_late_pm_says_what_it_asked_T2() -> None:
    intake = night([pm("Стреляем в Kotik", "Лиса", pm_id=7, sent_at=N1_END)])
    (late,) = intake.late
    assert (late.pm_id, late.sender, late.sent_at) == (7, "Лиса", N1_END)
    assert "выстрел мафии: Kotik" in late.read


def test_late_chat_is_not_listed_T2() -> None:
    intake = night([pm("Спокойной ночи!", "Полковник", pm_id=7, sent_at=N1_END)])
    assert intake.late == ()


def test_a_day_request_is_noted_as_sent_by_day_N1() -> None:
    (req,) = night([pm("Лечу Kotik", "Доктор Ватсон", sent_at=D1 + timedelta(hours=1))]
                   ).requests
    assert "прислано днём 1, до дедлайна ночи — засчитано в ночь 1 (N1)" in req.note
