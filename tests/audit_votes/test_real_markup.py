"""Audit of vote reading on real forum markup (docs/rules.md V1–V3, V5, V6).

Each table row is a post as a board really renders it (saved excerpts of live boards in
``data/``, each with its origin) with our vote words put into it, and the reading a game
host would agree with: the nick the vote counts for, or «не голос» (no vote at all), or the
rule that rejects it. Hypothesis then generates posts over every combination of phrase,
dash, colour form, wrapper, position, container and reason, through ``find_vote`` and the
day tally; the last part checks the tally's JSON and that BBCode output escapes any nick.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
from audit_markup import (
    DAY,
    DIALECTS,
    HOST,
    PLAYERS,
    REASON,
    Dialect,
    abbc3_spoiler,
    post,
    quotebox_spoiler,
    real,
    roster,
    simple_spoiler,
)
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st

from adapters.phpbb.page import decode_page
from adapters.phpbb.topic import parse_topic_page
from referee.core.bbcode import escape
from referee.core.nicks import Roster, normalise
from referee.render.tally import render_json, render_parts
from referee.rules.day.count import tally
from referee.rules.day.reading import VoteReading, _separated, find_vote
from referee.rules.decisions import VoteDecision

NOT_A_VOTE = "не голос"


@dataclass(frozen=True)
class Rejected:
    """A vote-like post that does not count, and the rule that says so."""

    rule: str
    text: str


Expected = str | Rejected  # a roster nick, NOT_A_VOTE or a rejection


def check(reading: VoteReading | None, expected: Expected) -> None:
    if expected == NOT_A_VOTE:
        assert reading is None, f"read as a vote: {reading}"
        return
    assert reading is not None, "no vote found"
    problems = [str(p) for p in reading.problems]
    if isinstance(expected, Rejected):
        assert any(p.startswith(f"{expected.rule}: ") and expected.text in p
                   for p in problems), problems
        return
    assert reading.target == expected, (reading.typed, reading.match_kind, problems)
    assert reading.valid, problems


def red(value: str, text: str, space: bool = True) -> str:
    sep = ": " if space else ":"
    return f'<span style="color{sep}{value}">{text}</span>'


# ============================================================================ real excerpts

A346090 = "anime-ultime_phpbb30_post346090.html"
SPOILER_SIG = "anime-ultime_phpbb30_spoiler_signature.html"
FUNGI = "fungi-pl_phpbb33_signature.html"
NESTED = "autorevue-cz_phpbb30_post3384115.html"
NEWLINES = "autorevue-cz_phpbb30_post3384260.html"
UNCITED = "ao-universe_phpbb33_post28948.html"
YUI = '<img src="http://fc00.deviantart.net/yui.gif" alt="Image" />'
QUOTED_30 = ("tajny vypinac je najlecnejsia zalezitost a ak je dobre spraveny, tak snad aj "
             "najucinejsia")
VOTE_LISA = f"Мой голос – {red('#FF0000', 'Лиса')}"

# (saved page, [(real text, our text), …], reading)
REAL_ROWS = [
    # legacy colour with a space, #FF0040 (hue 345°), running over <br /> lines, inside bold
    (A346090, [("ADN<br />", "Мой голос:<br />"), ("- Baby Steps 2", "Тень_Ночи")],
     "Тень_Ночи"),
    # the same list coloured #0040FF: blue is no vote colour
    (A346090, [("- Ameiro Cocoa", "Мой голос – Kotik")], Rejected("V1", "нет красного ника")),
    # split colour spans: green blocks, then the red part is the nick
    (SPOILER_SIG, [("Sidonia no Kishi 2 ", "Мой голос – "), ('#FF0000">███', '#FF0000">Лиса')],
     "Лиса"),
    # a board's custom [spoiler] on subsilver2's quote box: the author's own words, it counts
    (SPOILER_SIG, [(YUI, f"Мой голос – {red('#FF0000', 'Kotik')}")], "Kotik"),
    # s9e colour without a space, #800000 («бордовый», hue 0°), inside <em class=text-italics>
    (FUNGI, [("<br><br><br><em", "<br><br><br>Мой голос – <em"),
             ("Człowiek jest wielki, nie przez to co ma, lecz przez to kim jest, nie przez to co "
              "posiada, lecz przez to czym dzieli się z innymi.", "Шерлок")], "Шерлок"),
    # a vote two quotes deep, and one quote deep: someone else's words
    (NESTED, [(QUOTED_30, VOTE_LISA)], NOT_A_VOTE),
    (NESTED, [("co to je ten tajny vypinac?", VOTE_LISA)], NOT_A_VOTE),
    # the same vote in the post's own text after the quotes
    (NESTED, [("skus potrapit strycka google", VOTE_LISA)], "Лиса"),
    # legacy "\n<br />": the phrase ends its line, a blank line, the red nick alone
    (NEWLINES, [("parkuje klasicky pred panelakem...", "Мой голос –"),
                ("Mno ja bych si taky skodovku kvuli tomuhle nekoupil..",
                 red("red", "Kotik"))], "Kotik"),
    # a quote without a cite
    (UNCITED, [("If you check the Downloads link in the navigation bar (on the left) then "
                "select Maps, they are in there.", VOTE_LISA)], NOT_A_VOTE),
]


@pytest.mark.parametrize(("page", "swaps", "expected"), REAL_ROWS,
                         ids=[f"{r[0].split('_')[0]}-{i}" for i, r in enumerate(REAL_ROWS)])
def test_v1_votes_in_real_board_markup(page: str, swaps: list[tuple[str, str]],
                                       expected: Expected) -> None:
    body = real(page)
    for old, new in swaps:
        assert old in body, f"{old!r} is not in {page}"
        body = body.replace(old, new, 1)
    check(find_vote(post(body), roster()), expected)


def test_real_excerpts_alone_are_not_votes() -> None:
    """The saved posts themselves (red text, quotes, no «мой голос») hold no vote."""
    for page in (A346090, SPOILER_SIG, FUNGI, NESTED, NEWLINES, UNCITED):
        assert find_vote(post(real(page)), roster()) is None, page


# ============================================================================ subsilver2

MOSCOW = ZoneInfo("Europe/Moscow")


def test_v1_subsilver2_quotes_on_the_rendered_30_page() -> None:
    """fixtures/subsilver2/topic_page2.html through the real-page parser: Лиса quotes
    Kotik's vote for her and votes for Kotik; Полковник quotes a quote of a vote and does
    not vote. subsilver2 quotes are div.quotecontent, not blockquote."""
    page_html = decode_page(
        (Path(__file__).resolve().parents[2] / "fixtures/subsilver2/topic_page2.html")
        .read_bytes(), "text/html; charset=UTF-8")
    page = parse_topic_page(page_html, url="http://mafia.example/viewtopic.php?f=2&t=78",
                            tz=MOSCOW, now=datetime(2026, 11, 22, 15, 0, tzinfo=MOSCOW))
    r = Roster(roster().nicks + ("Полковник",))
    readings = {p.post_id: find_vote(p, r) for p in page.posts}
    assert readings[3013] is not None and readings[3013].target == "Kotik"
    assert readings[3018] is None
    assert readings[3012] is not None and readings[3012].target == "Лиса"


@pytest.mark.parametrize("dialect", DIALECTS, ids=lambda d: d.name)
def test_v1_quote_and_code_boxes_of_every_style(dialect: Dialect) -> None:
    """A quoted vote and a vote in [code] are not votes, in every phpBB style; the author's
    own vote after them is read."""
    theirs = f"Мой голос – {dialect.colour('#FF0000', 'Лиса')}"
    own = f"{REASON}{dialect.br}Мой голос – {dialect.colour('red', 'Kotik')}"
    cases = [
        (dialect.quote(theirs, "Шерлок") + "Согласна с Шерлоком полностью.", NOT_A_VOTE),
        (dialect.quote(theirs, None) + "Согласна с этим полностью.", NOT_A_VOTE),
        (dialect.quote(dialect.quote(theirs, "Лиса") + "Да.", "Шерлок") + "Ну-ну.", NOT_A_VOTE),
        (dialect.code("Мой голос – [color=red]Лиса[/color]") + REASON, NOT_A_VOTE),
        (dialect.quote(theirs, "Шерлок") + own, "Kotik"),
        (dialect.code("Мой голос – [color=red]Лиса[/color]") + own, "Kotik"),
    ]
    for body, expected in cases:
        check(find_vote(post(body), roster()), expected)


# ============================================================================ spoilers

SPOILERS = [simple_spoiler, abbc3_spoiler, quotebox_spoiler]


@pytest.mark.parametrize("spoiler", SPOILERS, ids=lambda f: f.__name__)
def test_v1_vote_inside_a_spoiler_counts(spoiler) -> None:  # type: ignore[no-untyped-def]
    """Decision: a spoiler is the author's own text (V1 excludes quotes only), so a vote
    hidden under a spoiler counts as the host sees it after one click; a quote inside the
    spoiler is still someone else's words."""
    vote = f"Мой голос – {red('red', 'Nika-77', space=False)}"
    check(find_vote(post(REASON + spoiler(vote)), roster()), "Nika-77")
    quoted = DIALECTS[0].quote(vote, "Лиса")
    check(find_vote(post(REASON + spoiler(quoted)), roster()), NOT_A_VOTE)


