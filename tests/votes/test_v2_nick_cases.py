"""V2 — a nick typed in another case, after a preposition, with look-alike letters or a typo.

``Roster.match`` (the vote roster has case forms on, as referee/game/base.py builds it):
each row is what a player typed → how it is read:

    «exact Ник» / «alias Ник» / «lookalike Ник»   counts as typed
    «case Ник»                                    another case of the nick: counts, flagged
    «near Ник»                                    one typo: counts, flagged
    «ambiguous А/Б»                               may be several players: not guessed
    «none»                                        no player
    a trailing «(у)» is the preposition left out before the nick

A nick that merely contains another nick («Котяра» for Кот) is not that nick.
"""

from __future__ import annotations

import pytest

from referee.core.nicks import NickMatch, Roster

PLAYERS = ("Лиса", "Лис", "Кот", "Котик", "Гроза", "Ёжик", "Снежок", "Шерлок", "Саша",
           "Тень Ночи", "Тихий", "Доктор Хаус", "Ведьма", "Kotik", "Mr. Smith", "Кот-Баюн",
           "Сова-1", "Сова-2", "Ворон", "Мария", "Олег", "Белка", "Молот", "Tiger")
ROSTER = Roster(PLAYERS, {"Шерлок": ["Шерл"]}, case_forms=True)


def reading(m: NickMatch) -> str:
    if m.how == "ambiguous":
        out = "ambiguous " + "/".join(m.candidates)
    elif m.nick is None:
        out = "none"
    else:
        out = f"{m.how} {m.nick}"
    return out + (f" ({m.lead})" if m.lead else "")


# typed                       read as
CASE_FORMS = [
    # a feminine noun in every case
    ("Лису",                  "ambiguous Лис/Лиса"),  # Лиса (acc.) or Лис (dat.)
    ("Лисой",                 "case Лиса"),
    ("Лисою",                 "case Лиса"),
    ("Лисе",                  "ambiguous Лис/Лиса"),  # Лиса (dat.) or Лис (loc.)
    ("Лисы",                  "case Лиса"),
    ("Лисом",                 "case Лис"),
    ("Грозу",                 "case Гроза"),
    ("Грозы",                 "case Гроза"),
    ("Грозе",                 "case Гроза"),
    ("Грозой",                "case Гроза"),
    ("Ведьму",                "case Ведьма"),
    ("Ведьмой",               "case Ведьма"),
    ("Ведьме",                "case Ведьма"),
    ("Белку",                 "case Белка"),
    ("Белкой",                "case Белка"),
    ("Белке",                 "case Белка"),
    # masculine nouns, animate: accusative = genitive
    ("Кота",                  "case Кот"),
    ("Коту",                  "case Кот"),
    ("Котом",                 "case Кот"),
    ("Коте",                  "case Кот"),
    ("Котика",                "case Котик"),
    ("Котику",                "case Котик"),
    ("Котиком",               "case Котик"),
    ("Ворона",                "case Ворон"),
    ("Вороном",               "case Ворон"),
    ("Ворону",                "case Ворон"),
    ("Молота",                "case Молот"),
    ("Молотом",               "case Молот"),
    # fleeting vowel, ё
    ("Снежка",                "case Снежок"),
    ("Снежку",                "case Снежок"),
    ("Снежком",               "case Снежок"),
    ("Ёжика",                 "case Ёжик"),
    ("Ежика",                 "case Ёжик"),
    ("Ёжиком",                "case Ёжик"),
    # names
    ("Шерлока",               "case Шерлок"),
    ("Шерлоку",               "case Шерлок"),
    ("Шерлоком",              "case Шерлок"),
    ("Сашу",                  "case Саша"),
    ("Саше",                  "case Саша"),
    ("Сашей",                 "case Саша"),
    ("Марию",                 "case Мария"),
    ("Марией",                "case Мария"),
    ("Олега",                 "case Олег"),
    ("Олегу",                 "case Олег"),
    ("Олегом",                "case Олег"),
    # an adjective nick keeps its gender
    ("Тихого",                "case Тихий"),
    ("Тихому",                "case Тихий"),
    ("Тихим",                 "case Тихий"),
    ("Тихая",                 "none"),
    # nicks of two words: the whole nick in one case
    ("Тени Ночи",             "case Тень Ночи"),
    ("Тенью Ночи",            "case Тень Ночи"),
    ("Доктора Хауса",         "case Доктор Хаус"),
    ("Доктору Хаусу",         "case Доктор Хаус"),
    ("Доктором Хаусом",       "case Доктор Хаус"),
    # Latin nicks declined as players decline them
    ("Kotika",                "case Kotik"),
    ("Kotiku",                "case Kotik"),
    ("Kotikom",               "case Kotik"),
    ("Tigera",                "case Tiger"),
    ("Tigeru",                "case Tiger"),
    ("Mr. Smitha",            "case Mr. Smith"),
    # case forms of the alias
    ("Шерла",                 "case Шерлок"),
    ("Шерлу",                 "case Шерлок"),
]

