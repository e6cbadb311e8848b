"""``referee`` command line: thin wrappers over :class:`referee.game.Game` and friends.

Every command is a few lines: open the game, call one library function, print what it
returns. Errors of the project (:class:`referee.errors.RefereeError`) are printed as one
clear message with what to do, never as a traceback, and never with a secret in them.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

from referee.errors import GameError, RefereeError

if TYPE_CHECKING:
    from referee.sync import SyncProgress

app = typer.Typer(
    name="referee",
    help=(
        "Referee for forum Mafia games on phpBB: vote tally, activity check, night "
        "resolution. Reads the game topic and the host's private messages into SQLite."
    ),
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,  # docstrings name [players], [setup]: not rich markup
)
vote_app = typer.Typer(help="Host decisions on single vote posts (recorded, shown in the tally).")
action_app = typer.Typer(help="Host edits of night requests (recorded as the host's).")
app.add_typer(vote_app, name="vote")
app.add_typer(action_app, name="action")

out = Console(soft_wrap=True, highlight=False)
err = Console(stderr=True, soft_wrap=True, highlight=False)


class Fmt(StrEnum):
    bbcode = "bbcode"
    text = "text"
    json = "json"


class _Opts:
    config: Path = Path("referee.toml")
    db: Path | None = None
    verbose: bool = False
    now: str | None = None


opts = _Opts()


@app.callback()
def _main(
    config: Annotated[Path, typer.Option("--config", "-c", help="The game's referee.toml.")] = Path(
        "referee.toml"
    ),
    db: Annotated[
        Path | None, typer.Option(help="SQLite file (default: next to the config, .db).")
    ] = None,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log HTTP requests.")] = False,
    now: Annotated[
        str | None,
        typer.Option(help='Act as if it were this time (forum time zone), for audits and '
                          'rehearsals: "2026-11-21 21:00".'),
    ] = None,
) -> None:
    opts.config, opts.db, opts.verbose, opts.now = config, db, verbose, now
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    _show_notices()


class _Notice(logging.Handler):
    """The library's lines for the host while something happens (a forum that keeps him
    waiting, a database in use): ``referee.notice``, shown as they are, --verbose or not."""

    def emit(self, record: logging.LogRecord) -> None:
        err.print(record.getMessage(), markup=False)


def _show_notices() -> None:
    notices = logging.getLogger("referee.notice")
    if not any(isinstance(h, _Notice) for h in notices.handlers):
        notices.addHandler(_Notice())
    notices.propagate = False


def _game(*, sync: bool = False):  # noqa: ANN202 - a referee.game.Game (lazy: fast --help)
    from referee.game import Game

    game = Game.open(opts.config, opts.db)
    if opts.now:
        fixed = _parse_when(opts.now, game)
        game.clock = lambda: fixed
    if sync:  # quietly: the output is what the command shows
        _sync(game, quiet=True)
    return game


def _parse_when(value: str, game) -> datetime:  # noqa: ANN001
    from referee.config import _time

    return _time(value, game.config.tz, "--deadline/--as-of")


def _sync(game, *, sent: bool = False, full: bool = False, quiet: bool = False) -> None:  # noqa: ANN001
    with _progress_bar(enabled=not quiet) as progress:
        lines = game.sync(sent=sent, full=full, progress=progress)
    for line in lines:
        if not quiet:
            err.print(line, markup=False)


@contextmanager
def _progress_bar(*, enabled: bool) -> Iterator[Callable[[SyncProgress], None] | None]:
    """A progress bar on stderr for a sync, drawn only on a terminal."""
    if not (enabled and err.is_terminal):
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    with Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TextColumn("{task.fields[posts]} new posts"), console=err,
                  transient=True) as bar:
        task = bar.add_task("Reading the topic", total=None, posts=0)

        def show(p: SyncProgress) -> None:
            bar.update(task, completed=p.pages_read, total=p.pages_to_read, posts=p.new_posts)

        yield show


def _context(game):  # noqa: ANN001, ANN202 - a Game in, a render Context out
    from referee.render.context import Context

    return Context.of(game.config)


def _emit(text: str) -> None:
    # Plain print: rich markup must never interpret BBCode brackets from the output.
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def _host_notes(notes) -> str:  # noqa: ANN001
    return "\n".join(f"! {n}" for n in notes)


# ---------------------------------------------------------------------------------- sync

@app.command()
def sync(
    sent: Annotated[bool, typer.Option("--sent", help="Also read the sent folder.")] = False,
    full: Annotated[bool, typer.Option(help="Re-read every page (finds old edits).")] = False,
) -> None:
    """Read new topic pages and the host's new PMs into the database.

    Opening a PM on the forum marks it READ for the host: each PM is opened only once and
    only PMs not stored yet are opened. PMs are read when [forum] username is set.
    """
    _sync(_game(), sent=sent, full=full)


# ---------------------------------------------------------------------------------- sending

PostOpt = Annotated[bool, typer.Option(
    "--post", help="Then reply in the game topic with the public part (shown, then asked).")]
SendOpt = Annotated[bool, typer.Option("--send", help="Then send the PMs (shown, then asked).")]
YesOpt = Annotated[bool, typer.Option("--yes", "-y", help="Send without asking.")]
DryRunOpt = Annotated[bool, typer.Option(
    "--dry-run", help="Show what would be sent; send and record nothing.")]
OfflineOpt = Annotated[bool, typer.Option(help="Do not sync first.")]


def _publish(game, messages, yes: bool, dry_run: bool) -> None:  # noqa: ANN001
    """Show, ask, send once, record (referee.publish); the listing goes to stderr."""
    from referee.publish import run

    run(game.config, game.store, messages, echo=_echo_err, confirm=_confirm, yes=yes,
        dry_run=dry_run)


def _echo_err(text: str) -> None:
    typer.echo(text, err=True)


def _confirm(question: str) -> bool:
    try:
        return typer.confirm(question, default=False, err=True)
    except typer.Abort:
        return False


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
    n = day or game.current_day()
    if start and not deadline:
        raise GameError("--start needs --deadline too", 'e.g. --start "…" --deadline "…"')
    if deadline:
        game.set_deadline(n, _parse_when(deadline, game), "--deadline",
                          start=_parse_when(start, game) if start else None)
    point: int | datetime | None = None
    if as_of:
        point = int(as_of) if as_of.isdigit() else _parse_when(as_of, game)
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
    n = day or game.current_day()
    t = game.tally_day(n, record=False).tally
    _emit(votes_list(n, t, game.config.tz, game.config.forum.url))


def _vote_override(action: str, post: int, reason: str = "", target: str | None = None) -> None:
    game = _game()
    game.override_vote(action, post, reason=reason, target=target)
    _emit(f"Записано: vote {action} {post}" + (f" → {target}" if target else "")
          + (f" ({reason})" if reason else "") + ". День будет пересчитан.")


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


@app.command()
def hang(
    day: Annotated[int, typer.Option(help="The day whose result the host decides.")],
    nick: Annotated[str | None, typer.Argument(help="Who is hanged (omit with --nobody).")] = None,
    nobody: Annotated[bool, typer.Option(help="Nobody is hanged this day.")] = False,
    reason: Annotated[str, typer.Option()] = "",
) -> None:
    """The host decides the day's result over the count (recorded, shown in the tally)."""
    if (nick is None) == (not nobody):
        raise GameError("give either NICK or --nobody", "e.g. referee hang --day 2 Лиса")
    who = _game().set_hanged(day, None if nobody else nick, reason)
    _emit(f"Записано: день {day} — " + (f"вешают {who}" if who else "никого не вешают"))


