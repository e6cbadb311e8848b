"""The host's messages as values: what goes out, where, and the key that makes it one
message however often a command runs (issue 7).

- ``tally --post``: the day's count (:func:`tally_post`, the paste part of
  :mod:`referee.render.tally`);
- ``check-activity --post``: who leaves the game for inactivity (:func:`activity_post`);
- ``resolve-night --post`` / ``--send``: the morning report (N2) and the private results
  (N9, N10, N12) by PM to whoever holds each slot now (:func:`night_messages`);
- ``deal --send``: the role PMs (:func:`role_pms`).

Only the part meant for the players is ever made a message (:func:`public_part`); sending
each once is :mod:`referee.host.publish`'s job.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal
from urllib.parse import parse_qs, urlsplit

from referee.config.game import Config
from referee.core.errors import GameError, RefereeError
from referee.rules.slots import Slots

if TYPE_CHECKING:
    from referee.game import NightResult

Kind = Literal["post", "pm"]


def message_key(kind: str, game: str, phase: str, recipient: str, body: str) -> str:
    """The idempotency key: the same message to the same place in the same phase of the
    same game is one message, however often the command runs."""
    payload = json.dumps([kind, game, phase, recipient, body], ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class Outgoing:
    """One message to send: a reply in the game topic (``post``) or a PM (``pm``)."""

    kind: Kind
    game: str
    phase: str
    recipient: str
    """``topic:N`` for a reply; the player's forum name for a PM."""
    body: str
    subject: str | None = None
    """PM subject; for a reply ``None`` keeps the form's «Re: …»."""
    label: str = ""
    """What the host reads in the listing: «подсчёт голосов, день 2»."""

    @property
    def key(self) -> str:
        return message_key(self.kind, self.game, self.phase, self.recipient, self.body)


def game_ref(config: Config) -> str:
    """The game's identity in keys: the topic's host, path and ``t=`` (scheme, ``www.``,
    ``sid`` and other parameters do not matter), else the config file."""
    url = config.forum.board.url
    if url:
        parts = urlsplit(url.strip())
        host = (parts.hostname or "").lower().removeprefix("www.")
        topic = parse_qs(parts.query).get("t", [""])[0]
        return f"{host}{parts.path}?t={topic}"
    return str(config.path.resolve())


def topic_ref(config: Config) -> str:
    topic = parse_qs(urlsplit((config.forum.board.url or "").strip()).query).get("t", [""])[0]
    if not topic and config.forum.board.url:
        # Other engines number topics in their own addresses (XenForo: threads/slug.ID/).
        from adapters.registry import topic_id

        try:
            number = topic_id(config.forum.board.url, config.forum.board.engine)
        except RefereeError:
            number = None
        topic = str(number) if number is not None else ""
    return f"topic:{topic or '?'}"


def public_part(rendered: str, separator: str) -> str:
    """The text before the host-only separator. Refuses when the separator is missing:
    better post nothing than the host's notes."""
    head, found, _ = rendered.partition(separator)
    if not found:
        raise GameError(
            "внутренняя ошибка: в тексте нет разделителя части для ведущего, и referee не может "
            "понять, что публично; ничего не опубликовано",
            "опубликуйте публичную часть вручную",
        )
    return head.rstrip() + "\n"


def tally_post(config: Config, day: int, paste: str) -> Outgoing:
    """V1–V6: the day's count as pasted (with the end of the game, W2): ``paste`` is the
    rendered public part, never the host-only part."""
    return Outgoing("post", game_ref(config), f"day:{day}:tally", topic_ref(config),
                    paste.rstrip() + "\n", label=f"подсчёт голосов, день {day}")


def activity_post(config: Config, turn: int, public: str) -> Outgoing:
    """A1–A3: who leaves the game (or the reminder): ``public`` is the rendered public part
    (:func:`public_part` of the output), never the host's table."""
    return Outgoing("post", game_ref(config), f"turn:{turn}:activity", topic_ref(config),
                    public, label=f"проверка активности, ход {turn}")


def night_messages(config: Config, result: NightResult, *, report: str,
                   private: Sequence[tuple[str, str]], post: bool, send: bool,
                   now: datetime | None = None) -> list[Outgoing]:
    """N2: the morning report for the topic; N9/N10/N12: the private results by PM — both
    as :mod:`referee.render.morning` wrote them (``report``; ``private``: recipient, text).

    Only a night that is over is sent: before the night deadline the result is provisional
    (requests may still arrive)."""
    n = result.night
    if not result.final:
        end = result.window[1].astimezone(config.tz)
        raise GameError(
            f"ночь {n} ещё не закончилась (до {end:%d.%m %H:%M}): итог предварительный "
            "и не отправляется",
            "запустите команду снова после дедлайна ночи",
        )
    out: list[Outgoing] = []
    game = game_ref(config)
    if post:
        out.append(Outgoing("post", game, f"night:{n}:report", topic_ref(config),
                            report.rstrip() + "\n", label=f"утро после ночи {n}"))
    if send:
        for nick, text in private:
            to = current_holder(config, nick, now)
            out.append(Outgoing("pm", game, f"night:{n}:private", to, text.rstrip() + "\n",
                                subject=f"Ночь {n}: результат",
                                label=f"итог ночи {n}" + (f" (за {nick})" if to != nick else "")))
    return out


def role_pms(config: Config, texts: Iterable[tuple[str, str, str]]) -> list[Outgoing]:
    """The role PMs of a deal: ``(nick, subject, text)`` as :func:`role_pm_texts` writes."""
    game = game_ref(config)
    return [Outgoing("pm", game, "deal", nick, text.rstrip() + "\n", subject=subject,
                     label="роль") for nick, subject, text in texts]


def current_holder(config: Config, slot: str, now: datetime | None = None) -> str:
    """Who plays ``slot`` now: the latest ``[[replacements]]`` player who took it (by post or
    by a time already reached), else the slot's own nick."""
    return Slots(config.replacements).holder_now(slot, now or datetime.now(UTC))
