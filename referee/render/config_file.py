"""The ``referee.toml`` that ``referee init`` writes: every section commented in Russian,
the values read from the topic filled in, the rest shown with docs/rules.md defaults."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from referee.host.init_game import NewGame


def _q(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(text, ensure_ascii=False)


def _forum(game: NewGame) -> list[str]:
    out = ["[forum]", f"engine = {_q(game.first.engine)}"]
    if game.url:
        out.append(f"url = {_q(game.url)}           # первая страница темы игры")
    else:
        out.append('# url = "https://форум/viewtopic.php?t=…"   # адрес темы (для ссылок и sync)')
    if game.snapshot:
        out.append(f"snapshot = {_q(game.snapshot)}   # сохранённые страницы вместо сети")
    out += [
        f"timezone = {_q(game.timezone)}   # часовой пояс форума: все времена ниже — в нём (T2)",
        f"# username = {_q(game.first.host)}   # вход ведущего: закрытые темы и ЛС "
        "(пароль — REFEREE_PASSWORD, не здесь)",
        "rate_limit = 2.0                 # не больше запросов в секунду",
    ]
    return out


def _schedule(game: NewGame) -> list[str]:
    out = ["# День N — от start до deadline, ночь N — до night_deadline (T1); сообщение",
           "# в момент дедлайна или позже опоздало (T2). Формат: \"ГГГГ-ММ-ДД ЧЧ:ММ\"."]
    if not game.schedule:
        return [*out, "# [[schedule.days]]", "# day = 1", '# start = "2026-11-20 18:00"',
                '# deadline = "2026-11-21 22:00"', '# night_deadline = "2026-11-22 10:00"']
    for d in game.schedule:
        out += ["[[schedule.days]]", f"day = {d.day}", f'start = "{d.start:%Y-%m-%d %H:%M}"',
                f'deadline = "{d.deadline:%Y-%m-%d %H:%M}"',
                f'night_deadline = "{d.night_deadline:%Y-%m-%d %H:%M}"', ""]
    return out[:-1]


def _players(game: NewGame) -> list[str]:
    out = ["# Ник = роль, или { role = \"mafia\", clan = \"A\" } для клановых ролей. Пустая роль",
           "# (\"\") — роль раздаст referee deal --seed N и запишет в базу.",
           "# Роли: citizen commissar sergeant ninja doctor boss_son mafia thug kamikaze",
           "# maniac necromancer priest (можно по-русски: \"комиссар\").",
           "[players]"]
    unmatched = set(game.first.unmatched)
    for nick in game.first.roster:
        note = "   # в теме нет сообщений с таким ником — проверьте" if nick in unmatched else ""
        out.append(f"{_q(nick)} = \"\"{note}")
    if not game.first.roster:
        out.append('# "Ник" = ""   # список игроков в первом сообщении не найден — впишите')
    return out


def new_config_text(game: NewGame) -> str:
    """The whole file."""
    first = game.first
    lines = [
        f"# referee.toml игры «{first.title}» — написан referee init по первому сообщению",
        "# темы. Проверьте: referee check.",
        "",
        "[game]",
        f"title = {_q(first.title)}",
        f"host = {_q(first.host)}   # ник ведущего: его сообщения не голоса (V5)",
        "",
        *_forum(game),
        "",
        *_schedule(game),
        "",
        *_players(game),
        "",
        "# Другие написания ников (V2): регистр, ё/е и похожие буквы уже учтены.",
        "# [aliases]",
        '# "Ник" = ["Другое написание"]',
        "",
        "# Правила голосования (V1–V6, docs/rules.md); здесь — значения по умолчанию.",
        "[rules]",
        'vote_phrases = ["мой голос"]',
        'vote_colours = ["red"]        # семейства: red green blue …, или цвет CSS "#cc0000"',
        'changes = "forbidden"         # forbidden | last_counts | limited',
        'edited_vote = "count_flagged" # count_flagged | void | missed',
        'deleted_vote = "count_flagged" # удалённый голос: count_flagged | void',
        'tie = "first_to_reach"        # first_to_reach | nobody | all | earliest_last_vote',
        "reason_min_letters = 10       # V3",
        "",
        "# Расклад ролей для referee deal; без [setup] — расклад по умолчанию (docs/rules.md).",
        "# [setup]",
        "# clans = 1",
        "# mafia = 2",
    ]
    return "\n".join(lines) + "\n"
