"""People's routes: guests (a name and a secret token) and accounts, and the requests that know who is asking.

A player is known by ``X-Player-Token: TOKEN`` on a request: a session token, one per device.  Every secret is
kept as its digest, so a copy of the database lets nobody in (``store/players.py`` keeps the players).

A guest becomes an account by taking a user name, with a password (hashed with argon2) or without one: then a
one-time login link, shown once, is the way in from another device.  The player's id does not change, so its
games, seats and ratings stay.  User names are compared without regard to case.

The routes run the store's calls in worker threads; logins are guarded here (``LoginGuard``).  A refusal is a
``Refusal``, raised where the problem is found.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, ThreadPoolExecutor
from contextlib import contextmanager
from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field, StrictBool, StringConstraints
from sqlalchemy import Engine

from ludotheque.server.api import Strict, problems
from ludotheque.server.auth import PlayerTokenDep
from ludotheque.server.config import Settings
from ludotheque.server.correspondence import awaiting
from ludotheque.server.errors import Refusal
from ludotheque.server.limits import LimitReached, SlidingWindow, client_address
from ludotheque.server.pages import shell
from ludotheque.server.store.players import (
    PlayerRow,
    login,
    make_account,
    new_guest,
    new_link_code,
    player_by_token,
    redeem_link_code,
    rename,
    revoke,
    set_preferences,
)

router = APIRouter()
T = TypeVar("T")

USERNAME_PATTERN = r"^[A-Za-z0-9_.-]{3,40}$"
MIN_PASSWORD = 8
#: a longer password only costs the server hashing time
MAX_PASSWORD = 200

# -- logins under guard -----------------------------------------------------------------------------------------


class LoginGuard:
    """What keeps passwords from being guessed at speed, and logins from starving the server: failed logins are
    counted per user name and per client address (``Settings.login_failures_per_*`` within ``login_window_s``),
    and argon2 runs in a pool of ``Settings.hash_at_once`` threads of its own, so that a flood of logins waits there
    instead of holding the threads every other request needs."""

    def __init__(self, settings: Settings) -> None:
        self.by_user = SlidingWindow(settings.login_failures_per_user, settings.login_window_s)
        self.by_address = SlidingWindow(settings.login_failures_per_address, settings.login_window_s)
        self.hashing = ThreadPoolExecutor(max(1, settings.hash_at_once), thread_name_prefix="ludotheque-hash")

    @contextmanager
    def attempt(self, address: str, username: str | None = None) -> Iterator[None]:
        """A login attempt: 429 while a limit is reached, whatever the password.  The attempt counts as a failure
        from the start, so that attempts sent at the same moment cannot pass the limit together; it is taken back
        unless the answer is a refusal (401)."""
        windows = [(self.by_address, address)]
        if username is not None:
            windows.append((self.by_user, username.lower()))
        waits = [wait for window, key in windows if (wait := window.retry_after(key)) is not None]
        if waits:
            raise LimitReached("too many failed logins: wait before trying again", max(waits))
        for window, key in windows:
            window.add(key)
        refused = False
        try:
            yield
        except Refusal as error:
            refused = error.status == 401
            raise
        finally:
            if not refused:
                for window, key in windows:
                    window.forget_one(key)

    def close(self) -> None:
        self.hashing.shutdown(wait=False, cancel_futures=True)


# -- the REST API ----------------------------------------------------------------------------------------------

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
Password = Annotated[str, Field(min_length=MIN_PASSWORD, max_length=MAX_PASSWORD)]


class NewPlayer(Strict):
    name: Name


class Session(BaseModel):
    player_id: str
    name: str
    #: the secret to send as ``X-Player-Token`` (shown once: the server keeps only its digest)
    token: str


class Preferences(Strict):
    lang: Literal["fr", "en", "de"] | None = None
    sound: StrictBool | None = None


class AwaitingTable(BaseModel):
    """A table in play where it is the player's turn."""

    table_id: str
    game: str
    name: str
    seat: int
    #: a game by correspondence (``"clock": {"days": N}``)
    correspondence: bool


