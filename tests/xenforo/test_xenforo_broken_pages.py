"""Whatever a XenForo board (a style, an add-on, a proxy) sends where a thread page was
expected, the parser answers with a page or with a MalformedPage (or another of the project's
errors) that says in Russian what is missing — never a traceback."""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.xenforo.pages import MOSCOW, red
from xf_variants import PREFIX, ROUTE, VARIANTS, Vp, xf1, xf1_page, xf2_page

from adapters.xenforo.topic import parse_topic_page
from referee.core.errors import MalformedPage, RefereeError
from referee.core.kernel import TopicPage

NOW = datetime(2026, 11, 22, 9, 0, tzinfo=MOSCOW)
URL = f"http://board.test{PREFIX}{ROUTE}page-3"
_TAG = re.compile(r"<[^<>]+>")
_ATTR = re.compile(r'([\w-]+)="([^"]*)"')
TRICKY = ("", " ", "abc", "0", "-1", "post-", "post-x", "js-post-", "99999999999999999999999",
          "1e9", "2026-13-45T99:99:99+9999", "Вчера в 25:61", "#", "# 1 2 3", "&amp;",
          "Понедельник в", "post-" + "9" * 40)


def _vote(n: int) -> Vp:
    return Vp(7300 + n, "Ёжик", 1007, datetime(2026, 11, 21, 21, 40, tzinfo=MOSCOW), 40 + n,
              "Лиса путается в показаниях весь вечер.<br />Мой голос – " + red("Лиса"))


PAGES = tuple(
    [xf2_page("".join(render(_vote(n), NOW) for n in range(1, 4)), day_start=(
        int(NOW.timestamp()), int(NOW.timestamp()) - 32400)) for render in VARIANTS.values()]
    + [xf1_page("".join(xf1(_vote(n), NOW, recent=n % 2 == 0) for n in range(1, 4)),
                page=3, last=5, now=NOW)])


@st.composite
def broken(draw: st.DrawFn) -> str:
    html = draw(st.sampled_from(PAGES))
    for _ in range(draw(st.integers(min_value=1, max_value=5))):
        kind = draw(st.sampled_from(("tag", "attr", "cut", "slice")))
        tags, attrs = list(_TAG.finditer(html)), list(_ATTR.finditer(html))
        if kind == "tag" and tags:
            m = tags[draw(st.integers(min_value=0, max_value=len(tags) - 1))]
            html = html[:m.start()] + html[m.end():]
        elif kind == "attr" and attrs:
            m = attrs[draw(st.integers(min_value=0, max_value=len(attrs) - 1))]
            value = draw(st.sampled_from(TRICKY))
            html = html[:m.start(2)] + value + html[m.end(2):]
        elif kind == "cut":
            html = html[:draw(st.integers(min_value=0, max_value=len(html)))]
        elif kind == "slice":
            a = draw(st.integers(min_value=0, max_value=len(html)))
            b = draw(st.integers(min_value=a, max_value=min(len(html), a + 400)))
            html = html[:a] + html[b:]
    return html


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(html=broken())
def test_a_broken_xenforo_page_is_read_or_refused_in_words(html: str) -> None:
    try:
        page = parse_topic_page(html, url=URL, tz=MOSCOW, now=NOW)
    except RefereeError as error:
        assert str(error).strip()
        return
    assert isinstance(page, TopicPage)
    for post in page.posts:
        assert post.author and post.posted_at.tzinfo is not None
        assert post.edit is None or post.edit.edited_at is None or \
            post.edit.edited_at.tzinfo is not None
    assert 1 <= page.page <= page.total_pages and page.per_page > 0


@pytest.mark.parametrize(("change", "said"), [
    (lambda h: h.replace('data-content="post-', 'data-x="').replace('id="js-post-', 'id="x-'),
     'нет номера (data-content="post-N"'),
    (lambda h: re.sub(r"<time[^>]*>[^<]*</time>", "", h), "не найдено время сообщения"),
    (lambda h: h.replace("message-body", "message-b0dy").replace("bbWrapper", "bbW"),
     "нет текста сообщения"),
    (lambda h: re.sub(r' data-author="[^"]*"', "", h).replace("username", "user"),
     "не найден автор"),
])
def test_a_page_that_lacks_something_says_what(change: Callable[[str], str],
                                               said: str) -> None:
    html = change(PAGES[2])
    with pytest.raises(MalformedPage, match=re.escape(said)):
        parse_topic_page(html, url=URL, tz=MOSCOW, now=NOW)
