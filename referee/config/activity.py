"""``[rules]`` of activity (docs/rules.md A1–A3): how many missed votes remove a player, and when
a removal takes effect (A3, ``silent_leave``). Its own module: :mod:`referee.config.game` holds
the loading of the whole file; each table's rules live by their job."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

SilentLeave = Literal["morning", "end_of_day"]


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
    """``[rules]``' activity keys, as :mod:`referee.config.schema` has checked them."""
    d = ActivityRules()
    return ActivityRules(
        missed_vote_limit=t.get("missed_vote_limit", d.missed_vote_limit),
        missed_votes_consecutive=t.get("missed_votes_consecutive", d.missed_votes_consecutive),
        reveal_role_on_removal=t.get("reveal_role_on_removal", d.reveal_role_on_removal),
        silent_leave=t.get("silent_leave", d.silent_leave),
    )
