"""``referee check``: what the tool understood of a game's ``referee.toml`` before it counts
anything — the schedule in the forum's time, the roster with its roles against the setup,
the rules that differ from docs/rules.md, every warning and error, and (with the network) what
the topic itself says. Nothing is written: not the database, not the cookie file.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from adapters.base import Secret
from adapters.registry import open_forum
from referee.config.game import (
    ActivityRules,
    Config,
    DaySchedule,
    NightRules,
    VoteRules,
    load_config,
)
from referee.config.game import read_toml as _read_toml
from referee.config.schema import ConfigProblems, local_time
from referee.core.errors import ConfigError, ForumError, GameError
from referee.core.kernel import FIRST_PAGE
from referee.core.nicks import normalise
from referee.core.roles import folded_role, role_ru, side_of_role
from referee.game.dealing import recorded_deal, with_recorded_roster
from referee.rules.deal import default_setup, setup_roles
from referee.store import Store

Password = Callable[[str], Secret]


@dataclass(frozen=True, slots=True)
class TopicFound:
    """What the game topic said when opened: its engine, title, size and first post."""

    engine: str
    title: str
    pages: int
    posts: int | None
    first_author: str | None
    logged_in_as: str | None = None


@dataclass(frozen=True, slots=True)
class Checkup:
    """Everything ``referee check`` found; :attr:`ok` when nothing is wrong (warnings do not
    count)."""

    path: Path
    config: Config | None = None
    errors: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    schedule: tuple[DaySchedule, ...] = ()
    dealt_seed: int | None = None
    sides: Mapping[str, int] = field(default_factory=dict)
    """The roster per side (``town``, ``clan``, ``maniac``; ``none``: no role yet)."""
    setup_sides: Mapping[str, int] = field(default_factory=dict)
    setup_source: str = ""
    """Where the expected counts come from: ``[setup]`` or the docs/rules.md default."""
    rules_changed: tuple[tuple[str, Any, Any], ...] = ()
    """(key, value, docs/rules.md default) of every rule setting that is not the default."""
    topic: TopicFound | None = None
    topic_skipped: bool = False

    @property
    def ok(self) -> bool:
        return not self.errors


def run_checkup(config_path: Path, db_path: Path | None = None, *, now: datetime,
                offline: bool = False, password: Password | None = None) -> Checkup:
    """Read the config as every command would and say what it understood."""
    try:
        config = load_config(config_path)
    except ConfigProblems as e:
        return Checkup(config_path, errors=tuple(_problem(e.path, p) for p in e.problems))
    except ConfigError as e:
        return Checkup(config_path, errors=(str(e),))
    errors: list[str] = []
    warnings: list[str] = []
    seed = None
    db = db_path or config.db_path
    if db.exists():  # never created by a check
        with Store.open(db) as store:
            deal = recorded_deal(store)
            seed = deal.seed if deal is not None else None
            try:
                config = with_recorded_roster(config, store)
            except GameError as e:
                errors.append(str(e))
            from referee.game.safety import roster_doubts

            # Issue 26: the roster against what the stored topic shows.
            warnings += [d.text() for d in roster_doubts(config, store.posts())]
    warnings += _schedule_warnings(config, now)
    warnings += _roster_warnings(config, config_path, dealt=seed is not None)
    sides, setup_sides, source, problem = _sides(config)
    if problem:
        errors.append(problem)
    elif sides.get("none", 0) == 0 and dict(sides) != dict(setup_sides):
        warnings.append(f"роли по сторонам не совпадают с раскладом {source}: это ваш выбор? "
                        "(W1: город, кланы, маньяк)")
    topic = None
    if not offline:
        topic, more_errors, more_warnings = _open_topic(config, password)
        errors += more_errors
        warnings += more_warnings
    return Checkup(
        config_path, config, tuple(errors), tuple(warnings), config.schedule, seed, sides,
        setup_sides, source, _rules_changed(config), topic, topic_skipped=offline)


def checkup_now(config_path: Path, now: str | None) -> datetime:
    """The moment the check looks from: ``--now`` in the forum's time, else the clock.
    A config that does not load reads ``--now`` in UTC (its errors are the report)."""
    if now is None:
        return datetime.now(UTC)
    try:
        tz = load_config(config_path).tz
    except ConfigError:
        tz = ZoneInfo("UTC")
    return local_time(now, tz, "--now")


def _problem(path: Path, p: Any) -> str:
    return f"{path}, {p}" if p.line else f"{path}: {p}"


def _schedule_warnings(config: Config, now: datetime) -> list[str]:
    if not config.schedule:
        return ["расписания нет ([[schedule.days]]): дни придётся задавать командой "
                'referee tally --day N --start "…" --deadline "…"']
    last = config.schedule[-1]
    end = last.night_deadline or last.deadline
    if end <= now:
        return [f"всё расписание в прошлом (последний день {last.day} кончился "
                f"{end.astimezone(config.tz):%d.%m.%Y %H:%M}): это старая игра или даты с "
                "ошибкой в годе?"]
    return []


def _roster_warnings(config: Config, path: Path, *, dealt: bool) -> list[str]:
    out: list[str] = []
    missing = [p.nick for p in config.players if not p.role_given]
    if missing and not dealt:
        out.append(f"роли не розданы ({len(missing)} игроков без роли): referee deal --seed N "
                   "раздаст и запишет их; до тех пор ночи не разрешаются")
    raw = _read_toml(path, "файл настроек", "")
    out += _folded_roles(raw.get("players"))
    forum = raw.get("forum", {})
    if config.forum.board.snapshot is not None and "timezone" not in forum:
        out.append("[forum] timezone не указан: время сохранённых страниц читается как UTC")
    return out


def _folded_roles(players: Any) -> list[str]:
    """«Дон» / «дон мафии»: a role these rules do not have, read as Мафия — said, never
    silently (the host may expect the Don's own check)."""
    out: list[str] = []
    for nick, spec in (players.items() if isinstance(players, dict) else ()):
        typed = spec.get("role") if isinstance(spec, dict) else spec
        if (role := folded_role(typed)) is not None:
            out.append(f"{nick}: «{typed}» считается ролью «{role_ru(role)}» — в правилах "
                       "игры (docs/rules.md) дона нет, своей ночной проверки у него нет")
    return out


def _sides(config: Config) -> tuple[dict[str, int], dict[str, int], str, str | None]:
    """(roster per side, the setup's per side, where the setup comes from, a problem)."""
    sides = Counter(side_of_role(p.role) if p.role_given else "none" for p in config.players)
    n = len(config.players)
    source = "[setup]" if config.setup else "по умолчанию (docs/rules.md, по числу игроков)"
    try:
        setup = config.setup or default_setup(n)
        expected = Counter(side_of_role(role) for role, _ in setup_roles(setup, n))
    except (ConfigError, GameError) as e:
        return dict(sides), {}, source, f"расклад ролей {source}: {e}"
    return dict(sides), dict(expected), source, None


_TOML_KEY = {"phrases": "vote_phrases"}


def _rules_changed(config: Config) -> tuple[tuple[str, Any, Any], ...]:
    out: list[tuple[str, Any, Any]] = []
    for value, default in ((config.votes, VoteRules()), (config.activity, ActivityRules()),
                           (config.night, NightRules())):
        for f in fields(default):
            mine, base = getattr(value, f.name), getattr(default, f.name)
            if mine != base:
                out.append((_TOML_KEY.get(f.name, f.name), mine, base))
    return tuple(out)


def _open_topic(config: Config, password: Password | None
                ) -> tuple[TopicFound | None, list[str], list[str]]:
    """Open the topic as ``sync`` would (logging in when a username is set), read its first
    page, and close: no cookie is kept, nothing is stored."""
    settings = config.forum.settings(cookie_file=None)
    try:
        forum = open_forum(settings, password)
        try:
            who = None
            if settings.username and settings.snapshot is None:
                forum.login()
                who = settings.username
            engine = forum.engine
            pages = forum.fetch_topic_pages(FIRST_PAGE)
            page = next(iter(pages), None)
            getattr(pages, "close", lambda: None)()
        finally:
            forum.close()
    except (ForumError, ConfigError) as e:
        return None, [f"тема не открылась: {e}"], []
    if page is None:
        return None, ["тема открылась, но страниц в ней нет"], []
    first = page.posts[0].author if page.posts and page.page == 1 else None
    found = TopicFound(engine, page.title, page.total_pages, page.total_posts, first, who)
    warnings = []
    if first is not None and normalise(first) != normalise(config.host):
        warnings.append(f"первое сообщение темы написал {first}, а ведущий в [game] host — "
                        f"{config.host}: проверьте host — сообщения ведущего не должны "
                        "читаться как голоса (V5)")
    return found, [], warnings
