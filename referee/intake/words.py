"""The Russian vocabulary of night requests: the words players write to the host.

Action words come in families (a verb like «проверяю», a noun like «Проверка:», «Засада»);
the sender's role picks the action a family stands for (:func:`action_for`). Around them:
the words of a change (N1) and of an executor (N5), filler words skipped before a nick,
words that may open a sentence before an action word, a nick typed in another
case (:func:`inflects`, by :mod:`referee.morphology`), and the example a role is shown when
nothing could be read (:func:`expected`, from the role vocabulary :mod:`referee.roles`).
"""

from __future__ import annotations

import re

from referee.morphology import word_case_forms
from referee.nicks import fold, normalise
from referee.roles import EXAMPLE_OF_ROLE, request_actions

# Families of action words. A family maps to actions; the sender's role picks one of them
# («Убиваю» is a mafia shot for a mafioso, a kill for the maniac or the ninja).
_FAMILY_ACTIONS: dict[str, tuple[str, ...]] = {
    "check": ("check",),
    "heal": ("heal",),
    "strike": ("shoot", "kill"),
    "beat": ("beat",),
    "take": ("take",),
    "ambush": ("ambush",),
    "blow": ("blow",),
    "protect": ("protect",),
}

# Order matters where two patterns start at the same place: the executor's «стрелять
# будет» before the strike's «стрелять», a change before everything.
_FAMILIES: tuple[tuple[str, str], ...] = (
    ("change", r"меня(?:ю|ем)|поменя(?:ю|ем)|сменю|сменим|изменя(?:ю|ем)|исправление"
               r"|исправляю|передумал[аи]?"),
    ("executor", r"исполнител(?:ь|ем|я)|исполняет|исп\.|стреляет|стрелять\s+будет"
                 r"|стреляющий"),
    ("check", r"провер(?:яю|яем|ю|им|ка|ь|ьте|ить)"),
    ("heal", r"леч(?:у|им|ение|ить)|вылеч(?:у|им|и)|спаса(?:ю|ем)|хилю|хилим"),
    ("strike", r"стреля(?:ю|ем)|стрелять|выстрел(?:им)?|пристрелим|убива(?:ю|ем)|убь(?:ю|ем)"
               r"|убить|убийство"),
    ("beat", r"бью|бьем|избива(?:ю|ем)|избить|изобью|побью|избиение"),
    ("take", r"забира(?:ю|ем)|заберу|забрать|беру"),
    ("ambush", r"засад(?:а|у|е|ой)"),
    ("blow", r"взрыва(?:ю|ем)|подрыва(?:ю|ем)|взрываюсь|подрываюсь|взорву|подорву|взорвать"
             r"|подорвать|взрыв|подрыв"),
    ("protect", r"защища(?:ю|ем)|защищу|защита|воскреша(?:ю|ем)|воскрешу|воскрешение"
                r"|протект"),
    # «Цель: Kotik» — the role's one targeted action; only where it opens a sentence.
    ("aim", r"цель|мишень"),
)
HIT_RE = re.compile(
    "|".join(rf"(?P<{fam}>(?<!\w)(?:{pat})(?!\w))" for fam, pat in _FAMILIES)
)
# Action words that are nouns: allowed between «меняю» and «на» («меняю засаду на …»).
NOUN_HITS = frozenset(
    {"проверка", "лечение", "выстрел", "убийство", "избиение", "взрыв", "подрыв", "защита",
     "воскрешение", "засада", "засаду", "засаде", "засадой", "исполнителя", "исполнитель",
     "исполнителем", "цель", "мишень"}
)
# What a change replaces («меняю ПРОВЕРКУ на …»), by family.
CHANGE_NOUNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (fam, re.compile(rf"(?<!\w)(?:{pat})")) for fam, pat in (
        ("executor", r"исполнител|стреляющ"),
        ("check", r"провер|чек"),
        ("heal", r"лечени|леч|хил"),
        ("strike", r"выстрел|убийств|стрел|убив"),
        ("beat", r"избиени|бь|избив"),
        ("take", r"гост|забир"),
        ("ambush", r"засад"),
        ("blow", r"взрыв|подрыв"),
        ("protect", r"защит|воскреш|протект"),
    )
)
NA_RE = re.compile(r"(?<!\w)на(?!\w)")
NEG_RE = re.compile(r"(?<!\w)не\s*$")
SKIP_RE = re.compile(r"пропуска|без\s+хода|никого\s+не|не\s+хожу|не\s+буду\s+ходить")
WORD_RE = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
TOKEN_RE = re.compile(r"\S+")

SENTENCE_END = ".!?;…"
SKIP_CHARS = " \t:,-—–«»\"'()*„“”`"
SEPARATOR_CHARS = ",+&/"
FILLERS = frozenset(
    {"в", "во", "на", "к", "ко", "у", "себе", "игрока", "игрок", "ника", "ник",
     "пользователя", "персонажа", "пожалуй", "пожалуйста", "наверное", "сегодня", "этой",
     "эту", "ночью", "тогда", "лучше", "все-таки", "всетаки", "давай", "давайте", "плиз",
     "итак", "мы", "цели", "вместе", "с", "со", "беседу", "беседы"}
)
# Words that may open a sentence before an action word without making it chat.
LEAD_WORDS = frozenset(
    {"я", "мы", "ну", "итак", "так", "тогда", "ок", "окей", "хорошо", "сегодня", "этой",
     "ночью", "ночь", "привет", "исправление", "пожалуй", "наверное", "а", "и", "но", "все",
     "всё", "ладно", "значит", "короче"}
)
SELF_TARGET = frozenset({"себя", "меня"})
SELF_EXECUTOR = frozenset({"я", "сам", "сама", "себя", "меня"})
SECOND_TARGET_WORDS = frozenset({"и", "а", "также", "плюс"})

# «Проверяю Kotik и Лиса»: what joins a second nick to a one-target action.
ANOTHER_TARGET_RE = re.compile(r"\s*(?:(?:и|или)(?!\w)|[+/])\s*")
# «Re: Проверка»: the reply prefix of a subject.
REPLY_PREFIX_RE = re.compile(r"^\s*(?:re|ответ)\s*:\s*", re.IGNORECASE)


def inflects(typed_word: str, nick_word: str) -> bool:
    """«лису» is a case form of «лиса» (:func:`referee.morphology.word_case_forms`, look-alike
    letters folded as for the nicks)."""
    t = fold(typed_word)
    return t == fold(nick_word) or any(
        fold(f) == t for f in word_case_forms(normalise(nick_word)))


def action_for(family: str, role: str | None) -> str | None:
    """The action an action word of ``family`` stands for when ``role`` writes it, if the
    role may request it (:func:`referee.roles.request_actions`)."""
    allowed = request_actions(role)
    for action in _FAMILY_ACTIONS.get(family, ()):
        if action in allowed:
            return action
    return None


def expected(role: str | None) -> str:
    """« (ожидается, например, «Проверяю Ник»)» for a role that sends requests, else ""."""
    ex = EXAMPLE_OF_ROLE.get(role or "")
    return f" (ожидается, например, «{ex}»)" if ex else ""