# ============================================================================ the phrase form

R = REASON
NEXT_TO = "не рядом с «мой голос»"

# Decision (V1, «мой голос – ник жертвы»): «мой голос» in any case, any dash, colon or none,
# and the red nick right next to it — or with «за» / «против» between («мой голос за
# Шерлока»: for hanging him, as «голосую против» is). Other words between them make a
# near-vote the host sees as rejected under V1 (and may accept), not a counted vote.
PHRASE_ROWS = [
    (f"{R}<br>МОЙ ГОЛОС – {red('red', 'Шерлок')}", "Шерлок"),
    (f"{R}<br>Мой голос: {red('red', 'Шерлок')}", "Шерлок"),
    (f"{R}<br>мой голос - {red('red', 'Шерлок')}", "Шерлок"),
    (f"{R}<br>Мой голос — {red('red', 'Шерлок')}", "Шерлок"),
    (f"{R}<br>Мой голос {red('red', 'Шерлок')}", "Шерлок"),
    (f"{R}<br>Мой голос -&gt; {red('red', 'Шерлок')}", "Шерлок"),
    (f"{R}<br>Мой голос – «{red('red', 'Шерлок')}»", "Шерлок"),
    (f"{R}<br>Мой голос за {red('red', 'Шерлок')}", "Шерлок"),
    (f"{R}<br>Мой голос против {red('red', 'Шерлок')}", "Шерлок"),
    (f"{R}<br>Мой голос за:<br>{red('red', 'Шерлок')}", "Шерлок"),
    (f"{R}<br>{red('red', 'Шерлок')} — мой голос", "Шерлок"),
    (f"{R}<br>Мой&nbsp;голос&nbsp;—&nbsp;{red('#cc0000', 'Шерлок')}", "Шерлок"),
    # other words between the phrase and the red nick: not a vote of the V1 form
    (f"Мой голос пока при мне, но {red('red', 'Шерлок')} мне не нравится, молчит весь день.",
     Rejected("V1", NEXT_TO)),
    (f"{R}<br>Мой голос сегодня уходит к {red('red', 'Шерлок')}", Rejected("V1", NEXT_TO)),
    (f"{R}<br>{red('red', 'Шерлок')} подозрителен, но мой голос пока при мне.",
     Rejected("V1", NEXT_TO)),
    (f"Мой голос:<br>думаю, что это {red('red', 'Шерлок')}, весь день молчит.",
     Rejected("V1", NEXT_TO)),
    # a line ending «мой голос?» or «мой голос.» is a sentence, not a vote line
    (f"Где мой голос?<br>{red('red', 'Шерлок')} — мафия, весь день молчит.",
     Rejected("V1", "нет красного ника")),
    (f"Это мой голос.<br>{red('red', 'Шерлок')} его подделал, весь день молчит.",
     Rejected("V1", "нет красного ника")),
    (f"{R}<br>Мой голос -&gt;<br>{red('red', 'Шерлок')}", "Шерлок"),
    # a vote of the right form wins over a loose red nick elsewhere in the post
    (f"Мой голос пока при мне, но {red('red', 'Лиса')} странная.<br>"
     f"Передумал. Мой голос – {red('red', 'Шерлок')}", "Шерлок"),
    (f"{R}<br>{red('red', 'Шерлок')} — мой голос, а {red('red', 'Лиса')} завтра.", "Шерлок"),
]


