"""Who has won (docs/rules.md W1, W2, N15.14): the game's result as a value, not a string."""

from __future__ import annotations

from dataclasses import dataclass

from referee.config.game import NightRules
from referee.core.roles import DEFAULT_CLAN, Side
from referee.rules.night.state import GameState

WINNER_RU: dict[Side, str] = {"town": "мирные жители", "maniac": "маньяк"}


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended: the side that won (``clan`` names the clan when a clan won), or
    nobody — ``side`` is ``None`` — when nobody is left alive (N15.14: «ничья»).

    A game that goes on has no result: :func:`winner` returns ``None`` then."""

    side: Side | None
    clan: str | None = None

    @property
    def is_draw(self) -> bool:
        return self.side is None

    @property
    def rule(self) -> str:
        return "N15.14" if self.is_draw else "W2"

    @property
    def token(self) -> str:
        """The result as the JSON outputs write it: ``town``, ``maniac``, ``clan:<name>``,
        or ``draw`` (N15.15)."""
        if self.side is None:
            return "draw"
        if self.side == "clan":
            return f"clan:{self.clan}"
        return self.side

    def winner_ru(self) -> str:
        """Who won, in the host's words («мафиозный клан «A»»); «никто» for a draw."""
        if self.side is None:
            return "никто"
        if self.side == "clan":
            # A clan the host did not name has the key "mafia": the players know it as «мафия».
            if not self.clan or self.clan == DEFAULT_CLAN:
                return "мафия"
            return f"мафиозный клан «{self.clan}»"
        return WINNER_RU[self.side]

    def outcome_ru(self) -> str:
        """«победа — мирные жители», or «ничья — в живых не осталось никого» (N15.14)."""
        if self.side is None:
            return "ничья — в живых не осталось никого"
        return f"победа — {self.winner_ru()}"

    def explain(self) -> str:
        """The end of the game as the summaries announce it (W2, N15.14)."""
        return f"Игра окончена: {self.outcome_ru()}."


TOWN_WINS = GameResult("town")
MANIAC_WINS = GameResult("maniac")
DRAW = GameResult(None)


def clan_wins(clan: str) -> GameResult:
    return GameResult("clan", clan)


def winner(state: GameState, rules: NightRules) -> GameResult | None:
    """W2, checked in this order:

    - N15.14: nobody alive — the game is over with no winner (:data:`DRAW`);
    - the maniac wins when he is alone, or alone with one other player;
    - the town wins when every clan member and the maniac are dead and a town player lives
      (N15.14: a clan's ВСБ is town, so a ВСБ left alone wins with the town);
    - a clan wins when only its members (and its own ВСБ) are alive; with
      ``clan_wins_at_parity`` also when no other clan member and no maniac is alive and its
      members are at least as many as the others (its own ВСБ not counted against it).

    ``None`` while the game goes on."""
    alive = state.alive
    if not alive:
        return DRAW
    maniacs = [n for n in alive if state.side_of(n) == "maniac"]
    clan_alive = [n for n in alive if state.side_of(n) == "clan"]
    if len(maniacs) == 1 and len(alive) <= 2:
        return MANIAC_WINS
    if not maniacs and not clan_alive:
        return TOWN_WINS
    if maniacs:
        return None
    for clan in state.clans:
        members = state.clan_members(clan)
        if not members or any(state.clan_of(n) != clan for n in clan_alive):
            continue
        others = [
            n for n in alive
            if n not in members
            and not (state.role_of(n) == "boss_son" and state.clan_of(n) == clan)
        ]
        if not others or (rules.clan_wins_at_parity and len(members) >= len(others)):
            return clan_wins(clan)
    return None
