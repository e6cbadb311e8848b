"""What happened, one fact at a time: the night's event log.

Each event is a small frozen value naming the rule it applies (``rule``, a docs/rules.md number)
and what caused it (the :class:`~referee.rules.actions.Request` or the earlier event that
overruled it). :meth:`Event.explain` says it in Russian the way a host would, so the log
read top to bottom is the host's explanation of the night.

Here: the base, what happens to the requests (N1, N14), the moves that stop other moves
(ambush, priest, thug: N3, N4, N6) and the day's departures (V6, A1–A3). The kills and what
answers them (shots, heals, the ninja, the testament, protection, deaths) are in
:mod:`referee.rules.night.kills`.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.core.roles import action_ru, role_ru
from referee.rules.actions import Request
from referee.rules.night.text import names, request_ru, requester_ru


class Event:
    """Base of every log entry. Subclasses are frozen dataclasses with a ``rule`` field."""

    rule: str

    def explain(self) -> str:
        raise NotImplementedError

    def __str__(self) -> str:
        return f"{self.explain()} ({self.rule})"


# ------------------------------------------------------------------ requests (N1, N14)


@dataclass(frozen=True)
class RequestRejected(Event):
    """N14: a request that cannot be carried out, with the reason; never dropped silently.
    ``rule`` names the rule it breaks (N3 for a priest taking himself, N14 for a dead
    actor or an unknown nick...)."""

    request: Request
    reason: str
    rule: str = "N14"

    @property
    def actor(self) -> str:
        return self.request.actor

    @property
    def action(self) -> str:
        return self.request.action

    def explain(self) -> str:
        return f"Заявка отклонена — {request_ru(self.request)}: {self.reason}."


@dataclass(frozen=True)
class RequestChanged(Event):
    """N1: the first later request with another target replaces the earlier one; it uses
    one of the requester's changes for the game."""

    requester: str
    old: Request
    new: Request
    used: int
    limit: int
    rule: str = "N1"
    limited: bool = True
    """False for an action whose change N1 does not limit (``change_limited_actions``)."""

    def explain(self) -> str:
        count = (f"смена {self.used} из {self.limit} за игру" if self.limited
                 else "такую заявку менять можно без ограничений")
        return (
            f"{requester_ru(self.requester)} меняет заявку: было «{request_ru(self.old)}», "
            f"стало «{request_ru(self.new)}» ({count})."
        )


@dataclass(frozen=True)
class ChangeIgnored(Event):
    """N1: a change beyond the allowed one per game is ignored and flagged."""

    requester: str
    request: Request
    kept: Request
    rule: str = "N1"

    def explain(self) -> str:
        return (
            f"{requester_ru(self.requester)}: смена заявки на «{request_ru(self.request)}» "
            "не принята — сменить заявку можно только один раз за игру; "
            f"остаётся «{request_ru(self.kept)}»."
        )


@dataclass(frozen=True)
class RequestRepeated(Event):
    """N1: the same target sent again is not a change. A clan member repeating the clan's
    target may name the executor (N5)."""

    requester: str
    request: Request
    executor: str | None = None
    rule: str = "N1"

    def explain(self) -> str:
        text = (
            f"{requester_ru(self.requester)}: повтор той же заявки "
            f"«{request_ru(self.request)}» — не смена"
        )
        if self.executor:
            text += f"; исполнителем назван {self.executor}"
        return text + "."


@dataclass(frozen=True)
class ProtectionNamed(Event):
    """N9: the necromancer names his two players (during turns 1–3, outside the night)."""

    necromancer: str
    targets: tuple[str, str]
    from_night: int
    request: Request
    rule: str = "N9"

    def explain(self) -> str:
        text = (
            f"Некромант {self.necromancer} — защита: {names(self.targets)}; "
            f"одно воскрешение на двоих, действует с ночи {self.from_night}"
        )
        if self.rule == "N15.5":
            text += " (названо ночью — действует со следующей ночи)"
        return text + "."


# ------------------------------------------------------------------ night steps


@dataclass(frozen=True)
class AmbushSet(Event):
    """N2 step 1, N6: the maniac sits in ambush."""

    maniac: str
    request: Request
    rule: str = "N6"

    def explain(self) -> str:
        return (
            f"Маньяк {self.maniac} сидит в засаде: кто придёт к нему этой ночью, тот погибнет, "
            "а его ход не исполнится."
        )


@dataclass(frozen=True)
class Took(Event):
    """N2 step 2, N3: the priest takes a guest."""

    priest: str
    guest: str
    request: Request
    rule: str = "N3"

    def explain(self) -> str:
        return (
            f"Священник {self.priest} забирает к себе: {self.guest}. Ход гостя и всё, "
            "что направлено на гостя, не исполняется; направленное на священника "
            "касается обоих."
        )


@dataclass(frozen=True)
class Beaten(Event):
    """N2 step 3, N4: a thug beats a player (the priest's guest too when he beats the
    priest, ``via_priest``). ``loop``: thugs who beat each other in a circle, all beaten
    (N15.1); ``priest_with_guest``: the beaten priest keeps his guest (N15.2)."""

    thug: str
    target: str
    request: Request
    via_priest: str | None = None
    priest_with_guest: bool = False
    rule: str = "N4"
    loop: tuple[str, ...] = ()

    def explain(self) -> str:
        if self.priest_with_guest:
            text = (
                f"Громила {self.thug} — избиение священника: {self.target}; гостя священник "
                "уже забрал (он ходит первым)"
            )
        elif self.via_priest:
            text = (
                f"Громила {self.thug} — избиение священника: {self.via_priest}, а с ним и "
                f"гостя: {self.target}; ход гостя этой ночью не исполняется"
            )
        else:
            text = (f"Громила {self.thug} — избиение: {self.target}; ход этого игрока этой "
                    "ночью не исполняется")
        if self.loop:
            text += (f" (громилы избивают друг друга по кругу: {names(self.loop)} — "
                     "избиты все)")
        return text + "."


@dataclass(frozen=True)
class Blocked(Event):
    """An action that failed, and what overruled it (``overruled_by``: the priest's
    :class:`Took`, a :class:`Beaten`, the maniac's :class:`AmbushSet`, ...)."""

    actor: str
    role: str
    request: Request
    reason: str
    overruled_by: Event | None
    rule: str

    def explain(self) -> str:
        target = names(self.request.all_targets()) if self.request.all_targets() else ""
        what = action_ru(self.request.action) + (f" → {target}" if target else "")
        return f"{role_ru(self.role)} {self.actor}: {what} не исполнено — {self.reason}."


# ------------------------------------------------------------------ day


@dataclass(frozen=True)
class Hanged(Event):
    """V6: the day's hanging; a hanged ninja leaves a testament (N11)."""

    player: str
    role: str
    day: int
    voters: tuple[str, ...]
    rule: str = "V6"

    def explain(self) -> str:
        text = f"День {self.day}, на виселице: {self.player} ({role_ru(self.role)})"
        if self.role == "ninja":
            text += (
                f"; завещание ниндзя исполнится ночью {self.day}, первым в очереди — "
                f"{self.voters[0] if self.voters else 'никто'}"
            )
        return text + "."


@dataclass(frozen=True)
class Removed(Event):
    """A1–A3: the player leaves the game outside the night (activity, host's decision)."""

    player: str
    role: str
    reason: str
    rule: str = "A3"

    def explain(self) -> str:
        return f"{self.player} ({role_ru(self.role)}) выбывает из игры: {self.reason}."
