"""Scenario tables for night tests, written the way a host writes them down.

    out = night("Pr=priest, Doc=doctor, Don=mafia/A, Bob", ["Pr take Bob", "Don shoot Pr"])
    assert dead(out) == {"Pr", "Bob"}

Players: ``Nick=role`` or ``Nick=role/clan``; a bare ``Nick`` is a citizen.
Requests: ``Actor action [target ...] [by Executor]`` in sending order.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from referee.config.game import NightRules, Player
from referee.rules.actions import Request
from referee.rules.night import GameState, NightOutcome, apply_day, remove_player, resolve_night
from referee.rules.night.events import Event

RULES = NightRules()


def roster(spec: str) -> list[Player]:
    out: list[Player] = []
    for item in spec.split(","):
        item = item.strip()
        if not item:
            continue
        nick, _, role = item.partition("=")
        role, _, clan = role.partition("/")
        out.append(Player(nick.strip(), role.strip() or "citizen", clan.strip() or None))
    return out


def request(line: str, order: int = 0) -> Request:
    words = line.split()
    actor, action, rest = words[0], words[1], words[2:]
    executor = None
    if "by" in rest:
        i = rest.index("by")
        executor = rest[i + 1]
        rest = rest[:i]
    if len(rest) > 1:
        return Request(actor, action, targets=tuple(rest), executor=executor, order=order)
    return Request(actor, action, rest[0] if rest else None, executor=executor, order=order)


def parse_requests(lines: Iterable[str]) -> list[Request]:
    return [request(line, i) for i, line in enumerate(lines)]


class Game:
    """Several phases in a row: ``g.night(1, [...])``, ``g.day(2, hanged=..., voters=...)``."""

    def __init__(self, players: str, rules: NightRules = RULES) -> None:
        self.state = GameState.new(roster(players))
        self.rules = rules
        self.outcomes: list[NightOutcome] = []

    def night(self, n: int, lines: Sequence[str] = ()) -> NightOutcome:
        out = resolve_night(self.state, n, parse_requests(lines), self.rules)
        self.state = out.state
        self.outcomes.append(out)
        return out

    def day(
        self, n: int, hanged: str | None = None, voters: Sequence[str] = (),
        lines: Sequence[str] = (),
    ) -> tuple[Event, ...]:
        self.state, events = apply_day(
            self.state, n, hanged, list(voters), requests=parse_requests(lines), rules=self.rules
        )
        return events

    def remove(self, nick: str, reason: str = "пропал без вести") -> tuple[Event, ...]:
        self.state, events = remove_player(self.state, nick, reason)
        return events


def night(
    players: str, requests: Sequence[str], rules: NightRules = RULES, n: int = 1
) -> NightOutcome:
    """One night from the start of the game."""
    return Game(players, rules).night(n, requests)


def dead(out: NightOutcome) -> set[str]:
    return {d.player for d in out.deaths}


def causes(out: NightOutcome, nick: str) -> tuple[str, ...]:
    for d in out.deaths:
        if d.player == nick:
            return d.causes
    raise AssertionError(f"{nick} did not die:\n{out.explain()}")


def said(out: NightOutcome | Sequence[Event], phrase: str) -> bool:
    """Whether some line of the host's explanation contains ``phrase``."""
    events = out.events if isinstance(out, NightOutcome) else out
    return any(phrase in e.explain() for e in events)


def of_type(out: NightOutcome, kind: type) -> list:
    return [e for e in out.events if isinstance(e, kind)]


def checks(out: NightOutcome) -> set[tuple[str, str]]:
    return {(c.target, c.result) for c in out.checks}


def rejected(out: NightOutcome | Sequence[Event]) -> list[tuple[str, str, str]]:
    from referee.rules.night.events import RequestRejected

    if isinstance(out, NightOutcome):
        return list(out.rejected)
    return [(e.actor, e.action, e.reason) for e in out if isinstance(e, RequestRejected)]
