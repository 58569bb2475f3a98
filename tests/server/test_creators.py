"""Tables count against whoever created them, and bot work is shared between creators in turn.

A table whose every seat is a bot needs a player's token; the tables waiting or in play of one creator (the token's
player, else the client address) are capped by ``Settings.tables_per_creator``, counted in the database in the
creating transaction (SQLite and PostgreSQL).  The sharing is shown by the order in which the bot pool's queue
serves its waiting moves, not by timing (``benchmarks/creator_fairness.py`` measures the waits)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import pytest

from ludotheque.server.botpool import FairQueue
from ludotheque.server.process import ServerProcess

from .client import guest

CAP = 2


@pytest.fixture(scope="module")
def capped(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    server = ServerProcess(db_url, tmp_path_factory.mktemp("capped"))
    server.start(env={"LUDOTHEQUE_TABLES_PER_CREATOR": str(CAP)})
    try:
        yield server
    finally:
        server.stop()


def create(server: ServerProcess, seats: list[str], player: str | None = None) -> httpx.Response:
    return httpx.post(f"{server.url}/api/tables", json={"game": "geier", "players": len(seats), "seats": seats},
                      headers={"X-Player-Token": player} if player else {})


def test_a_table_of_bots_only_needs_a_players_token(capped: ServerProcess) -> None:
    refused = create(capped, ["bot:random", "bot:random"])
    assert refused.status_code == 401 and "X-Player-Token" in refused.json()["detail"]
    assert create(capped, ["bot:random", "bot:random"], guest(capped.url)).status_code == 201
    assert create(capped, ["me", "bot:random"]).status_code == 201  # a person's table as ever: a guest is made
    unknown = create(capped, ["bot:random", "bot:random"], "no-such-token")
    assert unknown.status_code == 401


def test_tables_in_play_count_against_their_creator(capped: ServerProcess) -> None:
    ana, bruno = guest(capped.url, "Ana"), guest(capped.url, "Bruno")
    # the person never moves: both tables stay in play
    for _ in range(CAP):
        created = create(capped, ["me", "bot:random"], ana)
        assert created.status_code == 201, created.text
        table = httpx.get(f"{capped.url}/api/tables/{created.json()['table_id']}").json()
        assert table["status"] == "playing"
    for seats in (["me", "bot:random"], ["bot:random", "bot:random"], ["me", "open"]):
        refused = create(capped, seats, ana)
        assert refused.status_code == 429 and f"at most {CAP} tables" in refused.json()["detail"], seats
    assert create(capped, ["me", "bot:random"], bruno).status_code == 201  # another creator is not held


def test_tables_waiting_without_a_creator_count_against_the_address(capped: ServerProcess) -> None:
    # this module's other tables were made with players' tokens: the address has none yet
    for _ in range(CAP):
        assert create(capped, ["open", "open"]).status_code == 201
    refused = create(capped, ["open", "open"])
    assert refused.status_code == 429 and "Retry-After" not in refused.headers


def test_the_queue_serves_creators_in_turn() -> None:
    """One visitor's five moves queued before a person's one: the person's is served second, not sixth."""

    async def main() -> list[str]:
        queue = FairQueue(1)
        served: list[str] = []
        hold = asyncio.Event()

        async def move(creator: str, name: str) -> None:
            async with queue.turn(creator):
                served.append(name)
                if name == "first":
                    await hold.wait()

        first = asyncio.create_task(move("visitor", "first"))
        await asyncio.sleep(0)
        tasks = [asyncio.create_task(move("visitor", f"v{index}")) for index in range(5)]
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(move("person", "p0")))
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(move("other", "o0")))
        tasks.append(asyncio.create_task(move("person", "p1")))
        await asyncio.sleep(0)
        assert queue.queued() == 8
        hold.set()
        await asyncio.gather(first, *tasks)
        assert queue.busy == 0 and not queue.waiting
        return served

    assert asyncio.run(main()) == ["first", "v0", "p0", "o0", "v1", "p1", "v2", "v3", "v4"]


def test_a_move_given_up_in_the_queue_passes_its_turn_on() -> None:
    async def main() -> list[str]:
        queue = FairQueue(1)
        served: list[str] = []
        hold = asyncio.Event()

        async def move(creator: str, name: str) -> None:
            async with queue.turn(creator):
                served.append(name)
                if name == "first":
                    await hold.wait()

        first = asyncio.create_task(move("a", "first"))
        await asyncio.sleep(0)
        dropped = asyncio.create_task(move("b", "dropped"))
        kept = asyncio.create_task(move("c", "kept"))
        await asyncio.sleep(0)
        dropped.cancel()
        hold.set()
        await asyncio.gather(first, kept)
        assert dropped.cancelled() and queue.busy == 0 and not queue.waiting
        return served

    assert asyncio.run(main()) == ["first", "kept"]
