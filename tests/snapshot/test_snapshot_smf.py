"""SMF from saved pages: the real SMF 2.1 pages of «Мафия: игра 1» (fixtures/smf21-ru, read in
place) saved by the host's browser — the three topic pages, both inbox pages, the sent
folder, and pages that are none of these — give the host's own count of each day and the
night deaths the live board gives (tests/smf/test_smf_game.py); a page saved before and
after an edit is read in both versions."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from support.browser import Browser, save

from adapters.base import ForumSettings
from adapters.registry import open_forum
from adapters.snapshot import SnapshotForum
from referee.core.errors import ConfigError
from referee.core.kernel import PageCursor, TopicPage
from referee.game import Game

REAL = Path(__file__).resolve().parents[2] / "fixtures" / "smf21-ru"
MSK = ZoneInfo("Europe/Moscow")
TOPIC_URL = "http://127.0.0.1:8080/index.php?topic=2.0"

# (file, the browser the host saved it with); the live test reads the same pages.
FOLDER: tuple[tuple[str, Browser], ...] = (
    ("topic_p1_host.html", "chrome"), ("topic_p2_host.html", "firefox"),
    ("topic_p3_host.html", "no_scripts"), ("pm_inbox_host.html", "chrome"),
    ("pm_inbox_p1_host.html", "html_only"), ("pm_sentbox_host.html", "firefox"),
    ("login_page.html", "chrome"), ("board_host.html", "chrome"),
    ("topic_print_guest.html", "chrome"), ("closed_topic_host.html", "chrome"),
)

CONFIG = """
[game]
title = "Мафия: игра 1"
host = "Ведущий"
start = "2026-11-26 18:00"

[forum]
url = "{url}"
snapshot = "{folder}"
timezone = "Europe/Moscow"
username = "Ведущий"

[[schedule.days]]
day = 1
start = "2026-11-26 18:00"
deadline = "2026-11-27 22:00"
night_deadline = "2026-11-28 10:00"

[[schedule.days]]
day = 2
start = "2026-11-28 10:10"
deadline = "2026-11-28 22:00"
night_deadline = "2026-11-29 10:00"

[[schedule.days]]
day = 3
start = "2026-11-29 10:05"
deadline = "2026-11-29 18:00"
night_deadline = "2026-11-30 10:00"

[players]
"Шерлок" = "commissar"
"Kotik" = "citizen"
"Лиса" = "citizen"
"Пуаро" = "citizen"
"Мисс Марпл" = "doctor"
"Nika-77" = "citizen"
"Ёжик" = "citizen"
"Полковник" = "citizen"
"Гроза" = "citizen"
"Мотылёк" = "citizen"
"Barmaley" = {{ role = "mafia", clan = "Мафия" }}
"Тень_Ночи" = {{ role = "mafia", clan = "Мафия" }}

[rules]
changes = "{changes}"
reason_min_letters = 0
"""


def manifest() -> dict:  # type: ignore[type-arg]
    if not REAL.is_dir():
        pytest.skip(f"{REAL} is not here: the real SMF pages of the project")
    return json.loads((REAL / "manifest.json").read_text(encoding="utf-8"))


def served_as(name: str) -> tuple[str, str]:
    """(the address the page was served from, its Content-Type) as the manifest says."""
    page = next(p for p in manifest()["pages"] if p["file"] == name)
    return page["final_url"], page["content_type"]


def save_real(folder: Path, name: str, browser: Browser, content: bytes | None = None) -> Path:
    url, content_type = served_as(name)
    return save(folder, content or (REAL / name).read_bytes(), url, browser=browser,
                content_type=content_type)


def host_tally(day: int) -> dict[str, list[str]]:
    return {t: sorted(v) for t, v in manifest()["host_tallies"][str(day)].items()}


def open_game(tmp_path: Path, folder: Path, *, changes: str = "last_counts",
              url: str = TOPIC_URL) -> Game:
    cfg = tmp_path / "referee.toml"
    cfg.write_text(CONFIG.format(url=url, folder=folder, changes=changes), encoding="utf-8")
    return Game.open(cfg, tmp_path / "game.db",
                     clock=lambda: datetime(2026, 11, 30, 12, 0, tzinfo=MSK))


def counts(game: Game, day: int) -> dict[str, list[str]]:
    game._tallies.clear()
    return {c.target: sorted(v.voter for v in c.voters) for c in game.tally_day(day).tally.counts}


def test_the_saved_pages_give_the_hosts_count_of_each_day(tmp_path: Path) -> None:
    folder = tmp_path / "Мафия"
    for name, browser in FOLDER:
        save_real(folder, name, browser)
    game = open_game(tmp_path, folder)
    lines = game.sync(progress=None)
    assert lines[0].startswith("тема 2: прочитаны стр. 1–3 из 3; новых сообщений: 70")
    assert "ЛС (входящие): в списке 27, новых 27" in lines[-1]
    skipped = "\n".join(ln for ln in lines if ln.startswith("! пропущен"))
    assert "форма входа" in skipped and "версия темы для печати" in skipped
    assert "страница другой темы (3)" in skipped and "страница SMF, не тема и не ЛС" in skipped
    for day in (1, 2):
        assert counts(game, day) == host_tally(day), f"day {day}"
    assert [game.tally_day(d).tally.hanged for d in (1, 2)] == ["Kotik", "Тень_Ночи"]
    assert [d.player for d in game.resolve_night(1, record=False).outcome.deaths] == ["Пуаро"]
    assert [d.player for d in game.resolve_night(2, record=False).outcome.deaths] == ["Шерлок"]
    # As on the live board: the doctor's second heal of Шерлок is refused by referee's
    # rules; the host lets it stand, and the count is his.
    game.drop_action(2, "Barmaley", "shoot", reason="в этой игре доктор лечит кого угодно")
    assert counts(game, 3) == host_tally(3) and game.tally_day(3).tally.hanged == "Barmaley"
    game.close()


def test_the_sent_folder_is_read_when_asked(tmp_path: Path) -> None:
    folder = tmp_path / "p"
    for name, browser in FOLDER:
        save_real(folder, name, browser)
    forum = open_forum(ForumSettings(url=TOPIC_URL, snapshot=folder, timezone="Europe/Moscow",
                                     username="Ведущий"))
    sent = forum.fetch_pm_folder("sentbox").entries
    want = {p["id_pm"] for p in manifest()["pms"] if p["folder_for_host"] == "sent"}
    assert {e.pm_id for e in sent} == want and all(e.sender == "Ведущий" for e in sent)


def _before_the_edit(page: str) -> bytes:
    """Page 1 as it stood before Гроза edited her vote (post 14): her first text, no edit
    notice, and the board's clock in the header before the edit."""
    text = (REAL / page).read_text(encoding="utf-8")
    text = text.replace(
        'Ёжик</span> потому что защищает Kotik без причины.<br>(передумала насчёт Пуаро)',
        'Пуаро</span> потому что он слишком быстро присоединился к Лисе.')
    text, edits = re.subn(r'<span class="smalltext modified[^"]*" id="modified_14">'
                          r'<span class="lastedit">[^<]*</span>[^<]*</span>', "", text, count=1)
    assert edits == 1
    text = re.sub(r'<time datetime="[^"]*">[^<]*</time>',
                  '<time datetime="2026-11-27T05:00:00Z">27 ноября 2026, 08:00</time>', text,
                  count=1)
    return text.encode("utf-8")


