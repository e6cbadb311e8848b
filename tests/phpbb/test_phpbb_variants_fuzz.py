"""The pages of every version and style (phpbb_variants), broken the ways the robustness tests
break the real ones (tests/robustness/robust_helpers.py): the parsers answer with a page or
with the project's own error, never a traceback."""

from __future__ import annotations

import sys
from functools import cache
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from phpbb_variant_pages import subsilver_folder_page, subsilver_pm_page, topic_page
from phpbb_variants import MOSCOW, NOW, POST_VARIANTS, URL, Vp, foe31, soft_deleted

from adapters.phpbb.pms import parse_pm, parse_pm_folder
from adapters.phpbb.topic import parse_topic_page
from referee.core.errors import RefereeError

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "robustness"))
from robust_helpers import mutation  # noqa: E402

FUZZ = settings(max_examples=200, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@cache
def _pages() -> tuple[str, ...]:
    from datetime import datetime

    when = datetime(2026, 11, 21, 9, 0, tzinfo=MOSCOW)
    posts = [Vp(800 + i, "Ёжик", 66 if i else None, when, 'Мой голос – <span style="color: '
                '#FF0000">Лиса</span>', signature="подпись") for i in range(3)]
    out = [topic_page(v, "".join(render(p) for p in posts), page=2, pages=3, total=25)
           for v, render in POST_VARIANTS.items()]
    out.append(topic_page("prosilver 3.3", foe31(posts[0]) + soft_deleted(posts[1])))
    out.append(subsilver_pm_page(posts[1], subject="Ночь", to=[("Ведущий", 58)]))
    out.append(subsilver_folder_page([(posts[1], "Ночь", True)]))
    return tuple(out)


@st.composite
def _broken(draw: st.DrawFn) -> str:
    html = draw(st.sampled_from(_pages()))
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        html, _step = draw(mutation(html))
    return html


def _refuse_or_read(read) -> None:  # noqa: ANN001
    try:
        read()
    except RefereeError as error:
        assert str(error).strip()


@FUZZ
@given(html=_broken())
def test_a_broken_page_of_any_style_is_read_or_refused_with_a_clear_error(html: str) -> None:
    _refuse_or_read(lambda: parse_topic_page(html, url=URL, tz=MOSCOW, now=NOW))
    _refuse_or_read(lambda: parse_pm(html, url=URL, tz=MOSCOW, now=NOW))
    _refuse_or_read(lambda: parse_pm_folder(html, url=URL, tz=MOSCOW, now=NOW))
