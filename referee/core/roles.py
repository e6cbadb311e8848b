"""The game's one role vocabulary: the twelve roles of the seed rules and their night actions.

Each :class:`Role` says what the rules say of it — its id, its Russian name and the other
names a host may write in ``referee.toml``, its side (W1), whether it is dealt to a clan,
the night actions it may request (N3–N12) and how its request is written by PM. Each
:class:`Action` has its id (the replay format, issue 6) and the words a host calls it by.
Config, the PM intake, the night engine, the deal and every summary read them from here, so
a role is spelled, sided and allowed the same way everywhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

from referee.core.errors import ConfigError

Side = Literal["town", "clan", "maniac"]
"""W1: the town, a mafia clan, or the maniac who plays alone."""

ActionId = Literal[
    "check", "heal", "shoot", "kill", "ambush", "beat", "blow", "take", "protect"
]

DEFAULT_CLAN = "mafia"
"""Clan of a clan role or ВСБ whose clan is not given (``referee.toml`` and the engine)."""


@dataclass(frozen=True, slots=True)
class Action:
    """One night action: ``name_ru`` is how a host calls it in every explanation;
    ``forms_ru`` are the other words a host may type for it (lower case, «е» for «ё»):
    the noun, the verb and the first person a PM uses («проверка», «проверить», «проверяю»)."""

    id: str
    name_ru: str
    forms_ru: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Role:
    """One role of the seed rules.

    ``aliases_ru`` are the other names ``referee.toml`` accepts (lower case, «е» for «ё»).
    ``has_clan``: a player of this role is dealt to a clan — the clan roles and the ВСБ,
    who names a clan but plays for the town (N13). ``heir_of``: the role whose badge this
    one takes over, and with it that role's requests (the sergeant, N12). ``example_ru``:
    how the role writes its request by PM; the role PMs quote it and the intake reads it."""

    id: str
    name_ru: str
    side: Side
    aliases_ru: tuple[str, ...] = ()
    has_clan: bool = False
    actions: tuple[str, ...] = ()
    heir_of: str | None = None
    example_ru: str | None = None

    @property
    def is_clan_role(self) -> bool:
        """W1: the role plays for a mafia clan."""
        return self.side == "clan"


_ACTIONS: tuple[Action, ...] = (
    Action("check", "проверка", ("проверка", "проверить", "проверять", "проверяю")),
    Action("heal", "лечение", ("лечение", "лечить", "лечу", "вылечить")),
    Action("shoot", "выстрел мафии", ("выстрел", "выстрел мафии", "стрелять", "стреляем",
                                      "стреляю", "выстрелить")),
    Action("kill", "убийство", ("убийство", "убить", "убиваю", "убивать")),
    Action("ambush", "засада", ("засада", "засаду", "сесть в засаду", "сижу в засаде")),
    Action("beat", "избиение", ("избиение", "избить", "бить", "бью", "избиваю")),
    Action("blow", "подрыв", ("подрыв", "подорвать", "взорвать", "взрываю", "подрываю")),
    Action("take", "забрать на беседу", ("забрать", "забрать на беседу", "забираю",
                                         "беседа")),
    Action("protect", "защита некроманта", ("защита", "защита некроманта", "защитить",
                                            "защищаю")),
)

# In the order the seed rules list the roles; the names are the seed's («Реаниматор», not
# «доктор»; «ВСБ» in short).
_ROLES: tuple[Role, ...] = (
    Role("citizen", "Мирный житель", "town", ("мирный", "мирный житель", "чиж")),
    Role("commissar", "Комиссар", "town", ("комиссар", "коми"),
         actions=("check",), example_ru="Проверяю Ник"),
    Role("sergeant", "Сержант", "town", ("сержант", "серж"),
         heir_of="commissar", example_ru="Проверяю Ник"),
    Role("ninja", "Ниндзя", "town", ("ниндзя",), actions=("kill",), example_ru="Убиваю Ник"),
    Role("doctor", "Реаниматор", "town", ("реаниматор", "врач", "доктор"),
         actions=("heal",), example_ru="Лечу Ник"),
    Role("boss_son", "ВСБ", "town", ("всб", "внебрачный сын босса"), has_clan=True),
    Role("mafia", "Мафия", "clan", ("мафия", "маф", "дон", "дон мафии"), has_clan=True,
         actions=("shoot",), example_ru="Стреляем в Ник, исполнитель Ник2"),
    Role("thug", "Громила", "clan", ("громила",), has_clan=True,
         actions=("beat",), example_ru="Бью Ник"),
    Role("kamikaze", "Камикадзе", "clan", ("камикадзе",), has_clan=True,
         actions=("blow",), example_ru="Взрываю Ник"),
    Role("maniac", "Маньяк", "maniac", ("маньяк",),
         actions=("kill", "ambush"), example_ru="Убиваю Ник (или: Засада)"),
    Role("necromancer", "Некромант", "town", ("некромант",),
         actions=("protect",), example_ru="Защищаю Ник1 и Ник2"),
    Role("priest", "Священник", "town", ("священник",),
         actions=("take",), example_ru="Забираю к себе Ник"),
)

ROLES: Mapping[str, Role] = MappingProxyType({r.id: r for r in _ROLES})
"""Role id → :class:`Role`, in the order the rules list the roles."""

NIGHT_ACTIONS: Mapping[str, Action] = MappingProxyType({a.id: a for a in _ACTIONS})
"""Action id → :class:`Action`."""

# ----------------------------------------------------------------- views of the two tables

ROLE_IDS: tuple[str, ...] = tuple(ROLES)
"""Role ids of the twelve roles, in the order the rules list them."""

CLAN_ROLES = frozenset(r.id for r in _ROLES if r.is_clan_role)
"""Roles that belong to a mafia clan (W1); ``boss_son`` names a clan too but is town."""

ROLES_WITH_CLAN = frozenset(r.id for r in _ROLES if r.has_clan)
"""Roles dealt to a clan: the clan roles and the ВСБ (N13)."""

ACTIONS: tuple[str, ...] = tuple(NIGHT_ACTIONS)
"""Every night action id."""

ACTION_OF_ROLE: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {r.id: r.actions for r in _ROLES if r.actions}
)
"""Which actions each role may request (N3–N12). Roles not listed have none."""

ROLE_NAMES_RU: Mapping[str, str] = MappingProxyType({r.id: r.name_ru for r in _ROLES})
"""Role id → the name the seed rules use."""

ACTION_NAMES_RU: Mapping[str, str] = MappingProxyType({a.id: a.name_ru for a in _ACTIONS})
"""Action id → how a host calls it."""

EXAMPLE_OF_ROLE: Mapping[str, str] = MappingProxyType(
    {r.id: r.example_ru for r in _ROLES if r.example_ru}
)
"""How each role that sends requests writes one by PM."""

_ACTION_OF_WORD: Mapping[str, str] = MappingProxyType(
    {form: a.id for a in _ACTIONS for form in (a.id, a.name_ru, *a.forms_ru)}
)

_ROLE_OF_NAME: Mapping[str, str] = MappingProxyType(
    {alias: r.id for r in _ROLES for alias in r.aliases_ru}
)


# ------------------------------------------------------------------------------ questions

ROLES_THE_RULES_LACK: dict[str, str] = {"дон": "mafia", "дон мафии": "mafia"}
"""Roles of other rule sets a host may write that these rules do not have: read as the
role named here, and ``referee check`` says so (the Don has no check of his own here)."""


def folded_role(value: Any) -> str | None:
    """The role a role of other rules is read as («Дон» → ``mafia``), else None."""
    if not isinstance(value, str):
        return None
    return ROLES_THE_RULES_LACK.get(value.strip().lower().replace("ё", "е"))


def normalise_role(value: Any, where: str) -> str:
    """The role id of a role as a host writes it: an id or a Russian name («Дон мафии»).

    A :class:`ConfigError` that names ``where`` for anything else."""
    if not isinstance(value, str):
        raise ConfigError(f"{where}: роль должна быть строкой, а не {value!r}")
    key = value.strip().lower().replace("ё", "е")
    if key in ROLES:
        return key
    if key in _ROLE_OF_NAME:
        return _ROLE_OF_NAME[key]
    raise ConfigError(
        f"{where}: неизвестная роль {value!r}",
        "напишите одну из: " + ", ".join(r.name_ru.lower() for r in _ROLES)
        + " (или id: " + ", ".join(ROLE_IDS) + ")",
    )


def role_name_ru(role: str) -> str | None:
    """The Russian name of a role id or of a Russian alias («дон мафии» → «Мафия»).

    ``None`` for a value that is not a role, so the caller decides how to show it."""
    if role in ROLES:
        return ROLES[role].name_ru
    try:
        return ROLES[normalise_role(role, "role")].name_ru
    except ConfigError:
        return None


def role_ru(role: str) -> str:
    """The Russian name of a role, or the value itself when it is not a role."""
    return role_name_ru(role) or role


def action_ru(action: str) -> str:
    """How a host calls an action, or the value itself when it is not an action."""
    return ACTION_NAMES_RU.get(action, action)


def action_id(word: str) -> str | None:
    """The action id of an action as a host types it: an id («check») or a Russian name or
    form («проверка», «Проверить», «стрелять»). ``None`` for anything else."""
    key = " ".join(word.strip().lower().replace("ё", "е").split())
    return _ACTION_OF_WORD.get(key)


def action_words() -> str:
    """The accepted action words for a hint: each Russian name with its id."""
    return ", ".join(f"{a.name_ru} ({a.id})" for a in _ACTIONS)


def side_of_role(role: str) -> Side:
    """W1: which side a role plays for (a value that is not a role counts as town)."""
    found = ROLES.get(role)
    return found.side if found else "town"


def request_actions(role: str | None) -> tuple[str, ...]:
    """The actions a player of ``role`` may send as a request: the role's own, and for the
    sergeant the commissar's check — the engine accepts it only once he holds the badge
    (N12). None for a role without a night move or for someone who is not in the game."""
    found = ROLES.get(role) if role is not None else None
    if found is None:
        return ()
    if found.heir_of is not None:
        return ROLES[found.heir_of].actions
    return found.actions
