"""The site does not trust Redis with its authority (``cluster.py``): channels are the site's and its Redis
database's own, every message between nodes is signed with the site's secret (a forged ``ws.open`` serves no
seat), and the database, not Redis, decides who writes a table (a fencing number every commit checks)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest
import redis
from tests.server.client import Client, create_table
from tests.server.test_site import redis_url
from websockets.exceptions import ConnectionClosed

from ludotheque.server.cluster import MESSAGE_TTL_S, Cluster
from ludotheque.server.db import make_engine
from ludotheque.server.process import SITE_FOR_TESTS, ServerProcess
from ludotheque.server.store import Fenced, Store

SECRET = SITE_FOR_TESTS["LUDOTHEQUE_SITE_SECRET"]


def test_channels_carry_the_site_and_the_redis_database() -> None:
    one = Cluster("redis://127.0.0.1:6379/1", "club", SECRET, node="n")
    other_db = Cluster("redis://127.0.0.1:6379/2", "club", SECRET, node="n")
    other_site = Cluster("redis://127.0.0.1:6379/1", "other", SECRET, node="n")
    assert one.channel("n") == "ludotheque:club:1:node:n"
    assert len({one.channel("n"), other_db.channel("n"), other_site.channel("n")}) == 3
    assert Cluster("redis://127.0.0.1:6379", "club", SECRET).prefix == "ludotheque:club:0:"


def test_a_message_is_taken_once_signed_recent_and_for_its_channel() -> None:
    sender, receiver = Cluster("redis://x/0", "s", SECRET, node="a"), Cluster("redis://x/0", "s", SECRET, node="b")
    stranger = Cluster("redis://x/0", "s", "another secret of 16+", node="c")
    channel = receiver.channel("b")
    signed = sender.sign(channel, {"k": "ws.open", "conn": "x"})
    assert receiver.verified(channel, signed) is not None
    assert receiver.verified(channel, signed) is None  # the same message again: a replay
    assert receiver.verified(receiver.channel("c"), sender.sign(channel, {"k": "call"})) is None  # another channel
    assert receiver.verified(channel, stranger.sign(channel, {"k": "call"})) is None  # without the secret
    assert receiver.verified(channel, json.dumps({"k": "ws.open"})) is None  # unsigned, as before
    mac, _, body = sender.sign(channel, {"k": "call"}).partition(".")
    tampered = body.replace('"call"', '"ws.open"')
    assert receiver.verified(channel, f"{mac}.{tampered}") is None
    old = json.dumps({"k": "call", "t": time.time() - 2 * MESSAGE_TTL_S, "n": "x"}, separators=(",", ":"))
    assert receiver.verified(channel, f"{sender._mac(channel, old)}.{old}") is None  # too old


#: a site needs PostgreSQL
site_only = pytest.mark.parametrize("db_url", ["postgresql"], indirect=True, scope="module")


@pytest.fixture(scope="module")
def node(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(db_url, tmp_path_factory.mktemp("node"), "--redis", f"{redis_url()}/0").start()
    try:
        yield process
    finally:
        process.stop()


@site_only
def test_a_forged_ws_open_serves_no_seat(node: ServerProcess, db_url: str) -> None:
    created = create_table(node.url, "geier", 2, ["me", "bot:random"])
    table = created["table_id"]
    client = redis.Redis.from_url(f"{redis_url()}/0", decode_responses=True)
    site = db_url.rpartition("/")[2]
    prefix = f"ludotheque:{site}:0:"
    owner = client.get(f"{prefix}lease:{table}")
    assert owner is not None
    listener = client.pubsub()
    listener.subscribe(f"{prefix}node:evil", f"ludotheque:{site}:node:evil")
    hello = json.dumps({"type": "hello", "last_seq": 0})
    # a Redis client without the secret: unsigned messages on the node's channel, and on the old channel name
    for channel in (f"{prefix}node:{owner}", f"ludotheque:{site}:node:{owner}"):
        client.publish(channel, json.dumps({"k": "ws.open", "conn": "forged", "from": "evil", "table": table,
                                            "seat": 0}))
        client.publish(channel, json.dumps({"k": "ws.in", "conn": "forged", "text": hello}))
    # the same with the secret (what a node sends): served
    signer = Cluster(f"{redis_url()}/0", site, SECRET, node="evil")
    channel = f"{prefix}node:{owner}"
    client.publish(channel, signer.sign(channel, {"k": "ws.open", "conn": "signed", "from": "evil", "table": table,
                                                  "seat": 0}))
    client.publish(channel, signer.sign(channel, {"k": "ws.in", "conn": "signed", "text": hello}))
    answered: dict[str, list[dict[str, object]]] = {}
    deadline, settled = time.monotonic() + 20, 0.0
    while "signed" not in answered or time.monotonic() < settled:
        assert time.monotonic() < deadline, f"no answer to the signed hello: {answered}"
        message = listener.get_message(timeout=0.2)
        if message is None or message["type"] != "message":
            continue
        taken = signer.verified(message["channel"], message["data"])
        assert taken is not None, "every message a node sends is signed"
        answered.setdefault(str(taken["conn"]), []).append(taken)
        if "signed" in answered and len(answered["signed"]) == 1:
            settled = time.monotonic() + 1.0  # the forged hello, sent first, would have been answered by now
    assert "forged" not in answered
    assert any(m.get("msg", {}).get("type") == "state" for m in answered["signed"])  # type: ignore[union-attr]
    listener.close()
    client.close()
    asyncio.run(signer.redis.aclose())


def test_a_commit_with_an_old_fencing_number_writes_nothing(db_url: str, tmp_path: Path) -> None:
    server = ServerProcess(db_url, tmp_path).start()
    try:
        created = create_table(server.url, "geier", 2, ["me", "bot:random"])
        assert httpx.get(f"{server.url}/api/tables/{created['table_id']}").status_code == 200
    finally:
        server.stop()
    table = created["table_id"]
    engine = make_engine(db_url)
    store = Store(engine)
    try:
        seq = store.action_count(table)
        stale = store.take_fence(table)  # the node that held the table
        fresh = store.take_fence(table)  # the node that took it while the first was frozen
        assert fresh == stale + 1

        async def commit(fence: int, move_id: str) -> None:
            await store.append(table, seq + 1, 0, 0, "1", move_id, None, fence)

        with pytest.raises(Fenced):
            asyncio.run(commit(stale, "stale"))
        with pytest.raises(Fenced):
            store.append_action(table, seq + 1, 0, 0, "1", "stale", None, fence=stale)
        assert store.action_count(table) == seq
        asyncio.run(commit(fresh, "fresh"))  # the holder's commit goes through
        assert [a.client_move_id for a in store.actions(table)][-1] == "fresh"
    finally:
        engine.dispose()


@site_only
def test_a_node_frozen_past_its_lease_writes_nothing_once_another_took_the_table(db_url: str, tmp_path: Path) -> None:
    env = {"LUDOTHEQUE_LEASE_S": "2"}
    a = ServerProcess(db_url, tmp_path, "--redis", f"{redis_url()}/0").start(env)
    b = ServerProcess(db_url, tmp_path, "--redis", f"{redis_url()}/0").start(env)
    client = redis.Redis.from_url(f"{redis_url()}/0", decode_responses=True)
    person = spectator = None
    try:
        created = create_table(a.url, "geier", 2, ["me", "bot:random"])
        table = created["table_id"]
        lease = f"ludotheque:{db_url.rpartition('/')[2]}:0:lease:{table}"
        person = Client(a.ws_url, table, created["token"])  # served by a, which holds the table
        state = person.hello()
        while not state["legal"]:
            state = person.next("state")
        assert a.process is not None
        # a's commit of the person's move is under way, held by a lock of the database's writes (a slow disk), when
        # a is frozen: it renews nothing meanwhile
        blocker = psycopg.connect(db_url)
        blocker.execute("LOCK TABLE actions IN SHARE MODE")
        move = {"type": "move", "move": state["legal"][0]["notation"], "client_move_id": "frozen",
                "after_seq": state["seq"]}
        person.send(move)
        deadline = time.monotonic() + 30
        with psycopg.connect(db_url, autocommit=True) as watcher:  # pg_stat_activity is read afresh outside one
            while not watcher.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
                                      "AND query LIKE 'INSERT INTO actions%%'").fetchone()[0]:  # type: ignore[index]
                assert time.monotonic() < deadline, "a's commit never began"
                time.sleep(0.05)
        a.process.send_signal(signal.SIGSTOP)
        deadline = time.monotonic() + 30
        while client.exists(lease):
            assert time.monotonic() < deadline, "a's lease never ran out"
            time.sleep(0.2)
        spectator = Client(b.ws_url, table)  # b takes the table: the lease, then the fence, then the log
        spectator.hello()
        blocker.commit()  # the database takes a's write; then a, woken, would commit it
        blocker.close()
        a.process.send_signal(signal.SIGCONT)
        with contextlib.suppress(ConnectionClosed):
            while True:
                person.recv(timeout=30)
        engine = make_engine(db_url)
        try:
            moves = [action.client_move_id for action in Store(engine).actions(table)]
        finally:
            engine.dispose()
        assert "frozen" not in moves
        assert not any(m["type"] == "ack" for m in person.received)
        # the person reconnects, lands on b, and sends the move again: applied once
        person.close()
        person = Client(b.ws_url, table, created["token"])
        again = person.hello()
        person.send({**move, "after_seq": again["seq"]})
        assert person.next("ack")["client_move_id"] == "frozen"
    finally:
        if a.process is not None and a.process.poll() is None:
            a.process.send_signal(signal.SIGCONT)
        for socket in (person, spectator):
            if socket is not None:
                socket.close()
        client.close()
        a.stop()
        b.stop()
