"""Issue 29 item 11: ``watch --until`` in the past is refused and a time within a round is
kept to the minute (fake clock); a fresh database never reads «итог (записан раньше)»;
the status line fits the terminal at 80–120 columns and again after a resize."""

from __future__ import annotations

import io
from datetime import timedelta
from pathlib import Path

import pytest
from demo_run import DEMO, run
from rich.console import Console
from support.clock import FakeClock
from support.moscow import msk

from referee.core.errors import RequestRefused
from referee.host.watch import Options, Screen, Watch
from referee.render.status_line import FittedLine, fit
from referee.render.watch import WatchTexts


def _watch(db: Path, start: str, until: str, **options: object
           ) -> tuple[Watch, FakeClock, list[str], list[str]]:
    clock, lines, statuses = FakeClock(msk(start)), [], []
    screen = Screen(say=lines.append, status=statuses.append, tick=statuses.append)
    opts = Options(every=timedelta(minutes=60), until=msk(until), **options)  # type: ignore[arg-type]
    return Watch(DEMO, db, opts, WatchTexts(), screen, clock=clock), clock, lines, statuses


def test_until_in_the_past_is_refused(tmp_path: Path) -> None:
    with pytest.raises(RequestRefused) as caught:
        _watch(tmp_path / "g.db", "2026-11-21 12:00", "2026-11-21 11:00")
    assert "--until 2026-11-21 11:00 уже прошло (сейчас 2026-11-21 12:00)" in caught.value.message
    with pytest.raises(RequestRefused, match="уже прошло") as caught:  # main() prints it
        run(tmp_path / "g.db", "2026-11-21 12:00", "watch", "--until", "2026-11-21 11:00")
    assert caught.value.exit_code == 2


def test_until_within_a_round_is_kept_to_the_minute(tmp_path: Path) -> None:
    watch, clock, lines, statuses = _watch(tmp_path / "g.db", "2026-11-21 12:00",
                                           "2026-11-21 12:25")
    assert watch.run() == "until"
    assert clock.t == msk("2026-11-21 12:25")
    assert lines[-1] == "12:25 наблюдение окончено: наступило время --until"
    assert statuses[0].endswith("· остановка в 12:25 (--until)")
    assert not [s for s in statuses if "следующий взгляд 13:00" in s]


def test_a_fresh_database_never_says_recorded_before(tmp_path: Path) -> None:
    watch, _, lines, _ = _watch(tmp_path / "g.db", "2026-11-24 12:00", "2026-11-24 12:25",
                                tally=True, resolve=True, activity=True)
    watch.run()
    said = "\n".join(lines)
    assert "день 2: итог записан — на виселицу — Лиса" in said
    assert "ночь 2: итог записан" in said and "проверка активности записана" in said
    assert "раньше)" not in said


def test_a_second_watch_says_recorded_before(tmp_path: Path) -> None:
    db = tmp_path / "g.db"
    assert run(db, "2026-11-24 11:00", "tally", "--day", "2").exit_code == 0
    watch, _, lines, _ = _watch(db, "2026-11-24 12:00", "2026-11-24 12:25", tally=True)
    watch.run()
    assert "день 2: итог (записан раньше) — на виселицу — Лиса" in "\n".join(lines)


LINE = ("день 1 · до конца 10 ч (21.11 22:00) · лидер: Mr. Smith, Шерлок — 2 · голосов: 7 · "
        "не голосовали (7): Мисс Марпл, Ёжик, Полковник, Nika-77, Гроза и ещё 2 · "
        "следующий взгляд 13:00")


@pytest.mark.parametrize(("width", "kept"), [
    (80, "день 1 · до конца 10 ч (21.11 22:00) · следующий взгляд 13:00"),
    (100, "день 1 · до конца 10 ч (21.11 22:00) · лидер: Mr. Smith, Шерлок — 2 · "
          "следующий взгляд 13:00"),
    (120, "день 1 · до конца 10 ч (21.11 22:00) · лидер: Mr. Smith, Шерлок — 2 · "
          "голосов: 7 · следующий взгляд 13:00"),
    (200, LINE),
    (30, "день 1 · следующий взгляд 13:00"[:29] + "…"),
])
def test_the_status_line_fits_the_width(width: int, kept: str) -> None:
    assert fit(LINE, width) == kept
    assert len(fit(LINE, width)) <= width


def test_the_status_line_is_fitted_again_after_a_resize() -> None:
    screen = Console(file=io.StringIO(), width=80, force_terminal=False, color_system=None)
    line = FittedLine(LINE)
    screen.print(line)
    screen.width = 120
    screen.print(line)
    narrow, wide = screen.file.getvalue().splitlines()
    assert narrow == fit(LINE, 80) and wide == fit(LINE, 120)
    assert narrow.endswith("следующий взгляд 13:00") and wide.endswith("следующий взгляд 13:00")


@pytest.mark.skipif(not hasattr(__import__("signal"), "SIGWINCH"), reason="no SIGWINCH here")
def test_a_resize_redraws_the_status_line_at_once() -> None:
    import os
    import signal

    from referee.cli.watch import _redrawn_on_resize

    class Live:
        drawn = 0

        def refresh(self) -> None:
            self.drawn += 1

    live, before = Live(), signal.getsignal(signal.SIGWINCH)
    with _redrawn_on_resize(live):
        os.kill(os.getpid(), signal.SIGWINCH)
    assert live.drawn == 1
    assert signal.getsignal(signal.SIGWINCH) == before
