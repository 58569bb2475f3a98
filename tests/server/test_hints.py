"""The coach's hint at a table in play (``{"type": "hint"}``, ``docs/server.md``): from the seat whose turn it is at
a ``"hints": true`` table, a move legal for that seat now; ``unauthorized`` for a spectator and at a table without
hints, ``not_your_turn`` before the game, ``rate_limited`` for a second hint while one is computed; and the worker's
hint never depends on what another seat hid."""

from __future__ import annotations

import random
from collections.abc import Iterator

import httpx
import pytest

from ludotheque.games import load_game
from ludotheque.server.botpool import HintRequest, ReviewRequest, give_hint, history_of, write_review
from ludotheque.server.process import ServerProcess
from ludotheque.table import Table

from .client import Client, create_table

#: Hints of a third of a second: long enough for a second hint to be asked while the first is computed.
HINT_ENV = {"LUDOTHEQUE_HINT_SECONDS": "0.3"}


@pytest.fixture(scope="module")
def hinting(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("hints")
    process = ServerProcess(f"sqlite:///{folder / 'ludotheque.db'}", folder).start(HINT_ENV)
    try:
        yield process
    finally:
        process.stop()


def test_a_hint_at_a_hints_table_is_a_legal_move_now(hinting: ServerProcess) -> None:
    # two people: nothing moves between the frame and the hint
    created = create_table(hinting.url, "geier", 2, ["me", "open"], hints=True)
    joined = httpx.post(f"{hinting.url}/api/tables/{created['table_id']}/join", json={"name": "other"})
    assert joined.status_code == 200, joined.text
    client = Client(hinting.ws_url, created["table_id"], created["token"])
    try:
        frame = client.hello()
        while not frame["legal"]:
            frame = client.next("state")
        client.send({"type": "hint"})
        client.send({"type": "hint"})  # while the first is computed
        busy = client.next("error")
        assert busy["code"] == "rate_limited"
        answer = client.next("hint")
        legal = {move["notation"] for move in frame["legal"]}
        assert answer["seq"] == frame["seq"] and answer["move"] in legal and answer["next_best"] in legal
        assert answer["next_best"] != answer["move"] and isinstance(answer["expected"], float)
    finally:
        client.close()


def test_no_hint_elsewhere(hinting: ServerProcess) -> None:
    plain = create_table(hinting.url, "geier", 2, ["me", "bot:random"])
    with_hints = create_table(hinting.url, "geier", 2, ["me", "bot:random"], hints=True)
    waiting = create_table(hinting.url, "geier", 2, ["me", "open"], hints=True)
    for table, token, code in ((plain, plain["token"], "unauthorized"), (with_hints, None, "unauthorized"),
                               (waiting, waiting["token"], "not_your_turn")):
        client = Client(hinting.ws_url, table["table_id"], token)
        try:
            client.hello()
            client.send({"type": "hint"})
            assert client.next("error")["code"] == code
            assert not [m for m in client.received if m["type"] == "hint"]
        finally:
            client.close()


def test_a_hint_never_depends_on_another_seats_hidden_bid() -> None:
    # 3-player Geier: seat 1 has bid face down, seats 0 and 2 have not; seat 0's hint is the same whatever seat 1
    # bid, since the worker gives the coach seat 0's view and a sampler only
    hints = []
    for bid in ("3", "12"):
        game = load_game("geier", players=3)
        table = Table(game, [None] * 3, chance_rng=random.Random(5))
        table.step()  # the first prize turned up
        table.submit(1, bid)
        request = HintRequest(f"bid {bid}", "geier", 3, {}, history_of(table), 0, "t:2:0", 10.0, 60, "easy")
        hints.append(give_hint(request))
        assert table.state.string_to_action(hints[-1]["move"], 0) in table.state.legal_actions(0)
    assert hints[0] == hints[1]


def test_the_review_prefers_the_hint_followed() -> None:
    # a worker's hint and the review of the same decision model the seats alike (a person at seat 1, a heuristic
    # bot at seat 2) and draw the same numbers (the table's id, the decision's seq): seat 0 followed the hint, and
    # the review, with the same budget and no time cap, prefers that move
    game = load_game("geier", players=3)
    table = Table(game, [None] * 3, chance_rng=random.Random(7))
    table.step()
    bots = (None, None, "heuristic")
    request = HintRequest("t1", "geier", 3, {}, history_of(table), 0, "t1", 60.0, 40, "easy", bots)
    answer = give_hint(request)
    table.submit(0, answer["move"])
    seq = table.seq
    table.submit(1, "5")
    table.submit(2, "7")
    review = write_review(ReviewRequest("t1:0", table.record(), 0, None, 40, "easy", seed="t1", bots=bots))
    entry = next(d for d in review["decisions"] if d["seq"] == seq)
    assert entry["played"] == answer["move"] and entry["best"] == answer["move"] and entry["judgement"] == "good"
    assert [m["model"] for m in review["models"]] == ["easy", "easy", "heuristic"]
