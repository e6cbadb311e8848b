"""Whatever a forum (or a proxy in front of it) sends, the page parsers answer with a page or
with one of the project's own errors that tells the host what happened — never a traceback.

Inputs: real phpBB 3.3 pages cut short, with tags removed, attributes and texts changed,
random bytes inserted or deleted, re-encoded under a wrong charset; and random markup built
from the very elements the parsers look for.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from robust_helpers import (
    FOLDER_PAGES,
    LEGACY_PAGES,
    MOSCOW,
    OTHER_PAGES,
    PAGE_URL,
    PM_PAGES,
    SAVED_AT,
    TOPIC_PAGES,
    Broken,
    broken_page,
    random_page,
)

from adapters.phpbb.pms import parse_pm, parse_pm_folder
from adapters.phpbb.topic import parse_topic_page
from referee.core.errors import RefereeError
from referee.core.kernel import PmFolderPage, PrivateMessage, TopicPage

FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
ANY_PAGE = TOPIC_PAGES + PM_PAGES + FOLDER_PAGES + OTHER_PAGES + LEGACY_PAGES


def _aware(moment: datetime | None) -> bool:
    return moment is None or moment.tzinfo is not None


def _read_or_refuse(read: Callable[[], object]) -> object | None:
    """The parser's answer, or None when it refused with the project's own error."""
    try:
        return read()
    except RefereeError as error:
        assert str(error).strip(), "an error must say what happened"
        return None


def check_topic(html: str) -> None:
    page = _read_or_refuse(lambda: parse_topic_page(html, url=PAGE_URL, tz=MOSCOW, now=SAVED_AT))
    if page is None:
        return
    assert isinstance(page, TopicPage)
    for post in page.posts:
        assert post.author and _aware(post.posted_at)  # T2: times are always aware
        assert post.edit is None or _aware(post.edit.edited_at)


def check_pm(html: str) -> None:
    pm = _read_or_refuse(lambda: parse_pm(html, url=PAGE_URL, tz=MOSCOW, now=SAVED_AT))
    if pm is None:
        return
    assert isinstance(pm, PrivateMessage)
    assert pm.sender and _aware(pm.sent_at)


def check_folder(html: str) -> None:
    folder = _read_or_refuse(
        lambda: parse_pm_folder(html, url=PAGE_URL, tz=MOSCOW, now=SAVED_AT))
    if folder is None:
        return
    assert isinstance(folder, PmFolderPage)
    assert all(_aware(e.sent_at) for e in folder.entries)


@FUZZ
@given(page=broken_page(TOPIC_PAGES + LEGACY_PAGES))
def test_a_broken_topic_page_is_read_or_refused_with_a_clear_error(page: Broken) -> None:
    check_topic(page.html)


@FUZZ
@given(page=broken_page(PM_PAGES))
def test_a_broken_pm_page_is_read_or_refused_with_a_clear_error(page: Broken) -> None:
    check_pm(page.html)


@FUZZ
@given(page=broken_page(FOLDER_PAGES))
def test_a_broken_pm_folder_is_read_or_refused_with_a_clear_error(page: Broken) -> None:
    check_folder(page.html)


@FUZZ
@given(page=st.one_of(broken_page(ANY_PAGE), random_page))
def test_any_page_given_to_any_parser_never_crashes(page: Broken) -> None:
    # A login form, an error panel or a PM where a topic page was expected: gotcha 10.
    check_topic(page.html)
    check_pm(page.html)
    check_folder(page.html)
