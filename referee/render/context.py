"""What a text needs to know of the game besides its own facts, as plain values: the board's
address and time zone, the roster's roles, and whether roles are revealed."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import tzinfo
from zoneinfo import ZoneInfo

from referee.config.game import Config, NightRules


@dataclass(frozen=True, slots=True)
class Context:
    """The plain settings every renderer takes (never the whole ``Config``)."""

    tz: tzinfo = field(default_factory=lambda: ZoneInfo("UTC"))
    tz_name: str = "UTC"
    """The forum's time zone as the host wrote it (shown beside times)."""
    topic_url: str | None = None
    """The game topic (links to posts are made from it)."""
    roles: Mapping[str, str] = field(default_factory=dict)
    """nick → role id of the roster."""
    reveal_role_on_hanging: bool = True
    reveal_role_on_removal: bool = True
    night: NightRules = field(default_factory=NightRules)

    @property
    def roles_revealed_on_hanging(self) -> Mapping[str, str] | None:
        """The roles a hanging reveals (V6 setting), or None."""
        return self.roles if self.reveal_role_on_hanging else None

    @classmethod
    def of(cls, config: Config) -> Context:
        return cls(
            tz=config.tz, tz_name=config.forum.board.timezone, topic_url=config.forum.board.url,
            roles={p.nick: p.role for p in config.players if p.role_given},
            reveal_role_on_hanging=config.votes.reveal_role_on_hanging,
            reveal_role_on_removal=config.activity.reveal_role_on_removal,
            night=config.night,
        )
