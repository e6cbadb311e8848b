"""The SMF engine against a live board on 127.0.0.1 whose truth changes between syncs:
incremental topic sync, edits and deletions, a changed page size, logins (the two random
tokens, «подождать 2 секунды», a wrong password, an expired session) and the PM folders in
each display mode."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.clock import WallTime
from support.moscow import msk as moscow
from support.smf.live import LiveBoard
from support.smf.site import HOST_NAME, Reply, Request, Session

from adapters.smf.client import LOGIN_SPACING
from referee.config.game import Config
from referee.core.errors import ConfigError, ForumError, LoginFailed, LoginRequired
from referee.store import Store
from referee.store.sync import sync_pms, sync_topic


def test_a_topic_is_read_once_and_then_from_its_last_page(make_forum, live: LiveBoard,
                                                          config: Config, store: Store) -> None:
    forum = make_forum()
    first = sync_topic(config, store, forum)
    assert (first.new_posts, first.pages_fetched, first.requests) == (60, 3, 3)
    assert store.topic_per_page(2) == 25
    again = sync_topic(config, store, forum)
    assert (again.new_posts, again.requests) == (0, 1)
    for k in range(30):
        live.add_post("Лиса", f"Новый пост {k}, мой голос пока не отдаю.")
    grown = sync_topic(config, store, forum)
    # Page 3 (now full) and the new page 4: k new pages cost k + 1 requests.
    assert (grown.new_posts, grown.start_page, grown.last_page, grown.requests) == (30, 3, 4, 2)
    assert live.log[-2:] == ["GET index.php?topic=2.50", "GET index.php?topic=2.75"]


def test_a_new_run_jumps_to_the_last_page_with_the_stored_page_size(
        make_forum, live: LiveBoard, config: Config, store: Store) -> None:
    sync_topic(config, store, make_forum())
    fresh = make_forum()  # a later run: nothing learned yet but what the store keeps
    again = sync_topic(config, store, fresh)
    assert again.requests == 1 and live.log[-1] == "GET index.php?topic=2.50"


def test_an_edit_on_the_last_page_is_kept_as_a_revision(make_forum, live: LiveBoard,
                                                        config: Config, store: Store,
                                                        clock: WallTime) -> None:
    forum = make_forum()
    sync_topic(config, store, forum)
    live.edit(60, "Мой голос – <span style=\"color: red;\" class=\"bbc_color\">Kotik</span> "
                  "передумал, теперь он.", clock.wall())
    report = sync_topic(config, store, forum)
    assert (report.edited_posts, report.requests) == (1, 1)
    post = next(p for p in store.posts() if p.post_id == 60)
    assert post.edit is not None and post.edit.editor == post.author == "Barmaley"
    assert len(post.revisions) == 2 and "Kotik" in post.revisions[-1].body_text


def test_a_deleted_post_is_noticed_by_a_full_sync(make_forum, live: LiveBoard, config: Config,
                                                  store: Store) -> None:
    forum = make_forum()
    sync_topic(config, store, forum)
    live.delete(30)
    report = sync_topic(config, store, forum, full=True)
    assert report.missing_posts == 1 and report.new_posts == 0


def test_a_changed_page_size_neither_skips_nor_repeats_pages(make_forum, live: LiveBoard,
                                                             config: Config, store: Store) -> None:
    sync_topic(config, store, make_forum())
    for k in range(5):
        live.add_post("Ёжик", f"Пост после смены размера {k}.")
    live.per_page = 15  # the board's page size changed: the stored cursor says 25
    report = sync_topic(config, store, make_forum())
    assert report.new_posts == 5
    assert (report.last_page, report.total_pages) == (5, 5)
    assert len(store.posts()) == 65


def test_the_board_zone_must_be_the_configured_one(make_forum, config: Config,
                                                   store: Store) -> None:
    with pytest.raises(ConfigError) as err:
        sync_topic(config, store, make_forum(timezone="UTC"))
    assert "UTC+3" in err.value.message


# --------------------------------------------------------------------------- login

def test_the_pms_need_a_login_made_with_the_forms_own_tokens(
        make_forum, live: LiveBoard, config: Config, store: Store, tmp_path: Path) -> None:
    live.add_pm("Шерлок", "Проверка", "Проверяю Kotik", moscow("2026-11-26 23:00"))
    forum = make_forum(cookie_file=tmp_path / "game.cookies")
    report = sync_pms(config, store, forum)
    assert report.new_pms == 1 and forum.logins == 1
    assert live.requests("POST") == ["POST index.php?action=login2"]
    forum.close()
    # The next run reuses the saved session: no login.
    again = make_forum(cookie_file=tmp_path / "game.cookies")
    sync_pms(config, store, again)
    assert again.logins == 0 and len(live.requests("POST")) == 1


def test_a_login_lands_without_following_smfs_two_redirects(
        make_forum, live: LiveBoard, config: Config, store: Store) -> None:
    # SMF answers an accepted login with a 302 to «login2;sa=check;member=N», which 302s to
    # the index (issue 30): the first redirect and the cookies it set prove the login, so
    # neither page is asked for — 2 requests instead of 4.
    live.add_pm("Шерлок", "Проверка", "Проверяю Kotik", moscow("2026-11-26 23:00"))
    forum = make_forum()
    forum.login()
    assert live.log == ["GET index.php?action=login", "POST index.php?action=login2"]
    assert forum.requests == 2 and live.requests("sa=check") == []
    report = sync_pms(config, store, forum)  # the session the login made reads the PMs
    assert report.new_pms == 1 and forum.logins == 1


def test_a_login_whose_cookie_the_client_did_not_keep_is_checked_on_the_board(
        make_forum, live: LiveBoard, monkeypatch: pytest.MonkeyPatch) -> None:
    # The redirect proves the login only with the cookies it set in the jar: a cookie for
    # another domain is not kept, so the redirects are followed and the page they end on
    # decides (SMF still knows the member by the PHP session).
    login = live._login

    def foreign_cookie(req: Request, session: Session) -> Reply | None:
        reply = login(req, session)
        if reply is not None and req.method == "POST" and reply.status == 302:
            reply.headers = [(k, v + "; Domain=elsewhere.example" if k == "Set-Cookie" else v)
                             for k, v in reply.headers]
        return reply

    monkeypatch.setattr(live, "_login", foreign_cookie)
    forum = make_forum()
    forum.login()
    assert live.requests("sa=check") == ["GET index.php?action=login2;sa=check;member=2"]
    assert live.log[-1] == "GET index.php" and forum.requests == 4


def test_a_login_too_soon_after_another_is_waited_out(make_forum, live: LiveBoard,
                                                      clock: WallTime) -> None:
    live.login_posts.append(clock.t - 0.5)  # another program logged in half a second ago
    forum = make_forum()
    forum.login()
    assert live.requests("POST") == ["POST index.php?action=login2"] * 2
    assert any(s >= LOGIN_SPACING - 0.01 for s in clock.slept)


def test_a_wrong_password_is_said_in_smfs_words(make_forum) -> None:
    with pytest.raises(LoginFailed) as err:
        make_forum(password="не тот").login()
    assert "Неверный пароль" in err.value.message and "не тот" not in str(err.value)


def test_without_a_username_the_host_is_told_what_to_set(make_forum) -> None:
    with pytest.raises(LoginRequired) as err:
        make_forum(username=None).fetch_pm_folder("inbox")
    assert "Только зарегистрированные" in err.value.message
    assert "[forum] username" in str(err.value.hint)


def test_a_session_lost_mid_run_leads_to_one_more_login(make_forum, live: LiveBoard,
                                                        config: Config, store: Store) -> None:
    live.add_pm("Шерлок", "Ночь", "Проверяю Kotik", moscow("2026-11-26 23:00"))
    forum = make_forum()
    sync_pms(config, store, forum)
    live.expire()
    live.add_pm("Лиса", "Ночь", "Стреляем в Пуаро", moscow("2026-11-26 23:30"))
    report = sync_pms(config, store, forum)
    assert report.new_pms == 1 and forum.logins == 2


# --------------------------------------------------------------------------- PMs

def _inbox(live: LiveBoard, n: int) -> None:
    for k in range(n):
        live.add_pm(["Шерлок", "Лиса", "Мисс Марпл"][k % 3], f"Ход {k}", f"Проверяю Kotik {k}",
                    moscow("2026-11-26 22:00").replace(minute=k % 60, second=k))


def test_display_mode_all_reads_every_pm_from_its_folder_pages(
        make_forum, live: LiveBoard, config: Config, store: Store) -> None:
    _inbox(live, 30)
    forum = make_forum()
    forum.login()
    report = sync_pms(config, store, forum)
    assert (report.listed, report.new_pms, report.requests) == (30, 30, 2)
    assert live.requests("pmid=") == []
    assert sorted(p.pm_id for p in store.pms()) == list(range(1, 31))
    live.add_pm("Шерлок", "Ещё", "Проверяю Лиса", moscow("2026-11-27 01:00"))
    again = sync_pms(config, store, forum)
    # The newest page (PMs 26–31) holds the new one above PMs known before: the older page
    # is not listed (issue 30, sync_pms since the «polite» merge; tests/sync/test_sync_pms).
    assert (again.new_pms, again.requests) == (1, 1)
    quiet = sync_pms(config, store, forum)
    assert (quiet.new_pms, quiet.requests) == (0, 1)


def test_a_landing_on_the_oldest_page_is_followed_to_the_newest(
        make_forum, live: LiveBoard, config: Config, store: Store) -> None:
    _inbox(live, 30)
    live.pm_newest_first = True
    forum = make_forum()
    forum.login()
    first = forum.fetch_pm_folder("inbox", 1)
    assert [e.pm_id for e in first.entries] == [30, 29, 28, 27, 26]
    report = sync_pms(config, store, forum)
    assert report.new_pms == 30


def test_display_mode_one_opens_each_unknown_pm_by_its_link(make_forum, live: LiveBoard,
                                                            config: Config, store: Store) -> None:
    _inbox(live, 4)
    live.pm_mode = 1
    forum = make_forum()
    forum.login()
    report = sync_pms(config, store, forum)
    # The folder page shows the newest PM in full, the other three are opened.
    assert (report.new_pms, report.requests, len(live.requests("pmid="))) == (4, 4, 3)
    assert [p.body_text for p in sorted(store.pms(), key=lambda p: p.pm_id)] == [
        f"Проверяю Kotik {k}" for k in range(4)]


def test_conversation_mode_is_refused_with_a_hint(make_forum, live: LiveBoard,
                                                  config: Config, store: Store) -> None:
    _inbox(live, 2)
    live.pm_mode = 2
    forum = make_forum()
    forum.login()
    with pytest.raises(ForumError) as err:
        sync_pms(config, store, forum)
    assert "Все сразу" in str(err.value)


def test_the_sent_folder_names_recipients_and_the_outbox_is_empty(make_forum,
                                                                  live: LiveBoard) -> None:
    from support.smf.live import LivePm

    live.sent.append(LivePm(7, HOST_NAME, ("Шерлок",), moscow("2026-11-26 17:30"), "Роль",
                            "Ты комиссар."))
    forum = make_forum()
    page = forum.fetch_pm_folder("sentbox")
    assert [(e.pm_id, e.sender, e.recipients) for e in page.entries] == [
        (7, HOST_NAME, ("Шерлок",))]
    pm = forum.fetch_pm(page.entries[0], "sentbox")
    assert (pm.sender, pm.recipients, pm.folder) == (HOST_NAME, ("Шерлок",), "sentbox")
    assert forum.fetch_pm_folder("outbox").entries == ()


def test_the_sync_line_says_how_many_pms_smf_marked_read(
        make_forum, live: LiveBoard, config: Config, store: Store) -> None:
    """Issue 27, item 5: SMF 2.1 marks the host's PMs read as it shows them (mode «все
    сразу»: every unread PM of the inbox, by the first folder page; else the one shown) and
    has no way to show a PM's text otherwise. The sync line says how many, once."""
    _inbox(live, 30)
    forum = make_forum()
    forum.login()
    report = sync_pms(config, store, forum)
    assert report.marked_read == 30 and all(p.read for p in live.inbox)
    assert "форум отметил прочитанными: 30 (" in report.summary()
    assert report.summary().count("прочитанными") == 1
    quiet = sync_pms(config, store, forum)   # nothing new, nothing unread: nothing said
    assert quiet.marked_read == 0 and "прочитанными" not in quiet.summary()
    live.add_pm("Шерлок", "Ещё", "Проверяю Лиса", moscow("2026-11-27 01:00"))
    assert sync_pms(config, store, forum).marked_read == 1


def test_in_display_mode_one_each_pm_shown_is_marked_read(
        make_forum, live: LiveBoard, config: Config, store: Store) -> None:
    _inbox(live, 4)
    live.pm_mode = 1
    live.inbox[0].read = True   # the host had opened the oldest one himself
    forum = make_forum()
    forum.login()
    report = sync_pms(config, store, forum)
    assert report.new_pms == 4 and report.marked_read == 3
    assert "форум отметил прочитанными: 3" in report.summary()
