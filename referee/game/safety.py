"""Nothing wrong ever reaches the players (issue 26): the roster checked against the topic
(«сверка состава») and no count from half a topic («полнота данных»).

- **Roster against the topic.** A nick mistyped in ``[players]`` («Nika77» for the forum's
  «Nika-77») made a player who writes every day «не участвует в игре»: her votes dropped,
  herself «не проголосовала», then publicly removed for inactivity. So a listed player who
  never posted while an author outside the roster is one edit or look-alike letter away,
  or an author outside the roster whose posts look like votes, is a *doubt*: a warning
  naming both with the fix; the count is neither recorded nor posted while one stands,
  unless the host confirms (``--roster-ok``).
- **Completeness.** The store knows which pages of each topic it holds, how many the topic
  had when last read, and when it was read. A count over a window with a page never read
  or a hole between read pages is «НЕПОЛНЫЕ ДАННЫЕ»: never recorded, never posted; the
  note says what is missing and the command that fills it. The night's PMs likewise need
  a whole listing of the inbox. A topic last read before the window closed (``--offline``)
  is said in the host part.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from rapidfuzz import fuzz
from rapidfuzz.distance import Levenshtein

from referee.config.game import Config
from referee.core.nicks import Roster, fold, normalise
from referee.store import Store

INCOMPLETE = "НЕПОЛНЫЕ ДАННЫЕ"
"""The label of a count over a window the store does not hold whole (issue 26)."""

NOT_IN_GAME = "не участвует в игре"
"""The V5 reason of a vote by an author outside the roster (:mod:`referee.rules.day.count`)."""

LOOK_ALIKE_RATIO = 60.0
"""rapidfuzz ratio from which a listed nick is named as the probable player behind a vote
«не участвует в игре» (below it the host is told no listed nick is close)."""


# --------------------------------------------------------------------------- roster

@dataclass(frozen=True, slots=True)
class RosterDoubt:
    """An author outside ``[players]`` who may be a listed player, or who votes."""

    author: str
    player: str | None
    """The listed player who never posted and whose nick is one edit/look-alike away."""
    votes: int
    """The author's posts that look like votes."""

    def text(self) -> str:
        if self.player is not None:
            said = (f"в теме пишет «{self.author}», которого нет в [players], а игрок "
                    f"«{self.player}» не написал ни одного сообщения — похоже, это один "
                    "человек с опечаткой в нике")
        else:
            said = (f"в теме пишет «{self.author}», которого нет в [players], и "
                    f"{self.votes} его сообщ. похожи на голоса")
        nick = self.player or "Ник игрока"
        return (f"{said}. Если это игрок: добавьте в referee.toml [aliases] \"{nick}\" = "
                f"[\"{self.author}\"] (или исправьте ник в [players]) и запустите снова; "
                "если нет — подтвердите состав флагом --roster-ok")


def roster_nicks(config: Config) -> list[str]:
    """Everyone who plays: the listed players and the replacements who took a slot."""
    return [p.nick for p in config.players] + [r.player for r in config.replacements]


def roster_doubts(config: Config, posts: Iterable[Any]) -> list[RosterDoubt]:
    """The doubts the stored ``posts`` raise about ``[players]`` (see the module)."""
    texts: dict[str, list[str]] = {}
    for p in posts:
        if getattr(p, "missing_since", None) is None:
            texts.setdefault(p.author, []).append(p.body_text)
    return _doubts(config, texts, texts.__getitem__)


def stored_roster_doubts(config: Config, store: Store) -> list[RosterDoubt]:
    """:func:`roster_doubts` of every post the store holds, SQLite grouping them by
    author: each author is matched once and only outsiders' posts are read (issue 30: the
    check does not load the whole topic, it costs the same at any game length)."""
    return _doubts(config, store.post_authors(), store.texts_by)


