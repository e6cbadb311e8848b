"""Russian words the night engine uses in its explanations.

Every event's :meth:`explain` is built from these and from the role vocabulary's names of
roles and actions (:mod:`referee.core.roles`), so a host reads the same wording for the
same thing in the step-by-step log, the morning report and a failing test.
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.core.roles import DEFAULT_CLAN, action_ru
from referee.rules.actions import Request

CAUSE_NAMES_RU: dict[str, str] = {
    "mafia": "выстрел мафии",
    "maniac": "удар маньяка",
    "ambush": "засада маньяка",
    "blast": "подрыв камикадзе",
    "blast_self": "собственный подрыв",
    "ninja": "удар ниндзя",
    "harakiri": "харакири",
    "testament": "завещание ниндзя",
    "hanged": "повешен",
    "removed": "выбыл из игры",
}
"""Kind of a lethal event (:class:`referee.rules.night.kills.Attack`) → Russian words."""


def names(nicks: Iterable[str]) -> str:
    """«A», «A и B», «A, B и C»."""
    items = list(nicks)
    if not items:
        return "никто"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " и " + items[-1]


def clan_ru(clan: str | None) -> str:
    """A clan as the host names it: «клан «Лисья нора»», or «мафия» for the clan the host
    did not name (its key is ``mafia``)."""
    if not clan or clan == DEFAULT_CLAN:
        return "мафия"
    return f"клан «{clan}»"


def requester_ru(requester: str) -> str:
    """N1: a requester is a nick or ``clan:<name>`` (a clan's orders count as one)."""
    if requester.startswith("clan:"):
        words = clan_ru(requester[5:])
        return words[0].upper() + words[1:]
    return requester


def request_ru(request: Request) -> str:
    """One request as a host would read it back: «Don: выстрел мафии → Bob (исполнитель Vito)»."""
    text = f"{request.actor}: {action_ru(request.action)}"
    targets = request.all_targets()
    if targets:
        text += " → " + names(targets)
    if request.executor:
        text += f" (исполнитель {request.executor})"
    return text

