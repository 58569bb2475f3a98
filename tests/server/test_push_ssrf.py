"""Push endpoints are the push services' own, never an address of the server's network (``push_net.py``).

A subscription names any URL: without the checks, the server posts to whatever it names.  The listener here is a
real HTTP server on loopback standing for an internal service; the tests assert that it is never reached, whether
the endpoint names it at subscription, resolves to it later (a name rebound), or redirects to it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.client import create_table
from tests.server.test_correspondence import Browser

from ludotheque.server import push_net
from ludotheque.server.config import Settings
from ludotheque.server.db import make_engine, migrate
from ludotheque.server.process import ServerProcess
from ludotheque.server.push import Pusher, PushKeys
from ludotheque.server.schema import push_subscriptions
from ludotheque.server.store.push import subscribe


class Internal:
    """An internal service on loopback: it records every request; ``/redirect`` answers 307 to ``/internal-admin``."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        internal = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", "0")))
                internal.paths.append(self.path)
                self.send_response(307 if self.path.startswith("/redirect") else 201)
                if self.path.startswith("/redirect"):
                    self.send_header("Location", f"{internal.url}/internal-admin/delete-everything")
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


@pytest.fixture(scope="module")
def internal() -> Iterator[Internal]:
    service = Internal()
    yield service
    service.server.shutdown()


def spellings(port: int) -> list[str]:
    """Loopback, link-local, private and the rest, as a resolver reads them."""
    hosts = ["127.0.0.1", "localhost", "2130706433", "0x7f.1", "0177.0.0.1", "127.1", "169.254.169.254", "[::1]",
             "[::ffff:127.0.0.1]", "[::ffff:7f00:1]", "[64:ff9b::7f00:1]", "[2002:7f00:1::]", "10.0.0.1",
             "192.168.1.1", "172.16.0.1", "100.64.0.1", "[fe80::1]", "[fc00::1]", "224.0.0.1", "[ff02::1]",
             "0.0.0.0", "[::]", "240.0.0.1", "255.255.255.255"]
    return [f"http://{host}:{port}/x" for host in hosts]


@pytest.mark.parametrize("endpoint", spellings(9))
def test_every_spelling_of_an_internal_address_is_refused(endpoint: str) -> None:
    with pytest.raises(push_net.EndpointRefused):
        push_net.check_endpoint(endpoint, ("https", "http"), (), allow_private=False)


def test_public_addresses_pass_and_the_allow_list_names_the_push_services() -> None:
    push_net.check_endpoint("https://8.8.8.8/x", ("https",), (), allow_private=False)  # resolved, not reached
    push_net.check_endpoint("https://[2001:4860:4860::8888]/x", ("https",), (), allow_private=False)
    hosts = ("fcm.googleapis.com", "*.push.apple.com")
    assert push_net.host_allowed("web.push.apple.com", hosts) and push_net.host_allowed("FCM.googleapis.com.", hosts)
    assert not push_net.host_allowed("push.apple.com.evil.example", hosts)
    assert not push_net.host_allowed("evilfcm.googleapis.com.example", hosts)
    with pytest.raises(push_net.EndpointRefused, match="not one of this server's push services"):
        push_net.check_endpoint("https://8.8.8.8/x", ("https",), hosts, allow_private=False)
    with pytest.raises(push_net.EndpointRefused, match="user name"):
        push_net.check_endpoint("https://8.8.8.8@127.0.0.1/x", ("https",), (), allow_private=False)


@pytest.fixture(scope="module")
def guarded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server as a host starts it (no private push endpoints), that lets http endpoints in for the listener."""
    folder = tmp_path_factory.mktemp("server")
    process = ServerProcess(f"sqlite:///{folder / 'ludotheque.db'}", folder).start(
        env={"LUDOTHEQUE_PUSH_ALLOW_HTTP": "1", "LUDOTHEQUE_DATA": str(folder)})
    try:
        yield process
    finally:
        process.stop()


def test_the_server_refuses_subscriptions_to_internal_addresses(guarded_server: ServerProcess,
                                                                internal: Internal) -> None:
    created = create_table(guarded_server.url, "geier", 2, ["me", "open"], clock={"days": 1})
    for endpoint in spellings(internal.port):
        browser = Browser(endpoint).subscription()
        refused = httpx.post(f"{guarded_server.url}/api/push/subscribe",
                             headers={"Authorization": f"Bearer {created['token']}"},
                             json={"subscription": browser, "table_id": created["table_id"]})
        assert refused.status_code == 400, endpoint
        assert "not on the internet" in refused.json()["detail"]
    assert internal.paths == []


def pusher(tmp_path: Path, allow_private: bool) -> Pusher:
    engine = make_engine(f"sqlite:///{tmp_path / 'push.db'}")
    migrate(engine)
    settings = Settings(db_url="sqlite://", push_allow_private=allow_private)
    return Pusher(engine, PushKeys.load(tmp_path), "mailto:test@localhost", settings)


def test_each_sending_checks_the_address_again_and_follows_no_redirect(internal: Internal, tmp_path: Path) -> None:
    # a name that pointed elsewhere at subscription and resolves to loopback now (a rebound name): not reached
    guarded = pusher(tmp_path, allow_private=False)
    rebound = {**Browser(f"http://localhost:{internal.port}/rebound").subscription(), "lang": "fr"}
    rebound.update(rebound.pop("keys"))
    subscribe(guarded.engine, ["seat:t:0"], rebound["endpoint"], rebound["p256dh"], rebound["auth"], "fr")
    assert guarded.send(rebound, {"title": "x"}) is False
    assert internal.paths == []
    with guarded.engine.connect() as db:  # refused for where it leads: the subscription is deleted
        assert db.execute(push_subscriptions.select()).all() == []
    # a push service of the test's own network (allowed), answering 307: the POST is not sent again elsewhere
    local = pusher(tmp_path / "local", allow_private=True)
    redirect = {**Browser(f"{internal.url}/redirect").subscription(), "lang": "fr"}
    redirect.update(redirect.pop("keys"))
    assert local.send(redirect, {"title": "x"}) is False
    assert internal.paths == ["/redirect"]
