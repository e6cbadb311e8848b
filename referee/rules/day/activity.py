"""Activity check («проверка активности»): who leaves the game for silence or missed votes.

Pure: no I/O and no clock; the caller passes the posts, the tally's counted voters and
``now``. docs/rules.md decisions implemented here, and the readings this module fixes:

- **A1.** A living player with no post in the game topic during turn N is «пропал без вести»
  and leaves the game, unless the host recorded an excuse for turn N. Any post counts, even
  one that only quotes others («хотя бы одно сообщение в топике игры»).
- **Turn window (T1, T2).** Turn N runs from Day N ``start`` (inclusive) to Day N+1
  ``start`` (exclusive: a post at that instant or later belongs to the next turn). For the
  last scheduled day, with no Day N+1 yet, the turn ends at Day N's ``night_deadline``, or
  at its day ``deadline`` when no night deadline is known: we never guess a later instant,
  so a post after the last known deadline is simply not in turn N.
- **A2.** A living player with no counted vote on Day N has missed a vote; a vote the tally
  rejected is a missed vote. The days that count for a player are the scheduled days from
  his first day in the game (``first_day``, default the first scheduled day) up to Day N
  (Day N only once its deadline has passed), skipping days he was not alive for the whole
  day (died before that day's deadline) and days the host excused (an excuse for turn d
  covers the vote of Day d). Skipped days are neutral: they neither add a miss nor break a
  run of misses in the «in a row» setting. The player leaves when a miss **on Day N**
  brings his total (or, with ``missed_votes_consecutive``, his run of consecutive misses)
  to ``missed_vote_limit``: limits reached on earlier days were earlier turns' decisions.
- **Host, dead.** The host is never listed nor flagged (V5: the host does not vote). A
  player who died during the turn (hanged, killed at night) is listed but never flagged; a
  player not alive at the turn start is not listed.
- **Warning vs final.** Before the turn's end the A1 part is a warning (the player still has
  time, the host may send a reminder); before Day N's deadline so is the A2 part, and only
  players whom one more miss would remove are warned. After those instants the flags are
  removals.
- **A3** (revised 2026-12-04). An A2 removal takes effect at the end of Day N, after its
  tally. An A1 removal takes effect when turn N ends, at the start of Day N+1 (announced
  with the morning summary of night N; he does not vote on Day N+1), or with
  ``silent_leave = "end_of_day"`` at the end of Day N+1, after its tally. A flag that is
  both takes effect at the earlier of the two.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from referee.config.game import ActivityRules, DaySchedule
from referee.core.errors import GameError
from referee.core.kernel import Post

VoteState = Literal["yes", "no", "rejected"]
"""How a player's Day N vote stands: counted, none, or posted but not counted."""

Status = Literal["ok", "excused", "warning", "removed", "died"]

EndBasis = Literal["next_day_start", "night_deadline", "day_deadline"]

A3_NOTE = ("За пропуск голосований выбывают в конце дня, после подсчёта голосов; за молчание "
           "весь ход — с началом следующего дня (в утренней сводке).")
A3_NOTE_END_OF_DAY = "Выбывание вступает в силу в конце дня, после подсчёта голосов."
"""A3 as it was before the revision (``silent_leave = "end_of_day"``)."""

Effect = tuple[Literal["start", "end"], int]
"""When a removal takes effect (A3): at the start (``start``) or the end (``end``) of a
day."""


def effect_order(effect: Effect) -> int:
    """The start of Day d comes before its end, which comes before the start of Day d+1."""
    kind, day = effect
    return 2 * day + (1 if kind == "end" else 0)


def effect_ru(effect: Effect) -> str:
    """«в конце дня 2, после подсчёта голосов» / «с началом дня 3 (в утренней сводке ночи
    2)»."""
    kind, day = effect
    if kind == "end":
        return f"в конце дня {day}, после подсчёта голосов"
    return f"с началом дня {day} (в утренней сводке ночи {day - 1})"

DEFAULT_EXCUSE_REASON = "предупредил(а) ведущего"


