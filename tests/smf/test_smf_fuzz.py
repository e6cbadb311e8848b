"""Whatever an SMF board (or a proxy in front of it) sends, the SMF parsers answer with a
page or with one of the project's own errors — never a traceback. Inputs: the real SMF
2.1.4 pages cut short, with tags taken out, and with attributes and texts changed."""

from __future__ import annotations

import re
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from smf_pages import MOSCOW, SAVED_AT, html

from adapters.smf import forms
from adapters.smf.pms import parse_folder
from adapters.smf.topic import parse_topic_page
from referee.core.errors import RefereeError

FUZZ = settings(max_examples=120, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PAGES = ["topic_p1_host.html", "topic_p3_guest.html", "pm_inbox_p2_host.html",
         "pm_view_33_sent_host.html", "reply_result_host.html", "login_page.html",
         "new_replies_warning_host.html", "closed_topic_guest.html"]
URL = "http://127.0.0.1:8080/index.php?topic=2.0"
_VALUES = st.sampled_from(["", "x", "-1", "0", "99999999999", "9999-12-31T23:59:59-12:00",
                           "2026-11-27T25:61:00Z", "Сегодня в 99:99", "32 ноября 2026, 10:00",
                           "msg", "topic=2.abc", "#", "Вчера", "<", "u=", "😀" * 3])


@st.composite
def broken(draw: st.DrawFn) -> str:
    page = html(draw(st.sampled_from(PAGES)))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["cut", "tag", "attr", "text"]))
        if kind == "cut":
            page = page[: draw(st.integers(0, len(page)))]
        elif kind == "tag":
            tags = list(re.finditer(r"<(div|span|a|time|input|strong|form|li|h4|h5)\b[^>]*>",
                                    page))
            if tags:
                m = tags[draw(st.integers(0, len(tags) - 1))]
                page = page[: m.start()] + page[m.end():]
        else:
            pattern = r'="([^"]*)"' if kind == "attr" else r">([^<>]{1,40})<"
            found = list(re.finditer(pattern, page))
            if found:
                m = found[draw(st.integers(0, len(found) - 1))]
                page = page[: m.start(1)] + draw(_VALUES) + page[m.end(1):]
    return page


def _read_or_refuse(read: Callable[[], object]) -> object | None:
    try:
        return read()
    except RefereeError as error:
        assert str(error).strip()
        return None


@FUZZ
@given(broken())
def test_a_broken_smf_page_is_read_or_refused_with_a_clear_error(page: str) -> None:
    topic = _read_or_refuse(lambda: parse_topic_page(page, url=URL, tz=MOSCOW, now=SAVED_AT))
    if topic is not None:
        assert all(p.posted_at.utcoffset() is not None
                   for p in topic.posts)  # type: ignore[attr-defined]
    _read_or_refuse(lambda: parse_folder(page, url=URL, folder="inbox", tz=MOSCOW,
                                         now=SAVED_AT))
    _read_or_refuse(lambda: forms.parse_login_form(page, url=URL))
    _read_or_refuse(lambda: forms.parse_posting_form(page, url=URL))
    _read_or_refuse(lambda: forms.classify_answer(page, url=URL))
    _read_or_refuse(lambda: forms.login_error(page))
