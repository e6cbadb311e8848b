"""The form-poster template every engine's posting fills in (issue 28): a reply in the
game topic and a PM, each through the board's own form, sent at most once per form — get
the form as the host, fill and check it, submit it once, classify the answer, return only
a stored one. An engine writes the addresses, its form parser, how to fill the form and
how to read the board's answer; the steps and hooks are in ``adapters/README.md``."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar
from urllib.parse import urlencode

import httpx

from adapters.base import HttpClient
from adapters.form import HtmlForm
from adapters.http_client import Closing
from referee.core.errors import LoginRequired, NetworkError, PostingError

log = logging.getLogger("referee.posting")

FORM_TYPE = {"Content-Type": "application/x-www-form-urlencoded"}

LOOK = ("посмотрите в теме (или в «Отправленных») в браузере, прежде чем запускать команду "
        "снова: если сообщение там, оно отправлено")
"""What the host must do when a message may have been stored."""

FRESH = ("token", "form_invalid", "login")
"""Answer kinds that a fresh form (and, for ``login``, a new login) may cure once."""

Fill = Callable[[HtmlForm], dict[str, str]]
"""The driver's fill of a form (:meth:`FormPoster.deliver`): the fields to send."""


def form_body(values: dict[str, str], charset: str) -> bytes:
    """A form in the page's own encoding, as a browser sends it from a ``windows-1251``
    page: characters the encoding lacks as ``&#N;`` (boards store and show them so). The
    login name must match the board's bytes, or the board does not find the user."""
    return urlencode(list(values.items()), encoding=charset,
                     errors="xmlcharrefreplace").encode("ascii")


@dataclass(frozen=True, slots=True)
class Answer:
    """What the board made of one POST.

    ``kind``: ``stored``; ``token``/``form_invalid`` (the form's key refused), ``login``
    (the session was lost); ``new_posts`` (posts arrived while the form was open: the board
    shows them and hands the form back, to be sent again as it is); ``flood`` (``wait``:
    the seconds the board names); ``refused`` (``text``: the board's reason); ``unknown``;
    or an engine's own kind that its :meth:`FormPoster.cure` handles."""

    kind: str
    post_id: int | None = None
    text: str = ""
    wait: float | None = None
    html: str = ""
    form: Any = None
    """The form the board handed back with its answer (fresh tokens), when it did."""


class GuestForm(Exception):
    """A posting form rendered for a guest (the board lets guests write)."""


F = TypeVar("F")


