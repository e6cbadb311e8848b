"""The host's terminal: where each text goes, how it looks there, and the yes/no question.

- stdout carries the command's text (what a host pastes or pipes); stderr the sync lines,
  the progress bar, the sending listing and the question, so a pipe gets the text alone.
- ``--format text`` on a terminal is drawn with rich — titles bold, the host-only divider
  in colour — and piped it is the plain text, byte for byte (no colour codes).
- BBCode and JSON are never styled: they are meant to be copied exactly.
- The question accepts Russian and English answers: «д», «да», «y», «yes» and «н», «нет»,
  «n», «no» (any case); Enter alone is «нет».
- A question asked while a live display is drawn (the progress bar of a sync, the status
  line of a watch) is asked inside :func:`paused`: the display is stopped while the host
  types (else the password prompt hides behind «Читаю тему ━━━ 3/3» and looks frozen).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol

from referee.render.parts import HOST_ONLY

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text


class LazyConsole:
    """A rich ``Console`` made when first used: rich is ~40 ms of a command's start, and a
    command that writes BBCode or JSON to stdout (``tally --offline``) never draws with it
    (issue 30 item 3)."""

    def __init__(self, **options: Any) -> None:
        self._options = options
        self._made: Console | None = None

    @property
    def console(self) -> Console:
        if self._made is None:
            from rich.console import Console  # noqa: PLC0415

            self._made = Console(**self._options)
        return self._made

    def __getattr__(self, name: str) -> Any:
        return getattr(self.console, name)


out: Any = LazyConsole(soft_wrap=True, highlight=False)
err: Any = LazyConsole(stderr=True, soft_wrap=True, highlight=False)

YES = frozenset({"д", "да", "y", "yes"})
NO = frozenset({"н", "нет", "n", "no"})


class Progress(Protocol):
    """What a sync reports as it goes (:class:`referee.store.sync.SyncProgress`)."""

    pages_read: int
    pages_to_read: int | None
    new_posts: int


def utf8_streams(*streams: object) -> None:
    """stdout and stderr write UTF-8 whatever the console's code page: on Windows a pipe or
    a file gets the locale's cp1251/cp866, where «━», «—» and «ё» of a nick may not exist and
    printing them would crash. A stream that cannot be reconfigured is left as it is."""
    for stream in streams or (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        reconfigure = getattr(stream, "reconfigure", None)
        if encoding not in ("utf8", "utf8sig") and reconfigure is not None:
            try:
                reconfigure(encoding="utf-8", errors="replace")
            except (OSError, ValueError):  # a stream already written to in another encoding
                pass


def emit(text: str, fmt: str = "bbcode") -> None:
    """The command's text on stdout: styled for a terminal only in the text format."""
    if fmt == "text" and out.is_terminal:
        out.print(styled(text))
        return
    # Plain write: rich markup must never interpret BBCode brackets from the output.
    sys.stdout.write(text if text.endswith("\n") else text + "\n")


def styled(text: str) -> Text:
    """A text output as rich draws it: the first line (the title) bold, the divider bold
    yellow, the host-only part below it dimmed a little; the words are unchanged."""
    from rich.text import Text  # noqa: PLC0415

    result = Text()
    host = False
    for i, line in enumerate(text.rstrip("\n").split("\n")):
        if line == HOST_ONLY:
            host = True
            result.append(line + "\n", style="bold yellow")
        elif i == 0:
            result.append(line + "\n", style="bold")
        else:
            result.append(line + "\n", style="dim" if host and line.startswith("!") else "")
    return result


def echo_err(text: str) -> None:
    """One line (or block) for the host on stderr, never read as markup."""
    err.print(text, markup=False)


def yes_no(answer: str) -> bool | None:
    """«д»/«да»/«y»/«yes» → True, «н»/«нет»/«n»/«no» or nothing → False, else None."""
    word = answer.strip().lower()
    if not word or word in NO:
        return False
    return True if word in YES else None


def confirm(question: str, ask: Callable[[str], str] | None = None) -> bool:
    """Ask on stderr until the answer is a yes or a no; no input at all (a pipe that ended,
    Ctrl-D, Ctrl-C) is a no."""
    import click  # noqa: PLC0415 — only a question needs it

    read = ask or _prompt
    while True:
        try:
            answer = yes_no(read(f"{question} [д/Н]"))
        except (click.Abort, EOFError, KeyboardInterrupt):
            echo_err("")
            return False
        if answer is not None:
            return answer
        echo_err("Ответьте «д» (да) или «н» (нет).")


def _prompt(question: str) -> str:
    import click  # noqa: PLC0415

    with paused():
        return click.prompt(question, default="", show_default=False, err=True)


class _Live(Protocol):
    """A display redrawn in place (rich's Progress and Live both have these)."""

    def start(self) -> None: ...

    def stop(self) -> None: ...


_drawn: list[_Live] = []
"""The live displays now on screen, innermost last (see :func:`paused`)."""


@contextmanager
def drawing(live: _Live) -> Iterator[None]:
    """``live`` is on screen for the block: a prompt inside it pauses it."""
    _drawn.append(live)
    try:
        yield
    finally:
        _drawn.remove(live)


@contextmanager
def paused() -> Iterator[None]:
    """Stop every live display while the block runs (a prompt), and draw them again after:
    a question is never asked behind a progress bar."""
    stopped = list(reversed(_drawn))
    for live in stopped:
        live.stop()
    try:
        yield
    finally:
        for live in reversed(stopped):
            live.start()


@contextmanager
def progress_bar(*, enabled: bool) -> Iterator[Callable[[Progress], None] | None]:
    """A progress bar on stderr for a sync, drawn only on a terminal."""
    if not (enabled and err.is_terminal):
        yield None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, TextColumn
    from rich.progress import Progress as Bar

    with Bar(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
             TextColumn("новых сообщений: {task.fields[posts]}"), console=rich_console(err),
             transient=True) as bar:
        task = bar.add_task("Читаю тему", total=None, posts=0)

        def show(p: Progress) -> None:
            bar.update(task, completed=p.pages_read, total=p.pages_to_read, posts=p.new_posts)

        with drawing(bar):
            yield show


def rich_console(console: Any) -> Console:
    """The rich Console itself (rich's live displays want it, not a stand-in)."""
    return console.console if isinstance(console, LazyConsole) else console
