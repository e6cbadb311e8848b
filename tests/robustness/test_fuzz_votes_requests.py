"""Whatever players write, reading it never crashes: a post is a vote, a near-vote or no vote
(V1–V3); a PM gives requests or items listed for the host (N14). Inputs are the real posts
and PMs of the fixture game, broken: cut, tags dropped, colours garbled, words and nicks
inserted, read against a roster that also holds hostile nicks."""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from robust_helpers import MOSCOW, PM_PAGES, REAL, SAVED_AT, TOPIC_PAGES, fixture_text

from adapters.phpbb.pms import parse_pm
from adapters.phpbb.topic import parse_topic_page
from referee.config.game import VoteRules
from referee.core.errors import RefereeError
from referee.core.kernel import Post, PrivateMessage
from referee.core.markup import QUOTE_MARK
from referee.core.nicks import Roster
from referee.core.roles import ROLE_IDS
from referee.rules.day.reading import VoteReading, find_vote
from referee.rules.intake import read_requests

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

PLAYERS = ("Шерлок", "Мисс Марпл", "Kotik", "Тень_Ночи", "Лиса", "Ёжик", "Полковник",
           "Nika-77", "Гроза", "Мотылёк", "Снежок", "Доктор Ватсон", "Mr. Smith", "Ира-Ира")
HOSTILE_NICKS = ("[/color][url=http://evil]x[/url]", "[b]", "(.*)", "Я", "и", "на", "себя",
                 "Меняю", "Проверяю", "мой голос", "x" * 40, "A-B", "1", "__", "\\", ".")
STYLES = ("color:red", "color: #f00", "color:#FF0000 !important", "color:rgb(1e999,0,0)",
          "color:hsl(1e999,100%,50%)", "color:rgba(255,0,0,/)", "color:", "color:red;color:x",
          "color: rgb(255 0 0 / 0%)", "color:red/*", "color:hsl(0 100% 50% / 1e-999)", ";;",
          "color:rgb(255,0,0,0,0)", "color: transparent", "color:inherit", "font-size: 200%")
INSERTS = ('<span style="color:red">', "</span>", "<blockquote><div>", "</div></blockquote>",
           "<br>", "мой голос", "Мой голос — ", '<div class="codebox"><p>Код:</p><pre><code>',
           "</code></pre></div>", "\u200b", '<font color="red">', "</font>", '<a href="x">',
           "</a>", "<td>", "<ul><li>", "&#0;", "\x00", "<img src=x alt=':D'>", *PLAYERS[:4])
WORDS = ("Проверяю", "Лечу", "Стреляем", "в", "исполнитель", "стреляет", "Убиваю", "Бью",
         "Забираю", "к себе", "Засада", "Взрываю", "Защищаю", "и", "Меняю", "на", "Исправление:",
         "проверку", "выстрел", "не", "себя", "я", ",", ".", "—", ":", "\n", QUOTE_MARK,
         "\u200b", "Цель:", "исп.", "стрелять будет", "Re:", "«", "»")

_TAG = re.compile(r"<[^<>]+>")
_STYLE = re.compile(r'style="([^"]*)"')


@cache
def real_posts() -> tuple[Post, ...]:
    return tuple(
        post for name in TOPIC_PAGES if "host" in name and "_en" not in name
        for post in parse_topic_page(fixture_text(name), url=str(REAL / name), tz=MOSCOW,
                                     now=SAVED_AT).posts
    )


@cache
def real_pms() -> tuple[PrivateMessage, ...]:
    return tuple(parse_pm(fixture_text(n), url=n, tz=MOSCOW, now=SAVED_AT) for n in PM_PAGES)


roster_nicks = st.one_of(
    st.just(PLAYERS),
    st.tuples(st.lists(st.sampled_from(PLAYERS), min_size=1, max_size=6, unique=True),
              st.lists(st.sampled_from(HOSTILE_NICKS), min_size=1, max_size=4, unique=True))
    .map(lambda parts: tuple(parts[0] + parts[1])),
)


@st.composite
def broken_html(draw: st.DrawFn, html: str) -> str:
    for _ in range(draw(st.integers(min_value=1, max_value=4))):
        kind = draw(st.sampled_from(("cut", "drop_tag", "style", "insert")))
        at = draw(st.integers(min_value=0, max_value=10**6))
        if kind == "cut":
            html = html[: at % (len(html) + 1)]
        elif kind == "drop_tag" and (tags := list(_TAG.finditer(html))):
            m = tags[at % len(tags)]
            html = html[: m.start()] + html[m.end():]
        elif kind == "style" and (styles := list(_STYLE.finditer(html))):
            m = styles[at % len(styles)]
            html = html[: m.start(1)] + draw(st.sampled_from(STYLES)) + html[m.end(1):]
        else:
            pos = at % (len(html) + 1)
            html = html[:pos] + draw(st.sampled_from(INSERTS) | st.text(max_size=10)) + html[pos:]
    return html


vote_rules = st.sampled_from((
    VoteRules(), VoteRules(reason_min_letters=0), VoteRules(phrases=("голос", "мой голос")),
    VoteRules(red_colours=("#zz", "red", "rgb(1,2)")), VoteRules(near_match_distance=3),
))


