"""Suite-wide isolation: what one test changes in process-wide state is undone before the next."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _notice_logger_restored() -> Iterator[None]:
    """A command run in-process hangs the host's notice printer on ``referee.notice`` and stops
    it propagating (the CLI shows notices itself); a later test that reads notices through
    ``caplog`` must see them as a library caller would, whatever ran before it."""
    notices = logging.getLogger("referee.notice")
    handlers, propagate = list(notices.handlers), notices.propagate
    yield
    notices.handlers[:] = handlers
    notices.propagate = propagate
