"""V2 — property: a reading never picks a nick the post does not name.

Posts are built from «мой голос» (sometimes with Latin look-alike letters), chat words,
and roster nicks in any case form, each piece maybe red, struck through, in a link or a
quote. Whatever the mix, a vote that counts is for one of the nicks put in the post, and
every reading is exactly one of counted / rejected / проверить.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from vote_forms import PLAYERS, game_roster, read

from referee.core.morphology import case_forms

ROSTER = game_roster()
WORDS = ["думаю", "сегодня", "он", "мафия", "или", "либо", "не", "за", "потому", "что",
         "врёт", "весь", "день", "и", "а", ",", "/", "—", ":", "!", "?", "отдаю", "точно",
         "молчит", "весь", "вечер", "подозрительно", "голос", "мой"]
PHRASES = ["Мой голос", "мой голос –", "МОЙ ГОЛОС:", "Мoй гoлoс", "мой голос за"]
WRAPS = ["{}", "{}", "[r]{}[/r]", "[r]{}[/r]", "[s]{}[/s]", "[url]{}[/url]",
         "[r][url]{}[/url][/r]", "[s][r]{}[/r][/s]"]


@st.composite
def nick_piece(draw: st.DrawFn) -> tuple[str, str]:
    nick = draw(st.sampled_from(PLAYERS))
    forms = sorted(case_forms(nick))
    form = draw(st.sampled_from([nick, *forms]))
    return nick, form


@st.composite
def posts(draw: st.DrawFn) -> tuple[str, set[str]]:
    named: set[str] = set()
    pieces: list[str] = []
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(["nick", "nick", "word", "words", "phrase"]))
        if kind == "nick":
            nick, text = draw(nick_piece())
            named.add(nick)
        elif kind == "phrase":
            text = draw(st.sampled_from(PHRASES))
        else:
            text = " ".join(draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=4)))
        pieces.append(draw(st.sampled_from(WRAPS)).format(text))
        pieces.append(draw(st.sampled_from([" ", " ", "\n", ", "])))
    reason = draw(st.sampled_from(["", "Весь день уходил от прямых вопросов.\n"]))
    body = reason + "".join(pieces)
    if draw(st.booleans()):
        body = f"[q]{body}[/q]\n" + "".join(pieces[::-1])
    return body, named


@settings(max_examples=300, deadline=None)
@given(posts())
def test_v2_a_reading_never_picks_a_nick_not_named(post: tuple[str, set[str]]) -> None:
    body, named = post
    reading = read(body, ROSTER)
    if reading is None:
        return
    assert reading.verdict in ("counted", "rejected", "check")
    if reading.target is not None:
        assert reading.target in named, (body, reading)
    if reading.verdict == "counted":
        assert reading.target is not None