class FormPoster(Closing, Generic[F]):
    """Replies and PMs as the logged-in host over an engine's board client (implements
    :class:`referee.core.kernel.Poster`). The engine writes the driver's hooks
    ``reply_url()``, ``compose_url(user_id)``, ``form_topic(form)`` (the topic a reply
    form names, as :meth:`check_topic` compares it), ``form_at(url, what, pm=)`` (the form
    as the host sees it: :meth:`read_form`) and ``send(form, fill, url=, what=, pm=)`` (one
    send and the board's answer: :meth:`post` or :meth:`send_form`)."""

    flood_default = 31.0
    """The board's default flood interval plus a margin, when its answer names none."""
    max_flood_wait: float | None = None
    unsure: type[Exception] = NetworkError
    """The request errors after which the message may have been stored."""
    look = LOOK
    """Where the host looks before sending again a message that may have been stored."""
    reply_what = "ответ в теме {topic}"
    """How the host's messages name a reply (``topic``: the game topic's id)."""
    pm_what = "личное сообщение для «{to}»"
    """How they name a PM (``to``: the recipient as the host wrote it)."""
    subject_field = "subject"
    """Where a given subject goes: a PM's always, a reply's only when its form has the field
    (else the board's own «Re: …» stays)."""
    recipient_field = "recipients"
    message_field: str | None = None
    """Where the message goes; None: the form's text area (:attr:`HtmlForm.textarea`)."""
    topic_hint = ""
    """How to write ``[forum] url`` so that it names the game topic."""

    def __init__(self, forum: Any, *, flood_wait: float | None = None) -> None:
        self.forum = forum
        self.http: HttpClient = forum.http
        self.flood_wait = self.flood_default if flood_wait is None else flood_wait
        self.flood_waited = 0.0
        """The seconds waited out after the last flood refusal (told if it comes again)."""

    def close(self) -> None:
        self.forum.close()

    # -- the driver: a reply and a PM, each one form's round

    def reply(self, message: str, subject: str | None = None) -> int | None:
        """Reply in the game topic; the new post's id, or None when the board does not
        tell."""
        topic = self.topic()
        return self.deliver(self.reply_url(), message, subject, topic=topic,
                            what=self.reply_what.format(topic=topic))

    def send_pm(self, to: str, message: str, subject: str,
                user_id: int | None = None) -> int | None:
        """Send one PM to the member named ``to``; its id when the board tells."""
        return self.deliver(self.compose_url(user_id), message, subject,
                            to=self.recipient(to), what=self.pm_what.format(to=to))

    def deliver(self, url: str, message: str, subject: str | None, *, what: str,
                topic: str | None = None, to: str | None = None) -> int | None:
        """One message through the form at ``url`` (:meth:`submit`): the form got by
        :meth:`form_at`; a reply's checked against ``topic`` (:meth:`check_topic`); filled
        with what it sends as served (:meth:`fields`), the message, the subject and a PM's
        recipient ``to`` (:meth:`address`); sent by :meth:`send`."""
        pm = to is not None

        def fill(form: HtmlForm) -> dict[str, str]:
            if topic is not None:
                self.check_topic(self.form_topic(form), topic)
            data = self.fields(form, pm=pm)
            data[self.message_field or form.textarea] = message
            if subject is not None and (pm or self.subject_field in form.named):
                data[self.subject_field] = subject
            if to is not None:
                data.update(self.address(to))
            return data

        return self.submit(lambda: self.form_at(url, what, pm=pm),
                           lambda form: self.send(form, fill, url=url, what=what, pm=pm),
                           what=what)

    # -- the engine's hooks for the driver

    def topic(self) -> str:
        """Hook: the game topic's id, or an error when ``[forum] url`` names none."""
        if self.forum.topic_id is None:
            raise PostingError("в [forum] url нет номера темы: referee не знает, куда писать",
                               self.topic_hint)
        return str(self.forum.topic_id)

    def recipient(self, to: str) -> str:
        """Hook: the recipient field's value for ``to`` (refused when the board cannot
        take it)."""
        return to

    def address(self, to: str) -> dict[str, str]:
        """Hook: the fields that name a PM's recipient ``to`` (:meth:`recipient`'s value):
        by default ``to`` in :attr:`recipient_field`."""
        return {self.recipient_field: to}

    def fields(self, form: HtmlForm, *, pm: bool) -> dict[str, str]:
        """Hook: what a browser sends of the form as served, with the board's own fixed
        fields (its button…)."""
        return dict(form.fields)

    # -- 1. the form

    def read_form(self, url: str, read: Callable[[str], HtmlForm], *, what: str) -> HtmlForm:
        """The form as the logged-in host: ``read`` parses it and raises
        :class:`GuestForm` when the page was made for a guest; a CAPTCHA is refused."""
        try:
            form = self.forum.read(url, read, what=what)
        except GuestForm:
            self.forum.login()
            try:
                form = self.forum.read(url, read, what=what)
            except GuestForm:
                raise LoginRequired(f"форум показывает гостю {what} сразу после входа",
                                    "проверьте в браузере, что вход сохраняется") from None
        if form.has_captcha:
            raise PostingError(f"{what}: форум просит капчу, referee её не решает",
                               "отправьте это сообщение вручную в браузере")
        return form

    # -- 2. the target

    def check_topic(self, target: str | None, topic: object) -> None:
        """Never post into another topic than ``[forum] url``, whatever the form says:
        ``target`` is the topic the form's address names (as the board writes it)."""
        if target != str(topic):
            raise PostingError(f"форма ответа форума ведёт в тему {target or '?'}, а не в "
                               f"тему игры {topic}; ничего не отправлено",
                               "проверьте [forum] url и откройте форму ответа в браузере")

    # -- 3. one POST

    def post(self, url: str, *, what: str, **request: Any) -> httpx.Response:
        """POST once, never retried: a broken connection may have reached the board."""
        try:
            return self.http.request("POST", url, retry_unsafe=False,
                                     follow_redirects=False, **request)
        except self.unsure as e:
            said = getattr(e, "message", e)
            raise PostingError(f"связь оборвалась при отправке ({what}): {said}", LOOK,
                               maybe_sent=True) from None

    def send_form(self, action: str, *, what: str,
                  stored: Callable[[httpx.Response], Answer],
                  classify: Callable[[httpx.Response], Answer], **request: Any) -> Answer:
        """The send step boards that answer a stored message with a redirect share: POST
        once (:meth:`post`); a 5xx may have stored it (``maybe_sent``); a redirect is read
        by ``stored``, any other answer by ``classify``."""
        r = self.post(action, what=what, **request)
        if r.status_code >= 500:
            raise self.server_error(r.status_code, what)
        return stored(r) if r.is_redirect else classify(r)

    def server_error(self, status: int, what: str) -> PostingError:
        """Hook: the error for a 5xx answer to a send (:meth:`send_form`): the message may
        have been stored before the board failed."""
        return PostingError(f"форум ответил HTTP {status} на {what}", self.look,
                            maybe_sent=True)

    # -- 4. the answer

    def flood_delay(self, answer: Answer) -> float:
        """Hook: how long to wait after flood control (the board's figure plus a second)."""
        wait = (answer.wait + 1.0) if answer.wait is not None else self.flood_wait
        return min(wait, self.max_flood_wait) if self.max_flood_wait else wait

    def relogin(self, answer: Answer) -> None:
        """Hook: log in again after the board said the session is gone."""
        self.forum.login()

    def before_send(self, form: F) -> None:
        """Hook: a last look at the form before each send (its target, the time since it
        arrived)."""

    def cure(self, answer: Answer, form: F, get_form: Callable[[], F]) -> F | None:
        """Hook: the form to send after a refusal that one more go may cure — a fresh form
        after a refused token (a login first when the session was lost), the one the board
        handed back (:attr:`Answer.form`) or a fresh one after waiting out flood control —
        or None to give up. Each kind is cured once."""
        if answer.kind in FRESH:
            if answer.kind == "login":
                self.relogin(answer)
            return get_form()
        if answer.kind == "new_posts" and answer.form is not None:
            log.info("new posts since the form was made; submitting again")
            return answer.form
        if answer.kind == "flood":
            self.flood_waited = wait = self.flood_delay(answer)
            log.info("flood control; waiting %.0f s", wait)
            self.http.sleep(wait)
            return answer.form or get_form()
        return None

    def refusal(self, answer: Answer, what: str) -> PostingError:
        """Hook: the error for an answer that was not cured."""
        if answer.kind in FRESH:
            return PostingError(f"форум дважды отклонил {what} (не принят ключ безопасности "
                                "формы или потерян вход); ничего не отправлено",
                                "запустите команду снова; если повторится, войдите один раз "
                                "через браузер и проверьте часы компьютера")
        if answer.kind == "new_posts":
            return PostingError(
                f"в тему всё время приходят новые сообщения; не отправлено: {what}",
                "запустите команду снова через минуту")
        if answer.kind == "flood":
            return PostingError(f"защита форума от флуда снова отклонила {what} после "
                                f"ожидания {self.flood_waited:.0f} с: «{answer.text}»",
                                "запустите ту же команду через несколько минут: отправленное "
                                "записано и второй раз не уйдёт")
        if answer.kind == "refused":
            return PostingError(f"форум не принял {what}: «{answer.text}»",
                                "откройте форму в браузере и посмотрите причину; ничего не "
                                "отправлено")
        return PostingError(f"ответ форума на {what} — ни успех, ни ошибка, известные referee",
                            LOOK, maybe_sent=True)

    # -- the pipeline

    def submit(self, get_form: Callable[[], F], send: Callable[[F], Answer], *,
               what: str) -> int | None:
        """Send the form until it is stored, each kind of refusal cured once
        (:meth:`cure`); the new post's id, or None when the board does not tell."""
        form = get_form()
        cured: set[str] = set()
        while True:
            self.before_send(form)
            answer = send(form)
            if answer.kind == "stored":
                log.info("%s stored as %s", what, answer.post_id)
                return answer.post_id
            kind = "fresh" if answer.kind in FRESH else answer.kind
            again = None if kind in cured else self.cure(answer, form, get_form)
            if again is None:
                raise self.refusal(answer, what)
            cured.add(kind)
            form = again


__all__ = ["FORM_TYPE", "LOOK", "Answer", "Fill", "FormPoster", "GuestForm", "PostingError",
           "form_body"]
