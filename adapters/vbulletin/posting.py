"""Posting as the host on vBulletin 3.8/4.x: a reply through ``newreply.php`` and a PM
through ``private.php?do=newpm`` / ``do=insertpm``, each with the form's ``securitytoken``;
the hooks of :class:`adapters.poster.FormPoster`. The forms, the answers and what is
**unverified**: README.md, «Login and posting»."""

from __future__ import annotations

import re
from collections.abc import Callable

import httpx
from selectolax.lexbor import LexborHTMLParser

from adapters.form import HtmlForm
from adapters.poster import FORM_TYPE, Answer, FormPoster, GuestForm, form_body
from adapters.vbulletin import forms, topic
from adapters.vbulletin.client import VbulletinForum
from referee.core.errors import PostingError

FLOOD_WAIT = 31.0
"""vBulletin's default ``floodchecktime`` (30 s) plus a margin, when the board names none."""
_THREAD = re.compile(r"[?&;]t=(\d+)")


class VbulletinPoster(FormPoster[HtmlForm]):
    """Replies and PMs as the logged-in host over a :class:`VbulletinForum` session."""

    flood_default = FLOOD_WAIT
    forum: VbulletinForum

    # -- addresses

    def reply_url(self) -> str:
        if self.forum.topic_id is None:
            raise PostingError("в [forum] url нет номера темы: referee не знает, куда писать",
                               'укажите ссылку на тему: "…/showthread.php?t=123"')
        return f"{self.forum.root}newreply.php?do=newreply&noquote=1&t={self.forum.topic_id}"

    def compose_url(self) -> str:
        return f"{self.forum.root}private.php?do=newpm"

    # -- public

    def reply(self, message: str, subject: str | None = None) -> int | None:
        """Reply in the game thread; the new post's id (``p=N``)."""
        topic_id = str(self.forum.topic_id)
        url = self.reply_url()

        def build(form: HtmlForm) -> dict[str, str]:
            target = _THREAD.search(form.action)
            self.check_topic(target.group(1) if target else form.fields.get("t"), topic_id)
            data = self._fields(form, message)
            if subject is not None:
                data["title"] = subject
            return data

        return self._submit(url, "newreply.php", build, what=f"ответ в теме t={topic_id}",
                            pm=False)

    def send_pm(self, to: str, message: str, subject: str,
                user_id: int | None = None) -> int | None:
        """Send one PM to ``to`` (by name: vBulletin's form takes names). vBulletin does
        not tell the new PM's id: None."""
        def build(form: HtmlForm) -> dict[str, str]:
            data = self._fields(form, message)
            data.update({"recipients": to, "bccrecipients": "", "title": subject})
            data.setdefault("savecopy", "1")
            return data

        return self._submit(self.compose_url(), "private.php", build,
                            what=f"личное сообщение для «{to}»", pm=True)

    # -- hooks

    @staticmethod
    def _fields(form: HtmlForm, message: str) -> dict[str, str]:
        data = dict(form.fields)
        data[form.textarea] = message
        data["wysiwyg"] = "0"
        data["sbutton"] = form.buttons.get("sbutton", "Submit")
        return data

    def _form(self, url: str, word: str) -> HtmlForm:
        def read(html: str) -> HtmlForm:
            tree = LexborHTMLParser(html)
            form = forms.posting_form(html, url, word)
            if form is None:
                topic.raise_for_page(tree, url, "форма отправки")
            if not topic.is_logged_in(tree):
                raise GuestForm
            return form

        return self.read_form(url, read, what="форма отправки")

    def _submit(self, url: str, word: str, build: Callable[[HtmlForm], dict[str, str]], *,
                what: str, pm: bool) -> int | None:
        def send(form: HtmlForm) -> Answer:
            return self.send_form(
                form.action, what=what, stored=lambda r: _redirected(r, pm=pm),
                classify=lambda r: forms.classify_answer(self.forum.decoded(r), pm=pm),
                content=form_body(build(form), self.forum.charset),
                headers={**FORM_TYPE, "Referer": form.action})

        return self.submit(lambda: self._form(url, word), send, what=what)


def _redirected(r: httpx.Response, *, pm: bool) -> Answer:
    return forms.stored_at(r.headers.get("Location", ""), pm=pm) or Answer("unknown")


__all__ = ["FLOOD_WAIT", "PostingError", "VbulletinPoster"]
