"""Which PMs belong to which night (docs/rules.md N1, N9, N14, T2).

N1: a request counts when it reaches the host before the night's deadline — sent in the
night's window, or during the day before it (from the previous night's deadline). Read in
sending order. A request sent within an hour after the previous night's deadline counts
for this night but is flagged (it may be a late request for the previous one). A PM at or
after the deadline is not counted but listed for the host as late (T2), never silently
left out. The necromancer's naming by day counts for the night that follows (N9), not after
his last turn (listed). Take-backs («Отменяю проверку») are applied here: a request taken
back and not followed by another is listed «Отозвано игроками» and does not use the change
of N1; a new request after a take-back stays a change (N1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta

from referee.config.game import Config
from referee.core.kernel import PrivateMessage
from referee.core.nicks import Roster, fold
from referee.rules.actions import Request
from referee.rules.intake.reader import read_requests, sender_nick
from referee.rules.intake.results import (
    IntakeFlag,
    IntakeResult,
    Late,
    Unreadable,
    Withdrawal,
    Withdrawn,
    join_notes,
)
from referee.rules.intake.words import ACTION_FAMILY
from referee.rules.slots import Slots


@dataclass(frozen=True, slots=True)
class NightIntake:
    """Every request of one night, in sending order, and every PM item that was not read."""

    night: int
    window: tuple[datetime, datetime]
    requests: tuple[Request, ...]
    flags: tuple[IntakeFlag, ...]
    unreadable: tuple[Unreadable, ...]
    pm_ids: tuple[int, ...] = ()
    withdrawn: tuple[Withdrawn, ...] = ()
    late: tuple[Late, ...] = ()

    @property
    def day_requests(self) -> tuple[Request, ...]:
        """The necromancer's requests sent during the day before this night (N9): named by
        day, they protect from this very night on."""
        start = self.window[0]
        return tuple(r for r in self.requests if r.sent_at is not None and r.sent_at < start)

    @property
    def night_requests(self) -> tuple[Request, ...]:
        """The requests sent inside the night window."""
        start = self.window[0]
        return tuple(r for r in self.requests if r.sent_at is None or r.sent_at >= start)


def night_roster(config: Config) -> Roster:
    """The roster for reading night PMs: players, their aliases, and replacement players as
    aliases of the slot they took (a replacement writes under his own forum name)."""
    return Roster(
        (p.nick for p in config.players),
        Slots(config.replacements).as_aliases(config.aliases),
        near_distance=config.votes.near_match_distance,
        near_min_length=config.votes.near_match_min_length,
        case_forms=True,
    )


def _to_host(pm: PrivateMessage, host: str) -> bool:
    key = fold(host)
    return any(fold(r) == key for r in pm.recipients)


def _day_phase_start(config: Config, night: int, window_start: datetime) -> datetime | None:
    """Where Day ``night`` began, for necromancer PMs (N9) and early requests: the previous
    night's deadline, else the day's start; the whole past for night 1."""
    if night > 1:
        prev = config.day(night - 1)
        if prev is not None and prev.night_deadline is not None:
            return prev.night_deadline
    day = config.day(night)
    if day is not None:
        return min(day.start, window_start)
    if night == 1:
        return datetime.min.replace(tzinfo=window_start.tzinfo)
    return None


EARLY_FLAG = timedelta(hours=1)
"""N1: a request sent this soon after the previous night's deadline is flagged."""
LATE_HORIZON = timedelta(days=1)
"""T2: how long after the deadline a PM is listed as late when no next day is scheduled."""


def _late_until(config: Config, night: int, end: datetime) -> datetime:
    """Until when a PM sent after Night ``night``'s deadline is listed as late for it: the
    next day's deadline (the next night's requests come before it), else a day."""
    nxt = config.day(night + 1)
    return max(nxt.deadline, end) if nxt is not None else end + LATE_HORIZON


def night_span(config: Config, night: int, window: tuple[datetime, datetime]
               ) -> tuple[datetime, datetime]:
    """When the PMs :func:`read_night` looks at were sent: from the start of Day ``night``
    (a request sent by day, N1, N9) to the time a late PM is still listed (T2). A caller
    holding the PMs of many nights passes it only these."""
    start, end = window
    day_start = _day_phase_start(config, night, start)
    return (min(day_start, start) if day_start is not None else start), _late_until(
        config, night, end)


def read_night(
    pms: Sequence[PrivateMessage],
    config: Config,
    night: int,
    window: tuple[datetime, datetime],
) -> NightIntake:
    """All requests of Night ``night`` (N1): PMs to the host sent before the deadline — in
    ``window`` (start inclusive, end exclusive: at the deadline is late, T2) or during Day
    ``night`` before it — read in sending order; the host's own PMs are ignored. The
    necromancer's day PMs count when ``night`` is within his turns (N9), else are listed.
    PMs at or after the deadline are listed as late (:class:`Late`); take-backs are applied
    (:func:`_apply_withdrawals`)."""
    start, end = window
    roster = night_roster(config)
    host_key = fold(config.host)
    day_start = _day_phase_start(config, night, start)
    late_until = _late_until(config, night, end)
    seen: dict[int, PrivateMessage] = {}
    for pm in pms:
        seen.setdefault(pm.pm_id, pm)
    ordered = sorted(seen.values(), key=lambda p: (p.sent_at, p.pm_id))
    acc = _Accumulator()
    for pm in ordered:
        if fold(pm.sender) == host_key or not _to_host(pm, config.host):
            continue
        nick = sender_nick(pm.sender, roster)
        player = config.player(nick) if nick else None
        role = player.role if player else None
        if end <= pm.sent_at < late_until:
            _late(pm, nick, role, roster, night, acc.late)
            continue
        in_window = start <= pm.sent_at < end
        in_day = day_start is not None and day_start <= pm.sent_at < start
        if not (in_window or in_day):
            continue
        if in_day and role == "necromancer" and night > config.night.necromancer_turns:
            res = read_requests(pm, role, roster, order=0)
            if res.requests:
                acc.unreadable.append(
                    Unreadable(
                        pm.pm_id, pm.sender, "necromancer_turn",
                        f"заявка некроманта днём {night}: защиту можно назначить только в "
                        f"ходы 1–{config.night.necromancer_turns} (N9)",
                        res.requests[0].note, pm.sent_at,
                    )
                )
            continue
        res = read_requests(pm, role, roster, order=acc.next_order, earlier=acc.requests)
        acc.add(pm, _timed(res, pm, role, night, in_day, day_start))
    return acc.intake(night, window)


