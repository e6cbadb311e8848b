"""The game between two phases: who is alive, who holds which role, which one-time powers
are spent. Immutable: every phase returns a new :class:`GameState`.

Like a chess position, the state holds only what the next phase's rules need to know
(last targets for the «not twice in a row» rules, spent powers, the ninja's pending
testament); everything else lives in the event log of the phase that produced it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from referee.config.game import Player
from referee.core.errors import GameError
from referee.core.roles import CLAN_ROLES, DEFAULT_CLAN, ROLE_IDS, Side, side_of_role


def _frozen(mapping: Mapping[str, object] | None = None) -> Mapping:
    return MappingProxyType(dict(mapping or {}))


def _empty() -> Mapping:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Death:
    """A player who left the game, with every cause (N2: deaths are reported with causes).

    ``causes`` are short tokens ``kind:who`` — ``mafia:<clan>``, ``maniac:<nick>``,
    ``ambush:<maniac>``, ``kamikaze:<nick>``, ``ninja:<nick>``, ``harakiri:<ninja>``,
    ``testament:<ninja>``, ``hanged``, ``removed:<reason>``.
    """

    player: str
    causes: tuple[str, ...]
    phase: str = ""


@dataclass(frozen=True, slots=True)
class Protection:
    """N9: the necromancer's two named players; one resurrection in all.

    ``from_night`` is the first night it works: the night of the turn it was named in."""

    necromancer: str
    targets: tuple[str, str]
    from_night: int
    spent: bool = False


@dataclass(frozen=True, slots=True)
class Testament:
    """N11: the ninja was hanged on ``day``; his voters, in voting order, wait for the night."""

    ninja: str
    day: int
    voters: tuple[str, ...]


@dataclass(frozen=True)
class GameState:
    """Everything the night and day rules need, between two phases.

    ``players`` keeps the roster as dealt (order = roster order, which makes every loop
    deterministic). Current roles differ from dealt ones only by promotion (N12).
    """

    players: tuple[Player, ...]
    graveyard: tuple[Death, ...] = ()
    promoted: frozenset[str] = frozenset()
    """N12: sergeants who now carry the commissar's badge."""
    last_targets: Mapping[str, tuple[int, str]] = field(default_factory=_empty)
    """N3, N4, N8: actor → (night, target) of the last accepted take/beat/heal."""
    last_ambush: Mapping[str, int] = field(default_factory=_empty)
    """N6: maniac → the last night he sat in ambush."""
    kamikaze_used: frozenset[str] = frozenset()
    """N7: kamikazes whose one blast has gone off."""
    ninja_misses: Mapping[str, int] = field(default_factory=_empty)
    """N10: ninja → town players killed so far (misses)."""
    changes_used: Mapping[str, int] = field(default_factory=_empty)
    """N1: requester (a nick, or ``clan:<name>``) → request changes used in this game."""
    protections: tuple[Protection, ...] = ()
    """N9: named protections (spent ones stay, so a second naming can be refused)."""
    testament: Testament | None = None
    """N11: a pending ninja testament, carried out in the night of the same turn."""
    _index: Mapping[str, Player] = field(
        default_factory=_empty, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", MappingProxyType({p.nick: p for p in self.players}))

    # ----------------------------------------------------------------- building

    @classmethod
    def new(cls, players: Sequence[Player]) -> GameState:
        """The state before Day 1: everybody alive, nothing spent.

        Raises :class:`GameError` for a repeated nick or an unknown role id. A clan role or
        ВСБ without a clan joins clan ``mafia`` (the ``referee.toml`` default)."""
        seen: set[str] = set()
        roster: list[Player] = []
        for p in players:
            if not p.nick or not p.nick.strip():
                raise GameError("у игрока пустой ник", "дайте каждому игроку ник")
            if p.nick in seen:
                raise GameError(
                    f"игрок {p.nick!r} указан дважды", "укажите каждого игрока в составе один раз"
                )
            if p.role not in ROLE_IDS:
                raise GameError(
                    f"у игрока {p.nick!r} неизвестная роль {p.role!r}",
                    "напишите одну из: " + ", ".join(ROLE_IDS),
                )
            seen.add(p.nick)
            clan = p.clan
            if clan is None and (p.role in CLAN_ROLES or p.role == "boss_son"):
                clan = DEFAULT_CLAN
            if p.role not in CLAN_ROLES and p.role != "boss_son":
                clan = None
            roster.append(Player(p.nick, p.role, clan))
        if not roster:
            raise GameError("состав игроков пуст", "перечислите игроков этой игры")
        return cls(players=tuple(roster))

    def evolve(self, **changes: object) -> GameState:
        """A copy with some fields changed (mappings are frozen on the way in)."""
        for key, value in list(changes.items()):
            if isinstance(value, dict):
                changes[key] = _frozen(value)
        return replace(self, **changes)  # type: ignore[arg-type]

    # ----------------------------------------------------------------- questions

    def has(self, nick: str | None) -> bool:
        return nick is not None and nick in self._index

    def player(self, nick: str) -> Player:
        try:
            return self._index[nick]
        except KeyError:
            raise GameError(
                f"{nick!r} — не игрок этой игры", "сверьте ник со списком игроков"
            ) from None

    @property
    def nicks(self) -> tuple[str, ...]:
        return tuple(p.nick for p in self.players)

    @property
    def dead(self) -> frozenset[str]:
        return frozenset(d.player for d in self.graveyard)

    @property
    def alive(self) -> tuple[str, ...]:
        """Living players in roster order."""
        dead = self.dead
        return tuple(p.nick for p in self.players if p.nick not in dead)

    def is_alive(self, nick: str | None) -> bool:
        return self.has(nick) and nick not in self.dead

    def dealt_role_of(self, nick: str) -> str:
        return self.player(nick).role

    def role_of(self, nick: str) -> str:
        """The role the player holds now: a promoted sergeant is a commissar (N12)."""
        if nick in self.promoted:
            return "commissar"
        return self.player(nick).role

    def clan_of(self, nick: str) -> str | None:
        """The clan of a clan member or of a ВСБ (whose clan knows him, N13)."""
        return self.player(nick).clan

    def side_of(self, nick: str) -> Side:
        return side_of_role(self.dealt_role_of(nick))

    def death_of(self, nick: str) -> Death | None:
        for d in self.graveyard:
            if d.player == nick:
                return d
        return None

    @property
    def clans(self) -> tuple[str, ...]:
        """Clan names in roster order (W2)."""
        out: list[str] = []
        for p in self.players:
            if p.role in CLAN_ROLES and p.clan and p.clan not in out:
                out.append(p.clan)
        return tuple(out)

    def clan_members(self, clan: str, *, living: bool = True) -> tuple[str, ...]:
        """Members of a clan (mafia, thug, kamikaze — not the ВСБ, who is town, W1)."""
        pool = self.alive if living else self.nicks
        return tuple(
            n for n in pool if self.player(n).role in CLAN_ROLES and self.player(n).clan == clan
        )

    def with_role(self, role: str, *, living: bool = True) -> tuple[str, ...]:
        pool = self.alive if living else self.nicks
        return tuple(n for n in pool if self.role_of(n) == role)

    def changes_left(self, requester: str, limit: int) -> int:
        """N1: request changes this requester may still make in the game."""
        return max(0, limit - self.changes_used.get(requester, 0))

    def active_protections(self, night: int) -> tuple[Protection, ...]:
        """N9: protections that work on this night (named before it, not spent, the
        necromancer alive when the night begins)."""
        return tuple(
            p for p in self.protections
            if not p.spent and p.from_night <= night and self.is_alive(p.necromancer)
        )

    # ----------------------------------------------------------------- changes

    def bury(self, deaths: Iterable[Death]) -> GameState:
        """Add deaths; a dead commissar's badge passes to a sergeant (N12)."""
        new = tuple(d for d in deaths if self.is_alive(d.player))
        if not new:
            return self
        state = self.evolve(graveyard=self.graveyard + new)
        return state.promote_sergeant()

    def promote_sergeant(self) -> GameState:
        """N12: when no living player holds the commissar's badge, the first living sergeant
        (roster order) takes it. The caller applies this after a phase's deaths, so the new
        commissar checks from the next night on."""
        had_commissar = any(self.role_of(n) == "commissar" for n in self.nicks)
        if not had_commissar or self.with_role("commissar"):
            return self
        sergeants = self.with_role("sergeant")
        if not sergeants:
            return self
        return self.evolve(promoted=self.promoted | {sergeants[0]})
