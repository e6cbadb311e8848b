"""Sending the host's texts to the forum, on the host's word and only once (issue 7).

What the commands send (``tally --post``, ``check-activity --post``, ``resolve-night
--post``/``--send``, ``deal --send``) is built as values in :mod:`referee.host.outgoing`.

Only the part meant for the players is ever sent; the host-only part stays on the screen.
Every message is shown exactly as it will go out and sent only after the host confirms
(``--yes`` confirms in advance; ``--dry-run`` shows and sends nothing).

Idempotency: each message has a key, ``sha256(kind, game, phase, recipient, body)``
(:func:`referee.host.outgoing.message_key`). A message is recorded in the store
(:meth:`Store.mark_sent`: key, kind, recipient, body, the forum's id for it, when) right
after the forum stored it, before the next one is sent; a message whose key is recorded
is never sent again (the run says «уже отправлено»). So a failure between two PMs leaves
the first recorded and the second not, and the next run sends only the rest. A changed
text (a recount after a host decision) is a new message.

Exactly once, even across a crash (issue 26): before a message goes out, its *intent* —
what, where, the fingerprint of its text, since when — is stored (:data:`INTENT`). A run
killed after the forum took the message but before the record was written leaves the
intent without a record; the next run looks on the forum first (the host's post in the
topic, or his sent PM, with that text: :func:`referee.store.sync.find_sent`), records it as sent
when it is there and sends it only when it is not. ``mark-sent`` stays for a forum that
cannot be read.

This module knows no forum engine: the live sender comes from the engine registry
(:func:`live_sender`), and tests swap :data:`sender_factory`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path
from typing import Literal

from referee.config.game import Config
from referee.core.errors import ConfigError, GameError, RefereeError
from referee.core.kernel import Poster
from referee.core.nicks import normalise
from referee.host.outgoing import Outgoing, role_pms
from referee.store import SentRecord, Store

DEAL_SEED_META = "publish.deal_seed"
"""Store meta key: the ``--seed`` whose role PMs were sent (a second deal is refused)."""


def known_user_ids(store: Store) -> dict[str, int]:
    """Forum user ids by normalised name, from the stored posts' authors and PM senders
    (the id is what phpBB's PM form wants; without it the name is looked up on the
    forum)."""
    ids: dict[str, int] = {}
    for p in store.posts():
        if p.author_id:
            ids[normalise(p.author)] = p.author_id
    for pm in store.pms():
        if pm.sender_id:
            ids.setdefault(normalise(pm.sender), pm.sender_id)
    return ids


# --------------------------------------------------------------------------- sending

def check_can_send(config: Config) -> None:
    """Posting needs the live forum and the host's login; say which setting is missing."""
    forum = config.forum.board
    if forum.snapshot is not None:
        raise ConfigError(
            "для отправки нужен живой форум: [forum] snapshot читает сохранённые страницы и "
            "отправлять не может",
            "укажите в [forum] url темы игры и уберите snapshot (или --dry-run, чтобы увидеть, "
            "что было бы отправлено)",
        )
    if not forum.url:
        raise ConfigError("для отправки нужен живой форум: укажите [forum] url",
                          'url = "https://forum.example.com/viewtopic.php?t=123"')
    if not forum.username:
        raise ConfigError(
            "для отправки нужен логин ведущего: укажите [forum] username",
            "пароль спрашивается (или берётся из REFEREE_PASSWORD) и нигде не хранится",
        )
    from adapters.registry import can_post  # noqa: PLC0415 — offline commands load no HTTP

    if not can_post(config.forum.settings()):
        raise ConfigError(f"отправка не поддерживается для [forum] engine = {forum.engine!r}",
                          "скопируйте текст в тему вручную")


def live_sender(config: Config, db_path: Path | None) -> Poster:
    """The engine's poster over a session kept beside the game database."""
    check_can_send(config)
    from adapters.base import cookie_path_for  # noqa: PLC0415 — only when a post is sent
    from adapters.registry import open_poster  # noqa: PLC0415

    cookie_file = cookie_path_for(db_path) if db_path is not None else None
    return open_poster(config.forum.settings(cookie_file))


sender_factory: Callable[[Config, Path | None], Poster] = live_sender
"""How :func:`run` gets its sender (tests put a fake clock / respx board here)."""


