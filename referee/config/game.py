"""``referee.toml``: the game's settings, validated into small frozen dataclasses.

Every key has the docs/rules.md default; a wrong or missing key gives a :class:`ConfigError`
that names the key and says how to fix it. Credentials never live here: the password comes
from ``REFEREE_PASSWORD`` or a prompt (see :mod:`adapters.base`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from referee.config.activity import ActivityRules, activity_rules
from referee.config.checks import check_entries, missing_parts
from referee.config.forum import ForumConfig, engine_names, forum_limits
from referee.config.schema import ConfigProblems, Source, check_schema, local_time
from referee.config.toml_errors import read_text, read_toml
from referee.core.errors import ConfigError
from referee.core.roles import (
    DEFAULT_CLAN,
    ROLES_WITH_CLAN,
    action_id,
    action_words,
    normalise_role,
)

DEFAULT_RED_COLOURS = ("red", "darkred", "crimson", "firebrick")


@dataclass(frozen=True, slots=True)
class Player:
    nick: str
    role: str = "citizen"
    clan: str | None = None
    role_given: bool = True
    """False for a nick listed without a role (``"Ник" = ""``): ``referee deal`` gives it."""


@dataclass(frozen=True, slots=True)
class Replacement:
    """``[[replacements]]``: ``player`` takes ``slot`` from ``from_post`` or ``from_time`` on."""

    slot: str
    player: str
    from_post: int | None = None
    from_time: datetime | None = None


@dataclass(frozen=True, slots=True)
class DaySchedule:
    """One turn's windows (docs/rules.md T1): Day N from ``start`` to ``deadline``, Night N to
    ``night_deadline``. Times are UTC-aware."""

    day: int
    start: datetime
    deadline: datetime
    night_deadline: datetime | None = None


@dataclass(frozen=True, slots=True)
class VoteRules:
    """``[rules]`` vote profile (docs/rules.md V1–V6)."""

    phrases: tuple[str, ...] = ("мой голос",)
    red_colours: tuple[str, ...] = DEFAULT_RED_COLOURS
    red_hue_tolerance: float = 20.0
    red_min_saturation: float = 0.5
    changes: str = "forbidden"  # forbidden | last_counts | limited
    change_limit: int = 1
    edited_vote: str = "count_flagged"  # count_flagged | void | missed
    tie: str = "first_to_reach"  # first_to_reach | nobody | all | earliest_last_vote
    early_majority: bool = False
    reason_min_letters: int = 10
    near_match_distance: int = 1
    near_match_min_length: int = 5
    reveal_role_on_hanging: bool = True
    vote_colours: tuple[str, ...] = ("red",)
    """V1: the colours a vote is written in — families (red, green, blue, …) and explicit
    CSS colours (:mod:`referee.core.css_colours`); red's names are ``red_colours``."""
    deleted_vote: str = "count_flagged"  # count_flagged | void
    """A counted vote whose post has vanished from the topic: still counts, flagged for the
    host (``count_flagged``), or does not count (``void``)."""


@dataclass(frozen=True, slots=True)
class NightRules:
    """docs/rules.md N1–N14, W2 settings."""

    reveal_role_on_death: bool = True
    maniac_ambush_twice_in_a_row: bool = False
    ambush_kills: tuple[str, ...] = ("priest", "thug", "mafia", "ninja", "kamikaze", "doctor")
    request_changes_per_game: int = 1
    change_limited_actions: tuple[str, ...] = ("check", "heal", "shoot", "kill", "blow")
    """N1: «Заявку на убийство/проверку/лечение можно сменить только один раз за игру» —
    the actions whose change is limited; a priest's take, a thug's beating, the maniac's
    ambush and the necromancer's naming may be changed freely (the last one counts)."""
    clan_wins_at_parity: bool = False
    necromancer_turns: int = 3


@dataclass(frozen=True, slots=True)
class NotifyConfig:
    """``[notify]``: where ``referee watch`` pushes its news (a Telegram chat). The bot's
    token is a secret: it comes from ``REFEREE_TELEGRAM_TOKEN``, never from the file."""

    chat_id: str | None = None
    events: tuple[str, ...] = ("deadline", "reminder", "silent", "forum", "error")


