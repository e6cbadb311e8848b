"""The host's phone: the watch's lines pushed to a Telegram chat (issue 21), through the
Bot API's ``sendMessage`` over httpx.

``[notify] chat_id`` names the chat and ``[notify] events`` the classes of lines the host
wants (:data:`referee.config.schema.NOTIFY_EVENTS`); the bot's token is a secret and comes from
``REFEREE_TELEGRAM_TOKEN`` only. The lines of one round go as one message (Telegram
allows about one message a second to a chat). A failure to notify never stops the watch:
it is told on the screen once, and the next round tries again. The token is part of the
Bot API's address, so no error text of httpx is shown as it is: every one is told in
words without the address.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping

import httpx

from referee.config.game import NotifyConfig

TOKEN_ENV = "REFEREE_TELEGRAM_TOKEN"
API = "https://api.telegram.org"
MAX_TEXT = 4000
"""Telegram takes up to 4096 characters a message."""


class NotifyError(Exception):
    """Why a message did not reach Telegram, in words without the token."""


class Telegram:
    """One bot writing to one chat."""

    def __init__(self, token: str, chat_id: str, *, timeout: float = 10.0,
                 client: httpx.Client | None = None) -> None:
        self._token = token
        self.chat_id = chat_id
        self._client = client or httpx.Client(timeout=timeout)

    def send(self, text: str) -> None:
        if len(text) > MAX_TEXT:
            text = text[: MAX_TEXT - 1] + "…"
        try:
            r = self._client.post(f"{API}/bot{self._token}/sendMessage",
                                  json={"chat_id": self.chat_id, "text": text,
                                        "disable_web_page_preview": True})
        except httpx.TimeoutException:
            raise NotifyError("Telegram не ответил вовремя") from None
        except httpx.HTTPError as e:
            raise NotifyError(f"нет связи с Telegram ({type(e).__name__})") from None
        if r.status_code == 200:
            return
        raise NotifyError(_refusal(r))

    def close(self) -> None:
        self._client.close()


def _refusal(r: httpx.Response) -> str:
    try:
        body = r.json()
    except ValueError:
        body = {}
    said = str(body.get("description") or "").replace("\n", " ")[:200] if \
        isinstance(body, dict) else ""
    if r.status_code == 401:
        return f"Telegram не принял токен бота ({TOKEN_ENV}): {said or 'Unauthorized'}"
    if r.status_code == 429:
        wait = (body.get("parameters") or {}).get("retry_after") if isinstance(body, dict) \
            else None
        return "Telegram просит писать реже" + (f" (подождать {wait} с)" if wait else "")
    if r.status_code in (400, 403):
        return f"Telegram отказал: {said or r.status_code} — проверьте [notify] chat_id и " \
               "что бот добавлен в чат"
    return f"Telegram ответил HTTP {r.status_code}" + (f": {said}" if said else "")


class Notifier:
    """Collects the lines of a round whose class the host picked; :meth:`flush` sends
    them. Off without a chat or a token (:attr:`off_because` says why)."""

    def __init__(self, settings: NotifyConfig, env: Mapping[str, str] | None = None, *,
                 make: Callable[[str, str], Telegram] = Telegram) -> None:
        env = os.environ if env is None else env
        self.events = frozenset(settings.events)
        self.lines: list[str] = []
        self.failing = False
        token = env.get(TOKEN_ENV, "").strip()
        self.off_because: str | None = None
        self.bot: Telegram | None = None
        if settings.chat_id is None:
            self.off_because = "нет [notify] chat_id"
        elif not token:
            self.off_because = f"не задан {TOKEN_ENV}"
        else:
            self.bot = make(token, settings.chat_id)

    def push(self, kind: str, line: str) -> None:
        if self.bot is not None and kind in self.events:
            self.lines.append(line)

    def flush(self) -> tuple[str | None, bool]:
        """Send what was pushed: (what went wrong or None, whether it works again after
        a failure)."""
        if self.bot is None or not self.lines:
            return None, False
        text, self.lines = "\n".join(self.lines), []
        try:
            self.bot.send(text)
        except NotifyError as e:
            first = not self.failing
            self.failing = True
            return (str(e) if first else None), False
        back, self.failing = self.failing, False
        return None, back

    def close(self) -> None:
        if self.bot is not None:
            self.bot.close()
