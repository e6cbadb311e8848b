"""Watch benchmark (issue 30): the requests of a 24-hour open day under ``referee watch
--every 10`` on the served game, and whether every edit of a vote is caught, and every
night request sent by day read, before the deadline's count.

The board (:mod:`board`, its own process) serves the planned game of :mod:`game_plan`
with its second day stretched to 24 hours: day 1 is over and recorded; day 2's 1,000
posts (40 pages) appear as the clock reaches each one's time, evenly through the day (a
post every ~90 s), the PMs of the plan's second night — sent during the stretched day,
so by day for the night after it (docs/rules.md N1) — reach the inbox at their times, and
``--edits`` of its votes are edited into a vote for another player 30–120 minutes after
they were posted (after the watch has seen them: V4 counts the first text and flags the
edit). Every 10 minutes of the fake clock one round does what the watch's round does
(``Game.sync(scheduled=…)`` on a fresh game), from the day's start to half an hour after
its deadline; the round one minute after the deadline records the day's count, as
``--tally-at-deadline`` does, and its V4 flags are checked against the edits, and the
PMs stored against those sent before the deadline.

Two sides on the same simulated day: *by habit* (``scheduled=False``: every round reads
every page of the open day again and the inbox, what the watch did before issue 30) and
*by need* (the defaults: ``[forum] reread_every = 240``, ``reread_before_deadline = 60``,
the inbox by day every ``pm_every_by_day = 60`` minutes, by night every round, always
once after a deadline). Requests are counted by the board, by kind; they do not depend
on the machine's load, so one run of each side is the figure (the wall and CPU time of
the day's rounds are printed beside).

``python benchmarks/bench_watch.py [--edits 5]``
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from board import BoardProcess  # noqa: E402
from game_plan import GamePosts, GameSite, GameTopic, Mailbox, Plan, make_plan, write_config  # noqa: E402
from timing import Took, load, timed  # noqa: E402

from referee.game import Game  # noqa: E402

EVERY = timedelta(minutes=10)
RED = re.compile(r'(<span style="color:[^"]+">)([^<]+)(</span>)')


class EditedPosts(GamePosts):
    """The plan's posts with some votes edited: the red nick changed to another one."""

    edited: dict[int, str]

    def __getitem__(self, k: int) -> Any:
        post = super().__getitem__(k)
        if k not in self.edited:
            return post
        to = self.edited[k]

        class Edited:
            def format(self, **kw: Any) -> str:
                return RED.sub(lambda m: m.group(1) + to + m.group(3), post.format(**kw),
                               count=1)
        return Edited()


class DaySite(GameSite):
    """The game's board whose topic shows the posts written up to the clock's time
    (``upto:K``: the first K posts), whose inbox the PMs sent up to it (``pms:K``: the
    first K) and whose votes get edited (``edit:K:nick``)."""

    def __init__(self, topic: GameTopic, mailbox: Mailbox) -> None:
        super().__init__(topic, mailbox)
        self.all_pms = list(mailbox.plan.pms)

    def control(self, name: str) -> None:
        what, _, arg = name.partition(":")
        posts = self.topic.blocks
        if what == "upto":
            self.topic.n_posts = int(arg)
        elif what == "pms":
            self.mailbox.plan.pms = self.all_pms[:int(arg)]
        elif what == "edit":
            k, nick = arg.split(":", 1)
            posts.edited[int(k)] = unquote(nick)  # type: ignore[attr-defined]
        else:
            raise ValueError(name)


def stretched(plan: Plan) -> Plan:
    """Day 2 of the plan made a 24-hour day (its night two hours after)."""
    d2 = plan.days[1]
    plan.days[1] = replace(d2, deadline=d2.start + timedelta(hours=24),
                           night_deadline=d2.start + timedelta(hours=26))
    return plan


def visible(plan: Plan, at: datetime) -> int:
    return sum(1 for k in range(plan.n_posts) if plan.time_of(k) <= at)


def sent_by(plan: Plan, at: datetime) -> int:
    """How many of the plan's PMs (sorted by time) are sent by ``at``."""
    return sum(1 for pm in plan.pms if pm.sent_at <= at)


def pick_edits(plan: Plan, n: int) -> list[tuple[int, str, datetime]]:
    """``n`` counted votes of day 2, each edited to another living nick 30–120 min after."""
    rng = random.Random(30)
    k0 = plan.posts_per_day
    day2 = sorted(k for k in plan.votes if k >= k0)
    out = []
    for k in rng.sample(day2, n):
        voter, target = plan.votes[k]
        other = next(x for x in plan.alive_on[2] if x not in (voter, target))
        out.append((k, other, plan.time_of(k) + timedelta(minutes=rng.randint(30, 120))))
    return sorted(out, key=lambda e: e[2])