@pytest.mark.parametrize(("body", "expected"), PHRASE_ROWS,
                         ids=[f"row{i}" for i in range(len(PHRASE_ROWS))])
def test_v1_phrase_form_and_nick_next_to_it(body: str, expected: Expected) -> None:
    check(find_vote(post(body), roster()), expected)


def test_v1_loose_red_nick_is_shown_with_its_nick_for_the_host() -> None:
    """A loose reading keeps the nick, so ``accept`` counts it for that player, and cuts
    only the phrase and the nick for V3."""
    reading = find_vote(post(f"Мой голос сегодня уходит к {red('red', 'Шерлок')}, он "
                             "весь день молчит."), roster())
    assert reading is not None and reading.target == "Шерлок"
    assert [p.rule for p in reading.problems] == ["V1"]
    assert "«сегодня уходит к»" in str(reading.problems[0])


def test_v1_loose_vote_in_the_tally_is_rejected_until_the_host_accepts_it() -> None:
    posts = [
        post(f"Мой голос сегодня уходит к {red('red', 'Шерлок')}, он весь день молчит.",
             author="Лиса", post_id=2, minute=1),
        post(f"{R}<br>Мой голос – {red('red', 'Лиса')}", author="Kotik", post_id=3, minute=2),
    ]
    t = tally(posts, DAY, alive=PLAYERS, roster=roster(), host=HOST)
    assert [(c.target, c.votes) for c in t.counts] == [("Лиса", 1)]
    assert [(r.post_id, r.rule) for r in t.rejected] == [(2, "V1")]
    t = tally(posts, DAY, alive=PLAYERS, roster=roster(), host=HOST,
              overrides=[VoteDecision.parse("accept 2")])
    assert {c.target: c.votes for c in t.counts} == {"Лиса": 1, "Шерлок": 1}


