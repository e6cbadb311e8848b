"""The scripted 2-day game watched through the real command, in a terminal:

    python tests/watch/watched_game.py [--speed 3600] [referee watch options…]

A phpBB board on 127.0.0.1 plays the game of ``support/phpbb/game_board.py`` while ``referee watch``
(``referee.cli.main``, as a host runs it) keeps the count. Time is the board's fake clock:
each second the watch sleeps takes ``1/speed`` real seconds (3600: an hour a second), so
two game days pass in under a minute and the status line can be seen counting down.
Without options after the speed, the watch runs with every deadline action, posting.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from support.clock import FakeClock  # noqa: E402
from support.moscow import msk  # noqa: E402
from support.phpbb.game_board import PASSWORD, GameBoard, write_config  # noqa: E402

import adapters.phpbb.client as client  # noqa: E402
import adapters.phpbb.posting as posting  # noqa: E402
import referee.host.watch  # noqa: E402
from referee.cli import main  # noqa: E402

DEFAULT = ["--every", "30", "--tally-at-deadline", "--resolve-at-deadline",
           "--activity-at-deadline", "--remind", "60", "--post", "--send", "--yes"]


class Accelerated(FakeClock):
    """The board's clock; a nap of ``s`` game seconds takes ``s / speed`` real ones."""

    def __init__(self, start: datetime, speed: float) -> None:
        super().__init__(start)
        self.speed = speed

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds / self.speed)
        super().sleep(seconds)


def run(args: list[str]) -> None:
    speed = 3600.0
    if args[:1] == ["--speed"]:
        speed, args = float(args[1]), args[2:]
    clock = Accelerated(msk("2026-11-20 11:00"), speed)
    os.environ["REFEREE_PASSWORD"] = PASSWORD
    client.LOGIN_WAIT = posting.POST_WAIT = posting.LASTCLICK_WAIT = 0.0

    def the_boards_clock(start: datetime | None) -> FakeClock:
        if start is not None:
            clock.t = start
        return clock

    referee.host.watch.make_clock = the_boards_clock  # type: ignore[assignment]
    folder = Path(tempfile.mkdtemp(prefix="watched-game-"))
    with GameBoard(clock=clock).running() as board:
        config = write_config(folder, board)
        sys.argv = ["referee", "--config", str(config), "--now", "2026-11-20 11:00", "watch",
                    *(args or DEFAULT)]
        try:
            main()
        except SystemExit as e:
            if e.code:
                raise
        print(f"\n[board] {len(board.replies)} replies and {len(board.sent_pms)} PMs by the "
              f"host; {len(board.log)} requests; database {folder / 'referee.db'}")


if __name__ == "__main__":
    run(sys.argv[1:])
