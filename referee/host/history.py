"""How the votes went (``referee history``): a day vote by vote, and the whole game.

A day (:func:`day_history`): after each counted vote, in voting order, the count of every
candidate, who leads and since when, where the lead changed hands, and the moment the final
leader reached the final count (V6: the tie rule «first to reach» looks at that moment).
It is the day's own count (``tally``) told move by move — the counts after each vote in the
order the verdict reads them (:func:`referee.rules.day.verdict.standings`: most votes, and of
several with as many, the one who reached that count first) — never a second count.

The game (:func:`game_history`): per day the hanged player and his count, per night the
deaths, and per player the days voted, the votes cast and how many of them went to players
who were mafia (a clan, W1), the maniac or town — the table a statistics keeper posts at the
end of a game. Roles are the host's knowledge: while the game goes on the table is for him.

Plain values out; :mod:`referee.render.history` writes them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from referee.core.errors import GameError
from referee.core.roles import Side
from referee.game import Game
from referee.host.chronicle import Chronicle, DayEntry, chronicle
from referee.rules.day.result import CountedVote, Tally
from referee.rules.day.verdict import standings

Counts = tuple[tuple[str, int], ...]


@dataclass(frozen=True, slots=True)
class Step:
    """The day after one more counted vote (or change of vote)."""

    number: int
    """1 for the first counted vote of the day."""
    at: datetime
    post_id: int
    voter: str
    target: str
    counts: Counts
    """Every candidate so far, most votes first; as many: the one who got there first."""
    leader: str
    leader_since: datetime
    """When the current leader took the lead he still holds."""
    lead_changed: bool
    """The lead changed hands with this vote (the first vote gives the first leader)."""
    old: str | None = None
    """V4: the player this vote was taken from (a change of vote), ``None`` for a first
    vote."""


@dataclass(frozen=True, slots=True)
class Reached:
    """V6: the vote with which ``nick`` reached his final ``votes``."""

    nick: str
    votes: int
    at: datetime
    post_id: int


@dataclass(frozen=True)
class DayHistory:
    day: int
    start: datetime
    deadline: datetime
    closed: bool
    """False while the day goes on: the history is the count as it stands."""
    steps: tuple[Step, ...]
    final: Counts
    """The day's count (V6 order), as ``tally`` gives it."""
    leader: str | None
    """The leader of the count at the end (V6 order), ``None`` without votes."""
    reached: Reached | None
    hanged: str | None
    """Who the day hangs: the count with the tie rule, or the host's word (``hang``)."""
    explanation: str
    alive: int
    as_of: datetime | None = None
    """For a day still going: the moment the count stands at."""

    @property
    def lead_changes(self) -> tuple[Step, ...]:
        return tuple(s for s in self.steps if s.lead_changed and s.number > 1)


def history_of_day(game: Game, day: int | None, story: Chronicle | None = None
                   ) -> DayHistory:
    """Day ``day``: a day that is over as the game has it; the day in progress as it stands
    now (nothing is recorded). Without ``day``: the current day, or once the game is over
    (W2) its last day."""
    story = story or chronicle(game)
    end = story.end
    if day is None:
        day = end.number if end is not None else game.current_day()
    entry = story.day(day)
    if entry is not None:
        return day_history(entry.tally)
    window = game.window(day)
    if game.now < window.start:
        raise GameError(f"день {day} ещё не начался (начало {window.start:%d.%m %H:%M})",
                        "выберите день, который уже начался: referee history --day N")
    if end is not None:
        raise GameError(f"{end.explain()} Дня {day} в игре не было.",
                        f"выберите день этой игры (1–{end.number}) или всю игру: "
                        "referee history --game")
    return day_history(game.tally_day(day, record=False, _state=story.state).tally)


def day_history(tally: Tally) -> DayHistory:
    """A day's count move by move, as the day's own count has it (:attr:`Tally.moves`): after
    each counted vote (or change of vote, V4) the count in V6 order
    (:func:`referee.rules.day.verdict.standings`, the order the verdict reads)."""
    steps: list[Step] = []
    leader: str | None = None
    since: datetime | None = None
    for i, move in enumerate(tally.moves, 1):
        order = standings(tally.moves[:i])
        changed = order[0].target != leader
        if changed or since is None:
            leader, since = order[0].target, move.at
        steps.append(Step(i, move.at, move.post_id, move.voter, move.target,
                          tuple((s.target, s.votes) for s in order), order[0].target, since,
                          changed, move.old))
    top = tally.counts[0] if tally.counts else None
    reached = None
    if top is not None and top.reached_at is not None and top.reached_post is not None:
        reached = Reached(top.target, top.votes, top.reached_at, top.reached_post)
    return DayHistory(
        day=tally.day, start=tally.start, deadline=tally.deadline, closed=tally.closed,
        steps=tuple(steps), final=tuple((c.target, c.votes) for c in tally.counts),
        leader=top.target if top else None, reached=reached, hanged=tally.hanged,
        explanation=tally.explanation, alive=len(tally.alive), as_of=tally.as_of,
    )


