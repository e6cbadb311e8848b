"""What happened, one fact at a time: the night's event log.

Each event is a small frozen value naming the rule it applies (``rule``, a docs/rules.md number)
and what caused it (the :class:`~referee.rules.actions.Request` or the earlier event that
overruled it). :meth:`Event.explain` says it in Russian the way a host would, so the log
read top to bottom is the host's explanation of the night.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.core.roles import action_ru, role_ru
from referee.rules.actions import Request
from referee.rules.night.text import CAUSE_NAMES_RU, clan_ru, names, request_ru, requester_ru

NINJA_MISS_LIMIT = 2
"""N10: at this many misses the ninja commits harakiri."""


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


@dataclass(frozen=True)
class Attack(Event):
    """Something that kills unless cancelled later (N8 heal, N9 protection).

    ``kind``: mafia (N5), maniac (N6), ambush (N6), blast and blast_self (N7), ninja (N10),
    harakiri (N10), testament (N11). ``by`` is the killer (the executor for a mafia shot),
    ``clan`` the ordering clan; ``via_priest`` is set when the hit reached a guest because
    the action was aimed at the priest (N3)."""

    kind: str
    by: str
    target: str
    request: Request | None
    rule: str
    clan: str | None = None
    via_priest: str | None = None

    @property
    def cause(self) -> str:
        """The short token stored in :class:`~referee.rules.night.state.Death` causes."""
        if self.kind == "mafia":
            return f"mafia:{self.clan}"
        if self.kind in ("blast", "blast_self"):
            return f"kamikaze:{self.by}"
        return f"{self.kind}:{self.by}"

    @property
    def by_ru(self) -> str:
        """Who struck, in the host's words: the clan by its name, else the nick."""
        if self.kind == "mafia":
            return clan_ru(self.clan)
        return self.by

    @property
    def is_shot(self) -> bool:
        """N8: the doctor saves from these only."""
        return self.kind in ("mafia", "maniac")

    def explain(self) -> str:
        t, by = self.target, self.by
        via = (
            f" (удар по священнику задевает и его гостя; священник: {self.via_priest})"
            if self.via_priest and self.via_priest != t
            else ""
        )
        if self.kind == "mafia":
            clan = clan_ru(self.clan)
            return f"{clan[0].upper() + clan[1:]} — выстрел: {t}{via}; исполнитель: {by}."
        if self.kind == "maniac":
            return f"Маньяк {by} — нападение: {t}{via}."
        if self.kind == "ambush":
            return f"К маньяку {by} в засаду приходит и погибает: {t}."
        if self.kind == "blast":
            return f"Камикадзе {by} — подрыв: {t}{via}."
        if self.kind == "blast_self":
            return f"Камикадзе {by} гибнет при своём подрыве."
        if self.kind == "ninja":
            return f"Ниндзя {by} — убийство: {t}{via}."
        if self.kind == "harakiri":
            return f"Ниндзя {by}: {NINJA_MISS_LIMIT}-й промах — харакири, он погибает этой ночью."
        if self.kind == "testament":
            guest = f" (гость священника; священник: {self.via_priest})" if self.via_priest else ""
            return f"Завещание ниндзя {by} — погибает: {t}{guest}."
        return f"{CAUSE_NAMES_RU.get(self.kind, self.kind)}: {t}."


def _attacks_ru(attacks: tuple[Attack, ...]) -> str:
    """«выстрел мафии (клан «A»); подрыв камикадзе (Kotik)»: never the stored tokens."""
    return "; ".join(f"{CAUSE_NAMES_RU[a.kind]} ({a.by_ru})" for a in attacks)


@dataclass(frozen=True)
class Healed(Event):
    """N2 step 5, N8: the doctor heals a player (both priest and guest when he heals the
    priest)."""

    doctor: str
    target: str
    request: Request
    via_priest: str | None = None
    rule: str = "N8"

    def explain(self) -> str:
        if self.via_priest:
            return (
                f"Реаниматор {self.doctor} — лечение священника: {self.via_priest}, "
                f"а с ним и гостя: {self.target}."
            )
        return f"Реаниматор {self.doctor} — лечение: {self.target}."


