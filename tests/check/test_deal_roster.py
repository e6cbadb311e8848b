"""``deal`` and the roster agree (issue 12): ``[players]`` may list nicks without roles;
``referee deal`` gives them and records them as the game's roster; every command plays with
it; roles typed in ``[players]`` that differ from the deal stop every command."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from check_helpers import DEMO_TEXT, cli, dump, exit_code, refused, write_config

from referee.game.dealing import DEAL_SEED_META
from referee.host.publish import DEAL_SEED_META as PUBLISH_DEAL_SEED_META
from referee.rules import decisions
from referee.rules.decisions import Deal
from referee.store import Store


def without_roles(text: str) -> str:
    head, _, rest = text.partition("[players]\n")
    block, _, tail = rest.partition("\n\n")
    block = re.sub(r'^("[^"]+") = .*$', r'\1 = ""', block, flags=re.M)
    return f"{head}[players]\n{block}\n\n{tail}"


@pytest.fixture
def game(tmp_path: Path) -> tuple[Path, Path]:
    config = write_config(tmp_path, without_roles(DEMO_TEXT))
    db = tmp_path / "g.db"
    assert cli(config, db, "sync").exit_code == 0
    return config, db


def deals(db: Path) -> list[Deal]:
    with Store.open(db) as store:
        return decisions.recorded(store, Deal)


def test_the_meta_key_is_the_one_publish_keeps() -> None:
    assert DEAL_SEED_META == PUBLISH_DEAL_SEED_META


def test_nicks_without_roles_load_and_wait_for_the_deal(game: tuple[Path, Path]) -> None:
    config, db = game
    tally = cli(config, db, "tally", "--day", "1", "--offline", "--format", "text").stdout
    assert "отправляется: Mr. Smith" in tally
    assert "Mr. Smith — Мафия" not in tally  # no role is revealed that nobody gave
    before = dump(db)
    message = refused(cli(config, db, "resolve-night", "--night", "1", "--offline"))
    assert "роли не розданы (14 игроков без роли" in message and "referee deal" in message
    assert dump(db) == before


def test_the_deal_is_recorded_and_every_command_plays_with_it(game: tuple[Path, Path]) -> None:
    config, db = game
    res = cli(config, db, "deal", "--seed", "7")
    assert res.exit_code == 0, res.output
    assert "Раздача записана (--seed 7, игроков: 14)" in res.stderr
    (deal,) = deals(db)
    role_of = {p.nick: p.role for p in deal.players}
    night = cli(config, db, "resolve-night", "--night", "1", "--offline", "--dry-run")
    assert night.exit_code == 0, night.output
    check = cli(config, db, "check", "--offline").stdout
    assert "роли из записанной раздачи (--seed 7)" in check
    assert "роли не розданы" not in check
    from referee.core.roles import role_ru

    assert f"Mr. Smith — {role_ru(role_of['Mr. Smith'])}" in check
    # The same seed again changes nothing; another seed is refused without --force.
    assert cli(config, db, "deal", "--seed", "7").exit_code == 0
    assert len(deals(db)) == 1
    before = dump(db)
    message = refused(cli(config, db, "deal", "--seed", "8"))
    assert "роли уже розданы (--seed 7)" in message and "--force" in message
    assert dump(db) == before
    assert cli(config, db, "deal", "--seed", "8", "--force").exit_code == 0
    assert [d.seed for d in deals(db)] == [7, 8]


def test_a_dry_run_deal_records_nothing(game: tuple[Path, Path]) -> None:
    config, db = game
    before = dump(db)
    res = cli(config, db, "deal", "--seed", "7", "--dry-run")
    assert res.exit_code == 0 and "ничего не записано" in res.stderr
    assert dump(db) == before


def test_deal_refuses_to_deal_over_typed_roles(tmp_path: Path) -> None:
    config = write_config(tmp_path, DEMO_TEXT)
    db = tmp_path / "g.db"
    assert cli(config, db, "sync").exit_code == 0
    before = dump(db)
    message = refused(cli(config, db, "deal", "--seed", "7"))
    assert "в [players] уже указаны роли (14 из 14)" in message and "--force" in message
    assert dump(db) == before


def test_typed_roles_that_differ_from_the_deal_stop_every_command(
    game: tuple[Path, Path],
) -> None:
    config, db = game
    assert cli(config, db, "deal", "--seed", "7").exit_code == 0
    (deal,) = deals(db)
    dealt = {p.nick: p.role for p in deal.players}
    other = "doctor" if dealt["Лиса"] != "doctor" else "priest"
    text = config.read_text(encoding="utf-8").replace('"Лиса" = ""', f'"Лиса" = "{other}"')
    config.write_text(text, encoding="utf-8")
    before = dump(db)
    for args in (("tally", "--day", "1", "--offline"), ("resolve-night", "--offline"),
                 ("excuse", "Лиса", "--turn", "1")):
        message = refused(cli(config, db, *args))
        assert "[players] и записанная раздача (--seed 7) расходятся" in message
        assert "Лиса: в referee.toml — " in message
    check = cli(config, db, "check", "--offline")
    assert exit_code(check) == 2 and "расходятся" in check.stdout
    assert dump(db) == before
    # The same role typed in the config agrees with the deal: nothing to stop.
    config.write_text(text.replace(f'"Лиса" = "{other}"', f'"Лиса" = "{dealt["Лиса"]}"'),
                      encoding="utf-8")
    assert cli(config, db, "tally", "--day", "1", "--offline").exit_code == 0