@dataclass(frozen=True, slots=True)
class Config:
    path: Path
    host: str
    forum: ForumConfig
    players: tuple[Player, ...]
    schedule: tuple[DaySchedule, ...] = ()
    aliases: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    replacements: tuple[Replacement, ...] = ()
    votes: VoteRules = field(default_factory=VoteRules)
    activity: ActivityRules = field(default_factory=ActivityRules)
    night: NightRules = field(default_factory=NightRules)
    game_start: datetime | None = None
    game_end: datetime | None = None
    setup: Mapping[str, int] = field(default_factory=dict)
    title: str = ""
    notify: NotifyConfig = field(default_factory=NotifyConfig)

    @property
    def tz(self) -> ZoneInfo:
        return ZoneInfo(self.forum.timezone)

    @property
    def db_path(self) -> Path:
        return self.path.with_suffix(".db")

    @property
    def roles_revealed_on_hanging(self) -> dict[str, str] | None:
        """nick → role id when a hanged player's role is revealed (V6 setting), else None."""
        if not self.votes.reveal_role_on_hanging:
            return None
        return {p.nick: p.role for p in self.players if p.role_given}

    def player(self, nick: str) -> Player | None:
        for p in self.players:
            if p.nick == nick:
                return p
        return None

    def day(self, n: int) -> DaySchedule | None:
        for d in self.schedule:
            if d.day == n:
                return d
        return None


# --------------------------------------------------------------------------- loading

def load_config(path: str | Path) -> Config:
    """Read and validate ``referee.toml``; relative paths in it are relative to its folder."""
    p = Path(path)
    raw = read_toml(
        p, "файл настроек",
        "создайте его по образцу referee.toml с комментариями в корне проекта "
        "или укажите --config ПУТЬ",
    )
    # Every key, type and form first (else every part the game needs that is missing),
    # then what the entries say together: each problem with its line, all at once —
    # before a value is read.
    _check_no_secrets(raw)
    source = Source(p, read_text(p))
    problems = check_schema(raw, source) or missing_parts(raw, source)
    try:
        problems += check_entries(raw, source)
    except (ConfigError, TypeError, KeyError, AttributeError, ValueError, OSError):
        pass  # entries of the wrong form: the schema's problems say which
    if problems:
        raise ConfigProblems(p, sorted(problems, key=lambda x: x.line or 0))
    return parse_config(raw, p)


def parse_config(raw: Mapping[str, Any], path: Path) -> Config:
    """The config from a file :func:`load_config` has checked: the schema
    (:mod:`referee.config.schema`) is the one check of every key's type and range, so the
    values are read here as they are; only what the schema cannot see is checked (issue
    28: the config validated once)."""
    _check_no_secrets(raw)
    game = _table(raw, "game")
    forum_raw = _table(raw, "forum")
    tz_name = _str(forum_raw, "forum.timezone", "UTC")
    tz = ZoneInfo(tz_name)
    snapshot = forum_raw.get("snapshot")
    url = forum_raw.get("url")
    forum = ForumConfig(
        engine=_opt_str(forum_raw, "forum.engine"),
        url=url,
        vote_url=_opt_str(forum_raw, "forum.vote_url"),
        snapshot=(path.parent / snapshot) if snapshot else None,
        timezone=tz_name,
        username=_opt_str(forum_raw, "forum.username"),
        rate_limit=_num(forum_raw, "forum.rate_limit", 2.0),
        timeout=_num(forum_raw, "forum.timeout", 20.0),
        retries=int(_num(forum_raw, "forum.retries", 4)),
        user_agent=_opt_str(forum_raw, "forum.user_agent"),
        read_sent=_bool(forum_raw, "read_sent", False),
        **forum_limits(forum_raw),
    )
    if forum.engine is not None and forum.engine not in engine_names():
        raise ConfigError(
            f"[forum] engine = {forum.engine!r} не поддерживается",
            "напишите одно из: " + ", ".join(f'engine = "{n}"' for n in engine_names())
            + " или уберите строку (движок определится по адресу темы)",
        )

    host = game.get("host")
    if not isinstance(host, str) or not host.strip():  # the schema lets "" and "  " pass
        raise ConfigError(
            "нет [game] host: нужен ник ведущего на форуме "
            "(сообщения ведущего никогда не голоса)",
            'добавьте в [game]: host = "ВашНик"',
        )

    players = _players(raw.get("players"))
    schedule = _schedule(raw.get("schedule"), tz)
    aliases = _aliases(raw.get("aliases"), {p.nick for p in players})
    replacements = _replacements(raw.get("replacements"), tz, {p.nick for p in players})
    rules = _table(raw, "rules")
    return Config(
        path=path,
        host=host.strip(),
        title=str(game.get("title", "")),
        forum=forum,
        players=players,
        schedule=schedule,
        aliases=aliases,
        replacements=replacements,
        votes=_vote_rules(rules),
        activity=activity_rules(rules),
        night=_night_rules(rules),
        game_start=_time(game.get("start"), tz, "game.start") if "start" in game else None,
        game_end=_time(game.get("end"), tz, "game.end") if "end" in game else None,
        setup=_setup(raw.get("setup")),
        notify=_notify(_table(raw, "notify")),
    )


