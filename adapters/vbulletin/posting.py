"""Posting as the host on vBulletin 3.8/4.x: a reply through ``newreply.php`` and a PM
through ``private.php?do=newpm`` / ``do=insertpm``, each with the form's ``securitytoken``;
the hooks of :class:`adapters.poster.FormPoster`. The forms, the answers and what is
**unverified**: README.md, «Login and posting»."""

from __future__ import annotations

from selectolax.lexbor import LexborHTMLParser

from adapters.form import HtmlForm
from adapters.poster import FORM_TYPE, Answer, Fill, FormPoster, GuestForm, form_body
from adapters.vbulletin import forms, topic
from adapters.vbulletin.client import VbulletinForum
from referee.core.errors import PostingError


class VbulletinPoster(FormPoster[HtmlForm]):
    """Replies and PMs as the logged-in host over a :class:`VbulletinForum` session."""

    forum: VbulletinForum
    reply_what = "ответ в теме t={topic}"
    subject_field = "title"
    topic_hint = 'укажите ссылку на тему: "…/showthread.php?t=123"'

    # -- hooks

    def reply_url(self) -> str:
        return f"{self.forum.root}newreply.php?do=newreply&noquote=1&t={self.topic()}"

    def compose_url(self, user_id: int | None = None) -> str:
        """vBulletin's form takes the recipient by name."""
        return f"{self.forum.root}private.php?do=newpm"

    def form_topic(self, form: HtmlForm) -> str | None:
        return form.target("t") or form.fields.get("t")

    def fields(self, form: HtmlForm, *, pm: bool) -> dict[str, str]:
        data = {**form.fields, "wysiwyg": "0",
                "sbutton": form.buttons.get("sbutton", "Submit")}
        if pm:
            data["bccrecipients"] = ""
            data.setdefault("savecopy", "1")
        return data

    def form_at(self, url: str, what: str, *, pm: bool) -> HtmlForm:
        def read(html: str) -> HtmlForm:
            tree = LexborHTMLParser(html)
            form = forms.posting_form(html, url, "private.php" if pm else "newreply.php")
            if form is None:
                topic.raise_for_page(tree, url, "форма отправки")
            if not topic.is_logged_in(tree):
                raise GuestForm
            return form

        return self.read_form(url, read, what="форма отправки")

    def send(self, form: HtmlForm, fill: Fill, *, url: str, what: str, pm: bool) -> Answer:
        """A reply's new post id (``p=N``); vBulletin does not tell a new PM's id."""
        return self.send_form(
            form.action, what=what,
            stored=lambda r: (forms.stored_at(r.headers.get("Location", ""), pm=pm)
                              or Answer("unknown")),
            classify=lambda r: forms.classify_answer(self.forum.decoded(r), pm=pm),
            content=form_body(fill(form), self.forum.charset),
            headers={**FORM_TYPE, "Referer": form.action})


__all__ = ["PostingError", "VbulletinPoster"]
