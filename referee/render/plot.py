"""``referee history --plot FILE``: the day's vote as a picture for the host — a PNG line
chart of every candidate's votes over the day's time (forum time zone), the deadline, and
the moment the final leader reached the final count (V6).

Drawn with matplotlib, an optional extra (``pip install -e '.[plot]'``): the rest of the
tool never needs it. Nicks are user text here too: a ``$`` would start matplotlib's formula
markup and a leading ``_`` hides a legend entry, so both are neutralised.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from referee.core.errors import GameError
from referee.host.history import DayHistory
from referee.render.cells import plain, when
from referee.render.context import Context

INSTALL_HINT = ("установите дополнение для рисунков: pip install -e '.[plot]' в папке referee "
                "(или: pip install 'matplotlib>=3.8')")
MAX_LINES = 12
"""Candidates drawn one by one; the rest (fewest votes) share one grey line each, unlabelled."""


def _matplotlib() -> Any:
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError:
        raise GameError("для рисунка нужен matplotlib, а он не установлен",
                        INSTALL_HINT) from None
    return Figure, FigureCanvasAgg


def label(nick: str) -> str:
    """A nick as matplotlib shows it literally."""
    text = plain(nick).replace("$", r"\$")
    return " " + text if text.startswith("_") else text


def series(h: DayHistory, nick: str) -> tuple[list[datetime], list[int]]:
    """The candidate's count as steps: 0 at the day's start, his count after each vote for
    him or taken from him (a change of vote, V4), held to the end of the picture (the
    deadline, or the last vote of a day still going)."""
    xs, ys = [h.start], [0]
    for s in h.steps:
        if nick in (s.target, s.old):
            xs.append(s.at)
            ys.append(dict(s.counts).get(nick, 0))
    end = h.deadline if h.closed or not h.steps else max(h.steps[-1].at, xs[-1])
    xs.append(end)
    ys.append(ys[-1])
    return xs, ys


def plot_day(h: DayHistory, path: Path, ctx: Context | None = None, title: str = "") -> Path:
    """Draw Day ``h.day`` into the PNG file ``path``; returns the path."""
    figure_cls, canvas_cls = _matplotlib()
    from matplotlib.dates import DateFormatter
    from matplotlib.ticker import MaxNLocator

    ctx = ctx or Context()
    zone, tz = ctx.tz, ctx.tz_name
    fig = figure_cls(figsize=(11, 6), dpi=110)
    canvas_cls(fig)
    ax = fig.add_subplot()
    for i, (nick, votes) in enumerate(h.final):
        xs, ys = series(h, nick)
        if i < MAX_LINES:
            ax.step(xs, ys, where="post", linewidth=2.2 if i == 0 else 1.6,
                    label=f"{label(nick)} — {votes}")
        else:
            ax.step(xs, ys, where="post", linewidth=0.8, color="0.75")
    if h.closed:
        ax.axvline(h.deadline, color="0.3", linestyle="--", linewidth=1)
        ax.annotate("дедлайн", (h.deadline, 0), xytext=(-4, 4), textcoords="offset points",
                    ha="right", fontsize=9, color="0.3")
    if h.reached is not None:
        r = h.reached
        ax.plot([r.at], [r.votes], marker="o", markersize=9, color="black", zorder=5)
        right_half = r.at - h.start > (h.deadline - h.start) / 2
        ax.annotate(f"{label(r.nick)}: {r.votes} в {when(r.at, zone)}", (r.at, r.votes),
                    xytext=(-10 if right_half else 10, 8), textcoords="offset points",
                    ha="right" if right_half else "left", fontsize=9)
    name = f"{label(title)} — " if title else ""
    state = "" if h.closed else " (день идёт)"
    ax.set_title(f"{name}день {h.day}: голоса по времени{state}")
    ax.set_xlabel(f"время ({tz})")
    ax.set_ylabel("голосов")
    ax.yaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_ylim(-0.2, (h.final[0][1] if h.final else 1) + 0.8)
    ax.xaxis.set_major_formatter(DateFormatter("%d.%m %H:%M", tz=zone))
    ax.grid(True, alpha=0.3)
    if h.final:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=9, frameon=False)
    else:
        ax.text(0.5, 0.5, "засчитанных голосов нет", transform=ax.transAxes, ha="center")
    fig.autofmt_xdate()
    fig.tight_layout()
    path = Path(path)
    try:
        fig.savefig(path, format="png")
    except OSError as e:
        raise GameError(f"не удаётся записать {path}: {e.strerror or e}",
                        "укажите файл в папке, куда можно писать") from e
    return path
