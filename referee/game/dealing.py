"""The game's roster as ``referee deal`` recorded it, and the deal itself (docs/rules.md Setup).

``[players]`` may list nicks without roles; ``referee deal`` gives the roles and records
them in the database (:class:`referee.rules.decisions.Deal`), and from then on every command
plays with the recorded roster. When ``[players]`` gives roles too and they differ from the
deal, every command stops and lists the differences: two rosters would give two games.
"""

from __future__ import annotations

from dataclasses import replace

from referee.config.game import Config, Player
from referee.core.errors import RequestRefused
from referee.core.roles import role_ru
from referee.rules import decisions
from referee.rules.deal import deal as deal_roles
from referee.rules.decisions import Deal
from referee.store import Store

DEAL_SEED_META = "publish.deal_seed"
"""The seed whose role PMs went out: :data:`referee.host.publish.DEAL_SEED_META` (publish reads
the game's types, so the game does not import it back)."""


def recorded_deal(store: Store) -> Deal | None:
    """The latest deal recorded for the game, if any."""
    deals = decisions.recorded(store, Deal)
    return deals[-1] if deals else None


def _shown(p: Player) -> str:
    return role_ru(p.role) + (f", клан {p.clan}" if p.clan else "")


def roster_differences(config: Config, deal: Deal) -> list[str]:
    """Where ``[players]`` and the recorded deal disagree: nicks on one side only, and roles
    (or clans) typed in the config that the deal gave otherwise."""
    dealt = {p.nick: p for p in deal.players}
    typed = {p.nick: p for p in config.players}
    out = [f"{n}: есть в [players], нет в раздаче" for n in typed if n not in dealt]
    out += [f"{n}: есть в раздаче, нет в [players]" for n in dealt if n not in typed]
    for nick, p in typed.items():
        d = dealt.get(nick)
        if d is not None and p.role_given and (p.role, p.clan) != (d.role, d.clan):
            out.append(f"{nick}: в referee.toml — {_shown(p)}, в раздаче — {_shown(d)}")
    return out


def with_recorded_roster(config: Config, store: Store) -> Config:
    """``config`` playing with the recorded deal's roles; itself when nothing is dealt.

    Refused (listing every difference) when ``[players]`` and the deal disagree."""
    deal = recorded_deal(store)
    if deal is None:
        return config
    diff = roster_differences(config, deal)
    if diff:
        raise RequestRefused(
            f"[players] и записанная раздача (--seed {deal.seed}) расходятся:\n  • "
            + "\n  • ".join(diff),
            "уберите роли из [players] (роли берутся из раздачи) или впишите те же, что "
            "в раздаче; состав игроков — как при раздаче")
    dealt = {p.nick: p for p in deal.players}
    return replace(config, players=tuple(dealt[p.nick] for p in config.players))


def deal_game(config: Config, store: Store, seed: int, *, force: bool = False,
              record: bool = True) -> list[Player]:
    """``referee deal``: roles for ``[players]`` from ``[setup]`` (or the docs/rules.md default),
    recorded as the game's roster. Refused over roles typed in ``[players]`` or a deal
    already recorded, unless ``force``; never after role PMs of another seed went out."""
    sent = store.get_meta(DEAL_SEED_META)
    if sent is not None and sent != str(seed):
        raise RequestRefused(
            f"роли уже разосланы игрокам (--seed {sent}): новая раздача дала бы им вторые роли",
            f"раздача этой игры — --seed {sent}")
    typed = [p.nick for p in config.players if p.role_given]
    if typed and not force:
        raise RequestRefused(
            f"в [players] уже указаны роли ({len(typed)} из {len(config.players)}): "
            "раздача их заменит", "уберите роли из [players] (\"Ник\" = \"\") или "
            "добавьте --force, если раздать заново и нужно")
    players = deal_roles([p.nick for p in config.players], config.setup or None, seed)
    earlier = recorded_deal(store)
    if earlier is not None and earlier.players != tuple(players) and not force:
        raise RequestRefused(
            f"роли уже розданы (--seed {earlier.seed}) и записаны; --seed {seed} даёт другие",
            f"повторите --seed {earlier.seed} или добавьте --force, чтобы раздать заново")
    if record and (earlier is None or earlier.players != tuple(players)):
        decisions.record(store, Deal(seed, tuple(players), "referee deal"))
    return players
