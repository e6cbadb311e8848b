"""Issue 29 item 4: the sync line counts HTTP requests as «запросов к форуму» — to a host
«заявка» is a night action, and «заявок: 3» in the sync line read as three night orders."""

from __future__ import annotations

from referee.store.sync import PmSyncReport, SyncReport


def test_the_topic_line_says_requests_to_the_forum() -> None:
    report = SyncReport(topic_id=7, title="Мафия", start_page=1, last_page=2, total_pages=2,
                        pages_fetched=2, pages_changed=2, new_posts=22, edited_posts=0,
                        missing_posts=0, requests=3)
    assert report.summary() == ("тема 7: прочитаны стр. 1–2 из 2; новых сообщений: 22, "
                                "запросов к форуму: 3")
    assert "заяв" not in report.summary()


def test_the_pm_line_says_requests_to_the_forum() -> None:
    report = PmSyncReport(folders=("inbox",), listed=5, opened=0, new_pms=2, removed=(),
                          requests=1)
    assert report.summary().startswith("ЛС (входящие): в списке 5, новых 2, "
                                       "запросов к форуму: 1")
    assert "заяв" not in report.summary()
