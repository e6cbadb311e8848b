"""Bring the game database up to date with the forum (issue 3).

Incremental by design: a topic of 400 pages is read in full once; later syncs start from
the last stored page. When nothing changed, a sync costs exactly one request (the last
stored page, still the last page); with k new pages it costs k+1. Every page is stored in
its own transaction, so a failure halfway keeps what was read and the next sync continues
from there.

What a later read reveals is kept, not overwritten: an edited post gets a new revision
(docs/rules.md V4 needs the first text), a vanished post is marked missing.

PM sync lists the folders and reads only PMs not stored yet. An engine that can read a
whole folder page in one request (:class:`~referee.core.kernel.PmFolderExport`: phpBB's folder
export) is asked for those, one request per page, nothing marked read; what it cannot give
is opened one PM at a time — once each, since opening a PM on phpBB marks it read for the
host (research gotcha 12) — and the sync line says so once.
"""

from __future__ import annotations

import hashlib
import logging
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from itertools import chain
from pathlib import Path
from typing import TYPE_CHECKING

from rapidfuzz import fuzz

from referee.config.game import Config
from referee.core.errors import PmRemoved
from referee.core.kernel import (
    Forum,
    PageCursor,
    PmFolderExport,
    PmFolderPage,
    PmListEntry,
    PrivateMessage,
    SavedVersions,
    TopicPage,
)
from referee.core.nicks import normalise
from referee.store import Store

if TYPE_CHECKING:  # the HTTP client loads when a sync opens the forum (issue 30 item 3)
    from adapters.base import Secret

log = logging.getLogger("referee.store.sync")


@dataclass(frozen=True, slots=True)
class SyncReport:
    """What one topic sync did."""

    topic_id: int | None
    title: str
    start_page: int
    last_page: int
    total_pages: int
    pages_fetched: int
    pages_changed: int
    new_posts: int
    edited_posts: int
    missing_posts: int
    requests: int
    rechecked: tuple[int, ...] = ()
    """Pages before the resume point read again for edits and deletions (the caller's
    choice: the pages of the day that is open)."""
    notes: tuple[str, ...] = ()
    """What the host should know about how pages were stored (posts out of order, posts
    gone from their page)."""
    vanished: tuple[tuple[int, str, int], ...] = ()
    """Posts gone from their page in this sync: (post id, author, page)."""
    total_posts: int | None = None
    """The topic's post count as its last page read shows it, where the engine shows it
    (a cheap sign of a change above: :func:`referee.game.reread.count_changed`)."""

    def with_held(self, held: Callable[[int], str]) -> SyncReport:
        """The report whose lines about vanished posts say what each post held."""
        gone = {vanished_note(pid, a, page): vanished_note(pid, a, page, held(pid))
                for pid, a, page in self.vanished}
        return replace(self, notes=tuple(gone.get(n, n) for n in self.notes))

    @property
    def changed(self) -> bool:
        return bool(self.new_posts or self.edited_posts or self.missing_posts)

    def summary(self) -> str:
        """One line for the host; counts after a colon, so no noun has to agree with them."""
        pages = (f"{self.start_page}–{self.last_page}" if self.last_page != self.start_page
                 else f"{self.start_page}")
        read = f"прочитаны стр. {pages} из {self.total_pages}"
        if self.rechecked:
            read += f", перечитаны стр. {_ranges(self.rechecked)} (правки и удаления)"
        parts = [f"новых сообщений: {self.new_posts}"]
        if self.edited_posts:
            parts.append(f"изменено: {self.edited_posts}")
        if self.missing_posts:
            parts.append(f"исчезло: {self.missing_posts} (сохранены, помечены)")
        parts.append(f"запросов к форуму: {self.requests}")
        return f"тема {self.topic_id}: {read}; " + ", ".join(parts)


FOLDERS_RU = {"inbox": "входящие", "sentbox": "отправленные", "outbox": "исходящие"}


def _runs(pages: tuple[int, ...]) -> list[list[int]]:
    """``(2, 3, 4, 7)`` → ``[[2, 3, 4], [7]]``: the runs of consecutive pages."""
    runs: list[list[int]] = []
    for n in pages:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return runs


