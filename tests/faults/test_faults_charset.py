"""Issue 14 — a page's encoding told wrong: the stored text of a post is never a wrong
decoding.

The bytes' own ``<meta charset>`` is the declaration, the HTTP header a hint; when they
disagree, the encoding under which the page decodes strictly and reads as phpBB markup in
the board's language wins. A page that reads right under none is asked for again, then the
sync stops with a NetworkError naming the page, having stored nothing of it.
"""

from __future__ import annotations

import pytest
from board_server import BAD_BYTES, Board, make_pms, make_posts
from fault_helpers import Runner, assert_db_is_the_truth, integrity, stored_posts, true_posts

from adapters.charset import Undecodable, decide
from adapters.phpbb.parse import reads_as_phpbb
from referee.errors import NetworkError

TRIES = 3


@pytest.mark.parametrize(
    ("written_in", "header_says"),
    [
        # the pages are       the header claims
        ("utf-8", "windows-1251"),     # a host panel stamping cp1251 on a UTF-8 board
        ("windows-1251", "UTF-8"),     # an old cp1251 board behind a UTF-8 server
        ("windows-1251", "KOI8-R"),
        ("utf-8", "ISO-8859-1"),
        ("windows-1251", "windows-1251"),
    ],
)
def test_a_wrong_header_charset_stores_every_post_and_pm_as_written(
    written_in: str, header_says: str
) -> None:
    board = Board(encoding=written_in, header_charset=header_says)
    with board.running():
        from pathlib import Path
        from tempfile import TemporaryDirectory

        with TemporaryDirectory() as tmp:
            run = Runner(board, Path(tmp) / "game.db")
            run.all()
            assert_db_is_the_truth(run.db, board)
            run.topic(full=True)          # a re-read finds no «edit» either
            assert_db_is_the_truth(run.db, board)


def test_a_page_spoilt_once_is_asked_for_again(board: Board, run: Runner) -> None:
    board.header_charset = "windows-1251"
    board.inject("topic:2", BAD_BYTES)
    board.inject("pm:102", BAD_BYTES)
    run.all()
    assert board.log.count("topic:2!bad_bytes") == 1
    assert_db_is_the_truth(run.db, board)


@pytest.mark.parametrize("request_key, named", [("topic:3", "страницу 3 темы t=3"),
                                                ("pm:101", "личное сообщение 101")])
def test_a_page_that_reads_right_under_no_encoding_stops_the_sync_naming_it(
    board: Board, run: Runner, request_key: str, named: str
) -> None:
    board.header_charset = "windows-1251"
    board.inject(request_key, *[BAD_BYTES] * TRIES)
    with pytest.raises(NetworkError) as caught:
        run.all()
    assert named in caught.value.message
    assert "ничего из неё не сохранено" in (caught.value.hint or "")
    assert integrity(run.db) == "ok"
    if request_key.startswith("topic:"):
        assert stored_posts(run.db) == true_posts(board)[:2 * board.per_page]
    run.all()                                    # the board heals: nothing is lost
    assert_db_is_the_truth(run.db, board)


# --------------------------------------------------------------------------- the decision

PAGE = ('<html dir="ltr" lang="ru"><head><meta charset="{meta}" /></head><body>'
        '<a href="./search.php">Поиск</a><div class="content">Мой голос - Шерлок, '
        'Ёжик и Ира-Ира: "подозреваю"</div></body></html>')


@pytest.mark.parametrize(
    ("written_in", "meta", "header", "chosen"),
    [
        # bytes in     <meta charset>   header charset     read as
        ("utf-8", "utf-8", "windows-1251", "utf-8"),
        ("cp1251", "windows-1251", "utf-8", "cp1251"),
        ("cp1251", "utf-8", "windows-1251", "cp1251"),     # the meta lies, the header not
        ("koi8-r", "koi8-r", "windows-1251", "koi8-r"),
        ("cp1251", "windows-1251", "koi8-r", "cp1251"),
        ("utf-8", "utf-8", None, "utf-8"),
        ("cp1251", "windows-1251", None, "cp1251"),
        ("utf-8", "windows-1251", "windows-1251", "utf-8"),  # both wrong: the bytes tell
    ],
)
def test_which_encoding_a_page_is_read_in(
    written_in: str, meta: str, header: str | None, chosen: str
) -> None:
    page = PAGE.format(meta=meta)
    content = page.encode(written_in)
    text, codec = decide(content, f"text/html; charset={header}" if header else None,
                         reads_right=reads_as_phpbb)
    assert codec == chosen
    assert text == page


def test_a_page_under_no_encoding_is_undecodable() -> None:
    content = PAGE.format(meta="utf-8").encode("utf-8").replace(b"<div", b"\xff\x98<div")
    with pytest.raises(Undecodable):
        decide(content, "text/html; charset=windows-1251", reads_right=reads_as_phpbb)


def test_the_fault_board_has_russian_text_on_every_page() -> None:
    # The cases above mean something only if the board's texts have letters to spoil.
    assert any("Ё" in p.text for p in make_posts(23))
    assert all(any(ord(c) > 127 for c in m.text) for m in make_pms(7))