@dataclass(frozen=True)
class Saved(Event):
    """N8: a heal cancels the one mafia or maniac shot at the healed player."""

    player: str
    doctor: str
    attacks: tuple[Attack, ...]
    rule: str = "N8"

    def explain(self) -> str:
        what = ", ".join(CAUSE_NAMES_RU[a.kind] for a in self.attacks)
        return (f"Лечение спасает: {self.player} (отменено: {what}; "
                f"реаниматор — {self.doctor}).")


@dataclass(frozen=True)
class HealFailed(Event):
    """N8: two or more shots at the same player — the doctor is powerless."""

    player: str
    doctor: str
    attacks: tuple[Attack, ...]
    rule: str = "N8"

    def explain(self) -> str:
        return (
            f"Реаниматор {self.doctor} бессилен: цель — {self.player}, выстрелов — "
            f"{len(self.attacks)} ({_attacks_ru(self.attacks)})."
        )


@dataclass(frozen=True)
class HealNotAShot(Event):
    """N8, N15.12: the healed player dies in the maniac's ambush — an ambush death is not
    a shot, and the heal does not stop it."""

    player: str
    doctor: str
    attacks: tuple[Attack, ...]
    rule: str = "N15.12"

    def explain(self) -> str:
        return (
            f"Лечение (реаниматор — {self.doctor}) не спасает от засады маньяка: "
            f"{self.player}; засада — не выстрел."
        )


@dataclass(frozen=True)
class NinjaMiss(Event):
    """N10: the ninja killed a town player (priest + town guest = one miss)."""

    ninja: str
    victims: tuple[str, ...]
    misses: int
    request: Request | None = None
    rule: str = "N10"

    def explain(self) -> str:
        return (
            f"Ниндзя {self.ninja}: жертва мирная ({names(self.victims)}) — "
            f"промах {self.misses} из {NINJA_MISS_LIMIT}."
        )


@dataclass(frozen=True)
class NinjaKillPrevented(Event):
    """N15.7: the necromancer prevented the ninja's kill of a town player — nobody died,
    so it is no miss."""

    ninja: str
    saved: tuple[str, ...]
    request: Request | None = None
    rule: str = "N15.7"

    def explain(self) -> str:
        return (
            f"Ниндзя {self.ninja}: цель спасена некромантом ({names(self.saved)}) — "
            "убийства не было, промах не засчитан."
        )


@dataclass(frozen=True)
class NinjaTargetGone(Event):
    """N10: the ninja's target has already died this night — nothing happens, no miss."""

    ninja: str
    target: str
    request: Request
    rule: str = "N10"

    def explain(self) -> str:
        return (
            f"Ниндзя {self.ninja}: цель ({self.target}) уже погибла этой ночью — "
            "ничего не происходит, промах не засчитан."
        )


def _passed_over(skipped: tuple[str, ...], out_of_reach: tuple[str, ...]) -> list[str]:
    parts: list[str] = []
    if skipped:
        parts.append(f"{names(skipped)} уже мертв{'ы' if len(skipped) > 1 else ''}")
    if out_of_reach:
        parts.append(f"{names(out_of_reach)} у священника — вне досягаемости")
    return parts


@dataclass(frozen=True)
class TestamentCarried(Event):
    """N11: the hanged ninja's testament picks the first voter not yet dead. N15.8: a voter
    doomed this night counts as dead, the priest's guest is out of reach (``out_of_reach``);
    N15.15: a voter who is the priest takes his guest with him (``guest``)."""

    ninja: str
    voter: str
    skipped: tuple[str, ...]
    rule: str = "N11"
    out_of_reach: tuple[str, ...] = ()
    guest: str | None = None

    def explain(self) -> str:
        text = f"Завещание повешенного ниндзя {self.ninja}: умирает {self.voter}"
        if self.guest:
            text += f", священник, а с ним и его гость {self.guest}"
        passed = _passed_over(self.skipped, self.out_of_reach)
        if passed:
            text += f" ({'; '.join(passed)})"
        else:
            text += ", первым проголосовавший за повешение"
        return text + "."


