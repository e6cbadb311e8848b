"""Replies and PMs through the board's forms: every field of the served form, windows-1251
text (``&#NNNN;`` for what that code page lacks), the host's session, once per call; and the
same confirmation, idempotency and ``--dry-run`` as on phpBB (referee.host.publish)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs

import pytest
from support.mybbru.board import REPLY_FORM, BoardPost, MybbBoard, serve

from adapters.base import ForumSettings, Secret
from adapters.mybbru.client import MybbForum
from adapters.mybbru.posting import MybbPoster, PostingError, form_body
from adapters.registry import open_poster
from referee.host.outgoing import Outgoing
from referee.host.publish import Outcome, publish
from referee.store import Store

TEXT = "[b]Итоги дня 1[/b]\nЛиса — 4 ✔, Ёжик — 1"


@pytest.fixture
def board() -> Iterator[tuple[MybbBoard, str]]:
    b = MybbBoard(posts=[BoardPost(52301, 2, "Ведущий_Макс", 1795186800, "<p>День 1</p>")])
    with serve(b) as root:
        yield b, root


def poster(root: str) -> MybbPoster:
    settings = ForumSettings(url=f"{root}viewtopic.php?id=317", rate_limit=1000,
                             username="Ведущий_Макс")
    return MybbPoster(MybbForum(settings, password=lambda user: Secret("пароль-Макса")))


def sent_form(b: MybbBoard, path: str) -> dict[str, str]:
    post = next(s for s in b.seen if s.method == "POST" and s.path.endswith(path))
    return {k: v[0] for k, v in parse_qs(post.body.decode("ascii"), encoding="cp1251").items()}


def test_a_reply_goes_through_the_served_form_in_windows_1251(
        board: tuple[MybbBoard, str]) -> None:
    b, root = board
    with poster(root) as p:
        post_id = p.reply(TEXT)
    assert post_id == 52302 and b.posts[-1].id == 52302
    assert [s.api or s.path for s in b.seen] == ["board.auth", "/post.php", "/post.php"]
    data = sent_form(b, "/post.php")
    assert data == {"form_sent": "1", "form_user": "Ведущий_Макс", "csrf_hash": "c5f1",
                    "req_message": TEXT.replace("✔", "&#10004;"), "submit": "Отправить"}
    reply = next(s for s in b.seen if s.method == "POST" and s.path.endswith("post.php"))
    assert b"%CB%E8%F1%E0" in reply.body  # «Лиса» in windows-1251, not UTF-8
    assert reply.query == {"tid": "317"} and "mybb_ru=" in reply.cookie


def test_the_body_is_the_pages_charset() -> None:
    assert form_body({"req_message": "Ёж ✔"}, "cp1251") == b"req_message=%A8%E6+%26%2310004%3B"
    assert form_body({"req_message": "Ёж"}, "utf-8") == b"req_message=%D0%81%D0%B6"


def test_a_form_into_another_topic_is_not_sent(board: tuple[MybbBoard, str],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    b, root = board
    monkeypatch.setattr("support.mybbru.board.REPLY_FORM", REPLY_FORM.replace("{tid}", "999"))
    with poster(root) as p, pytest.raises(PostingError, match="тему 999"):
        p.reply(TEXT)
    assert not [s for s in b.seen if s.method == "POST" and s.path.endswith("post.php")]


def test_a_refused_reply_says_why_and_was_not_sent(board: tuple[MybbBoard, str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    b, root = board
    monkeypatch.setattr("support.mybbru.board.REPLY_FORM", REPLY_FORM.replace('"c5f1"', '"old"'))
    with poster(root) as p, pytest.raises(PostingError) as e:
        p.reply(TEXT)
    assert "Форма устарела" in str(e.value) and not e.value.maybe_sent
    assert len([s for s in b.seen if s.method == "POST" and s.path.endswith("post.php")]) == 1


def test_a_pm_is_sent_through_the_messages_form(board: tuple[MybbBoard, str]) -> None:
    b, root = board
    with poster(root) as p:
        pm_id = p.send_pm("Шерлок", "Проверка: Kotik — мафия.", "Ночь 1", user_id=11)
    assert pm_id == 9001
    get = next(s for s in b.seen if s.path.endswith("messages.php"))
    assert get.query == {"action": "new", "uid": "11"}
    data = sent_form(b, "/messages.php")
    assert data["req_username"] == "Шерлок" and data["req_subject"] == "Ночь 1"
    assert data["req_message"] == "Проверка: Kotik — мафия." and data["savemessage"] == "1"
    post = next(s for s in b.seen if s.method == "POST" and s.path.endswith("messages.php"))
    assert post.query["format"] == "json"


def test_publish_confirms_sends_once_and_dry_runs(board: tuple[MybbBoard, str],
                                                  tmp_path: Path) -> None:
    b, root = board
    store = Store.open(tmp_path / "game.db")
    opened: list[MybbPoster] = []

    def sender() -> MybbPoster:
        opened.append(poster(root))
        return opened[-1]

    def send(**kw: object) -> Outcome:
        return publish([Outgoing("post", "партия 8", "day1", "topic:317", TEXT,
                                 label="подсчёт голосов, день 1")], store,
                       open_sender=sender, echo=lambda s: None, **kw)  # type: ignore[arg-type]

    try:
        assert send(confirm=None, dry_run=True).status == "dry_run"
        assert send(confirm=lambda q: False).status == "declined"
        assert not opened and not b.seen  # nothing logs in for a dry run or a «no»
        assert send(confirm=lambda q: True).status == "sent" and len(b.posts) == 2
        again = send(confirm=None)
        assert again.already and not again.pending and len(b.posts) == 2
        assert store.was_sent(again.already[0][0].key).forum_id == 52302  # type: ignore[union-attr]
    finally:
        store.close()


def test_the_registry_opens_this_poster(board: tuple[MybbBoard, str]) -> None:
    _, root = board
    settings = ForumSettings(url=f"{root}viewtopic.php?id=317", rate_limit=1000)
    p = open_poster(settings, lambda user: Secret("x"))
    assert isinstance(p, MybbPoster)
    p.close()
