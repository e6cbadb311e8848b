"""What ``referee watch`` says (issue 21): one Russian line per thing that is new, the
status line, the reminder post, the question asked once at the start, and the deadline
texts — the very ones ``tally --post``, ``check-activity --post`` and ``resolve-night
--post --send`` post, so a watched game posts what a host running them by hand would.

Lines are for the host's screen (and phone): they carry rule codes and post numbers;
nicks stand alone («Шерлок — 3»), never declined. Every line begins with the time it
tells of, in the forum's time zone.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta, tzinfo
from typing import Any

from referee.config.game import Config
from referee.core import bbcode
from referee.core.roles import ACTION_NAMES_RU
from referee.game import ActivityResult, DayResult, NightResult
from referee.host.outgoing import public_part
from referee.host.watch import (
    FirstLook,
    Job,
    JobDone,
    JobLate,
    LeaderChanged,
    Look,
    NightPm,
    Notice,
    Options,
    PhaseChanged,
    PostChanged,
    Status,
    VoteCounted,
    VoteDropped,
    VoteRejected,
)
from referee.render.activity import HOST_ONLY_HEADER, render_activity
from referee.render.context import Context
from referee.render.day import day_paste
from referee.render.morning import morning_report, private_results

_TZ_LABELS = {"Europe/Moscow": "МСК"}
_WHAT = {"tally": "подсчёт голосов дня", "resolve": "утренний отчёт после ночи",
         "activity": "проверка активности, ход", "remind": "напоминание дня",
         "silent": "предупреждение о молчащих, день"}
_BY_HAND = {"tally": "referee tally --day {n} --post", "resolve":
            "referee resolve-night --night {n} --post --send",
            "activity": "referee check-activity --turn {n} --post"}


def when(at: datetime, tz: tzinfo) -> str:
    return at.astimezone(tz).strftime("%d.%m %H:%M")


def clock(at: datetime, tz: tzinfo) -> str:
    return at.astimezone(tz).strftime("%H:%M")


def span(d: timedelta) -> str:
    """A duration as a host says it: «1 ч 05 мин», «40 мин», «2 дн 3 ч»."""
    minutes = max(0, round(d.total_seconds() / 60))
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    if days:
        return f"{days} дн {hours} ч" if hours else f"{days} дн"
    if hours:
        return f"{hours} ч {mins:02d} мин" if mins else f"{hours} ч"
    return f"{mins} мин"


def _names(names: Sequence[str], limit: int = 8) -> str:
    shown = ", ".join(names[:limit])
    return shown + (f" и ещё {len(names) - limit}" if len(names) > limit else "")


def _tz_label(config: Config) -> str:
    return _TZ_LABELS.get(config.forum.board.timezone, config.forum.board.timezone)


# --------------------------------------------------------------------------- the texts

class WatchTexts:
    """:class:`referee.host.watch.loop.WatchTexts`: the words of the watch."""

    # -- the deadline texts, as the commands post them

    def tally_paste(self, result: DayResult, config: Config) -> str:
        return day_paste(result, Context.of(config))

    def activity_public(self, result: ActivityResult, config: Config) -> str:
        ctx = Context.of(config)
        return public_part(render_activity(result.report, "bbcode", ctx.roles,
                                           ctx.reveal_role_on_removal, ctx.tz),
                           HOST_ONLY_HEADER)

    def morning(self, result: NightResult, config: Config
                ) -> tuple[str, Sequence[tuple[str, str]]]:
        outcome = result.outcome
        return (morning_report(outcome, result.morning_state, config.night, result.leaving,
                               config.activity.reveal_role_on_removal),
                private_results(outcome))

    def reminder(self, day: int, deadline: datetime, now: datetime,
                 not_voted: Sequence[str], config: Config) -> str:
        """The reminder post: who has not voted yet, the time left (BBCode, nicks
        escaped)."""
        left = span(deadline - now)
        return (bbcode.b(f"Напоминание: до конца голосования дня {day} — {left}") + "\n"
                + f"Дедлайн: {when(deadline, config.tz)} ({_tz_label(config)}).\n"
                + f"Ещё не проголосовали ({len(not_voted)}): "
                + ", ".join(bbcode.b(bbcode.escape(n)) for n in not_voted) + ".")

    # -- the lines

    def line(self, item: Any, config: Config, at: datetime) -> str:
        """One line about ``item``, told at ``at`` (the time it begins with)."""
        text = self._text(item, config)
        return f"{clock(at, config.tz)} {text}" if text else ""

    def shown(self, done: JobDone, config: Config) -> str:
        """The public text of a job that is not posted: shown for the host to copy."""
        return ("┄┄ текст для темы (не опубликован: без --post) ┄┄\n" + done.text.rstrip()
                + "\n┄┄")

    def _text(self, item: Any, config: Config) -> str:
        tz = config.tz
        match item:
            case VoteCounted(before=None):
                return f"голос засчитан: {item.voter} → {item.target} ({item.target} — " \
                       f"{item.votes}), пост #{item.post_id}"
            case VoteCounted():
                return f"голос изменён: {item.voter} → {item.target}, был за {item.before} " \
                       f"({item.target} — {item.votes}), пост #{item.post_id}"
            case VoteDropped():
                return f"голос больше не засчитан: {item.voter} → {item.target} " \
                       f"({item.target} — {item.votes}), пост #{item.post_id}"
            case VoteRejected():
                to = f" → {item.target}" if item.target else ""
                return f"голос не засчитан: {item.voter}{to} — {item.reason} ({item.rule}), " \
                       f"пост #{item.post_id}"
            case PostChanged():
                how = {"edited": "отредактирован", "vanished": "исчез со страницы",
                       "back": "снова на месте"}[item.change]
                held = f": {item.held}" if item.change == "vanished" and item.held else ""
                return f"пост #{item.post_id} ({item.author}) {how}{held}"
            case NightPm():
                return _pm(item)
            case LeaderChanged():
                return _leader(item)
            case PhaseChanged():
                return _phase(item, tz)
            case FirstLook():
                return "первый взгляд: " + _summary(item.look, tz)
            case JobDone():
                return _done(item, tz)
            case JobLate():
                return _late(item, tz)
            case Notice():
                return _notice(item, config)
        return ""

    def status(self, status: Status, config: Config) -> str:
        tz = config.tz
        look = status.look
        parts = [_summary(look, tz, now=status.now)] if look is not None else []
        if status.down_since is not None:
            parts.append(f"форум не отвечает с {clock(status.down_since, tz)}")
        if status.next_round is not None and status.next_round == status.until:
            parts.append(f"остановка в {clock(status.next_round, tz)} (--until)")
        elif status.next_round is not None:
            parts.append(f"следующий взгляд {clock(status.next_round, tz)}")
        stops = status.next_round is not None and status.next_round == status.until
        if status.next_reread is not None and not stops:
            # Issue 30: the earlier pages of the day are read again on a schedule.
            soon = status.next_round is not None and status.next_reread <= status.next_round
            parts.append("перечитать страницы дня " + (
                "при следующем взгляде" if soon else clock(status.next_reread, tz)))
        return " · ".join(parts)

    # -- the question asked once

    def plan(self, options: Options, now_due: Sequence[Job], later: Sequence[Job],
             config: Config) -> str:
        tz = config.tz
        lines = ["referee watch будет без вопроса, каждый раз один раз:"]
        if options.tally and options.post:
            lines.append("  • публиковать в теме подсчёт голосов после дедлайна дня")
        if options.resolve and options.post:
            lines.append("  • публиковать в теме утренний отчёт после ночи")
        if options.resolve and options.send:
            lines.append("  • отправлять игрокам ЛС с итогами ночи (проверки, уведомления)")
        if options.activity and options.post:
            lines.append("  • публиковать в теме итог проверки активности после хода")
        if options.remind is not None and options.post:
            lines.append(f"  • публиковать за {span(options.remind)} до дедлайна напоминание "
                         "тем, кто не проголосовал")
        for j in now_due:
            lines.append(f"Сразу: {_WHAT[j.kind]} {j.number} (срок прошёл "
                         f"{when(j.deadline or j.due, tz)}).")
        for j in later:
            lines.append(f"Ближайшее: {_WHAT[j.kind]} {j.number} — "
                         f"{when(j.deadline or j.due, tz)}.")
        return "\n".join(lines)


# --------------------------------------------------------------------------- pieces

def _pm(item: NightPm) -> str:
    pm = item.pm
    head = f"ЛС от {pm.sender}"
    if pm.requests:
        asked = "; ".join(
            f"{ACTION_NAMES_RU.get(r.action, r.action)}"
            + (f" → {', '.join(r.all_targets())}" if r.all_targets() else "")
            + (f", исполнитель {r.executor}" if r.executor else "")
            + (f" (за {r.actor})" if r.actor != pm.sender else "")
            for r in pm.requests)
        return f"{head}: заявка на ночь {pm.night} — {asked}"
    if pm.not_understood:
        return f"{head}: не понято — {'; '.join(pm.not_understood)} (ЛС #{pm.pm_id})"
    if pm.night is not None:
        return f"{head}: прочитано, заявок нет (ЛС #{pm.pm_id})"
    return f"{head}: не ночная заявка (вне окна ночи), ЛС #{pm.pm_id}"


def _leader(item: LeaderChanged) -> str:
    was = f" (был: {', '.join(item.before)})" if item.before else ""
    if len(item.after) > 1:
        return f"лидеры: {', '.join(item.after)} — по {item.votes}{was}"
    return f"лидер: {item.after[0]} — {item.votes}{was}"


def _phase(item: PhaseChanged, tz: tzinfo) -> str:
    if item.winner:
        return item.winner
    ends = when(item.ends, tz) if item.ends else "—"
    match item.phase:
        case "day":
            return f"начался день {item.number}, дедлайн {ends}"
        case "night":
            return f"дедлайн дня {item.number} прошёл: ночь {item.number} до {ends}"
        case "morning":
            return f"ночь {item.number} окончена; день {item.number + 1} начнётся {ends}"
        case "before":
            return f"игра ещё не началась: день {item.number} начнётся {ends}"
    return "расписание игры окончено"


def _summary(look: Look, tz: tzinfo, now: datetime | None = None) -> str:
    """The phase, the time left, the leader and who has not voted: the status line and
    the first look."""
    now = now or look.at
    left = f" · до конца {span(look.ends - now)} ({when(look.ends, tz)})" if look.ends else ""
    if look.winner:
        return look.winner
    match look.phase:
        case "before":
            return f"до начала игры {span(look.ends - now)}" if look.ends else "до начала игры"
        case "morning":
            return f"утро после ночи {look.number}{left}"
        case "over":
            return "расписание игры окончено"
    head = f"день {look.number}" if look.phase == "day" else f"ночь {look.number}"
    parts = [head + left]
    if look.phase == "night" and look.hanged is not None:
        parts.append(f"итог дня: на виселицу — {look.hanged}")
    leaders = look.leaders
    if leaders and look.phase == "day":
        parts.append(f"лидер: {', '.join(leaders)} — {look.votes_for(leaders[0])}")
    if look.phase == "day":
        parts.append(f"голосов: {len(look.votes)}")
        if look.not_voted:
            parts.append(f"не голосовали ({len(look.not_voted)}): {_names(look.not_voted, 5)}")
    else:
        night = [p for p in look.pms if p.night == look.number]
        parts.append(f"ЛС на ночь: {len(night)}")
    return " · ".join(parts)


def _late_note(done: JobDone, tz: tzinfo) -> str:
    """Work done well after its moment (a computer that slept) says both times."""
    deadline = done.job.deadline
    if deadline is None or done.at - deadline < timedelta(minutes=10) or \
            done.job.kind in ("remind", "silent"):
        return ""
    return f" (срок был {when(deadline, tz)}, сделано сейчас — {when(done.at, tz)})"


def _sent(done: JobDone) -> str:
    if not done.posting:
        return "не публикуется (без --post)" if done.text and done.job.kind != "silent" else ""
    if done.failed:
        return ("не отправлено: " + done.failed
                + ("; проверьте на форуме, затем referee mark-sent КЛЮЧ" if done.maybe_sent
                   else ""))
    ids = ", ".join(f"#{i}" for _, i in done.sent if i is not None)
    parts = []
    if done.sent:
        parts.append(f"отправлено: {len(done.sent)}" + (f" ({ids})" if ids else ""))
    if done.already:
        parts.append(f"уже было отправлено: {done.already}")
    return "; ".join(parts) or "отправлять нечего"


def _done(done: JobDone, tz: tzinfo) -> str:
    n, kind = done.job.number, done.job.kind
    late = _late_note(done, tz)
    sent = _sent(done)
    tail = f"; {sent}" if sent else ""
    if kind == "tally":
        who = f"на виселицу — {done.names[0]}" if done.names else "никого не вешают"
        rec = "итог записан" if done.recorded else "итог (записан раньше)"
        end = f"; {_lower(done.winner)}" if done.winner else ""
        return f"день {n}: {rec} — {who}{end}{late}{tail}"
    if kind == "resolve":
        who = f"погибли: {', '.join(done.names)}" if len(done.names) > 1 else \
            f"погиб(ла): {done.names[0]}" if done.names else "никто не погиб"
        rec = "итог записан" if done.recorded else "итог (записан раньше)"
        end = f"; {_lower(done.winner)}" if done.winner else ""
        return f"ночь {n}: {rec} — {who}{end}{late}{tail}"
    if kind == "activity":
        who = f"выбывают: {', '.join(done.names)}" if done.names else "никто не выбывает"
        rec = "записана" if done.recorded else "(записана раньше)"
        return f"ход {n}: проверка активности {rec} — {who}{late}{tail}"
    if kind == "remind":
        if not done.names:
            return f"день {n}: все проголосовали — напоминание не нужно"
        return f"напоминание, день {n}: не проголосовали ({len(done.names)}): " \
               f"{_names(done.names)}{tail}"
    deadline = when(done.job.deadline, tz) if done.job.deadline else "—"
    return f"день {n}, дедлайн {deadline}: не писали в этот ход ({len(done.names)}): " \
           f"{_names(done.names)}"


def _lower(sentence: str) -> str:
    """A sentence said inside a line: «Игра окончена: …» → «игра окончена: …»."""
    return sentence[:1].lower() + sentence[1:].rstrip(".")


def _late(item: JobLate, tz: tzinfo) -> str:
    j = item.job
    deadline = when(j.deadline or j.due, tz)
    if j.kind in ("remind", "silent"):
        return f"{_WHAT[j.kind]} {j.number} пропущено: дедлайн {deadline} уже прошёл"
    return f"{_WHAT[j.kind]} {j.number} не делаю: срок ({deadline}) прошёл до запуска " \
           f"наблюдения, а с тех пор был и более поздний — при нужде: " \
           + _BY_HAND[j.kind].format(n=j.number)


def _notice(item: Notice, config: Config) -> str:
    tz, f = config.tz, item.facts
    match item.what:
        case "started":
            title = f" «{config.title}»" if config.title else ""
            off = f"; Telegram выключен: {f['notify']}" if f.get("notify") and \
                config.notify.chat_id else ""
            return f"наблюдение за игрой{title} началось{off}"
        case "stopped":
            why = {"until": "наступило время --until", "over": "игра окончена",
                   "schedule": "расписание игры окончено и вся работа сделана",
                   "interrupted": "остановлено (Ctrl-C); всё записанное сохранено"}
            return f"наблюдение окончено: {why.get(f.get('why'), f.get('why'))}"
        case "forum_down":
            head = "форум не отвечает" if f["first"] else \
                f"форум всё ещё не отвечает (с {clock(f['since'], tz)})"
            return f"{head}: {f['error']}; следующая попытка в {clock(f['next'], tz)}, " \
                   "работа по дедлайнам ждёт свежего чтения"
        case "forum_back":
            return f"форум снова отвечает (не отвечал {span(item.at - f['since'])}); " \
                   "пропущенное дочитано"
        case "config":
            if f.get("error"):
                hint = f" → {f['hint']}" if f.get("hint") else ""
                return f"referee.toml не прочитан: {f['error']}{hint}; работаю с прежними " \
                       "настройками"
            return "referee.toml перечитан: новые настройки действуют с этого круга"
        case "woke":
            return f"часы прыгнули вперёд с {clock(f['from'], tz)} на {when(item.at, tz)} " \
                   "(компьютер спал?): догоняю"
        case "notify":
            if f.get("back"):
                return "Telegram: уведомления снова доходят"
            return f"Telegram: уведомление не отправлено — {f['error']} (наблюдение идёт)"
        case "sync":
            return f"синхронизация: {f['warning']}"
    hint = f" → {f['hint']}" if f.get("hint") else ""
    return f"ошибка: {f.get('error')}{hint}"


__all__ = ["WatchTexts", "span", "when"]
