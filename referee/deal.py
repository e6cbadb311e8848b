"""Dealing the roles («раздача ролей») and the role PMs the host sends (RULES.md Setup, N1–N13).

:func:`deal` gives every nick a role from a setup, reproducibly for a seed.
:func:`role_pm_texts` writes the PM each player gets: the role, what it does, how to send the
night request (the phrasing :mod:`referee.intake` reads), and the partners the rules let the
player know: a clan's members and its ВСБ (N5, N13), the commissar and the sergeant (N12).

A setup is a mapping ``role id → count`` plus ``clans`` (the ``[setup]`` table of
``referee.toml``). The counts of the clan roles — ``mafia``, ``thug``, ``kamikaze`` — and of
``boss_son`` (ВСБ) are **per clan**; every other count is for the whole game. ``clans``
defaults to 1 when the setup names a clan role. ``citizen`` may be given; then the setup must
fill the roster exactly, otherwise every player left over is a Мирный житель.

Without a setup, :func:`default_setup` scales the RULES.md setup to the roster:

=========  ==========================================================================
players    roles (the rest are Мирный житель)
=========  ==========================================================================
26 or more the RULES.md setup: 2 clans × (3 Мафия + Громила + Камикадзе + ВСБ); Маньяк;
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

from referee.bbcode import b, escape
from referee.config import NightRules, Player
from referee.errors import ConfigError, GameError
from referee.roles import (
    CLAN_ROLES,
    EXAMPLE_OF_ROLE,
    ROLE_NAMES_RU,
    ROLES_WITH_CLAN,
    normalise_role,
    request_actions,
)

PER_CLAN = ROLES_WITH_CLAN
"""Setup counts given per clan (RULES.md N4, N5, N7, N13: one thug, kamikaze, ВСБ per clan)."""

RULES_SETUP: dict[str, int] = {
    "clans": 2, "mafia": 3, "thug": 1, "kamikaze": 1, "boss_son": 1, "maniac": 1,
    "commissar": 1, "sergeant": 1, "ninja": 1, "doctor": 1, "necromancer": 1, "priest": 1,
}
"""RULES.md «Setup for ~30 players»."""

MIN_PLAYERS = 6

# Roles are dealt in this order, clan by clan, so a seed gives the same game every time.
_DEAL_ORDER = (
    "mafia", "thug", "kamikaze", "boss_son", "maniac", "commissar", "sergeant", "ninja",
    "doctor", "necromancer", "priest", "citizen",
)
_TOWN_SIX = {"commissar": 1, "sergeant": 1, "ninja": 1, "doctor": 1, "necromancer": 1,
             "priest": 1}


def default_setup(players: int) -> dict[str, int]:
    """The RULES.md setup scaled to ``players`` (table in the module docstring)."""
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
        f"{players} players are too few to deal roles: at least {MIN_PLAYERS} are needed",
        "add players to the roster, or give an explicit [setup]",
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
                f"setup.{key} = {count!r} is not a whole number of players",
                f"write e.g. {key} = 1",
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
            f"setup has {len(clans)} clan(s) but no Мафия in them: a clan must be able to shoot",
            "set mafia = 1 or more (the count is per clan), or clans = 0",
        )
    if not clans and any(s.get(r, 0) for r in PER_CLAN):
        raise ConfigError(
            "setup names clan roles (mafia, thug, kamikaze, boss_son) with clans = 0",
            "set clans = 1 or more",
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
                f"the setup deals {special} roles + {s['citizen']} Мирный житель = "
                f"{special + s['citizen']} players, but the roster has {players}",
                "change setup.citizen (or drop it: the rest are then citizens) or the roster",
            )
    elif special > players:
        raise GameError(
            f"the setup needs {special} players for its roles, but the roster has {players}",
            "remove roles from [setup] (clan roles count per clan) or add players",
        )
    roles.extend(("citizen", None) for _ in range(players - special))
    return roles


def deal(nicks: Sequence[str], setup: Mapping[str, int] | None, seed: int) -> list[Player]:
    """Give every nick a role (RULES.md Setup). The same nicks, setup and ``seed`` always give
    the same roles; the players come back in the order of ``nicks``."""
    names = [n.strip() for n in nicks]
    if any(not n for n in names):
        raise GameError("the roster has an empty nick", "remove the empty entry")
    seen: set[str] = set()
    for n in names:
        if n.casefold() in seen:
            raise GameError(f"the roster lists {n!r} twice", "keep one entry per player")
        seen.add(n.casefold())
    roles = setup_roles(default_setup(len(names)) if setup is None else setup, len(names))
    shuffled = list(names)
    random.Random(seed).shuffle(shuffled)
    role_of = dict(zip(shuffled, roles, strict=True))
    return [Player(n, role_of[n][0], role_of[n][1]) for n in names]


# ------------------------------------------------------------------------------- role PMs

_ABOUT: dict[str, str] = {
    "citizen": (
        "Ночью вы спите: ночного хода у вас нет. Днём голосуйте в теме игры: "
        "«Мой голос – Ник», ник красным цветом, и объясните, почему. Побеждаете вместе с "
        "мирными, когда погибнут все мафиози и маньяк."
    ),
    "commissar": (
        "Каждую ночь вы можете проверить одного игрока и узнать его роль (ниндзя покажется "
        "мирным жителем). Если этой ночью вас заберёт священник, изобьёт громила или убьёт "
        "мафия, результата не будет. Играете за мирных."
    ),
    "sergeant": (
        "Вы помощник комиссара: видите результаты всех его проверок. Если комиссар погибнет, "
        "со следующей ночи вы станете комиссаром и будете проверять сами. Играете за мирных."
    ),
    "ninja": (
        "Вы можете убивать, когда сочтёте нужным, — ходить каждую ночь не обязательно. "
        "Реаниматор от вас не спасает, комиссар увидит вас мирным жителем. Убив двух "
        "мирных, вы совершаете харакири. Если вас повесят, в ту же ночь умрёт первый, кто "
        "проголосовал за вас. Играете за мирных."
    ),
    "doctor": (
        "Каждую ночь вы лечите одного игрока: он неуязвим для выстрела мафии и маньяка (но "
        "не если стреляли двое). От ниндзя и камикадзе лечение не спасает. Себя лечить "
        "нельзя, одного и того же — две ночи подряд тоже. Играете за мирных."
    ),
    "mafia": (
        "Каждую ночь ваш клан делает один выстрел: назовите цель и исполнителя из клана. "
        "Без исполнителя стреляет тот, кто прислал заявку. Если исполнителя заберёт "
        "священник или изобьёт громила, выстрела не будет. Своего ВСБ убивать нельзя."
    ),
    "thug": (
        "Каждую ночь вы избиваете одного игрока: его ночной ход не состоится. Избиение не "
        "убивает. Себя и одного и того же две ночи подряд нельзя. Играете за свой клан."
    ),
    "kamikaze": (
        "Один раз за игру вы можете подорвать игрока: погибнете и вы, и он; реаниматор не "
        "спасает. Если вас этой ночью заберёт священник или изобьёт громила, подрыв не "
        "состоится и останется за вами. Играете за свой клан."
    ),
    "maniac": (
        "Вы играете сам за себя. Каждую ночь либо убиваете одного игрока, либо сидите в "
        "засаде (не две ночи подряд): каждый, кто придёт к вам ночью, погибнет. Побеждаете, "
        "когда останетесь один или вдвоём с кем-то."
    ),
    "necromancer": (
        "В течение 1-го, 2-го или 3-го хода, днём, назовите двух разных игроков (не себя). "
        "Первую ночную смерть одного из них вы предотвратите — один раз за игру. Играете за "
        "мирных."
    ),
    "priest": (
        "Ночью вы просыпаетесь первым и забираете одного игрока на беседу о вечном: его "
        "ночной ход и все ходы против него не состоятся, а ход против вас касается вас "
        "обоих. Себя и одного и того же две ночи подряд нельзя. Играете за мирных."
    ),
}


def _example(role: str) -> str:
    return EXAMPLE_OF_ROLE[role]


def role_pm_texts(players: Sequence[Player]) -> list[tuple[str, str, str]]:
    """The role PM of every player: ``(nick, subject, BBCode text)``, in roster order.

    The ВСБ is told «Мирный житель» and gets a citizen's text (N13); his clan learns who he
    is. Clan members see each other with their roles; the commissar and the sergeant see
    each other (N12). Every nick is escaped (:func:`referee.bbcode.escape`)."""
    out: list[tuple[str, str, str]] = []
    clan_count = len({p.clan for p in players if p.role in CLAN_ROLES and p.clan})
    for p in players:
        shown = "citizen" if p.role == "boss_son" else p.role
        name = ROLE_NAMES_RU.get(shown, shown)
        lines = [
            f"Привет, {escape(p.nick)}! Ваша роль в этой игре — {b(name)}.",
            "",
            _ABOUT.get(shown, ""),
        ]
        if shown in EXAMPLE_OF_ROLE:
            when = "днём, в течение 1–3-го хода" if shown == "necromancer" else "до дедлайна ночи"
            verb = "Когда станете комиссаром, пишите" if shown == "sergeant" else "Пишите"
            # N1: only kill/check/heal requests (the seed's words) may be changed just once.
            # The sergeant's are the commissar's, once he has the badge (N12).
            limited = set(request_actions(shown)) & set(NightRules().change_limited_actions)
            lines += [
                "",
                f"{verb} ведущему в личные сообщения {when}, например: "
                f"{b(_example(shown))}."
                + (" Сменить заявку можно только один раз за игру." if limited else ""),
            ]
        lines += _partners(p, players, clan_count)
        out.append((p.nick, f"Ваша роль: {name}", "\n".join(lines).rstrip() + "\n"))
    return out


def _partners(p: Player, players: Sequence[Player], clan_count: int) -> list[str]:
    if p.role in CLAN_ROLES:
        members = [
            f"{escape(q.nick)} ({ROLE_NAMES_RU[q.role]})"
            for q in players
            if q.role in CLAN_ROLES and q.clan == p.clan and q.nick != p.nick
        ]
        sons = [escape(q.nick) for q in players if q.role == "boss_son" and q.clan == p.clan]
        lines = ["", "Ваш клан: " + (", ".join(members) if members else "вы один") + "."]
        if sons:
            lines.append(
                "ВСБ вашего клана (внебрачный сын босса; сам он думает, что он мирный житель, "
                "и убивать его вашему клану нельзя): " + ", ".join(sons) + "."
            )
        if clan_count > 1:
            lines.append(
                f"Мафиозных кланов в игре: {clan_count}; состав других кланов вам неизвестен."
            )
        return lines
    if p.role in ("commissar", "sergeant"):
        other_role = "sergeant" if p.role == "commissar" else "commissar"
        others = [escape(q.nick) for q in players if q.role == other_role]
        if others:
            return ["", f"Ваш {ROLE_NAMES_RU[other_role].lower()}: " + ", ".join(others) + "."]
    return []
