"""Reading the game's topic(s) and the host's PMs into the store (``referee sync``,
``referee watch``), with the open day's pages read again as :mod:`referee.game.reread` says."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from referee.config.game import Config
from referee.game.core import GameCore
from referee.game.results import _sync_warnings

if TYPE_CHECKING:  # the HTTP client loads when a command syncs, not with the game (issue 30)
    from referee.store.sync import ProgressCallback, Secret, SyncReport


class Reading:
    """The topic and the inbox read into the store. ``held_text``: what a post gone from its
    page held, by the day's count (tally's rule) — the day part answers it."""

    def __init__(self, core: GameCore, held_text: Callable[[int], str]) -> None:
        self.core = core
        self._post_held_text = held_text

    def sync(self, *, sent: bool = False, full: bool = False,
             progress: ProgressCallback | None = None, pms: bool | None = None,
             password: Callable[[str], Secret] | None = None,
             scheduled: bool = False) -> list[str]:
        """Read new pages of the game topic (and of ``[forum] vote_url``, the separate voting
        topic, when set) and the host's new PMs; returns one summary line per source.

        PMs are read when a login is configured or the source is a snapshot folder: by
        folder page where the engine can, else each opened once (see :mod:`referee.store.sync`).
        ``password`` asks for the forum password when a login needs one (the command line's
        asks with its progress bar stopped). ``scheduled`` (``referee watch``, ``referee
        sync``): the open day's earlier pages are read again by need, not at every sync, and
        the inbox on its own cadence unless ``sent``, ``full`` or ``pms`` ask for it
        (:mod:`referee.game.reread`).
        """

        from referee.store.sync import open_adapter

        lines: list[str] = []
        adapter = open_adapter(self.core.config, password=password, db_path=self.core.store.path)
        try:
            report = self._sync_topic(self.core.config, adapter, progress, full, scheduled)
            report = report.with_held(self._post_held_text)
            lines.append(report.summary())
            lines += _sync_warnings(adapter, report)
            board = self.core.config.forum.board
            read_pms = pms if pms is not None else (
                board.snapshot is not None or bool(board.username))
            if read_pms:
                lines.append(self._sync_pms(adapter, sent=sent, by_need=(
                    scheduled and pms is None and not sent and not full)))
        finally:
            adapter.close()
        if self.core.config.forum.vote_url and self.core.config.forum.board.snapshot is None:
            forum = self.core.config.forum
            board = replace(forum.board, url=forum.vote_url)
            votes_config = replace(self.core.config, forum=replace(forum, board=board))
            adapter = open_adapter(votes_config, password=password, db_path=self.core.store.path)
            try:
                lines.append("голосование: " + self._sync_topic(
                    votes_config, adapter, progress, full, scheduled).summary())
            finally:
                adapter.close()
        from referee.game.safety import stored_roster_doubts

        # Issue 26: a mistyped nick in [players] is said as soon as the topic shows it.
        lines += [f"! {d.text()}" for d in stored_roster_doubts(self.core.config,
                                                                self.core.store)]
        return lines

    def _sync_pms(self, adapter: Any, *, sent: bool, by_need: bool) -> str:
        """The inbox read (:func:`referee.store.sync.sync_pms`); ``by_need``: only when its
        cadence says so (:func:`referee.game.reread.pms_due`)."""
        from referee.game import reread
        from referee.store.sync import sync_pms

        if by_need and not reread.pms_due(self.core):
            return reread.pms_left(self.core)
        at = self.core.now
        line = sync_pms(self.core.config, self.core.store, adapter, sent=sent).summary()
        reread.remember_pms(self.core.store, at)  # listed to the end: sync_pms raises otherwise
        return line

    def _sync_topic(self, config: Config, adapter: Any, progress: ProgressCallback | None,
                    full: bool, scheduled: bool) -> SyncReport:
        """One topic read (:func:`referee.store.sync.sync_topic`) with the pages of the open day
        read again as :mod:`referee.game.reread` says; when the last page shows a post count the
        store does not hold, the pages left are read too (a sign of a change above)."""
        from referee.game import reread
        from referee.store.sync import sync_topic

        at = self.core.now
        days = reread.plan(self.core, adapter.topic_id, scheduled=scheduled)
        report = sync_topic(config, self.core.store, adapter, progress=progress, full=full,
                            recheck=reread.pages(days))
        left = [p for p in reread.pages(days, all_of_them=True)
                if p < report.start_page and p not in report.rechecked]
        if left and reread.count_changed(self.core.store, report):
            more = sync_topic(config, self.core.store, adapter, recheck=left)
            report = replace(report, rechecked=tuple(sorted({*report.rechecked, *left})),
                             requests=report.requests + more.requests,
                             edited_posts=report.edited_posts + more.edited_posts,
                             missing_posts=report.missing_posts + more.missing_posts,
                             new_posts=report.new_posts + more.new_posts,
                             notes=report.notes + more.notes,
                             vanished=report.vanished + more.vanished)
        reread.remember(self.core.store, report, days, at)
        return report

    def pages_to_recheck(self, topic_id: int | None) -> list[int]:
        """The topic pages a sync by hand reads again: those holding posts of the day that
        is open and of the last day that has closed but is not recorded yet, so that an
        edited or deleted vote of that day is seen (V4) without reading the whole topic."""
        from referee.game import reread

        return reread.pages(reread.plan(self.core, topic_id, scheduled=False))

