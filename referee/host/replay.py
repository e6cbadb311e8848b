"""Replay a whole game from a JSON description: roster, then days and nights in order.

Input (a dict, as loaded from JSON)::

    {"players": [{"nick": "Bob", "role": "citizen"}, {"nick": "Don", "role": "mafia",
                  "clan": "A"}, ...],
     "phases": [
        {"day": 1, "votes": [{"voter": "Ann", "target": "Don"}, ...]},
        {"day": 2, "hanged": "Don", "voters": ["Ann", "Bob"]},
        {"night": 1, "requests": [{"actor": "Don", "action": "shoot", "target": "Bob",
                                   "executor": "Vito"}, ...]}]}

Phases come in game order (T1): day 1, night 1, day 2, …, each once, the first being day 1
or night 1, and none after the game is over (W2). A day may also carry ``requests`` (the
necromancer's ``protect``, N9) and ``removed`` (nicks, or ``{"player", "reason"}``: activity
removals at the end of the day, A3); a night may carry ``removed`` too: those who leave with
the next day's start, after the night (A3: a silent turn). Output::

    {"phases": [{"day": N, "hanged": NICK | None, "deaths": [...], "rejected": [...]},
                {"night": N, "deaths": [{"player", "causes"}], "saved": [{"player", "by"}],
                 "checks": [{"by", "target", "result"}],
                 "rejected": [{"actor", "action", "reason"}]}],
     "winner": None | "town" | "clan:<name>" | "maniac" | "draw"}

``winner`` is ``None`` while the game goes on and ``"draw"`` when nobody is left alive
(N15.14).

Bad input (unknown role, unknown nick, missing keys) raises :class:`GameError`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from referee.config.game import DaySchedule, NightRules, Player
from referee.core.errors import ConfigError, GameError
from referee.core.nicks import Roster
from referee.core.roles import action_id, action_words, normalise_role
from referee.rules.actions import Request
from referee.rules.day.count import ReadVote, tally_read
from referee.rules.night import GameResult, GameState, NightOutcome, winner
from referee.rules.night.events import ChangeIgnored, Event, RequestRejected
from referee.rules.night.state import Death
from referee.rules.timeline import DayPlay, NightPlay, play_day, play_night

_HINT = "формат файла переигровки — в README (раздел «Формат файла переигровки»)"
_KIND_RU = {str: "строка", int: "число", list: "список", dict: "объект"}


@dataclass(frozen=True, slots=True)
class _Day:
    day: int
    hanged: str | None
    deaths: tuple[Death, ...]
    events: tuple[Event, ...]
    tally: tuple[tuple[str, int], ...]
    before: GameState


@dataclass(frozen=True, slots=True)
class _Night:
    outcome: NightOutcome


def replay(data: Mapping[str, Any], rules: NightRules) -> dict[str, Any]:
    """Replay the game; one output entry per input phase, in order, and the winner (W2)."""
    phases, state = _run(data, rules)
    return {"phases": [_phase_json(p) for p in phases], "winner": _token(winner(state, rules))}


def _token(result: GameResult | None) -> str | None:
    return None if result is None else result.token


def replay_text(data: Mapping[str, Any], rules: NightRules) -> str:
    """The replay told in Russian, phase by phase, as a host would explain it."""
    phases, state = _run(data, rules)
    lines: list[str] = []
    for p in phases:
        if isinstance(p, _Night):
            lines.append(p.outcome.explain())
        else:
            lines.append(_day_text(p))
        lines.append("")
    result = winner(state, rules)
    lines.append(result.explain() if result is not None else "Игра продолжается.")
    return "\n".join(lines)


# ------------------------------------------------------------------ running


def _run(data: Mapping[str, Any], rules: NightRules) -> tuple[list[_Day | _Night], GameState]:
    if not isinstance(data, Mapping):
        raise GameError("файл переигровки — объект JSON с players и phases", _HINT)
    state = GameState.new(_players(_need(data, "players", list, "файл переигровки")))
    out: list[_Day | _Night] = []
    previous: tuple[int, int] | None = None
    for i, raw in enumerate(_need(data, "phases", list, "файл переигровки")):
        where = f"phases[{i}]"
        if not isinstance(raw, Mapping):
            raise GameError(f"{where} — нужен объект с номером day или night", _HINT)
        if ("day" in raw) == ("night" in raw):
            raise GameError(f"{where}: нужен ровно один из ключей \"day\" или \"night\"", _HINT)
        if previous is not None and (won := winner(state, rules)) is not None:
            # W2: the game ended with the previous phase; playing on would report the
            # winner of a position nobody should have reached.
            raise GameError(
                f"{where}: игра уже закончилась после фазы «{_phase_name(previous)}» "
                f"(победитель: {won.token})",
                "уберите фазы после конца игры или проверьте настройки [rules] "
                "(clan_wins_at_parity), с которыми игра шла",
            )
        previous = _in_order(raw, previous, where)
        if "night" in raw:
            _keys(raw, {"night", "requests", "removed"}, where)
            n = _number(raw["night"], f"{where}.night")
            reqs = _requests(state, raw.get("requests", []), where)
            outcome = play_night(state, NightPlay(n, tuple(reqs)), rules)
            # A3: who leaves with the next day's start, once the night is over.
            state, _ = play_day(outcome.state, DayPlay(n, removals=_removals(
                outcome.state, raw, where)), rules)
            out.append(_Night(outcome))
        else:
            day, state = _run_day(state, raw, where, rules)
            out.append(day)
    return out, state


def _run_day(
    state: GameState, raw: Mapping[str, Any], where: str, rules: NightRules
) -> tuple[_Day, GameState]:
    _keys(raw, {"day", "votes", "hanged", "voters", "requests", "removed"}, where)
    n = _number(raw["day"], f"{where}.day")
    before = state
    tally: tuple[tuple[str, int], ...] = ()
    if "votes" in raw:
        if "hanged" in raw or "voters" in raw:
            raise GameError(f"{where}: либо votes, либо hanged + voters, не оба сразу", _HINT)
        hanged, voters, tally = tally_votes(state, raw["votes"], where)
    else:
        hanged = raw.get("hanged")
        if hanged is not None and not isinstance(hanged, str):
            raise GameError(f"{where}.hanged — нужен ник или null", _HINT)
        voters = raw.get("voters", [])
        if not isinstance(voters, list) or not all(isinstance(v, str) for v in voters):
            raise GameError(f"{where}.voters — нужен список ников", _HINT)
        for nick in [hanged, *voters]:
            _known(state, nick, where)
    reqs = _requests(state, raw.get("requests", []), where)
    removed = _removals(state, raw, where)
    state, events = play_day(state, DayPlay(n, hanged, tuple(voters), tuple(reqs), removed),
                             rules)
    deaths = tuple(d for d in state.graveyard if d not in before.graveyard)
    return _Day(n, hanged, deaths, events, tally, before), state


def _removals(state: GameState, raw: Mapping[str, Any], where: str
              ) -> tuple[tuple[str, str], ...]:
    """A phase's ``removed``: nicks, or ``{"player", "reason"}`` (A3)."""
    removals = raw.get("removed", [])
    if not isinstance(removals, list):
        raise GameError(f"{where}.removed — нужен список ников или {{player, reason}}", _HINT)
    removed: list[tuple[str, str]] = []
    for j, item in enumerate(removals):
        nick, reason = _removal(item, f"{where}.removed[{j}]")
        _known(state, nick, where)
        removed.append((nick, reason))
    return tuple(removed)


