"""Games by correspondence (``"clock": {"days": N}``): a person away keeps their seat, the lists say whose turn it
is, and a person with no page open is told by Web Push, on SQLite and PostgreSQL, over real sockets.

The push service is a small HTTP server of the test's own on loopback: it checks each message's VAPID signature
against the server's public key and decrypts it (aes128gcm) with the test's own subscription keys, as a browser's
push service and the browser would.  Nothing of ``pywebpush`` is mocked."""

from __future__ import annotations

import base64
import json
import threading
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import http_ece
import httpx
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from py_vapid import Vapid02
from sqlalchemy import select

from ludotheque.server.clock import Clock
from ludotheque.server.db import make_engine
from ludotheque.server.process import ServerProcess
from ludotheque.server.push import KEY_FILE, PushKeys, data_folder
from ludotheque.server.schema import push_subscriptions

from .client import Client, create_table


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class PushService:
    """A push service on loopback: it keeps every message posted to it; ``/gone/...`` answers 410 (a subscription
    the browser dropped)."""

    def __init__(self) -> None:
        self.received: list[tuple[str, dict[str, str], bytes]] = []
        self.lock = threading.Condition()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                with service.lock:
                    service.received.append((self.path, {k.lower(): v for k, v in self.headers.items()}, body))
                    service.lock.notify_all()
                self.send_response(410 if self.path.startswith("/gone/") else 201)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def at(self, path: str) -> list[tuple[dict[str, str], bytes]]:
        with self.lock:
            return [(headers, body) for p, headers, body in self.received if p == path]

    def wait(self, path: str, count: int, timeout: float = 30.0) -> list[tuple[dict[str, str], bytes]]:
        """The messages posted to ``path`` once there are ``count`` of them (the timeout only tells a stall)."""
        deadline = time.monotonic() + timeout
        with self.lock:
            while len(self.at_locked(path)) < count:
                left = deadline - time.monotonic()
                assert left > 0, f"{path}: {len(self.at_locked(path))} messages, not {count}"
                self.lock.wait(left)
            return self.at_locked(path)

    def at_locked(self, path: str) -> list[tuple[dict[str, str], bytes]]:
        return [(headers, body) for p, headers, body in self.received if p == path]

    def close(self) -> None:
        self.server.shutdown()


class Browser:
    """A browser's push subscription: its own P-256 key and auth secret, as ``PushManager.subscribe`` makes."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = b"0123456789abcdef"

    def subscription(self) -> dict[str, Any]:
        point = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                   serialization.PublicFormat.UncompressedPoint)
        return {"endpoint": self.endpoint, "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)}}

    def read(self, body: bytes) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth,
                                                              version="aes128gcm"))
        return message


@pytest.fixture(scope="module")
def push_service() -> Iterator[PushService]:
    service = PushService()
    yield service
    service.close()


SERVER_ENV = {"LUDOTHEQUE_ABSENT_S": "1", "LUDOTHEQUE_PUSH_ALLOW_HTTP": "1", "LUDOTHEQUE_PUSH_ALLOW_PRIVATE": "1"}


@pytest.fixture(scope="module")
def server(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server where a person with no connection loses the seat after 1 s at a table without a clock, and a local
    (http) push endpoint is let in."""
    data = tmp_path_factory.mktemp("data")
    process = ServerProcess(db_url, tmp_path_factory.mktemp("server")).start(
        env={**SERVER_ENV, "LUDOTHEQUE_DATA": str(data)})
    process.data = data  # type: ignore[attr-defined]
    try:
        yield process
    finally:
        process.stop()


def summary(server: ServerProcess, table_id: str) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(f"{server.url}/api/tables/{table_id}").json()
    return data


def until(test: Callable[[], Any], timeout: float = 30.0) -> Any:
    """The first truthy value of ``test()`` (the timeout only tells a stall)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = test()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("it never happened")


def play_first_legal(client: Client, after: int = -1) -> int:
    """Wait for a frame offering the seat moves, newer than ``after`` (the seq at which it last played), and play
    the first; that frame's seq."""
    frame = client.state
    while frame is None or not frame["legal"] or frame["seq"] <= after:
        frame = client.next("state")
    client.send({"type": "move", "move": frame["legal"][0]["notation"], "client_move_id": f"m{frame['seq']}",
                 "after_seq": frame["seq"]})
    client.next("ack")
    seq: int = frame["seq"]
    return seq


