"""HTTP hardening over real sockets: security headers on every kind of answer, request bodies capped at 1 MiB
(declared or streamed), validation errors that echo only a prefix of the input, private tables watched only with
their invite or a seat, and WebSocket origins compared by scheme, host and port."""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from ludotheque.server.process import ServerProcess

from .client import Client, create_table

MIB = 1 << 20


def raw_exchange(server: ServerProcess, head: bytes, chunks: list[bytes]) -> tuple[int, bytes]:
    """Send a request's head, then its body pieces (stopping if the server answers or closes first); the
    answer's status and body."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
        conn.sendall(head)
        for chunk in chunks:
            try:
                conn.sendall(chunk)
            except (BrokenPipeError, ConnectionResetError):
                break
        answer = b""
        try:
            while data := conn.recv(65536):
                answer += data
                if b"\r\n\r\n" in answer:
                    head_part, _, body = answer.partition(b"\r\n\r\n")
                    length = [int(line.split(b":")[1]) for line in head_part.split(b"\r\n")
                              if line.lower().startswith(b"content-length:")]
                    if length and len(body) >= length[0]:
                        break
        except ConnectionResetError:
            pass
    status_line, _, rest = answer.partition(b"\r\n")
    return int(status_line.split()[1]), rest.partition(b"\r\n\r\n")[2]


def watcher(ws_base: str, table_id: str, query: str = "", origin: str | None = None) -> Client:
    """A connection without a seat's token; ``query`` is added to the address as it is (``invite=CODE``)."""
    return Client(ws_base, f"{table_id}?{query}" if query else table_id, origin=origin)


def closed_code(ws_base: str, table_id: str, query: str = "", origin: str | None = None) -> int | None:
    """The close code a connection gets before any frame."""
    with pytest.raises(ConnectionClosed) as closed:
        watcher(ws_base, table_id, query, origin).recv(5)
    return closed.value.rcvd.code if closed.value.rcvd else None


def test_every_kind_of_answer_carries_the_security_headers(server: ServerProcess) -> None:
    created = create_table(server.url, "geier", 2, ["me", "bot:random"])
    table = created["table_id"]
    answers = {
        "lobby page": httpx.get(f"{server.url}/"),
        "table page": httpx.get(f"{server.url}/tables/{table}"),
        "me page": httpx.get(f"{server.url}/me"),
        "ratings page": httpx.get(f"{server.url}/ratings"),
        "replay page": httpx.get(f"{server.url}/tables/{table}/replay"),
        "script": httpx.get(f"{server.url}/static/js/table.js"),
        "game file": httpx.get(f"{server.url}/games/geier/web/renderer.js"),
        "api": httpx.get(f"{server.url}/api/games"),
        "refusal": httpx.get(f"{server.url}/api/tables/nosuchtable"),
        "validation error": httpx.post(f"{server.url}/api/tables", json={}),
        "unknown path": httpx.get(f"{server.url}/nothing/here"),
    }
    for kind, answer in answers.items():
        headers = answer.headers
        assert headers.get("x-content-type-options") == "nosniff", kind
        assert headers.get("x-frame-options") == "DENY", kind
        assert headers.get("referrer-policy") == "no-referrer", kind
        policy = {part.split()[0]: part.split()[1:] for part in headers["content-security-policy"].split("; ")}
        assert policy["default-src"] == ["'self'"], kind
        assert policy["script-src"] == ["'self'"], kind
        assert policy["frame-ancestors"] == ["'none'"], kind
    for kind in ("lobby page", "table page", "me page", "ratings page", "replay page"):
        assert answers[kind].status_code == 200 and answers[kind].headers["content-type"].startswith("text/html")
        # no inline script, nor any handler attribute: the policy would block them
        assert not re.search(rb"<script(?![^>]*\bsrc=)|\son[a-z]+=", answers[kind].content), kind


def test_a_body_over_one_mib_is_refused_with_413_declared_or_streamed(server: ServerProcess) -> None:
    body = json.dumps({"name": "x" * (2 * MIB)}).encode()
    declared = (f"POST /api/players HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\n\r\n").encode()
    # the answer comes before any of the body is sent: the declared length alone is enough
    status, answer = raw_exchange(server, declared, [])
    assert status == 413 and len(answer) < 200
    chunked = (f"POST /api/players HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nContent-Type: application/json\r\n"
               "Transfer-Encoding: chunked\r\n\r\n").encode()
    pieces = [body[i:i + 65536] for i in range(0, len(body), 65536)]
    status, answer = raw_exchange(server, chunked, [b"%x\r\n%s\r\n" % (len(p), p) for p in pieces] + [b"0\r\n\r\n"])
    assert status == 413 and len(answer) < 200
    # through an ordinary client too, and a body just under the limit is read as usual
    assert httpx.post(f"{server.url}/api/players", content=body,
                      headers={"content-type": "application/json"}).status_code == 413
    assert httpx.post(f"{server.url}/api/players", json={"name": "Zoé"}).status_code == 201


