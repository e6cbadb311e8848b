"""Who has won (RULES.md W1, W2)."""

from __future__ import annotations

from referee.config import NightRules
from referee.night.state import GameState


def winner(state: GameState, rules: NightRules) -> str | None:
    """W2, checked in this order:

    - the maniac wins when he is alone, or alone with one other player;
    - the town wins when every clan member and the maniac are dead and a town player lives;
    - a clan wins when only its members (and its own ВСБ) are alive; with
      ``clan_wins_at_parity`` also when no other clan member and no maniac is alive and its
      members are at least as many as the others (its own ВСБ not counted against it).

    ``None`` while the game goes on — and when nobody is left (nobody wins)."""
    alive = state.alive
    maniacs = [n for n in alive if state.side_of(n) == "maniac"]
    clan_alive = [n for n in alive if state.side_of(n) == "clan"]
    town_alive = [n for n in alive if state.side_of(n) == "town"]
    if maniacs and len(maniacs) == 1 and len(alive) <= 2:
        return "maniac"
    if not maniacs and not clan_alive:
        return "town" if town_alive else None
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
            return f"clan:{clan}"
    return None