@FUZZ
@given(data=st.data(), nicks=roster_nicks, rules=vote_rules)
def test_any_post_reads_as_a_vote_a_near_vote_or_nothing_V1_V3(
    data: st.DataObject, nicks: tuple[str, ...], rules: VoteRules
) -> None:
    post = data.draw(st.sampled_from(real_posts()))
    html = data.draw(st.one_of(broken_html(post.body_html), st.text(max_size=200)))
    roster = Roster(nicks, near_distance=rules.near_match_distance)
    try:
        reading = find_vote(replace(post, body_html=html), roster, rules)
    except RefereeError:
        return
    assert reading is None or isinstance(reading, VoteReading)
    if reading is not None:
        assert reading.target is None or reading.target in nicks  # V2: only roster nicks
        assert reading.valid == (not reading.problems)


@st.composite
def broken_pm(draw: st.DrawFn, nicks: tuple[str, ...], player: bool) -> PrivateMessage:
    """A real PM, broken; from a roster nick when ``player`` (read_night gives a role only
    to a player), else from anyone on the forum."""
    pm = draw(st.sampled_from(real_pms()))
    text = pm.body_text
    for _ in range(draw(st.integers(min_value=1, max_value=8))):
        pos = draw(st.integers(min_value=0, max_value=len(text)))
        word = draw(st.sampled_from(WORDS + nicks) | st.text(max_size=6))
        text = f"{text[:pos]} {word} {text[pos:]}"
    if draw(st.booleans()):
        text = text[: draw(st.integers(min_value=0, max_value=len(text)))]
    subject = draw(st.sampled_from(("", pm.subject, "Re: Проверка", f"Проверка {nicks[0]}")))
    sender = draw(st.sampled_from(nicks if player else (*nicks, "Пуаро", "Гость")))
    return replace(pm, body_text=text, subject=subject, sender=sender)


@FUZZ
@given(data=st.data(), nicks=roster_nicks, role=st.sampled_from((None, *ROLE_IDS)))
def test_any_pm_gives_requests_or_items_for_the_host_N14(
    data: st.DataObject, nicks: tuple[str, ...], role: str | None
) -> None:
    pm = data.draw(broken_pm(nicks, player=role is not None))
    roster = Roster(nicks)
    try:
        result = read_requests(pm, role, roster, order=1)
    except RefereeError:
        return
    for r in result.requests:
        assert all(t in nicks for t in r.all_targets())  # a target is always a roster nick
        assert r.executor is None or r.executor in nicks
    assert result.requests or result.unreadable  # never silently nothing (N14)


PIECES = (
    " ", "\u00a0", "&nbsp;", "\u200b", "\u2060", "&shy;", "\r\n", "\n", "-", "—", ":", "<b>",
    "</b>", "<span>", "</span>", '<span style="color:red">', "<br>", "<p>", "</p>", "<div>",
    "</div>", "<blockquote><div>", "</div></blockquote>", "<!-- x -->", "<!-- a > b -->",
    "<script>x</script>", "<style>p{}</style>", "<img src=x alt='мой голос'>",
    '<span title="a>b">', "<a href='x'>", "</a>", "&lt;", "<", ">", "<code>", "</code>",
    "<xmp>", "</xmp>", "<summary>", "</summary>", "<![CDATA[x]]>", "</ x>", "<?x?>",
)
"""What may stand inside or between the words of «мой голос» in a post's HTML."""


@st.composite
def split_word(draw: st.DrawFn, word: str) -> str:
    """``word`` in some case, maybe written with an entity, maybe cut by markup."""
    word = draw(st.sampled_from((word, word.upper(), word.capitalize())))
    if draw(st.booleans()):
        at = draw(st.integers(min_value=1, max_value=len(word) - 1))
        cut = "".join(draw(st.lists(st.sampled_from(PIECES), min_size=1, max_size=3)))
        word = word[:at] + cut + word[at:]
    return word.replace("о", draw(st.sampled_from(("о", "&#1086;", "о"))), 1)


phrase_html = st.tuples(
    st.lists(st.sampled_from(PIECES) | st.text(max_size=4), max_size=5).map("".join),
    split_word("мой"),
    st.lists(st.sampled_from(PIECES), min_size=1, max_size=4).map("".join),
    split_word("голос"),
    st.lists(st.sampled_from(PIECES) | st.sampled_from(("Kotik", " — ")), max_size=5).map("".join),
).map("".join)


@settings(max_examples=300, deadline=None)
@given(body=phrase_html | st.text(max_size=40),
       phrases=st.sampled_from((("мой голос",), ("голос",), ("мой  голос", "за"), ())))
def test_the_quick_phrase_test_never_hides_a_vote_V1(body: str, phrases: tuple[str, ...]) -> None:
    # find_vote skips the HTML walk when may_hold_phrase says «no»: that must only happen
    # when the walk itself would find no phrase.
    from referee.rules.day.own_text import may_hold_phrase, walk
    from referee.rules.day.reading import _locate, phrase_pattern

    rules = VoteRules(phrases=phrases)
    if _locate(walk(body, rules), phrase_pattern(phrases)):
        assert may_hold_phrase(body, phrases), body