@app.command()
def remove(
    nick: str,
    after_day: Annotated[int, typer.Option("--after-day", help="Removed at the end of this day.")],
    reason: Annotated[str, typer.Option()] = "",
) -> None:
    """The host removes a player from the game at the end of a day (A3)."""
    who = _game().remove(nick, after_day, reason)
    _emit(f"Записано: {who} выбывает после дня {after_day}" + (f" ({reason})" if reason else ""))


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
    n = turn or game.activity_turn()
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
    game = _game()
    who = game.excuse(nick, turn, reason)
    _emit(f"Записано: {who} предупредил ведущего, ход {turn}" + (f" ({reason})" if reason else ""))


# ---------------------------------------------------------------------------------- night

@app.command()
def pms(
    night: Annotated[int | None, typer.Option(help="Only this night's window.")] = None,
    offline: Annotated[bool, typer.Option(help="Do not sync first.")] = False,
) -> None:
    """The stored PMs (of a night): sender, time, first line."""
    game = _game()
    if not offline:
        _sync(game, quiet=True)
    items = game.game_pms()
    title = "ЛС ведущему"
    if night is not None:
        start, end = game.night_window(night)
        items = [p for p in items if start <= p.sent_at < end]
        title += f", ночь {night}"
    from referee.render.host import pms_table

    out.print(pms_table(items, title, game.config.tz), markup=False)


