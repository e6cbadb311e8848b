"""Issue 29, the public-text check: what ``--post`` (and ``--send``) would publish, for every
command that publishes, holds no rule code, no post id without its link and no internal
id. The texts are taken from each command's own «Будет отправлено» listing (``--dry-run``),
exactly as they would go out; every command with ``--post`` or ``--send`` must be here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import typer
from demo_run import STEPS, run

from referee.cli import app
from referee.core.roles import ACTIONS, ROLE_IDS

RULE_CODE = re.compile(r"\b(?:T[12]|V[1-6]|A[1-3]|N1[0-5](?:\.\d+)?|N[1-9]|W[12])\b")
INTERNAL = re.compile(
    r"\b(?:" + "|".join(sorted({*ROLE_IDS, *ACTIONS}, key=len, reverse=True)) + r")\b"
    r"|\b(?:first_to_reach|earliest_last_vote|reveal_role\w*|tie\s*=|rules\.|clan:)"
    r"|«(?:mafia|clan\w*)»|\b\w+:\w+_")
URL = re.compile(r"\[url=[^\]]*\].*?\[/url\]")
BARE_POST = re.compile(r"(?:сообщени\w+|пост\w*)\s*#?\d+|#\d+|\bp=\d+")
RULE_NAME = re.compile(r"\[/?\w+(?:=[^\]]*)?\]")
DIVIDER = "━━━━━━━━━━━━━━━━━━━━━━━━"

# (the command that publishes, the forum time, its arguments) — the demo game in order:
# each is run once to record, then again with --dry-run to show what it would send.
PUBLISHERS: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("tally", "2026-11-22 09:00", ("tally", "--day", "1", "--post")),
    ("check-activity", "2026-11-22 09:30", ("check-activity", "--turn", "1", "--offline",
                                            "--post")),
    ("resolve-night", "2026-11-22 10:30", ("resolve-night", "--night", "1", "--offline",
                                           "--post", "--send")),
    ("check-activity", "2026-11-24 10:00", ("check-activity", "--turn", "2", "--offline",
                                            "--post")),
    ("tally", "2026-11-24 10:05", ("tally", "--day", "2", "--offline", "--post")),
    ("deal", "2026-11-24 10:10", ("deal", "--seed", "7", "--force", "--send")),
)
COVERED_ELSEWHERE = {"watch": "publishes through the same texts as tally, check-activity "
                              "and resolve-night (referee.host.watch.jobs)"}


def _publishing_commands() -> set[str]:
    group = typer.main.get_command(app)
    found = set()
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        opts = {o for p in command.params for o in getattr(p, "opts", ())}
        if {"--post", "--send"} & opts:
            found.add(name)
    return found


def sent_texts(listing: str) -> list[tuple[str, str]]:
    """(header, text) of every message in a «Будет отправлено» listing."""
    out: list[tuple[str, str]] = []
    blocks = listing.split(DIVIDER)
    for block in blocks[1:]:
        head, _, body = block.partition("\n")
        if head.strip():
            out.append((head.strip(), body.rstrip("\n")))
    return out


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, str, str]]:
    db: Path = tmp_path_factory.mktemp("post") / "game.db"
    out: list[tuple[str, str, str]] = []
    for name, now, args in PUBLISHERS:
        recorded = [a for a in args if a not in ("--post", "--send")]
        if name != "deal":
            assert run(db, now, *recorded).exit_code == 0
        res = run(db, now, *args, "--dry-run")
        assert res.exit_code == 0, res.output
        texts = sent_texts(res.stderr)
        assert texts, (name, res.stderr)
        out += [(name, head, body) for head, body in texts]
    # A tie on day 1 (the host turned three of Mr. Smith's six votes down): the tie line
    # names the vote that decided it.
    tie = db.with_name("tie.db")
    assert run(tie, "2026-11-22 09:00", "sync").exit_code == 0
    for post in ("83", "92", "105"):
        assert run(tie, "2026-11-22 09:00", "vote", "reject", post).exit_code == 0
    res = run(tie, "2026-11-22 09:00", "tally", "--day", "1", "--offline", "--post",
              "--dry-run")
    out += [("tally (tie)", head, body) for head, body in sent_texts(res.stderr)]
    # history's BBCode is written to be pasted in the topic as it is.
    res = run(db, "2026-11-24 10:10", "history", "--day", "1", "--offline")
    out.append(("history", "вставка в тему", res.stdout))
    return out


def test_every_publishing_command_is_checked() -> None:
    assert _publishing_commands() == {n for n, _, _ in PUBLISHERS} | set(COVERED_ELSEWHERE)


def test_the_demo_publishes_posts_and_pms(published: list[tuple[str, str, str]]) -> None:
    heads = [h for _, h, _ in published]
    assert sum(h.startswith("Сообщение в тему") for h in heads) == 6
    assert any("Ничья, по 3" in t for n, _, t in published if n == "tally (tie)")
    assert sum(h.startswith("ЛС для") for h in heads) > 10


def test_nothing_published_has_a_rule_code_a_bare_post_id_or_an_internal_id(
    published: list[tuple[str, str, str]],
) -> None:
    for name, head, text in published:
        words = URL.sub("", text)             # a linked vote may name its post in the link
        words = RULE_NAME.sub("", words)      # BBCode tags
        assert not RULE_CODE.findall(words), (name, head, RULE_CODE.findall(words))
        assert not BARE_POST.findall(words), (name, head, BARE_POST.findall(words))
        assert not INTERNAL.findall(words), (name, head, INTERNAL.findall(words))


@pytest.mark.parametrize(("text", "caught"), [
    ("Раньше других набрал(а) 2 (сообщение 39): Лиса.", "BARE_POST"),
    ("при равенстве голосов V6 смотрит на этот момент", "RULE_CODE"),
    ("выстрел клана «mafia»", "INTERNAL"),
    ("роль: commissar", "INTERNAL"),
    ("голос #108 не засчитан", "BARE_POST"),
])
def test_the_checks_catch_what_they_look_for(text: str, caught: str) -> None:
    pattern = {"BARE_POST": BARE_POST, "RULE_CODE": RULE_CODE, "INTERNAL": INTERNAL}[caught]
    assert pattern.findall(URL.sub("", text))


def test_a_linked_vote_passes() -> None:
    text = "Раньше других набрал(а) 2 ([url=http://f/viewtopic.php?p=39#p39]этим голосом[/url])"
    assert not BARE_POST.findall(URL.sub("", text))


def test_the_steps_are_the_demo_in_order() -> None:
    assert [a[0] for _, _, a in STEPS] == ["tally", "check-activity", "resolve-night",
                                           "check-activity", "tally"]
