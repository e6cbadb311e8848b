"""Posting as the host on XenForo: a reply in the game thread (``threads/…/add-reply``) and a
new conversation for a private result (``conversations/add``), each through a form read
fresh for its ``_xfToken`` (the hooks of :class:`adapters.poster.FormPoster`). What XenForo
answers — a redirect when stored, a security error, flood control naming the seconds — and
where each was verified: README.md («Posting»).
"""

from __future__ import annotations

import re

import httpx
from selectolax.lexbor import LexborHTMLParser

from adapters.form import HtmlForm
from adapters.poster import Answer, Fill, FormPoster, GuestForm
from adapters.xenforo import forms
from adapters.xenforo.client import XenforoForum
from adapters.xenforo.page import error_text, is_logged_in, login_form
from adapters.xenforo.pms import conversation_id_in, pm_key
from adapters.xenforo.urls import parse_thread_url, route_of
from referee.core.errors import ConfigError, LoginRequired, PostingError

FLOOD_WAIT = 31.0
"""XenForo's default flood check (30 s) plus a margin, when the answer names no figure."""
MAX_FLOOD_WAIT = 300.0

_POST = re.compile(r"(?:^|/)posts/(\d+)|/post-(\d+)|#post-(\d+)")
_LOOK = ("посмотрите в теме (или в переписках) в браузере, прежде чем запускать команду "
         "снова: если сообщение там, оно отправлено")


class XenforoPoster(FormPoster[HtmlForm]):
    """Sends replies and new conversations as the logged-in host over a
    :class:`XenforoForum` session (implements :class:`referee.core.kernel.Poster`)."""

    flood_default = FLOOD_WAIT
    max_flood_wait = MAX_FLOOD_WAIT
    look = _LOOK
    forum: XenforoForum
    pm_what = "переписка с «{to}»"
    subject_field = "title"
    message_field = "message"  # BB code; the editor's own ``message_html`` is left out

    # -- hooks

    def topic(self) -> str:
        return str(self.forum._thread().thread_id)

    def reply_url(self) -> str:
        return self.forum._thread().reply_url()

    def compose_url(self, user_id: int | None = None) -> str:
        return self.forum.board.url("conversations/add")

    def form_topic(self, form: HtmlForm) -> str | None:
        try:
            _, target = parse_thread_url(form.action)
        except ConfigError:
            target = None
        return str(target.thread_id) if target else route_of(form.action)

    def fields(self, form: HtmlForm, *, pm: bool) -> dict[str, str]:
        return form.sends(*forms.SENT)

    def flood_delay(self, answer: Answer) -> float:
        return min(MAX_FLOOD_WAIT, (answer.wait or self.flood_wait) + 1.0)

    def form_at(self, url: str, what: str, *, pm: bool) -> HtmlForm:
        def read(html: str) -> HtmlForm:
            tree = LexborHTMLParser(html)
            if login_form(tree) is not None and not is_logged_in(tree):
                raise LoginRequired(f"форма входа вместо формы ({what})")
            form = forms.parse_posting_form(html, "conversations/add" if pm else "add-reply",
                                            url)
            if form is None:
                said = error_text(tree)
                raise PostingError(
                    f"форум не показал форму ({what})" + (f": «{said}»" if said else ""),
                    "проверьте в браузере, что учётная запись ведущего может здесь писать")
            if not is_logged_in(tree):
                raise GuestForm
            return form

        return self.read_form(url, read, what=f"форму ({what})")

    def send(self, form: HtmlForm, fill: Fill, *, url: str, what: str, pm: bool) -> Answer:
        """A reply's new post id (None while it awaits approval); a new conversation's key
        of its first message (as the PM sync will store it: see :mod:`adapters.xenforo.pms`)."""
        def redirected(r: httpx.Response) -> Answer:
            result = (_conversation_stored if pm else _reply_stored)(r.headers.get("Location", ""))
            if result is not False:
                return Answer("stored", None if result is True else result)
            raise PostingError(f"форум перенаправил ответ на {what} туда, где не видно, "
                               "сохранено ли сообщение", self.look, maybe_sent=True)

        return self.send_form(form.action, what=what, data=fill(form),
                              headers={"Referer": url}, stored=redirected, classify=self._answer)

    def _answer(self, r: httpx.Response) -> Answer:
        answer = forms.classify_answer(self.forum.answer_html(r))
        if r.status_code >= 400 and answer.kind == "unknown":
            return Answer("refused", text=f"HTTP {r.status_code}")
        return answer


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
