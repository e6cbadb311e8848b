"""What every part of the PM reader shares: the PM's lines, the sender, what has been read
so far, and how a reading is explained to the host (notes, flags, the reasons of N14)."""

from __future__ import annotations

from collections.abc import Sequence

from referee.core.kernel import PrivateMessage
from referee.core.nicks import Roster
from referee.core.roles import request_actions, role_ru
from referee.rules.actions import Request
from referee.rules.intake.lines import Hit, Line
from referee.rules.intake.results import IntakeFlag, Unreadable, Withdrawal
from referee.rules.intake.targets import Got, Miss, Targets


def role_name(role: str | None) -> str:
    return "не игрок" if role is None else role_ru(role)


class ReaderBase:
    """One PM of one sender being read: ``requests`` and ``withdrawals`` in the order read,
    with ``positions`` (line, column) to put them back in the order they stand."""

    def __init__(
        self,
        pm: PrivateMessage,
        actor: str,
        role: str,
        roster: Roster,
        lines: list[Line],
        earlier: Sequence[Request],
    ) -> None:
        self.pm = pm
        self.actor = actor
        self.role = role
        self.roster = roster
        self.lines = lines
        self.earlier = [r for r in earlier if r.actor == actor]
        self.requests: list[Request] = []
        self.withdrawals: list[Withdrawal] = []
        self.flags: list[IntakeFlag] = []
        self.unreadable: list[Unreadable] = []
        self.ignored_offrole: list[Hit] = []
        self.executors: list[Hit] = []
        self.strikes: list[Hit] = []
        self.at: tuple[int, int] = (0, 0)  # where the request being read stands
        self.positions: list[tuple[int, int]] = []
        self.changed: list[bool] = []
        self.withdrawal_positions: list[tuple[int, int]] = []
        self.targets = Targets(lines, roster, actor)

    def _emit(self, request: Request, *, changed: bool = False) -> None:
        """A request read; ``changed`` when the PM says it replaces another (N1)."""
        self.requests.append(request)
        self.positions.append(self.at)
        self.changed.append(changed)

    def role_ru(self) -> str:
        return role_name(self.role)

    def excerpt(self, li: int) -> str:
        text = self.lines[li].raw.strip() if 0 <= li < len(self.lines) else ""
        return text if len(text) <= 160 else text[:157] + "…"

    def whole_text(self) -> str:
        """The PM's own text in one line, for a question to the host."""
        text = " / ".join(line.raw.strip() for line in self.lines)
        return text if len(text) <= 200 else text[:197] + "…"

    def typed(self, h: Hit) -> str:
        """The action word as the player typed it."""
        return self.lines[h.line].typed(h.start, h.end)

    def fail(self, kind: str, reason: str, li: int = -1) -> None:
        self.unreadable.append(
            Unreadable(self.pm.pm_id, self.actor, kind, reason, self.excerpt(li), self.pm.sent_at)
        )

    def ask(self, reason: str, li: int = -1) -> None:
        """«ведущему проверить»: the PM quoted, the reason, nothing guessed (N14)."""
        self.unreadable.append(
            Unreadable(self.pm.pm_id, self.actor, "doubt", f"ведущему проверить: {reason}",
                       self.excerpt(li) if li >= 0 else self.whole_text(), self.pm.sent_at)
        )

    def explain_got(self, got: Got, what: str) -> str:
        """A note for the request, and a flag for a doubtful reading."""
        if got.kind == "near":
            note = f"«{got.typed}» прочитано как {got.nick} (близкое совпадение)"
        elif got.kind == "inflected":
            note = f"«{got.typed}» прочитано как {got.nick} (падежная форма)"
        elif got.kind == "folded":
            note = f"«{got.typed}» = {got.nick} (похожие латинские/русские буквы)"
        elif got.kind == "self":
            return f"{what}: «{got.typed}» = сам отправитель"
        else:
            return ""
        if got.kind in ("near", "inflected"):
            self.flags.append(
                IntakeFlag(self.pm.pm_id, self.actor, got.typed, got.nick, got.kind, note)
            )
        return note

    def miss(self, miss: Miss | None, li: int, what: str) -> None:
        if miss is None:
            self.fail("no_target", f"{what}: не указан ник", li)
        elif miss.kind == "ambiguous_nick":
            self.fail(
                "ambiguous_nick",
                f"{what}: «{miss.typed}» может быть любым из: {', '.join(miss.candidates)}",
                li,
            )
        else:
            self.fail("unknown_nick", f"{what}: «{miss.typed}» — нет такого игрока", li)

    def default_action(self) -> str | None:
        """The role's one action with a target, if it has exactly one."""
        targeted = [a for a in request_actions(self.role) if a != "ambush"]
        return targeted[0] if len(targeted) == 1 else None

    def change_notes(self, changed: bool, old: str | None) -> list[str]:
        """The notes every request of this reading starts with: a change (N1), a sergeant's
        check (N12)."""
        notes: list[str] = []
        if changed:
            notes.append(
                f"исправление заявки{f' (было: {old})' if old else ''} — N1: менять можно "
                "один раз за игру, решает разбор ночи"
            )
        if self.role == "sergeant":
            notes.append(
                "сержант: проверка засчитывается, только если он уже стал комиссаром (N12)"
            )
        return notes

    def request(
        self,
        action: str,
        target: str | None,
        targets: tuple[str, ...],
        executor: str | None,
        note: str,
    ) -> Request:
        return Request(
            actor=self.actor,
            action=action,
            target=target,
            targets=targets,
            executor=executor,
            sent_at=self.pm.sent_at,
            source="pm",
            source_id=str(self.pm.pm_id),
            note=note,
        )