@dataclass(frozen=True, slots=True)
class Excuse:
    """The host's record that ``nick`` warned him about turn ``turn`` («уведомление ведущего»).

    It spares the player A1 for that turn and makes Day ``turn`` neutral for A2."""

    nick: str
    turn: int
    reason: str = ""


@dataclass(frozen=True, slots=True)
class TurnDeath:
    """A player who died during the turn. ``at`` is when: for a hanging the day deadline (or
    the host's closing post), for a night death the night deadline or the morning post. A
    death before the day deadline means the player was not alive for the whole day."""

    nick: str
    at: datetime
    cause: str = ""


@dataclass(frozen=True, slots=True)
class TurnWindow:
    """Turn N's instants (docs/rules.md T1): ``start`` ≤ t < ``end`` is inside the turn; the day's
    votes close at ``day_deadline``. ``end_basis`` says where ``end`` came from."""

    turn: int
    start: datetime
    day_deadline: datetime
    end: datetime
    end_basis: EndBasis


@dataclass(frozen=True, slots=True)
class ActivityFlag:
    """One player flagged by A1 and/or A2: a warning or a removal.

    ``rule`` is "A1", "A2" or "A1, A2"; ``explanation`` is Russian, ready for the summary;
    ``effective_after_day`` is the day whose end (after its tally) the removal takes effect
    at, or ``effective_before_day`` the day at whose start it does (A3: an A1 removal with
    ``silent_leave = "morning"``); one of the two is set."""

    nick: str
    rule: str
    explanation: str
    effective_after_day: int | None
    effective_before_day: int | None = None

    @property
    def effect(self) -> Effect:
        if self.effective_before_day is not None:
            return ("start", self.effective_before_day)
        assert self.effective_after_day is not None
        return ("end", self.effective_after_day)

    @property
    def takes_effect(self) -> str:
        """When the removal takes effect, in words (A3)."""
        return effect_ru(self.effect)


@dataclass(frozen=True, slots=True)
class ActivityRow:
    """One living player's line of the host's table.

    ``posts`` and ``last_post_at`` are for this turn; ``last_seen_at`` is his last post
    before the turn's end at any time (helps the host judge a silent player). ``vote`` is
    his Day N vote; ``missed_days`` the days counted as missed so far (A2). ``excused`` is
    the reason of the host's excuse for this turn, or ``None``."""

    nick: str
    posts: int
    last_post_at: datetime | None
    last_seen_at: datetime | None
    vote: VoteState
    missed_days: tuple[int, ...]
    excused: str | None
    status: Status
    rules: tuple[str, ...] = ()
    death: TurnDeath | None = None


@dataclass(frozen=True, slots=True)
class ActivityReport:
    """The result of :func:`check_activity` for one turn.

    ``final`` is true once the turn is over (every flag is then a removal). ``votes_final`` is
    true once Day N's deadline has passed (A2 flags are then removals)."""

    turn: int
    final: bool
    rows: tuple[ActivityRow, ...]
    removed: tuple[ActivityFlag, ...]
    warnings: tuple[ActivityFlag, ...]
    window: TurnWindow
    votes_final: bool
    now: datetime
    missed_vote_limit: int
    missed_votes_consecutive: bool
    note: str = A3_NOTE
    silent_leave: str = "morning"
    """A3: when an A1 removal takes effect (``morning`` or ``end_of_day``)."""


def turn_window(turn: int, schedule: Sequence[DaySchedule]) -> TurnWindow:
    """Turn ``turn``'s window (docs/rules.md T1): Day N start → Day N+1 start; for the last
    scheduled day → its night deadline, else its day deadline (see the module docstring)."""
    by_day = {d.day: d for d in schedule}
    day = by_day.get(turn)
    if day is None:
        known = ", ".join(str(d) for d in sorted(by_day)) or "none"
        raise GameError(
            f"дня {turn} нет в расписании (дни в расписании: {known})",
            f"добавьте запись [[schedule.days]] с day = {turn}, start и deadline",
        )
    following = by_day.get(turn + 1)
    if following is not None:
        end, basis = following.start, "next_day_start"
    elif day.night_deadline is not None:
        end, basis = day.night_deadline, "night_deadline"
    else:
        end, basis = day.deadline, "day_deadline"
    if following is not None and following.start < day.deadline:
        raise GameError(
            f"день {turn + 1} начинается ({following.start:%d.%m %H:%M}) раньше дедлайна дня "
            f"{turn} "
            f"({day.deadline:%d.%m %H:%M})",
            f"исправьте начало дня {turn + 1} или дедлайн дня {turn} "
            "в [[schedule.days]]",
        )
    if end <= day.start:
        raise GameError(
            f"ход {turn} закончился бы ({end:%d.%m %H:%M}) раньше, чем начался "
            f"({day.start:%d.%m %H:%M})",
            f"проверьте начало дня {turn + 1} в [[schedule.days]]",
        )
    return TurnWindow(turn, day.start, day.deadline, end, basis)


