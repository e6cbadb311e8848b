"""adapters.charset.in_other_language: the pages whose Russian words an engine may not look
for (the engines' reads-right checks skip them), and the lenient decoding's codec."""

from __future__ import annotations

import pytest

from adapters.charset import decide_lenient, in_other_language


@pytest.mark.parametrize(
    ("head", "other"),
    [
        # the page begins                                                  another language
        ('<html lang="ru">', False),
        ('<html id="XF" lang="ru-RU" dir="LTR">', False),
        ('<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="uk" lang="uk">', False),
        ('<html lang="be">', False),
        ("<html>", False),                                     # says nothing: may be Russian
        ('<html id="XF" lang="en-US" dir="LTR">', True),
        ('<html dir="ltr" lang="de">', True),
        ("<HTML LANG='EN'>", True),
    ],
)
def test_which_pages_declare_another_language(head: str, other: bool) -> None:
    assert in_other_language(head + "<body>Поиск</body></html>") is other


def test_a_page_no_encoding_reads_right_is_read_in_its_first_candidate() -> None:
    # A byte UTF-8 has no use for, and a check that no reading passes.
    content = "<p>Ёжик</p>".encode() + b"\xff"
    text, codec = decide_lenient(content, "text/html; charset=utf-8",
                                 reads_right=lambda text: False)
    assert codec == "utf-8" and text == "<p>Ёжик</p>\ufffd"
