"""``POST /api/tables`` with an ``Idempotency-Key``: the same key from the same requester gets the same table (the
same answer, tokens included), however many times and however close together it is sent; another key, or another
requester, gets a table of its own; the same key with another body is refused (409).  The last test holds the
memory's bounds in process, on a clock of its own."""

from __future__ import annotations

import asyncio
import threading
import uuid
from typing import Any

import httpx

from ludotheque.server.idempotency import IdempotentRequests
from ludotheque.server.process import ServerProcess


def post_table(server: ServerProcess, key: str | None, name: str, *, player: str | None = None,
               seats: list[str] | None = None, source: str | None = None) -> httpx.Response:
    """One creation of a two-seat Geier table called ``name`` (the creator and an open seat, so that the table is
    listed); ``source`` is the client address it comes from (any 127.x.y.z reaches the loopback)."""
    headers = {**({"Idempotency-Key": key} if key is not None else {}),
               **({"X-Player-Token": player} if player is not None else {})}
    body = {"game": "geier", "players": 2, "seats": seats or ["me", "open"], "name": name, "player_name": "Ana"}
    transport = httpx.HTTPTransport(local_address=source) if source else None
    with httpx.Client(transport=transport, timeout=30) as client:
        return client.post(f"{server.url}/api/tables", json=body, headers=headers)


def tables_named(server: ServerProcess, name: str) -> list[dict[str, Any]]:
    listed: list[dict[str, Any]] = httpx.get(f"{server.url}/api/tables").json()
    return [table for table in listed if table["name"] == name]


def new_guest(server: ServerProcess) -> str:
    token: str = httpx.post(f"{server.url}/api/players", json={"name": "Bo"}).json()["token"]
    return token


def at_once(count: int, send: Any) -> list[httpx.Response]:
    """``send()`` from ``count`` threads released together."""
    start = threading.Barrier(count)
    answers: list[httpx.Response | None] = [None] * count

    def one(index: int) -> None:
        start.wait()
        answers[index] = send()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert all(answer is not None for answer in answers), "a request did not come back"
    return [answer for answer in answers if answer is not None]


def test_the_same_key_sent_at_the_same_moment_makes_one_table_and_one_answer(server: ServerProcess) -> None:
    key, name = str(uuid.uuid4()), f"double-{uuid.uuid4().hex[:8]}"
    # without a player token: each request would make a guest, so the answer carries the one guest's token
    answers = at_once(4, lambda: post_table(server, key, name))
    assert [a.status_code for a in answers] == [201] * 4, [a.text for a in answers]
    bodies = [a.json() for a in answers]
    assert all(body == bodies[0] for body in bodies)
    assert bodies[0]["token"] and bodies[0]["player_token"] and bodies[0]["invite_url"]
    assert [t["id"] for t in tables_named(server, name)] == [bodies[0]["table_id"]]
    # later, the same again
    again = post_table(server, key, name)
    assert again.status_code == 201 and again.json() == bodies[0]
    assert len(tables_named(server, name)) == 1


def test_a_players_key_sent_at_the_same_moment_makes_one_table(server: ServerProcess) -> None:
    player, key, name = new_guest(server), str(uuid.uuid4()), f"player-{uuid.uuid4().hex[:8]}"
    answers = at_once(3, lambda: post_table(server, key, name, player=player))
    bodies = [a.json() for a in answers]
    assert [a.status_code for a in answers] == [201] * 3 and all(body == bodies[0] for body in bodies)
    assert bodies[0]["player_token"] is None  # the player was named: no guest was made
    assert len(tables_named(server, name)) == 1


def test_different_keys_make_different_tables(server: ServerProcess) -> None:
    player, name = new_guest(server), f"two-{uuid.uuid4().hex[:8]}"
    first = post_table(server, str(uuid.uuid4()), name, player=player).json()
    second = post_table(server, str(uuid.uuid4()), name, player=player).json()
    assert first["table_id"] != second["table_id"] and first["token"] != second["token"]
    assert len(tables_named(server, name)) == 2


