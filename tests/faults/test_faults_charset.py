"""Issue 14 — a page's encoding told wrong: the stored text of a post is never a wrong
decoding.

The bytes' own ``<meta charset>`` is the declaration, the HTTP header a hint; when they
disagree, the encoding under which the page decodes strictly and reads as phpBB markup in
the board's language wins. A page that reads right under none is asked for again, then the
page is read with «�» for the bytes no encoding explains, when they are few (issue 26),
and the host is told to check it; a page mostly undecodable is never stored.
"""

from __future__ import annotations

import pytest
from fault_helpers import (
    Runner,
    assert_db_is_the_truth,
    integrity,
    stored_pms,
    stored_posts,
    true_posts,
)
from support.phpbb import board as board_server
from support.phpbb.board import BAD_BYTES, Board, make_pms, make_posts

from adapters.charset import Undecodable, decide
from adapters.phpbb.page import reads_as_phpbb

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


def spoil_one_text(body: bytes) -> bytes:
    """Four bytes no encoding explains inside one post's (or the PM's) own text."""
    at = max(body.find("подозреваю".encode()), body.find("проверяю".encode()))
    return body[:at] + b"\xff\x98\xff\x98" + body[at:]


@pytest.mark.parametrize("request_key, named", [("topic:3", "страницу 3 темы t=3"),
                                                ("pm:101", "личное сообщение 101")])
def test_a_few_bytes_no_encoding_explains_are_stored_as_replacement_and_flagged(
    board: Board, run: Runner, request_key: str, named: str,
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Issue 26 (was issue 14's stop): four bad bytes in one post stopped every later sync
    # at that page — later pages and all night PMs were never read again. Now the page is
    # read with «�» for the bytes, the host is told which, and the sync goes on.
    board.header_charset = "windows-1251"
    board.inject(request_key, *[BAD_BYTES] * TRIES)
    monkeypatch.setattr(board_server, "_spoil", spoil_one_text)
    with caplog.at_level("WARNING", "referee.notice"):
        run.all()
    assert integrity(run.db) == "ok"
    told = [r.getMessage() for r in caplog.records if "«�»" in r.getMessage()]
    assert len(told) == 1 and named in told[0] and "ведущему проверить" in told[0]
    posts, truth = stored_posts(run.db), true_posts(board)
    assert len(posts) == len(truth)                  # the rest of the page, later pages
    damaged = [p for p in posts if "\ufffd" in p[4]] + [
        m for m in stored_pms(run.db) if "\ufffd" in m[5]]
    assert len(damaged) == 1                         # only the spoilt post (or PM)
    assert len(stored_pms(run.db)) == len(board.pms)  # every PM still read


def test_a_page_mostly_undecodable_is_still_refused(board: Board, run: Runner) -> None:
    from adapters.charset import salvage

    page = PAGE.format(meta="utf-8").encode("utf-8")
    assert salvage(page.replace(b"<div", b"\xff\x98<div"), "text/html; charset=windows-1251",
                   reads_right=reads_as_phpbb) is not None
    assert salvage(page.replace("о".encode(), b"\xff"), "text/html",
                   reads_right=reads_as_phpbb) is None  # too many bytes lost: never guessed


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


def test_the_count_names_the_post_read_with_replacement_characters(
        board: Board, run: Runner, monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:  # noqa: ANN001
    from fault_helpers import referee, write_config

    board.header_charset = "windows-1251"
    board.inject("topic:3", *[BAD_BYTES] * TRIES)
    monkeypatch.setattr(board_server, "_spoil", spoil_one_text)
    run.all()
    shown = referee(write_config(board, tmp_path), "--now", "2026-11-21 23:00", "tally",
                    "--offline", db=run.db)
    assert shown.returncode == 0, shown.stderr
    assert "сообщение #1010 (Kotik) прочитано с испорченными байтами" in shown.stdout
    assert "ведущему проверить его на форуме" in shown.stdout