def _doubts(config: Config, authors: Iterable[str],
            texts: Callable[[str], Iterable[str]]) -> list[RosterDoubt]:
    """The doubts of the topic's ``authors`` (in the order they first posted), ``texts``
    giving an author's posts' plain text."""
    nicks = roster_nicks(config)
    roster = Roster(nicks, config.aliases)
    host = normalise(config.host)
    phrases = [normalise(p) for p in config.votes.phrases]
    outsiders: list[str] = []
    posted: set[str] = set()
    for author in authors:
        if normalise(author) == host:
            continue
        m = roster.match(author)
        if m.kind in ("exact", "alias", "folded") and m.nick is not None:
            posted.add(m.nick)
        else:
            outsiders.append(author)
    silent = [n for n in dict.fromkeys(nicks) if n not in posted]
    doubts: list[RosterDoubt] = []
    for author in outsiders:
        votes = sum(any(ph in normalise(b) for ph in phrases) for b in texts(author))
        near = [n for n in silent if _one_edit(author, n)]
        player = near[0] if len(near) == 1 else None
        if player is not None or votes:
            doubts.append(RosterDoubt(author, player, votes))
    return doubts


def _one_edit(a: str, b: str) -> bool:
    """One edit or look-alike letters apart (punctuation and spaces aside)."""
    fa, fb = fold(a), fold(b)
    bare_a, bare_b = ("".join(c for c in f if c.isalnum()) for f in (fa, fb))
    return Levenshtein.distance(fa, fb) <= 1 or (bare_a == bare_b and bool(bare_a))


def probable_player(config: Config, author: str) -> str | None:
    """The listed nick closest to ``author`` (rapidfuzz), when one is close at all."""
    best, score = None, 0.0
    for nick in roster_nicks(config):
        s = fuzz.ratio(fold(author), fold(nick))
        if s > score:
            best, score = nick, s
    return best if score >= LOOK_ALIKE_RATIO else None


def not_in_game_notes(config: Config, rejected: Sequence[Any]) -> list[str]:
    """For every vote refused «не участвует в игре», the probable player it came from."""
    out: list[str] = []
    for r in rejected:
        if not any(n.text.endswith(NOT_IN_GAME) for n in r.notes):
            continue
        nick = probable_player(config, r.voter)
        out.append(
            f"голос из сообщения #{r.post_id} от «{r.voter}» не засчитан ({NOT_IN_GAME}): "
            + (f"вероятно, это игрок «{nick}» — если так, добавьте [aliases] \"{nick}\" = "
               f"[\"{r.voter}\"] и пересчитайте" if nick else
               "похожего ника в [players] нет"))
    return out


# --------------------------------------------------------------------------- completeness

def topic_gaps(store: Store, start: datetime, end: datetime) -> list[str]:
    """What the store lacks of the topic posts written in ``[start, end)``: pages never
    read (a sync cut short, or one still running on a new game) and holes between read
    pages. Empty when it holds them whole."""
    rows = store.page_rows(times=False)
    if not rows:
        return ["тема ещё не прочитана"]
    if any(n not in have for _, have, total in _topics(rows, start)
           for n in range(1, total + 1)):
        # A page not read: the times of the read pages around it say whether it may hold
        # posts of the window. Only then are the posts read (issue 30: a whole topic costs
        # the pages table alone).
        rows = store.page_rows()
    gaps: list[str] = []
    for topic, have, total in _topics(rows, start):
        holes = [n for n in range(1, total + 1) if n not in have
                 and _may_hold(have, n, start, end)]
        if holes:
            gaps.append(f"тема t={topic}: не прочитаны стр. {_pages(holes)} из {total}")
    return gaps


def _topics(rows: list[dict[str, Any]], start: datetime
            ) -> Iterator[tuple[int, dict[int, dict[str, Any]], int]]:
    """Per topic: its read pages by number, and how many pages it has (the latest read's
    count, a page of unknown reading time taken as read at ``start``; or the highest page
    read)."""
    by_topic: dict[int, list[dict[str, Any]]] = {}
    for r in rows:
        by_topic.setdefault(r["topic_id"], []).append(r)
    for topic, pages in by_topic.items():
        have = {r["page"]: r for r in pages}
        last = max(pages, key=lambda r: (r["fetched_at"] or start, r["page"]))
        yield topic, have, max(last["total_pages"] or 0, max(have))


def stale_reads(store: Store, end: datetime, now: datetime) -> list[str]:
    """Topics whose last page was last read before ``end`` while ``end`` has passed: posts
    written after that read are not seen (a run with ``--offline``). Said, not held: the
    pages read are whole, and the host chose not to read the forum."""
    out = []
    tops: dict[int, dict[str, Any]] = {}
    for r in store.page_rows(times=False):
        if r["page"] >= tops.get(r["topic_id"], {"page": 0})["page"]:
            tops[r["topic_id"]] = r
    for topic, top in tops.items():
        read_at = top["fetched_at"]
        if now >= end and read_at is not None and read_at < end:
            out.append(f"тема t={topic} последний раз прочитана {read_at:%d.%m %H:%M} UTC, "
                       "до конца окна: сообщения после этого не видны")
    return out


