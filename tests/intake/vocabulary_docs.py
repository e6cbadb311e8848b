"""The «Словарь заявок» section of docs/rules.md, as it must read from the vocabulary's data
(``referee/rules/intake/vocabulary.toml``): one table per role's action, then the other words."""

from __future__ import annotations

from referee.rules.intake.vocabulary import (
    ACTION_FAMILIES,
    WORD_FAMILIES,
    roles_of_table,
    subjects,
    tables,
)

ACTION_TITLES = {
    "check": "Проверка", "heal": "Лечение", "strike": "Выстрел и убийство",
    "beat": "Избиение", "take": "Забрать на беседу", "ambush": "Засада", "blow": "Подрыв",
    "protect": "Защита некроманта",
}
WORD_TITLES = {
    "change": "Смена заявки (N1)", "withdraw": "Отзыв заявки",
    "executor": "Исполнитель клана (N5)", "aim": "Цель без глагола",
    "skip": "Пропуск хода", "correction": "Поправка", "hesitation": "Сомнение (спросить)",
    "opener": "Начало фразы (приветствия, вводные)",
}
HEAD = "## Словарь заявок"


def _cells(entries: tuple[str, ...]) -> tuple[str, str]:
    lemma = ", ".join(e for e in entries if not e.startswith("="))
    exact = ", ".join(e.removeprefix("=") for e in entries if e.startswith("="))
    return lemma or "—", exact or "—"


def render() -> str:
    """The section, from the heading to the end of its last table."""
    out = [
        HEAD,
        "",
        "Слова, которыми игроки пишут ведущему ночные ходы. Слово «по лемме» ловится в",
        "любой форме (pymorphy3: «проверить» — это и «проверяю», и «проверим», и «проверь»);",
        "«только так» — ровно в этом виде (сленг, которого нет в словаре, или форма с",
        "слишком широкой леммой). Роль как подлежащее («Комиссар проверяет Kotik», «Док:",
        "Лиса») считается, только если открывает фразу и за ней назван игрок. Роль",
        "отправителя выбирает действие: «убиваю» у мафии — выстрел клана, у маньяка и",
        "ниндзя — убийство. Сомнение, условие («если»), «бы», вопрос, два игрока на ход на",
        "одного или слово чужой роли — не угадываются: ведущему показывается письмо и",
        "причина. Данные — `referee/rules/intake/vocabulary.toml`; тест следит, чтобы эта",
        "страница с ними совпадала.",
        "",
    ]
    words, subj, roles = tables(), subjects(), roles_of_table()
    for fam in ACTION_FAMILIES:
        lemma, exact = _cells(words[fam])
        s_lemma, s_exact = _cells(subj[fam])
        out += [
            f"### {ACTION_TITLES[fam]} — {roles[fam]}",
            "",
            "| Как ловится | Слова |",
            "|---|---|",
            f"| по лемме | {lemma} |",
            f"| только так | {exact} |",
            f"| роль как подлежащее | {', '.join(x for x in (s_lemma, s_exact) if x != '—')}"
            " |",
            "",
        ]
    out += ["### Другие слова заявок", "", "| Что | По лемме | Только так |", "|---|---|---|"]
    for fam in WORD_FAMILIES:
        lemma, exact = _cells(words[fam])
        out.append(f"| {WORD_TITLES[fam]} | {lemma} | {exact} |")
    return "\n".join(out) + "\n"
