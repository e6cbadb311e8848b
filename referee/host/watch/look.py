"""Taking a :class:`~referee.host.watch.news.Look` at the game: the phase by the schedule (T1),
the day's count as it stands (V1–V6), its posts, the host's PMs as the night intake reads
them (N1, N14), and who has not posted this turn (A1).

A look records nothing itself: the day is counted with ``record=False`` (the deadline
work, :mod:`referee.host.watch.jobs`, records it). What the game records on its own while it
works out the state before a later day (the first count after a deadline, see
:mod:`referee.game`) it records the same way for every command.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from referee.config.game import DaySchedule
from referee.core.errors import GameError
from referee.core.nicks import fold, normalise
from referee.game import DayResult, Game
from referee.game.daystate import day_state, held_in
from referee.host.watch.news import Look, Phase, SeenPm, SeenPost, SeenRejection, SeenVote
from referee.rules import decisions
from referee.rules.day.result import Tally
from referee.rules.decisions import Excuse
from referee.rules.intake import NightIntake


def phase_at(schedule: Sequence[DaySchedule], now: datetime
             ) -> tuple[Phase, int, datetime | None]:
    """The phase of the game at ``now`` by its schedule: (phase, number, when it ends)."""
    days = sorted(schedule, key=lambda d: d.day)
    if not days:
        raise GameError("[schedule] пуст: наблюдать нечего",
                        "добавьте [[schedule.days]] в referee.toml")
    if now < days[0].start:
        return "before", days[0].day, days[0].start
    for i, d in enumerate(days):
        following = days[i + 1] if i + 1 < len(days) else None
        end = d.night_deadline or (following.start if following else None)
        if d.start <= now < d.deadline:
            return "day", d.day, d.deadline
        if d.deadline <= now and (end is None or now < end):
            return "night", d.day, end
        if following is not None and end is not None and end <= now < following.start:
            return "morning", d.day, following.start
    return "over", days[-1].day, None


def take_look(game: Game) -> Look:
    """The game as the store holds it now (after a sync)."""
    now = game.now
    phase, number, ends = phase_at(game.schedule, now)
    end = game.end_before("day", number) if phase != "before" else None
    if end is not None:
        # W2: a day after the end of the game is not counted, not even to look at it.
        return Look(now, phase, number, ends, pms=_pms(game, None), winner=end.explain())
    if phase not in ("day", "night"):
        winner = _winner(game, game.tally_day(number, record=False), number) \
            if phase != "before" else None
        return Look(now, phase, number, ends, pms=_pms(game, None), winner=winner)
    # The day as every view reads it (issue 27): tally's count, its living, its leavers.
    day = day_state(game, number)
    t = day.tally
    return Look(
        at=now, phase=phase, number=number, ends=ends,
        votes=tuple(SeenVote(v.post_id, v.voter, v.target, v.at) for v in t.votes),
        counts=day.counts,
        not_voted=day.not_voted,
        rejected=tuple(SeenRejection(r.post_id, r.voter, r.target, r.rule, r.reason)
                       for r in t.rejected if fold(r.voter) != fold(game.config.host)),
        posts=_posts(game, game.window(number), t),
        pms=_pms(game, number),
        silent=_silent(game, number, day.may_vote) if phase == "day" else (),
        hanged=day.hanged,
        winner=day.winner,
    )


def _posts(game: Game, window: DaySchedule, t: Tally) -> tuple[SeenPost, ...]:
    """The day's posts; a vanished one with what it holds in the count ``t`` (the day's
    count, as ``tally`` makes it: :func:`~referee.game.daystate.held_in`)."""
    host = fold(game.config.host)
    return tuple(
        SeenPost(p.post_id, p.author, max(1, len(p.revisions)), p.missing_since is not None,
                 held_in(t, p.post_id).text if p.missing_since is not None else "")
        for p in game.store.posts(since=window.start, until=window.night_deadline,
                                  topic_id=game.vote_topic_id)
        if fold(p.author) != host
    )


def _pms(game: Game, night: int | None) -> tuple[SeenPm, ...]:
    """Every PM of the game; those the night intake reads (Night ``night``: its own PMs
    and the day's PMs before it — or the night before, for a PM of that night read only
    after its end: the inbox has its own cadence, :mod:`referee.game.reread`) with what it
    read."""
    intakes: list[tuple[int, NightIntake]] = []
    for n in (night, night - 1) if night is not None else ():
        try:
            intakes.append((n, game.night_intake(n)))
        except GameError:
            pass  # the night has no end in the schedule yet (or no such night)
    out: list[SeenPm] = []
    for pm in game.game_pms():
        seen = SeenPm(pm.pm_id, pm.sender, pm.sent_at)
        for n, intake in intakes:
            why = tuple(u.reason for u in intake.unreadable if u.pm_id == pm.pm_id)
            if pm.pm_id in intake.pm_ids or why:
                requests = tuple(r for r in intake.requests
                                 if r.source == "pm" and r.source_id == str(pm.pm_id))
                seen = SeenPm(pm.pm_id, pm.sender, pm.sent_at, n, requests, why)
                break
        out.append(seen)
    return tuple(out)


def _silent(game: Game, day: int, alive: Sequence[str]) -> tuple[str, ...]:
    """Living players without a post since Day ``day`` began (A1), excused ones left out."""
    window = game.window(day)
    posted = {normalise(game.slot_of(author, at, pid))
              for pid, author, at in game.store.post_times(since=window.start, until=game.now)}
    excused = {normalise(e.nick) for e in decisions.recorded(game.store, Excuse)
               if e.turn == day}
    return tuple(n for n in alive if normalise(n) not in posted | excused)


def _winner(game: Game, result: DayResult, number: int) -> str | None:
    """The end of the game (W2) once known: after the day's count, or once the night
    after it is over."""
    if result.winner is not None:
        return result.winner.explain()
    try:
        night = game.resolve_night(number, record=False)
    except GameError:
        return None
    return night.winner.explain() if night.winner is not None and night.final else None
