"""``[forum] engine`` is checked against the engine folders without importing the engines
(issue 30: offline commands import no HTTP client); the folder list must stay the
registry's list, or a config could name an engine the registry does not know."""

from __future__ import annotations

from adapters.registry import engine_names as registry_names
from referee.config.forum import engine_names


def test_the_config_knows_the_registrys_engines() -> None:
    assert engine_names() == registry_names()
