"""Russian names of the twelve roles, as the seed rules write them.

Summaries that reveal a role (RULES.md V6, A1–A3, N2) show these names, so every summary
spells a role the same way. Keys are the ids of
:data:`referee.config.ROLE_IDS`.
"""

from __future__ import annotations

from referee.config import normalise_role
from referee.errors import ConfigError

ROLE_NAMES_RU: dict[str, str] = {
    "citizen": "Мирный житель",
    "commissar": "Комиссар",
    "sergeant": "Сержант",
    "ninja": "Ниндзя",
    "doctor": "Реаниматор",
    "boss_son": "ВСБ",
    "mafia": "Мафия",
    "thug": "Громила",
    "kamikaze": "Камикадзе",
    "maniac": "Маньяк",
    "necromancer": "Некромант",
    "priest": "Священник",
}
"""Role id → the name the seed rules use («Реаниматор», not «доктор»; «ВСБ» in short)."""


def role_name_ru(role: str) -> str | None:
    """The Russian name of a role id or of a Russian alias («дон мафии» → «Мафия»).

    ``None`` for a value that is not a role, so the caller decides how to show it.
    """
    if role in ROLE_NAMES_RU:
        return ROLE_NAMES_RU[role]
    try:
        return ROLE_NAMES_RU[normalise_role(role, "role")]
    except ConfigError:
        return None
