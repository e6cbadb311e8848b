"""The board's JSON API (``/api.php?method=…``) read into kernel types: pure, no HTTP.
Facts (the answer's shape, numbers as strings, unix times, the host's own messages) and
their sources: README.md («The API»).
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from adapters.html import squash
from adapters.mybbru.body import normalise_body
from adapters.post_parts import post
from referee.core.errors import ForumError, MalformedPage
from referee.core.kernel import EditNotice, PmListEntry, Post, PrivateMessage

PER_PAGE = 100
"""Posts per ``post.get`` call: the maximum every client of the API uses."""
GUEST_ID = 1
"""PunBB's guest account: a post with this user id has no member behind it."""


class ApiUnavailable(ForumError):
    """``api.php`` did not answer as the API (a 404, an HTML page): closed on this board."""


class ApiRefused(ForumError):
    """The API answered ``{"error": …}``; ``api_message`` is its own words."""

    def __init__(self, method: str, api_message: str) -> None:
        super().__init__(f"API форума не выполнил {method}: «{api_message}»",
                         "проверьте ссылку на тему и права учётной записи ведущего; если "
                         "форум просит подождать, запустите команду позже")
        self.method = method
        self.api_message = api_message


def response_of(content: bytes, method: str) -> Any:
    """The ``response`` of one API answer; :class:`ApiRefused` for an ``error`` answer,
    :class:`ApiUnavailable` when the bytes are not the API's JSON at all."""
    try:
        payload = json.loads(_json_text(content))
    except ValueError:
        raise ApiUnavailable(f"api.php ответил не JSON на {method}") from None
    if not isinstance(payload, Mapping):
        raise ApiUnavailable(f"api.php ответил на {method} не объектом JSON")
    error = payload.get("error")
    if error:  # an ``"error": null`` beside a response is no refusal
        raise ApiRefused(method, error_text(error))
    if "response" not in payload:
        raise ApiUnavailable(f"в ответе api.php на {method} нет поля response")
    return payload["response"]


def _odd(what: str) -> MalformedPage:
    """An answer the API does not give as its clients know it."""
    return MalformedPage(f"API: {what}", "форум отвечает не так, как ожидает referee")


def _json_text(content: bytes) -> str:
    """The answer's text: UTF-8, the API's default; windows-1251 when a board answers in the
    other charset its API offers (``charset=windows-1251``)."""
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError:
        return content.decode("cp1251", "replace")


def error_text(error: Any) -> str:
    """The words of an ``error`` value: its ``message`` (what every client shows), else its
    ``code``, else any text in it."""
    if isinstance(error, Mapping):
        text = error.get("message") or error.get("code") or next(
            (v for v in error.values() if isinstance(v, str) and v.strip()), "")
    else:
        text = error
    return squash(str(text or "без описания"))


def number(row: Mapping[str, Any], key: str, *, default: int | None = None) -> int | None:
    """An API number (a string like ``"52301"``; an int is taken too); ``default`` when
    absent or empty."""
    value = row.get(key)
    if value is None or value == "":
        return default
    try:
        return int(str(value).strip())
    except ValueError:
        raise _odd(f"поле {key} = {value!r} — не число") from None


def text_of(row: Mapping[str, Any], key: str) -> str:
    """A name or subject as the page shows it. Whether the API passes names on escaped as
    the page prints them is unverified: an entity (``&amp;``) is read as the character it
    stands for, so a nick reads the same from the API and from the page."""
    return squash(html.unescape(str(row.get(key) or "")))


def unix_time(row: Mapping[str, Any], key: str) -> datetime | None:
    """A unix-seconds field as an aware UTC time; None when absent or 0."""
    seconds = number(row, key, default=0)
    return datetime.fromtimestamp(seconds, UTC) if seconds else None


def _required(row: Mapping[str, Any], key: str, what: str) -> int:
    value = number(row, key)
    if value is None:
        raise _odd(f"в {what} нет поля {key}")
    return value


def rows_of(response: Any, method: str) -> list[Mapping[str, Any]]:
    """A list answer (``post.get``, ``topic.get``, ``message.get``). Read as rows too: a
    list wrapped in an object (as ``users.get`` answers), rows keyed by their ids (a PHP
    array serialised as an object), one row alone; nothing (``null``, ``false``, ``{}``)
    is no rows."""
    if response is None or response is False or response == "":
        return []
    if isinstance(response, Mapping):
        inner = next((v for v in response.values() if isinstance(v, list)), None)
        if inner is not None:
            response = inner
        elif response and all(isinstance(v, Mapping) for v in response.values()):
            response = list(response.values())
        elif "id" in response:
            response = [response]
        else:
            response = []
    if not isinstance(response, list) or not all(isinstance(r, Mapping) for r in response):
        raise _odd(f"ответ на {method} — не список записей")
    return list(response)


# --------------------------------------------------------------------------- topics

@dataclass(frozen=True, slots=True)
class TopicInfo:
    """``topic.get`` of the game topic."""

    topic_id: int
    subject: str
    posts: int
    """Posts in the topic, the first one included (``num_replies`` + 1)."""
    first_post_id: int | None
    last_post_id: int | None