@pytest.mark.parametrize("older_saved_last", [False, True])
def test_a_page_saved_before_and_after_an_edit_keeps_the_first_vote(
        tmp_path: Path, older_saved_last: bool) -> None:
    folder = tmp_path / "p"
    versions = [("topic_p1_host.html", _before_the_edit("topic_p1_host.html")),
                ("topic_p1_host.html", None)]
    if older_saved_last:  # a copy of the folder reset the files' times: the clock decides
        versions.reverse()
    for name, content in versions:
        save_real(folder, name, "chrome", content)
    for name in ("topic_p2_host.html", "topic_p3_host.html", "pm_inbox_host.html",
                 "pm_inbox_p1_host.html"):
        save_real(folder, name, "chrome")
    forum = open_forum(ForumSettings(url=TOPIC_URL, snapshot=folder, timezone="Europe/Moscow"))
    first, second = (tp for tp in forum.fetch_topic_pages(PageCursor(1)) if tp.page == 1)
    def vote(page: TopicPage) -> str:
        return next(p for p in page.posts if p.post_id == 14).body_text

    assert "Пуаро" in vote(first) and "Ёжик" in vote(second)
    game = open_game(tmp_path, folder, changes="forbidden")  # V4: the first vote counts
    game.sync(progress=None)
    revisions = [r.body_text for r in game.store.post(14).revisions]
    assert ["Пуаро" in revisions[0], "Ёжик" in revisions[-1]] == [True, True]
    voted = {v.voter: v.target for v in game.tally_day(1).tally.votes}
    assert voted["Гроза"] == "Пуаро"
    game.close()


def test_a_folder_of_another_topic_is_refused_saying_what_it_holds(tmp_path: Path) -> None:
    folder = tmp_path / "p"
    for name, browser in FOLDER:
        save_real(folder, name, browser)
    other = "http://127.0.0.1:8080/index.php?topic=7.0"
    with pytest.raises(ConfigError) as refused:
        open_forum(ForumSettings(url=other, snapshot=folder, timezone="Europe/Moscow"))
    said = refused.value.message
    assert "нет страниц темы 7" in said and "страницы темы 2 «Мафия: игра 1» (стр. 1, 2, 3)" \
        in said and "страницы темы 3" in said and "ЛС: " in said


def test_the_engine_is_told_by_the_pages(tmp_path: Path) -> None:
    folder = tmp_path / "p"
    for name, browser in FOLDER[:4]:
        save_real(folder, name, browser)
    forum = open_forum(ForumSettings(snapshot=folder, timezone="Europe/Moscow"))
    assert isinstance(forum, SnapshotForum) and forum.engine == "smf" and forum.topic_id == 2


def test_pms_opened_one_by_one_are_read_and_the_dialogue_view_is_named(
        tmp_path: Path) -> None:
    folder = tmp_path / "p"
    save_real(folder, "topic_p1_host.html", "chrome")
    views = [save_real(folder, f"pm_view_{n}_host.html", "firefox") for n in (1, 2)]
    dialogues = save_real(folder, "pm_inbox_mode2_host.html", "chrome")
    forum = open_forum(ForumSettings(url=TOPIC_URL, snapshot=folder, timezone="Europe/Moscow"))
    assert isinstance(forum, SnapshotForum)
    # «По одному»: each page shows its own message in full, and lists the rest.
    assert [e.pm_id for e in forum.fetch_pm_folder("inbox").entries] == [1, 2]
    assert {p for p, _ in forum.skipped} >= {dialogues} and not set(views) & {
        p for p, _ in forum.skipped}
    assert "«диалоги»" in dict(forum.skipped)[dialogues]
    assert 3 in {e.pm_id for e in forum.not_saved}
