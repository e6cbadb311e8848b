"""What the host reads after a decision is recorded: what it changed and exactly where the
next output shows it (the command and its part), so a decision never vanishes unseen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.core.roles import action_ru

if TYPE_CHECKING:
    from pathlib import Path

    from referee.game.days import VoteEffect
    from referee.host.init_game import NewGame

_HOST_PART = "часть «ТОЛЬКО ДЛЯ ВЕДУЩЕГО», «Решения ведущего»"


def vote_recorded(effect: VoteEffect, action: str) -> str:
    """``vote accept|reject|set``: the post's vote before and after, and where it shows."""
    post = f"сообщение #{effect.post_id} ({effect.author})"
    before = effect.counted_before
    was = f"засчитан (кандидат — {before.target})" if before is not None else "не засчитан"
    if effect.counted is not None:
        now = f"голос засчитан (кандидат — {effect.counted.target})"
    elif effect.rejected is not None:
        now = f"голос не засчитан — {effect.rejected.label}"
    else:
        now = "голоса в подсчёте нет"
    return (f"Записано: vote {action} {effect.post_id}. День {effect.day}, {post}: {now} "
            f"(было: {was}).\nВидно в: referee tally --day {effect.day} — {_HOST_PART}.")


def hanging_recorded(day: int, hanged: str | None, public_note: str) -> str:
    what = f"на виселицу отправляется: {hanged}" if hanged else "никого не вешают"
    note = f" ({public_note})" if public_note else ""
    return (f"Записано: день {day} — {what}.\nВидно в: referee tally --day {day} — в "
            f"публичной части: «Решение ведущего{note}: …» (после дедлайна дня); причина — "
            "только в части для ведущего.")


def removal_recorded(nick: str, after_day: int, public_note: str) -> str:
    why = public_note or "решение ведущего"
    return (f"Записано: {nick} выбывает после дня {after_day}.\nВидно в: referee tally "
            f"--day {after_day} — «Покидают игру в конце дня»: {nick} — {why}; "
            "причина — только в записи ведущего.")


def excuse_recorded(nick: str, turn: int) -> str:
    return (f"Записано: ход {turn}, предупредил(а) ведущего: {nick}.\nВидно в: referee "
            f"check-activity --turn {turn} — {nick} не отмечается пропавшим (A1), графа "
            "«Уважительная причина» в части для ведущего.")


def action_recorded(night: int, actor: str, action: str, targets: list[str]) -> str:
    aim = f" → {', '.join(targets)}" if targets else ""
    return (f"Записано: ночь {night}, заявка ведущего: {actor} — {action_ru(action)}{aim}.\n"
            f"Видно в: referee resolve-night --night {night} — «Заявки» и «Решения ведущего».")


def drop_recorded(night: int, actor: str, action: str | None) -> str:
    what = f" ({action_ru(action)})" if action else ""
    return (f"Записано: ночь {night}, заявки {actor}{what} отменены ведущим.\nВидно в: "
            f"referee resolve-night --night {night} — «Решения ведущего».")


def deal_recorded(seed: int, players: int, *, recorded: bool) -> str:
    if not recorded:
        return f"Пробная раздача (--dry-run, --seed {seed}): ничего не записано."
    return (f"Раздача записана (--seed {seed}, игроков: {players}): все команды играют этим "
            "составом ролей; referee check покажет его.")


def config_written(path: Path, game: NewGame) -> str:
    """``referee init``: what the new file says and what to check in it."""
    first = game.first
    out = [f"Записан {path}: «{first.title}», ведущий {first.host}, движок {first.engine}, "
           f"часовой пояс {game.timezone}."]
    out.append(f"Игроки из первого сообщения: {len(first.roster)}"
               + (f" ({', '.join(first.roster)})" if first.roster else " — список не найден, "
                  "впишите [players]") + ".")
    if first.unmatched:
        out.append("Без сообщений в теме (проверьте написание): " + ", ".join(first.unmatched))
    out.append(f"Расписание: {len(game.schedule)} дн." if game.schedule
               else "Расписание не задано (--start): впишите [[schedule.days]].")
    out.append("Дальше: referee check; роли — referee deal --seed N.")
    return "\n".join(out)
