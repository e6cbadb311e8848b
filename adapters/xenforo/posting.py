"""Posting as the host on XenForo: a reply in the game thread (``threads/…/add-reply``) and a
new conversation for a private result (``conversations/add``).

The poster only sends, once per call; showing, confirming, ``--dry-run`` and never sending
a message twice are :mod:`referee.publish`'s (it records every send).

XenForo facts this follows (``adapters/xenforo/README.md`` says where each is verified):

- The forms are read fresh before each send (``threads/…/reply``, ``conversations/add``)
  for their ``_xfToken``; the text goes as ``message`` in BBCode, which XenForo's editor
  plugin takes as is.
- A stored reply answers a redirect to ``posts/P/`` (``…?pending_approval=1`` when it awaits
  a moderator); a started conversation a redirect to ``conversations/{slug}.{id}/``.
- A refused token answers «Произошла ошибка безопасности…»: one fresh form, then an error.
- Flood control answers «Вы должны подождать не менее N секунд…»: we wait N seconds (capped)
  and send once more.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping

import httpx

from adapters.xenforo import forms
from adapters.xenforo.address import parse_thread_url, route_of
from adapters.xenforo.client import XenforoForum
from adapters.xenforo.conversations import conversation_id_in, pm_key
from adapters.xenforo.page import decode_page, error_text, is_logged_in, login_form, parse
from referee.errors import ConfigError, ForumError, LoginRequired, NetworkError

log = logging.getLogger("referee.xenforo.posting")

FLOOD_WAIT = 31.0
"""XenForo's default flood check (30 s) plus a margin, when the answer names no figure."""
MAX_FLOOD_WAIT = 300.0

_POST = re.compile(r"(?:^|/)posts/(\d+)|/post-(\d+)|#post-(\d+)")


class PostingError(ForumError):
    """The board did not store the message. ``maybe_sent`` is True when the answer leaves
    it open whether it was stored: the host must look before running the command again."""

    def __init__(self, message: str, hint: str | None = None, *,
                 maybe_sent: bool = False) -> None:
        super().__init__(message, hint)
        self.maybe_sent = maybe_sent


class _GuestForm(Exception):
    """A form served to a guest (XenForo may let guests write and register afterwards)."""


_LOOK = ("посмотрите в теме (или в переписках) в браузере, прежде чем запускать команду "
         "снова: если сообщение там, оно отправлено")


