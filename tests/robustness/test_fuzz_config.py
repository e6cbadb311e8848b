"""A corrupt or incomplete ``referee.toml`` gives a ConfigError that names the key and says
what to write instead — never a traceback, and never a config that breaks later.

The inputs are the demo game's referee.toml (fixtures/demo) with lines deleted, values of
the wrong type, broken TOML, impossible dates, unknown roles and bad extra sections.
"""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from robust_helpers import FIXTURES

from referee.config.game import Config, load_config
from referee.core.errors import ConfigError

DEMO = (FIXTURES / "demo" / "referee.toml").read_text(encoding="utf-8")
LINES = tuple(DEMO.splitlines())
_VALUE = re.compile(r'(=\s*)("[^"]*"|\[[^\]]*\]|\{[^}]*\}|true|false|[-+\d.]+)')
_DATE = re.compile(r'"\d{4}-\d\d-\d\d \d\d:\d\d"')
_ROLE = re.compile(r'(role\s*=\s*|^"[^"]+"\s*=\s*)"([^"]+)"')

WRONG_VALUES = (
    "1", "-5", "0", "true", "[1, 2]", "{ a = 1 }", "1979-05-27T07:32:00Z", "1979-05-27",
    "07:32:00", '"garbage"', '""', '"  "', "[]", "{}", "inf", "nan", "-inf", "1e308",
    '"Europe"', '"../../etc/passwd"', '["red", 5]', "9223372036854775807", "{ role = 5 }",
    '{ role = "mafia", clan = 1 }', "[[1]]", '[{ slot = "Kotik" }]', '"шпион"',
)
BAD_DATES = (
    '"2026-13-45 25:00"', '"0001-01-01 00:00"', '"9999-12-31 23:59"', '"2026-11-21"',
    '"22:00"', '"21.11.2026 22:00"', '"2026-11-21 22:00+25:00"', '"завтра"', '""',
    "2026-11-21T22:00:00", "0001-01-01T00:00:00+14:00",
)
UNKNOWN_ROLES = ("шпион", "", "MAFIA ", "citizen2", "Мирный-житель", "boss son", "1")
BROKEN_TOML = ('"', "[", "]", "=", "\\", "{", "\x00", "[[", "= =", "é", '"""')
EXTRA_SECTIONS = (
    '[[replacements]]\nslot = ["Kotik"]\nplayer = "Новый"\nfrom_post = 1',
    '[[replacements]]\nslot = "Kotik"\nplayer = 5\nfrom_post = "x"',
    '[[replacements]]\nslot = "Kotik"\nplayer = "Новый"',
    '[[replacements]]\nslot = "Никто"\nplayer = "Новый"\nfrom_post = 7',
    '[aliases]\n"Никто" = ["x"]', '[aliases]\n"Kotik" = [1]', "[setup]\nclans = -1",
    "[setup]\nшпион = 2", "[setup]\nmafia = 1.5", "schedule = 5", "rules = 5",
    '[[schedule.days]]\nday = 1\nstart = "2026-11-20 18:00"\ndeadline = "2026-11-21 22:00"',
    '[[schedule.days]]\nday = 0\nstart = "2026-11-20 18:00"\ndeadline = "2026-11-19 22:00"',
    '[forum.extra]\npassword = "x"',
)
FORUM_KEYS = ("vote_url", "username", "user_agent", "timezone", "url", "snapshot",
              "rate_limit", "timeout", "retries", "engine", "read_sent")

# Every key the demo file has (and the few a fix may name): the message must name one.
KEYS = tuple(sorted(
    {m.group(1) for m in re.finditer(r'^\s*"?([^"=\s\[]+)"?\s*=', DEMO, re.M)}
    | {m.group(1) for m in re.finditer(r"^\[+([\w.]+)\]+", DEMO, re.M)}
    | {"players", "schedule", "replacements", "aliases", "setup", "clan", "role", "day",
       *FORUM_KEYS, "ambush_kills", "game", "forum", "rules"},
    key=len, reverse=True,
))
SAYS_WHAT_TO_DO = re.compile(
    r"нуж[енаоы]|неизвестн|недопустим|долж[еноа]|\bнет\b|дважды|слишком мало|не найден|секрет"
    r"|не позже|не поддерживается|такой даты нет|ошибка в TOML|— не ", re.I)


