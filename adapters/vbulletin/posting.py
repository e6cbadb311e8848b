"""Posting as the host on vBulletin 3.8/4.x: a reply through ``newreply.php`` and a PM
through ``private.php?do=newpm`` / ``do=insertpm``, each with the form's ``securitytoken``.

As far as vBulletin's documented forms and public vB clients show (README.md; none of it is
verified on a live board):

- the reply form is ``newreply.php?do=newreply&noquote=1&t=N``; it posts to
  ``newreply.php?do=postreply&t=N`` with ``securitytoken``, ``do``, ``t``, ``posthash``,
  ``poststarttime``, ``loggedinuser``, ``message``, ``wysiwyg=0``, ``sbutton``;
- the PM form is ``private.php?do=newpm``; it posts to ``private.php?do=insertpm&pmid=``
  with ``recipients`` (names, ``;`` between), ``title``, ``message``, ``savecopy``;
- a stored reply answers a redirect (HTTP 30x or vBulletin's redirect page) to
  ``showthread.php?p=N#postN``; a sent PM back to ``private.php``;
- a stale token answers «…security token was missing or invalid»: one fresh form is
  fetched and posted; flood control («…wait 30 seconds between posts. Please try again in
  12 seconds.») is waited out once.

Each call sends at most once per form; the core (referee/publish.py) records every send.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Mapping

import httpx
from selectolax.lexbor import LexborHTMLParser

from adapters.vbulletin import forms, parse
from adapters.vbulletin.client import VbulletinForum
from referee.errors import ForumError, LoginRequired, NetworkError

log = logging.getLogger("referee.vbulletin.posting")

FLOOD_WAIT = 31.0
"""vBulletin's default ``floodchecktime`` (30 s) plus a margin, when the board names none."""
_THREAD = re.compile(r"[?&;]t=(\d+)")


class PostingError(ForumError):
    """The board did not store the message; ``maybe_sent`` when the answer leaves it open."""

    def __init__(self, message: str, hint: str | None = None, *,
                 maybe_sent: bool = False) -> None:
        super().__init__(message, hint)
        self.maybe_sent = maybe_sent


class _GuestForm(Exception):
    pass


