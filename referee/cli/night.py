"""``referee`` commands of the night: the host's PMs, the night resolved, the host's edits
of requests."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from referee.cli import (
    Fmt,
    PostOpt,
    SendOpt,
    YesOpt,
    _context,
    _emit,
    _game,
    _publish,
    _sync,
    action_app,
    app,
    out,
)

if TYPE_CHECKING:
    pass




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
        start, end = game.scheduled_night(night)
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
    n = night if night is not None else game.current_night()
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
    from referee.render.decision import action_recorded

    game = _game()
    targets = target or []
    game.add_action(night, actor, action, target=targets[0] if len(targets) == 1 else None,
                    targets=targets if len(targets) > 1 else (), executor=executor,
                    reason=reason)
    _emit(action_recorded(night, actor, action, targets))


@action_app.command("drop")
def action_drop(
    night: Annotated[int, typer.Option()],
    actor: str,
    action: Annotated[str | None, typer.Argument()] = None,
    reason: Annotated[str, typer.Option()] = "",
) -> None:
    """Drop ACTOR's request(s) of the night as the host."""
    from referee.render.decision import drop_recorded

    _game().drop_action(night, actor, action, reason)
    _emit(drop_recorded(night, actor, action))


@action_app.command("import")
def action_import(
    requests_file: Annotated[Path, typer.Argument(help="A TOML file of [[request]]/[[drop]].")],
) -> None:
    """Record every entry of a host's requests file as the host's decision."""
    edits = _game().import_requests(requests_file)
    _emit(f"Записано решений ведущего: {len(edits)} (из {requests_file})")