def _ranges(pages: tuple[int, ...]) -> str:
    """``(2, 3, 4, 7)`` → ``2–4, 7``."""
    return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 1 else f"{r[0]}" for r in _runs(pages))


@dataclass(frozen=True, slots=True)
class PmSyncReport:
    """What one PM sync did."""

    folders: tuple[str, ...]
    listed: int
    opened: int
    new_pms: int
    removed: tuple[int, ...]
    requests: int
    exported: int = 0
    """New PMs read from folder pages in one request each (nothing marked read)."""
    export_unavailable: str = ""
    """Why the engine's folder export could not be used (then PMs were opened)."""
    marked_read: int = 0
    """The host's unread PMs the forum marked read as it showed them (an engine that
    cannot show a PM otherwise: SMF 2.1), said once in the line."""

    def summary(self) -> str:
        folders = ", ".join(FOLDERS_RU.get(f, f) for f in self.folders)
        text = (f"ЛС ({folders}): в списке {self.listed}, новых {self.new_pms}, "
                f"запросов к форуму: {self.requests}")
        if self.exported:
            text += f"; прочитано страницами папки: {self.exported}, на форуме не прочитаны"
        if self.export_unavailable and self.opened:
            text += (f"; выгрузка папки недоступна ({self.export_unavailable}): открыто по "
                     f"одному: {self.opened}, теперь прочитаны на форуме")
        if self.marked_read:
            text += (f"; форум отметил прочитанными: {self.marked_read} (так он отмечает "
                     "каждое ЛС, текст которого показывает, а по-другому текст не отдаёт)")
        if self.removed:
            text += f"; удалены авторами до прочтения: {len(self.removed)}"
        return text


def _utcnow() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class SyncProgress:
    """How far a topic sync has come: what a progress bar shows."""

    pages_read: int
    pages_to_read: int
    """Pages this sync reads in all, as far as the pages read so far tell."""
    new_posts: int


ProgressCallback = Callable[[SyncProgress], None]
"""Told after every page a sync stores (the CLI draws it; the library prints nothing)."""


def sync_topic(
    config: Config,
    store: Store,
    adapter: Forum,
    *,
    progress: ProgressCallback | None = None,
    full: bool = False,
    now: Callable[[], datetime] = _utcnow,
    recheck: Iterable[int] = (),
) -> SyncReport:
    """Read the game topic into ``store``, from the last stored page on.

    ``recheck`` names pages before that to read again first — the caller knows which
    matter (:meth:`referee.game.Game.sync`: those holding the open day's posts), so that
    an edited or deleted vote there is seen without reading the whole topic. ``full``
    re-reads every page from page 1 (edits and deletions anywhere).
    """
    topic_id = adapter.topic_id
    last = store.last_synced_page(topic_id) if topic_id is not None and not full else None
    start = last or 1
    per_page = store.topic_per_page(topic_id) if topic_id is not None else None
    again = tuple(sorted({n for n in recheck if 1 <= n < start})) if last else ()
    before = adapter.requests
    fetched = changed = new = edited = missing = 0
    notes: list[str] = []
    vanished: list[tuple[int, str, int]] = []
    title = ""
    first_page = last_page = total = start
    total_posts: int | None = None
    pages = chain(((True, tp) for tp in _pages_again(adapter, again, per_page)),
                  ((False, tp) for tp in _pages_in_order(adapter, store, start, per_page,
                                                         resume=last is not None)))
    before_page: TopicPage | None = None
    resumed = False
    for rechecking, read in pages:
        tp = _in_topic_order(adapter, read, per_page, notes)
        # The page before, read just now, bounds this one: a post deleted from between
        # the two (the first of this page) is then noticed as missing.
        after = (before_page.posts[-1] if before_page is not None and before_page.posts
                 and before_page.page == tp.page - 1 else None)
        saved = store.save_topic_page(tp, now(), url=_page_url(adapter, tp.page),
                                      after=after)
        before_page = tp
        if not rechecking:
            first_page = first_page if resumed else tp.page
            resumed = True
            last_page = tp.page
        fetched += 1
        changed += 0 if saved.unchanged else 1
        new += saved.new_posts
        edited += saved.edited_posts
        missing += saved.missing_posts
        notes += [vanished_note(pid, author, tp.page) for pid, author in saved.vanished]
        vanished += [(pid, author, tp.page) for pid, author in saved.vanished]
        title = tp.title or title
        total = tp.total_pages
        if not rechecking:
            total_posts = tp.total_posts
        if topic_id is None:
            topic_id = saved.topic_id
        if progress is not None:
            to_read = len(again) + tp.total_pages - first_page + 1
            progress(SyncProgress(fetched, max(fetched, to_read), new))
    return SyncReport(
        topic_id=topic_id, title=title, start_page=first_page, last_page=last_page,
        total_pages=total, pages_fetched=fetched, pages_changed=changed, new_posts=new,
        edited_posts=edited, missing_posts=missing, requests=adapter.requests - before,
        rechecked=again, notes=tuple(notes), vanished=tuple(vanished),
        total_posts=total_posts,
    )