def check_activity(
    turn: int,
    *,
    players_alive_at_turn_start: Iterable[str],
    posts: Iterable[Post],
    schedule: Sequence[DaySchedule],
    counted_voters_by_day: Mapping[int, Collection[str]],
    excuses: Iterable[Excuse],
    deaths_during_turn: Iterable[TurnDeath],
    host: str,
    rules: ActivityRules,
    now: datetime,
    rejected_voters_by_day: Mapping[int, Collection[str]] | None = None,
    first_day: Mapping[str, int] | None = None,
) -> ActivityReport:
    """docs/rules.md A1–A3 for turn ``turn`` as of ``now``.

    ``posts`` are the topic's posts with authors already resolved to roster nicks (the
    caller applies replacements and renames). ``counted_voters_by_day[d]`` are the players
    whose vote the tally counted on Day d; ``rejected_voters_by_day[d]`` those whose vote
    it did not count (only to show «rejected»: for A2 both are a missed vote). Every day
    that counts for A2 must be present in ``counted_voters_by_day``. ``first_day`` gives a
    player's first day in the game when it is not the first scheduled day.
    """
    if now.tzinfo is None:
        raise GameError(
            "проверка активности получила время без часового пояса",
            "передавайте время с поясом (UTC) для now, сообщений и смертей",
        )
    window = turn_window(turn, schedule)
    if now < window.start:
        raise GameError(
            f"ход {turn} ещё не начался (начало {window.start:%d.%m %H:%M})",
            "запустите проверку активности, когда день начнётся",
        )
    alive: list[str] = []
    for nick in players_alive_at_turn_start:
        if nick != host and nick not in alive:
            alive.append(nick)
    excuse_of: dict[tuple[str, int], str] = {}
    for e in excuses:
        excuse_of.setdefault((e.nick, e.turn), e.reason.strip() or DEFAULT_EXCUSE_REASON)
    scheduled_days = tuple(sorted(d.day for d in schedule))
    t = _Turn(turn, window, now >= window.end, now >= window.day_deadline, rules,
              scheduled_days, scheduled_days[0], first_day or {}, counted_voters_by_day,
              rejected_voters_by_day or {}, excuse_of)
    alive_set = set(alive)
    death_of = {d.nick: d for d in deaths_during_turn if d.nick in alive_set}
    in_turn, last_seen = _posts_of_turn(posts, alive, window)

    rows: list[ActivityRow] = []
    removed: list[ActivityFlag] = []
    warnings: list[ActivityFlag] = []
    for nick in alive:
        row, removal, warning = _judge(t, nick, sorted(in_turn[nick]), last_seen.get(nick),
                                       death_of.get(nick))
        rows.append(row)
        if removal:
            removed.append(_flag(nick, removal))
        elif warning:
            warnings.append(_flag(nick, warning))
    return ActivityReport(
        turn=turn,
        final=t.final,
        rows=tuple(rows),
        removed=tuple(removed),
        warnings=tuple(warnings),
        window=window,
        votes_final=t.votes_final,
        now=now,
        missed_vote_limit=rules.missed_vote_limit,
        missed_votes_consecutive=rules.missed_votes_consecutive,
        note=A3_NOTE if rules.silent_leave == "morning" else A3_NOTE_END_OF_DAY,
        silent_leave=rules.silent_leave,
    )


_Part = tuple[str, str, Effect]
"""One flag's part: (rule, explanation, when it takes effect, A3)."""