def _may_hold(have: dict[int, dict[str, Any]], n: int, start: datetime,
              end: datetime) -> bool:
    """Whether the unread page ``n`` may hold posts of ``[start, end)``: the read pages
    around it bound its posts' times."""
    below = [have[k]["last_at"] for k in have if k < n and have[k]["last_at"]]
    above = [have[k]["first_at"] for k in have if k > n and have[k]["first_at"]]
    lo = max(below) if below else None
    hi = min(above) if above else None
    return (lo is None or lo < end) and (hi is None or hi >= start)


def _pages(numbers: list[int]) -> str:
    runs: list[list[int]] = []
    for n in numbers:
        if runs and n == runs[-1][-1] + 1:
            runs[-1].append(n)
        else:
            runs.append([n])
    return ", ".join(f"{r[0]}–{r[-1]}" if len(r) > 1 else f"{r[0]}" for r in runs)


def pm_gaps(store: Store) -> list[str]:
    """What the store lacks of the host's PMs: a folder whose listing was cut short."""
    out = []
    for folder, name in (("inbox", "входящие"), ("sentbox", "отправленные")):
        if store.get_meta(f"pm_listing_complete:{folder}") == "0":
            out.append(f"список ЛС ({name}) прочитан не до конца")
    return out


def incomplete_note(gaps: Sequence[str], what: str) -> str:
    """The host-part line of a count over an incomplete window."""
    return (f"{INCOMPLETE}: {what} посчитан(а) не по всем сообщениям — "
            + "; ".join(gaps) + ". Итог не записан и не публикуется; дочитайте: "
            "referee sync (или referee sync --full, если страницы пропущены в середине), "
            "затем запустите команду снова")


# --------------------------------------------------------------------------- the hold

@dataclass(frozen=True, slots=True)
class Hold:
    """What stands against recording or posting a count: ``notes`` for the host part,
    ``reasons`` (empty: nothing stands)."""

    notes: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()


def hold(game: Any, start: datetime, end: datetime, what: str, *, pms: bool = False) -> Hold:
    """Whether a count over ``[start, end)`` may be recorded or posted (issue 26): the
    window read whole, the roster not in doubt (or confirmed, ``game.roster_ok``); and
    the posts of the window that were read with «�» named for the host."""
    cache = game.__dict__.setdefault("_holds", {})
    if cache.get("version") != game.version:  # worked out once per state of the store
        cache.clear()
        cache["version"] = game.version
    key = (start, end, what, pms, getattr(game, "roster_ok", False))
    if key not in cache:
        cache[key] = _hold(game, cache, start, end, what, pms=pms)
    return cache[key]


def _hold(game: Any, cache: dict[Any, Any], start: datetime, end: datetime, what: str, *,
          pms: bool) -> Hold:
    store: Store = game.store
    notes: list[str] = []
    reasons: list[str] = []
    gaps = topic_gaps(store, start, end) + (pm_gaps(store) if pms else [])
    if gaps:
        notes.append(incomplete_note(gaps, what))
        reasons.append(INCOMPLETE)
    notes += [f"{s} — запустите команду без --offline" for s in stale_reads(store, end, game.now)]
    if "doubts" not in cache:
        cache["doubts"] = stored_roster_doubts(game.config, store)
    doubts = cache["doubts"]
    if doubts and not getattr(game, "roster_ok", False):
        notes += [f"СОСТАВ ПОД СОМНЕНИЕМ: {d.text()}" for d in doubts]
        notes.append("Пока сомнение в составе стоит, итог не записывается и не публикуется.")
        reasons.append("состав")
    notes += [f"сообщение #{post_id} ({author}) прочитано с испорченными байтами "
              "(«�» на их месте): ведущему проверить его на форуме"
              for post_id, author in store.spoilt_posts(start, end)]
    return Hold(tuple(notes), tuple(reasons))


__all__ = ["INCOMPLETE", "NOT_IN_GAME", "Hold", "RosterDoubt", "hold", "incomplete_note",
           "not_in_game_notes", "pm_gaps", "probable_player", "roster_doubts", "stale_reads",
           "stored_roster_doubts", "topic_gaps"]