@st.composite
def corrupt_toml(draw: st.DrawFn) -> str:
    lines = list(LINES)
    for _ in range(draw(st.integers(min_value=1, max_value=3))):
        at = draw(st.integers(min_value=0, max_value=len(lines) - 1))
        kind = draw(st.sampled_from(
            ("delete", "wrong_type", "bad_date", "unknown_role", "broken", "extra", "forum")))
        line = lines[at]
        if kind == "delete":
            del lines[at]
        elif kind == "wrong_type" and (m := _VALUE.search(line)):
            value = draw(st.sampled_from(WRONG_VALUES))
            lines[at] = line[: m.start(2)] + value + line[m.end(2):]
        elif kind == "bad_date":
            dated = [i for i, ln in enumerate(lines) if _DATE.search(ln)]
            if dated:
                i = dated[at % len(dated)]
                lines[i] = _DATE.sub(draw(st.sampled_from(BAD_DATES)), lines[i], count=1)
        elif kind == "unknown_role":
            roles = [i for i, ln in enumerate(lines) if _ROLE.search(ln)]
            if roles:
                i = roles[at % len(roles)]
                m = _ROLE.search(lines[i])
                assert m is not None
                role = draw(st.sampled_from(UNKNOWN_ROLES))
                lines[i] = lines[i][: m.start(2)] + role + lines[i][m.end(2):]
        elif kind == "broken":
            pos = draw(st.integers(min_value=0, max_value=len(line)))
            lines[at] = line[:pos] + draw(st.sampled_from(BROKEN_TOML)) + line[pos:]
        elif kind == "extra":
            lines.append(draw(st.sampled_from(EXTRA_SECTIONS)))
        elif kind == "forum":
            # A key of [forum] set to a wrong type (inserted right under the header).
            head = lines.index("[forum]") if "[forum]" in lines else None
            if head is not None:
                key = draw(st.sampled_from(FORUM_KEYS))
                lines.insert(head + 1, f"{key} = {draw(st.sampled_from(WRONG_VALUES))}")
    return "\n".join(lines) + "\n"


def assert_usable(config: Config) -> None:
    """A config that loads has the types the rest of the program relies on."""
    forum = config.forum.board
    for value in (forum.url, config.forum.vote_url, forum.username, forum.user_agent):
        assert value is None or isinstance(value, str), f"[forum]: {value!r}"
    assert isinstance(config.host, str) and config.host
    assert config.tz is not None
    for r in config.replacements:
        assert isinstance(r.slot, str) and isinstance(r.player, str), r
        assert r.from_post is None or isinstance(r.from_post, int), r
        assert r.from_time is None or isinstance(r.from_time, datetime), r
    for day in config.schedule:
        assert day.start.tzinfo is not None and day.start < day.deadline
    for value in (forum.rate_limit, forum.timeout, config.votes.red_hue_tolerance):
        assert value == value and value not in (float("inf"), float("-inf"))


def load(tmp: Path, text: str) -> Config:
    path = tmp / "referee.toml"
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    return load_config(path)


def assert_clear(error: ConfigError) -> None:
    message = str(error)
    assert "TOML" in message or any(k in message for k in KEYS), message
    assert error.hint or SAYS_WHAT_TO_DO.search(message), message


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=corrupt_toml())
def test_a_corrupt_config_is_loaded_or_refused_naming_the_key(
    tmp_path_factory: pytest.TempPathFactory, text: str
) -> None:
    tmp = tmp_path_factory.getbasetemp()
    try:
        config = load(tmp, text)
    except ConfigError as error:
        assert_clear(error)
        return
    assert_usable(config)


def with_line(section: str, line: str) -> str:
    """The demo file with ``line`` set under ``[section]`` (replacing the key if present)."""
    key = line.split("=", 1)[0].strip()
    text = re.sub(rf"^{re.escape(key)}\s*=.*\n", "", DEMO, flags=re.M)
    return text.replace(f"[{section}]\n", f"[{section}]\n{line}\n", 1)


@pytest.mark.parametrize(("section", "line"), [
    ("forum", 'timezone = "Europe"'),             # a folder of the time zone database
    ("forum", "rate_limit = nan"),
    ("forum", "retries = inf"),
    ("forum", "vote_url = 5"),
    ("forum", "username = 5"),
    ("forum", "user_agent = [1]"),
    ("rules", "change_limit = nan"),
    ("rules", "reason_min_letters = -inf"),
])
def test_a_wrong_value_names_its_key(tmp_path: Path, section: str, line: str) -> None:
    key = line.split("=", 1)[0].strip()
    with pytest.raises(ConfigError, match=key):
        load(tmp_path, with_line(section, line))


@pytest.mark.parametrize(("section", "key"), [
    ('slot = ["Kotik"]\nplayer = "Новый"\nfrom_post = 1', "slot"),
    ('slot = "Kotik"\nplayer = 5\nfrom_post = 1', "player"),
    ('slot = "Kotik"\nplayer = "Новый"\nfrom_post = "x"', "from_post"),
])
def test_a_wrong_replacement_names_its_key(tmp_path: Path, section: str, key: str) -> None:
    with pytest.raises(ConfigError, match=key):
        load(tmp_path, f"{DEMO}\n[[replacements]]\n{section}\n")


@pytest.mark.parametrize("when", ["0001-01-01 00:00", "9999-12-31 23:59"])
def test_a_deadline_out_of_range_names_its_key(tmp_path: Path, when: str) -> None:
    text = DEMO.replace('deadline = "2026-11-21 22:00"', f'deadline = "{when}"', 1)
    text = text.replace("Europe/Moscow", "America/Adak" if when.startswith("9") else "Asia/Tokyo")
    with pytest.raises(ConfigError, match=r"schedule\.days\[0\]"):
        load(tmp_path, text)
