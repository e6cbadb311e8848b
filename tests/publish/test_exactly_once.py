"""Issue 26 — exactly once to the forum, across a crash.

Before a message goes out its intent is stored; a run killed after the forum took the
message but before the record was written is followed by a run that looks on the forum
first: the message found there is recorded as sent and never sent again; one not found is
sent. Without a way to look, nothing is sent and the host is told to use ``mark-sent``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

import pytest
from test_publish import NOW, FakeSender, Terminal

from referee.core.errors import GameError, NetworkError
from referee.host.outgoing import Outgoing
from referee.host.publish import mark_sent_by_host, publish
from referee.store import Store
from referee.store.sync import same_message

COUNT = "[b]Итоги дня 2[/b]\nЛиса — 3: Ёжик, Kotik, Шерлок\nНа виселицу отправляется Лиса.\n"
POST = Outgoing("post", "forum.test/viewtopic.php?t=3", "day:2:tally", "topic:3", COUNT,
                label="подсчёт голосов, день 2")
PM = Outgoing("pm", "forum.test/viewtopic.php?t=3", "night:1:private", "Полковник",
              "Лиса — Мафия\n", subject="Ночь 1: результат", label="итог ночи 1")


class Killed(BaseException):
    """The process dies here (power loss, OOM, Ctrl-C twice): nothing after it runs."""


class KilledAfterTheForumTookIt(FakeSender):
    def reply(self, message: str, subject: str | None = None) -> int | None:
        super().reply(message, subject)
        raise Killed

    def send_pm(self, to: str, message: str, subject: str,
                user_id: int | None = None) -> int | None:
        super().send_pm(to, message, subject, user_id)
        raise Killed


def send(store: Store, messages: list[Outgoing], sender: FakeSender, term: Terminal,
         look=None):  # noqa: ANN001, ANN201
    return publish(messages, store, open_sender=lambda: sender, confirm=None, echo=term.echo,
                   now=lambda: NOW, look=look)


def forum_of(sender: FakeSender):  # noqa: ANN201
    """A look at the forum the sender wrote to: what it holds, by text."""
    def look(intended: Sequence[tuple[Outgoing, datetime]]) -> Mapping[str, int | None]:
        return {m.key: next((147 + i for i, c in enumerate(sender.calls)
                             if c[0] == m.kind and same_message(m.body, c[2])), None)
                for m, _ in intended}
    return look


@pytest.mark.parametrize("message", [POST, PM], ids=["post", "pm"])
def test_a_run_killed_after_the_forum_took_it_is_not_sent_again(store: Store,
                                                               message: Outgoing) -> None:
    crashed = KilledAfterTheForumTookIt()
    with pytest.raises(Killed):
        send(store, [message], crashed, Terminal())
    assert len(crashed.calls) == 1 and store.was_sent(message.key) is None
    again, term = FakeSender(), Terminal()
    send(store, [message], again, term, look=forum_of(crashed))
    assert again.calls == []                                  # 0 duplicates
    assert store.was_sent(message.key) is not None            # recorded as sent
    assert "найдено на форуме" in term.text and "повторно не отправляю" in term.text


def test_a_run_killed_before_the_forum_took_it_is_sent_on_the_rerun(store: Store) -> None:
    class KilledBefore(FakeSender):
        def reply(self, message: str, subject: str | None = None) -> int | None:
            raise Killed

    with pytest.raises(Killed):
        send(store, [POST], KilledBefore(), Terminal())
    again = FakeSender()
    send(store, [POST], again, Terminal(), look=forum_of(FakeSender()))
    assert [c[0] for c in again.calls] == ["post"]            # 0 losses


def test_without_a_look_at_the_forum_nothing_is_sent_and_mark_sent_is_named(
        store: Store) -> None:
    with pytest.raises(Killed):
        send(store, [POST], KilledAfterTheForumTookIt(), Terminal())
    again = FakeSender()
    with pytest.raises(GameError) as caught:
        send(store, [POST], again, Terminal())
    assert again.calls == []
    assert f"referee mark-sent {POST.key}" in (caught.value.hint or "")
    mark_sent_by_host(store, POST.key, forum_id=150)          # mark-sent stays
    assert store.was_sent(POST.key).forum_id == 150  # type: ignore[union-attr]


def test_a_forum_that_cannot_be_read_sends_nothing(store: Store) -> None:
    def down(intended: object) -> Mapping[str, int | None]:
        raise NetworkError("не удаётся связаться с форумом", "позже")

    with pytest.raises(Killed):
        send(store, [POST], KilledAfterTheForumTookIt(), Terminal())
    again = FakeSender()
    with pytest.raises(NetworkError, match="ничего не отправлено"):
        send(store, [POST], again, Terminal(), look=down)
    assert again.calls == []


@pytest.mark.parametrize(
    ("shown_on_the_forum", "same"),
    [
        ("Итоги дня 2\nЛиса — 3: Ёжик, Kotik, Шерлок\nНа виселицу отправляется Лиса.", True),
        ("ИТОГИ ДНЯ 2 Лиса 3 Ежик Kotik Шерлок На виселицу отправляется Лиса", True),
        ("Итоги дня 2\nЛиса — 3: Ёжик, Kotik, Шерлок\nНа виселицу отправляеться Лиса.", True),
        ("Итоги дня 2\nЛиса — 4: Ёжик, Kotik, Шерлок\nНа виселицу отправляется Лиса.", False),
        ("Итоги дня 3\nЛиса — 3: Ёжик, Kotik, Шерлок\nНа виселицу отправляется Лиса.", False),
        ("Итоги дня 2\nЛиса — 3: Ёжик, Kotik\nНа виселицу отправляется Кот.", False),
    ],
)
def test_which_post_on_the_forum_is_the_message_sent(shown_on_the_forum: str,
                                                     same: bool) -> None:
    assert same_message(COUNT, shown_on_the_forum) is same
