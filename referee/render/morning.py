"""What the players learn after a night: the public morning report (BBCode) and the private
PMs (the commissar's and sergeant's results, the ninja's and necromancer's notices).

The public report says who died and, if the setting says so, their role — never how they
died, who was saved or who visited whom: that is for the host's log only. It says when the
game is over: who won, or that nobody is left (N15.14, a draw).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.config.game import NightRules
from referee.core import bbcode
from referee.core.roles import role_ru
from referee.rules.night import GameState, NightOutcome, winner
from referee.rules.night.kills import NINJA_MISS_LIMIT, NinjaMiss, Protected


def role_title(state: GameState, nick: str) -> str:
    """The role as revealed: a promoted sergeant shows both (N12)."""
    dealt = state.dealt_role_of(nick)
    now = state.role_of(nick)
    if dealt != now:
        return f"{role_ru(dealt)}, получивший значок комиссара"
    return role_ru(dealt)


def morning_report(outcome: NightOutcome, state: GameState, rules: NightRules,
                   leaving: Sequence[Mapping[str, Any]] = (), reveal_removed: bool = True
                   ) -> str:
    """N2: the morning summary for the game topic, in BBCode. Nicks are escaped. A3: it
    names the players who leave with the start of the next day for a silent turn
    (``leaving``); ``state`` is the game after them."""
    lines = [bbcode.b(f"Утро после ночи {outcome.night}")]

    def dead(nick: str) -> str:
        line = bbcode.b(bbcode.escape(nick))
        if rules.reveal_role_on_death:
            line += f" — {role_title(outcome.before, nick)}"
        return line

    # The nick stands after the colon, where its form never changes; the verb agrees in
    # number and keeps the neutral gender form («погиб(ла)»), as every public text does.
    if len(outcome.deaths) == 1:
        lines.append(f"Этой ночью погиб(ла): {dead(outcome.deaths[0].player)}")
    elif outcome.deaths:
        lines.append(f"Этой ночью погибли ({len(outcome.deaths)}):")
        lines += [f"• {dead(d.player)}" for d in outcome.deaths]
    else:
        lines.append("Этой ночью никто не погиб.")
    if leaving:
        lines.append(f"С началом дня {outcome.night + 1} покидают игру (ни одного сообщения "
                     f"в теме за ход {outcome.night}):")
        for r in leaving:
            line = bbcode.b(bbcode.escape(r["nick"]))
            if reveal_removed:
                line += f" — {role_title(outcome.state, r['nick'])}"
            lines.append(f"• {line}")
    result = winner(state, rules)
    if result is not None:
        lines.append(bbcode.b(bbcode.escape(result.explain())))
    return "\n".join(lines)


def private_results(outcome: NightOutcome) -> list[tuple[str, str]]:
    """PMs to send after the night, as (recipient, BBCode text), living recipients only.

    - N12: every check result to the commissar and to each sergeant;
    - N10: the ninja's miss count after a miss;
    - N9: the necromancer, when his protection saved someone (it is now spent)."""
    before, after, n = outcome.before, outcome.state, outcome.night
    out: list[tuple[str, str]] = []
    sergeants = before.with_role("sergeant")
    for c in outcome.checks:
        text = (
            f"Ночь {n}, проверка (комиссар — {bbcode.escape(c.by)}): "
            f"{bbcode.b(bbcode.escape(c.target))} — {role_ru(c.result)}."
        )
        for recipient in (c.by, *sergeants):
            if after.is_alive(recipient):
                out.append((recipient, text))
    for e in outcome.events:
        if isinstance(e, NinjaMiss) and after.is_alive(e.ninja):
            out.append((e.ninja, (
                f"Ночь {n}: ваша жертва была мирной — промах {e.misses} из {NINJA_MISS_LIMIT}."
            )))
        if isinstance(e, Protected) and after.is_alive(e.necromancer):
            out.append((e.necromancer, (
                f"Ночь {n}: ваша защита сработала, в живых остаётся: "
                f"{bbcode.escape(e.player)}. Воскрешение израсходовано."
            )))
    return out