@dataclass(frozen=True)
class TestamentVoid(Event):
    """N11: nobody who voted for the hanged ninja is still alive (or within reach, N15.8)."""

    ninja: str
    rule: str = "N11"
    out_of_reach: tuple[str, ...] = ()

    def explain(self) -> str:
        if self.out_of_reach:
            return (
                f"Завещание ниндзя {self.ninja}: из голосовавших за него живы только "
                f"{names(self.out_of_reach)}, но у священника — вне досягаемости; "
                "исполнять некому."
            )
        return (
            f"Завещание ниндзя {self.ninja}: никого из голосовавших за него не осталось "
            "в живых — исполнять некому."
        )


@dataclass(frozen=True)
class Protected(Event):
    """N2 step 7, N9: the necromancer's protection prevents a death; it is spent.
    ``why`` says which open interaction decided it (N15.5, N15.15), with ``rule`` set."""

    necromancer: str
    player: str
    attacks: tuple[Attack, ...]
    rule: str = "N9"
    why: str = ""

    def explain(self) -> str:
        what = ", ".join(CAUSE_NAMES_RU[a.kind] for a in self.attacks)
        why = f"; {self.why}" if self.why else ""
        return (
            f"Защита некроманта спасает: {self.player} ({what}; некромант — "
            f"{self.necromancer}), воскрешение израсходовано{why}."
        )


@dataclass(frozen=True)
class CheckResult(Event):
    """N2 step 8, N12: the commissar learns a role (ninja shows as «Мирный житель»).
    ``rule`` N15.6: he was attacked this night and survived, so the result stands."""

    by: str
    target: str
    result: str
    request: Request
    via_priest: str | None = None
    rule: str = "N12"

    def explain(self) -> str:
        via = f" (гость священника; священник: {self.via_priest})" if self.via_priest else ""
        alive = " (комиссар выжил этой ночью — результат остаётся)" if self.rule == "N15.6" else ""
        return (f"Комиссар {self.by} — проверка: {self.target}{via}; результат: "
                f"{role_ru(self.result)}{alive}.")


@dataclass(frozen=True)
class CheckSuppressed(Event):
    """N12: the commissar was killed by a mafia shot this night — no result for him nor
    for the sergeant."""

    by: str
    target: str
    request: Request
    killed_by: tuple[Attack, ...]
    rule: str = "N12"

    def explain(self) -> str:
        return (
            f"Комиссар {self.by} убит выстрелом мафии этой ночью: результата проверки "
            f"({self.target}) нет ни у него, ни у сержанта."
        )


@dataclass(frozen=True)
class Died(Event):
    """N2: deaths are applied at the end of the night, all at once, with their causes."""

    player: str
    role: str
    attacks: tuple[Attack, ...]
    rule: str = "N2"

    @property
    def causes(self) -> tuple[str, ...]:
        out: list[str] = []
        for a in self.attacks:
            if a.cause not in out:
                out.append(a.cause)
        return tuple(out)

    def explain(self) -> str:
        return f"Погибает: {self.player} ({role_ru(self.role)}) — {_attacks_ru(self.attacks)}."


@dataclass(frozen=True)
class Promoted(Event):
    """N12: the commissar is dead; the sergeant takes the badge from the next night."""

    sergeant: str
    commissar: str
    rule: str = "N12"

    def explain(self) -> str:
        return (
            f"Комиссар {self.commissar} погиб: сержант {self.sergeant} получает значок "
            "и проверяет со следующей ночи."
        )


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