@dataclass
class _Accumulator:
    """What :func:`read_night` has read so far."""

    requests: list[Request] = field(default_factory=list)
    flags: list[IntakeFlag] = field(default_factory=list)
    unreadable: list[Unreadable] = field(default_factory=list)
    withdrawals: list[Withdrawal] = field(default_factory=list)
    late: list[Late] = field(default_factory=list)
    read_ids: list[int] = field(default_factory=list)
    next_order: int = 1

    def add(self, pm: PrivateMessage, res: IntakeResult) -> None:
        self.requests.extend(res.requests)
        self.flags.extend(res.flags)
        self.unreadable.extend(res.unreadable)
        self.withdrawals.extend(res.withdrawals)
        self.read_ids.append(pm.pm_id)
        self.next_order += len(res.requests) + len(res.withdrawals)

    def intake(self, night: int, window: tuple[datetime, datetime]) -> NightIntake:
        requests, withdrawn = _apply_withdrawals(self.requests, self.withdrawals)
        return NightIntake(
            night, window, tuple(requests), tuple(self.flags), tuple(self.unreadable),
            tuple(self.read_ids), tuple(withdrawn), tuple(self.late),
        )


def _timed(res: IntakeResult, pm: PrivateMessage, role: str | None, night: int,
           in_day: bool, day_start: datetime | None) -> IntakeResult:
    """The notes of when a request was sent (N1, N9, N15.5), and the flag of one sent just
    after the previous night's deadline."""
    got = list(res.requests)
    flags = list(res.flags)
    if role == "necromancer" and not in_day:
        got = [
            _noted(r, f"N9: заявка некроманта пришла ночью {night} (по правилам — днём): "
                   f"защита действует с ночи {night + 1} (N15.5)")
            if r.action == "protect" else r
            for r in got
        ]
    elif role == "necromancer":
        got = [_noted(r, f"прислано днём {night} — действует в ночь {night} (N9)") for r in got]
    elif in_day:
        got = [_noted(r, f"прислано днём {night}, до дедлайна ночи — засчитано в ночь "
                      f"{night} (N1)") for r in got]
    if (got and night > 1 and day_start is not None and role != "necromancer"
            and pm.sent_at < day_start + EARLY_FLAG):
        minutes = int((pm.sent_at - day_start).total_seconds() // 60)
        note = (f"прислано через {minutes} мин после дедлайна ночи {night - 1} — засчитано в "
                f"ночь {night}; если это опоздавшая заявка на ночь {night - 1}, она не "
                "считается (T2)")
        flags.append(IntakeFlag(pm.pm_id, got[0].actor, "", got[0].actor, "timing", note))
    return replace(res, requests=tuple(got), flags=tuple(flags))


def _apply_withdrawals(requests: list[Request], withdrawals: list[Withdrawal]
                       ) -> tuple[list[Request], list[Withdrawn]]:
    """A take-back removes the player's earlier requests (of its action, or all) when no
    request of his follows it: listed, they use up no change (N1). When one follows, the
    earlier request stays before it, so the new one is the change N1 counts."""
    dropped: dict[int, Withdrawal] = {}
    for w in withdrawals:
        later = any(r.actor == w.actor and r.order > w.order for r in requests)
        if later:
            continue
        for i, r in enumerate(requests):
            if r.actor == w.actor and r.order < w.order and (
                w.action is None or _same_family(r.action, w.action)
            ):
                dropped.setdefault(i, w)
    kept = [r for i, r in enumerate(requests) if i not in dropped]
    return kept, [Withdrawn(requests[i], w) for i, w in sorted(dropped.items())]


def _same_family(a: str, b: str) -> bool:
    return ACTION_FAMILY.get(a) == ACTION_FAMILY.get(b)


_LATE_KINDS = frozenset({"chatty", "empty", "no_action", "non_player", "skip"})


def _late(pm: PrivateMessage, nick: str | None, role: str | None, roster: Roster,
          night: int, out: list[Late]) -> None:
    """A PM at or after the deadline (T2): listed by the sender's roster nick with what it
    asks, when it asks for anything."""
    res = read_requests(pm, role, roster, order=0)
    asked = [r.note for r in res.requests] + [
        u.reason for u in res.unreadable if u.kind not in _LATE_KINDS
    ]
    if res.withdrawals:
        asked.append("отзыв заявки")
    if asked:
        out.append(Late(pm.pm_id, nick or pm.sender, pm.sent_at, " | ".join(asked)))


def _noted(r: Request, extra: str) -> Request:
    return replace(r, note=join_notes([r.note, extra]))
