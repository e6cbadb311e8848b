"""The host's phone (referee.host.watch.notify): the watch's lines to a Telegram chat through
the Bot API, mocked with respx; a failure never stops the watch, the token is never
shown."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
import respx
from support.clock import FakeClock
from support.moscow import msk
from support.phpbb.game_board import GameBoard, write_config
from watch_helpers import replies, watch

from referee.config.game import NotifyConfig, load_config
from referee.core.errors import ConfigError
from referee.host.watch.notify import API, TOKEN_ENV, Notifier

TOKEN = "123456:AAE-secret-bot-token"
SEND = f"{API}/bot{TOKEN}/sendMessage"
ON = NotifyConfig(chat_id="424242", events=("deadline", "forum"))


def notifier(settings: NotifyConfig = ON) -> Notifier:
    return Notifier(settings, {TOKEN_ENV: TOKEN})


def sent_texts(route: respx.Route) -> list[dict]:
    return [json.loads(call.request.content) for call in route.calls]


@respx.mock
def test_the_lines_of_a_round_go_as_one_message_to_the_chat() -> None:
    route = respx.post(SEND).mock(return_value=httpx.Response(200, json={"ok": True}))
    n = notifier()
    n.push("deadline", "22:01 день 1: итог записан — на виселицу — Лиса")
    n.push("vote", "21:40 голос засчитан: Шерлок → Лиса")      # not a picked class
    n.push("forum", "22:30 форум снова отвечает")
    assert n.flush() == (None, False)
    (body,) = sent_texts(route)
    assert body["chat_id"] == "424242"
    assert body["text"] == ("22:01 день 1: итог записан — на виселицу — Лиса\n"
                            "22:30 форум снова отвечает")
    assert n.flush() == (None, False) and len(route.calls) == 1   # nothing new: nothing sent


REFUSALS = [
    (httpx.Response(401, json={"ok": False, "description": "Unauthorized"}),
     f"Telegram не принял токен бота ({TOKEN_ENV}): Unauthorized"),
    (httpx.Response(400, json={"ok": False, "description": "Bad Request: chat not found"}),
     "Telegram отказал: Bad Request: chat not found — проверьте [notify] chat_id"),
    (httpx.Response(429, json={"ok": False, "parameters": {"retry_after": 7}}),
     "Telegram просит писать реже (подождать 7 с)"),
    (httpx.ConnectError(f"cannot connect to {SEND}"), "нет связи с Telegram (ConnectError)"),
    (httpx.ReadTimeout(f"timed out: {SEND}"), "Telegram не ответил вовремя"),
]


@pytest.mark.parametrize(("answer", "said"), REFUSALS, ids=[r[1][:30] for r in REFUSALS])
@respx.mock
def test_a_refusal_is_told_once_in_words_without_the_token(answer: object, said: str) -> None:
    route = respx.post(SEND)
    route.side_effect = [answer, answer, httpx.Response(200, json={"ok": True})]
    n = notifier()
    n.push("deadline", "a")
    failed, _ = n.flush()
    assert failed is not None and failed.startswith(said) and TOKEN not in failed
    n.push("deadline", "b")
    assert n.flush() == (None, False)         # still failing: not told again
    n.push("deadline", "c")
    assert n.flush() == (None, True)          # works again: told so


def test_off_without_a_chat_or_a_token() -> None:
    assert Notifier(NotifyConfig(), {TOKEN_ENV: TOKEN}).off_because == "нет [notify] chat_id"
    assert Notifier(ON, {}).off_because == f"не задан {TOKEN_ENV}"
    n = Notifier(ON, {})
    n.push("deadline", "x")
    assert n.flush() == (None, False)


def test_notify_in_the_config_and_the_token_never_in_it(tmp_path: Path,
                                                        board: GameBoard) -> None:
    cfg = write_config(tmp_path, board, extra='\n[notify]\nchat_id = -100777\n'
                                             'events = ["deadline", "leader"]\n')
    assert load_config(cfg).notify == NotifyConfig("-100777", ("deadline", "leader"))
    bad = write_config(tmp_path, board, extra='\n[notify]\nevents = ["deadline", "votes"]\n')
    with pytest.raises(ConfigError, match="notify.events"):
        load_config(bad)
    typo = write_config(tmp_path, board, extra='\n[notify]\nchatid = 5\n')
    with pytest.raises(ConfigError, match="chat_id"):
        load_config(typo)
    secret = write_config(tmp_path, board, extra=f'\n[notify]\ntelegram_token = "{TOKEN}"\n')
    with pytest.raises(ConfigError) as e:
        load_config(secret)
    assert "REFEREE_TELEGRAM_TOKEN" in str(e.value) and TOKEN not in str(e.value)


def test_the_watch_pushes_its_deadline_work_and_goes_on_when_telegram_fails(
    config: Path, db: Path, clock: FakeClock, board: GameBoard
) -> None:
    clock.t = msk("2026-11-20 21:30")
    with respx.mock(assert_all_called=False) as router:
        router.route(host="127.0.0.1").pass_through()
        route = router.post(SEND)
        answers = iter([httpx.Response(502)])
        route.side_effect = lambda request: next(answers, httpx.Response(200, json={"ok": True}))
        n = Notifier(NotifyConfig("424242", ("deadline", "phase")), {TOKEN_ENV: TOKEN})
        _, seen = watch(config, db, clock, until=msk("2026-11-20 22:40"), tally=True, post=True,
                        notifier=n)
    # The first message was refused: told on the screen, the watch went on and posted.
    (failed,) = seen.having("Telegram: уведомление не отправлено")
    assert "Telegram ответил HTTP 502" in failed and TOKEN not in "\n".join(seen.lines)
    assert len(replies(board)) == 1
    texts = [t["text"] for t in sent_texts(route)]
    assert any("день 1: итог записан — на виселицу — Лиса" in t for t in texts[1:])
    assert seen.having("Telegram: уведомления снова доходят")