PREPOSITIONS = [
    ("у Кота",                "case Кот (у)"),
    ("за Лису",               "ambiguous Лис/Лиса (за)"),
    ("за Грозу",              "case Гроза (за)"),
    ("с Котом",               "case Кот (с)"),
    ("со Снежком",            "case Снежок (со)"),
    ("к Ведьме",              "case Ведьма (к)"),
    ("о Коте",                "case Кот (о)"),
    ("про Шерлока",           "case Шерлок (про)"),
    ("против Шерлока",        "case Шерлок (против)"),
    ("на Олега",              "case Олег (на)"),
    ("для Саши",              "case Саша (для)"),
    ("от Тихого",             "case Тихий (от)"),
    ("у Тени Ночи",           "case Тень Ночи (у)"),
    ("за Kotika",             "case Kotik (за)"),
    ("за Шерлок",             "exact Шерлок (за)"),
    ("у Kotik",               "exact Kotik (у)"),
    ("за Шерл",               "alias Шерлок (за)"),
    ("За Гроза",              "exact Гроза (за)"),
    ("У   Кота",              "case Кот (у)"),
    ("к Доктору Хаусу",       "case Доктор Хаус (к)"),
    ("без Кота",              "none"),              # said of the one left out
]

LOOKALIKES_AND_TYPOS = [
    ("Cнежок",                "lookalike Снежок"),  # Latin C
    ("Kоtik",                 "lookalike Kotik"),   # Cyrillic о
    ("Кoт",                   "lookalike Кот"),     # Latin o
    ("Гpоза",                 "lookalike Гроза"),   # Latin p
    ("Кoта",                  "case Кот"),          # Latin o in a case form
    ("Шерлак",                "near Шерлок"),
    ("Шерлокк",               "near Шерлок"),
    ("Снежек",                "near Снежок"),
    ("Mr. Smit",              "near Mr. Smith"),
    ("Доктор Хау",            "near Доктор Хаус"),
    ("Шерлокааа",             "none"),              # three letters off
    ("шерлок",                "exact Шерлок"),
    ("ШЕРЛОК",                "exact Шерлок"),
    ("Ежик",                  "exact Ёжик"),
    ("  Гроза  ",             "exact Гроза"),
    ("Гроза!",                "exact Гроза"),
    ("«Гроза»",               "exact Гроза"),
]

CONTAINS_AND_AMBIGUOUS = [
    ("Котяра",                "none"),              # contains Кот, is not Кот
    ("Котлета",               "none"),
    ("Лисичка",               "none"),              # contains Лис
    ("Котики",                "near Котик"),        # one letter off Котик: flagged
    ("Лисам",                 "none"),
    ("Кот-Баюн",              "exact Кот-Баюн"),
    ("Кот Баюн",              "near Кот-Баюн"),
    ("Сова",                  "none"),
    ("Сова-3",                "ambiguous Сова-1/Сова-2"),
    ("Лис",                   "exact Лис"),         # exact wins over «Лиса» (gen. of Лис)
    ("Лиса",                  "exact Лиса"),
    ("Кот",                   "exact Кот"),
    ("Котик",                 "exact Котик"),       # exact wins over the near Kotik
    ("Пуаро",                 "none"),
    ("Ночи",                  "none"),              # a word of a nick is not the nick
    ("Тень",                  "none"),
    ("Доктор",                "none"),
    ("Хауса",                 "none"),
]

