"""Posting as the host on phpBB 3.x (issue 7): a reply in the game topic through
``posting.php?mode=reply&t=N`` and private messages through ``ucp.php?i=pm&mode=compose``;
the hooks of :class:`adapters.poster.FormPoster`. The phpBB facts this follows (form keys,
the «new posts» review, flood control, recipients): README.md, «Replies and PMs». Nothing
here prints or logs the form data: only phpBB's own messages reach the host."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import httpx

from adapters.base import strip_sid
from adapters.form import HtmlForm
from adapters.html import int_or_none
from adapters.phpbb.client import PhpbbForum
from adapters.phpbb.forms import (
    classify_answer,
    is_logged_in,
    parse_posting_form,
    posting_error,
)
from adapters.phpbb.urls import sid_in_body
from adapters.poster import Answer, Fill, FormPoster, GuestForm
from referee.core.errors import ForumError, PostingError

log = logging.getLogger("referee.phpbb.posting")

POST_WAIT = 1.05
"""Seconds between receiving a form and posting it (gotcha 11, plus a margin)."""
LASTCLICK_WAIT = 2.05
"""The same when the form has ``lastclick`` (phpBB 3.0: a submit within 2 s is dropped)."""
FLOOD_WAIT = 16.0
"""phpBB's default ``flood_interval`` (15 s) plus a margin."""

_ADDRESS = re.compile(r"^address_list\[u\]\[(\d+)\]$")
_POST_ID = re.compile(r"[?&;]p=(\d+)|#p(\d+)")

_NO_USERS = ("пользователи не существуют", "users to be added do not exist")


@dataclass(frozen=True, slots=True)
class _Form:
    form: HtmlForm
    received: float


