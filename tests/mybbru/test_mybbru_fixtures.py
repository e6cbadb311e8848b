"""The example API answers in ``../shared/fixtures/mybbru/api`` (the documented shape,
synthesized — README there), read in place: each file through the parser, and the whole
2-day game they hold served on 127.0.0.1 answer for answer, synced and counted."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import parse_qs

import pytest
from support.mybbru.board import MybbBoard, serve
from typer.testing import CliRunner

from adapters.base import ForumSettings, Secret
from adapters.mybbru import api
from adapters.mybbru.client import MybbForum
from referee.cli import app
from referee.core.errors import LoginFailed
from referee.core.markup import QUOTE_MARK

FIXTURES = Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "mybbru"
API = FIXTURES / "api"
GOOD_PASSWORD = "пароль-Макса"

pytestmark = pytest.mark.skipif(
    not API.is_dir(),
    reason=f"{FIXTURES} is not here: the shared MyBB.ru example answers are read in place",
)


def answer(name: str) -> bytes:
    return (API / name).read_bytes()


def test_post_get_page_reads_ids_times_and_bodies() -> None:
    response = api.response_of(answer("post.get_topic317_skip0_limit100.json"), "post.get")
    posts = api.posts_of(response, page=1, topic_id=317)
    assert len(posts) == 60 and posts[0].post_id == 52301 and posts[-1].post_id == 52361
    assert 52339 not in {p.post_id for p in posts}  # the deleted post's gap
    first = posts[0]
    assert first.author == "Ведущий_Макс" and first.author_id == 2
    assert first.posted_at.isoformat() == "2026-11-20T15:00:00+00:00"  # 18:00 Moscow
    quoting = next(p for p in posts if p.post_id == 52312)
    assert quoting.body_html.startswith("<blockquote><cite>Nika-77 написал(а):</cite>")
    lines = quoting.body_text.split("\n")
    assert lines[0].startswith(QUOTE_MARK) and not lines[-1].startswith(QUOTE_MARK)


def test_pages_of_25_join_into_the_page_of_100() -> None:
    small = [p for name in ("skip0_limit25", "skip25_limit25", "skip50_limit25")
             for p in api.rows_of(api.response_of(answer(f"post.get_topic317_{name}.json"),
                                                  "post.get"), "post.get")]
    whole = api.rows_of(api.response_of(answer("post.get_topic317_skip0_limit100.json"),
                                        "post.get"), "post.get")
    assert small == whole
    past_end = api.response_of(answer("post.get_topic317_skip100_limit100.json"), "post.get")
    assert api.posts_of(past_end, page=2, topic_id=317) == []


def test_topic_get_counts_the_first_post_and_reads_init_id() -> None:
    info = api.topic_info(api.response_of(answer("topic.get_topic317.json"), "topic.get"), 317)
    assert info is not None
    assert (info.subject, info.posts, info.first_post_id, info.last_post_id) == (
        "Мафия: партия 7", 60, 52301, 52361)


def test_error_answers_carry_their_message() -> None:
    with pytest.raises(api.ApiRefused) as e:
        api.response_of(answer("error_unknown_method.json"), "nosuch.method")
    assert e.value.api_message == "Метод не найден."
    with pytest.raises(api.ApiRefused) as e:
        api.response_of(answer("board.auth_failure.json"), "board.auth")
    assert "Неверное имя пользователя или пароль." in str(e.value)
    ok = api.response_of(answer("board.auth_success.json"), "board.auth")
    assert api.auth_hash(ok) == ok["hash"]


def test_a_dialog_splits_into_received_and_sent() -> None:
    rows = api.rows_of(api.response_of(answer("message.get_dialog_user11.json"), "message.get"),
                       "message.get")
    pms = [api.message_of(r, "Ведущий_Макс") for r in rows]
    received = [m for m in pms if m.folder == "inbox"]
    assert [m.pm_id for m in received] == [9003, 9002]
    assert received[0].sender == "Шерлок" and received[0].sender_id == 11
    assert received[0].body_text == "Ночь 1: проверяю Полковника."
    sent = next(m for m in pms if m.pm_id == 9001)
    assert sent.sender == "Ведущий_Макс" and sent.recipients == ("Шерлок",)


# --------------------------------------------------------------------------- replayed

class FixtureBoard(MybbBoard):
    """Answers every API call with the fixture file for that very request."""

    def _api(self, method: str, query: dict[str, str], cookie: str,
             body: bytes) -> tuple[int, dict[str, str], bytes]:
        name = query.get("method", "")
        if name == "post.get":
            assert (query["topic_id"], query["sort_by"], query["sort_dir"]) == ("317", "id", "asc")
            file = f"post.get_topic317_skip{query['skip']}_limit{query['limit']}.json"
        elif name == "topic.get":
            file = "topic.get_topic317.json"
        elif name == "board.auth":
            good = parse_qs(body.decode("utf-8")).get("password") == [GOOD_PASSWORD]
            file = "board.auth_success.json" if good else "board.auth_failure.json"
        elif name == "message.getRecent":
            return 200, {}, json.dumps({"response": [{"user_id": "11",
                                                      "username": "Шерлок"}]}).encode()
        elif name == "message.get":
            file = "message.get_dialog_user11.json"
        else:
            file = "error_unknown_method.json"
        return 200, {"Content-Type": "application/json"}, answer(file)


CONFIG = """
[game]
host = "Ведущий_Макс"
[forum]
url = "{url}"
timezone = "Europe/Moscow"
username = "Ведущий_Макс"
rate_limit = 1000
[[schedule.days]]
day = 1
start = "2026-11-20 18:00"
deadline = "2026-11-21 22:00"
night_deadline = "2026-11-22 10:00"
[[schedule.days]]
day = 2
start = "2026-11-22 10:05"
deadline = "2026-11-23 22:00"
[players]
"Шерлок" = "commissar"
"Лиса" = "citizen"
"Kotik" = {{ role = "mafia", clan = "Чёрные" }}
"Тень_Ночи" = {{ role = "mafia", clan = "Чёрные" }}
"Гроза" = "citizen"
"Ёжик" = "doctor"
"Полковник" = "citizen"
"Nika-77" = "citizen"
"Мотылёк" = "citizen"
"Снежок" = "citizen"
"""


@pytest.fixture
def replayed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[FixtureBoard,
                                                                                 Path]]:
    monkeypatch.setenv("REFEREE_PASSWORD", GOOD_PASSWORD)
    board = FixtureBoard()
    with serve(board) as root:
        config = tmp_path / "referee.toml"
        config.write_text(CONFIG.format(url=f"{root}viewtopic.php?id=317"), encoding="utf-8")
        yield board, config


def _tally(config: Path, day: int, now: str) -> dict:  # type: ignore[type-arg]
    res = CliRunner().invoke(app, ["--config", str(config), "--now", now, "tally", "--day",
                                   str(day), "--format", "json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def test_the_example_game_counts_as_the_readme_reads_it(
        replayed: tuple[FixtureBoard, Path]) -> None:
    board, config = replayed
    day1 = _tally(config, 1, "2026-11-21 23:00")
    got = {c["target"]: sorted(v["voter"] for v in c["voters"]) for c in day1["counts"]}
    assert got == {"Лиса": sorted(["Nika-77", "Гроза", "Полковник", "Шерлок", "Мотылёк"]),
                   "Гроза": ["Тень_Ночи"], "Kotik": ["Ёжик"], "Nika-77": ["Лиса"],
                   "Ёжик": ["Kotik"]}
    assert day1["hanged"] == "Лиса"
    assert {r["voter"]: r["rule"] for r in day1["rejected"] if r["post_id"] == 52311} == {
        "Снежок": "V3"}  # its reason came in a later post
    day2 = _tally(config, 2, "2026-11-23 23:00")
    got = {c["target"]: sorted(v["voter"] for v in c["voters"]) for c in day2["counts"]}
    assert got == {"Kotik": sorted(["Гроза", "Шерлок", "Ёжик"]), "Nika-77": ["Тень_Ночи"],
                   "Шерлок": ["Kotik"], "Снежок": ["Мотылёк"], "Тень_Ночи": ["Nika-77"]}
    assert day2["hanged"] == "Kotik"
    looks_alike = next(v for c in day2["counts"] for v in c["voters"] if v["voter"] == "Гроза")
    assert looks_alike["match"] != "exact"
    posts = [s for s in board.seen if s.api == "post.get"]
    assert [s.query["skip"] for s in posts] == ["0", "0"]  # one page each sync, nothing new


def test_a_refused_login_says_the_boards_words(replayed: tuple[FixtureBoard, Path]) -> None:
    board, config = replayed
    root = config.read_text(encoding="utf-8").split('url = "')[1].split("viewtopic")[0]
    forum = MybbForum(ForumSettings(url=f"{root}viewtopic.php?id=317", rate_limit=1000,
                                    username="Ведущий_Макс"),
                      password=lambda user: Secret("не-тот-пароль"))
    with forum, pytest.raises(LoginFailed) as e:
        forum.login()
    assert "Неверное имя пользователя или пароль." in str(e.value)
    assert "не-тот-пароль" not in str(e.value)
    login = next(s for s in board.seen if s.api == "board.auth")
    assert login.method == "POST" and "password" not in login.query  # never in a URL
