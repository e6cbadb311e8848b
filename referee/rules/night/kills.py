"""The night's kills and what answers them, as events of the log
(:class:`~referee.rules.night.events.Event`): shots and blasts (N5–N7, N10, N11), the
doctor's heal (N8), the ninja's misses (N10), the hanged ninja's testament (N11), the
necromancer's protection (N9), the commissar's check a shot cuts short (N12), and the
deaths applied at the end of the night with the sergeant's promotion (N2, N12).
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.core.roles import role_ru
from referee.rules.actions import Request
from referee.rules.night.events import Event
from referee.rules.night.text import CAUSE_NAMES_RU, clan_ru, names

NINJA_MISS_LIMIT = 2
"""N10: at this many misses the ninja commits harakiri."""


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
