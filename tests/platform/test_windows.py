"""Windows, simulated on any machine (issue 13): no POSIX-only call is made unguarded.

Windows has no ``os.fchmod`` (before Python 3.13), no ``os.getuid``, no ``fcntl``; its file
modes read 0o666 whatever they are, and a pipe or a file gets the console's code page
(cp1251, cp866) rather than UTF-8. Each test takes those away or puts them in, then plays a
part of the demo game the way a Windows host would."""

from __future__ import annotations

import ast
import http.cookiejar
import io
import logging
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from adapters import cookies
from referee.cli import app
from referee.render.console import utf8_streams
from referee.store import Store, guard

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "fixtures" / "demo" / "referee.toml"
POSIX_ONLY = {"fchmod", "fchown", "getuid", "geteuid", "getgid", "killpg", "getpgid",
              "mkfifo", "setsid", "sync", "lchmod"}
"""``os`` functions missing on Windows (``os.fchmod`` until Python 3.13)."""


class FakeMsvcrt:
    """``msvcrt.locking`` as Windows has it: one byte locked per descriptor, refused while
    held, released when the descriptor is closed."""

    LK_NBLCK = 2

    def __init__(self) -> None:
        self.held: set[int] = set()

    def locking(self, fd: int, mode: int, nbytes: int) -> None:
        assert mode == self.LK_NBLCK and nbytes == 1
        if fd in self.held:
            raise PermissionError(13, "Permission denied")
        self.held.add(fd)

    def closing(self, close: Callable[[int], None]) -> Callable[[int], None]:
        def close_and_unlock(fd: int) -> None:
            self.held.discard(fd)
            close(fd)

        return close_and_unlock


@pytest.fixture
def windows(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> FakeMsvcrt:
    # tmp_path first: pytest itself asks getpass (os.getuid) for the folder's name.
    for name in POSIX_ONLY:
        monkeypatch.delattr(os, name, raising=False)
    fake = FakeMsvcrt()
    monkeypatch.setattr(guard, "fcntl", None)
    monkeypatch.setattr(guard, "msvcrt", fake, raising=False)
    monkeypatch.setattr(os, "close", fake.closing(os.close))
    monkeypatch.setattr(guard, "POSIX_MODES", False)
    monkeypatch.setattr(cookies, "POSIX_MODES", False)
    return fake


def test_no_module_calls_a_posix_only_function_unguarded() -> None:
    found: list[str] = []
    for path in [*ROOT.glob("referee/**/*.py"), *ROOT.glob("adapters/**/*.py")]:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        guarded = {id(n) for t in ast.walk(tree) if isinstance(t, ast.Try)
                   and any(isinstance(h.type, ast.Name) and h.type.id == "ImportError"
                           for h in t.handlers)
                   for n in ast.walk(t)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id == "os" and node.attr in POSIX_ONLY):
                found.append(f"{path.name}:{node.lineno} os.{node.attr}")
            if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in guarded:
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else [
                    node.module or ""]
                if any(n.split(".")[0] in ("fcntl", "pwd", "grp", "termios", "resource")
                       for n in names):
                    found.append(f"{path.name}:{node.lineno} import {names}")
    assert not found, found


def test_the_store_locks_with_msvcrt_and_a_second_run_waits(windows: FakeMsvcrt,
                                                             tmp_path: Path) -> None:
    with Store.open(tmp_path / "game.db") as store:
        store.set_meta("k", "v")
        assert windows.held                      # the lock went through msvcrt.locking
    assert not windows.held                      # closing the lock file released it
    with Store.open(tmp_path / "game.db", lock_wait=1) as store:   # a next run opens it
        assert store.get_meta("k") == "v"


def test_cookies_are_saved_and_read_without_fchmod_or_mode_warnings(
    windows: FakeMsvcrt, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    jar = http.cookiejar.CookieJar()
    jar.set_cookie(http.cookiejar.Cookie(
        0, "phpbb3_sid", "abc", None, False, "forum.test", True, False, "/", True, False,
        None, False, None, None, {}))
    path = tmp_path / "game.cookies"
    cookies.save_cookies(jar, path, "forum.test")
    path.chmod(0o666)                             # what every file looks like on Windows
    again = http.cookiejar.CookieJar()
    with caplog.at_level(logging.WARNING, logger="referee.http"):
        assert cookies.load_cookies(again, path) == 1
    assert not caplog.records                     # no «readable by others» on every run


def test_a_cp1251_pipe_gets_utf8_and_never_crashes_on_the_divider() -> None:
    raw = io.BytesIO()
    pipe = io.TextIOWrapper(raw, encoding="cp1251")
    utf8_streams(pipe)
    pipe.write("━━ ТОЛЬКО ДЛЯ ВЕДУЩЕГО — «Ёжик», Тень_Ночи\n")
    pipe.flush()
    assert raw.getvalue().decode("utf-8") == "━━ ТОЛЬКО ДЛЯ ВЕДУЩЕГО — «Ёжик», Тень_Ночи\n"


def test_the_demo_day_is_counted_as_on_windows(windows: FakeMsvcrt, tmp_path: Path) -> None:
    res = CliRunner().invoke(app, ["--config", str(DEMO), "--db", str(tmp_path / "game.db"),
                                   "--now", "2026-11-22 09:00", "tally", "--day", "1"])
    assert res.exit_code == 0, res.output
    assert "На виселицу отправляется: Mr. Smith." in res.stdout
