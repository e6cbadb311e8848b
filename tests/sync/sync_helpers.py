"""Shared helpers of the network/storage tests: posts and pages by hand."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from support.phpbb.respx_board import BOARD

from referee.core.kernel import EditNotice, Post, TopicPage

TOPIC_URL = BOARD + "viewtopic.php?t=3"
PASSWORD = "s3cret-Пароль-42"
"""A password that must never show up anywhere but in the login POST body."""

DAY1 = datetime(2026, 11, 20, 15, 0, tzinfo=UTC)


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
