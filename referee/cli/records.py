"""``referee`` commands over the whole game: sent messages, replay, the deal, and the game
at a glance (status, history, export)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli import (
    DryRunOpt,
    Fmt,
    OfflineOpt,
    SendOpt,
    YesOpt,
    _confirm,
    _context,
    _echo_err,
    _emit,
    _game,
    app,
    err,
    opts,
)
from referee.errors import GameError

if TYPE_CHECKING:
    pass




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
    force: Annotated[bool, typer.Option(
        "--force", help="Раздать заново поверх ролей в [players] или записанной раздачи.")
    ] = False,
    send: SendOpt = False,
    yes: YesOpt = False,
    dry_run: DryRunOpt = False,
) -> None:
    """Assign roles to the [players] roster from [setup] (RULES.md default), record them in
    the database as the game's roster and write the role PM texts. --send sends them (once;
    a second deal with another seed is refused)."""
    from referee.config import load_config
    from referee.game.dealing import deal_game
    from referee.publish import send_deal
    from referee.render.deal import role_pm_texts
    from referee.render.decision import deal_recorded
    from referee.render.host import deal_listing
    from referee.store import Store

    config = load_config(opts.config)
    with Store.open(opts.db or config.db_path) as store:
        players = deal_game(config, store, seed, force=force, record=not dry_run)
        texts = role_pm_texts(players)
        _emit(deal_listing(players, texts, "json" if fmt == Fmt.json else "text"))
        _echo_err(deal_recorded(seed, len(players), recorded=not dry_run))
        if send:
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
    day_history = h.history_of_day(
        game, game.scheduled_day(day).day if day is not None else game.current_day())
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
