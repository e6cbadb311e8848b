"""``[rules]`` of activity (docs/rules.md A1–A3): how many missed votes remove a player, and when
a removal takes effect (A3, ``silent_leave``). Its own module: :mod:`referee.config.game` holds
the loading of the whole file; each table's rules live by their job."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from referee.core.errors import ConfigError

SilentLeave = Literal["morning", "end_of_day"]
SILENT_LEAVE: tuple[SilentLeave, ...] = ("morning", "end_of_day")


@dataclass(frozen=True, slots=True)
class ActivityRules:
    """docs/rules.md A1–A3."""

    missed_vote_limit: int = 2
    missed_votes_consecutive: bool = False
    reveal_role_on_removal: bool = True
    silent_leave: SilentLeave = "morning"
    """A3: an A1 removal (a silent turn N) takes effect at the start of Day N+1, announced
    with the morning summary of night N (``morning``), or at the end of Day N+1 after its
    tally (``end_of_day``, as before the 2026-12-04 revision)."""


def activity_rules(t: Mapping[str, Any]) -> ActivityRules:
    """``[rules]``' activity keys (their types are checked by :mod:`referee.config.schema`
    first; the checks here guard a caller that skips it)."""
    d = ActivityRules()
    limit = t.get("missed_vote_limit", d.missed_vote_limit)
    if isinstance(limit, bool) or not isinstance(limit, int | float) or limit < 1 \
            or limit != int(limit):
        raise ConfigError(f"rules.missed_vote_limit = {limit!r} — нужно целое число от 1")
    silent = t.get("silent_leave", d.silent_leave)
    if silent not in SILENT_LEAVE:
        raise ConfigError(f"rules.silent_leave = {silent!r} — недопустимое значение",
                          'напишите одно из: "morning", "end_of_day"')
    return ActivityRules(
        missed_vote_limit=int(limit),
        missed_votes_consecutive=_flag(t, "missed_votes_consecutive",
                                       d.missed_votes_consecutive),
        reveal_role_on_removal=_flag(t, "reveal_role_on_removal", d.reveal_role_on_removal),
        silent_leave=silent,
    )


def _flag(t: Mapping[str, Any], key: str, default: bool) -> bool:
    value = t.get(key, default)
    if not isinstance(value, bool):
        raise ConfigError(f"rules.{key} — нужно true или false, а не {value!r}")
    return value
