"""Dealing the roles («раздача ролей») and the role PMs the host sends (docs/rules.md
Setup, N1–N13).

:func:`deal` gives every nick a role from a setup, reproducibly for a seed; the role PMs
are written by :mod:`referee.render.deal`.

A setup is a mapping ``role id → count`` plus ``clans`` (the ``[setup]`` table of
``referee.toml``). The counts of the clan roles — ``mafia``, ``thug``, ``kamikaze`` — and of
``boss_son`` (ВСБ) are **per clan**; every other count is for the whole game. ``clans``
defaults to 1 when the setup names a clan role. ``citizen`` may be given; then the setup must
fill the roster exactly, otherwise every player left over is a Мирный житель.

Without a setup, :func:`default_setup` scales the docs/rules.md setup to the roster:

=========  ==========================================================================
players    roles (the rest are Мирный житель)
=========  ==========================================================================
26 or more the docs/rules.md setup: 2 clans × (3 Мафия + Громила + Камикадзе + ВСБ); Маньяк;
           Комиссар, Сержант, Ниндзя, Реаниматор, Некромант, Священник (19 roles)
20–25      2 clans × (2 Мафия + Громила + ВСБ), no Камикадзе; Маньяк; the six town roles
           (15 roles)
16–19      1 clan × (3 Мафия + Громила + Камикадзе + ВСБ); Маньяк; the six town roles
           (13 roles)
14–15      as 16–19 without Сержант and ВСБ (11 roles; the 14-player game of the
           fixtures has exactly this)
10–13      1 clan × (2 Мафия + Громила); Маньяк; Комиссар, Реаниматор, Священник (7 roles)
6–9        1 clan × 2 Мафия; Комиссар, Реаниматор (4 roles)
=========  ==========================================================================

Fewer than 6 players is a :class:`GameError`: the game needs a town majority with a clan.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from referee.config.game import Player
from referee.core.errors import ConfigError, GameError
from referee.core.roles import (
    ROLES_WITH_CLAN,
    normalise_role,
)

PER_CLAN = ROLES_WITH_CLAN
"""Setup counts given per clan (docs/rules.md N4, N5, N7, N13: one thug, kamikaze, ВСБ per clan)."""

RULES_SETUP: dict[str, int] = {
    "clans": 2, "mafia": 3, "thug": 1, "kamikaze": 1, "boss_son": 1, "maniac": 1,
    "commissar": 1, "sergeant": 1, "ninja": 1, "doctor": 1, "necromancer": 1, "priest": 1,
}
"""docs/rules.md «Setup for ~30 players»."""

MIN_PLAYERS = 6

# Roles are dealt in this order, clan by clan, so a seed gives the same game every time.
_DEAL_ORDER = (
    "mafia", "thug", "kamikaze", "boss_son", "maniac", "commissar", "sergeant", "ninja",
    "doctor", "necromancer", "priest", "citizen",
)
_TOWN_SIX = {"commissar": 1, "sergeant": 1, "ninja": 1, "doctor": 1, "necromancer": 1,
             "priest": 1}


def default_setup(players: int) -> dict[str, int]:
    """The docs/rules.md setup scaled to ``players`` (table in the module docstring)."""
    if players >= 26:
        return dict(RULES_SETUP)
    if players >= 20:
        return {"clans": 2, "mafia": 2, "thug": 1, "boss_son": 1, "maniac": 1, **_TOWN_SIX}
    if players >= 16:
        return {"clans": 1, "mafia": 3, "thug": 1, "kamikaze": 1, "boss_son": 1, "maniac": 1,
                **_TOWN_SIX}
    if players >= 14:
        return {"clans": 1, "mafia": 3, "thug": 1, "kamikaze": 1, "maniac": 1, "commissar": 1,
                "ninja": 1, "doctor": 1, "necromancer": 1, "priest": 1}
    if players >= 10:
        return {"clans": 1, "mafia": 2, "thug": 1, "maniac": 1, "commissar": 1, "doctor": 1,
                "priest": 1}
    if players >= MIN_PLAYERS:
        return {"clans": 1, "mafia": 2, "commissar": 1, "doctor": 1}
    raise GameError(
        f"игроков слишком мало для раздачи: {players}, нужно хотя бы {MIN_PLAYERS}",
        "добавьте игроков в [players] или задайте [setup] явно",
    )


def clan_names(count: int) -> tuple[str, ...]:
    """One clan is «mafia» (the name ``referee.toml`` gives a clan left unnamed); several
    are «A», «B», …"""
    if count == 1:
        return ("mafia",)
    return tuple(chr(ord("A") + i) for i in range(count))


def _normalised_setup(setup: Mapping[str, int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for key, count in setup.items():
        role = "clans" if key == "clans" else normalise_role(key, f"setup.{key}")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise ConfigError(
                f"setup.{key} = {count!r} — нужно целое число игроков",
                f"например {key} = 1",
            )
        out[role] = out.get(role, 0) + count
    if "clans" not in out:
        out["clans"] = 1 if any(out.get(r, 0) for r in PER_CLAN) else 0
    return out


def setup_roles(setup: Mapping[str, int], players: int) -> list[tuple[str, str | None]]:
    """The (role, clan) list a setup deals to ``players`` players, citizens included.

    Raises :class:`GameError` when the setup needs more players than there are (or, when it
    names a ``citizen`` count, a different number), :class:`ConfigError` when it is not a
    valid setup."""
    s = _normalised_setup(setup)
    clans = clan_names(s["clans"]) if s["clans"] else ()
    if clans and s.get("mafia", 0) < 1:
        raise ConfigError(
            f"в [setup] кланов: {len(clans)}, но в них нет Мафии: клан должен уметь стрелять",
            "задайте mafia = 1 или больше (число на клан) или clans = 0",
        )
    if not clans and any(s.get(r, 0) for r in PER_CLAN):
        raise ConfigError(
            "в [setup] есть клановые роли (mafia, thug, kamikaze, boss_son), но clans = 0",
            "задайте clans = 1 или больше",
        )
    roles: list[tuple[str, str | None]] = []
    for role in _DEAL_ORDER:
        if role == "citizen":
            continue
        if role in PER_CLAN:
            for clan in clans:
                roles.extend((role, clan) for _ in range(s.get(role, 0)))
        else:
            roles.extend((role, None) for _ in range(s.get(role, 0)))
    special = len(roles)
    if "citizen" in s:
        if special + s["citizen"] != players:
            raise GameError(
                f"по [setup] ролей {special} + мирных жителей {s['citizen']} = "
                f"{special + s['citizen']} игроков, а в [players] — {players}",
                "измените setup.citizen (или уберите: остальные станут мирными) либо состав "
                "игроков",
            )
    elif special > players:
        raise GameError(
            f"по [setup] на роли нужно игроков: {special}, а в [players] — {players}",
            "уберите роли из [setup] (клановые считаются на клан) или добавьте игроков",
        )
    roles.extend(("citizen", None) for _ in range(players - special))
    return roles


def deal(nicks: Sequence[str], setup: Mapping[str, int] | None, seed: int) -> list[Player]:
    """Give every nick a role (docs/rules.md Setup). The same nicks, setup and ``seed`` always give
    the same roles; the players come back in the order of ``nicks``."""
    names = [n.strip() for n in nicks]
    if any(not n for n in names):
        raise GameError("в составе игроков пустой ник", "удалите пустую запись")
    seen: set[str] = set()
    for n in names:
        if n.casefold() in seen:
            raise GameError(f"в составе игроков {n!r} дважды", "оставьте одну запись на игрока")
        seen.add(n.casefold())
    roles = setup_roles(default_setup(len(names)) if setup is None else setup, len(names))
    shuffled = list(names)
    random.Random(seed).shuffle(shuffled)
    role_of = dict(zip(shuffled, roles, strict=True))
    return [Player(n, role_of[n][0], role_of[n][1]) for n in names]
