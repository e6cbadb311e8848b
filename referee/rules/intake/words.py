"""The small words around a night request: what the reader skips, joins or stops at.

The action words themselves, the words of a change (N1), a take-back, the clan's executor
(N5), hesitation and the openers of a sentence are data a host can read: the tables of
``vocabulary.toml`` (:mod:`referee.rules.intake.vocabulary`, docs/rules.md «Словарь заявок»). Here:
filler words skipped before a nick, the words that name the sender himself, what joins a
second nick, the role that an action word of a family stands for (:func:`action_for`) and
the example a role is shown when nothing could be read (:func:`expected`).
"""

from __future__ import annotations

import re

from referee.core.roles import EXAMPLE_OF_ROLE, request_actions

# A family of action words maps to actions; the sender's role picks one of them
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
ACTION_FAMILY = {a: fam for fam, acts in _FAMILY_ACTIONS.items() for a in acts}
"""Action id → the table of words that asks for it."""

NA_RE = re.compile(r"(?<!\w)на(?!\w)")
# «Не проверяю», «не буду проверять», «не стану стрелять»: a negation just before the verb.
NEG_RE = re.compile(
    r"(?<!\w)не\s+(?:(?:буду|будем|стану|станем|хочу|хотим|надо|нужно|могу|можем"
    r"|собираюсь|собираемся)\s+)?$"
)
WORD_RE = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")
TOKEN_RE = re.compile(r"\S+")

SENTENCE_END = ".!?;…"
SKIP_CHARS = " \t:,-—–«»\"'()*„“”`=>→⇒"
SEPARATOR_CHARS = ",+&/"
FILLERS = frozenset(
    {"в", "во", "на", "к", "ко", "у", "себе", "игрока", "игрок", "ника", "ник",
     "пользователя", "персонажа", "пожалуй", "пожалуйста", "сегодня", "этой",
     "эту", "ночью", "тогда", "все-таки", "всетаки", "давай", "давайте", "плиз",
     "итак", "мы", "цели", "вместе", "с", "со", "беседу", "беседы", "по", "за", "ка",
     "его", "ее", "её", "мне", "нам", "бы", "уже", "сразу", "точно", "однозначно",
     "это", "наша", "наш", "моя", "мой", "будет", "будем", "буду", "собой", "под", "роль",
     "роли", "прямо", "насмерть", "ночь", "для", "сегодняшнюю", "эээ", "ээ", "эм", "ммм",
     "мм", "хм", "я", "вот", "этого", "этот", "нашего", "нашу"}
)
SELF_TARGET = frozenset({"себя", "меня", "сам", "сама", "самого"})
SELF_EXECUTOR = frozenset({"я", "сам", "сама", "себя", "меня", "мой", "моя"})
SECOND_TARGET_WORDS = frozenset({"и", "а", "также", "плюс"})

# «Проверяю Kotik и Лиса»: what joins a second nick to a one-target action.
ANOTHER_TARGET_RE = re.compile(r"\s*(?:(?:и|или|либо)(?:\s+же)?(?!\w)|[+/])\s*")
# «Re: Проверка»: the reply prefix of a subject.
REPLY_PREFIX_RE = re.compile(r"^\s*(?:re|ответ)\s*:\s*", re.IGNORECASE)


def action_for(family: str, role: str | None) -> str | None:
    """The action an action word of ``family`` stands for when ``role`` writes it, if the
    role may request it (:func:`referee.core.roles.request_actions`)."""
    allowed = request_actions(role)
    for action in _FAMILY_ACTIONS.get(family, ()):
        if action in allowed:
            return action
    return None


def expected(role: str | None) -> str:
    """« (ожидается, например, «Проверяю Ник»)» for a role that sends requests, else ""."""
    ex = EXAMPLE_OF_ROLE.get(role or "")
    return f" (ожидается, например, «{ex}»)" if ex else ""