def test_another_requesters_same_key_gets_a_table_of_its_own(server: ServerProcess) -> None:
    key, name = str(uuid.uuid4()), f"shared-key-{uuid.uuid4().hex[:8]}"
    ana, bo = new_guest(server), new_guest(server)
    of_ana = post_table(server, key, name, player=ana).json()
    of_bo = post_table(server, key, name, player=bo).json()
    # without a player token the requester is the address: the same key from another address is another's too
    here = post_table(server, key, name, source="127.0.0.1").json()
    elsewhere = post_table(server, key, name, source="127.0.0.2").json()
    answers = [of_ana, of_bo, here, elsewhere]
    assert len({a["table_id"] for a in answers}) == 4 and len({a["token"] for a in answers}) == 4
    assert here["player_token"] != elsewhere["player_token"]
    assert len(tables_named(server, name)) == 4
    # and each gets its own answer back
    assert post_table(server, key, name, player=bo).json() == of_bo
    assert post_table(server, key, name, source="127.0.0.2").json() == elsewhere


def test_the_same_key_with_another_body_is_refused(server: ServerProcess) -> None:
    player, key, name = new_guest(server), str(uuid.uuid4()), f"reused-{uuid.uuid4().hex[:8]}"
    assert post_table(server, key, name, player=player).status_code == 201
    refused = post_table(server, key, name, player=player, seats=["me", "bot:easy"])
    assert refused.status_code == 409 and "Idempotency-Key" in refused.json()["detail"]
    assert len(tables_named(server, name)) == 1


def test_a_refused_creation_keeps_no_answer_for_its_key(server: ServerProcess) -> None:
    player, key, name = new_guest(server), str(uuid.uuid4()), f"retry-{uuid.uuid4().hex[:8]}"
    assert post_table(server, key, name, player=player, seats=["me", "bot:nobody"]).status_code == 400
    # the key is free again: a corrected request with it creates the table
    assert post_table(server, key, name, player=player).status_code == 201
    assert len(tables_named(server, name)) == 1


def test_keys_hold_1_to_200_characters(server: ServerProcess) -> None:
    player, name = new_guest(server), f"long-{uuid.uuid4().hex[:8]}"
    assert post_table(server, "k" * 200, name, player=player).status_code == 201
    too_long = post_table(server, "k" * 201, name, player=player)
    assert too_long.status_code == 400 and "200" in too_long.json()["detail"]
    assert post_table(server, "", name, player=player).status_code == 400
    assert len(tables_named(server, name)) == 1


def test_an_unknown_player_token_with_a_key_is_refused(server: ServerProcess) -> None:
    name = f"unknown-{uuid.uuid4().hex[:8]}"
    assert post_table(server, str(uuid.uuid4()), name, player="no-such-token").status_code == 401
    assert tables_named(server, name) == []


def test_the_answers_tokens_never_reach_the_log(server: ServerProcess) -> None:
    answer = post_table(server, str(uuid.uuid4()), f"log-{uuid.uuid4().hex[:8]}").json()
    log = server.log()
    assert answer["token"] not in log and answer["player_token"] not in log


def test_answers_are_kept_for_a_while_and_a_bounded_number_of_them() -> None:
    now = [0.0]
    made: list[int] = []

    async def make() -> int:
        made.append(len(made))
        return made[-1]

    async def scenario() -> None:
        kept = IdempotentRequests(ttl_s=60, max_keys=2, clock=lambda: now[0])
        assert await kept.run("ana", "a", "body", make) == 0
        assert await kept.run("ana", "a", "body", make) == 0  # the same answer, no second piece of work
        now[0] = 61.0
        assert await kept.run("ana", "a", "body", make) == 1  # expired: done again
        assert await kept.run("ana", "b", "body", make) == 2
        assert await kept.run("ana", "c", "body", make) == 3  # a third key: the oldest ("a") is forgotten
        assert len(kept) == 2
        assert await kept.run("ana", "c", "body", make) == 3
        assert await kept.run("ana", "a", "body", make) == 4

    asyncio.run(scenario())
