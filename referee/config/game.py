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
from referee.config.checks import check_config
from referee.config.forum import ForumConfig, forum_config
from referee.config.schema import ConfigProblems, Source, local_time
from referee.config.toml_errors import read_text, read_toml
from referee.core.roles import DEFAULT_CLAN, ROLES_WITH_CLAN, action_id, normalise_role

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
        return ZoneInfo(self.forum.board.timezone)

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
    return parse_config(raw, p, Source(p, read_text(p)))


def parse_config(raw: Mapping[str, Any], path: Path, source: Source | None = None) -> Config:
    """The config from the file's values. They are validated once, each problem with its
    line when ``source`` has the file's text (:func:`referee.config.checks.check_config`:
    issue 28, the schema is the one validation), and then only read here."""
    problems = check_config(raw, source or Source(path, ""))
    if problems:
        raise ConfigProblems(path, problems)
    game = raw.get("game", {})
    tz = ZoneInfo(raw.get("forum", {}).get("timezone", "UTC"))
    players = _players(raw["players"])
    rules = raw.get("rules", {})
    return Config(
        path=path,
        host=game["host"].strip(),
        title=game.get("title", ""),
        forum=forum_config(raw.get("forum", {}), path.parent),
        players=players,
        schedule=_schedule(raw.get("schedule", {}), tz),
        aliases=_aliases(raw.get("aliases", {})),
        replacements=_replacements(raw.get("replacements", []), tz),
        votes=_vote_rules(rules),
        activity=activity_rules(rules),
        night=_night_rules(rules),
        game_start=local_time(game["start"], tz, "game.start") if "start" in game else None,
        game_end=local_time(game["end"], tz, "game.end") if "end" in game else None,
        setup=_setup(raw.get("setup", {})),
        notify=_notify(raw.get("notify", {})),
    )


# The readers below take values :func:`check_config` has checked (their type, range and
# choices: :data:`referee.config.schema.TABLES`; what entries say together:
# :mod:`referee.config.checks`), or the default when the key is absent.

def _num(t: Mapping[str, Any], key: str, default: float) -> float:
    return float(t.get(key, default))


def _players(raw: Mapping[str, Any]) -> tuple[Player, ...]:
    out: list[Player] = []
    for nick, spec in raw.items():
        where = f"players.{nick!r}"
        if isinstance(spec, str) and spec.strip() in ("", "?"):
            out.append(Player(nick=nick, role_given=False))  # the deal gives the role
        elif isinstance(spec, str):
            out.append(Player(nick=nick, role=normalise_role(spec, where)))
        else:
            role = normalise_role(spec.get("role", "citizen"), where)
            clan = spec.get("clan")
            if role in ROLES_WITH_CLAN and clan is None:
                clan = DEFAULT_CLAN
            out.append(Player(nick=nick, role=role, clan=clan))
    return tuple(out)


def _schedule(raw: Mapping[str, Any], tz: ZoneInfo) -> tuple[DaySchedule, ...]:
    out: list[DaySchedule] = []
    for i, d in enumerate(raw.get("days", [])):
        where = f"schedule.days[{i}]"
        nd = d.get("night_deadline")
        out.append(DaySchedule(
            d.get("day", i + 1), local_time(d["start"], tz, f"{where}.start"),
            local_time(d["deadline"], tz, f"{where}.deadline"),
            local_time(nd, tz, f"{where}.night_deadline") if nd is not None else None))
    return tuple(sorted(out, key=lambda s: s.day))


def _aliases(raw: Mapping[str, Any]) -> dict[str, tuple[str, ...]]:
    return {nick: (spellings,) if isinstance(spellings, str) else tuple(spellings)
            for nick, spellings in raw.items()}


def _replacements(raw: list[Mapping[str, Any]], tz: ZoneInfo) -> tuple[Replacement, ...]:
    return tuple(
        Replacement(r["slot"], r["player"], r.get("from_post"),
                    local_time(r["from_time"], tz, f"replacements[{i}].from_time")
                    if "from_time" in r else None)
        for i, r in enumerate(raw))


def _vote_rules(t: Mapping[str, Any]) -> VoteRules:
    d = VoteRules()
    phrases = t.get("vote_phrases", list(d.phrases))
    colours = t.get("red_colours", list(d.red_colours))
    changes = t.get("changes", d.changes)
    vote_colours = t.get("vote_colours", list(d.vote_colours))
    return VoteRules(
        vote_colours=tuple(c.strip().lower() for c in vote_colours),
        deleted_vote=t.get("deleted_vote", d.deleted_vote),
        phrases=tuple(p.lower() for p in phrases),
        red_colours=tuple(c.lower() for c in colours),
        red_hue_tolerance=_num(t, "red_hue_tolerance", d.red_hue_tolerance),
        red_min_saturation=_num(t, "red_min_saturation", d.red_min_saturation),
        changes=changes,
        change_limit=int(_num(t, "change_limit", d.change_limit)),
        edited_vote=t.get("edited_vote", d.edited_vote),
        tie=t.get("tie", d.tie),
        early_majority=t.get("early_majority", d.early_majority),
        reason_min_letters=int(_num(t, "reason_min_letters", d.reason_min_letters)),
        near_match_distance=int(_num(t, "near_match_distance", d.near_match_distance)),
        near_match_min_length=int(
            _num(t, "near_match_min_length", d.near_match_min_length)
        ),
        reveal_role_on_hanging=t.get("reveal_role_on_hanging", d.reveal_role_on_hanging),
    )


def _night_rules(t: Mapping[str, Any]) -> NightRules:
    d = NightRules()
    ambush = t.get("ambush_kills", list(d.ambush_kills))
    return NightRules(
        reveal_role_on_death=t.get("reveal_role_on_death", d.reveal_role_on_death),
        maniac_ambush_twice_in_a_row=t.get(
            "maniac_ambush_twice_in_a_row", d.maniac_ambush_twice_in_a_row),
        ambush_kills=tuple(normalise_role(r, "rules.ambush_kills") for r in ambush),
        request_changes_per_game=int(
            _num(t, "request_changes_per_game", d.request_changes_per_game)
        ),
        change_limited_actions=_actions(t, "change_limited_actions", d.change_limited_actions),
        clan_wins_at_parity=t.get("clan_wins_at_parity", d.clan_wins_at_parity),
        necromancer_turns=int(_num(t, "necromancer_turns", d.necromancer_turns)),
    )


def _actions(t: Mapping[str, Any], key: str, default: tuple[str, ...]) -> tuple[str, ...]:
    """Ids of the actions the host named by id or Russian name (``"проверка"``)."""
    return tuple(action_id(v) or v for v in t.get(key, default))


def _setup(raw: Mapping[str, Any]) -> dict[str, int]:
    return {role if role == "clans" else normalise_role(role, f"setup.{role}"): count
            for role, count in raw.items()}


def _notify(t: Mapping[str, Any]) -> NotifyConfig:
    """``[notify]`` (its keys and values are checked by :mod:`referee.config.schema`)."""
    chat = t.get("chat_id")
    return NotifyConfig(str(chat) if chat is not None else None,
                        tuple(t.get("events", NotifyConfig().events)))
