"""The role PMs the host sends after the deal («раздача ролей»): the role, what it does, how
to send the night request (the phrasing :mod:`referee.rules.intake` reads), and the partners the
rules let the player know: a clan's members and its ВСБ (N5, N13), the commissar and the
sergeant (N12)."""

from __future__ import annotations

from collections.abc import Sequence

from referee.config.game import NightRules, Player
from referee.core.bbcode import b, escape
from referee.core.roles import CLAN_ROLES, EXAMPLE_OF_ROLE, ROLE_NAMES_RU, request_actions

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
    each other (N12). Every nick is escaped (:func:`referee.core.bbcode.escape`)."""
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