REPLAY_DAY = datetime(2000, 1, 1, tzinfo=UTC)
"""A replay's votes have an order and no times: the k-th vote of a day is counted as
written k seconds into a day starting here (post k + 1)."""


def tally_votes(
    state: GameState, votes: Any, where: str = "day"
) -> tuple[str | None, list[str], tuple[tuple[str, int], ...]]:
    """A replay's day counted by the day's own count (:func:`referee.rules.day.count.tally_read`,
    docs/rules.md V4–V6 with the default ``[rules]``): votes in the file's order; a voter's
    first vote counts; votes by or for a dead player do not; most votes is hanged, a tie
    goes to the player who first reached the final count; no votes — nobody. Returns
    (hanged, his voters in order, the count in V6 order)."""
    if not isinstance(votes, list):
        raise GameError(f"{where}.votes — нужен список {{voter, target}}", _HINT)
    read: list[ReadVote] = []
    for k, v in enumerate(votes):
        if not isinstance(v, Mapping) or "voter" not in v or "target" not in v:
            raise GameError(f"{where}.votes[{k}]: нужны \"voter\" и \"target\"", _HINT)
        voter, target = v["voter"], v["target"]
        _known(state, voter, where)
        _known(state, target, where)
        if voter is None or target is None:
            continue  # a vote that names nobody is no vote
        read.append(ReadVote(voter, target, k + 1, REPLAY_DAY + timedelta(seconds=k + 1)))
    window = DaySchedule(0, REPLAY_DAY, REPLAY_DAY + timedelta(seconds=len(read) + 1))
    counted = tally_read(read, window, alive=state.alive, roster=Roster(state.nicks))
    hanged = counted.hanged
    voters = next((c.voters for c in counted.counts if c.target == hanged), ())
    return hanged, [v.voter for v in voters], tuple((c.target, c.votes) for c in counted.counts)