def wait_frame(client: Client, test: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
    frame = client.state
    while frame is None or not test(frame):
        frame = client.next("state")
    return frame


# -- the option ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("days", [0, 1, 14, 15, -2])
def test_a_correspondence_table_gives_1_to_14_days_a_move(server: ServerProcess, days: int) -> None:
    body = {"game": "geier", "players": 2, "seats": ["me", "open"], "clock": {"days": days}}
    response = httpx.post(f"{server.url}/api/tables", json=body)
    if not 1 <= days <= 14:
        assert response.status_code == 400 and "days" in response.json()["detail"]
        return
    assert response.status_code == 201, response.text
    clock = summary(server, response.json()["table_id"])["clock"]
    assert clock == {"profile": None, "days": days, "move": days * 86_400, "reserve": 0}


def test_a_person_away_longer_than_absent_s_keeps_the_seat_at_a_correspondence_table(server: ServerProcess) -> None:
    # the same table twice, the creator never connecting: without a clock a bot takes the seat after 1 s
    # (LUDOTHEQUE_ABSENT_S); by correspondence it waits for the move's days
    by_post = create_table(server.url, "geier", 2, ["me", "bot:random"], clock={"days": 1})["table_id"]
    among_friends = create_table(server.url, "geier", 2, ["me", "bot:random"])["table_id"]
    until(lambda: summary(server, among_friends)["seats"][0]["away"])
    waiting = summary(server, by_post)
    assert waiting["status"] == "playing" and waiting["seats"][0]["away"] is False
    assert waiting["to_act"] == [0]


def test_a_restored_correspondence_clock_keeps_counting_the_days_of_the_turn_in_progress() -> None:
    # a server restarted every night must not give every seat its days back each time
    spec = {"profile": None, "days": 2, "move": 2 * 86_400.0, "reserve": 0.0}
    clock = Clock.of(spec, None, 3)
    assert clock is not None
    clock.follow([1], now=time.monotonic() - 3_600)  # seat 1's turn began an hour ago
    restored = Clock.of(spec, clock.state(), 3)
    assert restored is not None
    restored.follow([1, 2])  # seat 2 becomes to act with the last action: its turn began when it was committed
    left = {seat: restored.deadline(seat) - time.monotonic() for seat in (1, 2)}  # type: ignore[operator]
    assert 2 * 86_400 - 3_700 < left[1] < 2 * 86_400 - 3_500
    assert 2 * 86_400 - 100 < left[2] <= 2 * 86_400 + 1  # "at" is kept to the millisecond
    # a clock of seconds gives the turns in progress back after a restart, as it always did
    quick = Clock.of({"profile": None, "move": 30.0, "reserve": 0.0}, None, 3)
    assert quick is not None
    quick.follow([1], now=time.monotonic() - 20)
    again = Clock.of({"profile": None, "move": 30.0, "reserve": 0.0}, quick.state(), 3)
    assert again is not None
    again.follow([1])
    assert again.deadline(1) - time.monotonic() > 29  # type: ignore[operator]


# -- whose turn, and Web Push -----------------------------------------------------------------------------------


def test_the_turn_is_listed_and_told_by_push_to_a_person_with_no_page_open(
    server: ServerProcess, push_service: PushService, db_url: str,
) -> None:
    key = httpx.get(f"{server.url}/api/push/key").json()["public_key"]
    assert len(unb64url(key)) == 65
    tag = f"{abs(hash(db_url))}"
    # Bo creates the table, keeps it open and subscribes for the seat (its token)
    created = create_table(server.url, "geier", 2, ["me", "open"], clock={"days": 3}, player_name="Bo")
    table_id, bo_token = created["table_id"], created["token"]
    bo = Client(server.ws_url, table_id, bo_token)
    # Ana is a player who subscribed two browsers (the second one's push service has dropped it: 410)
    ana_player = httpx.post(f"{server.url}/api/players", json={"name": "Ana"}).json()["token"]
    ana_browser, ana_old_browser = Browser(f"{push_service.url}/ana/{tag}"), Browser(f"{push_service.url}/gone/{tag}")
    bo_browser = Browser(f"{push_service.url}/bo/{tag}")
    try:
        bo.hello()
        subscribed = httpx.post(f"{server.url}/api/push/subscribe", headers={"Authorization": f"Bearer {bo_token}"},
                                json={"subscription": bo_browser.subscription(), "table_id": table_id})
        assert subscribed.status_code == 201 and subscribed.json()["kept_for"] == ["seat"]
        for browser, lang in ((ana_old_browser, "en"), (ana_browser, "de")):  # each in its page's language
            subscribed = httpx.post(f"{server.url}/api/push/subscribe", headers={"X-Player-Token": ana_player},
                                    json={"subscription": browser.subscription(), "lang": lang})
            assert subscribed.status_code == 201 and subscribed.json()["kept_for"] == ["player"]
        # a table of Ana's still waiting for people is not her turn
        waiting = httpx.post(f"{server.url}/api/tables", headers={"X-Player-Token": ana_player},
                             json={"game": "geier", "players": 2, "seats": ["me", "open"], "clock": {"days": 1}})
        assert waiting.status_code == 201
        # Ana takes the open seat without opening the table: the game starts, both bid at once
        joined = httpx.post(f"{server.url}/api/tables/{table_id}/join", headers={"X-Player-Token": ana_player},
                            json={"name": "Ana"}).json()
        headers, body = push_service.wait(f"/ana/{tag}", 1)[0]
        # the message is signed with the server's VAPID key, for this push service, and reads as the browser would
        assert Vapid02.verify(headers["authorization"])
        assert headers["authorization"].endswith(f"k={key}") and headers["content-encoding"] == "aes128gcm"
        claims = json.loads(unb64url(headers["authorization"].split("t=")[1].split(",")[0].split(".")[1]))
        assert claims["aud"] == push_service.url and claims["exp"] > time.time()
        message = ana_browser.read(body)
        assert message["title"] == "Du bist dran" and message["url"] == f"/tables/{table_id}"
        assert message["body"].endswith(": Du bist am Zug.")
        # the push service said the old browser's subscription is gone: it is deleted
        engine = make_engine(server.db_url)
        with engine.connect() as db:
            endpoints = set(db.execute(select(push_subscriptions.c.endpoint)).scalars())
        engine.dispose()
        assert ana_browser.endpoint in endpoints and ana_old_browser.endpoint not in endpoints
        # /me lists the table where it is Ana's turn, not the one still waiting
        me = httpx.get(f"{server.url}/api/me", headers={"X-Player-Token": ana_player}).json()
        assert [t["table_id"] for t in me["your_turn"]] == [table_id]
        assert me["your_turn"][0]["correspondence"] is True and me["your_turn"][0]["seat"] == joined["seat"]
        assert summary(server, table_id)["to_act"] == [0, 1]

        # Ana opens the table and bids; Bo bids: the next round begins while Ana's page is open (no push)
        ana = Client(server.ws_url, table_id, joined["token"])
        ana.hello()
        ana_seq = play_first_legal(ana)
        bo_seq = play_first_legal(bo)
        play_first_legal(ana, after=ana_seq)
        ana.close()
        # Ana's page is closed (Bo's frames say so) when Bo bids: the third round is told to her, never to Bo
        wait_frame(bo, lambda f: not f["seats"][joined["seat"]]["connected"])
        play_first_legal(bo, after=bo_seq)
        second = push_service.wait(f"/ana/{tag}", 2)
        assert ana_browser.read(second[1][1])["url"] == f"/tables/{table_id}"
        assert push_service.at(f"/bo/{tag}") == []
        assert len(push_service.at(f"/gone/{tag}")) == 1  # deleted after its 410: not tried again
    finally:
        bo.close()


def test_a_subscription_is_a_seats_or_a_players_and_its_endpoint_a_push_services(server: ServerProcess) -> None:
    created = create_table(server.url, "geier", 2, ["me", "open"], clock={"days": 1})
    browser = Browser("https://push.example.invalid/x").subscription()
    nobody = httpx.post(f"{server.url}/api/push/subscribe", json={"subscription": browser})
    assert nobody.status_code == 401
    wrong = httpx.post(f"{server.url}/api/push/subscribe", headers={"Authorization": "Bearer nope"},
                       json={"subscription": browser, "table_id": created["table_id"]})
    assert wrong.status_code == 403
    bad_keys = {**browser, "keys": {"p256dh": "A" * 87, "auth": b64url(b"0123456789abcdef")}}
    refused = httpx.post(f"{server.url}/api/push/subscribe", headers={"Authorization": f"Bearer {created['token']}"},
                         json={"subscription": bad_keys, "table_id": created["table_id"]})
    assert refused.status_code == 400
    not_a_service = {**browser, "endpoint": "file:///etc/passwd"}
    refused = httpx.post(f"{server.url}/api/push/subscribe", headers={"Authorization": f"Bearer {created['token']}"},
                         json={"subscription": not_a_service, "table_id": created["table_id"]})
    assert refused.status_code == 400


def test_the_vapid_keys_are_made_once_in_the_data_folder(server: ServerProcess, db_url: str,
                                                         tmp_path: Path) -> None:
    # next to the SQLite file; with PostgreSQL, in LUDOTHEQUE_DATA
    sqlite = db_url.startswith("sqlite")
    folder = Path(db_url.removeprefix("sqlite:///")).parent if sqlite else server.data  # type: ignore[attr-defined]
    assert (folder / KEY_FILE).stat().st_mode & 0o077 == 0  # the private key is the server's alone
    served = httpx.get(f"{server.url}/api/push/key").json()["public_key"]
    assert PushKeys.load(folder).public == served
    # a folder without keys gets new ones, then keeps them
    made = PushKeys.load(tmp_path / "new")
    assert PushKeys.load(tmp_path / "new").public == made.public != served
    assert data_folder(f"sqlite:///{tmp_path}/x/db.sqlite", "elsewhere") == tmp_path / "x"
