"""The limits of a server open to the internet: failed logins per user name and per address (429 with
``Retry-After``, even for the right password), new guests per address by every path that makes one, tables
waiting per player, waiting tables that expire unopened, and the creator's cancel; on SQLite and PostgreSQL.

The servers run behind ``--proxy-headers``, so that each test speaks from addresses of its own
(``X-Forwarded-For``, trusted from loopback): one test's failures never count against another's.  Each server has
a database of its own: a server expires the waiting tables it finds, whoever made them.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import update
from tests.server.client import Client
from tests.server.conftest import _fresh_postgres_database, postgres_admin_url

from ludotheque.server.config import Settings
from ludotheque.server.db import make_engine, migrate
from ludotheque.server.limits import SlidingWindow
from ludotheque.server.lobby import Lobby
from ludotheque.server.process import ServerProcess
from ludotheque.server.schema import game_tables
from ludotheque.server.store import Store

PASSWORD = "correct horse battery"
PROXIED = ("--proxy-headers", "--forwarded-allow-ips", "127.0.0.1")
#: small limits, so that their windows pass within a test
TIGHT = {"LUDOTHEQUE_LOGIN_FAILURES_PER_USER": "3", "LUDOTHEQUE_LOGIN_FAILURES_PER_ADDRESS": "4",
         "LUDOTHEQUE_LOGIN_WINDOW_S": "10", "LUDOTHEQUE_GUESTS_PER_MINUTE": "5", "LUDOTHEQUE_WAITING_TABLES": "3",
         "LUDOTHEQUE_WAITING_TTL_S": "3"}
WAITING = {"game": "geier", "players": 2, "seats": ["me", "open"]}


#: The login limits live in the server's memory: the database plays no part in them, so their tests run on SQLite
#: alone (the guests' and the waiting tables' limits, which the database counts or keeps, run on both).
IN_MEMORY = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True, scope="module")


@pytest.fixture(scope="module")
def new_database(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[], str]]:
    """Makes more empty databases of ``db_url``'s kind (dropped with the module)."""
    drops: list[Callable[[], None]] = []

    def make() -> str:
        if db_url.startswith("sqlite"):
            return f"sqlite:///{tmp_path_factory.mktemp('db') / 'ludotheque.db'}"
        admin = postgres_admin_url()
        assert admin is not None
        url, drop = _fresh_postgres_database(admin)
        drops.append(drop)
        return url

    try:
        yield make
    finally:
        for drop in drops:
            drop()


