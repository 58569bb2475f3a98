"""A game in which a person follows every hint is reviewed without a mistake (issue: "a coach that agrees with
itself"): at a 3-player Mü table with hints, seat 0 plays each move the coach proposes, a second person plays at
random at seat 1 and a heuristic bot at seat 2; the server's review of seat 0, with the hints' budget and no time
cap cutting either, judges every decision `good` and prefers the move played.  The hint and the review model the
seats alike (people by the chosen level, the bot by its own spec) and draw the same numbers for a decision (the
table's id and the seq), through the live table, the coach's workers and the review's queue."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import suppress
from typing import Any

import httpx
import pytest

from ludotheque.server.process import ServerProcess

from .client import Client, create_table
from .test_replay import wait_finished

#: The same playouts for a hint and a review's decision, with time caps that never cut them.
SAME_BUDGET = {"LUDOTHEQUE_HINT_SECONDS": "120", "LUDOTHEQUE_HINT_PLAYOUTS": "24",
               "LUDOTHEQUE_REVIEW_SECONDS": "600", "LUDOTHEQUE_REVIEW_PLAYOUTS": "24"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("followed")
    process = ServerProcess(f"sqlite:///{folder / 'ludotheque.db'}", folder).start(SAME_BUDGET)
    try:
        yield process
    finally:
        process.stop()


def ask_hint(client: Client, seq: int) -> str | None:
    """The coach's move for the decision at ``seq``, or ``None`` if the hint was refused (an ``error`` frame: on a
    busy machine the coach may be ``rate_limited``); asked again by the caller."""
    client.send({"type": "hint"})
    deadline = time.monotonic() + 60
    while True:
        message = client.recv(max(0.01, deadline - time.monotonic()))
        if message["type"] == "hint":
            assert message["seq"] == seq
            move: str = message["move"]
            return move
        if message["type"] == "error":
            time.sleep(0.2)
            return None


def play_by_the_hints(hinted: Client, other: Client, rng: random.Random, timeout: float = 400.0) -> list[str]:
    """Seat 0 plays each hint, seat 1 random legal moves, until the game ends; the hinted moves.  ``timeout`` only
    guards against a game that never ends: a hint takes about a second of CPU, more on a busy machine."""
    deadline = time.monotonic() + timeout
    followed: list[str] = []
    moved: dict[int, tuple[int, float]] = {}  # the seq each seat last moved at, and when
    while time.monotonic() < deadline:
        for index, client in enumerate((hinted, other)):
            with suppress(TimeoutError):
                client.recv(timeout=0.05)
            state = client.state
            if state is None:
                continue
            if state["view"]["terminal"]:
                return followed
            last = moved.get(index)
            if not state["legal"] or (last is not None and last[0] == state["seq"] and time.monotonic() - last[1] < 5):
                continue
            # a move not seen played within 5 s (refused under load, or its frame lost) is sent again: its
            # client_move_id makes the resend idempotent
            moved[index] = (state["seq"], time.monotonic())
            if index == 0 and last is not None and last[0] == state["seq"]:
                move = followed[-1]
            elif index == 0:
                hinted_move = ask_hint(client, state["seq"])
                if hinted_move is None:  # refused (the coach busy, or the seat's state not yet the server's)
                    del moved[index]
                    continue
                move = hinted_move
                followed.append(move)
            else:
                move = rng.choice(state["legal"])["notation"]
            client.send({"type": "move", "move": move, "client_move_id": f"{index}-{state['seq']}",
                         "after_seq": state["seq"]})
    raise AssertionError("the game did not end in time")


def test_a_game_played_by_the_hints_is_reviewed_without_a_mistake(server: ServerProcess) -> None:
    created = create_table(server.url, "mu", 3, ["me", "open", "bot:heuristic"], hints=True, options={"target": 1})
    table_id = created["table_id"]
    joined = httpx.post(f"{server.url}/api/tables/{table_id}/join", json={"name": "other"})
    assert joined.status_code == 200, joined.text
    hinted = Client(server.ws_url, table_id, created["token"])
    other = Client(server.ws_url, table_id, joined.json()["token"])
    try:
        hinted.hello()
        other.hello()
        followed = play_by_the_hints(hinted, other, random.Random(3))
    finally:
        hinted.close()
        other.close()
    wait_finished(server.url, table_id)
    asked = httpx.post(f"{server.url}/api/tables/{table_id}/review", json={"seat": 0})
    assert asked.status_code in (200, 202), asked.text
    deadline = time.monotonic() + 120
    while (answer := httpx.get(f"{server.url}/api/tables/{table_id}/review", params={"seat": 0}).json())[
            "status"] != "done":
        assert answer["status"] in ("queued", "running") and time.monotonic() < deadline, answer
        time.sleep(0.1)
    review: dict[str, Any] = answer["review"]
    assert [d["played"] for d in review["decisions"]] == followed
    assert sum(d["expected_played"] is not None for d in review["decisions"]) >= 3
    assert [d["judgement"] for d in review["decisions"]] == ["good"] * len(followed)
    assert all(d["best"] == d["played"] for d in review["decisions"])
    assert review["models"] == [{"seat": 0, "model": "easy", "by": "person"},
                                {"seat": 1, "model": "easy", "by": "person"},
                                {"seat": 2, "model": "heuristic", "by": "bot"}]
    assert review["unit"] == "hand"
