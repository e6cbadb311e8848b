"""The benchmark board: a forum on 127.0.0.1 in its own process, every page rendered before
the first request.

A :class:`Site` names each request (``key``: ``topic:12``, ``folder:inbox:3``,
``export:inbox:3``, ``pm:1042``; ``None`` → 404) and renders every answer up front
(``render``). :class:`BoardProcess` forks a process that renders the site, then serves the
bytes: the client being measured shares no interpreter, no GIL and no rendering work with
the server (on a 2-core machine they take one core each). The server counts the requests by
kind (the part of the key before ``:``), which the benchmark reads between measurements
through ``/__bench__/stats``; ``/__bench__/<name>`` runs ``site.control(name)`` and renders
again (a new page of the topic, say), outside any timing.
"""

from __future__ import annotations

import json
import multiprocessing
import urllib.request
from collections import Counter
from collections.abc import Mapping
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from multiprocessing.connection import Connection
from typing import Protocol
from urllib.parse import parse_qs, urlsplit

HTML = {"Content-Type": "text/html; charset=UTF-8"}


class Site(Protocol):
    def key(self, method: str, path: str, query: Mapping[str, str],
            form: Mapping[str, str]) -> str | None:
        """The name of the page asked for; None for anything the site has not."""
        ...

    def render(self) -> dict[str, tuple[dict[str, str], bytes]]:
        """Every page by its key: its headers and its bytes."""
        ...

    def control(self, name: str) -> None:
        """Change the forum between measurements (``add_page``: one more topic page)."""
        ...


def _serve(site: Site, conn: Connection) -> None:
    pages = site.render()
    counts: Counter[str] = Counter()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive, as a forum's web server

        def _answer(self, method: str) -> None:
            nonlocal pages
            url = urlsplit(self.path)
            query = {k: v[0] for k, v in parse_qs(url.query).items()}
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length).decode("utf-8", "replace") if length else ""
            form = {k: v[0] for k, v in parse_qs(body).items()}
            if url.path == "/__bench__/stats":
                return self._send(200, {"Content-Type": "application/json"},
                                  json.dumps(counts).encode())
            if url.path.startswith("/__bench__/"):
                name = url.path.rsplit("/", 1)[1]
                if name == "reset":
                    counts.clear()
                else:
                    site.control(name)
                    pages = site.render()
                return self._send(200, {"Content-Type": "text/plain"}, b"ok")
            key = site.key(method, url.path, query, form)
            if key is None or key not in pages:
                counts["404"] += 1
                return self._send(404, HTML, b"<html><body>Not Found</body></html>")
            counts[key.split(":", 1)[0]] += 1
            headers, content = pages[key]
            self._send(200, headers, content)

        def _send(self, status: int, headers: Mapping[str, str], content: bytes) -> None:
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(content)))
            self.end_headers()
            self.wfile.write(content)

        def do_GET(self) -> None:  # noqa: N802 - http.server's name
            self._answer("GET")

        def do_POST(self) -> None:  # noqa: N802
            self._answer("POST")

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    conn.send(f"http://127.0.0.1:{server.server_address[1]}/")
    server.serve_forever()


class BoardProcess:
    """A :class:`Site` served from its own process (see the module's notes)."""

    def __init__(self, site: Site) -> None:
        ctx = multiprocessing.get_context("fork")
        parent, child = ctx.Pipe()
        self.process = ctx.Process(target=_serve, args=(site, child), daemon=True)
        self.process.start()
        self.url: str = parent.recv()  # sent once every page is rendered

    def stats(self) -> dict[str, int]:
        """Requests served since the last :meth:`reset`, by kind."""
        with urllib.request.urlopen(self.url + "__bench__/stats") as r:
            return dict(json.loads(r.read()))

    def reset(self) -> None:
        self.control("reset")

    def control(self, name: str) -> None:
        with urllib.request.urlopen(self.url + f"__bench__/{name}", data=b"") as r:
            r.read()

    def shutdown(self) -> None:
        self.process.terminate()
        self.process.join(10)

    def __enter__(self) -> BoardProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        self.shutdown()