class Me(BaseModel):
    player_id: str
    name: str
    username: str | None
    guest: bool
    preferences: Preferences
    #: the tables in play where it is the player's turn ("à vous de jouer"), the turn begun longest ago first
    #: (``GET /api/me``; the tables this process holds)
    your_turn: list[AwaitingTable] = Field(default_factory=list)


class NewName(Strict):
    name: Name


class NewAccount(Strict):
    username: Annotated[str, Field(pattern=USERNAME_PATTERN)]
    #: without one, the answer carries a one-time login link instead
    password: Password | None = None


class Account(Me):
    #: the account's session token for this device: the guest's token stops working
    token: str
    #: for an account without password: the way in from another device, shown only this once
    login_url: str | None


class Login(Strict):
    username: Annotated[str, Field(min_length=1, max_length=100)]
    password: Annotated[str, Field(min_length=1, max_length=MAX_PASSWORD)]


class LoginLink(BaseModel):
    url: str
    code: str


class LinkCode(Strict):
    code: Annotated[str, Field(min_length=1, max_length=100)]


#: what a 400, a 401, a 409 and a 429 mean at the players' endpoints
_MEANING = {400: "the body is not JSON", 401: "no player holds this X-Player-Token (or the login is refused)",
            409: "the player has an account already, or the user name is taken",
            429: "too many attempts or new guests from this address (or for this user name): wait Retry-After "
                 "seconds"}


