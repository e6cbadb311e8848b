"""V1 — «мой голос – ник жертвы»: what may stand between the phrase and the red nick.

| post (the red nick in [r]…[/r])                        | reading                    |
|--------------------------------------------------------|----------------------------|
| Мой голос – [r]Шерлок[/r]                              | Шерлок                     |
| Мой голос за [r]Шерлок[/r]                             | Шерлок                     |
| Мой голос в этот раз – [r]Шерлок[/r]                   | Шерлок, flagged            |
| Мой голос сегодня: [r]Шерлок[/r]                       | Шерлок, flagged            |
| Мой голос отдаю за [r]Шерлок[/r]                       | Шерлок, flagged            |
| Мой голос пока при мне, но [r]Шерлок[/r] странный      | rejected V1 (not set off)  |
| Мой голос не за [r]Шерлок[/r]                          | rejected V1 (negation)     |
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from referee.core.kernel import Post
from referee.core.markup import plain_text
from referee.core.nicks import Roster
from referee.rules.day.reading import find_vote

REASON = "Он весь день уходил от прямых вопросов и путал показания.<br>"


def read(line: str) -> tuple[str | None, list[str], list[str]]:
    html = REASON + line.replace("[r]", '<span style="color:red">').replace("[/r]", "</span>")
    post = Post(1, "Лиса", 1, datetime(2026, 11, 21, tzinfo=UTC), html, plain_text(html))
    reading = find_vote(post, Roster(["Шерлок", "Лиса"]))
    assert reading is not None
    return (reading.target if reading.valid else None,
            [n.rule for n in reading.problems], [n.rule for n in reading.flags])


@pytest.mark.parametrize(
    ("line", "counted", "flagged"),
    [
        ("Мой голос – [r]Шерлок[/r]", True, False),
        ("Мой голос за [r]Шерлок[/r]", True, False),
        ("Мой голос в этот раз – [r]Шерлок[/r]", True, True),
        ("Мой голос сегодня: [r]Шерлок[/r]", True, True),
        ("Мой голос отдаю за [r]Шерлок[/r]", True, True),
        ("Мой голос пока при мне, но [r]Шерлок[/r] странный", False, False),
        ("Мой голос не за [r]Шерлок[/r]", False, False),
    ],
)
def test_v1_words_between_the_phrase_and_the_nick(line: str, counted: bool,
                                                  flagged: bool) -> None:
    target, problems, flags = read(line)
    if counted:
        assert target == "Шерлок" and problems == []
        assert ("V1" in flags) == flagged
    else:
        assert target is None and problems == ["V1"]
