"""How long does a person's push message wait while others' endpoints never answer?  (``python -m
benchmarks.push_starvation``)

The server's ``Pusher`` (the real sending threads, timeouts and queue, ``server/push.py``) on an SQLite file of its
own; a tarpit on loopback that takes connections and never answers; a push service on loopback that answers 201.
``--attackers N`` seats (guests, one person each) have ``--subscriptions`` tarpit subscriptions each and queue all
the turns they may; then one more person, whose subscription is the push service's, is told it is their turn, every
second, ``--rounds`` times.  Printed: that person's waits (from ``turn`` to the push service's receipt: p50, max),
the tarpit connections made meanwhile, and the tarpit subscriptions left (deleted after three failures).  With the
defaults (20 attackers of 5 subscriptions each, 10 rounds) it runs about 20 s.
"""

from __future__ import annotations

import argparse
import socket
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import func, select

from ludotheque.server import push
from ludotheque.server.config import Settings
from ludotheque.server.db import make_engine, migrate
from ludotheque.server.push import Pusher, PushKeys
from ludotheque.server.schema import push_subscriptions
from ludotheque.server.store.push import subscribe


def keys() -> tuple[str, str]:
    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return push._b64url(point), push._b64url(b"0123456789abcdef")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--attackers", type=int, default=20)
    parser.add_argument("--subscriptions", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=10)
    args = parser.parse_args()

    received: dict[str, float] = {}
    arrived = threading.Condition()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            self.rfile.read(int(self.headers.get("Content-Length", "0")))
            with arrived:
                received[self.path] = time.perf_counter()
                arrived.notify_all()
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_: Any) -> None:
            pass

    service = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=service.serve_forever, daemon=True).start()
    tarpit = socket.create_server(("127.0.0.2", 0), backlog=1024)
    held: list[socket.socket] = []
    threading.Thread(target=lambda: [held.append(tarpit.accept()[0]) for _ in iter(int, 1)], daemon=True).start()

    with tempfile.TemporaryDirectory() as folder:
        engine = make_engine(f"sqlite:///{Path(folder) / 'push.db'}")
        migrate(engine)
        pusher = Pusher(engine, PushKeys.load(Path(folder)), "mailto:bench@localhost",
                        Settings(db_url="sqlite://", push_allow_private=True))
        for a in range(args.attackers):
            for n in range(args.subscriptions):
                subscribe(engine, [push.seat_owner(f"a{a}", 0)], f"http://127.0.0.2:{tarpit.getsockname()[1]}/{a}/{n}",
                          *keys(), "en")
        port = service.server_address[1]
        subscribe(engine, [push.player_owner("bo")], f"http://127.0.0.1:{port}/bo", *keys(), "en")
        for a in range(args.attackers):
            for _ in range(push.PER_PERSON):
                pusher.turn(SimpleNamespace(id=f"a{a}", name="x", seats=[SimpleNamespace(player_id=None)]), 0)
        waits = []
        for round_ in range(args.rounds):
            with arrived:
                received.clear()
            started = time.perf_counter()
            pusher.turn(SimpleNamespace(id=f"b{round_}", name="x", seats=[SimpleNamespace(player_id="bo")]), 0)
            with arrived:
                arrived.wait_for(lambda: "/bo" in received, timeout=120)
                waits.append(received["/bo"] - started)
            time.sleep(1.0)
        with engine.connect() as db:
            left = db.execute(select(func.count()).select_from(push_subscriptions)).scalar_one() - 1
        pusher.close()
    waits.sort()
    print(f"{args.attackers} attackers x {args.subscriptions} tarpit subscriptions, {push.SENDERS} sending threads, "
          f"timeouts {push.SEND_TIMEOUT_S} s")
    print(f"the other person's push: p50 {1000 * waits[len(waits) // 2]:.0f} ms, max {1000 * waits[-1]:.0f} ms "
          f"over {len(waits)} turns")
    print(f"tarpit connections meanwhile: {len(held)}; tarpit subscriptions left: {left}")


if __name__ == "__main__":
    main()
