"""Posting as the host on SMF 2.1: a reply in the game topic (``action=post`` →
``action=post2``) and a personal message (``action=pm;sa=send`` → ``sa=send2``) through
SMF's own forms with their tokens (the hooks of :class:`adapters.poster.FormPoster`). What
SMF answers — a redirect when stored, the form again with the reason when not, flood
control naming the seconds — and where each was verified: README.md («Replies and PMs»).

Nothing here prints or logs the form data: only SMF's own messages reach the host.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable

import httpx

from adapters.form import HtmlForm
from adapters.poster import LOOK, Answer, Fill, FormPoster
from adapters.smf import forms
from adapters.smf.client import SmfForum
from adapters.smf.page import SmfPage
from adapters.smf.urls import strip_session, topic_start
from referee.core.errors import LoginRequired, NetworkError, PostingError

log = logging.getLogger("referee.smf.posting")

SEND_SPACING = 5.0
"""SMF's default ``spamWaitTime``: the wait after a flood refusal that names no seconds."""
_SECONDS = re.compile(r"(\d+)\s*(?:секунд|seconds)", re.IGNORECASE)
_NEW = re.compile(r'id="msg(\d+)"(?:(?!id="msg\d+").)*?<a id="new"', re.DOTALL)


class SmfPoster(FormPoster[HtmlForm]):
    """Sends replies and PMs as the logged-in host over an :class:`SmfForum` session."""

    flood_default = SEND_SPACING
    topic_hint = 'укажите адрес темы, например "…/index.php?topic=123.0"'
    recipient_field = "to"
    forum: SmfForum

    def __init__(self, forum: SmfForum) -> None:
        super().__init__(forum)
        self._last_send: float | None = None
        self.spacing: float | None = None
        """Seconds the board demands between two sends, once it has said so (a flood
        refusal); None: no wait before a send."""

    # -- hooks

    def reply_url(self) -> str:
        return f"{self.forum.script}?action=post;topic={self.topic()}.0"

    def compose_url(self, user_id: int | None = None) -> str:
        return f"{self.forum.script}?action=pm;sa=send"

    def form_topic(self, form: HtmlForm) -> str | None:
        return form.fields.get("topic")

    def recipient(self, to: str) -> str:
        if '"' in to or not to.strip():
            raise PostingError(f"ник «{to}» нельзя вписать в поле «Кому» SMF",
                               "отправьте это сообщение вручную в браузере")
        return f'"{to.strip()}"'  # quoted: a nick may hold a comma

    def fields(self, form: HtmlForm, *, pm: bool) -> dict[str, str]:
        # A reply's «goback»: the redirect then leads to the new post.
        own = {"bcc": ""} if pm else {"goback": "1"}
        return {**form.fields, **own, "post": "Отправить"}

    def form_at(self, url: str, what: str, *, pm: bool) -> HtmlForm:
        """The form as the logged-in host sees it (a guest form leads to a login)."""
        def read(html: str) -> HtmlForm:
            form = forms.parse_posting_form(html, url=url)  # a login page raises here
            if not SmfPage(html, url).logged_in:
                raise LoginRequired(f"форма {what} показана гостю")
            return form

        return self.read_form(url, read, what=f"форму: {what}")

    def send(self, form: HtmlForm, fill: Fill, *, url: str, what: str, pm: bool) -> Answer:
        """The new reply's id read off the page SMF redirects to (:meth:`_stored`); SMF
        does not tell a new PM's id."""
        last_msg = form.fields.get("last_msg")
        return self.send_form(
            form.action, what=what, data=fill(form), headers={"Referer": strip_session(url)},
            stored=lambda r: Answer("stored", self._stored(r, what=what, pm=pm,
                                                           after=last_msg)),
            classify=lambda r: forms.classify_answer(self.forum.decoded(r), url=form.action))

    def relogin(self, answer: Answer) -> None:
        pass  # a lost session: the form's page logs in again (BoardClient.read)

    def cure(self, answer: Answer, form: HtmlForm,
             get_form: Callable[[], HtmlForm]) -> HtmlForm | None:
        if answer.kind == "flood":
            found = _SECONDS.search(answer.text)
            # Whole seconds on SMF's side: the named seconds plus one, from now (the
            # refused send was logged too).
            self.spacing = (float(found.group(1)) if found else SEND_SPACING) + 1.0
            self.http.sleep(self.spacing)
            return answer.form or get_form()
        return super().cure(answer, form, get_form)

    def refusal(self, answer: Answer, what: str) -> PostingError:
        if answer.kind == "unknown":
            return PostingError(f"ответ форума на {what} — ни успех, ни известная ошибка",
                                LOOK, maybe_sent=True)
        said = f": «{answer.text}»" if answer.text else ""
        return PostingError(f"форум не принял {what}{said}; ничего не отправлено",
                            "откройте форму в браузере, чтобы увидеть причину")

    def _stored(self, r: httpx.Response, *, what: str, pm: bool,
                after: str | None) -> int | None:
        location = strip_session(str(r.url.join(r.headers.get("Location", ""))))
        if pm:
            if "done=sent" not in location:
                raise PostingError(f"после отправки {what} форум повёл на {location}, а не "
                                   "в папку с «сообщение отправлено»", LOOK, maybe_sent=True)
            return None
        topic, start = topic_start(location)
        if topic != self.forum.topic_id:
            return None  # stored (post2 redirects only then), but elsewhere than expected
        if start and start.startswith("msg") and start[3:].isdigit():
            return int(start[3:])
        try:
            html = self.forum.decoded(self.http.get(location.split("#", 1)[0]))
        except NetworkError:
            return None  # stored: only its id is unknown
        found = _NEW.search(html)
        new = int(found.group(1)) if found else None
        if new is not None and after and after.isdigit() and new <= int(after):
            return None
        return new

    def post(self, url: str, *, what: str, **request: object) -> httpx.Response:
        """One send, spaced as the board demands (:attr:`spacing`) from the last one."""
        if self._last_send is not None and self.spacing is not None:
            wait = self._last_send + self.spacing - self.http.clock()
            if wait > 0:
                self.http.sleep(wait)
        r = super().post(url, what=what, **request)
        self._last_send = self.http.clock()
        return r


__all__ = ["SEND_SPACING", "PostingError", "SmfPoster"]