# ------------------------------------------------------------------ input checks


def _in_order(raw: Mapping[str, Any], previous: tuple[int, int] | None, where: str
              ) -> tuple[int, int]:
    """T1: turn N is Day N, then Night N; a replay lists them in that order, each once,
    without gaps (a skipped night would silently skip a testament, N11), starting with Day 1
    or Night 1. Returns the phase as (turn, 0 for day / 1 for night)."""
    is_night = "night" in raw
    n = _number(raw["night" if is_night else "day"], f"{where}.{'night' if is_night else 'day'}")
    phase = (n, int(is_night))
    expected = [(1, 0), (1, 1)] if previous is None else [
        (previous[0], 1) if previous[1] == 0 else (previous[0] + 1, 0)
    ]
    if phase not in expected:
        after = "начала игры" if previous is None else _phase_name(previous)
        raise GameError(
            f"{where}: «{_phase_name(phase)}» не может идти после «{after}» — фазы не по порядку",
            "перечислите фазы в ходе игры (T1): день 1, ночь 1, день 2, ночь 2, …, каждую "
            f"один раз; здесь следующей идёт {' или '.join(_phase_name(p) for p in expected)} "
            '(тихая ночь — {"night": N})',
        )
    return phase


def _phase_name(phase: tuple[int, int]) -> str:
    return f"{'ночь' if phase[1] else 'день'} {phase[0]}"