class VbulletinPoster:
    """Replies and PMs as the logged-in host over a :class:`VbulletinForum` session."""

    def __init__(self, forum: VbulletinForum, *, flood_wait: float = FLOOD_WAIT) -> None:
        self.forum = forum
        self.http = forum.http
        self.flood_wait = flood_wait

    def close(self) -> None:
        self.forum.close()

    def __enter__(self) -> VbulletinPoster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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
        topic = str(self.forum.topic_id)
        url = self.reply_url()

        def build(form: forms.Form) -> dict[str, str]:
            target = _THREAD.search(form.action)
            if (target.group(1) if target else form.fields.get("t")) != topic:
                raise PostingError(
                    f"форма ответа ведёт не в тему игры (t={topic}); ничего не отправлено",
                    "проверьте [forum] url и откройте форму ответа в браузере")
            data = self._fields(form, message)
            if subject is not None:
                data["title"] = subject
            return data

        return self._submit(url, "newreply.php", build, what=f"ответ в теме t={topic}",
                            pm=False)

    def send_pm(self, to: str, message: str, subject: str,
                user_id: int | None = None) -> int | None:
        """Send one PM to ``to`` (by name: vBulletin's form takes names). vBulletin does
        not tell the new PM's id: None."""
        def build(form: forms.Form) -> dict[str, str]:
            data = self._fields(form, message)
            data.update({"recipients": to, "bccrecipients": "", "title": subject})
            data.setdefault("savecopy", "1")
            return data

        return self._submit(self.compose_url(), "private.php", build,
                            what=f"личное сообщение для «{to}»", pm=True)

    # -- steps

    @staticmethod
    def _fields(form: forms.Form, message: str) -> dict[str, str]:
        data = dict(form.fields)
        data[form.textarea] = message
        data["wysiwyg"] = "0"
        data.setdefault("sbutton", "Submit")
        return data

    def _form(self, url: str, word: str, what: str) -> forms.Form:
        """The form as the logged-in host (a form shown to a guest leads to a login:
        the host's messages are never posted as a guest)."""
        def read(html: str) -> forms.Form:
            tree = LexborHTMLParser(html)
            form = forms.posting_form(html, url, word)
            if form is None:
                parse.raise_for_page(tree, url, what)
            if not parse.is_logged_in(tree):
                raise _GuestForm
            return form

        try:
            form = self.forum.read(url, read, what=what)
        except _GuestForm:
            self.forum.login()
            try:
                form = self.forum.read(url, read, what=what)
            except _GuestForm:
                raise LoginRequired(f"форум и после входа показывает {what} гостю",
                                    "проверьте в браузере, что вход сохраняется") from None
        if form.has_captcha:
            raise PostingError(f"{what}: форум просит капчу, referee её не решает",
                               "отправьте это сообщение вручную в браузере")
        return form

    def _submit(self, url: str, word: str, build: Callable[[forms.Form], dict[str, str]], *,
                what: str, pm: bool) -> int | None:
        form = self._form(url, word, "форма отправки")
        fresh_used = flood_used = False
        while True:
            answer = self._send(form, build(form), what=what, pm=pm)
            if answer.kind == "stored":
                log.info("%s stored as %s", what, answer.post_id)
                return answer.post_id
            if answer.kind in ("token", "login") and not fresh_used:
                fresh_used = True
                if answer.kind == "login":
                    self.forum.login()
                form = self._form(url, word, "форма отправки")
                continue
            if answer.kind == "flood" and not flood_used:
                flood_used = True
                wait = (answer.wait + 1.0) if answer.wait is not None else self.flood_wait
                log.info("flood control; waiting %.0f s", wait)
                self.http.sleep(wait)
                form = self._form(url, word, "форма отправки")
                continue
            if answer.kind in ("token", "login", "flood", "refused"):
                raise PostingError(f"форум не принял {what}: «{answer.text}»",
                                   "откройте форму в браузере и посмотрите причину; "
                                   "ничего не отправлено")
            raise PostingError(
                f"ответ форума на {what} — ни успех, ни ошибка, известные referee",
                "посмотрите в браузере (тема или «Отправленные»), прежде чем запускать "
                "команду снова: если сообщение там, оно отправлено", maybe_sent=True)

    def _send(self, form: forms.Form, data: Mapping[str, str], *, what: str,
              pm: bool) -> forms.Answer:
        try:
            r = self.http.request("POST", form.action,
                                  content=forms.form_body(dict(data), self.forum.charset),
                                  headers={**forms.FORM_TYPE, "Referer": form.action},
                                  retry_unsafe=False, follow_redirects=False)
        except NetworkError as e:
            raise PostingError(
                f"связь оборвалась при отправке: {what}: {e.message}",
                "посмотрите в браузере, дошло ли сообщение, прежде чем запускать команду "
                "снова", maybe_sent=True) from None
        if r.is_redirect:
            return self._redirected(r, pm=pm)
        if r.status_code >= 500:
            raise PostingError(f"форум ответил HTTP {r.status_code} на {what}",
                               "посмотрите в браузере, дошло ли сообщение", maybe_sent=True)
        html = parse.decode_page(r.content, r.headers.get("content-type")) if r.content else ""
        return forms.classify_answer(html, pm=pm)

    @staticmethod
    def _redirected(r: httpx.Response, *, pm: bool) -> forms.Answer:
        location = r.headers.get("Location", "")
        post_id = forms.post_id_in(location)
        if pm and "private.php" in location:
            return forms.Answer("stored")
        if not pm and post_id is not None:
            return forms.Answer("stored", post_id)
        return forms.Answer("unknown")


__all__ = ["FLOOD_WAIT", "PostingError", "VbulletinPoster"]