@dataclass
class Outcome:
    """What one run did: ``sent`` now, ``already`` sent earlier, ``pending`` not sent."""

    status: Literal["sent", "nothing_to_send", "dry_run", "declined", "failed"]
    sent: list[tuple[Outgoing, SentRecord]] = field(default_factory=list)
    already: list[tuple[Outgoing, SentRecord]] = field(default_factory=list)
    pending: list[Outgoing] = field(default_factory=list)


def _where(m: Outgoing) -> str:
    return f"ЛС для {m.recipient}" if m.kind == "pm" else f"сообщение в тему ({m.label})"


def _title(m: Outgoing) -> str:
    where = (f"Сообщение в тему (t={m.recipient.removeprefix('topic:')})" if m.kind == "post"
             else f"ЛС для {m.recipient}, тема «{m.subject or ''}»")
    return f"{where} — {m.label}" if m.label else where


def _when(at: datetime, tz: tzinfo) -> str:
    return at.astimezone(tz).strftime("%d.%m %H:%M")


def _forum_id(kind: str, forum_id: int | None) -> str:
    if forum_id is None:
        return ""
    return f" (#{forum_id})" if kind == "post" else f" (ЛС #{forum_id})"


INTENT = "publish.intent."
"""Meta key prefix of a message about to be sent: kind, recipient, subject, fingerprint of
the text, the text and since when (issue 26). Stored before the forum is asked; a later run
that finds it without a record of the send looks on the forum before sending again."""

LOOK_SINCE_SLACK = timedelta(hours=1)
"""How much earlier than the intent (by this computer's clock) a post on the forum may be
dated and still be the message: the forum's clock may differ from this one."""

Look = Callable[[Sequence[tuple[Outgoing, datetime]]], Mapping[str, int | None]]
"""Looks on the forum for messages a crashed run may have sent: (message, since when) →
by key, the forum's id when it is there (0: there, without an id), None when it is not."""

MAYBE_SENT = "publish.maybe_sent."
"""Meta key prefix of messages whose fate the forum left unclear (see :func:`mark_sent_by_host`)."""


def mark_sent_by_host(store: Store, key: str, forum_id: int | None = None) -> SentRecord:
    """The host checked the forum: the message that "may have been sent" was sent. Recorded
    like any sent message, so a re-run does not send it a second time."""
    raw = store.get_meta(MAYBE_SENT + key) or store.get_meta(INTENT + key)
    if raw is None:
        raise GameError(
            f"нет сообщения с ключом {key}, ждущего подтверждения",
            "copy the key from the «Внимание: неизвестно, дошло ли…» line",
        )
    m = json.loads(raw)
    return store.mark_sent(key, m["kind"], m["recipient"], m["body"], forum_id)


def publish(
    messages: Sequence[Outgoing],
    store: Store,
    *,
    open_sender: Callable[[], Poster],
    confirm: Callable[[str], bool] | None,
    echo: Callable[[str], None],
    dry_run: bool = False,
    user_ids: Mapping[str, int] | None = None,
    tz: tzinfo = UTC,
    now: Callable[[], datetime] = lambda: datetime.now(UTC),
    look: Look | None = None,
) -> Outcome:
    """Show, confirm, send and record ``messages`` (see the module docstring).

    ``confirm`` is ``None`` for ``--yes``. The sender is opened only when something is
    really sent (so nothing logs in for a dry run or a «no»). ``look`` finds on the forum
    what a crashed run may have sent (issue 26); without it such a message is not sent
    again, and the host is told to check and use ``mark-sent``."""
    unique: dict[str, Outgoing] = {}
    for m in messages:
        unique.setdefault(m.key, m)
    outcome = Outcome("nothing_to_send")
    for m in unique.values():
        record = store.was_sent(m.key)
        if record is not None:
            outcome.already.append((m, record))
            echo(f"уже отправлено {_when(record.sent_at, tz)}"
                 f"{_forum_id(record.kind, record.forum_id)}: {_title(m)} — повторно не "
                 "отправляю")
        else:
            outcome.pending.append(m)
    if not dry_run:
        _found_on_forum(outcome, store, look, echo=echo, tz=tz, now=now)
    if not outcome.pending:
        if not outcome.already:
            echo("Отправлять нечего.")
        return outcome
    rule = "━" * 24
    echo(f"Будет отправлено ({len(outcome.pending)}), текст — в точности как ниже:")
    for m in outcome.pending:
        echo(f"{rule} {_title(m)}")
        echo(m.body.rstrip("\n"))
    echo(rule)
    if dry_run:
        outcome.status = "dry_run"
        echo("--dry-run: ничего не отправлено и не записано.")
        return outcome
    n_posts = sum(m.kind == "post" for m in outcome.pending)
    n_pms = len(outcome.pending) - n_posts
    question = "Отправить " + " и ".join(
        part for part in (f"{n_posts} сообщ. в тему" if n_posts else "",
                          f"{n_pms} ЛС" if n_pms else "") if part
    ) + "?"
    if confirm is not None and not confirm(question):
        outcome.status = "declined"
        echo("Отменено: ничего не отправлено.")
        return outcome
    _send_all(outcome, store, open_sender(), echo=echo, user_ids=user_ids or {}, now=now)
    outcome.status = "sent"
    return outcome