def vanished_note(post_id: int, author: str, page: int, held: str = "") -> str:
    """The line about a post gone from its page; ``held`` says what it held in the day's
    count (:func:`referee.game.daystate.post_held`: the sync alone does not know)."""
    return (f"сообщение #{post_id} ({author}) пропало со страницы {page} темы (удалено или "
            f"скрыто): сохранено" + (f"; {held}" if held else ""))


def _pages_again(adapter: Forum, pages: tuple[int, ...],
                 per_page: int | None) -> Iterator[TopicPage]:
    """The pages named, read again: one pass of ``fetch_topic_pages`` per run of
    consecutive pages."""
    for run in _runs(pages):
        yield from _read_run(adapter, run[0], run[-1], per_page)


def _read_run(adapter: Forum, first: int, last: int,
              per_page: int | None) -> Iterator[TopicPage]:
    """Pages ``first`` … ``last`` (fewer when the topic has shrunk below them), each saved
    version of the last one when the source holds several (:class:`SavedVersions`)."""
    pages = adapter.fetch_topic_pages(PageCursor(first, per_page))
    seen = 0
    try:
        for tp in pages:
            yield tp
            if tp.page >= last or tp.page >= tp.total_pages:
                seen += 1
                if not isinstance(adapter, SavedVersions) or seen >= adapter.versions_of(
                        tp.page):
                    return
    finally:
        close = getattr(pages, "close", None)
        if callable(close):
            close()


def _in_order(page: TopicPage) -> bool:
    keys = [(p.posted_at, p.post_id) for p in page.posts]
    return keys == sorted(keys)


def _in_topic_order(adapter: Forum, tp: TopicPage, per_page: int | None,
                    notes: list[str]) -> TopicPage:
    """``tp`` with its posts in topic order (time, then id). A page that shows them out of
    order is read once more (a board caught mid-change); if it stays so, its posts are
    stored in topic order, and the host is told."""
    if _in_order(tp):
        return tp
    again = next((p for p in _read_run(adapter, tp.page, tp.page, per_page)
                  if p.page == tp.page), None)
    if again is not None and _in_order(again):
        return again
    page = again or tp
    log.info("page %s shows its posts out of order twice; storing them in time order",
             page.page)
    notes.append(f"на странице {page.page} темы сообщения не по порядку времени; они "
                 "сохранены по времени (проверьте сортировку темы на форуме)")
    posts = sorted(page.posts, key=lambda p: (p.posted_at, p.post_id))
    return replace(page, posts=tuple(replace(p, position=i)
                                     for i, p in enumerate(posts, start=1)))


MAX_STEPS_BACK = 8
"""How often one sync goes back to re-read pages whose posts moved (a bound against a
board that keeps deleting while it is read)."""


