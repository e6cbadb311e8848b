"""Issue 26 — bounded input: no answer of the forum grows memory without bound.

The decoded size of every answer is capped (``[forum] max_answer_mib``, 20 by default); a
gzip or deflate answer is inflated piece by piece and the reading stops at the cap — a
compressed bomb never unfolds in memory — with a Russian error naming the request. An
answer within the cap reads as before, compressed or not.
"""

from __future__ import annotations

import gzip
import tracemalloc
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from support.server import QuietHandler
from support.server import serving as board_server

from adapters.http_client import HttpClient
from referee.config.game import load_config
from referee.core.errors import ConfigError, NetworkError

MIB = 1 << 20
PAGE = "<html><body>Мой голос — Лиса, потому что она молчит</body></html>".encode()


def deflated(data: bytes, *, raw: bool = False) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS if raw else zlib.MAX_WBITS)
    return packer.compress(data) + packer.flush()


ANSWERS: dict[str, tuple[str | None, bytes]] = {
    "/page": (None, PAGE),
    "/gzip": ("gzip", gzip.compress(PAGE)),
    "/deflate": ("deflate", deflated(PAGE)),
    "/raw-deflate": ("deflate", deflated(PAGE, raw=True)),
    "/gzip-bomb": ("gzip", gzip.compress(b"\0" * (64 * MIB), 9)),       # ~64 KiB sent
    "/deflate-bomb": ("deflate", deflated(b"\0" * (64 * MIB))),
    "/huge": (None, b"<html>" + b"x" * (3 * MIB)),
}


@contextmanager
def serving() -> Iterator[str]:
    class Handler(QuietHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            coding, body = ANSWERS[self.path]
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            if coding:
                self.send_header("Content-Encoding", coding)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            try:
                self.wfile.write(body)
            except ConnectionError:
                pass  # the client stopped reading at its cap

        def handle(self) -> None:
            try:
                super().handle()
            except ConnectionError:
                pass  # the client stopped reading at its cap

    with board_server(Handler) as origin:
        yield origin


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    with serving() as url:
        yield url


@pytest.mark.parametrize("path", ["/page", "/gzip", "/deflate", "/raw-deflate"])
def test_an_answer_within_the_cap_reads_whole(site: str, path: str) -> None:
    with HttpClient(site + "/", rate_limit=None, retries=0, max_answer=MIB) as client:
        assert client.get(site + path).content == PAGE


@pytest.mark.parametrize("path", ["/gzip-bomb", "/deflate-bomb", "/huge"])
def test_an_answer_over_the_cap_stops_at_it_naming_the_request(site: str, path: str) -> None:
    tracemalloc.start()
    try:
        with HttpClient(site + "/", rate_limit=None, retries=2, max_answer=MIB) as client:
            with pytest.raises(NetworkError) as caught:
                client.get(site + path)
            assert client.requests == 1                  # not asked for again
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert f"запрос: {site}{path}" in caught.value.message
    assert "больше 1 МиБ" in caught.value.message
    assert "max_answer_mib" in (caught.value.hint or "")
    assert peak < 8 * MIB                                # the bomb never unfolded


def test_max_answer_mib_is_a_forum_setting(tmp_path: Path) -> None:
    def config(extra: str) -> Path:
        path = tmp_path / "referee.toml"
        path.write_text(f'[game]\nhost = "Ведущий"\n[forum]\nurl = "https://f.ru/viewtopic.php'
                        f'?t=1"\ntimezone = "UTC"\n{extra}\n[players]\n"Лиса" = "citizen"\n',
                        encoding="utf-8")
        return path

    assert load_config(config("")).forum.board.max_answer_mib == 20
    forum = load_config(config("max_answer_mib = 5")).forum
    assert forum.settings().max_answer_mib == 5
    with pytest.raises(ConfigError, match="max_answer_mib"):
        load_config(config("max_answer_mib = 0"))
