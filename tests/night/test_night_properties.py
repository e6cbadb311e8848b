"""Property tests over random nights (hypothesis): whatever the players send, the dead never
act, nobody dies twice, every death has a cause, no request is silently dropped, and the
log depends only on the state and the requests (in sending order)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from nighttable import roster

from referee.config.game import NightRules
from referee.core.roles import ACTION_OF_ROLE, ACTIONS
from referee.rules.actions import Request
from referee.rules.night import GameState, NightOutcome, apply_day, resolve_night
from referee.rules.night.events import (
    AmbushSet,
    Beaten,
    ChangeIgnored,
    Event,
    RequestChanged,
    Took,
)
from referee.rules.night.kills import Attack, CheckResult, Healed

PLAYERS = roster(
    "Pr=priest, Kom=commissar, Ser=sergeant, Nin=ninja, Doc=doctor, Necro=necromancer, "
    "Bob, Ann, Don=mafia/A, Vito=mafia/A, ThugA=thug/A, KamiA=kamikaze/A, SonA=boss_son/A, "
    "Carlo=mafia/B, ThugB=thug/B, KamiB=kamikaze/B, SonB=boss_son/B, Jack=maniac"
)
NICKS = [p.nick for p in PLAYERS]
RULES = NightRules()


@st.composite
def a_request(draw: st.DrawFn, state: GameState, order: int) -> Request:
    """Mostly sensible requests from living players, with a share of nonsense (dead actors,
    wrong roles, self-targets, unknown nicks) that the engine must reject, not crash on."""
    pool = list(state.alive) if draw(st.integers(0, 9)) else NICKS
    actor = draw(st.sampled_from(pool))
    own = ACTION_OF_ROLE.get(state.role_of(actor), ())
    action = draw(st.sampled_from(own)) if own and draw(st.integers(0, 9)) else draw(
        st.sampled_from(ACTIONS)
    )
    targets_pool = [*NICKS, "Nobody"]
    if action == "protect":
        size = draw(st.sampled_from([2, 2, 2, 1, 3]))
        return Request(actor, action, targets=tuple(draw(
            st.lists(st.sampled_from(targets_pool), min_size=size, max_size=size)
        )), order=order)
    target = None if action == "ambush" else draw(st.sampled_from(targets_pool))
    executor = None
    if action == "shoot":
        clan = state.clan_of(actor)
        mates = [n for n in NICKS if state.clan_of(n) == clan and n not in ("SonA", "SonB")]
        executor = draw(
            st.one_of(st.none(), st.sampled_from(mates or NICKS), st.sampled_from(NICKS))
        )
    return Request(actor, action, target, executor=executor, order=order)


@st.composite
def night_requests(draw: st.DrawFn, state: GameState) -> list[Request]:
    n = draw(st.integers(0, 14))
    return [draw(a_request(state, i)) for i in range(n)]


def actors_of(e: Event) -> list[str]:
    """Who acted in this event (the hanged ninja's testament is not an action)."""
    if isinstance(e, Took):
        return [e.priest]
    if isinstance(e, Beaten):
        return [e.thug]
    if isinstance(e, Healed):
        return [e.doctor]
    if isinstance(e, CheckResult):
        return [e.by]
    if isinstance(e, AmbushSet):
        return [e.maniac]
    if isinstance(e, Attack) and e.kind not in ("testament", "ambush"):
        return [e.by]
    return []


def referenced(out: NightOutcome) -> list[Request]:
    refs: list[Request] = []
    for e in out.events:
        if isinstance(e, RequestChanged):
            refs += [e.old, e.new]
        elif isinstance(e, ChangeIgnored):
            refs += [e.request, e.kept]
        elif getattr(e, "request", None) is not None:
            refs.append(e.request)
    return refs


def check_night(before: GameState, n: int, reqs: list[Request], out: NightOutcome) -> None:
    alive = set(before.alive)
    # the dead never act, and nothing lands on the dead
    for e in out.events:
        assert set(actors_of(e)) <= alive, e
        if isinstance(e, Attack):
            assert e.target in alive, e
    # nobody dies twice; every death has a cause
    died = [d.player for d in out.deaths]
    assert len(died) == len(set(died))
    assert set(died) <= alive
    assert all(d.causes for d in out.deaths)
    assert set(out.state.alive) == alive - set(died)
    # never silently dropped (N14): every request shows up in the log
    refs = referenced(out)
    for r in reqs:
        assert r in refs, r
    # deterministic: same state and requests, in any list order, give the same log
    again = resolve_night(before, n, list(reversed(reqs)), RULES)
    assert again.events == out.events
    assert again.explain() == out.explain()
    assert again.state == out.state


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_games_keep_the_invariants(data: st.DataObject) -> None:
    state = GameState.new(PLAYERS)
    for turn in range(1, 5):
        alive = list(state.alive)
        if len(alive) < 2:
            break
        hanged = data.draw(st.one_of(st.none(), st.sampled_from(alive)), label="hanged")
        voters = data.draw(st.lists(st.sampled_from(NICKS), max_size=5, unique=True))
        day_reqs = data.draw(night_requests(state), label="day requests")
        state, _ = apply_day(state, turn, hanged, voters, requests=day_reqs, rules=RULES)
        reqs = data.draw(night_requests(state), label=f"night {turn}")
        out = resolve_night(state, turn, reqs, RULES)
        check_night(state, turn, reqs, out)
        state = out.state
    graveyard = [d.player for d in state.graveyard]
    assert len(graveyard) == len(set(graveyard))
