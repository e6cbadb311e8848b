"""Issue 29 item 1: a question is never asked behind a live display — the password prompt
of a sync stops the progress bar while the host types, and draws it again after."""

from __future__ import annotations

import io
import sys

import pytest
from rich.console import Console

from referee import cli
from referee.render import console


class FakeLive:
    """A live display that records when it is on screen."""

    def __init__(self) -> None:
        self.shown = True
        self.log: list[str] = []

    def start(self) -> None:
        self.shown = True
        self.log.append("start")

    def stop(self) -> None:
        self.shown = False
        self.log.append("stop")


def test_paused_stops_every_display_and_draws_it_again() -> None:
    outer, inner = FakeLive(), FakeLive()
    with console.drawing(outer), console.drawing(inner):
        with console.paused():
            assert not outer.shown and not inner.shown
        assert outer.shown and inner.shown
    assert outer.log == inner.log == ["stop", "start"]
    with console.paused():  # nothing drawn: nothing to stop
        pass
    assert outer.log == ["stop", "start"]


def test_the_password_is_asked_with_the_progress_bar_stopped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import getpass

    bar, seen = FakeLive(), []
    monkeypatch.delenv("REFEREE_PASSWORD", raising=False)
    monkeypatch.setattr(sys, "stdin", type("Tty", (io.StringIO,), {"isatty": lambda s: True})())

    def ask(question: str) -> str:
        seen.append((question, bar.shown))
        return "секрет"

    monkeypatch.setattr(getpass, "getpass", ask)
    with console.drawing(bar):
        secret = cli._password("Ведущий")
    assert seen == [("Пароль на форуме для Ведущий: ", False)]
    assert bar.shown and secret.reveal() == "секрет"


def test_the_sync_progress_bar_is_a_display_a_prompt_pauses(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    terminal = Console(file=io.StringIO(), force_terminal=True, width=80)
    monkeypatch.setattr(console, "err", terminal)
    with console.progress_bar(enabled=True) as show:
        assert show is not None and len(console._drawn) == 1
        bar = console._drawn[0]
        with console.paused():
            assert not bar.live.is_started
        assert bar.live.is_started
    assert console._drawn == []


def test_the_yes_no_question_pauses_the_display_too(monkeypatch: pytest.MonkeyPatch) -> None:
    import click

    bar, seen = FakeLive(), []
    monkeypatch.setattr(click, "prompt", lambda *a, **k: seen.append(bar.shown) or "д")
    with console.drawing(bar):
        assert console.confirm("Отправить?")
    assert seen == [False] and bar.shown