@pytest.fixture(scope="module")
def defaults(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server with the limits a host gets."""
    server = ServerProcess(db_url, tmp_path_factory.mktemp("defaults"), *PROXIED, limits=True).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def tight(new_database: Callable[[], str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    server = ServerProcess(new_database(), tmp_path_factory.mktemp("tight"), *PROXIED, limits=True).start(TIGHT)
    try:
        yield server
    finally:
        server.stop()


def address() -> str:
    """A client address of the test's own (documentation range 198.51.100.0/24 and the like never collide here:
    the uuid makes the last parts)."""
    part = uuid.uuid4().bytes
    return f"10.{part[0]}.{part[1]}.{part[2]}"


def unique(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:8]}"


def post(server: ServerProcess, path: str, body: dict[str, Any], source: str, token: str | None = None,
         bearer: str | None = None) -> httpx.Response:
    headers = {"X-Forwarded-For": source}
    if token is not None:
        headers["X-Player-Token"] = token
    if bearer is not None:
        headers["Authorization"] = f"Bearer {bearer}"
    return httpx.post(f"{server.url}{path}", json=body, headers=headers, timeout=30)


def cancel(server: ServerProcess, table_id: str, bearer: str | None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {bearer}"} if bearer is not None else {}
    return httpx.delete(f"{server.url}/api/tables/{table_id}", headers=headers)


def account(server: ServerProcess) -> str:
    """A new account with ``PASSWORD``; its user name."""
    source, username = address(), unique("ana")
    guest = post(server, "/api/players", {"name": "Ana"}, source).json()
    made = post(server, "/api/me/account", {"username": username, "password": PASSWORD}, source, guest["token"])
    assert made.status_code == 200, made.text
    return username


def log_in(server: ServerProcess, username: str, password: str, source: str) -> httpx.Response:
    return post(server, "/api/login", {"username": username, "password": password}, source)


def retry_after(response: httpx.Response, window: float) -> int:
    assert response.status_code == 429, response.text
    wait = int(response.headers["Retry-After"])
    assert 1 <= wait <= window
    return wait


def open_ids(server: ServerProcess) -> set[str]:
    return {table["id"] for table in httpx.get(f"{server.url}/api/tables").json()}


# -- failed logins -------------------------------------------------------------------------------------------


@IN_MEMORY
def test_the_eleventh_failed_login_of_a_name_is_refused_even_with_the_right_password(defaults: ServerProcess) -> None:
    username = account(defaults)
    for attempt in range(Settings().login_failures_per_user):
        # each from an address of its own: the limit is the user name's
        assert log_in(defaults, username, f"wrong password {attempt}", address()).status_code == 401
    refused = log_in(defaults, username, "yet another", address())
    retry_after(refused, Settings().login_window_s)
    assert "too many failed logins" in refused.json()["detail"]
    retry_after(log_in(defaults, username, PASSWORD, address()), Settings().login_window_s)
    # the same address goes on for another name
    assert log_in(defaults, account(defaults), PASSWORD, address()).status_code == 200


@IN_MEMORY
def test_a_login_that_succeeds_does_not_count_as_a_failure(defaults: ServerProcess) -> None:
    username, source = account(defaults), address()
    for _ in range(Settings().login_failures_per_user + 2):
        assert log_in(defaults, username, PASSWORD, source).status_code == 200


@IN_MEMORY
def test_the_window_frees_and_the_right_password_works_again(tight: ServerProcess) -> None:
    username = account(tight)
    for attempt in range(3):
        assert log_in(tight, username, f"wrong password {attempt}", address()).status_code == 401
    wait = retry_after(log_in(tight, username, PASSWORD, address()), 10)
    time.sleep(wait + 0.2)
    assert log_in(tight, username, PASSWORD, address()).status_code == 200


@IN_MEMORY
def test_one_address_is_limited_whatever_the_names_it_tries(tight: ServerProcess) -> None:
    source, username = address(), account(tight)
    for _ in range(4):
        assert log_in(tight, unique("nobody"), PASSWORD, source).status_code == 401
    retry_after(log_in(tight, username, PASSWORD, source), 10)
    # unknown login codes count for the address too, and are refused alike
    retry_after(post(tight, "/api/login/link", {"code": "guessed"}, source), 10)
    # another address logs in as ever
    assert log_in(tight, username, PASSWORD, address()).status_code == 200


@IN_MEMORY
def test_unknown_login_codes_count_as_failures_of_the_address(tight: ServerProcess) -> None:
    source = address()
    for _ in range(4):
        assert post(tight, "/api/login/link", {"code": unique("guess")}, source).status_code == 401
    retry_after(post(tight, "/api/login/link", {"code": "one-more"}, source), 10)
    retry_after(log_in(tight, account(tight), PASSWORD, source), 10)


@IN_MEMORY
def test_failures_sent_at_the_same_moment_cannot_pass_the_limit_together(tight: ServerProcess) -> None:
    username = account(tight)
    with ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(lambda n: log_in(tight, username, f"wrong {n}", address()).status_code, range(12)))
    assert sorted(answers) == [401] * 3 + [429] * 9


# -- new guests ------------------------------------------------------------------------------------------------


def test_an_address_makes_at_most_120_guests_a_minute(defaults: ServerProcess) -> None:
    source = address()
    for _ in range(Settings().guests_per_minute):
        assert post(defaults, "/api/players", {"name": "Spam"}, source).status_code == 201
    refused = post(defaults, "/api/players", {"name": "Spam"}, source)
    retry_after(refused, 60)
    assert "guests" in refused.json()["detail"]
    assert post(defaults, "/api/players", {"name": "Ana"}, address()).status_code == 201


def test_every_path_that_makes_a_guest_counts(tight: ServerProcess) -> None:
    source, other = address(), address()
    host = post(tight, "/api/players", {"name": "Host"}, other).json()["token"]
    joinable = [post(tight, "/api/tables", WAITING, other, host).json()["table_id"] for _ in range(2)]
    assert post(tight, "/api/players", {"name": "Ana"}, source).status_code == 201
    assert post(tight, "/api/tables", WAITING, source).json()["player_token"]  # the creator is a new guest
    assert post(tight, f"/api/tables/{joinable[0]}/join", {"name": "Bo"}, source).json()["player_token"]
    # a table waiting without any creator (no "me" seat) counts as well: nobody could cancel it
    assert post(tight, "/api/tables", {**WAITING, "seats": ["open", "open"]}, source).status_code == 201
    assert post(tight, "/api/players", {"name": "Cy"}, source).status_code == 201
    for path, body in [("/api/players", {"name": "Dee"}), ("/api/tables", WAITING),
                       (f"/api/tables/{joinable[1]}/join", {"name": "Dee"}),
                       ("/api/tables", {**WAITING, "seats": ["open", "open"]})]:
        retry_after(post(tight, path, body, source), 60)
    # a player who sends its token makes no guest, and is not refused
    me = post(tight, "/api/players", {"name": "Host"}, other).json()["token"]
    assert post(tight, "/api/tables", {**WAITING, "seats": ["me", "bot:random"]}, source, me).status_code == 201
    assert post(tight, f"/api/tables/{joinable[1]}/join", {"name": "Eve"}, source, me).status_code == 200


# -- tables waiting per player -------------------------------------------------------------------------------


def test_a_player_has_at_most_50_tables_waiting(defaults: ServerProcess) -> None:
    source = address()
    ana = post(defaults, "/api/players", {"name": "Ana"}, source).json()["token"]
    created = [post(defaults, "/api/tables", WAITING, source, ana) for _ in range(Settings().waiting_tables_per_player)]
    assert {response.status_code for response in created} == {201}
    refused = post(defaults, "/api/tables", WAITING, source, ana)
    assert refused.status_code == 429 and "tables may wait" in refused.json()["detail"]
    # a table that starts at once waits for nobody; another player has tables of their own
    assert post(defaults, "/api/tables", {**WAITING, "seats": ["me", "bot:random"]}, source, ana).status_code == 201
    bo = post(defaults, "/api/players", {"name": "Bo"}, source).json()["token"]
    assert post(defaults, "/api/tables", WAITING, source, bo).status_code == 201
    # one cancelled frees a place
    first = created[0].json()
    assert cancel(defaults, first["table_id"], first["token"]).status_code == 204
    assert post(defaults, "/api/tables", WAITING, source, ana).status_code == 201
    assert post(defaults, "/api/tables", WAITING, source, ana).status_code == 429


def test_creations_at_the_same_moment_cannot_pass_the_waiting_limit(tight: ServerProcess) -> None:
    source = address()
    ana = post(tight, "/api/players", {"name": "Ana"}, source).json()["token"]
    with ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(lambda _: post(tight, "/api/tables", WAITING, source, ana).status_code, range(8)))
    assert sorted(answers) == [201] * 3 + [429] * 5


# -- cancel --------------------------------------------------------------------------------------------------


def test_the_creator_cancels_a_waiting_table(defaults: ServerProcess) -> None:
    source = address()
    created = post(defaults, "/api/tables", {**WAITING, "players": 3, "seats": ["me", "open", "open"]},
                   source).json()
    table_id = created["table_id"]
    joined = post(defaults, f"/api/tables/{table_id}/join", {"name": "Bo"}, address()).json()
    assert table_id in open_ids(defaults)
    watcher = Client(defaults.ws_url, table_id)
    try:
        watcher.hello()
        assert cancel(defaults, table_id, None).status_code == 401
        assert cancel(defaults, table_id, joined["token"]).status_code == 403
        assert cancel(defaults, table_id, "not-a-token").status_code == 403
        assert cancel(defaults, "no-such-table", created["token"]).status_code == 404
        assert cancel(defaults, table_id, created["token"]).status_code == 204
        assert watcher.next("state")["status"] == "cancelled"
    finally:
        watcher.close()
    assert table_id not in open_ids(defaults)
    assert httpx.get(f"{defaults.url}/api/tables/{table_id}").json()["status"] == "cancelled"
    assert post(defaults, f"/api/tables/{table_id}/join", {"name": "Cy"}, address()).status_code == 409
    assert post(defaults, f"/api/tables/{table_id}/start", {}, source, bearer=created["token"]).status_code == 409
    assert cancel(defaults, table_id, created["token"]).status_code == 409


def test_a_started_table_is_not_cancelled(defaults: ServerProcess) -> None:
    source = address()
    created = post(defaults, "/api/tables", WAITING, source).json()
    assert post(defaults, f"/api/tables/{created['table_id']}/join", {"name": "Bo"}, address()).status_code == 200
    refused = cancel(defaults, created["table_id"], created["token"])
    assert refused.status_code == 409 and "playing" in refused.json()["detail"]


# -- waiting tables that nobody opens expire -------------------------------------------------------------------


def test_a_waiting_table_nobody_opens_expires(tight: ServerProcess) -> None:
    source = address()
    forgotten, read, watched = (post(tight, "/api/tables", WAITING, address()).json()["table_id"] for _ in range(3))
    watcher = Client(tight.ws_url, watched)  # a connection keeps its table open as long as it lasts
    try:
        deadline = time.monotonic() + 30
        while forgotten in open_ids(tight):
            assert time.monotonic() < deadline, "the forgotten table did not expire"
            assert httpx.get(f"{tight.url}/api/tables/{read}").json()["status"] == "waiting"
            time.sleep(0.3)
        assert {read, watched} <= open_ids(tight)
    finally:
        watcher.close()
    assert httpx.get(f"{tight.url}/api/tables/{forgotten}").json()["status"] == "expired"
    assert post(tight, f"/api/tables/{forgotten}/join", {"name": "Bo"}, source).status_code == 409


def test_tables_unopened_while_the_server_was_stopped_expire_at_start(new_database: Callable[[], str],
                                                                      tmp_path: Path) -> None:
    db_url = new_database()
    server = ServerProcess(db_url, tmp_path, limits=True).start()
    try:
        old, fresh = (httpx.post(f"{server.url}/api/tables", json=WAITING).json()["table_id"] for _ in range(2))
    finally:
        server.stop()
    engine = make_engine(db_url)
    try:
        with engine.begin() as db:  # two days pass for one of them
            db.execute(update(game_tables).where(game_tables.c.id == old).values(opened_at=time.time() - 2 * 86_400))
    finally:
        engine.dispose()
    server.start()
    try:
        assert httpx.get(f"{server.url}/api/tables/{old}").json()["status"] == "expired"
        assert httpx.get(f"{server.url}/api/tables/{fresh}").json()["status"] == "waiting"
        listed = open_ids(server)
        assert fresh in listed and old not in listed
    finally:
        server.stop()


def test_the_lobby_restores_no_expired_table(new_database: Callable[[], str]) -> None:
    db_url = new_database()
    engine = make_engine(db_url)
    migrate(engine)
    store = Store(engine)
    specs = [("open", None, None, None), ("open", None, None, None)]
    old, fresh = (store.create_table(game="geier", players=2, options={}, name="t", private=False,
                                     default_bot="random", seat_specs=specs, creator_seat=None)[0] for _ in range(2))
    with engine.begin() as db:
        db.execute(update(game_tables).where(game_tables.c.id == old).values(opened_at=time.time() - 100))
    engine.dispose()
    lobby = Lobby.open(Settings(db_url=db_url, waiting_table_ttl_s=50))
    try:
        assert fresh in lobby.tables and old not in lobby.tables
        row = lobby.store.table(old)
        assert row is not None and row.status == "expired"
    finally:
        lobby.logins.close()
        lobby.bots.close()
        lobby.store.engine.dispose()


# -- the sliding window itself ---------------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_window_refuses_past_its_limit_until_the_oldest_event_leaves_it() -> None:
    clock = Clock()
    window = SlidingWindow(3, 10.0, clock=clock)
    for _ in range(3):
        assert window.hit("a") is None
        clock.now += 1
    assert window.hit("a") == 7  # the first event leaves the window 10 s after it, 3 s have passed
    assert window.hit("b") is None
    clock.now += 7
    assert window.hit("a") is None and window.hit("a") == 1
    window.forget_one("a")
    assert window.hit("a") is None


def test_a_window_forgets_idle_keys_and_keeps_at_most_max_keys() -> None:
    clock = Clock()
    window = SlidingWindow(2, 10.0, max_keys=100, clock=clock)
    for n in range(1000):
        window.hit(f"name-{n}")
    assert len(window) == 100
    clock.now += 11
    window.hit("late")
    assert len(window) == 1