# ============================================================================ invisible text

INVISIBLE_ROWS = [
    # zero-width space inside the phrase (text copied from a chat or from a BBCode summary)
    (f"{R}<br>Мой\u200b голос – {red('red', 'Шерлок')}", "Шерлок"),
    (f"{R}<br>Мой голос\u2060 – {red('red', 'Шерлок')}", "Шерлок"),
    # invisible characters inside the nick: the host reads the nick itself, not a look-alike
    (f"{R}<br>Мой голос – {red('red', 'Шер' + chr(0xAD) + 'лок')}", "Шерлок"),
    (f"{R}<br>Мой голос – {red('red', chr(0xFEFF) + 'Kotik' + chr(0x200D))}", "Kotik"),
]


@pytest.mark.parametrize(("body", "expected"), INVISIBLE_ROWS,
                         ids=[f"row{i}" for i in range(len(INVISIBLE_ROWS))])
def test_v1_v2_invisible_characters_are_not_text(body: str, expected: Expected) -> None:
    reading = find_vote(post(body), roster())
    check(reading, expected)
    assert reading is not None and reading.match_kind == "exact"



# ====================================================================== where the nick starts

NICK_START_ROWS = [
    # the whole vote line red, «за» between the phrase and the nick
    (f"{R}<br>{red('red', 'Мой голос за Шерлок')}", "Шерлок"),
    (f"{R}<br>{red('#FF0000', 'Мой голос против Nika-77')}", "Nika-77"),
    (f"{R}<br>{red('red', 'Мой голос -&gt; Kotik')}", "Kotik"),
    # «за» inside the red text after the phrase
    (f"{R}<br>Мой голос {red('red', 'за Лиса')}", "Лиса"),
    # a nick that begins and ends with signs, the red text right after the dash
    (f"{R}<br>Мой голос – {red('red', '-=Wolf=-')}", "-=Wolf=-"),
    (f"{R}<br>Мой голос -{red('red', '-=Wolf=-')}", "-=Wolf=-"),
]


@pytest.mark.parametrize(("body", "expected"), NICK_START_ROWS,
                         ids=[f"row{i}" for i in range(len(NICK_START_ROWS))])
def test_v1_v2_where_the_red_nick_starts(body: str, expected: Expected) -> None:
    r = Roster((*roster().nicks, "-=Wolf=-"))
    check(find_vote(post(body), r), expected)


