"""Shared helpers for the intake tests: a PM from a line of text, and a one-line reading
of the result a host can compare with the table."""

from __future__ import annotations

from datetime import UTC, datetime

from referee.core.kernel import PrivateMessage
from referee.core.nicks import Roster
from referee.rules.actions import Request
from referee.rules.intake import IntakeResult, read_requests

PLAYERS = (
    "Шерлок", "Мисс Марпл", "Kotik", "Тень_Ночи", "Лиса", "Ёжик", "Полковник", "Nika-77",
    "Гроза", "Мотылёк", "Снежок", "Доктор Ватсон", "Mr. Smith", "Ира-Ира",
)
"""The roster of the real game in fixtures/phpbb33-ru."""

ROSTER = Roster(PLAYERS, case_forms=True)
NIGHT_1 = datetime(2026, 11, 21, 20, 0, tzinfo=UTC)


def pm(text: str, sender: str = "Полковник", *, pm_id: int = 1, subject: str = "",
       sent_at: datetime = NIGHT_1, to: str = "Ведущий") -> PrivateMessage:
    return PrivateMessage(
        pm_id=pm_id, sender=sender, sender_id=None, recipients=(to,), sent_at=sent_at,
        subject=subject, body_html=text, body_text=text,
    )


def describe(r: Request) -> str:
    """«check Kotik», «shoot Мисс Марпл by Тень_Ночи», «protect Kotik + Ира-Ира», «ambush»."""
    text = r.action
    if r.targets:
        text += " " + " + ".join(r.targets)
    elif r.target:
        text += " " + r.target
    if r.executor:
        text += f" by {r.executor}"
    return text


def show(result: IntakeResult) -> str:
    """The requests as :func:`describe` writes them, then «unreadable: <kind>» for each item
    that could not be read; several parts joined with « / »."""
    parts = [describe(r) for r in result.requests]
    parts.extend(f"unreadable: {u.kind}" for u in result.unreadable)
    return " / ".join(parts)


def read(text: str, role: str | None, sender: str = "Полковник", **kw: object) -> IntakeResult:
    return read_requests(pm(text, sender, **kw), role, ROSTER, order=1)  # type: ignore[arg-type]
