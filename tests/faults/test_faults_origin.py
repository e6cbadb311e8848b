"""Issue 26 — cookies by origin: the session cookie goes only to the forum's own scheme,
host (``www.`` or not) and port, as the README promises; a redirect from http to https on
the standard ports is the same forum.

Two servers on 127.0.0.1, on two ports: the forum redirects to the other one. The other
port is another site for cookies (a second web application on the same machine).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from support.server import QuietHandler
from support.server import serving as board_server

from adapters.cookies import same_origin
from adapters.http_client import HttpClient
from referee.core.errors import ForumError


@contextmanager
def serving(answer: dict[str, tuple[int, list[tuple[str, str]]]],
            seen: list[tuple[str, str]]) -> Iterator[str]:
    """A server on 127.0.0.1: ``answer[path]`` is (status, headers); every request's
    (path, Cookie header) goes into ``seen``."""

    class Handler(QuietHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            seen.append((self.path, self.headers.get("Cookie") or ""))
            code, headers = answer.get(self.path, (200, []))
            body = b"<html><body>ok</body></html>"
            self.send_response(code)
            for name, value in headers:
                self.send_header(name, value)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

    with board_server(Handler) as origin:
        yield origin


@pytest.fixture
def other() -> Iterator[tuple[str, list[tuple[str, str]]]]:
    seen: list[tuple[str, str]] = []
    with serving({"/x": (302, [("Set-Cookie", "tracker=other-port; path=/"),
                               ("Location", "/y")])}, seen) as url:
        yield url, seen


def forum_redirecting_to(url: str, seen: list[tuple[str, str]]):  # noqa: ANN201
    return serving({"/viewtopic.php": (302, [("Location", url + "/x")])}, seen)


def test_the_session_cookie_never_goes_to_another_port_of_the_same_host(other) -> None:  # noqa: ANN001
    there, seen_there = other
    seen_here: list[tuple[str, str]] = []
    with forum_redirecting_to(there, seen_here) as here:
        client = HttpClient(here + "/", rate_limit=None, retries=0)
        client.cookies.set("phpbb3_x_sid", "1" * 32, domain="127.0.0.1")
        with pytest.raises(ForumError, match="другой сайт"):
            client.get(here + "/viewtopic.php")
        client.close()
    assert all("phpbb3_x_sid" not in cookie for _, cookie in seen_there)


def test_without_a_session_the_other_port_is_visited_and_its_cookie_not_kept(other) -> None:  # noqa: ANN001
    there, seen_there = other
    seen_here: list[tuple[str, str]] = []
    with forum_redirecting_to(there, seen_here) as here:
        client = HttpClient(here + "/", rate_limit=None, retries=0)
        client.get(here + "/viewtopic.php")
        assert client.cookie_names() == []        # the other site's cookie is not ours
        client.close()
    assert [path for path, _ in seen_there] == ["/x", "/y"]


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("http://forum.ru/", "http://forum.ru/x", True),
        ("http://forum.ru/", "http://www.forum.ru/x", True),        # «www.» or not
        ("http://forum.ru/", "https://forum.ru/x", True),           # up to https, 80 → 443
        ("https://forum.ru/", "http://forum.ru/x", False),          # down to http: never
        ("http://forum.ru/", "http://forum.ru:8080/x", False),      # another port
        ("http://127.0.0.1:5000/", "http://127.0.0.1:5001/", False),
        ("http://forum.ru:8080/", "https://forum.ru:8443/", False),  # non-standard ports
        ("http://forum.ru/", "http://forum.ru:80/x", True),         # the default port said
        ("http://forum.ru/", "http://evil.ru/", False),
    ],
)
def test_which_addresses_are_the_forum_itself(a: str, b: str, same: bool) -> None:
    assert same_origin(a, b) is same