@pytest.mark.parametrize("spoiler", SPOILERS, ids=lambda f: f.__name__)
def test_v3_spoiler_headers_are_no_reason(spoiler) -> None:  # type: ignore[no-untyped-def]
    """«Спойлер», «Показать», «Spoiler: Voir» are printed by the board's template, not
    typed by the player: a vote whose only other words are a spoiler header has no reason;
    the words inside the spoiler are the player's and count."""
    vote = f"Мой голос – {red('red', 'Kotik', space=False)}"
    check(find_vote(post(spoiler(vote)), roster()), Rejected("V3", "без аргумента"))
    check(find_vote(post(vote + spoiler("ага")), roster()), Rejected("V3", "без аргумента"))
    check(find_vote(post(vote + spoiler(REASON)), roster()), "Kotik")


# ====================================================================== markup around the nick

S9E, OLD = DIALECTS[0], DIALECTS[1]
SMILEY = S9E.smiley()
LINK = '<a href="./memberlist.php?mode=viewprofile&amp;u=7" class="postlink">Шерлок</a>'
NO_RED = Rejected("V1", "нет красного ника")

MARKUP_ROWS = [
    (f"{R}<br>Мой голос – {red('red', 'Шерлок ' + SMILEY, space=False)}", "Шерлок"),
    (f"{R}<br>Мой голос – {SMILEY} {red('red', 'Шерлок', space=False)}", "Шерлок"),
    (f"{R}<br>Мой голос – {red('red', S9E.size(S9E.bold('Шерлок')), space=False)}", "Шерлок"),
    (f"{R}<br />Мой голос – {OLD.bold(OLD.underline(red('#FF0000', 'Шерлок')))}", "Шерлок"),
    (f"{R}<br>Мой голос – {S9E.italic(red('#c00', 'Шер') + red('red', 'лок'))}", "Шерлок"),
    (f"{R}<br>Мой голос – {red('red', 'Тень')}{red('#FF0000', '_Ночи')}", "Тень_Ночи"),
    (f"{R}<br>Мой голос –{red('red', '<br>Шерлок', space=False)}", "Шерлок"),
    (f"{R}<br>Мой голос – {red('red', 'Шерлок<br>', space=False)}он молчит", "Шерлок"),
    (f"{R}<br>Мой голос – <a href=\"#p5\">{red('red', 'Шерлок')}</a>", "Шерлок"),
    (f"{R}<br>Мой голос – {red('rgb(255, 0, 0)', 'Шерлок')}", "Шерлок"),
    (f'{R}<br>Мой голос – <font color="#FF0000">Шерлок</font>', "Шерлок"),
    # prosilver paints a link in its own colour, yet the player typed the nick red: a [url]
    # inside [color=red] is read, flagged for the host (docs/rules.md V2)
    (f"{R}<br>Мой голос – {red('red', LINK, space=False)}", "Шерлок"),
    # ABBC3 effects: [highlight=red] colours the background, [glow=red] leaves the text
    # white, [blur=red] makes it transparent; [shadow=red] colours the text itself
    (f'{R}<br>Мой голос – <span style="background-color: red;">Шерлок</span>', NO_RED),
    (f'{R}<br>Мой голос – <span class="glow" style="display: inline; padding: 0 6px; '
     'color: #ffffff; text-shadow: 0 0 1em red, 0 0 1em red, 0 0 1.2em red;">Шерлок</span>',
     NO_RED),
    (f'{R}<br>Мой голос – <span class="blur" style="display: inline; padding: 0 6px; '
     'color: transparent; text-shadow: 0 0 0.2em red;">Шерлок</span>', NO_RED),
    (f'{R}<br>Мой голос – <span class="shadow" style="display: inline; padding: 0 6px; '
     'color: red; text-shadow: -2px 2px 2px #999;">Шерлок</span>', "Шерлок"),
    # V1 names by the list, other colours by hue (docs/rules.md V1): «maroon» and «brown» are not
    # in the default list although #800000 and #A52A2A pass the hue test
    (f"{R}<br>Мой голос – {red('maroon', 'Шерлок')}", NO_RED),
    (f"{R}<br>Мой голос – {red('#800000', 'Шерлок')}", "Шерлок"),
    (f"{R}<br>Мой голос – {red('#FF8080', 'Шерлок')}", NO_RED),  # pink: saturation 0.498
]