class XenforoPoster:
    """Sends replies and new conversations as the logged-in host over a
    :class:`XenforoForum` session (implements :class:`referee.kernel.Poster`)."""

    def __init__(self, forum: XenforoForum, *, flood_wait: float = FLOOD_WAIT) -> None:
        self.forum = forum
        self.http = forum.http
        self.flood_wait = flood_wait

    def close(self) -> None:
        self.forum.close()

    def __enter__(self) -> XenforoPoster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- public

    def reply(self, message: str, subject: str | None = None) -> int | None:
        """Reply in the game thread; the new post's id (None while it awaits approval)."""
        thread = self.forum._thread()
        what = f"ответ в теме {thread.thread_id}"

        def check(form: forms.PostingForm) -> None:
            # Never post into another thread than [forum] url, whatever the form says.
            try:
                _, target = parse_thread_url(form.action)
            except ConfigError:
                target = None
            if target is None or target.thread_id != thread.thread_id:
                raise PostingError(
                    f"форма ответа ведёт не в тему игры ({route_of(form.action) or '?'}); "
                    "ничего не отправлено", "проверьте [forum] url и форму ответа в браузере")

        def build(form: forms.PostingForm) -> dict[str, str]:
            return {**form.hidden, "message": message}

        return self._submit(thread.reply_url(), "add-reply", check, build, what=what,
                            stored=_reply_stored)

    def send_pm(self, to: str, message: str, subject: str,
                user_id: int | None = None) -> int | None:
        """Start a conversation with ``to``; returns the key of its first message (as the
        PM sync will store it: see :mod:`adapters.xenforo.conversations`)."""

        def build(form: forms.PostingForm) -> dict[str, str]:
            return {**form.hidden, "recipients": to, "title": subject, "message": message}

        return self._submit(self.forum.board.url("conversations/add"), "conversations/add",
                            lambda form: None, build, what=f"переписка с «{to}»",
                            stored=_conversation_stored)

    # -- steps

    def _form(self, url: str, action_part: str, what: str) -> forms.PostingForm:
        """The form, read as the logged-in host: a login page leads to one login; a form
        served to a guest leads to a login too (the host never posts as a guest)."""
        def read(html: str) -> forms.PostingForm:
            tree = parse(html)
            if login_form(tree) is not None and not is_logged_in(tree):
                raise LoginRequired(f"форма входа вместо формы ({what})")
            form = forms.parse_posting_form(html, action_part, url)
            if form is None:
                said = error_text(tree)
                raise PostingError(
                    f"форум не показал форму ({what})" + (f": «{said}»" if said else ""),
                    "проверьте в браузере, что учётная запись ведущего может здесь писать")
            if not is_logged_in(tree):
                raise _GuestForm
            return form

        try:
            form = self.forum._read(url, read, what=what)
        except _GuestForm:
            self.forum.login()
            try:
                form = self.forum._read(url, read, what=what)
            except _GuestForm:
                raise LoginRequired(
                    f"форум показывает форму ({what}) гостю сразу после входа",
                    "проверьте в браузере, что учётная запись ведущего остаётся в системе",
                ) from None
        if form.has_captcha:
            raise PostingError(f"форма ({what}) требует капчу; referee её не решает",
                               "отправьте это сообщение вручную в браузере")
        return form

    def _submit(self, url: str, action_part: str,
                check: Callable[[forms.PostingForm], None],
                build: Callable[[forms.PostingForm], dict[str, str]], *, what: str,
                stored: Callable[[str], int | None | bool]) -> int | None:
        """POST the form; one fresh form after a refused token (or a lost session), one
        more send after flood control."""
        form = self._form(url, action_part, what)
        fresh_used = flood_used = False
        while True:
            check(form)
            r = self._post(form.action, build(form), referer=url, what=what)
            if r.is_redirect:
                result = stored(r.headers.get("Location", ""))
                if result is not False:
                    log.info("%s stored as %s", what, result)
                    return None if result is True else result
                raise PostingError(f"форум перенаправил ответ на {what} туда, где не видно, "
                                   "сохранено ли сообщение", _LOOK, maybe_sent=True)
            answer = self._answer(r, what)
            if answer.kind in ("form_invalid", "login") and not fresh_used:
                fresh_used = True
                if answer.kind == "login":
                    self.forum.login()
                form = self._form(url, action_part, what)
                continue
            if answer.kind == "flood" and not flood_used:
                flood_used = True
                wait = min(MAX_FLOOD_WAIT, (answer.wait or self.flood_wait) + 1.0)
                log.info("flood control; waiting %.0f s", wait)
                self.http.sleep(wait)
                form = self._form(url, action_part, what)
                continue
            raise self._refusal(answer, what)

    def _answer(self, r: httpx.Response, what: str) -> forms.Answer:
        html = decode_page(r.content, r.headers.get("content-type")) if r.content else ""
        answer = forms.classify_answer(html)
        if r.status_code >= 500:
            raise PostingError(f"форум ответил HTTP {r.status_code} на {what}", _LOOK,
                               maybe_sent=True)
        if r.status_code >= 400 and answer.kind == "unknown":
            return forms.Answer("refused", f"HTTP {r.status_code}")
        return answer

    @staticmethod
    def _refusal(answer: forms.Answer, what: str) -> PostingError:
        if answer.kind in ("form_invalid", "login"):
            return PostingError(f"форум дважды отверг {what} (ошибка безопасности или потеря "
                                "входа); ничего не отправлено",
                                "запустите команду ещё раз; если повторится, войдите в браузере")
        if answer.kind == "flood":
            return PostingError(f"защита от флуда снова не приняла {what}: «{answer.text}»",
                                "запустите ту же команду через несколько минут: отправленное "
                                "записано и второй раз не уйдёт")
        if answer.kind == "refused":
            return PostingError(f"форум не принял {what}: «{answer.text}»",
                                "откройте форму в браузере, чтобы увидеть причину; ничего не "
                                "отправлено")
        return PostingError(f"ответ форума на {what} — ни успех, ни известная referee ошибка",
                            _LOOK, maybe_sent=True)

    def _post(self, url: str, data: Mapping[str, str], *, referer: str,
              what: str) -> httpx.Response:
        try:
            return self.http.request("POST", url, data=data, headers={"Referer": referer},
                                     retry_unsafe=False, follow_redirects=False)
        except NetworkError as e:
            # The request may have reached the board: say so, never retry blindly.
            raise PostingError(f"связь оборвалась при отправке ({what}): {e.message}", _LOOK,
                               maybe_sent=True) from None


def _reply_stored(location: str) -> int | None | bool:
    """The new post's id from the redirect; True when stored without one (awaiting a
    moderator), False when the redirect proves nothing."""
    match = _POST.search(location)
    if match:
        return int(next(g for g in match.groups() if g))
    return True if "pending_approval" in location else False


def _conversation_stored(location: str) -> int | None | bool:
    conversation_id = conversation_id_in(location)
    if conversation_id is None or "conversations/add" in location:
        return False
    return pm_key(conversation_id, 1)


__all__ = ["FLOOD_WAIT", "PostingError", "XenforoPoster"]
