"""Two server processes on one PostgreSQL database and one Redis are one site (``serve --redis``, ``site.py``):
a table created through either is joined, watched and played through the other, with the contract of
``docs/server.md`` unchanged, and ``kill -9`` of either loses no acknowledged move: the other adopts its tables
and the clients that reconnect go on."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from tests.server.client import Client, create_table, play_to_end
from tests.server.test_surrogates import lone_surrogates_leave_the_socket_open
from websockets.exceptions import ConnectionClosed

from ludotheque.cli.serve import EXIT_NO_REDIS
from ludotheque.server.process import SITE_FOR_TESTS, ServerProcess, free_port

ROOT = Path(__file__).resolve().parents[2]


def redis_url() -> str:
    found = subprocess.run(["bash", str(ROOT / "scripts" / "redis.sh")], capture_output=True, text=True)
    if found.returncode != 0:
        pytest.skip(f"no Redis: {found.stderr.strip()}")
    return found.stdout.strip()


#: a site needs PostgreSQL: the database fixture of ``conftest.py``, on PostgreSQL only
pytestmark = pytest.mark.parametrize("db_url", ["postgresql"], indirect=True, scope="module")


_placed: list[int] = [0]


def node(db: str, folder: Path) -> ServerProcess:
    """A process of the site: on loopback, or on the hosts of ``LUDOTHEQUE_TEST_HOSTS`` in turn
    (``NETNS=ADDRESS,...``: network namespaces, as ``scripts/cluster.sh`` sets them up for ``make cluster``)."""
    hosts = [h.split("=") for h in os.environ.get("LUDOTHEQUE_TEST_HOSTS", "").split(",") if h]
    if not hosts:
        return ServerProcess(db, folder, "--redis", f"{redis_url()}/0")
    netns, address = hosts[_placed[0] % len(hosts)]
    _placed[0] += 1
    return ServerProcess(db, folder, "--redis", f"{redis_url()}/0", host=address, netns=netns)


@pytest.fixture(scope="module")
def pair(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    folder = tmp_path_factory.mktemp("site")
    a, b = node(db_url, folder).start(), node(db_url, folder).start()
    try:
        yield a, b
    finally:
        a.stop()
        b.stop()


def acks_before_frames(client: Client) -> None:
    """Every ack reaches the mover before any frame that shows its move."""
    shown = 0
    for message in client.received:
        if message["type"] == "state":
            shown = max(shown, message["seq"])
        elif message["type"] == "ack":
            assert message["seq"] > shown, f"the ack of {message['seq']} came after a frame at {shown}"


def test_a_table_created_on_one_node_is_joined_watched_and_played_on_the_other(pair: tuple[ServerProcess, ...]) -> None:
    a, b = pair
    created = create_table(a.url, "geier", 2, ["me", "open"])
    table = created["table_id"]
    joined = httpx.post(f"{b.url}/api/tables/{table}/join", json={"name": "Bea"})
    assert joined.status_code == 200, joined.text
    assert httpx.get(f"{b.url}/api/tables/{table}").json()["status"] == "playing"
    first = Client(b.ws_url, table, created["token"])  # relayed by b to the table's owner
    second = Client(a.ws_url, table, joined.json()["token"])
    watcher = Client(b.ws_url, table)
    try:
        for client in (first, second, watcher):
            client.hello()
        final = play_to_end([first, second], random.Random(7))
        watched = watcher.next("state") if not (watcher.state and watcher.state["view"]["terminal"]) else None
        while watched is not None and not watched["view"]["terminal"]:
            watched = watcher.next("state")
        assert final["status"] == "finished" or final["view"]["terminal"]
        assert watcher.state is not None and watcher.state["seq"] == final["seq"]
        acks = [m for m in first.received if m["type"] == "ack"]
        assert acks, "the relayed seat's moves were acknowledged"
        acks_before_frames(first)
        # what a spectator sees is a spectator's view: no hand of either seat
        assert all(frame["legal"] == [] for frame in watcher.frames())
        assert all("hand" not in frame["view"] or frame["view"]["hand"] is None for frame in watcher.frames())
        # an acknowledged move sent again (same client_move_id) gets its first ack, through either node
        move = next(m for m in first.received if m["type"] == "ack")
        first.send({"type": "move", "move": "1", "client_move_id": move["client_move_id"], "after_seq": 0})
        assert first.next("ack")["seq"] == move["seq"]
        record = httpx.get(f"{b.url}/api/tables/{table}/record").json()
        assert len(record["actions"]) == final["seq"]
    finally:
        for client in (first, second, watcher):
            client.close()


def test_bots_of_a_table_held_by_one_node_play_for_a_person_on_the_other(pair: tuple[ServerProcess, ...]) -> None:
    a, b = pair
    created = create_table(b.url, "geier", 3, ["me", "bot:random", "bot:heuristic"])
    person = Client(a.ws_url, created["table_id"], created["token"])
    try:
        person.hello()
        final = play_to_end([person], random.Random(3))
        assert final["view"]["terminal"]
        acks_before_frames(person)
    finally:
        person.close()


def test_a_verb_at_the_other_node_is_refused_there_as_at_the_owner(pair: tuple[ServerProcess, ...]) -> None:
    a, b = pair
    created = create_table(a.url, "geier", 2, ["me", "open"])
    table = created["table_id"]
    wrong = httpx.post(f"{b.url}/api/tables/{table}/start", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 403 and "creator" in wrong.json()["detail"]
    started = httpx.post(f"{b.url}/api/tables/{table}/start",
                         headers={"Authorization": f"Bearer {created['token']}"})
    assert started.status_code == 200 and started.json()["status"] == "playing"
    again = httpx.post(f"{a.url}/api/tables/{table}/start", headers={"Authorization": f"Bearer {created['token']}"})
    assert again.status_code == 409


def _play_some(client: Client, rng: random.Random, moves: int) -> list[int]:
    """Play ``moves`` of the seat's moves; the acknowledged seqs."""
    acked: list[int] = []
    counter = 0
    while len(acked) < moves:
        state = client.state
        assert state is not None
        if state["view"]["terminal"]:
            break
        if state["legal"]:
            counter += 1
            client.send({"type": "move", "move": rng.choice(state["legal"])["notation"],
                         "client_move_id": f"m{counter}-{state['seq']}", "after_seq": state["seq"]})
            while True:
                message = client.recv()
                if message["type"] == "ack":
                    acked.append(message["seq"])
                    break
                if message["type"] == "error":
                    break
        else:
            client.next("state")
    return acked


