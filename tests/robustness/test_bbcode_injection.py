"""A nick or a quoted text cannot inject BBCode into anything the host pastes: every summary
passes player text through :func:`referee.core.bbcode.escape` (a zero-width space after ``[``).

A one-day game whose players are called ``[/color][url=http://evil]x[/url]``, ``[b]``,
``[quote]``, ``Мисс [i]Марпл`` and ``[/b][size=200]``, played through the CLI as a host
would: the tally of day 1, the activity check of turn 1, night 1 (morning report, private
results, the host's part), and the role PMs of ``referee deal``.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.core.bbcode import ZWSP
from referee.core.kernel import Post, PrivateMessage, TopicPage
from referee.core.nicks import Roster
from referee.store import Store

EVIL = "[/color][url=http://evil]x[/url]"
BOLD = "[b]"
QUOTE = "[quote]"
MARPLE = "Мисс [i]Марпл"
SHOUT = "[/b][size=200]"
HOSTILE = (EVIL, BOLD, QUOTE, MARPLE, SHOUT)

CONFIG = f'''
[game]
host = "Ведущий"
start = "2026-11-20 18:00"

[forum]
url = "https://forum.test/viewtopic.php?t=3"
timezone = "Europe/Moscow"

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
"{EVIL}" = {{ role = "mafia", clan = "Лисья нора" }}
"{BOLD}" = "commissar"
"{QUOTE}" = "necromancer"
"Kotik" = "maniac"
"Лиса" = {{ role = "mafia", clan = "Лисья нора" }}
"{MARPLE}" = "doctor"
"{SHOUT}" = "citizen"
"Снежок" = "citizen"
"Гроза" = "citizen"
'''

DAY1 = datetime(2026, 11, 20, 15, 0, tzinfo=UTC)  # 18:00 Moscow
NIGHT1 = datetime(2026, 11, 21, 19, 30, tzinfo=UTC)  # 22:30 Moscow
RED = '<span style="color:red">{}</span>'
REASON = " Весь день молчит и уводит обсуждение в сторону, это подозрительно."

# Day 1, as the host's table would list it: who posts what.
POSTS: tuple[tuple[int, str, str], ...] = (
    (101, EVIL, "Мой голос — " + RED.format(BOLD) + REASON),
    (102, BOLD, "Мой голос — " + RED.format(EVIL) + REASON),
    (103, QUOTE, "Мой голос — " + RED.format(EVIL) + REASON),
    (104, "Kotik", "Мой голос — " + RED.format(EVIL) + REASON),
    (105, "Лиса", "Мой голос — " + RED.format(QUOTE)),                     # no reason: V3
    (106, MARPLE, f"<blockquote><div><cite>{EVIL} писал(а):</cite>Мой голос — "
                  + RED.format(MARPLE) + "</div></blockquote>Не согласна." + REASON),
    (107, "Снежок", "Мой голос — " + RED.format("[/color][url=http://evil]y[/url]") + REASON),
    (108, "Гроза", "Мой голос — " + RED.format(EVIL) + REASON),
)
# Night 1 PMs to the host: (sender, text).
PMS: tuple[tuple[str, str], ...] = (
    (BOLD, f"Проверяю {SHOUT}"),
    ("Лиса", f"Стреляем в {MARPLE}, исполнитель Лиса"),
    ("Kotik", f"Убиваю {QUOTE}"),
    (MARPLE, f"Лечу {BOLD}"),
    (QUOTE, f"Защищаю {MARPLE} и {BOLD}"),
    ("[url=http://evil]spam[/url]", "Проверяю [url=http://evil]всех[/url]"),  # not a player
)
"""Night 1: the mafia shoots Мисс [i]Марпл (saved by the necromancer), the maniac kills
[quote], the commissar checks [/b][size=200] — who posts nothing and so leaves (A1)."""


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    tmp = tmp_path_factory.mktemp("injection")
    config = tmp / "referee.toml"
    config.write_text(CONFIG, encoding="utf-8")
    db = tmp / "game.db"
    posts = tuple(
        Post(post_id=pid, author=author, author_id=None,
             posted_at=DAY1 + timedelta(hours=1, minutes=i), body_html=html,
             body_text=re.sub(r"<[^>]+>", "", html), page=1, position=i + 1, topic_id=3)
        for i, (pid, author, html) in enumerate(POSTS)
    )
    with Store.open(db) as store:
        store.save_topic_page(TopicPage(3, "Мафия", 1, 1, 25, posts), DAY1 + timedelta(days=2))
        for i, (sender, text) in enumerate(PMS):
            store.save_pm(PrivateMessage(
                pm_id=200 + i, sender=sender, sender_id=None, recipients=("Ведущий",),
                sent_at=NIGHT1 + timedelta(minutes=i), subject="Ход", body_html=text,
                body_text=text))
    return config, db


def referee(game: tuple[Path, Path], *args: str) -> str:
    config, db = game
    res = CliRunner().invoke(app, ["--config", str(config), "--db", str(db),
                                   "--now", "2026-11-22 12:00", *args])
    assert res.exit_code == 0, (res.output, res.exception)
    return res.stdout


def paste_part(output: str) -> str:
    return output.split("ТОЛЬКО ДЛЯ ВЕДУЩЕГО")[0]


def assert_inert(text: str) -> None:
    """No player text opens or closes a tag: no hostile nick appears unescaped, and the
    tags that remain (ours) are balanced."""
    assert "[url=http://evil" not in text
    for nick in (EVIL, QUOTE, MARPLE, SHOUT, "[/color][url=http://evil]y[/url]"):
        assert nick not in text, nick
    stack: list[str] = []
    for m in re.finditer(r"\[(/?)([a-z*]+)(?:=[^\]]*)?\]", text):
        closing, tag = m.group(1), m.group(2)
        if tag == "*":
            continue
        if not closing:
            stack.append(tag)
        else:
            assert stack and stack.pop() == tag, f"unbalanced [/{tag}] at {m.start()}"
    assert not stack, f"unclosed {stack}"


def test_a_nick_with_brackets_or_dashes_at_its_edges_can_be_voted_for_V2() -> None:
    # The punctuation around a typed nick is dropped only when the nick itself lacks it.
    roster = Roster((*HOSTILE, "Kotik", "-=Tiger=-", "[KGB]Agent"))
    for nick in (*HOSTILE, "-=Tiger=-", "[KGB]Agent"):
        assert roster.match(nick).nick == nick
    assert roster.match("«Kotik».").nick == "Kotik" and roster.match("(Kotik)").nick == "Kotik"


def test_the_tally_escapes_every_nick_and_typed_text_V6(game: tuple[Path, Path]) -> None:
    out = referee(game, "tally", "--day", "1", "--offline")
    paste = paste_part(out)
    assert f"{EVIL.replace('[', '[' + ZWSP)} — 4" in paste  # counted: 102, 103, 104, 108
    assert_inert(paste)
    assert_inert(out)


def test_the_activity_check_escapes_every_nick_A1_A2(game: tuple[Path, Path]) -> None:
    out = referee(game, "check-activity", "--turn", "1", "--offline")
    paste = paste_part(out)
    assert SHOUT.replace("[", "[" + ZWSP) in paste  # posted nothing on turn 1: leaves (A1)
    assert_inert(paste)
    assert_inert(out)


def test_the_night_report_and_private_results_escape_every_nick_N2(
    game: tuple[Path, Path],
) -> None:
    out = referee(game, "resolve-night", "--night", "1", "--dry-run", "--offline")
    paste = paste_part(out)
    assert QUOTE.replace("[", "[" + ZWSP) in paste  # killed by the maniac
    private = out.split("Личные результаты к отправке (1):")[1]
    assert SHOUT.replace("[", "[" + ZWSP) in private.split("\n")[1]  # the commissar's check
    assert_inert(paste)
    assert_inert(out)


def test_the_role_pms_of_the_deal_escape_every_nick(game: tuple[Path, Path]) -> None:
    out = referee(game, "deal", "--seed", "7", "--force")
    assert out.count("── ЛС для") == 9
    for text in out.split("── ЛС для")[1:]:
        assert_inert(text.split("\n", 1)[1])  # the PM body (the heading names the nick)
