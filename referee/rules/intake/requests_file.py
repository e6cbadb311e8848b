"""The host's own word on night requests (docs/rules.md N1, N5, N14): a requests file, and edits.

A host who collects requests by hand (or corrects what the PM intake read) writes a TOML
file::

    [[request]]
    night = 1
    actor = "Лиса"
    action = "shoot"
    target = "Мисс Марпл"
    executor = "Тень_Ночи"
    reason = "прислала в Telegram"      # optional

    [[request]]
    night = 1
    actor = "Ёжик"
    action = "protect"
    targets = ["Kotik", "Ира-Ира"]

    [[drop]]
    night = 1
    actor = "Kotik"
    action = "blow"                       # optional: without it, all of Kotik's requests
    reason = "написал после дедлайна"

Each entry becomes a :class:`HostEdit`; :func:`apply_host_edits` applies edits to the
night's requests and says what it did, one line per edit. An added request **replaces**
the requester's requests of the same kind (the maniac's kill and ambush are one kind; a
mafia shot is the clan's, when clans are given), so the host's correction is never counted
as the player's one change (N1). A drop removes them. Nothing is removed silently: every
edit leaves a line for the night's log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from referee.config.game import read_toml
from referee.core.errors import ConfigError, GameError
from referee.core.nicks import Roster
from referee.core.roles import ACTION_NAMES_RU, ACTIONS, action_id, action_words
from referee.rules.actions import Request, Source

EditOp = Literal["add", "drop"]

_REQUEST_KEYS = frozenset({"night", "actor", "action", "target", "targets", "executor", "reason"})
_DROP_KEYS = frozenset({"night", "actor", "action", "reason"})


@dataclass(frozen=True, slots=True)
class HostEdit:
    """One host decision on a night's requests: ``add`` (a request in the host's name,
    replacing the requester's requests of that kind) or ``drop`` (cancel them)."""

    op: EditOp
    night: int
    actor: str
    action: str | None = None
    target: str | None = None
    targets: tuple[str, ...] = ()
    executor: str | None = None
    reason: str = ""
    source: Source = "host"
    source_id: str | None = None

    def to_request(self, order: int = 0) -> Request:
        """The request this ``add`` stands for (``source`` is ``host`` or ``file``)."""
        if self.op != "add" or self.action is None:
            raise GameError(
                f"решение ведущего для {self.actor} (ночь {self.night}) — {self.op}, а не заявка"
            )
        return Request(
            actor=self.actor,
            action=self.action,
            target=self.target,
            targets=self.targets,
            executor=self.executor,
            order=order,
            source=self.source,
            source_id=self.source_id,
            note=_host_note(self),
        )


# ----------------------------------------------------------------------------- the file

def load_requests_file(path: str | Path, roster: Roster) -> tuple[HostEdit, ...]:
    """Read and validate a requests file; every nick must be a player of ``roster``."""
    p = Path(path)
    raw = read_toml(
        p, "файл заявок", "проверьте путь или запишите записи [[request]] в новый файл .toml"
    )
    return parse_requests_file(raw, roster, where=p.name)


def parse_requests_file(
    raw: Mapping[str, Any], roster: Roster, *, where: str = "файл заявок"
) -> tuple[HostEdit, ...]:
    """Validate the ``[[request]]`` and ``[[drop]]`` tables of a parsed requests file.

    Errors name the entry («requests.toml [[request]] #2 (actor "Лиса")») and the fix:
    a wrong shape is a :class:`ConfigError`, an unknown nick a :class:`GameError`."""
    unknown = set(raw) - {"request", "drop"}
    if unknown:
        raise ConfigError(
            f"{where}: неизвестные разделы: {', '.join(sorted(unknown))}",
            "в файле заявок бывают только записи [[request]] и [[drop]]",
        )
    edits: list[HostEdit] = []
    for section, op in (("request", "add"), ("drop", "drop")):
        entries = raw.get(section, [])
        if not isinstance(entries, list):
            raise ConfigError(
                f"{where}: {section} записывается как [[{section}]]",
                f"начинайте каждую запись строкой [[{section}]]",
            )
        for i, entry in enumerate(entries):
            label = f"{where} [[{section}]] #{i + 1}"
            edits.append(_entry(entry, op, label, roster, f"{where}#{section}{i + 1}"))
    return tuple(sorted(edits, key=lambda e: e.night))