@pytest.mark.parametrize("killed", ["owner", "relay"])
def test_kill_9_of_either_node_loses_no_acknowledged_move(db_url: str, tmp_path: Path, killed: str) -> None:
    owner, relay = node(db_url, tmp_path).start(), node(db_url, tmp_path).start()
    try:
        created = create_table(owner.url, "geier", 2, ["me", "bot:random"], options={})
        table = created["table_id"]
        person = Client(relay.ws_url, table, created["token"])
        rng = random.Random(11)
        person.hello()
        acked = _play_some(person, rng, 3)
        assert acked
        (owner if killed == "owner" else relay).kill()
        started = time.monotonic()
        survivor = relay if killed == "owner" else owner
        # the relayed socket ends (its owner is gone, or its own node is): the client reconnects to the survivor
        if killed == "owner":
            with pytest.raises((ConnectionClosed, TimeoutError)):
                while True:
                    person.recv(timeout=20)
        person.close()
        again = Client(survivor.ws_url, table, created["token"])
        try:
            state = again.hello(last_seq=max(acked))
            while not state["legal"] and not state["view"]["terminal"]:
                state = again.next("state", timeout=20)
            # a liveness bound, loose for a loaded machine: the design's is a lease and two sweeps (10 s)
            took = time.monotonic() - started
            print(f"kill -9 of the {killed}: play went on after {took:.1f} s")
            assert took < 40, f"the survivor took {took:.1f} s to go on"
            assert state["seq"] >= max(acked)
            final = play_to_end([again], rng)
            assert final["view"]["terminal"]
            record = httpx.get(f"{survivor.url}/api/tables/{table}/record").json()
            seqs_of_person = {i + 1 for i, entry in enumerate(record["actions"]) if entry.get("by") == 0}
            assert set(acked) <= seqs_of_person, "every acknowledged move is in the record"
        finally:
            again.close()
    finally:
        owner.stop()
        relay.stop()


def test_serve_workers_starts_nodes_of_one_site_on_one_port(db_url: str, tmp_path: Path) -> None:
    """``serve --workers 2``: two processes on one port, each a node (its liveness key in Redis), and the tables
    created through the port are held by either."""
    import redis

    site = f"ludotheque:{db_url.rsplit('/', 1)[1]}:0:"  # the site's name, then the Redis database number
    link = redis.Redis.from_url(f"{redis_url()}/0", decode_responses=True)
    before = set(link.scan_iter(f"{site}alive:*"))  # the module's other nodes, on the same database
    server = ServerProcess(db_url, tmp_path, "--redis", f"{redis_url()}/0", "--workers", "2").start()
    try:
        deadline = time.monotonic() + 30
        while len(set(link.scan_iter(f"{site}alive:*")) - before) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        nodes = {key.rsplit(":", 1)[1] for key in set(link.scan_iter(f"{site}alive:*")) - before}
        assert len(nodes) == 2
        tables = [create_table(server.url, "geier", 2, ["me", "open"])["table_id"] for _ in range(16)]
        owners = {link.get(f"{site}lease:{table}") for table in tables}
        assert owners <= nodes and None not in owners
        link.close()
    finally:
        server.stop()


def test_a_lone_surrogate_is_malformed_through_a_relay(pair: tuple[ServerProcess, ...]) -> None:
    a, b = pair
    created = create_table(a.url, "geier", 2, ["me", "bot:random"])
    client = Client(b.ws_url, created["table_id"], created["token"])  # b relays to a, the table's owner
    try:
        lone_surrogates_leave_the_socket_open(client)
    finally:
        client.close()


def test_a_node_whose_redis_does_not_answer_says_so_in_one_line_and_serves_nothing(db_url: str) -> None:
    closed = free_port()  # nothing listens there
    done = subprocess.run([sys.executable, "-m", "ludotheque.cli.main", "serve", "--db", db_url, "--port",
                           str(free_port()), "--redis", f"redis://:hunter2@127.0.0.1:{closed}/0"],
                          capture_output=True, text=True, timeout=60, env={**os.environ, **SITE_FOR_TESTS})
    assert done.returncode == EXIT_NO_REDIS
    assert "serving" not in done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Redis" in lines[0] and str(closed) in lines[0], done.stderr
    assert "hunter2" not in done.stderr


def test_a_node_without_the_sites_secret_refuses_to_start(db_url: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "LUDOTHEQUE_SITE_SECRET"}
    for secret in ({}, {"LUDOTHEQUE_SITE_SECRET": "short"}):
        done = subprocess.run([sys.executable, "-m", "ludotheque.cli.main", "serve", "--db", db_url, "--port",
                               str(free_port()), "--redis", f"{redis_url()}/0"],
                              capture_output=True, text=True, timeout=60, env={**env, **secret})
        assert done.returncode == 2
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "LUDOTHEQUE_SITE_SECRET" in lines[0], done.stderr