_SECRET_KEYS = ("password", "passwd", "pass", "token", "cookie", "sid", "telegram_token")


def _check_no_secrets(raw: Mapping[str, Any], where: str = "") -> None:
    for key, value in raw.items():
        if key.lower() in _SECRET_KEYS:
            raise ConfigError(
                f"в referee.toml секретный ключ {where}{key}: паролям и токенам не место в файле",
                "удалите эту строку и задайте REFEREE_TELEGRAM_TOKEN (токен бота) в "
                "окружении" if "token" in key.lower() else
                "удалите эту строку и задайте REFEREE_PASSWORD в окружении "
                "(или referee спросит пароль сам)",
            )
        if isinstance(value, Mapping):
            _check_no_secrets(value, f"{where}{key}.")


# The readers below take a value the schema has checked (its type, its range, its choices:
# :data:`referee.config.schema.TABLES`), or the default when the key is absent.

def _table(raw: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    return raw.get(key, {})


def _str(t: Mapping[str, Any], key: str, default: str) -> str:
    return t.get(key.split(".")[-1], default)


def _opt_str(t: Mapping[str, Any], key: str) -> str | None:
    return t.get(key.split(".")[-1])


def _num(t: Mapping[str, Any], key: str, default: float) -> float:
    return float(t.get(key.split(".")[-1], default))


def _bool(t: Mapping[str, Any], key: str, default: bool) -> bool:
    return t.get(key, default)


def _choice(t: Mapping[str, Any], key: str, default: str) -> str:
    return t.get(key, default)


def _players(raw: Any) -> tuple[Player, ...]:
    if raw is None:
        raise ConfigError(
            "нет [players]: без списка игроков не сопоставить ники в голосах",
            'добавьте таблицу [players]: "Ник" = "мирный", "Ник2" = { role = "мафия", clan = "A" }',
        )
    if not isinstance(raw, Mapping) or not raw:
        raise ConfigError("[players] — нужна непустая таблица строк ник = роль")
    out: list[Player] = []
    for nick, spec in raw.items():
        where = f"players.{nick!r}"
        if isinstance(spec, str) and spec.strip() in ("", "?"):
            out.append(Player(nick=nick, role_given=False))  # the deal gives the role
        elif isinstance(spec, str):
            out.append(Player(nick=nick, role=normalise_role(spec, where)))
        elif isinstance(spec, Mapping):
            role = normalise_role(spec.get("role", "citizen"), where)
            clan = spec.get("clan")
            if clan is not None and not isinstance(clan, str):
                raise ConfigError(f"{where}.clan — нужна строка")
            if role in ROLES_WITH_CLAN and clan is None:
                clan = DEFAULT_CLAN
            out.append(Player(nick=nick, role=role, clan=clan))
        else:
            raise ConfigError(f"{where} — нужна роль или {{ role = ..., clan = ... }}")
    return tuple(out)


def _time(value: Any, tz: ZoneInfo, key: str) -> datetime:
    """A deadline in the forum's time zone (docs/rules.md T2), returned as UTC; only
    ``"YYYY-MM-DD HH:MM"`` (:func:`referee.config.schema.local_time`)."""
    return local_time(value, tz, key)


def _schedule(raw: Any, tz: ZoneInfo) -> tuple[DaySchedule, ...]:
    if raw is None:
        return ()
    days_raw = raw.get("days") if isinstance(raw, Mapping) else raw
    if not isinstance(days_raw, list):
        raise ConfigError(
            "в [schedule] должны быть записи [[schedule.days]]",
            'добавьте [[schedule.days]] с day = 1, start = "...", deadline = "..."',
        )
    out: list[DaySchedule] = []
    for i, d in enumerate(days_raw):
        where = f"schedule.days[{i}]"
        if not isinstance(d, Mapping):
            raise ConfigError(f"{where} должен быть таблицей")
        for key in ("start", "deadline"):
            if key not in d:
                raise ConfigError(f"{where}.{key}: значения нет",
                                  f'добавьте {key} = "2026-11-21 22:00"')
        n = d.get("day", i + 1)
        if not isinstance(n, int) or n < 1:
            raise ConfigError(f"{where}.day — нужно целое положительное число")
        start = _time(d["start"], tz, f"{where}.start")
        deadline = _time(d["deadline"], tz, f"{where}.deadline")
        if deadline <= start:
            raise ConfigError(f"{where}: deadline не позже start")
        nd = d.get("night_deadline")
        night_deadline = _time(nd, tz, f"{where}.night_deadline") if nd is not None else None
        if night_deadline is not None and night_deadline <= deadline:
            raise ConfigError(f"{where}: night_deadline не позже дедлайна дня")
        out.append(DaySchedule(n, start, deadline, night_deadline))
    out.sort(key=lambda s: s.day)
    if len({s.day for s in out}) != len(out):
        raise ConfigError("[schedule]: один и тот же день указан дважды")
    return tuple(out)


def _aliases(raw: Any, nicks: set[str]) -> dict[str, tuple[str, ...]]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise ConfigError("[aliases] — таблица: \"Ник\" = [\"другое написание\", ...]")
    out: dict[str, tuple[str, ...]] = {}
    for nick, spellings in raw.items():
        if nick not in nicks:
            raise ConfigError(
                f"aliases.{nick!r}: такого игрока нет в [players]", "пишите ник так, как в "
                "[players]"
            )
        if isinstance(spellings, str):
            spellings = [spellings]
        if not isinstance(spellings, list) or not all(isinstance(s, str) for s in spellings):
            raise ConfigError(f"aliases.{nick!r} — нужен список строк")
        out[nick] = tuple(spellings)
    return out


def _replacements(raw: Any, tz: ZoneInfo, nicks: set[str]) -> tuple[Replacement, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise ConfigError("замены нужно записывать как [[replacements]]")
    out: list[Replacement] = []
    for i, r in enumerate(raw):
        where = f"replacements[{i}]"
        if not isinstance(r, Mapping) or "slot" not in r or "player" not in r:
            raise ConfigError(f"{where}: нужны slot = \"старый ник\" и player = \"новый ник\"")
        for key in ("slot", "player"):
            if not isinstance(r[key], str):
                raise ConfigError(f"{where}.{key} — нужен ник в кавычках, а не {r[key]!r}")
        if r["slot"] not in nicks:
            raise ConfigError(f"{where}.slot {r['slot']!r} — такого игрока нет в [players]")
        from_post = r.get("from_post")
        if isinstance(from_post, bool) or not isinstance(from_post, int | None):
            raise ConfigError(f"{where}.from_post — нужен номер сообщения (целое число), "
                              f"а не {from_post!r}")
        from_time = _time(r["from_time"], tz, f"{where}.from_time") if "from_time" in r else None
        if from_post is None and from_time is None:
            raise ConfigError(f"{where}: нужен from_post = НОМЕР или from_time = \"...\"")
        out.append(Replacement(r["slot"], r["player"], from_post, from_time))
    return tuple(out)


def _vote_rules(t: Mapping[str, Any]) -> VoteRules:
    d = VoteRules()
    phrases = t.get("vote_phrases", list(d.phrases))
    colours = t.get("red_colours", list(d.red_colours))
    changes = _choice(t, "changes", d.changes)
    vote_colours = t.get("vote_colours", list(d.vote_colours))
    return VoteRules(
        vote_colours=tuple(c.strip().lower() for c in vote_colours),
        deleted_vote=_choice(t, "deleted_vote", d.deleted_vote),
        phrases=tuple(p.lower() for p in phrases),
        red_colours=tuple(c.lower() for c in colours),
        red_hue_tolerance=_num(t, "rules.red_hue_tolerance", d.red_hue_tolerance),
        red_min_saturation=_num(t, "rules.red_min_saturation", d.red_min_saturation),
        changes=changes,
        change_limit=int(_num(t, "rules.change_limit", d.change_limit)),
        edited_vote=_choice(t, "edited_vote", d.edited_vote),
        tie=_choice(t, "tie", d.tie),
        early_majority=_bool(t, "early_majority", d.early_majority),
        reason_min_letters=int(_num(t, "rules.reason_min_letters", d.reason_min_letters)),
        near_match_distance=int(_num(t, "rules.near_match_distance", d.near_match_distance)),
        near_match_min_length=int(
            _num(t, "rules.near_match_min_length", d.near_match_min_length)
        ),
        reveal_role_on_hanging=_bool(t, "reveal_role_on_hanging", d.reveal_role_on_hanging),
    )


def _night_rules(t: Mapping[str, Any]) -> NightRules:
    d = NightRules()
    ambush = t.get("ambush_kills", list(d.ambush_kills))
    return NightRules(
        reveal_role_on_death=_bool(t, "reveal_role_on_death", d.reveal_role_on_death),
        maniac_ambush_twice_in_a_row=_bool(
            t, "maniac_ambush_twice_in_a_row", d.maniac_ambush_twice_in_a_row
        ),
        ambush_kills=tuple(normalise_role(r, "rules.ambush_kills") for r in ambush),
        request_changes_per_game=int(
            _num(t, "rules.request_changes_per_game", d.request_changes_per_game)
        ),
        change_limited_actions=_actions(t, "change_limited_actions", d.change_limited_actions),
        clan_wins_at_parity=_bool(t, "clan_wins_at_parity", d.clan_wins_at_parity),
        necromancer_turns=int(_num(t, "rules.necromancer_turns", d.necromancer_turns)),
    )


def _actions(t: Mapping[str, Any], key: str, default: tuple[str, ...]) -> tuple[str, ...]:
    value = t.get(key, list(default))
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"rules.{key}: нужен список действий",
                          "например [\"проверка\", \"лечение\", \"выстрел\", \"убийство\"]")
    ids = [action_id(v) for v in value]
    unknown = [v for v, i in zip(value, ids, strict=True) if i is None]
    if unknown:
        raise ConfigError(f"rules.{key}: неизвестное действие {unknown[0]!r}",
                          "напишите одно из: " + action_words())
    return tuple(i for i in ids if i is not None)


def _setup(raw: Any) -> dict[str, int]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise ConfigError("[setup] — нужна таблица роль = число")
    out: dict[str, int] = {}
    for role, count in raw.items():
        if role in ("clans",):
            if not isinstance(count, int) or count < 0:
                raise ConfigError("setup.clans — нужно целое число")
            out["clans"] = count
            continue
        rid = normalise_role(role, f"setup.{role}")
        if not isinstance(count, int) or count < 0:
            raise ConfigError(f"setup.{role} — нужно целое число игроков")
        out[rid] = count
    return out



def _notify(t: Mapping[str, Any]) -> NotifyConfig:
    """``[notify]`` (its keys and values are checked by :mod:`referee.config.schema`)."""
    chat = t.get("chat_id")
    return NotifyConfig(str(chat) if chat is not None else None,
                        tuple(t.get("events", NotifyConfig().events)))
