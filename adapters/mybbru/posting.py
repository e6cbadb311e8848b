"""Posting as the host on a MyBB.ru board: a reply through ``post.php?tid=N`` and a private
message through ``messages.php?action=new`` — the board's own forms as a browser sends them
(every hidden field, in the page's charset). Facts and their sources: README.md («Forms»).

Each call sends once and never retries the POST after it may have reached the board
(referee.host.publish records every send; an answer that leaves it open raises
:class:`referee.core.errors.PostingError` with ``maybe_sent``, so the host looks before sending
again).
"""

from __future__ import annotations

import json
import re

import httpx

from adapters.base import same_site
from adapters.form import HtmlForm
from adapters.mybbru import api
from adapters.mybbru import page as pages
from adapters.mybbru.client import MybbForum
from adapters.poster import FORM_TYPE, Answer, Fill, FormPoster, form_body
from referee.core.errors import ForumError, PostingError

_STORED_POST = re.compile(r"viewtopic\.php\?pid=(\d+)")
_STORED_PM = re.compile(r"messages\.php\?(?:[^\"'>]*&(?:amp;)?)?(?:id|pid)=(\d+)")
_REFRESH = re.compile(r"<meta[^>]+http-equiv=[\"']?refresh[^>]+>", re.IGNORECASE)
_GROWL = re.compile(r"jGrowl[^<]*<a[^>]+href=[\"']([^\"']+)", re.IGNORECASE)


def stored_id(r: httpx.Response, html: str, pattern: re.Pattern[str]) -> int | None:
    """The id the board's answer sends the reader to: a redirect, a refresh page or the
    «сообщение добавлено» notice link."""
    places = [r.headers.get("location", "")] if r.is_redirect else []
    places += [m.group(0) for m in _REFRESH.finditer(html)]
    places += [m.group(1) for m in _GROWL.finditer(html)]
    for place in places:
        m = pattern.search(place)
        if m:
            return int(m.group(1))
    return None


class MybbPoster(FormPoster[tuple[HtmlForm, str]]):
    """Sends replies and PMs as the logged-in host over a :class:`MybbForum` session."""

    forum: MybbForum
    unsure = ForumError
    pm_what = "ЛС для «{to}»"
    subject_field = "req_subject"
    recipient_field = "req_username"

    # -- hooks

    def topic(self) -> str:
        return str(self.forum._topic())

    def reply_url(self) -> str:
        return f"{self.forum.root}post.php?tid={self.forum._topic()}"

    def compose_url(self, user_id: int | None = None) -> str:
        url = f"{self.forum.root}messages.php?action=new"
        return f"{url}&uid={user_id}" if user_id else url

    def form_topic(self, form: HtmlForm) -> str | None:
        return form.target("tid")

    def fields(self, form: HtmlForm, *, pm: bool) -> dict[str, str]:
        data = form.sends("hidden", "text", "checkbox")
        data.setdefault("form_sent", "1")
        data.update([form.press("submit", "Отправить")])
        return data

    def form_at(self, url: str, what: str, *, pm: bool) -> tuple[HtmlForm, str]:
        """The form as the logged-in host sees it, and its charset (one login when the
        board shows a login page or a guest's form: the host's messages never go out as a
        guest)."""
        action_has = "messages.php" if pm else "post.php"
        shown = "форма личного сообщения" if pm else "форма ответа"
        if not self.forum.logged_in():
            self.forum.login()
        for attempt in range(2):
            r, html, codec = self.http.get_text(url, reads_right=pages.reads_as_mybb, what=shown)
            form = pages.parse_post_form(html, url=url, action_has=action_has)
            # A reply form that asks for a guest's name was made for a guest.
            guest = form is not None and not pm and "req_username" in form.named
            if form is not None and not guest:
                return form, pages.form_charset(r.content, r.headers.get("content-type"), codec)
            if attempt == 0 and (guest or pages.has_login_form(html)) \
                    and self.forum.logins == 0:
                self.forum.login()
                continue
            said = pages.page_message(html)
            raise PostingError(
                f"форум не показал {shown} (HTTP {r.status_code})"
                + (f": «{said}»" if said else ""),
                "откройте её в браузере под учётной записью ведущего",
            )
        raise PostingError(f"форум не показал {shown}")  # pragma: no cover - loop returns

    def send(self, form: tuple[HtmlForm, str], fill: Fill, *, url: str, what: str,
             pm: bool) -> Answer:
        """Sent once, whatever the answer: stored (a reply's post id; a PM's id when the
        board says), else an error (:meth:`_not_stored`)."""
        html_form, charset = form
        data = fill(html_form)
        action = html_form.action
        if not same_site(httpx.URL(action).host, self.http.host):
            raise PostingError(f"форма отправляется на другой сайт ({httpx.URL(action).host}); "
                               "referee её не отправит", "проверьте [forum] url")
        if pm:
            action += ("&" if "?" in action else "?") + "format=json"
        r = self.post(action, what=what, content=form_body(data, charset),
                      headers={**FORM_TYPE, "Referer": url})
        html = self.forum.decoded(r)
        if pm and r.content.lstrip()[:1] == b"{":
            return Answer("stored", self._pm_json(r.content, what))
        found = stored_id(r, html, _STORED_PM if pm else _STORED_POST)
        if found is not None or (pm and r.is_redirect and "messages.php" in
                                 r.headers.get("location", "")):
            return Answer("stored", found)
        raise self._not_stored(r, html, what)

    @staticmethod
    def _pm_json(content: bytes, what: str) -> int | None:
        try:
            payload = json.loads(content.decode("utf-8-sig"))
        except ValueError:
            raise PostingError(f"форум ответил на {what} непонятно",
                               "проверьте папку отправленных на форуме",
                               maybe_sent=True) from None
        error = payload.get("error") if isinstance(payload, dict) else None
        if error:  # in the API's own words (its ``message``, else its ``code``…)
            raise PostingError(f"форум не отправил {what}: «{api.error_text(error)}»",
                               "проверьте ник получателя")
        response = payload.get("response") if isinstance(payload, dict) else None
        pm_id = response.get("id") if isinstance(response, dict) else None
        return int(pm_id) if str(pm_id or "").isdigit() else None

    def _not_stored(self, r: httpx.Response, html: str, what: str) -> PostingError:
        said = pages.page_message(html)
        if r.status_code < 500 and pages.parse_post_form(html, url=str(r.url),
                                                          action_has=".php") is not None:
            return PostingError(f"форум не принял {what}" + (f": «{said}»" if said else ""),
                                "исправьте причину и запустите команду снова")
        return PostingError(
            f"форум ответил на {what} непонятно (HTTP {r.status_code})"
            + (f": «{said}»" if said else ""),
            "проверьте на форуме, дошло ли сообщение, прежде чем отправлять снова",
            maybe_sent=True,
        )