def _found_on_forum(outcome: Outcome, store: Store, look: Look | None, *,
                    echo: Callable[[str], None], tz: tzinfo,
                    now: Callable[[], datetime]) -> None:
    """Messages whose intent is stored without a record of the send (a run killed while it
    sent them, issue 26): looked for on the forum; found ones are recorded as sent, the
    others stay to be sent. A forum that cannot be read sends nothing."""
    intended: list[tuple[Outgoing, datetime]] = []
    for m in outcome.pending:
        raw = store.get_meta(INTENT + m.key)
        if raw is not None:
            at = datetime.fromisoformat(json.loads(raw)["at"])
            intended.append((m, at - LOOK_SINCE_SLACK))
    if not intended:
        return
    names = "; ".join(_where(m) for m, _ in intended)
    keys = " ".join(m.key for m, _ in intended)
    if look is None:
        raise GameError(
            f"прошлый запуск прервался, отправляя: {names}; дошло ли — неизвестно, и "
            "проверить на форуме нечем",
            f"посмотрите в теме (или в отправленных ЛС); если дошло: referee mark-sent {keys}",
        )
    echo(f"Прошлый запуск прервался, отправляя: {names}. Смотрю на форуме, дошло ли…")
    try:
        found = look(intended)
    except RefereeError as e:
        raise type(e)(
            f"прошлый запуск прервался, отправляя: {names}; проверить на форуме, дошло ли, "
            f"не удалось ({e.message}); ничего не отправлено",
            f"запустите команду позже; если вы видите это на форуме: referee mark-sent {keys}",
        ) from None
    for m, _ in intended:
        forum_id = found.get(m.key)
        if forum_id is None:
            continue
        record = store.mark_sent(m.key, m.kind, m.recipient, m.body, forum_id or None, now())
        outcome.pending.remove(m)
        outcome.already.append((m, record))
        echo(f"найдено на форуме{_forum_id(m.kind, forum_id or None)}: {_title(m)} — дошло "
             f"при прошлом запуске; записано, повторно не отправляю")


def _intend(store: Store, m: Outgoing, at: datetime) -> None:
    """Store what is about to go out, before the forum is asked (issue 26)."""
    from referee.store.sync import fingerprint

    store.set_meta(INTENT + m.key, json.dumps(
        {"kind": m.kind, "recipient": m.recipient, "subject": m.subject,
         "fingerprint": fingerprint(m.body), "body": m.body, "at": at.isoformat()},
        ensure_ascii=False))


def _send_all(outcome: Outcome, store: Store, sender: Poster, *, echo: Callable[[str], None],
              user_ids: Mapping[str, int], now: Callable[[], datetime]) -> None:
    """Send the pending messages one by one, each recorded right after it went out."""
    try:
        for m in list(outcome.pending):
            _intend(store, m, now())
            try:
                if m.kind == "post":
                    forum_id = sender.reply(m.body, m.subject)
                else:
                    forum_id = sender.send_pm(m.recipient, m.body, m.subject or m.label,
                                              user_ids.get(normalise(m.recipient)))
            except RefereeError as e:
                _failed(outcome, store, m, e, echo)
                raise
            # Recorded before the next send: a crash later never causes a second copy.
            record = store.mark_sent(m.key, m.kind, m.recipient, m.body, forum_id, now())
            outcome.pending.remove(m)
            outcome.sent.append((m, record))
            echo(f"Отправлено: {_title(m)}{_forum_id(m.kind, forum_id)}")
    finally:
        sender.close()


