"""MyBB.ru's rendered posts read by the shared vote reader as phpBB's are: quotes are other
people's words, a spoiler is the author's own, a code box is no vote, colour as rendered."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from adapters.mybbru.body import normalise_body
from referee.config.game import VoteRules
from referee.core.kernel import Post
from referee.core.markup import QUOTE_MARK
from referee.core.nicks import Roster
from referee.rules.day.reading import find_vote

ROSTER = Roster(["Лиса", "Шерлок", "Kotik", "Nika-77"])
REASON = "<br />Весь день уходит от ответов и путается в показаниях."


def read(message: str, rules: VoteRules | None = None) -> tuple[str | None, bool]:
    """(the red nick read as a vote, whether it has a reason) of a rendered message."""
    html, text = normalise_body(message)
    post = Post(1, "Гроза", 15, datetime(2026, 11, 21, 12, tzinfo=UTC), html, text)
    reading = find_vote(post, ROSTER, rules)
    return (reading.target, reading.has_reason) if reading is not None else (None, False)


def quote(author: str, inner: str) -> str:
    return (f'<div class="quote-box quote-main"><cite>{author} написал(а):</cite>'
            f"<blockquote>{inner}</blockquote></div>")


@pytest.mark.parametrize("colour", ["red", "#FF0000", "#ff0000", "darkred", "rgb(230, 0, 0)"])
def test_punbb_colour_spans_are_read_as_red(colour: str) -> None:
    assert read(f'<p>Мой голос – <span style="color: {colour}">Лиса</span>{REASON}</p>') == (
        "Лиса", True)


def test_spacing_and_case_of_the_style_do_not_matter() -> None:
    assert read(f'<p>Мой голос – <span style="COLOR:Red">Лиса</span>{REASON}</p>')[0] == "Лиса"


def test_a_quoted_vote_is_not_the_quoters_vote() -> None:
    message = quote("Nika-77", '<p>Мой голос – <span style="color: red">Лиса</span></p>') \
        + "<p>Серьёзно? Я задала вопрос, а не атаковала.</p>"
    html, text = normalise_body(message)
    assert html.startswith("<blockquote><cite>Nika-77 написал(а):</cite><p>")
    assert text.split("\n")[0] == QUOTE_MARK + "Nika-77 написал(а):"
    assert read(message) == (None, False)


def test_a_vote_after_a_quote_counts_and_the_quote_gives_no_reason() -> None:
    message = quote("Шерлок", "<p>Очень длинная цитата чужого аргумента про Лису.</p>") \
        + '<p>Мой голос – <span style="color: red">Лиса</span></p>'
    assert read(message) == ("Лиса", False)


def test_nested_quotes_stay_quoted() -> None:
    inner = quote("Лиса", '<p>Мой голос – <span style="color: red">Kotik</span></p>')
    html, text = normalise_body(quote("Шерлок", inner + "<p>ответ</p>") + "<p>своё</p>")
    assert html.count("<blockquote>") == 2 and "quote-box" not in html
    assert text.split("\n")[-1] == "своё"
    assert all(line.startswith(QUOTE_MARK) for line in text.split("\n")[:-1])


def test_a_vote_in_a_spoiler_counts() -> None:
    message = ('<div class="quote-box spoiler-box"><div onclick="$(this).toggleClass(\'v\')">'
               'Спойлер</div><blockquote><p>Мой голос – <span style="color: red">Kotik</span>'
               f"{REASON}</p></blockquote></div>")
    html, text = normalise_body(message)
    assert "Спойлер" not in text and "<blockquote>" not in html
    assert read(message) == ("Kotik", True)


def test_hidden_text_is_the_authors_own() -> None:
    message = ('<div class="quote-box hide-box"><cite>Скрытый текст:</cite><blockquote><p>'
               f'Мой голос – <span style="color: red">Лиса</span>{REASON}</p></blockquote></div>')
    assert read(message) == ("Лиса", True)


def test_a_code_box_is_text_but_no_vote() -> None:
    message = ('<div class="code-box"><strong class="legend">Код:</strong><div class="blockcode">'
               '<div class="scrollbox"><pre>Мой голос – Лиса</pre></div></div></div>')
    html, text = normalise_body(message)
    assert html == '<div class="codebox"><code>Мой голос – Лиса</code></div>'
    assert text == "Мой голос – Лиса" and read(message)[0] is None


def test_the_vote_colour_setting_reads_blue_votes_on_a_blue_board() -> None:
    blue = f'<p>Мой голос – <span style="color: blue">Лиса</span>{REASON}</p>'
    assert read(blue)[0] is None
    assert read(blue, VoteRules(red_colours=("blue",)))[0] == "Лиса"


def test_signature_and_edit_line_are_chrome() -> None:
    html, text = normalise_body('<p>Текст</p><p class="lastedit">Отредактировано Гроза '
                                '(Сегодня 12:00)</p><div class="post-sig">подпись</div>')
    assert text == "Текст" and "lastedit" not in html


def test_a_spoiler_without_its_own_blockquote_keeps_its_content() -> None:
    # A box whose content is not a blockquote of its own (another template, a mod): only the
    # clickable header goes; a quote inside stays someone else's words.
    message = ('<div class="quote-box spoiler-box"><div onclick="toggle(this)">Спойлер</div>'
               '<div class="spoiler-content"><div class="quote-box quote-main"><cite>Лиса '
               'написал(а):</cite><blockquote><p>Мой голос – <span style="color: red">Kotik'
               f'</span></p></blockquote></div><p>Мой голос – <span style="color: red">Лиса'
               f"</span>{REASON}</p></div></div>")
    html, text = normalise_body(message)
    assert "Спойлер" not in text and "<blockquote><cite>Лиса написал(а):</cite>" in html
    assert read(message) == ("Лиса", True)