@dataclass(frozen=True, slots=True)
class _Turn:
    """What judging each player of the turn reads. ``final``: the turn is over (A1 flags
    are removals); ``votes_final``: Day N's deadline has passed (A2 flags are removals)."""

    turn: int
    window: TurnWindow
    final: bool
    votes_final: bool
    rules: ActivityRules
    scheduled_days: tuple[int, ...]
    default_first: int
    first_day: Mapping[str, int]
    counted: Mapping[int, Collection[str]]
    rejected: Mapping[int, Collection[str]]
    excuse_of: Mapping[tuple[str, int], str]


def _posts_of_turn(posts: Iterable[Post], alive: Sequence[str], window: TurnWindow
                   ) -> tuple[dict[str, list[datetime]], dict[str, datetime]]:
    """A1: each living player's post times inside the turn, and his last post before the
    turn's end at any time."""
    alive_set = set(alive)
    in_turn: dict[str, list[datetime]] = {nick: [] for nick in alive}
    last_seen: dict[str, datetime] = {}
    for post in posts:
        if post.author not in alive_set or post.posted_at >= window.end:
            continue
        if post.posted_at >= window.start:
            in_turn[post.author].append(post.posted_at)
        seen = last_seen.get(post.author)
        if seen is None or post.posted_at > seen:
            last_seen[post.author] = post.posted_at
    return in_turn, last_seen


def _judge(t: _Turn, nick: str, times: Sequence[datetime], last_seen: datetime | None,
           death: TurnDeath | None) -> tuple[ActivityRow, list[_Part], list[_Part]]:
    """One living player's line, and what A1 and A2 say of him: (row, removal, warning).
    A player who died during the turn is listed, never flagged."""
    turn_excuse = t.excuse_of.get((nick, t.turn))
    vote = _vote_state(nick, t.turn, t.counted, t.rejected)
    days = _vote_days(
        nick, t.turn, t.scheduled_days, t.first_day.get(nick, t.default_first),
        t.excuse_of, death, t.window, t.votes_final,
    )
    history = [(d, _voted(nick, d, t.counted)) for d in days]
    removal: list[_Part] = []
    warning: list[_Part] = []
    if death is None:
        a1 = _silence_flag(t.turn, times, turn_excuse is not None, t.final,
                           t.rules.silent_leave)
        if a1 is not None:
            (removal if t.final else warning).append(a1)
        a2 = _missed_vote_flag(nick, t.turn, history, t.rules, t.votes_final, vote,
                               turn_excuse is not None)
        if a2 is not None:
            (removal if t.votes_final else warning).append(a2)
    status: Status
    if removal:
        status = "removed"
    elif warning:
        status = "warning"
    elif death is not None:
        status = "died"
    elif turn_excuse is not None:
        status = "excused"
    else:
        status = "ok"
    row = ActivityRow(
        nick=nick,
        posts=len(times),
        last_post_at=times[-1] if times else None,
        last_seen_at=last_seen,
        vote=vote,
        missed_days=tuple(d for d, voted in history if not voted),
        excused=turn_excuse,
        status=status,
        rules=tuple(r for r, _, _ in removal or warning),
        death=death,
    )
    return row, removal, warning


def _silence_flag(turn: int, times: Sequence[datetime], excused: bool, final: bool,
                  silent_leave: str = "morning") -> _Part | None:
    """A1: no post in the topic during the turn and no excuse: «пропал без вести» once the
    turn is over; before that, a warning (there is still time to write). A3: he leaves at
    the start of Day N+1, or at its end with ``silent_leave = "end_of_day"``."""
    if times or excused:
        return None
    effect: Effect = ("start", turn + 1) if silent_leave == "morning" else ("end", turn + 1)
    if final:
        return ("A1", f"пропал(а) без вести: ни одного сообщения в теме за ход {turn}",
                effect)
    return ("A1", f"в ходе {turn} ещё нет ни одного сообщения в теме; "
                  "надо написать до конца хода", effect)