def test_a_validation_error_echoes_only_a_prefix_of_the_input(server: ServerProcess) -> None:
    # a 10 MB name is over the body limit; one just under 1 MiB reaches validation
    assert httpx.post(f"{server.url}/api/players", json={"name": "n" * 10_000_000}).status_code == 413
    name = "n" * 1_000_000
    answer = httpx.post(f"{server.url}/api/tables/anytable/join", json={"name": name})
    assert answer.status_code == 422 and len(answer.content) < 2000
    [error] = answer.json()["detail"]
    assert error["loc"] == ["body", "name"] and error["input"].startswith("n" * 100)
    assert len(error["input"]) <= 101
    nested = httpx.post(f"{server.url}/api/tables", json={"game": "geier", "players": 2, "options": [name]})
    assert nested.status_code == 422 and len(nested.content) < 2000


@pytest.fixture(scope="module")
def private_table(server: ServerProcess) -> dict[str, str]:
    created = create_table(server.url, "geier", 2, ["me", "bot:random"], private=True)
    invite = parse_qs(urlsplit(created["invite_url"]).query)["invite"][0]
    assert httpx.get(f"{server.url}/api/tables/{created['table_id']}").json()["status"] == "playing"
    return {"id": created["table_id"], "token": created["token"], "invite": invite}


def test_a_private_table_is_watched_only_with_its_invite_or_a_seat(
    server: ServerProcess, private_table: dict[str, str]
) -> None:
    table = private_table["id"]
    assert closed_code(server.ws_url, table) == 4403
    assert closed_code(server.ws_url, table, "invite=not-the-code") == 4403
    invited = watcher(server.ws_url, table, f"invite={private_table['invite']}")
    try:
        state = invited.hello(0)
        assert state["legal"] == [] and state["view"]["game"] == "geier"
    finally:
        invited.close()
    seated = Client(server.ws_url, table, private_table["token"])
    try:
        assert seated.hello(0)["view"]["game"] == "geier"
    finally:
        seated.close()
    # a public table is watched by anyone
    public = create_table(server.url, "geier", 2, ["me", "bot:random"])
    spectator = Client(server.ws_url, public["table_id"])
    try:
        assert spectator.hello(0)["legal"] == []
    finally:
        spectator.close()


def test_origins_are_compared_by_scheme_host_and_port(server: ServerProcess) -> None:
    table = create_table(server.url, "geier", 2, ["me", "bot:random"])["table_id"]
    own = f"http://127.0.0.1:{server.port}"
    for foreign in (f"https://127.0.0.1:{server.port}", f"javascript://127.0.0.1:{server.port}",
                    f"http://127.0.0.1:{server.port + 1}", "http://127.0.0.1", "null", "https://evil.example"):
        assert closed_code(server.ws_url, table, origin=foreign) == 4403, foreign
    for accepted in (own, f"HTTP://127.0.0.1:{server.port}", None):
        client = Client(server.ws_url, table, origin=accepted)
        try:
            assert client.hello(0)["view"]["game"] == "geier", accepted
        finally:
            client.close()


def test_public_url_and_allow_origin_name_the_accepted_origins(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'ludotheque.db'}", tmp_path, "--public-url",
                           "https://club.example/", "--allow-origin", "http://friends.example:8080",
                           "--allow-origin", "https://other.example").start()
    try:
        table = create_table(server.url, "geier", 2, ["me", "bot:random"])["table_id"]
        for accepted in ("https://club.example", "https://club.example:443", "http://friends.example:8080",
                         "https://other.example"):
            client = Client(server.ws_url, table, origin=accepted)
            try:
                assert client.hello(0)["legal"] == [], accepted
            finally:
                client.close()
        # the address the request came to is not the server's own when --public-url names another
        for refused in (f"http://127.0.0.1:{server.port}", "http://club.example", "http://friends.example",
                        "http://other.example", "https://club.example:8443"):
            assert closed_code(server.ws_url, table, origin=refused) == 4403, refused
    finally:
        server.stop()