@app.command("resolve-night")
def resolve_night(
    night: Annotated[int | None, typer.Option(help="Night number (default: the last one).")] = None,
    dry_run: Annotated[bool, typer.Option(
        "--dry-run", help="Resolve, record nothing; with --post/--send show, send nothing.")
    ] = False,
    offline: Annotated[bool, typer.Option(help="Do not sync first.")] = False,
    fmt: Annotated[Fmt, typer.Option("--format", "-f")] = Fmt.bbcode,
    post: PostOpt = False,
    send: SendOpt = False,
    yes: YesOpt = False,
) -> None:
    """Read the night's requests from the PMs, resolve them (N1–N14) and print the morning
    report, the private results to send and the step-by-step explanation. --post replies
    with the morning report, --send sends the private results by PM; each once."""
    from referee.render.night import render_night

    game = _game()
    if not offline:
        _sync(game, quiet=fmt == Fmt.json)
    n = night or game.current_night()
    result = game.resolve_night(n, record=not dry_run)
    _emit(render_night(result, _context(game), fmt.value))
    if post or send:
        from referee.publish import night_messages
        from referee.render.morning import morning_report, private_results

        outcome = result.outcome
        messages = night_messages(
            game.config, result, post=post, send=send, now=game.now,
            report=morning_report(outcome, outcome.state, game.config.night),
            private=private_results(outcome))
        _publish(game, messages, yes, dry_run)


@action_app.command("add")
def action_add(
    night: Annotated[int, typer.Option()],
    actor: str,
    action: str,
    target: Annotated[list[str] | None, typer.Argument()] = None,
    executor: Annotated[str | None, typer.Option()] = None,
    reason: Annotated[str, typer.Option()] = "",
) -> None:
    """Add a request as the host: ACTOR ACTION [TARGET...] (e.g. `Лиса shoot Шерлок
    --executor Тень_Ночи`, `Ёжик protect Kotik Ира-Ира`)."""
    from referee.roles import ACTIONS

    if action not in ACTIONS:
        raise GameError(f"unknown action {action!r}", "use one of: " + ", ".join(ACTIONS))
    game = _game()
    targets = target or []
    game.add_action(night, actor, action, target=targets[0] if len(targets) == 1 else None,
                    targets=targets if len(targets) > 1 else (), executor=executor,
                    reason=reason)
    _emit(f"Записано: ночь {night}, заявка ведущего: {actor} {action} {' '.join(targets)}")


@action_app.command("drop")
def action_drop(
    night: Annotated[int, typer.Option()],
    actor: str,
    action: Annotated[str | None, typer.Argument()] = None,
    reason: Annotated[str, typer.Option()] = "",
) -> None:
    """Drop ACTOR's request(s) of the night as the host."""
    game = _game()
    game.drop_action(night, actor, action, reason)
    _emit(f"Записано: ночь {night}, заявки {actor} отменены ведущим")


@action_app.command("import")
def action_import(
    requests_file: Annotated[Path, typer.Argument(help="A TOML file of [[request]]/[[drop]].")],
) -> None:
    """Record every entry of a host's requests file as the host's decision."""
    edits = _game().import_requests(requests_file)
    _emit(f"Записано решений ведущего: {len(edits)} (из {requests_file})")


@app.command("mark-sent")
def mark_sent(
    key: Annotated[str, typer.Argument(help="The key printed with «неизвестно, дошло ли».")],
    forum_id: Annotated[int | None, typer.Option(help="The post or PM id on the forum.")] = None,
) -> None:
    """The host checked the forum: a message that "may have been sent" was sent. Recorded,
    so re-running the command does not send it again."""
    from referee.publish import mark_sent_by_host

    record = mark_sent_by_host(_game().store, key, forum_id)
    _emit(f"Записано как отправленное: {record.kind} для {record.recipient}")


@app.command()
def replay(
    game_file: Annotated[Path, typer.Argument(help="GAME.json (see README).")],
    fmt: Annotated[Fmt, typer.Option("--format", "-f")] = Fmt.json,
) -> None:
    """Re-play a whole game from a JSON file (audits, tests)."""
    from referee.config import NightRules
    from referee.replay import replay as run_replay
    from referee.replay import replay_text

    try:
        data = json.loads(game_file.read_text(encoding="utf-8"))
    except (OSError, ValueError, RecursionError) as e:
        # ValueError covers bad UTF-8, bad JSON and a number too long to read (Python's
        # 4300-digit limit); RecursionError, arrays nested thousands deep.
        raise GameError(f"cannot read {game_file}: {e}", "give a UTF-8 JSON game file") from e
    rules = NightRules()
    if opts.config.exists():
        from referee.config import load_config

        rules = load_config(opts.config).night
    if fmt == Fmt.json:
        _emit(json.dumps(run_replay(data, rules), ensure_ascii=False, indent=2))
    else:
        _emit(replay_text(data, rules))


