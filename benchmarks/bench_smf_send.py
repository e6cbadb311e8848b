"""Where the time of ``deal --send`` on SMF goes (issue 27, item 5): role PMs sent through
SMF's own PM form to the live test board (``tests/support/smf/live.py``) on 127.0.0.1.

    python benchmarks/bench_smf_send.py [--pms 8] [--rounds 5]

Each round runs, as separate processes and in turning order, the two ways of spacing the
sends: ``fixed`` (before issue 27: a 5.5 s pause before every send after the first) and
``learned`` (no pause until the board refuses; its refusal names the seconds, waited out
once and kept as the distance). The board answers flood control as SMF 2.1 does
(``spamProtection``: it logs whole seconds, ``time()``, and lets a send through only when
more than ``spamWaitTime`` whole seconds have passed; 5 s for a member, 2 s for a
moderator), each request taking ``--latency`` seconds of the board's clock. The board's
clock is simulated (the waits would take minutes), so the seconds a host waits are exact;
the requests themselves are real HTTP round trips, timed on the wall clock. Medians over
the rounds.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
import time
from pathlib import Path
from statistics import median
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

NICKS = ["Шерлок", "Лиса", "Kotik", "Ёжик", "Мисс Марпл", "Тень_Ночи", "Полковник", "Гроза",
         "Снежок", "Nika-77"]


def one_run(variant: str, spam: float, latency: float, pms: int) -> dict[str, Any]:
    """Send ``pms`` PMs in this process; what it cost."""
    from datetime import UTC

    from support.clock import WallTime as FakeTime
    from support.moscow import msk as moscow
    from support.smf.live import LiveBoard, day_posts
    from support.smf.site import HOST_NAME, HOST_PASSWORD

    from adapters.base import ForumSettings, HttpClient, Secret
    from adapters.smf.client import SmfForum
    from adapters.smf.posting import SmfPoster

    clock = FakeTime(moscow("2026-11-27 12:00"))
    clock.t += 0.37  # a start inside a second, as a real clock has

    class SmfFlood(LiveBoard):
        """SMF's whole-second flood log, and a board clock that moves with each request."""

        def _flood(self, s: Any) -> Any:
            now = math.floor(self.clock())
            if self.last_send is not None and now - self.last_send <= self.spam_wait:
                self.refusals += 1
                self.last_send = now  # REPLACE INTO: the refused send is logged too
                return self.fatal(s, "Последнее сообщение с вашего IP было отправлено менее "
                                     f"{int(self.spam_wait)} секунд назад. Пожалуйста, "
                                     "попробуйте позже.")
            self.last_send = now
            return None

    board = SmfFlood(clock.clock, clock.wall, day_posts(3, moscow("2026-11-26 18:00")))
    board.spam_wait = spam
    board.refusals = 0
    with board.running():
        http = HttpClient(board.base, rate_limit=None, retries=1, sleep=clock.sleep,
                          clock=clock.clock)
        sent = http.request

        def request(*args: Any, **kw: Any) -> Any:
            clock.t += latency  # the round trip, on the board's clock
            return sent(*args, **kw)

        http.request = request  # type: ignore[method-assign]
        settings = ForumSettings(url=f"{board.base}index.php?topic=2.0",
                                 timezone="Europe/Moscow", username=HOST_NAME, engine="smf")
        forum = SmfForum(settings, http=http, password=lambda user: Secret(HOST_PASSWORD),
                         now=lambda: clock.wall().astimezone(UTC))
        poster = SmfPoster(forum)
        forum.login()
        if variant == "fixed":
            poster.spacing = 5.5  # the pause every send took before issue 27
        start_sim, start_wall = clock.t, time.perf_counter()
        for k in range(pms):
            nick = NICKS[k % len(NICKS)]
            poster.send_pm(nick, f"Ваша роль, {nick}: мирный житель.", "Роль")
        wall = time.perf_counter() - start_wall
        assert len(board.sent) == pms
    return {"host_waits_s": clock.t - start_sim, "slept_s": sum(clock.slept),
            "refusals": board.refusals, "http_wall_s": wall,
            "requests": len(board.log)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pms", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--latency", type=float, default=0.15)
    ap.add_argument("--one", nargs=2, metavar=("VARIANT", "SPAM"))
    args = ap.parse_args()
    if args.one:
        print(json.dumps(one_run(args.one[0], float(args.one[1]), args.latency, args.pms)))
        return
    for spam, who in ((5.0, "member (spamWaitTime 5 s)"), (2.0, "moderator (2 s)")):
        got: dict[str, list[dict[str, Any]]] = {"fixed": [], "learned": []}
        for r in range(args.rounds):
            order = ("fixed", "learned") if r % 2 == 0 else ("learned", "fixed")
            for variant in order:
                out = subprocess.run(
                    [sys.executable, __file__, "--one", variant, str(spam), "--pms",
                     str(args.pms), "--latency", str(args.latency)],
                    capture_output=True, text=True, check=True)
                got[variant].append(json.loads(out.stdout))
        print(f"{who}, {args.pms} PMs, {args.latency} s a request, {args.rounds} rounds:")
        for variant, runs in got.items():
            wait = median(x["host_waits_s"] for x in runs)
            print(f"  {variant:8} host waits {wait:6.1f} s ({wait / args.pms:.2f} s a PM), "
                  f"refusals {median(x['refusals'] for x in runs):.0f}, "
                  f"requests {median(x['requests'] for x in runs):.0f}, "
                  f"HTTP wall {median(x['http_wall_s'] for x in runs):.2f} s")


if __name__ == "__main__":
    main()