class PhpbbPoster(FormPoster[_Form]):
    """Sends replies and PMs as the logged-in host over a :class:`PhpbbForum` session.

    Waiting uses the forum's :class:`~adapters.base.HttpClient` ``sleep``/``clock``, so
    tests inject a fake clock and never wait."""

    flood_default = FLOOD_WAIT
    pm_what = "ЛС для «{to}»"
    topic_hint = ('укажите ссылку на тему, например '
                  '"https://forum.example.com/viewtopic.php?t=123"')
    forum: PhpbbForum

    def __init__(self, forum: PhpbbForum, *, flood_wait: float = FLOOD_WAIT) -> None:
        super().__init__(forum, flood_wait=flood_wait)
        self._last_stored: float | None = None
        self._added: _Form | None = None
        """The form phpBB answered an added PM recipient with, sent first."""

    # -- the driver's hooks

    def topic(self) -> str:
        """As phpBB's addresses write it (``t=N``), in the messages and the topic check."""
        return f"t={super().topic()}"

    def reply_url(self) -> str:
        return f"{self.forum.root}posting.php?mode=reply&t={self.forum.topic_id}"

    def compose_url(self, user_id: int | None = None) -> str:
        return f"{self.forum.root}ucp.php?i=pm&mode=compose"

    def form_topic(self, form: HtmlForm) -> str | None:
        target = form.target("t")
        return f"t={target}" if target else None

    def send_pm(self, to: str, message: str, subject: str,
                user_id: int | None = None) -> int | None:
        """Send a PM to ``to``; returns the PM's id. ``user_id`` skips the name lookup
        (:meth:`_add_recipient`)."""
        url = self.compose_url()
        if user_id is None:
            self._added, user_id = self._add_recipient(url, to)
        return self.deliver(url, message, subject, to=str(user_id),
                            what=self.pm_what.format(to=to))

    def address(self, to: str) -> dict[str, str]:
        """phpBB names a recipient by its id (``to``), in the field's name."""
        return {f"address_list[u][{to}]": "to"}

    def fields(self, form: HtmlForm, *, pm: bool) -> dict[str, str]:
        """What a browser posts: hidden fields, checked boxes, the subject as served, the
        button; a PM's recipients only as :meth:`address` names them."""
        data = form.sends("hidden", "checkbox", "radio")
        if pm:
            data = {k: v for k, v in data.items() if not _ADDRESS.match(k)}
        data["subject"] = form.fields.get("subject", "")
        data.update([form.press("post", "Отправить")])
        return data

    def form_at(self, url: str, what: str, *, pm: bool) -> _Form:
        """GET a posting form as the logged-in host (:meth:`FormPoster.read_form`); the
        form phpBB answered the added recipient with goes first."""
        if pm and self._added is not None:
            got, self._added = self._added, None
            return got

        def read(html: str) -> HtmlForm:
            form = parse_posting_form(html, url=url)  # a login page raises here
            if not is_logged_in(html):
                raise GuestForm
            return form

        form = self.read_form(url, read, what="форму ЛС" if pm else "форму ответа")
        return _Form(form, self.http.clock())

    def send(self, got: _Form, fill: Fill, *, url: str, what: str, pm: bool) -> Answer:
        """One POST (:meth:`_request`); the answer read by :meth:`_stored` or
        :meth:`_answer`, which counts only posts after the form's ``topic_cur_post_id``."""
        data = fill(got.form)
        after = int_or_none(got.form.hidden.get("topic_cur_post_id"))
        action, request = self._request(got.form.action, data, referer=got.form.action)
        answer = self.send_form(
            action, what=what, **request,
            stored=lambda r: self._stored(r, pm=pm),
            classify=lambda r: self._answer(r, what=what, pm=pm, after=after))
        if answer.kind == "stored":
            self._last_stored = self.http.clock()
        if answer.kind in ("new_posts", "flood"):
            answer = replace(answer, form=self._reuse(answer, got))  # sent again as it is
        return answer

    def _add_recipient(self, url: str, nick: str) -> tuple[_Form, int]:
        """«Добавить получателей»: phpBB turns the name into ``address_list[u][ID]``."""
        got = self.form_at(url, "форму ЛС", pm=True)
        self.before_send(got)
        data = dict(got.form.hidden)
        data["username_list"] = nick
        data["add_to"] = "Добавить"
        action, request = self._request(got.form.action, data, referer=url)
        r = self.post(action, what=f"получателя «{nick}»", **request)
        html = self.forum.decoded(r)
        try:
            form = parse_posting_form(html, url=url)
        except ForumError:
            answer = classify_answer(html, pm=True)
            raise PostingError(
                f"форум не принял «{nick}» как получателя ЛС"
                + (f": «{answer.text}»" if answer.text else ""),
                "проверьте ник по списку пользователей форума",
            ) from None
        ids = {int(m.group(1)) for k in form.hidden if (m := _ADDRESS.match(k))}
        if len(ids) != 1:
            said = posting_error(html) or ""
            reason = f": «{said}»" if said else ""
            unknown = any(n in said.lower() for n in _NO_USERS)
            raise PostingError(
                f"{'на форуме нет пользователя' if unknown else 'форум не принял'} «{nick}» "
                f"как получателя ЛС{reason}",
                "проверьте ник в [players]: это должно быть имя игрока на форуме",
            )
        return _Form(form, self.http.clock()), ids.pop()

    # -- the submit loop's hooks

    def relogin(self, answer: Answer) -> None:
        self.forum.login(form_html=answer.html, received_at=self.http.clock())

    def _reuse(self, answer: Answer, got: _Form) -> _Form:
        """The form phpBB handed back (fresh ``form_token``/``creation_time``)."""
        try:
            form = parse_posting_form(answer.html, url=got.form.action)
        except ForumError:
            return got
        return _Form(form, self.http.clock())

    def _stored(self, r: httpx.Response, *, pm: bool) -> Answer:
        """A redirect after the POST: stored only when it names the new post."""
        location = r.headers.get("Location", "")
        match = _POST_ID.search(location)
        if not pm and match and "viewtopic.php" in location:
            return Answer("stored", int(match.group(1) or match.group(2)))
        # phpBB also redirects a cancelled form (3.0: a double click) back to the topic
        # or the PM folder: without the new id this is no proof of a stored message.
        return Answer("unknown")

    def _answer(self, r: httpx.Response, *, what: str, pm: bool,
                after: int | None) -> Answer:
        """Any other answer: a 4xx, or the page phpBB answered with (:func:`classify_answer`)."""
        if r.status_code in (403, 404):
            said = posting_error(self.forum.decoded(r)) or f"HTTP {r.status_code}"
            raise PostingError(
                f"форум отклонил {what}: «{said}»",
                "проверьте в браузере, что учётной записи ведущего можно там писать",
            )
        if r.status_code >= 400:
            raise self.server_error(r.status_code, what)
        return classify_answer(self.forum.decoded(r), pm=pm, after_post=after)

    @staticmethod
    def _request(action: str, data: Mapping[str, str], *,
                 referer: str) -> tuple[str, dict[str, Any]]:
        """A form's POST as phpBB takes it: the ``sid`` out of the address into the fields
        (:func:`~adapters.phpbb.urls.sid_in_body`), the Referer without one."""
        url, fields = sid_in_body(action, dict(data))
        return url, {"data": fields, "headers": {"Referer": strip_sid(referer)}}

    def before_send(self, got: _Form) -> None:
        """Not in the form's second (gotcha 11); keep the flood distance once seen."""
        need = LASTCLICK_WAIT if "lastclick" in got.form.hidden else POST_WAIT
        wait = need - (self.http.clock() - got.received)
        if self._last_stored is not None:  # flood_waited: 0 until flood control refused
            wait = max(wait, self._last_stored + self.flood_waited - self.http.clock())
        if wait > 0:
            self.http.sleep(wait)


__all__ = [
    "FLOOD_WAIT",
    "LASTCLICK_WAIT",
    "POST_WAIT",
    "Answer",
    "PhpbbPoster",
    "PostingError",
]
