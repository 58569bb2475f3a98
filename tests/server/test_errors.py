"""The server's cross-cutting answers, once for every route: a refusal (status, message, headers), a database that
fails (503, naming neither the statement nor its values, in the answer or the log), the tokens' parsers, and the
one writer every write of the database goes through."""

from __future__ import annotations

import logging
import sqlite3
import threading
from pathlib import Path

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import Column, Engine, MetaData, String, Table, create_engine, event, insert

from ludotheque.server.auth import MALFORMED_AUTHORIZATION
from ludotheque.server.db import make_engine, migrate
from ludotheque.server.errors import UNAVAILABLE, Refusal, install_error_handlers
from ludotheque.server.process import ServerProcess
from ludotheque.server.store import Store
from ludotheque.server.store import players as accounts

from .client import create_table

SECRET = "s3cret-value-nobody-may-read"


def test_a_refusal_answers_its_status_message_and_headers() -> None:
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/refused")
    def refused() -> None:
        raise Refusal(429, "too many: wait", headers={"Retry-After": "7"})

    answer = TestClient(app).get("/refused")
    assert answer.status_code == 429
    assert answer.json() == {"detail": "too many: wait"}
    assert answer.headers["retry-after"] == "7"
    assert Refusal(409, "taken").frame() == {"type": "error", "code": "conflict", "message": "taken"}


def test_a_database_error_is_a_503_without_statement_or_values(tmp_path: Path,
                                                                caplog: pytest.LogCaptureFixture) -> None:
    # an engine that shows parameters in its errors: the handler alone must keep them out
    engine = create_engine(f"sqlite:///{tmp_path / 'plain.db'}")
    secrets = Table("secrets", MetaData(), Column("value", String, primary_key=True))
    secrets.create(engine)
    app = FastAPI()
    install_error_handlers(app)

    @app.post("/write")
    def write_twice() -> None:
        with engine.begin() as db:
            db.execute(insert(secrets).values(value=SECRET))
            db.execute(insert(secrets).values(value=SECRET))  # the primary key refuses it

    with caplog.at_level(logging.ERROR, logger="ludotheque.server"):
        answer = TestClient(app).post("/write")
    assert answer.status_code == 503
    assert answer.json() == {"detail": UNAVAILABLE}
    logged = caplog.text
    assert "database error on POST /write: IntegrityError" in logged
    for hidden in (SECRET, "INSERT", "secrets"):
        assert hidden not in answer.text and hidden not in logged


@pytest.fixture(scope="module")
def server(sqlite_server: ServerProcess) -> ServerProcess:
    return sqlite_server


@pytest.mark.parametrize("authorization", ["Basic abc", "Bearer", "token-alone"])
def test_a_malformed_authorization_is_refused_with_401_on_every_route(server: ServerProcess,
                                                                       authorization: str) -> None:
    created = create_table(server.url, "geier", 2, ["me", "open"])
    table = f"{server.url}/api/tables/{created['table_id']}"
    headers = {"Authorization": authorization}
    for answer in (httpx.post(f"{table}/start", headers=headers), httpx.delete(table, headers=headers),
                   httpx.get(f"{table}/record", headers=headers), httpx.get(f"{table}/replay", headers=headers)):
        assert answer.status_code == 401
        assert answer.json() == {"detail": MALFORMED_AUTHORIZATION}
    # the scheme's name is read without regard to case, the token without the spaces around it
    started = httpx.post(f"{table}/start", headers={"Authorization": f"bEaReR  {created['token']}"})
    assert started.status_code == 200 and started.json()["status"] == "playing"


def test_a_missing_or_unknown_player_token_is_refused_with_401(server: ServerProcess) -> None:
    assert httpx.get(f"{server.url}/api/me").json() == {"detail": "this request needs the header X-Player-Token"}
    unknown = httpx.get(f"{server.url}/api/me", headers={"X-Player-Token": "nobody"})
    assert unknown.status_code == 401 and unknown.json() == {"detail": "no player holds this X-Player-Token"}


def test_a_locked_database_answers_rest_503_and_logs_no_statement(tmp_path: Path) -> None:
    path = tmp_path / "ludotheque.db"
    server = ServerProcess(f"sqlite:///{path}", tmp_path).start({"LUDOTHEQUE_DB_WAIT_S": "0.5"})
    try:
        blocker = sqlite3.connect(path, isolation_level=None)
        blocker.execute("BEGIN EXCLUSIVE")  # another process holds the file
        try:
            busy = httpx.post(f"{server.url}/api/players", json={"name": SECRET}, timeout=20)
        finally:
            blocker.execute("ROLLBACK")
            blocker.close()
        assert busy.status_code == 503 and busy.json() == {"detail": UNAVAILABLE}
        assert httpx.post(f"{server.url}/api/players", json={"name": "Ana"}).status_code == 201
    finally:
        server.stop()
    log = server.log()
    assert "database error on POST /api/players: OperationalError" in log
    for hidden in (SECRET, "[SQL", "BEGIN", "INSERT"):
        assert hidden not in log


def _writing_threads(engine: Engine) -> list[str]:
    """The names of the threads that commit on ``engine`` from now on."""
    names: list[str] = []
    event.listen(engine, "commit", lambda _connection: names.append(threading.current_thread().name))
    return names


def test_every_write_goes_through_the_database_writer(db_url: str) -> None:
    engine = make_engine(db_url)
    migrate(engine)
    store = Store(engine)
    committed = _writing_threads(engine)
    player, token = accounts.new_guest(engine, "Ana")  # called from this thread, as the lobby's workers do
    accounts.set_preferences(engine, player.id, {"lang": "fr"})
    accounts.revoke(engine, accounts.open_session(engine, player.id))
    table_id, _, _ = store.create_table(game="geier", players=2, options={}, name="t", private=False,
                                        default_bot="random", seat_specs=[("human", "Ana", None, player.id),
                                                                          ("open", None, None, None)],
                                        creator_seat=0)
    store.take_open_seat(table_id, "Ben")
    with pytest.raises(Refusal) as refused:  # a refusal raised in the writer reaches the caller
        store.take_open_seat(table_id, "Cy")
    assert refused.value.status == 409
    assert len(committed) >= 6 and all(name.startswith("ludotheque-db") for name in committed)
    assert accounts.player_by_token(engine, token) == accounts.player_by_id(engine, player.id)
    # the writer's own thread writes at once instead of waiting for itself (a write that calls another)
    assert store.writes.submit(store.set_status, table_id, "playing").result(timeout=10) is None
    assert committed[-1].startswith("ludotheque-db")
    engine.dispose()
