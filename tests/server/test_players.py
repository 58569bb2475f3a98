"""Guests and accounts: tokens, the upgrade that keeps a player's id, logins by password and by one-time link,
logout, preferences; on SQLite and PostgreSQL."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher
from sqlalchemy import Engine, select, update

from ludotheque.server.db import make_engine, migrate
from ludotheque.server.errors import Refusal
from ludotheque.server.process import ServerProcess
from ludotheque.server.schema import player_tokens, players
from ludotheque.server.store import players as accounts

PASSWORD = "correct horse battery"


@pytest.fixture
def engine(server: ServerProcess) -> Iterator[Engine]:
    """The server's own database, for reading what it keeps and for the store's calls that take a clock."""
    engine = make_engine(server.db_url)
    migrate(engine)
    try:
        yield engine
    finally:
        engine.dispose()


def unique(prefix: str) -> str:
    return f"{prefix}_{uuid.uuid4().hex[:8]}"


def guest(server: ServerProcess, name: str = "Ana") -> dict[str, Any]:
    response = httpx.post(f"{server.url}/api/players", json={"name": name})
    assert response.status_code == 201, response.text
    data: dict[str, Any] = response.json()
    return data


def call(server: ServerProcess, method: str, path: str, token: str | None, **body: Any) -> httpx.Response:
    headers = {"X-Player-Token": token} if token is not None else {}
    return httpx.request(method, f"{server.url}{path}", headers=headers, json=body or None)


def test_a_guest_has_a_name_and_a_token(server: ServerProcess) -> None:
    ana = guest(server, "  Ana  ")
    assert ana["name"] == "Ana" and len(ana["token"]) > 20
    me = call(server, "GET", "/api/me", ana["token"]).json()
    assert me == {"player_id": ana["player_id"], "name": "Ana", "username": None, "guest": True,
                  "preferences": {"lang": None, "sound": None}, "your_turn": []}
    assert call(server, "GET", "/api/me", None).status_code == 401
    assert call(server, "GET", "/api/me", "not-a-token").status_code == 401
    assert httpx.post(f"{server.url}/api/players", json={"name": " "}).status_code == 422


def test_a_guest_renames_itself(server: ServerProcess) -> None:
    ana = guest(server)
    renamed = call(server, "PUT", "/api/me/name", ana["token"], name="Anaïs")
    assert renamed.status_code == 200 and renamed.json()["name"] == "Anaïs"
    assert call(server, "GET", "/api/me", ana["token"]).json()["name"] == "Anaïs"


def test_a_guest_becomes_an_account_and_keeps_its_id(server: ServerProcess, engine: Engine) -> None:
    ana, username = guest(server), unique("Ana")
    account = call(server, "POST", "/api/me/account", ana["token"], username=username, password=PASSWORD)
    assert account.status_code == 200, account.text
    assert account.json()["player_id"] == ana["player_id"] and account.json()["login_url"] is None
    me = call(server, "GET", "/api/me", account.json()["token"]).json()
    assert (me["player_id"], me["username"], me["guest"]) == (ana["player_id"], username.lower(), False)
    with engine.connect() as db:
        assert db.execute(select(players.c.id).where(players.c.username == username.lower())).scalars().all() \
            == [ana["player_id"]]
    again = call(server, "POST", "/api/me/account", account.json()["token"], username=unique("Other"),
                 password=PASSWORD)
    assert again.status_code == 409 and "already" in again.json()["detail"]


@pytest.mark.parametrize("password", [PASSWORD, None])
def test_an_account_gets_a_new_token_and_the_guests_stops_working(server: ServerProcess, engine: Engine,
                                                                  password: str | None) -> None:
    ana, username = guest(server), unique("Ana")
    account = call(server, "POST", "/api/me/account", ana["token"], username=username,
                   **({"password": password} if password else {}))
    assert account.status_code == 200, account.text
    token = account.json()["token"]
    assert token != ana["token"] and len(token) >= 32
    # the guest's token names nobody any more, on every endpoint that takes one
    assert call(server, "GET", "/api/me", ana["token"]).status_code == 401
    assert call(server, "PUT", "/api/me/name", ana["token"], name="Eve").status_code == 401
    assert call(server, "POST", "/api/logout", ana["token"]).status_code == 401
    created = httpx.post(f"{server.url}/api/tables", headers={"X-Player-Token": ana["token"]},
                         json={"game": "geier", "players": 2, "seats": ["me", "open"]})
    assert created.status_code == 401
    # the new one is the account's, with the same id; only its digest is kept
    me = call(server, "GET", "/api/me", token).json()
    assert (me["player_id"], me["username"], me["guest"]) == (ana["player_id"], username.lower(), False)
    with engine.connect() as db:
        kept = db.execute(select(player_tokens.c.token_hash).where(player_tokens.c.player_id == ana["player_id"],
                                                                   player_tokens.c.kind == "session")).scalars().all()
    assert kept == [accounts.token_digest(token)]


def test_user_names_are_unique_whatever_their_case(server: ServerProcess) -> None:
    username = unique("Bo")
    first = call(server, "POST", "/api/me/account", guest(server)["token"], username=username, password=PASSWORD)
    assert first.status_code == 200
    taken = call(server, "POST", "/api/me/account", guest(server)["token"], username=username.upper(),
                 password=PASSWORD)
    assert taken.status_code == 409 and "taken" in taken.json()["detail"]


@pytest.mark.parametrize("username, password", [("ab", PASSWORD), ("a b c", PASSWORD), ("x" * 41, PASSWORD),
                                                ("Cy_ok", "short")])
def test_an_account_needs_a_fair_name_and_password(server: ServerProcess, username: str, password: str) -> None:
    refused = call(server, "POST", "/api/me/account", guest(server)["token"], username=username, password=password)
    assert refused.status_code == 422


def test_logging_in_with_the_password_gives_this_device_its_own_token(server: ServerProcess) -> None:
    ana, username = guest(server), unique("ana")
    call(server, "POST", "/api/me/account", ana["token"], username=username, password=PASSWORD)
    session = httpx.post(f"{server.url}/api/login", json={"username": username.upper(), "password": PASSWORD})
    assert session.status_code == 200
    assert session.json()["player_id"] == ana["player_id"] and session.json()["token"] != ana["token"]
    assert call(server, "GET", "/api/me", session.json()["token"]).json()["username"] == username


def test_a_refused_login_does_not_say_whether_the_name_exists(server: ServerProcess) -> None:
    username = unique("ana")
    call(server, "POST", "/api/me/account", guest(server)["token"], username=username, password=PASSWORD)
    wrong = httpx.post(f"{server.url}/api/login", json={"username": username, "password": "wrong password"})
    unknown = httpx.post(f"{server.url}/api/login", json={"username": unique("nobody"), "password": PASSWORD})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()


def test_the_password_is_kept_only_as_an_argon2_hash(server: ServerProcess, engine: Engine) -> None:
    ana, username = guest(server), unique("ana")
    call(server, "POST", "/api/me/account", ana["token"], username=username, password=PASSWORD)
    with engine.connect() as db:
        row = db.execute(select(players).where(players.c.id == ana["player_id"])).mappings().one()
        secrets = db.execute(select(player_tokens.c.token_hash)
                             .where(player_tokens.c.player_id == ana["player_id"])).scalars().all()
    assert row["password_hash"].startswith("$argon2id$") and PASSWORD not in row["password_hash"]
    assert PASSWORD not in str(dict(row)) and ana["token"] not in secrets


def test_a_hash_made_with_weaker_parameters_is_renewed_at_login(server: ServerProcess, engine: Engine) -> None:
    player, _ = accounts.new_guest(engine, "Ana")
    username = unique("ana")
    accounts.make_account(engine, player.id, username, None)
    weak = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1).hash(PASSWORD)
    with engine.begin() as db:
        db.execute(update(players).where(players.c.id == player.id).values(password_hash=weak))
    assert accounts.login(engine, username, PASSWORD)[0].id == player.id
    with engine.connect() as db:
        renewed = db.execute(select(players.c.password_hash).where(players.c.id == player.id)).scalar_one()
    assert renewed != weak and not PasswordHasher().check_needs_rehash(renewed)
    assert accounts.login(engine, username, PASSWORD)[0].id == player.id


def test_a_login_link_works_once(server: ServerProcess) -> None:
    ana = guest(server)
    token = call(server, "POST", "/api/me/account", ana["token"], username=unique("ana"), password=PASSWORD
                 ).json()["token"]
    link = call(server, "POST", "/api/me/login-link", token).json()
    assert link["url"] == f"{server.url}/login/{link['code']}"
    session = httpx.post(f"{server.url}/api/login/link", json={"code": link["code"]})
    assert session.status_code == 200 and session.json()["player_id"] == ana["player_id"]
    assert call(server, "GET", "/api/me", session.json()["token"]).json()["player_id"] == ana["player_id"]
    again = httpx.post(f"{server.url}/api/login/link", json={"code": link["code"]})
    assert again.status_code == 401
    assert httpx.post(f"{server.url}/api/login/link", json={"code": "made-up"}).status_code == 401
    assert call(server, "POST", "/api/me/login-link", None).status_code == 401


def test_an_account_without_password_gets_its_link_once(server: ServerProcess) -> None:
    ana, username = guest(server), unique("ana")
    account = call(server, "POST", "/api/me/account", ana["token"], username=username).json()
    code = account["login_url"].rpartition("/login/")[2]
    assert account["login_url"] == f"{server.url}/login/{code}"
    assert call(server, "GET", "/api/me", account["token"]).json()["username"] == username
    assert httpx.post(f"{server.url}/api/login/link", json={"code": code}).json()["player_id"] == ana["player_id"]
    assert httpx.post(f"{server.url}/api/login/link", json={"code": code}).status_code == 401
    # no password opens it
    assert httpx.post(f"{server.url}/api/login", json={"username": username, "password": PASSWORD}).status_code == 401


def test_a_login_code_expires_after_15_minutes(server: ServerProcess, engine: Engine) -> None:
    player, _ = accounts.new_guest(engine, "Ana")
    made = 1_000_000.0
    late = accounts.new_link_code(engine, player.id, now=made)
    in_time = accounts.new_link_code(engine, player.id, now=made)
    with pytest.raises(Refusal) as refused:
        accounts.redeem_link_code(engine, late, now=made + accounts.LINK_TTL_S)
    assert refused.value.status == 401
    found, token = accounts.redeem_link_code(engine, in_time, now=made + accounts.LINK_TTL_S - 1)
    assert found.id == player.id and accounts.player_by_token(engine, token) == player
    # an expired code is spent too: it is refused over HTTP as well
    assert httpx.post(f"{server.url}/api/login/link", json={"code": late}).status_code == 401


def test_logout_revokes_only_the_token_presented(server: ServerProcess) -> None:
    ana, username = guest(server), unique("ana")
    laptop = call(server, "POST", "/api/me/account", ana["token"], username=username, password=PASSWORD).json()
    phone = httpx.post(f"{server.url}/api/login", json={"username": username, "password": PASSWORD}).json()
    assert call(server, "POST", "/api/logout", phone["token"]).status_code == 204
    assert call(server, "GET", "/api/me", phone["token"]).status_code == 401
    assert call(server, "POST", "/api/logout", phone["token"]).status_code == 401
    assert call(server, "GET", "/api/me", laptop["token"]).status_code == 200


def test_preferences_round_trip(server: ServerProcess) -> None:
    ana = guest(server)
    assert call(server, "PUT", "/api/me/preferences", ana["token"], lang="en").json() == {"lang": "en", "sound": None}
    assert call(server, "PUT", "/api/me/preferences", ana["token"], sound=True).json() == {"lang": "en", "sound": True}
    assert call(server, "GET", "/api/me", ana["token"]).json()["preferences"] == {"lang": "en", "sound": True}
    assert call(server, "PUT", "/api/me/preferences", ana["token"], lang="de").json()["lang"] == "de"
    assert call(server, "PUT", "/api/me/preferences", ana["token"], lang="es").status_code == 422
    assert call(server, "PUT", "/api/me/preferences", ana["token"], theme="dark").status_code == 422
    assert call(server, "PUT", "/api/me/preferences", None, lang="fr").status_code == 401


def test_the_account_page_and_login_links_are_served(server: ServerProcess) -> None:
    for path in ("/me", "/login/some-code"):
        page = httpx.get(f"{server.url}{path}")
        assert page.status_code == 200 and "/static/js/me.js" in page.text
