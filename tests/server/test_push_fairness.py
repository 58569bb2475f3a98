"""A push endpoint that never answers holds one sending thread for one person, and all such endpoints of one host
``PER_PLACE`` threads, never everyone's messages.

The tarpit is a real socket on loopback that takes connections and never answers; the push service a real HTTP
server (``test_correspondence.PushService``).  The assertions are about order (the other person's message left
while the tarpit held no more than its host's share of the threads) and about what was kept, not about time."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import select
from tests.server.test_correspondence import Browser, PushService

from ludotheque.server import push
from ludotheque.server.config import Settings
from ludotheque.server.db import make_engine, migrate
from ludotheque.server.push import Pusher, PushKeys
from ludotheque.server.schema import push_subscriptions
from ludotheque.server.store.push import subscribe

#: tarpit subscriptions of each attacking seat
SUBSCRIPTIONS = 1


class Tarpit:
    """Takes every connection and never answers; counts them."""

    def __init__(self) -> None:
        self.listener = socket.create_server(("127.0.0.2", 0), backlog=128)
        self.port = self.listener.getsockname()[1]
        self.held: list[socket.socket] = []
        self.lock = threading.Lock()
        threading.Thread(target=self._take, daemon=True).start()

    def _take(self) -> None:
        while True:
            try:
                connection, _ = self.listener.accept()
            except OSError:
                return
            with self.lock:
                self.held.append(connection)

    @property
    def connections(self) -> int:
        with self.lock:
            return len(self.held)

    def close(self) -> None:
        self.listener.close()
        for connection in self.held:
            connection.close()


@pytest.fixture
def tarpit() -> Iterator[Tarpit]:
    pit = Tarpit()
    yield pit
    pit.close()


def row(table_id: str, player_id: str | None) -> Any:
    """What ``Pusher.turn`` reads of a table's row."""
    return SimpleNamespace(id=table_id, name=f"table {table_id}", seats=[SimpleNamespace(player_id=player_id)])


def keep(pusher: Pusher, owner: str, endpoint: str) -> Browser:
    browser = Browser(endpoint)
    keys = browser.subscription()["keys"]
    subscribe(pusher.engine, [owner], endpoint, keys["p256dh"], keys["auth"], "en")
    return browser


def test_a_tarpit_endpoint_delays_no_one_else_and_is_dropped(tarpit: Tarpit, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    # a short read timeout keeps the test quick; the order asserted holds for any timeout
    monkeypatch.setattr(push, "SEND_TIMEOUT_S", (3.0, 0.5))
    service = PushService()
    engine = make_engine(f"sqlite:///{tmp_path / 'push.db'}")
    migrate(engine)
    pusher = Pusher(engine, PushKeys.load(tmp_path), "mailto:test@localhost",
                    Settings(db_url="sqlite://", push_allow_private=True))
    try:
        # more guests' seats than sending threads, each subscribed to the tarpit, four turns each (the most that may
        # wait): without a bound by host they would hold every thread
        attackers = [f"a{i}" for i in range(push.SENDERS + 4)]
        for table in attackers:
            for n in range(SUBSCRIPTIONS):
                keep(pusher, push.seat_owner(table, 0), f"http://127.0.0.2:{tarpit.port}/{table}/{n}")
        for table in attackers:
            assert all(pusher.turn(row(table, None), 0) for _ in range(push.PER_PERSON))
        assert not pusher.turn(row("a0", None), 0)  # a fifth waiting turn of one person is dropped
        # Bo's turn comes after all of them
        bo = keep(pusher, push.player_owner("bo"), f"{service.url}/bo")
        assert pusher.turn(row("b", "bo"), 0)
        _, body = service.wait("/bo", 1, timeout=60)[0]
        # it left while the tarpit held no more than its host's share of the threads (twice: a slow machine)
        assert tarpit.connections <= 2 * push.PER_PLACE < push.SENDERS
        assert bo.read(body)["url"] == "/tables/b"
        # every tarpit endpoint failed three times in a row and was deleted; Bo's is kept
        deadline = time.monotonic() + 120
        while True:
            with engine.connect() as db:
                left = set(db.execute(select(push_subscriptions.c.endpoint)).scalars())
            if left == {f"{service.url}/bo"}:
                break
            assert time.monotonic() < deadline, f"{len(left)} subscriptions left"
            time.sleep(0.2)
        assert tarpit.connections == len(attackers) * SUBSCRIPTIONS * push.FAILURES_BEFORE_DROP
    finally:
        pusher.close()
        service.close()