ROWS = CASE_FORMS + PREPOSITIONS + LOOKALIKES_AND_TYPOS + CONTAINS_AND_AMBIGUOUS


@pytest.mark.parametrize(("typed", "want"), ROWS, ids=[r[0] for r in ROWS])
def test_v2_nick_case_forms_prepositions_lookalikes(typed: str, want: str) -> None:
    assert reading(ROSTER.match(typed)) == want


def test_v2_nick_case_tables_are_large_enough() -> None:
    assert len(ROWS) + len(OTHER_ROWS) >= 100


def test_v2_case_forms_are_opt_in() -> None:
    """Without ``case_forms`` (a forum username, the host's word) «Лисой» is nobody; a
    long enough case form is at most one typo away (near, flagged)."""
    plain = Roster(PLAYERS)
    assert plain.match("Лисой").how == "none"
    assert plain.match("Шерлока").how == "near"


def test_v2_flagged_readings() -> None:
    assert ROSTER.match("Кота").flagged and ROSTER.match("Шерлак").flagged
    assert not ROSTER.match("Kоtik").flagged and not ROSTER.match("за Шерлок").flagged
    assert "другом падеже" in ROSTER.match("Кота").explain()


# free text                                  nicks named (find_named), in order
NAMED = [
    ("Проверяю Кота",                          ["Кот"]),
    ("Сегодня лечу Грозу, а завтра Ведьму",    ["Гроза", "Ведьма"]),
    ("Котик и Кот-Баюн",                       ["Котик", "Кот-Баюн"]),
    ("Котяра спит",                            []),
    ("у Кот-Баюна",                            []),
    ("Засада на Тени Ночи",                    ["Тень Ночи"]),
    ("Проверяю Лису",                          ["Лис/Лиса"]),
    ("Mr. Smith и Смит",                       ["Mr. Smith"]),
    ("Kotika проверю",                         ["Kotik"]),
    ("Cнежок и Снежка",                        ["Снежок", "Снежок"]),
    ("Кот_1 пишет",                            []),
]


@pytest.mark.parametrize(("text", "want"), NAMED, ids=[r[0] for r in NAMED])
def test_v2_nicks_named_in_free_text(text: str, want: list[str]) -> None:
    got = [h.nick or "/".join(h.candidates) for h in ROSTER.find_named(text)]
    assert got == want


# A second roster; each row written with the host's reading before the reader ran on it.
OTHER = Roster(("Волк", "Ласточка", "Дракон", "Медведь", "Рыжая", "Звезда", "Филин", "Пётр",
                "Анна", "Игорь", "Серый Волк", "Ночной Дозор", "Лёва", "Лев"), case_forms=True)
OTHER_ROWS = [
    ("Волка",                 "case Волк"),
    ("Серого Волка",          "case Серый Волк"),
    ("Ласточку",              "case Ласточка"),
    ("Дракону",               "case Дракон"),
    ("Медведя",               "case Медведь"),
    ("Рыжую",                 "case Рыжая"),        # an adjective, feminine
    ("Рыжей",                 "case Рыжая"),
    ("Звезде",                "case Звезда"),
    ("Филином",               "case Филин"),
    ("Петра",                 "case Пётр"),         # ё drops out of the stem
    ("Анну",                  "case Анна"),
    ("Игорем",                "case Игорь"),
    ("Ночного Дозора",        "case Ночной Дозор"),
    ("Лёву",                  "case Лёва"),         # not the coin «лев» (леву): a person
    ("Лева",                  "exact Лёва"),
    ("Льва",                  "case Лев"),
    ("Льву",                  "case Лев"),
    ("Львом",                 "case Лев"),
    ("у Анны",                "case Анна (у)"),
    ("с Игорем",              "case Игорь (с)"),
    ("Волчара",               "none"),              # contains Волк's stem, is not Волк
]


@pytest.mark.parametrize(("typed", "want"), OTHER_ROWS, ids=[r[0] for r in OTHER_ROWS])
def test_v2_nick_cases_on_another_roster(typed: str, want: str) -> None:
    assert reading(OTHER.match(typed)) == want