# ---------------------------------------------------------------------- the whole game

@dataclass(frozen=True, slots=True)
class DayLine:
    day: int
    hanged: str | None
    hanged_role: str | None
    votes: int
    """The hanged player's count (0 when nobody is hanged)."""
    counted: int
    """Counted votes of the day in all."""
    leaving: tuple[tuple[str, str], ...]
    """(nick, role) of those who left at the end of the day (A3)."""
    recorded: bool


@dataclass(frozen=True, slots=True)
class NightLine:
    night: int
    deaths: tuple[tuple[str, str, tuple[str, ...]], ...]
    """(nick, role, causes) of the night's dead (N2)."""
    recorded: bool
    leaving: tuple[tuple[str, str], ...] = ()
    """(nick, role) of those out with the next day's start for a silent turn (A3)."""


@dataclass(frozen=True, slots=True)
class PlayerLine:
    nick: str
    role: str
    side: Side
    alive: bool
    days_in_game: tuple[int, ...]
    """The days (over) he started alive: the days he could vote."""
    days_voted: tuple[int, ...]
    votes_cast: int
    at_mafia: int
    at_maniac: int
    at_town: int


@dataclass(frozen=True)
class GameHistory:
    days: tuple[DayLine, ...]
    nights: tuple[NightLine, ...]
    players: tuple[PlayerLine, ...]
    over: bool
    winner_text: str | None


SideWord = Literal["mafia", "maniac", "town"]
_SIDE: dict[Side, SideWord] = {"clan": "mafia", "maniac": "maniac", "town": "town"}


def game_history(game: Game, story: Chronicle | None = None) -> GameHistory:
    """The whole game so far: the days and nights that are over, and every player's votes."""
    story = story or chronicle(game)
    days = tuple(_day_line(d) for d in story.days)
    nights = tuple(
        NightLine(n.night, tuple((d.player, n.before.role_of(d.player), d.causes)
                                 for d in n.deaths), n.recorded,
                  tuple((x.nick, n.before.role_of(x.nick)) for x in n.leaving))
        for n in story.nights)
    state = story.state
    players = tuple(_player_line(story, nick) for nick in state.nicks)
    return GameHistory(days, nights, players, story.winner is not None, story.winner_text)


def _day_line(d: DayEntry) -> DayLine:
    # From the day's counted votes: a recorded day keeps them, and is not counted again.
    count = sum(1 for _, v in d.votes if v.target == d.hanged) if d.hanged else 0
    role = d.before.role_of(d.hanged) if d.hanged else None
    leaving = tuple((x.nick, d.before.role_of(x.nick)) for x in d.leaving
                    if d.before.is_alive(x.nick))
    return DayLine(d.day, d.hanged, role, count, len(d.votes), leaving, d.recorded)


def _player_line(story: Chronicle, nick: str) -> PlayerLine:
    state = story.state
    days_in = tuple(d.day for d in story.days if d.before.is_alive(nick))
    votes = list(_votes_by(story.days, nick))
    sides = [_SIDE[state.side_of(v.target)] for v in votes]
    voted = tuple(dict.fromkeys(day for day, _ in _days_of(story.days, nick)))
    return PlayerLine(
        nick=nick, role=state.role_of(nick), side=state.side_of(nick),
        alive=state.is_alive(nick), days_in_game=days_in, days_voted=voted,
        votes_cast=len(votes), at_mafia=sides.count("mafia"),
        at_maniac=sides.count("maniac"), at_town=sides.count("town"),
    )


def _days_of(days: Iterable[DayEntry], nick: str) -> Iterable[tuple[int, CountedVote]]:
    for d in days:
        for voter, v in d.votes:
            if voter == nick:
                yield d.day, v


def _votes_by(days: Iterable[DayEntry], nick: str) -> Iterable[CountedVote]:
    return (v for _, v in _days_of(days, nick))