def a_day(plan: Plan, folder: Path, *, scheduled: bool, edits: int) -> dict[str, Any]:
    """One simulated day on a fresh board: requests by kind, the V4 flags at the count."""
    topic = GameTopic(plan)
    posts = EditedPosts(plan, topic.blocks.template)  # type: ignore[attr-defined]
    posts.edited = {}  # changed in the board's process, by ``edit:K:nick``
    topic.blocks = posts  # type: ignore[assignment]
    d2 = plan.days[1]
    topic.n_posts = visible(plan, d2.start)
    board = BoardProcess(DaySite(topic, Mailbox(plan)))
    with board:
        config = write_config(plan, board.url, folder)
        db = folder / "game.db"
        board.control(f"pms:{sent_by(plan, d2.start)}")
        _round(config, db, d2.start - timedelta(minutes=5), lambda g: (
            g.sync(), g.tally_day(1)))                      # day 1 over and recorded
        board.reset()
        todo = pick_edits(plan, edits)
        edited = sorted(1000 + k for k, _, _ in todo)
        shown, at, flags, per_round = topic.n_posts, d2.start, None, []
        mail, pms_kept = sent_by(plan, d2.start), (0, 0)
        end = d2.deadline + timedelta(minutes=30)
        took = Took(0.0, 0.0)
        while at <= end:
            if (n := visible(plan, at)) != shown:
                board.control(f"upto:{n}")
                shown = n
            if (n := sent_by(plan, at)) != mail:
                board.control(f"pms:{n}")
                mail = n
            for k, nick, when in [e for e in todo if e[2] <= at]:
                board.control(f"edit:{k}:{quote(nick)}")
                todo.remove((k, nick, when))
            before = sum(board.stats().values())
            t = timed(lambda at=at: _round(config, db, at, lambda g: g.sync(
                scheduled=scheduled)))
            took = Took(took.wall + t.wall, took.cpu + t.cpu)
            per_round.append(sum(board.stats().values()) - before)
            if flags is None and at >= d2.deadline + timedelta(minutes=1):
                flags = _round(config, db, at, lambda g: [
                    f.post_id for f in g.tally_day(2).tally.flags if f.rule == "V4"])
                # Night requests sent by day count for the night (N1): all of them read.
                stored = _round(config, db, at, lambda g: {pm.pm_id for pm in g.store.pms()})
                due = {pm.pm_id for pm in plan.pms if pm.sent_at < d2.deadline}
                pms_kept = (len(due & stored), len(due))
            at += EVERY
        served = board.stats()
    return {"served": served, "requests": sum(served.values()), "rounds": len(per_round),
            "max_round": max(per_round), "one_request": per_round.count(1),
            "edited": edited, "v4": sorted(set(flags or [])), "pms": pms_kept,
            "caught": set(edited) <= set(flags or []) and pms_kept[0] == pms_kept[1],
            "wall": took.wall, "cpu": took.cpu}


def _round(config: Path, db: Path, at: datetime, op: Any) -> Any:
    game = Game.open(config, db, clock=lambda: at)
    try:
        return op(game)
    finally:
        game.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--edits", type=int, default=5)
    args = ap.parse_args(argv)
    print(f"load before: {load()}")
    rows = []
    for name, scheduled in (("by habit (before)", False), ("by need (now)", True)):
        with tempfile.TemporaryDirectory() as tmp:
            r = a_day(stretched(make_plan(2)), Path(tmp), scheduled=scheduled,
                      edits=args.edits)
        rows.append((name, r))
        print(name, r, flush=True)
    print("\n| watch --every 10, 24-hour day | topic pages | PM folder | all | most in a round "
          "| rounds at one request | edits of votes caught before the count "
          "| PMs sent by day read at the count | rounds' time (CPU) |")
    print("|---|---:|---:|---:|---:|---:|---|---|---:|")
    for name, r in rows:
        s = r["served"]
        print(f"| {name} | {s.get('topic', 0)} | {s.get('folder', 0) + s.get('export', 0)} "
              f"| {r['requests']} | {r['max_round']} | {r['one_request']}/{r['rounds']} | "
              f"{len(set(r['edited']) & set(r['v4']))}/{len(r['edited'])} | "
              f"{r['pms'][0]}/{r['pms'][1]} | {r['wall']:.1f} s ({r['cpu']:.1f} s) |")
    print(f"\nload after: {load()}")
    return 0 if all(r["caught"] for _, r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