def _need(raw: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    if key not in raw:
        raise GameError(f"{where}: нет \"{key}\"", _HINT)
    if not isinstance(raw[key], kind):
        raise GameError(f"{where}: \"{key}\" — нужен тип "
                        f"{_KIND_RU.get(kind, kind.__name__)}", _HINT)
    return raw[key]


def _keys(raw: Mapping[str, Any], allowed: set[str], where: str) -> None:
    extra = sorted(set(raw) - allowed)
    if extra:
        raise GameError(f"{where}: неизвестные ключи: {', '.join(extra)}",
                        "допустимые: " + ", ".join(sorted(allowed)))


def _number(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise GameError(f"{where} — нужно целое положительное число, а не {value!r}", _HINT)
    return value


def _known(state: GameState, nick: Any, where: str) -> None:
    if nick is None:
        return
    if not isinstance(nick, str) or not state.has(nick):
        raise GameError(f"{where}: {nick!r} — не игрок этой игры",
                        "пишите ники точно как в \"players\"")


def _players(raw: list[Any]) -> list[Player]:
    out: list[Player] = []
    for i, p in enumerate(raw):
        where = f"players[{i}]"
        if not isinstance(p, Mapping):
            raise GameError(f"{where} — нужен объект {{nick, role, clan?}}", _HINT)
        nick = _need(p, "nick", str, where)
        role_raw = _need(p, "role", str, where)
        try:
            role = normalise_role(role_raw, f"{where} ({nick})")
        except ConfigError as e:
            raise GameError(e.message, e.hint) from None
        clan = p.get("clan")
        if clan is not None and not isinstance(clan, str):
            raise GameError(f"{where}.clan — нужна строка", _HINT)
        out.append(Player(nick, role, clan))
    return out


def _requests(state: GameState, raw: Any, where: str) -> list[Request]:
    if not isinstance(raw, list):
        raise GameError(f"{where}.requests — нужен список", _HINT)
    out: list[Request] = []
    for k, r in enumerate(raw):
        w = f"{where}.requests[{k}]"
        if not isinstance(r, Mapping):
            raise GameError(f"{w} — нужен объект {{actor, action, target?}}", _HINT)
        _keys(r, {"actor", "action", "target", "targets", "executor"}, w)
        actor = _need(r, "actor", str, w)
        typed = _need(r, "action", str, w)
        action = action_id(typed)
        if action is None:
            raise GameError(f"{w}: неизвестное действие {typed!r}",
                            "напишите одно из: " + action_words())
        targets = r.get("targets", [])
        if not isinstance(targets, list) or not all(isinstance(t, str) for t in targets):
            raise GameError(f"{w}.targets — нужен список ников", _HINT)
        for nick in (actor, r.get("target"), r.get("executor"), *targets):
            _known(state, nick, w)
        out.append(Request(
            actor, action, r.get("target"), tuple(targets), r.get("executor"),
            order=k, source="replay", source_id=w,
        ))
    return out


def _removal(item: Any, where: str) -> tuple[str, str]:
    if isinstance(item, str):
        return item, "пропал без вести"
    if isinstance(item, Mapping) and isinstance(item.get("player"), str):
        return item["player"], str(item.get("reason", "пропал без вести"))
    raise GameError(f"{where} — нужен ник или {{player, reason}}", _HINT)


# ------------------------------------------------------------------ output


def _phase_json(p: _Day | _Night) -> dict[str, Any]:
    if isinstance(p, _Day):
        return {
            "day": p.day,
            "hanged": p.hanged,
            "deaths": [{"player": d.player, "causes": list(d.causes)} for d in p.deaths],
            "rejected": [
                {"actor": e.actor, "action": e.action, "reason": e.reason}
                if isinstance(e, RequestRejected)
                else {"actor": e.request.actor, "action": e.request.action,
                      "reason": e.explain()}
                for e in p.events if isinstance(e, RequestRejected | ChangeIgnored)
            ],
        }
    o = p.outcome
    return {
        "night": o.night,
        "deaths": [{"player": d.player, "causes": list(d.causes)} for d in o.deaths],
        "saved": [{"player": player, "by": by} for player, by in o.saved],
        "checks": [{"by": c.by, "target": c.target, "result": c.result} for c in o.checks],
        "rejected": [{"actor": a, "action": act, "reason": r} for a, act, r in o.rejected],
    }


def _day_text(p: _Day) -> str:
    lines = [f"День {p.day}:"]
    if p.tally:
        lines.append("Голоса: " + ", ".join(f"{n} — {c}" for n, c in p.tally) + ".")
    if p.hanged is None:
        lines.append("Никто не повешен.")
    lines += [f"- {e.explain()} ({e.rule})" for e in p.events]
    return "\n".join(lines)