def topic_info(response: Any, topic_id: int) -> TopicInfo | None:
    """The topic's row in a ``topic.get`` answer; None when the board did not list it
    (no such topic, or one the reader may not see)."""
    for row in rows_of(response, "topic.get"):
        if number(row, "id") == topic_id:
            return TopicInfo(
                topic_id=topic_id,
                subject=text_of(row, "subject"),
                posts=(number(row, "num_replies", default=0) or 0) + 1,
                first_post_id=number(row, "init_id") or number(row, "init_post")
                or number(row, "first_post"),
                last_post_id=number(row, "last_post_id"),
            )
    return None


# --------------------------------------------------------------------------- posts

def post_of(row: Mapping[str, Any], *, page: int, position: int,
            topic_id: int | None) -> Post:
    """One ``post.get`` row. ``edited`` (unix seconds of the last edit, 0 = never) and
    ``edited_by`` become the post's edit notice; PunBB keeps no edit count, so an edited
    post counts one edit."""
    post_id = _required(row, "id", "сообщении")
    posted = unix_time(row, "posted")
    if posted is None:
        raise _odd(f"у сообщения {post_id} нет времени (posted)")
    user_id = number(row, "user_id")
    for key in ("message", "username"):
        if key not in row:
            raise _odd(f"у сообщения {post_id} нет поля {key}")
    author = text_of(row, "username")
    if not author:
        raise _odd(f"у сообщения {post_id} пустое имя автора (username)")
    edited = unix_time(row, "edited")
    edit = EditNotice(text_of(row, "edited_by"), edited, 1) if edited else None
    author_id = user_id if user_id is not None and user_id > GUEST_ID else None
    read = post(post_id, (author, author_id), posted,
                normalise_body(str(row.get("message") or "")), edit)
    return replace(read, page=page, position=position,
                   topic_id=number(row, "topic_id") or topic_id)


def posts_of(response: Any, *, page: int, topic_id: int) -> list[Post]:
    """One ``post.get`` page, oldest first. A row of another topic means the board ignored
    the ``topic_id`` filter: an error, never a silent mix of topics."""
    rows = rows_of(response, "post.get")
    for row in rows:
        other = number(row, "topic_id")
        if other is not None and other != topic_id:
            raise MalformedPage(
                f"API post.get вернул сообщение темы {other} вместо темы {topic_id}",
                "форум не понял фильтр topic_id; referee не смешивает темы",
            )
    rows.sort(key=lambda r: _required(r, "id", "сообщении"))
    return [post_of(r, page=page, position=i, topic_id=topic_id)
            for i, r in enumerate(rows, start=1)]


# --------------------------------------------------------------------------- messages

def partners_of(response: Any) -> list[tuple[int, str]]:
    """``message.getRecent``: the host's dialogs as ``(user_id, username)``, newest first."""
    out: list[tuple[int, str]] = []
    for row in rows_of(response, "message.getRecent"):
        uid = number(row, "user_id")
        if uid is not None and all(uid != u for u, _ in out):
            out.append((uid, text_of(row, "username")))
    return out


def message_of(row: Mapping[str, Any], host: str) -> PrivateMessage:
    """One ``message.get`` row of a dialog: ``user_id``/``username`` name the partner,
    ``status = "1"`` marks a message the host sent (folder ``sentbox``)."""
    pm_id = _required(row, "id", "личном сообщении")
    sent_at = unix_time(row, "posted")
    if sent_at is None:
        raise _odd(f"у личного сообщения {pm_id} нет времени (posted)")
    partner = text_of(row, "username")
    partner_id = number(row, "user_id")
    mine = number(row, "status", default=0) == 1
    body_html, body_text = normalise_body(str(row.get("message") or ""))
    return PrivateMessage(
        pm_id=pm_id,
        sender=host if mine else partner,
        sender_id=None if mine else partner_id,
        recipients=(partner,) if mine else (host,),
        sent_at=sent_at,
        subject=text_of(row, "subject"),
        body_html=body_html,
        body_text=body_text,
        folder="sentbox" if mine else "inbox",
    )


def listing_of(messages: Sequence[PrivateMessage], folder: str,
               url: str) -> tuple[PmListEntry, ...]:
    """Folder rows, newest first, for the messages of ``folder``."""
    chosen = sorted((m for m in messages if m.folder == folder),
                    key=lambda m: (m.sent_at, m.pm_id), reverse=True)
    return tuple(
        PmListEntry(pm_id=m.pm_id, subject=m.subject, sender=m.sender, sent_at=m.sent_at,
                    url=f"{url}{m.pm_id}", recipients=m.recipients if folder != "inbox" else ())
        for m in chosen
    )


def auth_hash(response: Any) -> str | None:
    """``board.auth``'s session hash (sent back as the ``mybb_ru`` cookie)."""
    if isinstance(response, Mapping):
        value = response.get("hash")
        if isinstance(value, str) and value.strip():
            return value.strip()
    return None
