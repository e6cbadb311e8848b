"""``referee`` command line: thin wrappers over :class:`referee.game.Game` and friends.

Every command is a few lines: open the game, call one library function, print what it
returns. Errors of the project (:class:`referee.errors.RefereeError`) are printed as one
clear message with what to do, never as a traceback, and never with a secret in them.
"""

from __future__ import annotations

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

from referee.errors import RefereeError

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
        fixed = _parse_when(opts.now, game, "--now")
        game.clock = lambda: fixed
    if sync:  # quietly: the output is what the command shows
        _sync(game, quiet=True)
    return game


def _parse_when(value: str, game, option: str) -> datetime:  # noqa: ANN001
    from referee.config_schema import local_time

    return local_time(value, game.config.tz, option)


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

    New PMs are read from the forum's folder export, a page at a time, and stay unread
    there; only a board that cannot export has them opened, once each, which marks them
    READ for the host (the sync line says so). PMs are read when [forum] username is set.
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


# The commands, in the order --help lists them.
from referee.cli import day as _day_commands  # noqa: E402, F401
from referee.cli import night as _night_commands  # noqa: E402, F401
from referee.cli import records as _record_commands  # noqa: E402, F401
from referee.cli import setup as _setup_commands  # noqa: E402, F401
from referee.cli import watch as _watch_commands  # noqa: E402, F401


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
