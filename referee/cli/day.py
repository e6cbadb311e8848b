"""``referee`` commands of the day: the count, the votes, the host's decisions on them, and
the activity check."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli import (
    DryRunOpt,
    Fmt,
    PostOpt,
    YesOpt,
    _context,
    _emit,
    _game,
    _host_notes,
    _parse_when,
    _publish,
    _sync,
    app,
    vote_app,
)
from referee.errors import GameError, RequestRefused

if TYPE_CHECKING:
    from referee.decisions import VoteAction




# ---------------------------------------------------------------------------------- votes

@app.command()
def tally(
    day: Annotated[int | None, typer.Option(help="Day number (default: the current day).")] = None,
    deadline: Annotated[
        str | None, typer.Option(help='Set the day deadline, forum time: "2026-11-21 22:00".')
    ] = None,
    start: Annotated[
        str | None, typer.Option(help="Set the day's start (for a day not in [schedule]).")
    ] = None,
    as_of: Annotated[
        str | None, typer.Option("--as-of", help="The count as it stood at a post id or time.")
    ] = None,
    offline: Annotated[bool, typer.Option(help="Do not sync first.")] = False,
    fmt: Annotated[Fmt, typer.Option("--format", "-f")] = Fmt.bbcode,
    post: PostOpt = False,
    yes: YesOpt = False,
    dry_run: DryRunOpt = False,
) -> None:
    """The day's vote count and who is hanged (V1–V6), ready to paste.

    Before the deadline it is a preview; the first run after the deadline records the
    hanging; later runs show the recorded result. --post replies with the count (never the
    host-only part), once.
    """
    game = _game()
    if not offline:
        _sync(game, quiet=fmt == Fmt.json)
    n = day if day is not None else game.current_day()
    if not deadline or n < 1:
        game.scheduled_day(n)  # --deadline may add a day the schedule does not list
    if start and not deadline:
        raise GameError("--start needs --deadline too", 'e.g. --start "…" --deadline "…"')
    if deadline:
        game.set_deadline(n, _parse_when(deadline, game, "--deadline"), "--deadline",
                          start=_parse_when(start, game, "--start") if start else None)
    point: int | datetime | None = None
    if as_of:
        point = int(as_of) if as_of.isdigit() else _parse_when(as_of, game, "--as-of")
    result = game.tally_day(n, as_of=point, record=not dry_run)
    from referee.publish import tally_post
    from referee.render.day import day_paste, render_day

    ctx = _context(game)
    _emit(render_day(result, ctx, fmt.value))
    if post:
        _publish(game, [tally_post(game.config, n, day_paste(result, ctx))], yes, dry_run)


@app.command()
def votes(
    day: Annotated[int | None, typer.Option(help="Day number (default: the current day).")] = None,
) -> None:
    """Every vote event of the day (counted, ignored, rejected) with links."""
    from referee.render.host import votes_list

    game = _game()
    n = day if day is not None else game.current_day()
    game.scheduled_day(n)
    t = game.tally_day(n, record=False).tally
    _emit(votes_list(n, t, game.config.tz, game.config.forum.url))


def _vote_override(action: VoteAction, post: int, reason: str = "",
                   target: str | None = None) -> None:
    from referee.render.decision import vote_recorded

    effect = _game().override_vote(action, post, reason=reason, target=target)
    _emit(vote_recorded(effect, action))


@vote_app.command("accept")
def vote_accept(post: int, reason: Annotated[str, typer.Option()] = "") -> None:
    """Count this post's vote although a rule rejected it (not V2/V5)."""
    _vote_override("accept", post, reason)


@vote_app.command("reject")
def vote_reject(post: int, reason: Annotated[str, typer.Option()] = "отклонён ведущим") -> None:
    """Do not count this post's vote (it counts as no vote)."""
    _vote_override("reject", post, reason)


@vote_app.command("set")
def vote_set(post: int, target: Annotated[str, typer.Option()],
             reason: Annotated[str, typer.Option()] = "") -> None:
    """This post's vote is for TARGET."""
    _vote_override("set", post, reason, target)


ReasonOpt = Annotated[str, typer.Option(
    help="Для записи ведущего; в публичную часть не попадает.")]
PublicNoteOpt = Annotated[str, typer.Option(
    "--public-note", help="Пометка для игроков: показывается вместе с итогом.")]


@app.command()
def hang(
    day: Annotated[int, typer.Option(help="The day whose result the host decides.")],
    nick: Annotated[str | None, typer.Argument(help="Who is hanged (omit with --nobody).")] = None,
    nobody: Annotated[bool, typer.Option(help="Nobody is hanged this day.")] = False,
    reason: ReasonOpt = "",
    public_note: PublicNoteOpt = "",
) -> None:
    """The host decides the day's result over the count (recorded, shown in the tally)."""
    from referee.render.decision import hanging_recorded

    if (nick is None) == (not nobody):
        raise RequestRefused("укажите NICK или --nobody", "например: referee hang --day 2 Лиса")
    who = _game().set_hanged(day, None if nobody else nick, reason, public_note)
    _emit(hanging_recorded(day, who, public_note))


@app.command()
def remove(
    nick: str,
    after_day: Annotated[int, typer.Option("--after-day", help="Removed at the end of this day.")],
    reason: ReasonOpt = "",
    public_note: PublicNoteOpt = "",
) -> None:
    """The host removes a player from the game at the end of a day (A3)."""
    from referee.render.decision import removal_recorded

    who = _game().remove(nick, after_day, reason, public_note)
    _emit(removal_recorded(who, after_day, public_note))


# ---------------------------------------------------------------------------------- activity

@app.command("check-activity")
def check_activity(
    turn: Annotated[
        int | None, typer.Option(
            help="Turn number (default: the turn just ended if its check is not recorded, "
                 "else the current one).")
    ] = None,
    offline: Annotated[bool, typer.Option(help="Do not sync first.")] = False,
    fmt: Annotated[Fmt, typer.Option("--format", "-f")] = Fmt.bbcode,
    post: PostOpt = False,
    yes: YesOpt = False,
    dry_run: DryRunOpt = False,
) -> None:
    """Who is missing (A1: no post this turn; A2: missed votes). Before the turn ends it is a
    reminder list; after it the removals are recorded (A3). --post replies with the public
    part, once."""
    from referee.render.activity import render_activity

    game = _game()
    if not offline:
        _sync(game, quiet=fmt == Fmt.json)
    n = turn if turn is not None else game.activity_turn()
    result = game.check_activity(n, record=not dry_run)
    ctx = _context(game)
    _emit(render_activity(result.report, fmt.value, ctx.roles, ctx.reveal_role_on_removal,
                          ctx.tz))
    if result.notes and fmt != Fmt.json:
        _emit(_host_notes(result.notes))
    if post:
        from referee.publish import activity_post, public_part
        from referee.render.activity import HOST_ONLY_HEADER

        public = public_part(render_activity(result.report, "bbcode", ctx.roles,
                                             ctx.reveal_role_on_removal, ctx.tz),
                             HOST_ONLY_HEADER)
        _publish(game, [activity_post(game.config, n, public)], yes, dry_run)


@app.command()
def excuse(
    nick: str,
    turn: Annotated[int, typer.Option(help="The turn the player warned about.")],
    reason: Annotated[str, typer.Option()] = "",
) -> None:
    """Record that NICK warned the host: not flagged as missing for that turn (A1)."""
    from referee.render.decision import excuse_recorded

    _emit(excuse_recorded(_game().excuse(nick, turn, reason), turn))
