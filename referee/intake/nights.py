"""Which PMs belong to which night (RULES.md N1, N9, N14, T2).

A night's requests are the PMs to the host sent inside the night's window, read in sending
order; the necromancer's PMs of the day before count for the night that follows (N9). A
request sent by day by anyone else, or by the necromancer after his last turn, is not
counted but shown to the host, who may accept it by hand (N14).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from referee.actions import Request
from referee.config import Config
from referee.intake.reader import read_requests, sender_nick
from referee.intake.results import IntakeFlag, Unreadable, join_notes
from referee.kernel import PrivateMessage
from referee.nicks import Roster, fold
from referee.slots import Slots


@dataclass(frozen=True, slots=True)
class NightIntake:
    """Every request of one night, in sending order, and every PM item that was not read."""

    night: int
    window: tuple[datetime, datetime]
    requests: tuple[Request, ...]
    flags: tuple[IntakeFlag, ...]
    unreadable: tuple[Unreadable, ...]
    pm_ids: tuple[int, ...] = ()

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


def night_span(config: Config, night: int, window: tuple[datetime, datetime]
               ) -> tuple[datetime, datetime]:
    """When the PMs :func:`read_night` looks at were sent: from the start of Day ``night``
    (a necromancer's day PM, N9; a request sent too early, N14) to the end of the window.
    A caller holding the PMs of many nights passes it only these."""
    start, end = window
    day_start = _day_phase_start(config, night, start)
    return (min(day_start, start) if day_start is not None else start), end


def read_night(
    pms: Sequence[PrivateMessage],
    config: Config,
    night: int,
    window: tuple[datetime, datetime],
) -> NightIntake:
    """All requests of Night ``night`` (N1): PMs to the host sent inside ``window``
    (start inclusive, end exclusive: at the deadline is late, T2), plus the necromancer's PMs
    of Day ``night`` when ``night`` is within the necromancer's turns (N9) — they count for
    the night that follows. PMs are read in sending order; the host's own PMs are ignored.

    A PM sent during Day ``night`` (before the window) that holds a request of another role
    is listed as ``outside_window``, so the host can decide on it (N14); so is a
    necromancer's day PM after his last turn. Chat outside the window is not listed."""
    start, end = window
    roster = night_roster(config)
    host_key = fold(config.host)
    day_start = _day_phase_start(config, night, start)
    seen: dict[int, PrivateMessage] = {}
    for pm in pms:
        seen.setdefault(pm.pm_id, pm)
    ordered = sorted(seen.values(), key=lambda p: (p.sent_at, p.pm_id))
    requests: list[Request] = []
    flags: list[IntakeFlag] = []
    unreadable: list[Unreadable] = []
    read_ids: list[int] = []
    next_order = 1
    for pm in ordered:
        if fold(pm.sender) == host_key or not _to_host(pm, config.host):
            continue
        in_window = start <= pm.sent_at < end
        in_day = day_start is not None and day_start <= pm.sent_at < start
        if not (in_window or in_day):
            continue
        nick = sender_nick(pm.sender, roster)
        player = config.player(nick) if nick else None
        role = player.role if player else None
        if in_day and role != "necromancer":
            _early(pm, role, roster, night, unreadable)
            continue
        if in_day and night > config.night.necromancer_turns:
            res = read_requests(pm, role, roster, order=0)
            if res.requests:
                unreadable.append(
                    Unreadable(
                        pm.pm_id, pm.sender, "necromancer_turn",
                        f"заявка некроманта днём {night}: защиту можно назначить только в "
                        f"ходы 1–{config.night.necromancer_turns} (N9)",
                        res.requests[0].note, pm.sent_at,
                    )
                )
            continue
        res = read_requests(pm, role, roster, order=next_order, earlier=requests)
        got = list(res.requests)
        if role == "necromancer" and in_window:
            got = [
                _noted(r, f"N9: заявка некроманта пришла ночью {night} (по правилам — днём): "
                       f"защита действует с ночи {night + 1} (N15.5)")
                if r.action == "protect" else r
                for r in got
            ]
        elif role == "necromancer":
            got = [_noted(r, f"прислано днём {night} — действует в ночь {night} (N9)") for r in got]
        requests.extend(got)
        flags.extend(res.flags)
        unreadable.extend(res.unreadable)
        read_ids.append(pm.pm_id)
        next_order += len(got)
    return NightIntake(
        night, window, tuple(requests), tuple(flags), tuple(unreadable), tuple(read_ids)
    )


def _early(
    pm: PrivateMessage, role: str | None, roster: Roster, night: int, out: list[Unreadable]
) -> None:
    """A day PM with a request in it: not counted (N1), but shown to the host (N14)."""
    res = read_requests(pm, role, roster, order=0)
    if res.requests:
        out.append(
            Unreadable(
                pm.pm_id, pm.sender, "outside_window",
                f"заявка прислана днём, до начала ночи {night}: ночные ходы принимаются ночью "
                f"(N1) — ведущий может принять её вручную. Прочитано: "
                + " | ".join(r.note for r in res.requests),
                "", pm.sent_at,
            )
        )


def _noted(r: Request, extra: str) -> Request:
    return replace(r, note=join_notes([r.note, extra]))