def _pages_in_order(
    adapter: Forum, store: Store, start: int, per_page: int | None, *, resume: bool
) -> Iterator[TopicPage]:
    """``adapter.fetch_topic_pages(start)``, going back when posts may have slid onto a page
    already read — a deleted post moves every later post back by one place, so a post not
    read yet can land on a page that will not be read again:

    - the page an incremental sync resumes on starts with a post never stored: posts above
      it were deleted since the last sync, and posts written since may sit on the page
      before (``resume``);
    - a page counts fewer posts in the topic than the page read before it: posts were
      deleted during this sync, and the first posts of this page slid onto the pages read.
    """
    steps = 0
    check_resume = resume and start > 1
    while True:
        back_to: int | None = None
        count: int | None = None
        pages = adapter.fetch_topic_pages(PageCursor(start, per_page))
        for tp in pages:
            if check_resume:
                check_resume = False
                if tp.page > 1 and tp.posts and not store.has_post(tp.posts[0].post_id):
                    back_to = tp.page - 1
                    check_resume = True  # the page before may start with a new post too
            elif count is not None and tp.total_posts is not None and tp.total_posts < count:
                gone = count - tp.total_posts
                back_to = max(1, tp.page - -(-gone // max(1, tp.per_page)))
            if back_to is not None and steps < MAX_STEPS_BACK:
                break
            back_to = None
            count = tp.total_posts
            yield tp
        if back_to is None:
            return
        close = getattr(pages, "close", None)
        if callable(close):
            close()
        log.info("posts moved back while the topic was read; reading again from page %s",
                 back_to)
        steps += 1
        start, per_page = back_to, None  # the adapter keeps the page size it learned


def _page_url(adapter: Forum, page: int) -> str:
    try:
        return adapter.topic_page_url(page)
    except Exception:  # the URL is a note in the store, never a reason to fail a sync
        return ""


def sync_pms(
    config: Config,
    store: Store,
    adapter: Forum,
    *,
    sent: bool = False,
    now: Callable[[], datetime] = _utcnow,
) -> PmSyncReport:
    """List the inbox — and with ``sent`` the sent folders — and read each PM not stored
    yet: by folder page when the engine can (:class:`PmFolderExport`), else by opening it.
    Every PM is stored, whoever sent it (docs/rules.md N1 decides later what counts)."""
    folders = ("inbox",) + (("sentbox", "outbox") if sent or config.forum.read_sent else ())
    reading = _PmReading(store, adapter, now, store.known_pm_ids())
    before = adapter.requests
    marked = getattr(adapter, "marked_read", 0)
    for folder in folders:
        # Folders are listed newest first. Once a listing has gone to the end, a later sync
        # may stop at the first page holding only PMs it knows, or ending with one it knew
        # before: everything older is known too. A listing cut short (a crash, a network
        # error) leaves the flag unset, so the next sync lists every page again and misses
        # nothing.
        flag = f"pm_listing_complete:{folder}"
        may_stop = store.get_meta(flag) == "1" and bool(reading.known)
        known_before = set(reading.known)
        store.set_meta(flag, "0")
        page, total = 1, 1
        while page <= total:
            fp = adapter.fetch_pm_folder(folder, page)
            total = fp.total_pages
            if may_stop and fp.entries and all(e.pm_id in reading.known for e in fp.entries):
                break
            reading.page(fp, folder)
            if may_stop and fp.entries and fp.entries[-1].pm_id in known_before:
                break  # a new PM or two above known ones (issue 30: no page 2 for them)
            page += 1
        store.set_meta(flag, "1")
    return PmSyncReport(
        folders=folders, listed=reading.listed, opened=reading.opened, new_pms=reading.new,
        removed=tuple(reading.removed), requests=adapter.requests - before,
        exported=reading.exported, export_unavailable=reading.unavailable,
        marked_read=getattr(adapter, "marked_read", 0) - marked,
    )


@dataclass
class _PmReading:
    """One PM sync's reading of folder pages: what is known, what was read, and how."""

    store: Store
    adapter: Forum
    now: Callable[[], datetime]
    known: set[int]
    listed: int = 0
    opened: int = 0
    new: int = 0
    exported: int = 0
    unavailable: str = ""
    removed: list[int] = field(default_factory=list)

    def page(self, fp: PmFolderPage, folder: str) -> None:
        wanted: list[PmListEntry] = []
        for entry in fp.entries:
            self.listed += 1
            if entry.pm_id not in self.known:
                self.known.add(entry.pm_id)  # never read twice, even when listed twice
                wanted.append(entry)
        if wanted and isinstance(self.adapter, PmFolderExport) and not self.unavailable:
            batch = self.adapter.export_pm_folder_page(fp, wanted)
            for pm in batch.pms:
                self.exported += 1
                self._save(pm)
            wanted = list(batch.missing)
            self.unavailable = batch.unavailable
        for entry in wanted:
            try:
                pm = self.adapter.fetch_pm(entry, folder)
            except PmRemoved:
                self.removed.append(entry.pm_id)
                continue
            self.opened += 1
            self._save(pm)

    def _save(self, pm: PrivateMessage) -> None:
        if self.store.save_pm(pm, self.now()):
            self.new += 1


# --------------------------------------------------------------------------- sent before?

_BBCODE_TAG = re.compile(r"\[/?[a-z*]+(?:=[^\]]*)?\]", re.IGNORECASE)
_NOT_WORD = re.compile(r"[\W_]+")
_NUMBERS = re.compile(r"\d+")
SAME_TEXT_RATIO = 95.0
"""rapidfuzz ratio from which a post on the forum is the message sent (the forum may render
a list, a quote or a smiley a little differently), when its numbers are the same."""


def plain_words(text: str) -> str:
    """A message as words only: BBCode tags, punctuation, case and ё/е gone — what stays
    the same between the BBCode sent and the text the forum shows."""
    text = _BBCODE_TAG.sub(" ", text).lower().replace("ё", "е")
    return " ".join(_NOT_WORD.sub(" ", text).split())


def fingerprint(text: str) -> str:
    """The fingerprint of a message's text (:func:`plain_words`, hashed): what a rerun looks
    for on the forum after a crash (issue 26: exactly once)."""
    return hashlib.sha256(plain_words(text).encode("utf-8")).hexdigest()[:32]


def same_message(sent: str, seen: str) -> bool:
    """Whether ``seen`` (a post or PM as the forum shows it) is the message ``sent``: the
    same fingerprint, or nearly the same words with exactly the same numbers (a count is
    never mistaken for another count)."""
    a, b = plain_words(sent), plain_words(seen)
    if a == b:
        return True
    if _NUMBERS.findall(a) != _NUMBERS.findall(b):
        return False
    return fuzz.ratio(a, b) >= SAME_TEXT_RATIO


def find_sent(store: Store, *, kind: str, recipient: str, body: str, sender: str,
              since: datetime) -> int | None:
    """The forum's id of the host's post (``kind = "post"``) or sent PM (``"pm"`` to
    ``recipient``) with ``body``'s text, written at ``since`` or later, among what the store
    holds (sync first); None when there is none. ``0`` when found without an id."""
    who = normalise(sender)
    if kind == "post":
        for p in reversed(store.posts()):
            if p.posted_at >= since and normalise(p.author) == who and same_message(
                    body, p.body_text):
                return p.post_id
        return None
    to = normalise(recipient)
    for pm in reversed(store.pms(since=since)):
        if pm.folder == "inbox" or normalise(pm.sender) != who:
            continue
        if to in {normalise(r) for r in pm.recipients} and same_message(body, pm.body_text):
            return pm.pm_id
    return None


def open_adapter(
    config: Config,
    *,
    password: Callable[[str], Secret] | None = None,
    db_path: Path | None = None,
) -> Forum:
    """The forum ``config`` names (live, or its saved pages: ``[forum] snapshot``), through
    the engine registry, with the session cookies kept beside the game database.

    Use it as a context manager (or call ``close()``) so the session is saved."""
    from adapters.base import cookie_path_for
    from adapters.registry import open_forum

    settings = config.forum.settings(cookie_path_for(db_path or config.db_path))
    return open_forum(settings, password)
