from __future__ import annotations

import pytest
from glance_bench import BenchGame, build


@pytest.fixture(scope="session")
def bench(tmp_path_factory: pytest.TempPathFactory) -> BenchGame:
    """A benchmark-kind game of 9 days, played by the host: 7 days with a hanging and a
    mafia kill, then tied days (``tie = "nobody"``) and quiet nights, as the benchmark's
    game ends."""
    return build(tmp_path_factory.mktemp("bench"), 9)