def file_requests(edits: Sequence[HostEdit], night: int) -> tuple[Request, ...]:
    """The ``[[request]]`` entries of ``night`` as Request values (``source="file"``)."""
    return tuple(
        e.to_request(order=i + 1)
        for i, e in enumerate(x for x in edits if x.op == "add" and x.night == night)
    )


def _entry(
    entry: Any, op: EditOp, label: str, roster: Roster, source_id: str
) -> HostEdit:
    if not isinstance(entry, Mapping):
        raise ConfigError(f"{label} — нужна таблица строк ключ = значение")
    allowed = _REQUEST_KEYS if op == "add" else _DROP_KEYS
    extra = set(entry) - allowed
    if extra:
        raise ConfigError(
            f"{label}: неизвестные ключи: {', '.join(sorted(extra))}",
            "допустимые ключи: " + ", ".join(sorted(allowed)),
        )
    night = entry.get("night")
    if isinstance(night, bool) or not isinstance(night, int) or night < 1:
        raise ConfigError(f"{label}: night = {night!r} — нужен номер ночи (1, 2, …)",
                          "добавьте night = 1 (ночь, к которой относится запись)")
    actor_typed = entry.get("actor")
    if not isinstance(actor_typed, str) or not actor_typed.strip():
        raise ConfigError(f"{label}: нет actor", 'добавьте actor = "Ник" (кто ходит)')
    label = f"{label} (кто: {actor_typed!r})"
    actor = _nick(actor_typed, roster, label, "actor")
    typed = entry.get("action")
    action = action_id(typed) if isinstance(typed, str) else None
    if typed is not None and action is None:
        raise ConfigError(
            f"{label}: action = {typed!r} — не ночное действие",
            "напишите одно из: " + action_words(),
        )
    reason = entry.get("reason", "")
    if not isinstance(reason, str):
        raise ConfigError(f"{label}: reason — нужен текст в кавычках")
    if op == "drop":
        return HostEdit("drop", night, actor, action, reason=reason.strip(), source="file",
                        source_id=source_id)
    if action is None:
        raise ConfigError(f"{label}: нет action", "добавьте action = " + " | "
                          "".join(ACTION_NAMES_RU[a] for a in ACTIONS))
    target, targets = _targets(entry, action, label, roster)
    executor = entry.get("executor")
    if executor is not None:
        if action != "shoot":
            raise ConfigError(f"{label}: executor бывает только у выстрела мафии (N5)",
                              "удалите строку executor")
        if not isinstance(executor, str):
            raise ConfigError(f"{label}: executor — нужен ник в кавычках")
        executor = _nick(executor, roster, label, "executor")
    return HostEdit("add", night, actor, action, target, targets, executor, reason.strip(),
                    source="file", source_id=source_id)


def _targets(
    entry: Mapping[str, Any], action: str, label: str, roster: Roster
) -> tuple[str | None, tuple[str, ...]]:
    target, targets = entry.get("target"), entry.get("targets")
    if action == "ambush":
        if target is not None or targets is not None:
            raise ConfigError(f"{label}: у засады нет цели (N6)", "удалите строку target")
        return None, ()
    if action == "protect":
        if targets is None and isinstance(target, str):
            targets = [target]
        if (not isinstance(targets, list) or len(targets) != 2
                or not all(isinstance(t, str) for t in targets)):
            raise ConfigError(
                f"{label}: некромант называет двух игроков (N9)",
                'напишите targets = ["Ник1", "Ник2"]',
            )
        return None, tuple(_nick(t, roster, label, "targets") for t in targets)
    if targets is not None:
        if not isinstance(targets, list) or len(targets) != 1 or not isinstance(targets[0], str):
            raise ConfigError(f"{label}: у действия «{ACTION_NAMES_RU.get(action, action)}» "
                              "одна цель", 'напишите target = "Ник"')
        target = targets[0]
    if not isinstance(target, str) or not target.strip():
        raise ConfigError(f"{label}: нет target", 'добавьте target = "Ник"')
    return _nick(target, roster, label, "target"), ()