def _refusals(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return problems(*statuses, meaning=_MEANING)


def engine_of(request: Request) -> Engine:
    engine: Engine = request.app.state.lobby.store.engine
    return engine


def guard_of(request: Request) -> LoginGuard:
    guard: LoginGuard = request.app.state.lobby.logins
    return guard


EngineDep = Annotated[Engine, Depends(engine_of)]
GuardDep = Annotated[LoginGuard, Depends(guard_of)]


async def _run(call: Callable[..., T], *args: Any, executor: Executor | None = None) -> T:
    """A store call in a worker thread (of ``executor``, if given): its writes wait for the database's writer
    there, its refusals and database errors go up to the application's handlers."""
    if executor is None:
        return await asyncio.to_thread(call, *args)
    return await asyncio.get_running_loop().run_in_executor(executor, functools.partial(call, *args))


async def current_player(engine: EngineDep, token: PlayerTokenDep) -> PlayerRow:
    player = await _run(player_by_token, engine, token)
    if player is None:
        raise Refusal(401, "no player holds this X-Player-Token")
    return player


PlayerDep = Annotated[PlayerRow, Depends(current_player)]


def _me(player: PlayerRow) -> dict[str, Any]:
    known = {key: player.preferences[key] for key in ("lang", "sound") if key in player.preferences}
    return {"player_id": player.id, "name": player.name, "username": player.username, "guest": player.guest,
            "preferences": known}


def _session(player: PlayerRow, token: str) -> dict[str, Any]:
    return {"player_id": player.id, "name": player.name, "token": token}


def _login_url(request: Request, code: str) -> str:
    base = request.app.state.lobby.settings.public_url or str(request.base_url)
    return f"{base.rstrip('/')}/login/{code}"


@router.post("/api/players", response_model=Session, status_code=201, responses=_refusals(400, 429, 503))
async def create_guest(body: NewPlayer, engine: EngineDep, request: Request) -> dict[str, Any]:
    """A new guest, and its session token (429 past ``guests_per_minute`` new guests from one address)."""
    request.app.state.lobby.admit_guest(client_address(request.client))
    return _session(*await _run(new_guest, engine, body.name))


@router.get("/api/me", response_model=Me, responses=_refusals(401, 503))
async def me(player: PlayerDep, request: Request) -> dict[str, Any]:
    """Who the token's player is: name, user name (``null`` for a guest), preferences, and the tables in play
    where it is their turn."""
    return {**_me(player), "your_turn": awaiting(request.app.state.lobby.tables.values(), player.id)}


@router.put("/api/me/preferences", response_model=Preferences, responses=_refusals(400, 401, 503))
async def put_preferences(body: Preferences, player: PlayerDep, engine: EngineDep) -> dict[str, Any]:
    """Merges the preferences given (``null`` or left out: unchanged) and answers them all."""
    merged = await _run(set_preferences, engine, player.id, body.model_dump(exclude_none=True))
    return {key: merged[key] for key in ("lang", "sound") if key in merged}


@router.put("/api/me/name", response_model=Me, responses=_refusals(400, 401, 503))
async def put_name(body: NewName, player: PlayerDep, engine: EngineDep) -> dict[str, Any]:
    """The name shown at the tables the player joins from now on."""
    return _me(await _run(rename, engine, player.id, body.name))


@router.post("/api/me/account", response_model=Account, responses=_refusals(400, 401, 409, 503))
async def create_account(body: NewAccount, player: PlayerDep, engine: EngineDep, guard: GuardDep,
                         request: Request) -> dict[str, Any]:
    """The guest becomes an account and keeps its id, games and ratings.  The answer's ``token`` replaces the
    guest's, which stops working.  Without a password, the answer's ``login_url`` (valid once, until used) is the
    way in from another device: it is shown only here."""
    account, token = await _run(make_account, engine, player.id, body.username, body.password,
                                executor=guard.hashing)
    url = None
    if body.password is None:
        url = _login_url(request, await _run(new_link_code, engine, player.id, None))
    return {**_me(account), "token": token, "login_url": url}


@router.post("/api/login", response_model=Session, responses=_refusals(400, 401, 429, 503))
async def log_in(body: Login, engine: EngineDep, guard: GuardDep, request: Request) -> dict[str, Any]:
    """A new session token for this device (401, with the same words, for an unknown name or a wrong password).
    After ``login_failures_per_user`` failures for one user name, or ``login_failures_per_address`` from one
    address, within ``login_window_s``: 429 with ``Retry-After``, even for the right password."""
    with guard.attempt(client_address(request.client), body.username):
        return _session(*await _run(login, engine, body.username, body.password, executor=guard.hashing))


@router.post("/api/me/login-link", response_model=LoginLink, responses=_refusals(401, 503))
async def create_login_link(player: PlayerDep, engine: EngineDep, request: Request) -> dict[str, Any]:
    """A one-time code, valid 15 minutes, to log in on another device, and the page that takes it."""
    code = await _run(new_link_code, engine, player.id)
    return {"url": _login_url(request, code), "code": code}


@router.post("/api/login/link", response_model=Session, responses=_refusals(400, 401, 429, 503))
async def log_in_with_link(body: LinkCode, engine: EngineDep, guard: GuardDep, request: Request) -> dict[str, Any]:
    """Spends a login code for a new session token (401 if the code is unknown, used already or expired).  A
    code has 192 bits, beyond guessing; unknown codes still count as failed logins of the address."""
    with guard.attempt(client_address(request.client)):
        return _session(*await _run(redeem_link_code, engine, body.code))


@router.post("/api/logout", status_code=204, responses=_refusals(401, 503))
async def log_out(player: PlayerDep, token: PlayerTokenDep, engine: EngineDep) -> None:
    """The token presented stops working; the player's other devices stay logged in."""
    await _run(revoke, engine, token)


@router.get("/me", include_in_schema=False)
def me_page() -> HTMLResponse:
    return shell("me")


@router.get("/login/{code}", include_in_schema=False)
def login_page(code: str) -> HTMLResponse:
    # the page reads the code from its own address and spends it with POST /api/login/link
    return shell("me")
