"""Shared helpers of the network/storage tests: a fake clock, posts and pages by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from referee.core.kernel import EditNotice, Post, TopicPage

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "phpbb33-ru"
BOARD = "https://forum.test/"
TOPIC_URL = BOARD + "viewtopic.php?t=3"
PASSWORD = "s3cret-Пароль-42"
"""A password that must never show up anywhere but in the login POST body."""

DAY1 = datetime(2026, 11, 20, 15, 0, tzinfo=UTC)


class FakeTime:
    """Monotonic clock + sleep that only advance when someone sleeps: tests never wait."""

    def __init__(self, start: float = 1000.0) -> None:
        self.t = start
        self.sleeps: list[float] = []

    def clock(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(round(seconds, 3))
        self.t += seconds


def fixture_bytes(name: str) -> bytes:
    return (FIXTURES / name).read_bytes()


def post(
    post_id: int,
    minute: int,
    text: str = "",
    *,
    author: str = "Лиса",
    edit_count: int = 0,
    html: str | None = None,
) -> Post:
    """A post written ``minute`` minutes after day 1 started."""
    body = text or f"сообщение {post_id}"
    return Post(
        post_id=post_id, author=author, author_id=60, posted_at=DAY1 + timedelta(minutes=minute),
        body_html=html if html is not None else f"<p>{body}</p>", body_text=body, topic_id=3,
        edit=EditNotice("Лиса", DAY1 + timedelta(hours=5), edit_count) if edit_count else None,
    )


def page(n: int, total: int, *posts: Post, per_page: int = 3) -> TopicPage:
    return TopicPage(
        topic_id=3, title="Мафия: игра 2", page=n, total_pages=total, per_page=per_page,
        posts=tuple(posts), total_posts=None,
    )