@pytest.mark.parametrize(("body", "expected"), MARKUP_ROWS,
                         ids=[f"row{i}" for i in range(len(MARKUP_ROWS))])
def test_v1_markup_around_the_red_nick(body: str, expected: Expected) -> None:
    check(find_vote(post(body), roster()), expected)


# ============================================================================ generated posts

PHRASES = ["Мой голос", "МОЙ ГОЛОС", "мой голос", "мой Голос", "Мой  голос", "Мой&nbsp;голос",
           "Мой голос"]
SEPARATORS = [" – ", " — ", " - ", "-", ": ", ":", " : ", " − ", " ", "&nbsp;–&nbsp;",
              " -&gt; ", " за ", " против ", " за: "]
BEFORE_SEPARATORS = [" – ", " — ", " - ", ": ", " "]
# (how it is written, a colour the rules call red) — names from the list, hex with 3 or 6
# digits in any case, rgb(); values seen on real boards and in editors' palettes.
REDS = ["red", "Red", "RED", "darkred", "crimson", "firebrick", "#f00", "#F00", "#c00",
        "#FF0000", "#ff0000", "#CC0000", "#AA0000", "#BF0000", "#800000", "#FF0040",
        "#e74c3c", "#c0392b", "rgb(255,0,0)", "rgb(204, 0, 0)", "rgb(184,49,47)"]
NOT_REDS = ["blue", "green", "#0000FF", "#008000", "#0040FF", "orange", "#FF8C00", "brown",
            "maroon", "purple", "black"]


def colour_form(form: str, value: str, inner: str, dialect: Dialect) -> str:
    if form == "bbcode":
        return dialect.colour(value, inner)
    if form == "semicolon":
        return f'<span style="color: {value};">{inner}</span>'
    if form == "upper":
        return f'<span style="COLOR:{value}">{inner}</span>'
    return f'<font color="{value}">{inner}</font>'  # vBulletin/old HTML


WRAPS = ["bold", "italic", "underline", "size"]
FILLERS = [" сегодня", " пока что", " уходит", " 100%", " отдаю"]


@dataclass(frozen=True)
class Vote:
    """One generated vote post and what a host reads in it."""

    dialect: Dialect
    phrase: str
    sep: str
    colour: str
    red: bool
    form: str
    inner: tuple[str, ...]   # wrappers inside the colour, around the nick
    outer: tuple[str, ...]   # wrappers outside the colour
    position: str            # same | next | whole | before
    container: str           # none | quote | uncited | nested | code | spoiler…
    nick: str
    typed: str
    reason: str              # before | after | same | none
    filler: str = ""         # other words between the phrase and the nick

    def wrap(self, names: tuple[str, ...], text: str) -> str:
        for name in names:
            text = getattr(self.dialect, name)(text)
        return text

    def vote_html(self) -> str:
        d = self.dialect
        if self.container == "code":
            return f"{self.phrase}{self.sep}[color={self.colour}]{self.typed}[/color]"
        nick = self.wrap(self.inner, self.typed)
        coloured = colour_form(self.form, self.colour, nick, d)
        if self.position == "same":
            line = self.phrase + self.filler + self.sep + self.wrap(self.outer, coloured)
        elif self.position == "next":
            line = self.phrase + self.sep.rstrip(" ") + d.br + self.wrap(self.outer, coloured)
        elif self.position == "whole":
            line = self.wrap(self.outer, colour_form(
                self.form, self.colour, self.phrase + self.sep + nick, d))
        else:
            line = (self.wrap(self.outer, coloured) + self.sep + self.filler.lstrip()
                    + " " + self.phrase.lower())
        if self.reason == "same":
            line += ", " + REASON[0].lower() + REASON[1:]
        return line

    def body(self) -> str:
        d = self.dialect
        vote = self.vote_html()
        if self.container == "code":
            vote = d.code(vote)
        elif self.container in ("quote", "uncited"):
            vote = d.quote(vote, "Лиса" if self.container == "quote" else None)
        elif self.container == "nested":
            vote = d.quote(d.quote(vote, "Лиса") + "Поддерживаю.", "Kotik")
        elif self.container in SPOILER_FORMS:
            vote = SPOILER_FORMS[self.container](vote)
        reason = REASON + d.br
        if self.reason == "before":
            return reason + vote
        if self.reason == "after":
            return vote + d.br + REASON
        return vote + (d.br + d.smiley() if self.reason == "none" else "")

    def expected(self) -> Expected:
        if self.container in ("quote", "uncited", "nested", "code"):
            return NOT_A_VOTE
        if not self.red:
            return Rejected("V1", "нет красного ника")
        if self.filler:
            # Words between the phrase and the nick: counted (and flagged) only when a
            # dash, colon, «за» or «против» right before the nick sets it off as the
            # target («мой голос сегодня – Шерлок», «мой голос отдаю за Шерлок»); else V1.
            gap = html.unescape(self.filler + self.sep).replace("\xa0", " ")
            if self.position != "same" or not _separated(" ".join(gap.split())):
                return Rejected("V1", NEXT_TO)
        if self.reason == "none":
            return Rejected("V3", "без аргумента")
        return self.nick


