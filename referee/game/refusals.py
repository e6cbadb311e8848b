"""What a host's command may ask for, checked before anything is recorded: a day, night or
turn of the schedule, a nick that is a player (never a near guess: the nearest nick is
suggested instead), a player still in the game, an action the actor's role has (the night
engine's own test, :data:`referee.core.roles.ACTION_OF_ROLE`). A refusal is a
:class:`~referee.core.errors.RequestRefused` (exit code 2) and the database stays as it was.
A phase after the end of the game (W2, N15.14) is refused by
:meth:`~referee.game.base.GameBase.refuse_after_end`, which works the end out."""

from __future__ import annotations

import difflib
from datetime import datetime

from referee.config.game import DaySchedule
from referee.core.errors import GameError, RequestRefused
from referee.core.nicks import fold
from referee.core.roles import ACTION_OF_ROLE, ACTIONS, action_ru, role_ru
from referee.game.base import GameBase
from referee.rules.night import GameState

_PHASES = {"день": ("дни", "дня"), "ночь": ("ночи", "ночи"), "ход": ("ходы", "хода")}

_TARGETS = {"protect": 2, "ambush": 0}
"""How many targets each action names (every other action: one)."""


class Refusals(GameBase):
    """The checks every room runs on the host's request before it records anything."""

    # ------------------------------------------------------------------ days and nights

    def scheduled_day(self, day: int, option: str = "--day", phase: str = "день"
                      ) -> DaySchedule:
        """Day ``day`` of the schedule (the turn or night of that number: ``phase``), or a
        refusal that lists the scheduled ones."""
        plural, of = _PHASES[phase]
        if day < 1:
            raise RequestRefused(f"{option} {day}: {plural} нумеруются с 1",
                                 f"например {option} 1")
        try:
            return self.window(day)
        except GameError as e:
            raise RequestRefused(
                f"{option} {day}: {of} {day} нет в расписании ({plural}: {self._days()})",
                f"добавьте день {day} в [[schedule.days]] или задайте его окно: referee "
                f'tally --day {day} --start "…" --deadline "…"') from e

    def scheduled_night(self, night: int, option: str = "--night") -> tuple[datetime, datetime]:
        """Night ``night`` (it follows Day ``night``, T1), or a refusal."""
        self.scheduled_day(night, option, "ночь")
        try:
            return self.night_window(night)
        except GameError as e:
            raise RequestRefused(f"{option} {night}: у ночи {night} нет конца в расписании",
                                 f"укажите night_deadline дня {night} в [[schedule.days]]"
                                 ) from e

    def _days(self) -> str:
        return ", ".join(str(d.day) for d in self.schedule) or "нет ни одного"

    # ------------------------------------------------------------------ players

    def known_player(self, typed: str, option: str) -> str:
        """The player ``typed`` names exactly (case, ё/е, look-alike letters and the host's
        aliases aside, V2), or a refusal with the nearest nick: a host's word is never a
        near guess."""
        m = self.roster().match(typed)
        if m.nick is not None and m.how in ("exact", "alias", "lookalike") and not m.lead:
            return m.nick
        if m.how == "ambiguous":
            raise RequestRefused(f"{option} «{typed}»: подходит нескольким игрокам: "
                                 + ", ".join(m.candidates), "напишите ник полностью")
        near = self._nearest(typed)
        raise RequestRefused(
            f"{option} «{typed}»: такого игрока нет"
            + (f" — может быть, {near}?" if near else ""),
            "ник пишется как в [players]; список игроков: referee check")

    def _nearest(self, typed: str) -> str | None:
        nicks = self.roster().nicks
        by_key = {fold(n): n for n in nicks}
        found = difflib.get_close_matches(fold(typed), list(by_key), n=1, cutoff=0.5)
        return by_key[found[0]] if found else None

    def living_player(self, typed: str, option: str, state: GameState, when: str) -> str:
        """:meth:`known_player`, who is still in the game ``when`` (e.g. «к началу дня 2»)."""
        nick = self.known_player(typed, option)
        slot = self.slots.slot(nick)
        if not state.is_alive(slot):
            raise RequestRefused(f"{option} {nick}: {nick} уже выбыл(а) из игры {when}",
                                 "решения ведущего — о живых игроках")
        return nick

    # ------------------------------------------------------------------ night requests

    def allowed_request(self, state: GameState, night: int, actor: str, action: str,
                        targets: int, executor: bool) -> None:
        """The actor's role has ``action`` this night (N3–N12, as the night engine tests
        it), with as many targets as it takes and an executor only for a clan's shot."""
        if action not in ACTIONS:
            raise RequestRefused(f"неизвестное действие «{action}»",
                                 "действия: " + ", ".join(ACTIONS))
        role = state.role_of(actor)
        allowed = ACTION_OF_ROLE.get(role, ())
        if action not in allowed:
            can = ("может: " + ", ".join(f"{action_ru(a)} ({a})" for a in allowed)
                   if allowed else "ночью не ходит")
            raise RequestRefused(
                f"ночь {night}: {actor} — {role_ru(role)}, у этой роли нет действия "
                f"«{action_ru(action)}» ({action})", f"роль {role_ru(role)}: {can}")
        need = _TARGETS.get(action, 1)
        if targets != need:
            raise RequestRefused(f"{action_ru(action)} ({action}): целей нужно {need}, "
                                 f"указано {targets}", _how(action))
        if executor and action != "shoot":
            raise RequestRefused("--executor — только у выстрела мафии (shoot)", _how(action))

    # ------------------------------------------------------------------ roles

    @property
    def roles_known(self) -> bool:
        """Every player has a role: typed in ``[players]`` or dealt (``referee deal``)."""
        return all(p.role_given for p in self.config.players)

    def require_roles(self, what: str) -> None:
        if not self.roles_known:
            missing = [p.nick for p in self.config.players if not p.role_given]
            raise RequestRefused(
                f"{what}: роли не розданы ({len(missing)} игроков без роли: "
                + ", ".join(missing[:5]) + ("…" if len(missing) > 5 else "") + ")",
                "раздайте их: referee deal --seed N, или впишите в [players]")


def _how(action: str) -> str:
    examples = {
        "protect": "referee action add --night 1 Ёжик protect Ник1 Ник2",
        "ambush": "referee action add --night 1 Гроза ambush",
        "shoot": "referee action add --night 1 Лиса shoot Ник --executor Тень_Ночи",
    }
    return examples.get(action, f"referee action add --night 1 Ник {action} Цель")
