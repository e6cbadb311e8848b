"""Posting as the host on phpBB 3.x (issue 7): a reply in the game topic through
``posting.php?mode=reply&t=N`` and private messages through ``ucp.php?i=pm&mode=compose``;
the hooks of :class:`adapters.poster.FormPoster`. The phpBB facts this follows (form keys,
the «new posts» review, flood control, recipients): README.md, «Replies and PMs». Nothing
here prints or logs the form data: only phpBB's own messages reach the host."""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
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
from adapters.poster import Answer, FormPoster, GuestForm
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
    forum: PhpbbForum

    def __init__(self, forum: PhpbbForum, *, flood_wait: float = FLOOD_WAIT) -> None:
        super().__init__(forum, flood_wait=flood_wait)
        self.flood_seen = False
        self._last_stored: float | None = None

    # -- urls

    def reply_url(self) -> str:
        if self.forum.topic_id is None:
            raise ForumError(
                "в [forum] url нет номера темы (t=…): referee не знает, куда писать",
                'укажите ссылку на тему, например "https://forum.example.com/viewtopic.php?t=123"',
            )
        return f"{self.forum.root}posting.php?mode=reply&t={self.forum.topic_id}"

    def compose_url(self) -> str:
        return f"{self.forum.root}ucp.php?i=pm&mode=compose"

    # -- public

    def reply(self, message: str, subject: str | None = None) -> int | None:
        """Reply in the game topic; returns the new post's id (``p=N``)."""
        url = self.reply_url()

        def build(form: HtmlForm) -> dict[str, str]:
            return self._fields(form, message,
                                subject if subject is not None else form.fields.get("subject"))

        return self._submit(lambda: self._get_form(url, "форму ответа"), build,
                            what=f"ответ в теме t={self.forum.topic_id}",
                            topic=self.forum.topic_id)

    def send_pm(self, to: str, message: str, subject: str,
                user_id: int | None = None) -> int | None:
        """Send a PM to ``to``; returns the PM's id. ``user_id`` skips the name lookup."""
        url = self.compose_url()
        ready: list[_Form] = []
        if user_id is None:
            added, user_id = self._add_recipient(url, to)
            ready.append(added)

        def get() -> _Form:
            # The form phpBB answered the added recipient with goes first, then fresh ones.
            return ready.pop() if ready else self._get_form(url, "форму ЛС")

        def build(form: HtmlForm) -> dict[str, str]:
            data = {k: v for k, v in self._fields(form, message, subject).items()
                    if not _ADDRESS.match(k)}
            data[f"address_list[u][{user_id}]"] = "to"
            return data

        return self._submit(get, build, what=f"ЛС для «{to}»", topic=None)

    # -- steps

    def _get_form(self, url: str, what: str) -> _Form:
        """GET a posting form as the logged-in host (:meth:`FormPoster.read_form`)."""
        def read(html: str) -> HtmlForm:
            form = parse_posting_form(html, url=url)  # a login page raises here
            if not is_logged_in(html):
                raise GuestForm
            return form

        form = self.read_form(url, read, what=what)
        return _Form(form, self.http.clock())

    def _add_recipient(self, url: str, nick: str) -> tuple[_Form, int]:
        """«Добавить получателей»: phpBB turns the name into ``address_list[u][ID]``."""
        got = self._get_form(url, "форму ЛС")
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

    def _submit(
        self,
        get_form: Callable[[], _Form],
        build: Callable[[HtmlForm], dict[str, str]],
        *,
        what: str,
        topic: int | None,
    ) -> int | None:
        """POST a form — a reply's only into the game ``topic``, a PM's (``topic`` None)
        anywhere; one fresh form after FORM_INVALID (or a lost session), one resubmit after
        the «new posts» review, one retry after flood control."""
        pm = topic is None

        def send(got: _Form) -> Answer:
            if topic is not None:
                target = got.form.target("t")
                self.check_topic(f"t={target}" if target else None, f"t={topic}")
            after = int_or_none(got.form.hidden.get("topic_cur_post_id"))
            action, request = self._request(got.form.action, build(got.form),
                                            referer=got.form.action)
            answer = self.send_form(
                action, what=what, **request,
                stored=lambda r: self._stored(r, pm=pm),
                classify=lambda r: self._answer(r, what=what, pm=pm, after=after))
            if answer.kind == "stored":
                self._last_stored = self.http.clock()
            return answer

        return self.submit(get_form, send, what=what)

    # -- hooks

    def relogin(self, answer: Answer) -> None:
        self.forum.login(form_html=answer.html, received_at=self.http.clock())

    def cure(self, answer: Answer, form: _Form, get_form: Callable[[], _Form]) -> _Form | None:
        if answer.kind == "new_posts":
            log.info("new posts since the form was made; submitting again")
            return self._reuse(answer, form)
        if answer.kind == "flood":
            self.flood_seen = True
            self.flood_waited = self.flood_wait
            log.info("flood control; waiting %.0f s", self.flood_wait)
            got = self._reuse(answer, form)
            self.http.sleep(self.flood_wait)
            return got
        return super().cure(answer, form, get_form)

    def refusal(self, answer: Answer, what: str) -> PostingError:
        if answer.kind == "new_posts":
            return PostingError(
                f"в тему всё время приходят новые сообщения; не отправлено: {what}",
                "запустите команду снова через минуту")
        return super().refusal(answer, what)

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
        if self.flood_seen and self._last_stored is not None:
            wait = max(wait, self._last_stored + self.flood_wait - self.http.clock())
        if wait > 0:
            self.http.sleep(wait)

    @staticmethod
    def _fields(form: HtmlForm, message: str, subject: str | None) -> dict[str, str]:
        """What a browser posts: hidden fields, checked boxes, subject, text, the button."""
        data = form.sends("hidden", "checkbox", "radio")
        if subject is not None:
            data["subject"] = subject
        data[form.textarea] = message
        data.update([form.press("post", "Отправить")])
        return data


__all__ = [
    "FLOOD_WAIT",
    "LASTCLICK_WAIT",
    "POST_WAIT",
    "Answer",
    "PhpbbPoster",
    "PostingError",
]