SPOILER_FORMS = {"simple_spoiler": simple_spoiler, "abbc3_spoiler": abbc3_spoiler,
                 "quotebox_spoiler": quotebox_spoiler}
CONTAINERS = ["none", "none", "none", "quote", "uncited", "nested", "code", *SPOILER_FORMS]


@st.composite
def votes(draw: st.DrawFn) -> Vote:
    red_colour = draw(st.booleans()) or draw(st.booleans())
    position = draw(st.sampled_from(["same", "next", "whole", "before"]))
    nick = draw(st.sampled_from(PLAYERS))
    typed = draw(st.sampled_from([nick, nick.upper(), nick.lower()]))
    return Vote(
        dialect=draw(st.sampled_from(DIALECTS)),
        phrase=draw(st.sampled_from(PHRASES)),
        sep=draw(st.sampled_from(BEFORE_SEPARATORS if position == "before" else SEPARATORS)),
        colour=draw(st.sampled_from(REDS if red_colour else NOT_REDS)),
        red=red_colour,
        form=draw(st.sampled_from(["bbcode", "bbcode", "semicolon", "upper", "font"])),
        inner=tuple(draw(st.lists(st.sampled_from(WRAPS), max_size=2, unique=True))),
        outer=tuple(draw(st.lists(st.sampled_from(WRAPS), max_size=2, unique=True))),
        position=position,
        container=draw(st.sampled_from(CONTAINERS)),
        nick=nick,
        typed=typed,
        reason=draw(st.sampled_from(["before", "after", "same", "none"])),
        filler=(draw(st.sampled_from(FILLERS)) if position in ("same", "before")
                and draw(st.integers(0, 4)) == 0 else ""),
    )


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(votes())
def test_v1_v3_generated_vote_posts_read_as_a_host_reads_them(vote: Vote) -> None:
    body = vote.body()
    note(body)
    check(find_vote(post(body), roster()), vote.expected())


@settings(max_examples=150, deadline=None)
@given(votes())
def test_v1_v6_generated_vote_posts_in_the_tally(vote: Vote) -> None:
    """The same posts through the day tally: counted for the nick, or rejected with the
    rule, or not looked at; the only vote decides the hanging (V6)."""
    t = tally([post(vote.body(), author="Гроза")], DAY, alive=PLAYERS, roster=roster(),
              host=HOST)
    expected = vote.expected()
    if expected == NOT_A_VOTE:
        assert not t.counts and not t.rejected and t.hanged is None
    elif isinstance(expected, Rejected):
        assert not t.counts and t.hanged is None
        assert [r.rule for r in t.rejected] == [expected.rule]
    else:
        assert [(c.target, c.votes) for c in t.counts] == [(expected, 1)]
        assert t.hanged == expected and not t.rejected


# ============================================================================ the tally's output

TOPIC = "https://forum.example/viewtopic.php?f=2&t=3"
OUR_TAG = re.compile(r"/?b|/url|url=https://forum\.example/viewtopic\.php\?p=\d+#p\d+")