@app.command()
def deal(
    seed: Annotated[int, typer.Option(help="Random seed: the same seed deals the same roles.")],
    fmt: Annotated[Fmt, typer.Option("--format", "-f")] = Fmt.text,
    send: SendOpt = False,
    yes: YesOpt = False,
    dry_run: DryRunOpt = False,
) -> None:
    """Assign roles to the [players] roster from [setup] (RULES.md default) and write the
    role PM texts. --send sends them (once; a second deal with another seed is refused)."""
    from referee.config import load_config
    from referee.deal import deal as run_deal
    from referee.render.deal import role_pm_texts
    from referee.render.host import deal_listing

    config = load_config(opts.config)
    players = run_deal([p.nick for p in config.players], config.setup or None, seed)
    texts = role_pm_texts(players)
    _emit(deal_listing(players, texts, "json" if fmt == Fmt.json else "text"))
    if send:
        _send_deal(config, seed, texts, yes, dry_run)


def _send_deal(config, seed: int, texts, yes: bool, dry_run: bool) -> None:  # noqa: ANN001
    from referee.publish import send_deal
    from referee.store import Store

    with Store.open(opts.db or config.db_path) as store:
        send_deal(config, store, seed, texts, echo=_echo_err, confirm=_confirm, yes=yes,
                  dry_run=dry_run)


# ---------------------------------------------------------------------------------- at a glance

@app.command()
def status(fmt: Annotated[Fmt, typer.Option("--format", "-f", help="text or json.")] = Fmt.text,
           offline: OfflineOpt = False) -> None:
    """The game at a glance (host only): phase, time left, who lives, who left, what to do."""
    from referee.render.morning import private_results
    from referee.render.status import render_status
    from referee.status import game_status

    _emit(render_status(game_status(_game(sync=not offline), private_results), fmt.value))


@app.command()
def history(
    day: Annotated[int | None, typer.Option(help="Day number (default: the current day).")] = None,
    whole: Annotated[bool, typer.Option("--game", help="The whole game's table.")] = False,
    plot: Annotated[Path | None, typer.Option(help="Also draw the day as a PNG.")] = None,
    fmt: Annotated[Fmt, typer.Option("--format", "-f")] = Fmt.bbcode, offline: OfflineOpt = False,
) -> None:
    """The day's vote, vote by vote (count, leader, lead changes, V6); --game: the game."""
    from referee import history as h
    from referee.render import history as show
    from referee.render.plot import plot_day

    game = _game(sync=not offline)
    ctx, title = _context(game), game.config.title
    if whole:
        return _emit(show.render_game_history(h.game_history(game), fmt.value, title))
    day_history = h.history_of_day(game, day or game.current_day())
    _emit(show.render_day_history(day_history, fmt.value, ctx))
    if plot:  # the picture's path on stderr: stdout stays the table to paste
        err.print(f"Рисунок: {plot_day(day_history, plot, ctx, title)}", markup=False)


@app.command()
def export(
    game_file: Annotated[Path, typer.Argument(help="The replay file to write (JSON).")],
    votes: Annotated[Path | None, typer.Option("--csv", help="Default: FILE.votes.csv.")] = None,
    offline: OfflineOpt = False,
) -> None:
    """The live game as a `referee replay` file plus a CSV of every vote event."""
    from referee.export import export_game
    from referee.render.export import replay_json, votes_csv

    game = _game(sync=not offline)
    (data, events), votes = export_game(game), votes or game_file.with_suffix(".votes.csv")
    try:
        game_file.write_text(replay_json(data), encoding="utf-8")
        votes.write_text(votes_csv(events, _context(game)), encoding="utf-8")
    except OSError as e:
        raise GameError(f"cannot write {e.filename}: {e.strerror}", "give a writable path") from e
    _emit(f"Записано: {game_file} (проверка: referee replay {game_file}), {votes}")

def main() -> None:
    try:
        app()
    except RefereeError as e:
        err.print(f"referee: {e}", markup=False)
        raise SystemExit(e.exit_code) from None
    except (OSError, sqlite3.Error) as e:
        # The store and the cookie file say what went wrong themselves; this is the net
        # under any other file the tool touches (never a traceback from the disk).
        from referee.store.guard import fs_error, sqlite_error

        error = fs_error(e, Path(".")) if isinstance(e, OSError) else sqlite_error(e, None)
        err.print(f"referee: {error}", markup=False)
        raise SystemExit(error.exit_code) from None
    except KeyboardInterrupt:
        err.print("referee: interrupted; everything stored so far is kept", markup=False)
        raise SystemExit(130) from None