def _nick(typed: str, roster: Roster, label: str, key: str) -> str:
    """The host writes nicks himself: exact, alias or look-alike letters only. A near match
    is an error with the suggestion, not a silent correction."""
    m = roster.match(typed)
    if m.nick is not None and m.kind in ("exact", "alias", "folded"):
        return m.nick
    if m.kind == "near" and m.nick:
        raise GameError(f"{label}: {key} {typed!r} — не игрок", f"может быть, {m.nick!r}?")
    if m.kind == "ambiguous":
        raise GameError(
            f"{label}: {key} {typed!r} — может быть любой из: {', '.join(m.candidates)}",
            "напишите ник точно как в [players]",
        )
    raise GameError(
        f"{label}: {key} {typed!r} — не игрок этой игры",
        "напишите ник точно как в [players]",
    )


# ---------------------------------------------------------------------------- applying edits

def _kind(action: str) -> str:
    # N6: the maniac's kill and ambush are one night move; a host's choice replaces either.
    return "maniac_move" if action in ("kill", "ambush") else action


def _requester(r_actor: str, action: str, clans: Mapping[str, str] | None) -> str:
    # N1/N5: a mafia shot belongs to the clan.
    if action == "shoot" and clans and r_actor in clans:
        return f"clan:{clans[r_actor]}"
    return r_actor


def _describe(r: Request | HostEdit) -> str:
    what = ACTION_NAMES_RU.get(r.action or "", r.action or "заявка")
    targets = r.targets or ((r.target,) if r.target else ())
    text = what + (": " + " и ".join(targets) if targets else "")
    if r.executor:
        text += f", исполнитель {r.executor}"
    return text


def _host_note(e: HostEdit) -> str:
    who = "файл заявок ведущего" if e.source == "file" else "ведущий"
    return f"{who}: {_describe(e)}" + (f" (причина: {e.reason})" if e.reason else "")


def apply_host_edits(
    requests: Sequence[Request],
    edits: Sequence[HostEdit],
    *,
    night: int | None = None,
    clans: Mapping[str, str] | None = None,
) -> tuple[tuple[Request, ...], tuple[str, ...]]:
    """Apply the host's edits to one night's requests, in the order given.

    ``night``: only edits of that night apply (all when ``None``). ``clans``: nick → clan, so
    that a host's shot replaces the clan's shot whoever sent it (N1, N5). Returns the new
    requests (the host's ones get orders after every player request) and one log line per
    edit, e.g. «ведущий: заявка Kotik отменена (причина: …)»."""
    out = list(requests)
    log: list[str] = []
    next_order = max((r.order for r in out), default=0) + 1
    for e in edits:
        if night is not None and e.night != night:
            continue
        why = f" (причина: {e.reason})" if e.reason else ""
        who = "ведущий (файл заявок)" if e.source == "file" else "ведущий"
        if e.op == "drop":
            hit = [
                r for r in out
                if r.actor == e.actor and (e.action is None or _kind(r.action) == _kind(e.action))
            ]
            out = [r for r in out if r not in hit]
            what = f" ({ACTION_NAMES_RU.get(e.action, e.action)})" if e.action else ""
            if hit:
                log.append(f"{who}: заявка {e.actor}{what} отменена{why}: "
                           + "; ".join(_describe(r) for r in hit))
            else:
                log.append(f"{who}: отмена заявки {e.actor}{what} — таких заявок не было{why}")
            continue
        if e.action is None:
            raise GameError(f"решение ведущего для {e.actor} (ночь {e.night}) не добавляет "
                            "действия",
                            "укажите действие (проверка, лечение, выстрел, …)")
        key = (_requester(e.actor, e.action, clans), _kind(e.action))
        replaced = [
            r for r in out if (_requester(r.actor, r.action, clans), _kind(r.action)) == key
        ]
        out = [r for r in out if r not in replaced]
        new = replace(e.to_request(order=next_order), sent_at=None)
        next_order += 1
        out.append(new)
        if replaced:
            log.append(
                f"{who}: заявка {e.actor} заменена — было: "
                + "; ".join(f"{r.actor}: {_describe(r)}" for r in replaced)
                + f"; стало: {_describe(new)}{why}"
            )
        else:
            log.append(f"{who}: добавлена заявка {e.actor} — {_describe(new)}{why}")
    return tuple(out), tuple(log)