def _day_with(evil: str) -> tuple[list, tuple[str, ...]]:
    """A day where a player named ``evil`` votes, is voted for, ties, has a rejected
    vote and shows in «не проголосовали»."""
    players = (*PLAYERS, evil)
    vote = f"{R}<br>Мой голос – " + red("red", html.escape(evil), space=False)
    back = f"{R}<br>Мой голос – " + red("red", "Гроза", space=False)
    posts = [
        post(vote, author="Гроза", post_id=2, minute=1),
        post(back, author=evil, post_id=3, minute=2),
        post(f"Мой голос – {red('red', html.escape(evil))}", author="Kotik", post_id=4,
             minute=3),                                              # no reason: rejected
        post(f"Мой голос сегодня {red('red', html.escape(evil + '!'))} он молчит весь день",
             author="Лиса", post_id=5, minute=4),                     # loose: rejected
    ]
    return posts, players


def test_tally_json_has_day_hanged_counts_and_rejected() -> None:
    posts, players = _day_with("Тень")
    t = tally(posts, DAY, alive=players, roster=Roster(players), host=HOST)
    doc = json.loads(render_json(t, TOPIC, "Europe/Moscow"))
    assert doc["day"] == 1
    assert doc["hanged"] == "Тень"  # 1:1, Тень reached 1 first (V6)
    assert [(c["target"], c["votes"], [v["voter"] for v in c["voters"]])
            for c in doc["counts"]] == [("Тень", 1, ["Гроза"]), ("Гроза", 1, ["Тень"])]
    assert [(r["post_id"], r["voter"], r["rule"]) for r in doc["rejected"]] == [
        (4, "Kotik", "V3"), (5, "Лиса", "V1")]
    assert all(isinstance(r["reason"], str) and r["reason"] for r in doc["rejected"])
    nobody = json.loads(render_json(tally([], DAY, alive=players, roster=Roster(players),
                                          host=HOST)))
    assert (nobody["hanged"], nobody["counts"], nobody["rejected"]) == (None, [], [])


NICK_CHARS = st.sampled_from(list("[]/=:.url colorbspoiler*Лиса"))


@settings(max_examples=120, deadline=None)
@given(st.text(NICK_CHARS, min_size=1, max_size=24).filter(
    lambda n: n.strip() and any(c.isalpha() for c in n)
    and normalise(n) not in {normalise(p) for p in PLAYERS}))
def test_bbcode_output_escapes_every_user_string(evil: str) -> None:
    """Nicks are user text: in the paste part (and the host part) every «[» that is not
    one of our own tags ([b], [url=<our post link>]) is made inert, whatever the nick."""
    posts, players = _day_with(evil)
    t = tally(posts, DAY, alive=players, roster=Roster(players), host=HOST)
    for part in render_parts(t, "bbcode", TOPIC, "Europe/Moscow"):
        for tag in re.findall(r"\[(?!\u200b)([^\]\[]*)\]", part):
            assert OUR_TAG.fullmatch(tag), (tag, part)
        assert "[url=http" not in part.replace(f"[url={TOPIC.split('?')[0]}", "")


def test_bbcode_output_escapes_a_nick_that_closes_our_tags() -> None:
    evil = "[/color][url=http://x]"
    posts, players = _day_with(evil)
    t = tally(posts, DAY, alive=players, roster=Roster(players), host=HOST)
    assert t.hanged == evil
    paste, host_part = render_parts(t, "bbcode", TOPIC, "Europe/Moscow")
    for part in (paste, host_part):
        assert "[/color]" not in part and "[url=http://x]" not in part
    assert escape(evil) in paste


# phpbb/phpbb prosilver template attachment.html (_file.S_IMAGE), inside div.inline-attachment
# as phpBB 3.3 renders [attachment=0]кот.jpg[/attachment]; RU L_DOWNLOAD_COUNT «Просмотров: %d».
INLINE_IMAGE = ('<div class="inline-attachment"><dl class="file"><dt class="attach-image">'
                '<img src="./download/file.php?id=12" class="postimage" alt="кот.jpg" '
                'onclick="viewableArea(this);" /></dt><dd>кот.jpg (45.2 КБ) Просмотров: 12</dd>'
                "</dl></div>")


def test_v3_an_inline_attachment_is_no_reason() -> None:
    vote = f"Мой голос – {red('red', 'Kotik', space=False)}<br>"
    check(find_vote(post(vote + INLINE_IMAGE), roster()), Rejected("V3", "без аргумента"))
    check(find_vote(post(vote + INLINE_IMAGE + REASON), roster()), "Kotik")