def _failed(outcome: Outcome, store: Store, m: Outgoing, e: RefereeError,
            echo: Callable[[str], None]) -> None:
    """Say what went and what did not; a message that may have reached the forum is noted
    for ``referee mark-sent`` instead of being sent again."""
    outcome.status = "failed"
    done = len(outcome.sent)
    rest = ", ".join(_where(p) for p in outcome.pending)
    echo(f"Отправлено {done} из {done + len(outcome.pending)}; не отправлено: {rest}. "
         "Запустите ту же команду снова: отправленное не повторится.")
    if not getattr(e, "maybe_sent", False):
        store.forget_meta(INTENT + m.key)  # refused for sure: nothing to look for later
    else:
        # The forum may have stored it without telling us: a re-run would send it a second
        # time, so the host looks first.
        store.set_meta(MAYBE_SENT + m.key, json.dumps(
            {"kind": m.kind, "recipient": m.recipient, "body": m.body}, ensure_ascii=False))
        echo(f"Внимание: неизвестно, дошло ли до форума {_where(m)}. Запуск той же "
             "команды сначала посмотрит на форуме и не отправит второй раз; если форум не "
             f"читается, проверьте сами, и если дошло: referee mark-sent {m.key}")


# --------------------------------------------------------------------------- CLI entry

def run(
    config: Config,
    store: Store,
    messages: Sequence[Outgoing],
    *,
    echo: Callable[[str], None],
    confirm: Callable[[str], bool],
    yes: bool = False,
    dry_run: bool = False,
    now: Callable[[], datetime] | None = None,
) -> Outcome:
    """What ``--post``/``--send`` do: :func:`publish` with the live forum as the sender;
    ``echo`` shows the listing and ``confirm`` asks the question (the CLI's terminal)."""
    if not dry_run:
        check_can_send(config)
    db_path = store.path
    return publish(
        messages, store,
        open_sender=lambda: sender_factory(config, db_path),
        confirm=None if yes else confirm,
        echo=echo,
        dry_run=dry_run,
        user_ids=known_user_ids(store) if any(m.kind == "pm" for m in messages) else None,
        tz=config.tz,
        now=now or (lambda: datetime.now(UTC)),
        look=looker_factory(config, store),
    )


def live_look(config: Config, store: Store) -> Look:
    """Look on the live forum (issue 26): read the topic's new pages (for posts) and the
    sent PMs (for PMs) into the store, then find the host's message there."""

    def look(intended: Sequence[tuple[Outgoing, datetime]]) -> dict[str, int | None]:
        from referee.store.sync import find_sent, open_adapter, sync_pms, sync_topic

        adapter = open_adapter(config, db_path=store.path)
        try:
            if any(m.kind == "post" for m, _ in intended):
                sync_topic(config, store, adapter)
            if any(m.kind == "pm" for m, _ in intended):
                sync_pms(config, store, adapter, sent=True)
        finally:
            adapter.close()
        host = config.forum.board.username or config.host
        return {m.key: find_sent(store, kind=m.kind, recipient=m.recipient, body=m.body,
                                 sender=host, since=since) for m, since in intended}

    return look


looker_factory: Callable[[Config, Store], Look] = live_look
"""How :func:`run` looks on the forum for what a crashed run sent (tests swap it)."""


def send_deal(
    config: Config,
    store: Store,
    seed: int,
    texts: Iterable[tuple[str, str, str]],
    *,
    echo: Callable[[str], None],
    confirm: Callable[[str], bool],
    yes: bool = False,
    dry_run: bool = False,
) -> Outcome:
    """``deal --send``: the role PMs, once. A deal with another seed after role PMs went
    out is refused: players would get a second, different role."""
    earlier = store.get_meta(DEAL_SEED_META)
    if earlier is not None and earlier != str(seed):
        raise GameError(
            f"ЛС с ролями этой игры уже отправлены с --seed {earlier}; раздача с "
            f"--seed {seed} дала бы игрокам вторую роль",
            f"укажите --seed {earlier}, чтобы отправить остаток той раздачи",
        )
    messages = role_pms(config, texts)
    try:
        return run(config, store, messages, echo=echo, confirm=confirm, yes=yes,
                   dry_run=dry_run)
    finally:
        if earlier is None and any(store.was_sent(m.key) for m in messages):
            store.set_meta(DEAL_SEED_META, str(seed))


__all__ = [
    "DEAL_SEED_META",
    "Outcome",
    "Poster",
    "check_can_send",
    "known_user_ids",
    "live_look",
    "live_sender",
    "looker_factory",
    "publish",
    "run",
    "send_deal",
    "sender_factory",
]
