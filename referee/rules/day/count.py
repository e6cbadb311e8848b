"""Counting one day (docs/rules.md V4–V6): each vote-like post through the day's checks, in order.

Pure: no I/O, no clock. :func:`tally` takes the day's posts in time order, reads each one
(V1–V3, :func:`~referee.rules.day.reading.find_vote`) in the text first seen of it (V4), and
passes it through :data:`CHECKS`. Each check is one rule: it writes on the
:class:`Ballot` why the vote does not count (a note with the rule's code) or on what
ground it does, and may settle the post, which ends its way. Every post that looked like a
vote and did not count is returned with every reason found, so the host can check each
decision. Who is hanged is :mod:`referee.rules.day.verdict` (V6). :func:`tally_read` counts votes
already read (a replay's) through the same checks: V4–V6 are written here and in the
verdict only, and ``history``, ``replay`` and ``export`` ask them.

A new day rule is one function here and one place in :data:`CHECKS`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime

from referee.config.game import DaySchedule, Replacement, VoteRules
from referee.core.errors import GameError
from referee.core.kernel import Post
from referee.core.nicks import Roster, normalise
from referee.rules.day.overrides import host_set
from referee.rules.day.reading import Note, VoteReading, find_vote
from referee.rules.day.result import Candidate, CountedVote, Flag, Move, Rejection, Tally
from referee.rules.day.verdict import Standing, absolute_majority, standings, verdict
from referee.rules.decisions import VoteDecision
from referee.rules.slots import Slots

PostItem = Post | Sequence[Post]


@dataclass(slots=True)
class _VoterState:
    vote: CountedVote | None = None
    changes: int = 0
    spent_by: int | None = None  # a post that used up the day's vote without counting


@dataclass(slots=True)
class Day:
    """What every check reads (the day's window, rules, living slots) and what the count
    holds so far: each player's vote, the posts that did not count, the host's log."""

    window: DaySchedule
    rules: VoteRules
    roster: Roster
    slots: Slots
    host: str
    """The host's nick, normalised."""
    alive: set[str]
    """The living players' slots (a replacement votes in his slot, V5)."""
    log: list[str]
    """What became of each host override, in order."""
    states: dict[str, _VoterState] = field(default_factory=dict)
    moves: list[Move] = field(default_factory=list)
    rejected: list[Rejection] = field(default_factory=list)
    flags: list[Flag] = field(default_factory=list)
    closed_early: CountedVote | None = None
    vanished: Mapping[int, datetime] = field(default_factory=dict)
    """Posts that have vanished from the topic since they were stored, and since when."""

    def votes_for(self, target: str) -> int:
        return sum(1 for st in self.states.values()
                   if st.vote is not None and st.vote.target == target)


@dataclass(slots=True)
class Ballot:
    """One vote-like post on its way through :data:`CHECKS`, with what the checks wrote."""

    post: Post
    reading: VoteReading
    edit_notes: list[Note]
    """V4: what the post's edits changed (shown with the vote, counted or not)."""
    decision: VoteDecision | None
    """The host's ``accept`` or ``reject`` of this post."""
    set_by_host: VoteDecision | None
    vanished: Note | None = None
    """The post has vanished from the topic (``deleted_vote``): shown with the vote."""
    hard: list[Note] = field(default_factory=list)
    """Why it does not count, and no host ``accept`` waives it (V2, V5, V6)."""
    soft: list[Note] = field(default_factory=list)
    """Why it does not count unless the host accepts it (V1, V3, V4 edit)."""
    by_host: bool = False
    voter_slot: str | None = None
    target_slot: str | None = None
    accepted_by: str = "V1–V5"
    vote: CountedVote | None = None
    done: bool = False
    """A check settled the post: the checks after it are not applied."""

    def reject(self, day: Day, notes: Sequence[Note]) -> None:
        day.rejected.append(_reject(self.reading, self.post.author, self.post.posted_at, notes))
        self.done = True


Check = Callable[[Day, Ballot], None]


# ------------------------------------------------------------------ the checks


def host_does_not_vote(day: Day, b: Ballot) -> None:
    """V5: the host's posts never vote."""
    if normalise(b.post.author) == day.host:
        b.by_host = True
        b.hard.append(Note("V5", "сообщение ведущего: ведущий не голосует"))


def voter_is_a_living_player(day: Day, b: Ballot) -> None:
    """V5: the voter plays, holds his slot at this post (replacements), and is alive."""
    if b.by_host:
        return
    author, pid, at = b.post.author, b.post.post_id, b.post.posted_at
    nick = _roster_nick(day.roster, author)
    if nick is None:
        b.hard.append(Note("V5", f"{author} не участвует в игре"))
        return
    b.voter_slot = day.slots.slot(nick)
    if normalise(day.slots.holder(b.voter_slot, pid, at)) != normalise(nick):
        b.hard.append(_not_holder(day.slots, nick, b.voter_slot, pid, at))
    elif b.voter_slot not in day.alive:
        b.hard.append(Note("V5", f"{author} выбыл из игры"))


def before_the_deadline(day: Day, b: Ballot) -> None:
    """V1, T2: a vote at the deadline or later is late."""
    if b.post.posted_at >= day.window.deadline:
        b.soft.append(Note("V1", "после дедлайна"))


def day_still_open(day: Day, b: Ballot) -> None:
    """V6 (early_majority): no vote counts after a majority closed the day."""
    if day.closed_early is not None:
        b.hard.append(Note("V6", f"день закрыт досрочно (сообщение "
                                 f"{day.closed_early.post_id}), большинство — "
                                 f"{day.closed_early.target}"))


def reading_holds(day: Day, b: Ballot) -> None:
    """V1–V3: what the post says as a vote (red nick next to «мой голос», the nick
    matched, a reason). A V2 problem (whose nick?) no host ``accept`` waives. For the
    host or a non-player V5 says it all."""
    if b.voter_slot is None:
        return
    for problem in b.reading.problems:
        (b.hard if problem.rule == "V2" else b.soft).append(problem)


def edit_allowed(day: Day, b: Ballot) -> None:
    """V4 (edited_vote): a vote changed by an edit counts flagged (``count_flagged``) or
    does not count (``void``, ``missed``)."""
    if b.edit_notes and day.rules.edited_vote != "count_flagged":
        b.soft.append(Note("V4", f"голос изменён правкой (edited_vote = "
                                 f"{day.rules.edited_vote})"))


def post_still_in_topic(day: Day, b: Ballot) -> None:
    """V1 (deleted_vote): a vote is a post in the game topic. A vote whose post has vanished
    since (deleted by its author, hidden by a moderator) is never silent: it counts flagged
    for the host (``count_flagged``) or does not count (``void``, the host may accept it)."""
    since = day.vanished.get(b.post.post_id)
    if since is None:
        return
    b.vanished = Note("V1", f"сообщение с голосом удалено из темы (не найдено при "
                            f"синхронизации {since:%d.%m %H:%M} UTC; deleted_vote = "
                            f"{day.rules.deleted_vote})")
    if day.rules.deleted_vote == "void":
        b.soft.append(b.vanished)


def target_alive(day: Day, b: Ballot) -> None:
    """V5: a vote for a dead or removed player does not count (voting for oneself does)."""
    if b.reading.target is None:
        return
    b.target_slot = day.slots.slot(b.reading.target)
    if b.target_slot not in day.alive:
        b.hard.append(Note("V5", f"голос за выбывшего игрока {b.reading.target}"))


def host_decision(day: Day, b: Ballot) -> None:
    """V3, the host's word: ``reject`` makes it no vote; ``accept`` waives V1/V3/V4-edit
    (never V2, V5 or V6) but needs a nick to count for; ``set`` named the target."""
    decision, author = b.decision, b.post.author
    if decision is not None and decision.action == "reject":
        day.log.append(f"{decision}: голос {author} не засчитан")
        b.reject(day, [Note("V3", rejected_by_host(decision.reason))])
    elif decision is not None and b.reading.target is None:  # accept, but for whom?
        b.hard.append(Note("V1", "ник не распознан: ведущий может указать его "
                                 f"(referee vote set {b.post.post_id} --target НИК)"))
        day.log.append(f"{decision}: не применён — в сообщении нет ника игрока")
    elif decision is not None:  # accept
        waived = "; ".join(map(str, b.soft))
        day.log.append(f"{decision}: принят ведущим вопреки «{waived}»" if b.soft
                       else f"{decision}: голос и так проходит по правилам")
        b.soft = []
        b.accepted_by = "ведущий (засчитал)"
    elif b.set_by_host is not None:
        b.accepted_by = "ведущий (указал, за кого)"


def rejected_by_host(reason: str) -> str:
    """«отклонён ведущим: флуд»; the bare words when the host gave no reason (or gave these
    same words: «отклонён ведущим: отклонён ведущим» was a decision recorded before)."""
    reason = reason.strip()
    return "отклонён ведущим" + (f": {reason}" if reason and reason != "отклонён ведущим" else "")


def every_rule_met(day: Day, b: Ballot) -> None:
    """V1–V6: a vote with any reason left against it does not count. With ``edited_vote =
    missed``, a vote voided only by its edit still spends the player's vote (V4)."""
    if not (b.hard or b.soft):
        return
    b.reject(day, b.hard + b.soft + b.edit_notes
             + ([b.vanished] if b.vanished is not None and b.vanished not in b.soft else []))
    only_edit = not b.hard and all(n.rule == "V4" for n in b.soft)
    if (b.voter_slot is not None and day.rules.edited_vote == "missed" and b.edit_notes
            and only_edit):
        st = day.states.setdefault(b.voter_slot, _VoterState())
        if st.vote is None and st.spent_by is None:
            st.spent_by = b.post.post_id


def one_vote_a_day(day: Day, b: Ballot) -> None:
    """V4 (changes): a player's first valid vote counts; a later one is ignored, or
    replaces it, as the ``changes`` setting says. A vote that counts carries its flags."""
    assert b.voter_slot is not None and b.target_slot is not None
    post, reading = b.post, b.reading
    notes = tuple(reading.flags) + tuple(b.edit_notes)
    if b.vanished is not None:
        notes += (b.vanished,)
    if b.decision is not None:
        notes += (Note("ведущий", "принят ведущим"),)
    vote = CountedVote(
        voter=post.author, target=b.target_slot, post_id=post.post_id, at=post.posted_at,
        typed=reading.typed, match_kind=reading.match_kind, accepted_by=b.accepted_by,
        flags=notes,
    )
    st = day.states.setdefault(b.voter_slot, _VoterState())
    old_target = st.vote.target if st.vote is not None else None
    ignored, replaced = _change(st, vote, day.rules)
    if ignored is not None:
        b.reject(day, [ignored, *b.edit_notes])
        return
    day.flags.extend(Flag(post.post_id, post.author, n.rule, n.text) for n in notes)
    if replaced is not None:
        day.rejected.append(Rejection(
            replaced.post_id, replaced.voter, replaced.at, replaced.typed, replaced.target,
            (Note("V4", f"голос заменён голосом из сообщения {post.post_id} (changes = "
                        f"{day.rules.changes})"),)))
    day.moves.append(Move(post.posted_at, post.post_id, post.author, old_target,
                          b.target_slot))
    b.vote = vote


def majority_closes_the_day(day: Day, b: Ballot) -> None:
    """V6 (early_majority): the vote that gives a player an absolute majority of the
    living players closes the day; no vote after it counts."""
    if (day.rules.early_majority and day.closed_early is None and b.vote is not None
            and day.votes_for(b.vote.target) >= absolute_majority(len(day.alive))):
        day.closed_early = b.vote


CHECKS: tuple[Check, ...] = (
    host_does_not_vote,
    voter_is_a_living_player,
    before_the_deadline,
    day_still_open,
    reading_holds,
    edit_allowed,
    post_still_in_topic,
    target_alive,
    host_decision,
    every_rule_met,
    one_vote_a_day,
    majority_closes_the_day,
)
"""docs/rules.md V1–V6, in the order a vote-like post meets them. The checks up to
``host_decision`` collect every reason (hard and soft); ``every_rule_met`` settles a post
with any reason left; the last two count the vote."""


def _change(st: _VoterState, vote: CountedVote, rules: VoteRules
            ) -> tuple[Note | None, CountedVote | None]:
    """V4 and the ``changes`` setting: does this valid vote replace the player's earlier one?
    Returns (why the new vote is ignored, the earlier vote it replaced)."""
    prev = st.vote
    if prev is None:
        if st.spent_by is not None:
            return Note("V4", f"голос дня уже потрачен сообщением {st.spent_by}"), None
        st.vote = vote
        return None, None
    if rules.changes == "forbidden":
        return Note("V4", f"голос уже отдан (сообщение {prev.post_id}, голос — {prev.target}): "
                          "менять голос нельзя"), None
    if prev.target == vote.target:
        return Note("V4", f"повторный голос за того же игрока (сообщение {prev.post_id})"), None
    if rules.changes == "limited" and st.changes >= rules.change_limit:
        return Note("V4", f"смена голоса сверх лимита ({rules.change_limit}): остаётся голос "
                          f"из сообщения {prev.post_id}"), None
    st.changes += 1
    st.vote = vote
    return None, prev


def _roster_nick(roster: Roster, typed: str) -> str | None:
    """The roster nick of a forum username (exact, alias or look-alike; never near)."""
    m = roster.match(typed)
    return m.nick if m.how in ("exact", "alias", "lookalike") and not m.lead else None


def _not_holder(slots: Slots, nick: str, slot: str, post_id: int, at: datetime) -> Note:
    """V5: why ``nick`` cannot vote for ``slot`` at this post: replaced, or not in yet."""
    holder = slots.holder(slot, post_id, at)
    mine = [r for r in slots.replacements if normalise(r.player) == normalise(nick)]
    if normalise(nick) == normalise(slot) or any(slots.started(r, post_id, at) for r in mine):
        return Note("V5", f"{nick} заменён игроком {holder}")
    return Note("V5", f"{nick} ещё не вступил в игру (замена с более позднего момента)")



# ------------------------------------------------------------------ the day


def tally(
    posts: Iterable[PostItem],
    window: DaySchedule,
    *,
    alive: Iterable[str],
    roster: Roster,
    host: str,
    rules: VoteRules | None = None,
    overrides: Iterable[VoteDecision] = (),
    replacements: Iterable[Replacement] = (),
    as_of: int | datetime | None = None,
    vanished: Mapping[int, datetime] | None = None,
) -> Tally:
    """Count one day's votes (docs/rules.md V1–V6).

    ``posts``: the day's posts, each a :class:`Post` or the list of its stored revisions,
    first-seen first (V4). Posts before ``window.start`` or at/after
    ``window.night_deadline`` are not looked at; posts at/after ``window.deadline`` are late
    (T2). ``alive``: the players alive on this day. ``roster``: every nick a vote may name
    (players, dead ones too, and replacement players), with aliases. ``as_of``: a post id
    or a time; the count as it stood right after it (then nobody is hanged unless the
    deadline has passed or ``early_majority`` closed the day). ``vanished``: post id → when
    it was found gone from the topic (``deleted_vote``).

    Each vote-like post, in time order, meets :data:`CHECKS`: the host's posts never vote
    (V5); the voter must be a living player (V5) and the post inside the window (V1); the
    reading must have a red nick that matches (V1, V2) and a reason (V3); an edited vote
    follows ``edited_vote`` (V4); the target must be alive (V5); then ``changes`` decides
    whether an earlier vote of the same player stands (V4). Host overrides: ``reject``
    makes it no vote, ``accept`` waives V1/V3/V4-edit (never V2 or V5), ``set`` names the
    target. The result follows V6.
    """
    rules = rules or VoteRules()
    slots = Slots(tuple(replacements))
    alive_slots = list(dict.fromkeys(slots.slot(_roster_nick(roster, n) or n) for n in alive))
    items, as_of_time, as_of_post = _day_posts(posts, window, as_of)

    all_overrides = list(overrides)
    decisions = {o.post_id: o for o in all_overrides if o.action != "set"}
    targets_set = {o.post_id: o for o in all_overrides if o.action == "set"}
    seen_ids = {v[0].post_id for v in items}
    day = Day(window, rules, roster, slots, normalise(host), set(alive_slots),
              [f"{o}: сообщения {o.post_id} нет среди учтённых сообщений дня"
               for o in all_overrides if o.post_id not in seen_ids],
              vanished=dict(vanished or {}))
    for revs in items:
        ballot = read_ballot(day, revs, decisions.get(revs[0].post_id),
                             targets_set.get(revs[0].post_id))
        if ballot is not None:
            _through_checks(day, ballot)
    return _result(day, alive_slots, items, as_of_time, as_of_post)


def _through_checks(day: Day, ballot: Ballot) -> None:
    for check in CHECKS:
        check(day, ballot)
        if ballot.done:
            break


@dataclass(frozen=True, slots=True)
class ReadVote:
    """A vote already read: ``voter`` names ``target`` in red, with a reason (V1–V3 met) —
    how a replay file gives its votes."""

    voter: str
    target: str
    post_id: int
    at: datetime


def tally_read(votes: Iterable[ReadVote], window: DaySchedule, *, alive: Iterable[str],
               roster: Roster, rules: VoteRules | None = None) -> Tally:
    """Count votes already read (a replay's) as :func:`tally` counts a day's posts: each
    vote, in time order, meets :data:`CHECKS` — the voter and the target alive (V5), in
    time (V1), one vote a day or a change as ``changes`` says (V4) — and the result follows
    V6. There is no host and no override; ``roster`` holds every nick a vote may name."""
    rules = rules or VoteRules()
    alive_slots = list(dict.fromkeys(alive))
    day = Day(window, rules, roster, Slots(()), "", set(alive_slots), [])
    items: list[tuple[Post, ...]] = []
    for v in sorted(votes, key=lambda v: (v.at, v.post_id)):
        post = Post(v.post_id, v.voter, None, v.at, "", "")
        reading = VoteReading(v.post_id, v.voter, v.at, v.target, v.target, "exact",
                              has_reason=True, reason_letters=rules.reason_min_letters,
                              line="")
        _through_checks(day, Ballot(post, reading, [], None, None))
        items.append((post,))
    return _result(day, alive_slots, items, None, None)


def _day_posts(posts: Iterable[PostItem], window: DaySchedule, as_of: int | datetime | None
               ) -> tuple[list[tuple[Post, ...]], datetime | None, int | None]:
    """The day's posts (each with its revisions) in time order, inside the window and up to
    ``as_of``; with the time and post id the count stands at."""
    items = sorted((_versions(p) for p in posts), key=lambda v: (v[0].posted_at, v[0].post_id))
    items = [
        v for v in items
        if v[0].posted_at >= window.start
        and (window.night_deadline is None or v[0].posted_at < window.night_deadline)
    ]
    if isinstance(as_of, int) and not isinstance(as_of, bool):
        ids = [v[0].post_id for v in items]
        if as_of not in ids:
            raise GameError(
                f"сообщение {as_of} — не из сообщений дня {window.day}",
                "укажите номер сообщения из окна дня или время",
            )
        items = items[: ids.index(as_of) + 1]
        return items, items[-1][0].posted_at, as_of
    if isinstance(as_of, datetime):
        return [v for v in items if v[0].posted_at <= as_of], as_of, None
    return items, None, None


def read_ballot(day: Day, revs: tuple[Post, ...], decision: VoteDecision | None,
                set_by_host: VoteDecision | None) -> Ballot | None:
    """V4: the post's vote is read in the text first seen of it; if that held no vote, the
    vote that appeared by the edit is read (as good as an unseen edit, and flagged). A
    host's ``set`` then says whom it votes for. None when the post holds no vote."""
    post = revs[0]
    readings = [find_vote(r, day.roster, day.rules) for r in revs]
    first, last = readings[0], readings[-1]
    reading = first
    edit_notes: list[Note] = []
    if len({_key(r) for r in readings}) > 1:
        reading = first if first is not None and first.has_red else next(
            (r for r in readings if r is not None and r.has_red), last)
        edit_notes.append(Note(
            "V4", f"сообщение отредактировано: сначала {_describe(first)}, потом "
                  f"{_describe(last)}; засчитывается {_describe(reading)}"))
    if post.edit is not None and reading is not None and reading.has_red:
        late = (post.edit.edited_at is not None and post.edit.edited_at >= day.window.deadline)
        edit_notes.append(Note(
            "V4", "голос отредактирован после публикации, первый текст не сохранён"
                  + (" (правка после дедлайна)" if late else "")))
    if set_by_host is not None:
        reading = host_set(post, reading, set_by_host, day.roster, day.rules)
        day.log.append(f"{set_by_host}: голос {post.author} — за "
                       f"{reading.target or set_by_host.target}")
    if reading is None:
        if decision is not None:
            day.log.append(f"{decision}: в сообщении {post.post_id} нет голоса, решать нечего")
        return None
    return Ballot(post, reading, edit_notes, decision, set_by_host)


def _result(day: Day, alive_slots: Sequence[str], items: Sequence[tuple[Post, ...]],
            as_of_time: datetime | None, as_of_post: int | None) -> Tally:
    """The day's counts in order (V6: most votes, then who reached them first), the
    verdict, and everything the host is shown."""
    window = day.window
    end_post = items[-1][0].post_id if items else None
    end_time = as_of_time or window.deadline

    def display(slot: str) -> str:
        return day.slots.holder(slot, end_post, end_time)

    counts = [_candidate(display(s.target), s, day.states) for s in standings(day.moves)]

    closed = (day.closed_early is not None or as_of_time is None
              or as_of_time >= window.deadline)
    v = verdict(counts, day.rules, closed, day.closed_early, len(day.alive))
    counted = {slot for slot, st in day.states.items() if st.vote is not None}
    return Tally(
        day=window.day, start=window.start, deadline=window.deadline, closed=closed,
        hanged=v.hanged, hanged_all=v.hanged_all, leader=v.leader, tied=v.tied,
        explanation=v.explanation, counts=tuple(counts),
        not_voted=tuple(dict.fromkeys(display(s) for s in alive_slots if s not in counted)),
        rejected=tuple(sorted(day.rejected, key=lambda r: (r.at, r.post_id))),
        flags=tuple(day.flags), overrides=tuple(day.log),
        alive=tuple(display(s) for s in alive_slots), tie_rule=day.rules.tie,
        as_of=as_of_time, as_of_post=as_of_post,
        closed_early_by=day.closed_early.post_id if day.closed_early else None,
        moves=tuple(replace(m, old=display(m.old) if m.old is not None else None,
                            target=display(m.target)) for m in day.moves),
    )


def _candidate(name: str, place: Standing, states: Mapping[str, _VoterState]) -> Candidate:
    voters = sorted((st.vote for st in states.values()
                     if st.vote is not None and st.vote.target == place.target),
                    key=lambda v: (v.at, v.post_id))
    return Candidate(name, place.votes, tuple(replace(v, target=name) for v in voters),
                     place.reached_at, place.reached_post)


def _versions(item: PostItem) -> tuple[Post, ...]:
    if isinstance(item, Post):
        return (item,)
    revs = tuple(item)
    if not revs:
        raise GameError("сообщение передано без сохранённой версии", "передайте хотя бы один Post")
    return revs


def _key(reading: VoteReading | None) -> tuple[bool, str | None]:
    if reading is None or not reading.has_red:
        return (False, None)
    return (True, reading.target or normalise(reading.typed))


def _describe(reading: VoteReading | None) -> str:
    if reading is None:
        return "без голоса"
    if not reading.has_red:
        return "«мой голос» без красного ника"
    return f"голос за «{reading.typed}»"


def _reject(reading: VoteReading, author: str, at: datetime, notes: Sequence[Note]) -> Rejection:
    return Rejection(reading.post_id, author, at, reading.typed, reading.target, tuple(notes))