def _vote_days(
    nick: str,
    turn: int,
    scheduled_days: Sequence[int],
    first: int,
    excuse_of: Mapping[tuple[str, int], str],
    death: TurnDeath | None,
    window: TurnWindow,
    votes_final: bool,
) -> list[int]:
    """The days that count for A2 (see the module docstring), oldest first."""
    out: list[int] = []
    for d in scheduled_days:
        if d < first or d > turn or (nick, d) in excuse_of:
            continue
        if d == turn:
            if not votes_final:
                continue  # Day N's vote is still open: not missed yet
            if death is not None and death.at < window.day_deadline:
                continue  # not alive for the whole day
        out.append(d)
    return out


def _voted(nick: str, day: int, counted: Mapping[int, Collection[str]]) -> bool:
    if day not in counted:
        raise GameError(
            f"нет подсчёта голосов дня {day}: проверке активности нужно, кто в тот день "
            "голосовал (A2)",
            f"сначала подсчитайте голоса дня {day} или передайте засчитанных голосовавших",
        )
    return nick in counted[day]


def _vote_state(
    nick: str,
    day: int,
    counted: Mapping[int, Collection[str]],
    rejected: Mapping[int, Collection[str]],
) -> VoteState:
    if _voted(nick, day, counted):
        return "yes"
    return "rejected" if nick in rejected.get(day, ()) else "no"


def _missed_vote_flag(
    nick: str,
    turn: int,
    history: Sequence[tuple[int, bool]],
    rules: ActivityRules,
    votes_final: bool,
    vote: VoteState,
    excused_today: bool,
) -> _Part | None:
    """A2: a removal when a miss on Day N reaches the limit; before the deadline, a warning
    when one more miss (today's) would reach it."""
    limit = rules.missed_vote_limit
    if votes_final:
        if not history or history[-1] != (turn, False):
            return None  # Day N was voted, excused or not counted: no new miss
        counted_misses = _counted_misses(history, rules.missed_votes_consecutive)
        if len(counted_misses) < limit:
            return None
        return ("A2", _a2_text(counted_misses, rules.missed_votes_consecutive, limit),
                ("end", turn))
    if excused_today or vote == "yes":
        return None
    would_be = [*_counted_misses(history, rules.missed_votes_consecutive), turn]
    if len(would_be) < limit:
        return None
    rejected = " (голос не засчитан)" if vote == "rejected" else ""
    text = _a2_warning_text(turn, would_be[:-1], rejected, limit,
                            rules.missed_votes_consecutive)
    return ("A2", text, ("end", turn))


def _counted_misses(history: Sequence[tuple[int, bool]], consecutive: bool) -> list[int]:
    """All missed days, or with ``consecutive`` only the run of misses at the end."""
    if not consecutive:
        return [d for d, voted in history if not voted]
    run: list[int] = []
    for d, voted in reversed(history):
        if voted:
            break
        run.append(d)
    return run[::-1]


def _days_text(days: Sequence[int]) -> str:
    if not days:
        return "нет"
    return ("день " if len(days) == 1 else "дни ") + ", ".join(str(d) for d in days)


def _a2_text(misses: Sequence[int], consecutive: bool, limit: int) -> str:
    kind = "пропущено голосований подряд" if consecutive else "пропущено голосований"
    return f"{kind}: {len(misses)} ({_days_text(misses)}), предел — {limit}"


def _a2_warning_text(
    turn: int, earlier: Sequence[int], rejected: str, limit: int, consecutive: bool
) -> str:
    kind = "пропущено подряд" if consecutive else "пропущено"
    return (
        f"в день {turn} засчитанного голоса ещё нет{rejected}; {kind} ранее: "
        f"{_days_text(earlier)}; ещё один пропуск — выбывание (предел — {limit})"
    )


def _flag(nick: str, parts: Sequence[_Part]) -> ActivityFlag:
    """One flag of the player's parts; it takes effect at the earliest of theirs (A3)."""
    kind, day = min((effect for _, _, effect in parts), key=effect_order)
    return ActivityFlag(
        nick=nick,
        rule=", ".join(r for r, _, _ in parts),
        explanation="; ".join(e for _, e, _ in parts),
        effective_after_day=day if kind == "end" else None,
        effective_before_day=day if kind == "start" else None,
    )
