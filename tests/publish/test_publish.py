"""referee.host.publish: what is sent, that it is sent once, and what a failure leaves behind.

A fake sender stands in for the forum here (the real phpBB flows are in test_reply_flow.py
and test_pm_flow.py); the store is a real game database.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
from support.phpbb.posting_board import forum_config

from referee.config.game import Config, Player, Replacement
from referee.core.errors import ConfigError, ForumError, GameError
from referee.host.outgoing import Outgoing, current_holder, message_key, public_part, role_pms
from referee.host.publish import DEAL_SEED_META, check_can_send, publish, send_deal
from referee.store import Store

NOW = datetime(2026, 11, 22, 7, 40, tzinfo=UTC)  # 10:40 in Moscow


@dataclass
class FakeSender:
    """Stores what it is given; ``fail_on`` makes the n-th send (1-based) fail."""

    fail_on: int | None = None
    calls: list[tuple[str, str, str | None, int | None]] = field(default_factory=list)
    opened: int = 0
    closed: int = 0
    next_id: int = 147

    def _take(self, kind: str, to: str, body: str, user_id: int | None) -> int:
        if self.fail_on is not None and len(self.calls) + 1 == self.fail_on:
            raise ForumError("the connection broke", "run again")
        self.calls.append((kind, to, body, user_id))
        self.next_id += 1
        return self.next_id - 1

    def reply(self, message: str, subject: str | None = None) -> int | None:
        return self._take("post", "topic", message, None)

    def send_pm(self, to: str, message: str, subject: str,
                user_id: int | None = None) -> int | None:
        return self._take("pm", to, message, user_id)

    def close(self) -> None:
        self.closed += 1


@dataclass
class Terminal:
    """What the host sees and answers."""

    answer: bool = True
    lines: list[str] = field(default_factory=list)
    questions: list[str] = field(default_factory=list)

    def echo(self, text: str) -> None:
        self.lines.append(text)

    def confirm(self, question: str) -> bool:
        self.questions.append(question)
        return self.answer

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def config(tmp_path: Path, **forum: object) -> Config:
    return Config(
        path=tmp_path / "referee.toml", host="Ведущий", forum=forum_config(**forum),
        players=(Player("Полковник", "commissar"), Player("Ира-Ира", "ninja"),
                 Player("Лиса", "mafia", "Лисья нора")),
    )


def post(body: str = "[b]Итоги дня 2[/b]\n", phase: str = "day:2:tally") -> Outgoing:
    return Outgoing("post", "forum.test/viewtopic.php?t=3", phase, "topic:3", body,
                    label="подсчёт голосов, день 2")


def pm(to: str, body: str) -> Outgoing:
    return Outgoing("pm", "forum.test/viewtopic.php?t=3", "night:1:private", to, body,
                    subject="Ночь 1: результат", label="итог ночи 1")


def run(store: Store, messages: list[Outgoing], sender: FakeSender, term: Terminal, *,
        yes: bool = False, dry_run: bool = False,
        user_ids: dict[str, int] | None = None):  # noqa: ANN201
    def open_sender() -> FakeSender:
        sender.opened += 1
        return sender

    return publish(messages, store, open_sender=open_sender,
                   confirm=None if yes else term.confirm, echo=term.echo, dry_run=dry_run,
                   user_ids=user_ids, now=lambda: NOW)


# ------------------------------------------------------------------------------ the key

@pytest.mark.parametrize(
    ("changed", "same"),
    [
        ({}, True),
        ({"kind": "pm"}, False),
        ({"game": "forum.test/viewtopic.php?t=4"}, False),
        ({"phase": "day:3:tally"}, False),
        ({"recipient": "Лиса"}, False),
        ({"body": "[b]Итоги дня 2[/b] (исправлено)\n"}, False),
    ],
    ids=["same message", "kind", "game", "phase", "recipient", "body"],
)
def test_one_message_is_one_key_and_any_change_makes_another(changed: dict[str, str],
                                                             same: bool) -> None:
    base = {"kind": "post", "game": "forum.test/viewtopic.php?t=3", "phase": "day:2:tally",
            "recipient": "topic:3", "body": "[b]Итоги дня 2[/b]\n"}
    assert (message_key(**base) == message_key(**{**base, **changed})) is same


# ------------------------------------------------------------------------------ sending once

def test_a_post_is_sent_after_yes_and_recorded_with_the_forums_id(store: Store) -> None:
    sender, term = FakeSender(), Terminal()
    outcome = run(store, [post()], sender, term)
    assert outcome.status == "sent"
    assert sender.calls == [("post", "topic", "[b]Итоги дня 2[/b]\n", None)]
    assert term.questions == ["Отправить 1 сообщ. в тему?"]
    record = store.was_sent(post().key)
    assert record is not None
    assert (record.kind, record.recipient, record.body, record.forum_id, record.sent_at) == (
        "post", "topic:3", "[b]Итоги дня 2[/b]\n", 147, NOW)
    assert "[b]Итоги дня 2[/b]" in term.text                 # shown before the question


def test_a_second_run_sends_nothing_and_says_it_was_sent(store: Store) -> None:
    run(store, [post()], FakeSender(), Terminal())
    sender, term = FakeSender(), Terminal()
    outcome = run(store, [post()], sender, term)
    assert outcome.status == "nothing_to_send"
    assert sender.calls == [] and sender.opened == 0 and term.questions == []
    assert "уже отправлено 22.11 07:40 (#147)" in term.text
    assert "повторно не отправляю" in term.text


def test_a_changed_text_is_a_new_message(store: Store) -> None:
    run(store, [post()], FakeSender(), Terminal())
    sender = FakeSender()
    run(store, [post("[b]Итоги дня 2[/b] (пересчёт)\n")], sender, Terminal())
    assert len(sender.calls) == 1


def test_the_same_message_twice_in_one_run_is_sent_once(store: Store) -> None:
    sender = FakeSender()
    run(store, [pm("Полковник", "проверка\n"), pm("Полковник", "проверка\n")], sender,
        Terminal())
    assert len(sender.calls) == 1


def test_a_failure_between_two_pms_leaves_the_first_recorded_and_the_rerun_sends_the_rest(
    store: Store,
) -> None:
    messages = [pm("Полковник", "проверка: Мафия\n"), pm("Ира-Ира", "промах 1 из 2\n")]
    sender, term = FakeSender(fail_on=2), Terminal()
    with pytest.raises(ForumError):
        run(store, messages, sender, term)
    assert [c[1] for c in sender.calls] == ["Полковник"]
    assert store.was_sent(messages[0].key) is not None
    assert store.was_sent(messages[1].key) is None          # not recorded: not sent
    assert "Отправлено 1 из 2; не отправлено: ЛС для Ира-Ира" in term.text
    assert sender.closed == 1                                # the session is saved anyway

    again, term2 = FakeSender(), Terminal()
    run(store, messages, again, term2)
    assert [c[1] for c in again.calls] == ["Ира-Ира"]
    assert "уже отправлено" in term2.text and "ЛС для Полковник" in term2.text


def test_a_message_that_may_have_arrived_is_named_for_the_host_to_check(store: Store) -> None:
    from adapters.phpbb.posting import PostingError

    class Unsure(FakeSender):
        def reply(self, message: str, subject: str | None = None) -> int | None:
            raise PostingError("the connection broke while sending", "look first",
                               maybe_sent=True)

    term = Terminal()
    with pytest.raises(PostingError):
        run(store, [post()], Unsure(), term)
    assert store.sent() == []
    assert "неизвестно, дошло ли до форума сообщение в тему (подсчёт голосов, день 2)" in term.text
    # The host looks, finds the post there, and says so: a re-run then sends nothing.
    key = post().key
    assert f"referee mark-sent {key}" in term.text
    from referee.host.publish import mark_sent_by_host

    mark_sent_by_host(store, key, forum_id=146)
    again, term2 = FakeSender(), Terminal()
    run(store, [post()], again, term2)
    assert again.calls == [] and "уже отправлено" in term2.text
    with pytest.raises(GameError, match="нет сообщения с ключом"):
        mark_sent_by_host(store, "0" * 64)


def test_dry_run_shows_everything_and_sends_and_records_nothing(store: Store) -> None:
    sender, term = FakeSender(), Terminal()
    outcome = run(store, [post(), pm("Лиса", "текст\n")], sender, term, dry_run=True)
    assert outcome.status == "dry_run"
    assert sender.opened == 0 and term.questions == []
    assert store.sent() == []
    assert "[b]Итоги дня 2[/b]" in term.text and "ЛС для Лиса" in term.text
    assert "--dry-run: ничего не отправлено и не записано." in term.text


def test_no_at_the_question_sends_nothing(store: Store) -> None:
    sender, term = FakeSender(), Terminal(answer=False)
    outcome = run(store, [post()], sender, term)
    assert outcome.status == "declined"
    assert sender.opened == 0 and store.sent() == []
    assert "Отменено: ничего не отправлено." in term.text


def test_yes_in_advance_asks_nothing(store: Store) -> None:
    sender, term = FakeSender(), Terminal(answer=False)
    run(store, [post()], sender, term, yes=True)
    assert term.questions == [] and len(sender.calls) == 1


def test_a_known_forum_id_goes_with_the_pm(store: Store) -> None:
    sender = FakeSender()
    run(store, [pm("Полковник", "x\n"), pm("Ира-Ира", "y\n")], sender, Terminal(),
        user_ids={"полковник": 67})
    assert [(c[1], c[3]) for c in sender.calls] == [("Полковник", 67), ("Ира-Ира", None)]


# ------------------------------------------------------------------------------ refusals

@pytest.mark.parametrize(
    ("forum", "says"),
    [
        ({"snapshot": Path("pages")}, "для отправки нужен живой форум"),
        ({"url": None}, "для отправки нужен живой форум: укажите [forum] url"),
        ({"username": None}, "укажите [forum] username"),
        ({"engine": "ipb"}, "не поддерживается"),
    ],
    ids=["snapshot", "no url", "no username", "other engine"],
)
def test_a_config_that_cannot_post_says_what_to_set(tmp_path: Path, forum: dict[str, object],
                                                    says: str) -> None:
    with pytest.raises(ConfigError, match=says.replace("[", r"\[").replace("]", r"\]")):
        check_can_send(config(tmp_path, **forum))


def test_the_public_part_is_never_guessed() -> None:
    with pytest.raises(GameError, match="нет разделителя"):
        public_part("текст без разделителя", "━━ ТОЛЬКО ДЛЯ ВЕДУЩЕГО ━━")
    assert public_part("для всех\n\n━━ ТОЛЬКО ━━\nсекрет", "━━ ТОЛЬКО ━━") == "для всех\n"


def test_a_second_deal_with_another_seed_is_refused(tmp_path: Path, store: Store,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import referee.host.publish as publish_module

    sender = FakeSender()
    monkeypatch.setattr(publish_module, "sender_factory", lambda cfg, db: sender)
    cfg = config(tmp_path)
    texts = [("Полковник", "Ваша роль: Комиссар", "Привет, Полковник!\n")]
    send_deal(cfg, store, 7, texts, yes=True, echo=lambda s: None, confirm=lambda q: False)
    assert store.get_meta(DEAL_SEED_META) == "7" and len(sender.calls) == 1
    with pytest.raises(GameError, match="уже отправлены с --seed 7"):
        send_deal(cfg, store, 8, [("Полковник", "Ваша роль: Мирный житель", "Привет!\n")],
                  yes=True, echo=lambda s: None, confirm=lambda q: False)
    # the same deal: nothing new
    send_deal(cfg, store, 7, texts, yes=True, echo=lambda s: None, confirm=lambda q: False)
    assert len(sender.calls) == 1


def test_role_pms_keep_subject_and_text(tmp_path: Path) -> None:
    (m,) = role_pms(config(tmp_path), [("Лиса", "Ваша роль: Мафия", "Привет, Лиса!")])
    assert (m.kind, m.recipient, m.subject, m.body) == ("pm", "Лиса", "Ваша роль: Мафия",
                                                        "Привет, Лиса!\n")


def test_a_replacement_player_gets_the_slots_pm(tmp_path: Path) -> None:
    cfg = replace(config(tmp_path), replacements=(
        Replacement("Лиса", "Барсук", from_time=datetime(2026, 11, 21, tzinfo=UTC)),
        Replacement("Полковник", "Генерал", from_time=datetime(2026, 12, 1, tzinfo=UTC)),
    ))
    assert current_holder(cfg, "Лиса", NOW) == "Барсук"
    assert current_holder(cfg, "Полковник", NOW) == "Полковник"   # not yet taken over
    assert current_holder(cfg, "Ира-Ира", NOW) == "Ира-Ира"
