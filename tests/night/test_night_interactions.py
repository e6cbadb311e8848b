"""docs/rules.md N15.1–N15.15 — the interactions the rules text leaves open, as decided.

Each case below is a host's explanation of one decision (or one edge it names) with the
small game that shows it. Every case gives the decided result three ways: the replay
library, ``referee replay`` on the command line, and ``referee resolve-night`` on a game
in the database (votes as posts, requests as PMs to the host).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from dbgame import play_in_database
from interactions import Case, Day, Night, expected, host_reads, night_reads_day, replay_game
from typer.testing import CliRunner

from referee.cli import app
from referee.config.game import NightRules
from referee.core.errors import GameError
from referee.host.replay import replay, replay_text

CASES: tuple[Case, ...] = (
    # ------------------------------------------------------------------ N15.1 thugs
    Case("N15.1", "a chain: the beaten thug does not beat the doctor",
         "ThugA beats ThugB, so ThugB's beating of the doctor never happens: Doc heals Bob "
         "and Tony's shot at Bob fails. Only ThugB is beaten, Doc is not.",
         (Night(1, ("ThugA beat ThugB", "ThugB beat Doc", "Doc heal Bob", "Tony shoot Bob"),
                saved={"Bob": "Doc"},
                says="Громила ThugB: избиение → Doc не исполнено — его избил громила ThugA"),)),
    Case("N15.1", "a chain ending at the kamikaze",
         "ThugB would beat the kamikaze, but ThugA beats ThugB first: KamiA's blast goes off.",
         (Night(1, ("ThugA beat ThugB", "ThugB beat KamiA", "KamiA blow Ann"),
                dead={"Ann": "kamikaze:KamiA", "KamiA": "kamikaze:KamiA"},
                says="его избил громила ThugA"),)),
    Case("N15.1", "a chain ending at the commissar",
         "ThugB would beat the commissar, but ThugA beats ThugB first: Kom gets his check.",
         (Night(1, ("ThugA beat ThugB", "ThugB beat Kom", "Kom check Don"),
                checks={"Don": "mafia"}, says="его избил громила ThugA"),)),
    Case("N15.1", "a loop: thugs who beat each other are all beaten",
         "ThugA and ThugB beat each other: nobody beats first, so both are beaten.",
         (Night(1, ("ThugA beat ThugB", "ThugB beat ThugA"),
                says="громилы избивают друг друга по кругу: ThugB и ThugA — избиты все"),)),
    Case("N15.1", "a beaten thug does not walk into the ambush",
         "ThugB, beaten by ThugA, stays home: he does not visit Jack in ambush and lives.",
         (Night(1, ("Jack ambush", "ThugA beat ThugB", "ThugB beat Jack"),
                says="Громила ThugB: избиение → Jack не исполнено — его избил громила ThugA"),)),
    # ------------------------------------------------------------------ N15.2 priest first
    Case("N15.2", "a beaten priest still holds his guest",
         "Pr takes Jack before ThugA beats Pr: Jack stays with the priest and does not kill; "
         "the beating reaches Jack too.",
         (Night(1, ("Pr take Jack", "Jack kill Bob", "ThugA beat Pr"),
                says="Громила ThugA — избиение священника: Pr; гостя священник уже забрал"),)),
    Case("N15.2", "a shot priest still holds his guest",
         "Pr takes Doc; Don shoots Pr, which reaches Doc too: the priest's take stands, so "
         "Doc's own heal of Pr does not happen and both die.",
         (Night(1, ("Pr take Doc", "Don shoot Pr", "Doc heal Pr"),
                dead={"Pr": "mafia:A", "Doc": "mafia:A"}),)),
    # ------------------------------------------------------------------ N15.3 at the guest
    Case("N15.3", "a blast at the guest: nobody dies, the blast is not used up",
         "KamiA blows Ann, who is with the priest: nothing happens, KamiA keeps his blast "
         "and uses it the next night.",
         (Night(1, ("Pr take Ann", "KamiA blow Ann"), says="подрыв не израсходован"),
          Day(2),
          Night(2, ("KamiA blow Bob",), dead={"Bob": "kamikaze:KamiA",
                                              "KamiA": "kamikaze:KamiA"}))),
    Case("N15.3", "a ninja kill at the guest is no miss",
         "Nin's kill of Ann, the priest's guest, does not happen and is no miss: his kill of "
         "Bob on night 2 is his first miss, not his second (no harakiri).",
         (Night(1, ("Pr take Ann", "Nin kill Ann"), says="Ann у священника Pr"),
          Day(2),
          Night(2, ("Nin kill Bob",), dead={"Bob": "ninja:Nin"}))),
    # ------------------------------------------------------------------ N15.4 ambush
    Case("N15.4", "the priest killed in the ambush never took the maniac",
         "Pr goes to Jack in ambush and dies; Jack is not his guest, so Don's shot at Pr "
         "hits Pr alone and Jack's ambush stands.",
         (Night(1, ("Jack ambush", "Pr take Jack", "Don shoot Pr"),
                dead={"Pr": "ambush:Jack + mafia:A"},
                says="Jack сидит в засаде; гостя у священника нет"),)),
    # ------------------------------------------------------------------ N15.5 necromancer
    Case("N15.5", "a naming sent during a night counts from the next night",
         "Necro names Ann and Bob during night 1: that night Ann is shot and dies; from "
         "night 2 the protection works and saves Bob.",
         (Night(1, ("Necro protect Ann Bob", "Don shoot Ann"), dead={"Ann": "mafia:A"},
                says="действует с ночи 2 (названо ночью — действует со следующей ночи)"),
          Day(2),
          Night(2, ("Don shoot Bob",), saved={"Bob": "Necro"}))),
    Case("N15.5", "both named attacked: the first named is saved",
         "Ann and Bob, both named, are attacked the same night: one resurrection in all, "
         "for Ann, named first.",
         (Day(1, requests=("Necro protect Ann Bob",)),
          Night(1, ("Don shoot Bob", "Jack kill Ann"), dead={"Bob": "mafia:A"},
                saved={"Ann": "Necro"}, says="спасён названный первым, Ann"))),
    Case("N15.5", "the protection works the night the necromancer dies",
         "Necro is shot the night Jack kills Ann: deaths are simultaneous, so Ann is saved.",
         (Day(1, requests=("Necro protect Ann Bob",)),
          Night(1, ("Don shoot Necro", "Jack kill Ann"), dead={"Necro": "mafia:A"},
                saved={"Ann": "Necro"}, says="некромант гибнет этой же ночью"))),
    Case("N15.5", "the protection ends with the necromancer",
         "Necro died on night 1; on night 2 Ann, named by him, is not saved.",
         (Day(1, requests=("Necro protect Ann Bob",)),
          Night(1, ("Don shoot Necro",), dead={"Necro": "mafia:A"}),
          Day(2),
          Night(2, ("Jack kill Ann",), dead={"Ann": "maniac:Jack"}))),
    Case("N15.5", "naming a dead player is rejected",
         "Ann died on night 1; Necro cannot name her on day 2.",
         (Night(1, ("Don shoot Ann",), dead={"Ann": "mafia:A"}),
          Day(2, requests=("Necro protect Ann Bob",), rejected=("Necro protect",)),
          Night(2))),
    Case("N15.5", "naming himself is rejected",
         "Necro cannot name himself; the night's shot at Bob stands.",
         (Day(1, requests=("Necro protect Necro Bob",), rejected=("Necro protect",)),
          Night(1, ("Don shoot Bob",), dead={"Bob": "mafia:A"}))),
    # ------------------------------------------------------------------ N15.6 commissar
    Case("N15.6", "a commissar saved by the necromancer gets his result",
         "Don's shot would kill Kom, but the necromancer saves him: he survives the night, "
         "so his check of Tony stands.",
         (Day(1, requests=("Necro protect Kom Ann",)),
          Night(1, ("Don shoot Kom", "Kom check Tony"), saved={"Kom": "Necro"},
                checks={"Tony": "mafia"}, says="комиссар выжил этой ночью"))),
    Case("N15.6", "a commissar healed gets his result",
         "Doc heals Kom from Don's shot: Kom survives and learns Vito's role.",
         (Night(1, ("Don shoot Kom", "Doc heal Kom", "Kom check Vito"), saved={"Kom": "Doc"},
                checks={"Vito": "mafia"}),)),
    # ------------------------------------------------------------------ N15.7 ninja miss
    Case("N15.7", "a kill the necromancer prevents is no miss",
         "Nin kills Ann, whom the necromancer saves: nobody died, so no miss; Vera on night "
         "2 is Nin's first miss and he lives.",
         (Day(1, requests=("Necro protect Ann Bob",)),
          Night(1, ("Nin kill Ann",), saved={"Ann": "Necro"},
                says="цель спасена некромантом (Ann) — убийства не было, промах не засчитан"),
          Day(2),
          Night(2, ("Nin kill Vera",), dead={"Vera": "ninja:Nin"}))),
    Case("N15.7", "a town kill that stands is a miss",
         "Nin kills Ann and, on night 2, Vera: two misses, harakiri the same night.",
         (Night(1, ("Nin kill Ann",), dead={"Ann": "ninja:Nin"}),
          Day(2),
          Night(2, ("Nin kill Vera",), dead={"Vera": "ninja:Nin", "Nin": "harakiri:Nin"}))),
    # ------------------------------------------------------------------ N15.8 testament
    Case("N15.8", "the testament passes over a voter doomed that night",
         "Ann voted first for the hanged ninja, but Don's shot kills her that night: the "
         "testament passes to Bob.",
         (Day(1, "Ann>Nin, Bob>Nin", hanged="Nin"),
          Night(1, ("Don shoot Ann",), dead={"Ann": "mafia:A", "Bob": "testament:Nin"}))),
    Case("N15.8", "the testament passes over the priest's guest",
         "Ann voted first, but she is with the priest — out of reach: the testament kills Bob.",
         (Day(1, "Ann>Nin, Bob>Nin", hanged="Nin"),
          Night(1, ("Pr take Ann",), dead={"Bob": "testament:Nin"},
                says="Ann у священника — вне досягаемости"))),
    Case("N15.8", "the ninja's own vote is skipped",
         "Nin voted for himself first; his vote is skipped and the testament kills Ann.",
         (Day(1, "Nin>Nin, Ann>Nin, Bob>Nin", hanged="Nin"),
          Night(1, dead={"Ann": "testament:Nin"}))),
    Case("N15.8", "every voter out of reach: the testament is void",
         "Ann alone voted for the ninja and is with the priest: nobody dies.",
         (Day(1, "Ann>Nin", hanged="Nin"),
          Night(1, ("Pr take Ann",), says="вне досягаемости; исполнять некому"))),
    # ------------------------------------------------------------------ N15.9 in a row
    Case("N15.9", "a heal that failed through a beating counts as the last one",
         "Doc's heal of Bob on night 1 fails (ThugA beats him) but it stood: healing Bob "
         "again on night 2 is two nights in a row, rejected.",
         (Night(1, ("ThugA beat Doc", "Doc heal Bob")),
          Day(2),
          Night(2, ("Doc heal Bob",), rejected=("Doc heal",)))),
    Case("N15.9", "a rejected request is not the last one",
         "Doc heals Bob on night 1; night 2's heal of Bob is rejected, so on night 3 the "
         "last heal that stood is night 1's and Bob may be healed again.",
         (Night(1, ("Doc heal Bob",)),
          Day(2),
          Night(2, ("Doc heal Bob",), rejected=("Doc heal",)),
          Day(3),
          Night(3, ("Doc heal Bob", "Don shoot Bob"), saved={"Bob": "Doc"}))),
    # ------------------------------------------------------------------ N15.10 changes
    Case("N15.10", "a request after a rejected one is not a change",
         "Kom's first request (checking himself) is rejected, so «check Don» is his request, "
         "not a change; his one change of the game is still there on night 2.",
         (Night(1, ("Kom check Kom", "Kom check Don"), checks={"Don": "mafia"},
                rejected=("Kom check",)),
          Day(2),
          Night(2, ("Kom check Vito", "Kom check Tony"), checks={"Tony": "mafia"}))),
    Case("N15.10", "a maniac's kill replaced by an ambush is a change",
         "Jack asks to kill Bob, then sits in ambush instead: that is his change of the "
         "game, so on night 2 his change from Ann to Vera is ignored.",
         (Night(1, ("Jack kill Bob", "Jack ambush")),
          Day(2),
          Night(2, ("Jack kill Ann", "Jack kill Vera"), dead={"Ann": "maniac:Jack"},
                rejected=("Jack kill",)))),
    # ------------------------------------------------------------------ N15.11 executor
    Case("N15.11", "the sender is the executor by default",
         "Don orders the shot without naming anyone: he shoots himself.",
         (Night(1, ("Don shoot Ann",), dead={"Ann": "mafia:A"}),)),
    Case("N15.11", "a thug named as executor: rejected",
         "Only a Мафия of the clan shoots: ThugA named as executor — the order is rejected.",
         (Night(1, ("Don shoot Ann by ThugA",), rejected=("Don shoot",),
                says="стреляет только Мафия клана A"),)),
    Case("N15.11", "a kamikaze named as executor: rejected",
         "KamiA is of the clan but not a Мафия: the order is rejected, nobody is shot.",
         (Night(1, ("Don shoot Ann by KamiA",), rejected=("Don shoot",),
                says="исполнитель KamiA — Камикадзе"),)),
    Case("N15.11", "another clan's member named as executor: rejected",
         "Tony is of clan B: he cannot carry out clan A's order.",
         (Night(1, ("Don shoot Ann by Tony",), rejected=("Don shoot",),
                says="исполнитель Tony не член клана A"),)),
    Case("N15.11", "the clan's ВСБ named as executor: rejected",
         "SonA is known to clan A but plays for the town: not an executor.",
         (Night(1, ("Don shoot Ann by SonA",), rejected=("Don shoot",),
                says="исполнитель SonA не член клана A"),)),
    Case("N15.11", "a dead Мафия named as executor: rejected",
         "Vito was shot on night 1; clan A's order naming him on night 2 is rejected.",
         (Night(1, ("Tony shoot Vito",), dead={"Vito": "mafia:B"}),
          Day(2),
          Night(2, ("Don shoot Ann by Vito",), rejected=("Don shoot",),
                says="исполнитель Vito мёртв"))),
    # ------------------------------------------------------------------ N15.12 ambush
    Case("N15.12", "the doctor cannot prevent an ambush death",
         "Don carries out the shot at Jack, who sits in ambush: Don dies, and Doc's heal "
         "does not help — an ambush is not a shot.",
         (Night(1, ("Jack ambush", "Don shoot Jack", "Doc heal Don"),
                dead={"Don": "ambush:Jack"}, says="засада — не выстрел"),)),
    Case("N15.12", "the necromancer prevents an ambush death",
         "Don, named by the necromancer, walks into Jack's ambush and is saved.",
         (Day(1, requests=("Necro protect Don Ann",)),
          Night(1, ("Jack ambush", "Don shoot Jack"), saved={"Don": "Necro"}))),
    # ------------------------------------------------------------------ N15.13 the dead
    Case("N15.13", "a request at a player dead before the night is rejected",
         "Ann died on night 1; Doc's heal of her on night 2 is rejected.",
         (Night(1, ("Don shoot Ann",), dead={"Ann": "mafia:A"}),
          Day(2),
          Night(2, ("Doc heal Ann",), rejected=("Doc heal",)))),
    # ------------------------------------------------------------------ N15.14 winning
    Case("N15.14", "only a ВСБ left alive: the town wins",
         "The maniac and clan A's mafioso kill each other; SonA, a town player, is left.",
         (Night(1, ("Jack kill Don", "Don shoot Jack"),
                dead={"Don": "maniac:Jack", "Jack": "mafia:A"}),),
         winner="town", players="SonA=boss_son/A, Don=mafia/A, Jack=maniac"),
    Case("N15.14", "nobody alive: a draw",
         "The kamikaze blows up the last other player and himself: nobody is left, the "
         "game is over with no winner.",
         (Night(1, ("KamiA blow Ann",), dead={"Ann": "kamikaze:KamiA",
                                              "KamiA": "kamikaze:KamiA"}),),
         winner="draw", players="Ann, KamiA=kamikaze/A"),
    # ------------------------------------------------------------------ N15.15 the rest
    Case("N15.15", "a heal aimed at the guest counts as the last target",
         "Doc's heal of Bob, the priest's guest, fails, but it is Doc's last target: healing "
         "Bob on night 2 is two nights in a row.",
         (Night(1, ("Pr take Bob", "Doc heal Bob")),
          Day(2),
          Night(2, ("Doc heal Bob",), rejected=("Doc heal",)))),
    Case("N15.15", "a beating aimed at the guest counts as the last target",
         "ThugA's beating of Bob, the priest's guest, fails, but beating Bob again on night "
         "2 is two nights in a row.",
         (Night(1, ("Pr take Bob", "ThugA beat Bob")),
          Day(2),
          Night(2, ("ThugA beat Bob",), rejected=("ThugA beat",)))),
    Case("N15.15", "a named kamikaze blows the other named: the other is saved",
         "Necro named KamiA and Ann; KamiA blows Ann: his own death is never prevented, "
         "the protection saves Ann.",
         (Day(1, requests=("Necro protect KamiA Ann",)),
          Night(1, ("KamiA blow Ann",), dead={"KamiA": "kamikaze:KamiA"},
                saved={"Ann": "Necro"}, says="сам камикадзе KamiA погибает при подрыве"))),
    Case("N15.15", "an order sent by the priest's guest fires when the executor is free",
         "Don is with the priest, but Vito, the executor he named, is free: Ann is shot.",
         (Night(1, ("Pr take Don", "Don shoot Ann by Vito"), dead={"Ann": "mafia:A"}),)),
    Case("N15.15", "a testament whose voter is the priest hits the priest and his guest",
         "Pr voted first for the hanged ninja; at night he holds Ann: the testament kills "
         "both.",
         (Day(1, "Pr>Nin, Bob>Nin", hanged="Nin"),
          Night(1, ("Pr take Ann",), dead={"Pr": "testament:Nin", "Ann": "testament:Nin"},
                says="умирает Pr, священник, а с ним и его гость Ann"))),
)
"""One scenario per decision of docs/rules.md N15 and per edge it names."""

IDS = [c.id for c in CASES]


def test_every_decision_has_a_case() -> None:
    assert {c.rule for c in CASES} == {f"N15.{i}" for i in range(1, 16)}


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_through_the_replay(case: Case) -> None:
    got = replay(replay_game(case), NightRules())
    assert host_reads(got["phases"]) == expected(case), case.why
    assert got["winner"] == case.winner, case.why


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_through_referee_replay_on_the_command_line(
    case: Case, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no referee.toml: the docs/rules.md defaults
    path = tmp_path / "game.json"
    path.write_text(json.dumps(replay_game(case), ensure_ascii=False), encoding="utf-8")
    res = CliRunner().invoke(app, ["replay", str(path), "--format", "json"])
    assert res.exit_code == 0, res.output
    got = json.loads(res.output)
    assert host_reads(got["phases"]) == expected(case), case.why
    assert got["winner"] == case.winner, case.why
    text = CliRunner().invoke(app, ["replay", str(path), "--format", "text"]).output
    for p in case.phases:
        if isinstance(p, Night) and p.says:
            # The host's log says it, citing the decision.
            assert any(p.says in line and f"({case.rule})" in line
                       for line in text.splitlines()), (p.says, text)


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_through_resolve_night_on_a_database(case: Case, tmp_path: Path) -> None:
    got = play_in_database(replay_game(case), tmp_path)
    assert host_reads(got["phases"]) == night_reads_day(expected(case)), case.why
    assert got["winner"] == case.winner, case.why
    for p, have in zip(case.phases, got["phases"], strict=True):
        if isinstance(p, Night) and p.says:
            assert any(p.says in line for line in have["log"]), (p.says, have["log"])


def test_a_draw_is_said_in_every_output(tmp_path: Path) -> None:
    """N15.14: «ничья» in the replay JSON, the replay text, and the morning report of
    ``referee resolve-night`` (and its JSON)."""
    (case,) = [c for c in CASES if c.winner == "draw"]
    game = replay_game(case)
    assert replay(game, NightRules())["winner"] == "draw"
    assert replay_text(game, NightRules()).endswith(
        "Игра окончена: ничья — в живых не осталось никого.")
    from dbgame import build, day_start, referee_text

    config, db = build(game, tmp_path)
    report = referee_text(config, db, day_start(2), "resolve-night", "--night", "1")
    assert "[b]Игра окончена: ничья — в живых не осталось никого.[/b]" in report


# ------------------------------------------------------------------ every audit game

AUDIT = Path(__file__).resolve().parents[1] / "audit" / "games"
AUDIT_GAMES = sorted(AUDIT.glob("*.json"))
READ_BY_THE_INTAKE = {
    "059_necromancer_turn_4_rejected": ("Necro protect", "a naming sent on day 4 is listed "
                                        "as unreadable («защиту можно назначить только в "
                                        "ходы 1–3»), not passed to the night"),
    "087_requests_by_the_dead_and_at_the_dead_rejected": ("Анна kill", "a citizen's «kill» "
                                                          "is no request of his role: listed "
                                                          "as unreadable"),
    "088_night_action_sent_by_day_rejected": ("Don shoot", "a night action sent by day is "
                                              "no day request: the intake reads it for the "
                                              "night that follows"),
}
"""Games with a request that never reaches the engine from a PM: the intake lists it for
the host instead (N14: never silently dropped). Everything else is the same."""

COUNTED_FOR_THE_NIGHT = {
    "088_night_action_sent_by_day_rejected": (1, {"Анна": ["mafia:A"]}),
}
"""Games whose day PM holds a night request: N1 (issue 25) counts a request sent before
the night's deadline, during the day before it too, so on a database it is carried out that
night (phase index, the night's deaths) — the replay, which has no PMs, keeps rejecting a
request given in a day phase."""


@pytest.mark.parametrize("path", AUDIT_GAMES, ids=[p.stem for p in AUDIT_GAMES])
def test_every_audit_game_gives_the_same_nights_on_a_database(
    path: Path, tmp_path: Path
) -> None:
    """The replay and ``referee resolve-night`` on the game in a database agree on every
    phase: who was hanged, each night's deaths and their causes, who was saved, the
    checks, the rejected requests; and on the winner."""
    game = json.loads(path.read_text(encoding="utf-8"))
    replayed = replay(game, NightRules())
    want = night_reads_day(host_reads(replayed["phases"]))
    if path.stem in READ_BY_THE_INTAKE:
        shown_by_the_intake, _ = READ_BY_THE_INTAKE[path.stem]
        for phase in want:
            phase["rejected"] = [r for r in phase["rejected"] if r != shown_by_the_intake]
    if path.stem in COUNTED_FOR_THE_NIGHT:
        index, dead = COUNTED_FOR_THE_NIGHT[path.stem]
        want[index]["dead"] = dead
    played = play_in_database(game, tmp_path)
    assert host_reads(played["phases"]) == want, game["_why"]
    assert played["winner"] == replayed["winner"], game["_why"]


def test_no_phase_after_a_draw() -> None:
    """N15.14: the game is over when nobody lives; a replay cannot play on."""
    (case,) = [c for c in CASES if c.winner == "draw"]
    game = replay_game(case)
    game["phases"].append({"day": 2, "votes": []})
    with pytest.raises(GameError) as info:
        replay(game, NightRules())
    assert "игра уже закончилась после фазы «ночь 1» (победитель: draw)" in str(info.value)
