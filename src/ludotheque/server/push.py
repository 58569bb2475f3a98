"""Web Push: a person is told that it is their turn at a game by correspondence, when no page of theirs is open.

Three parts, each small:

* **the keys**: the server's VAPID key pair (RFC 8292), made at the first start in the data folder
  (``vapid_private.pem``, next to the SQLite file, else ``LUDOTHEQUE_DATA`` or ``./data``, with PostgreSQL too).  The
  browser subscribes with its public half, so a new key would silently end every subscription: the file is backed
  up with the database (``docs/deploy.md``), and every process of a site shares it.
* **the subscriptions**: what a browser's ``PushManager`` gave, kept for a seat (``seat:TABLE:N``) or for a player
  (``player:ID``, all the tables they sit at), in the database (``store/push.py``).  A push service that answers
  404 or 410 has dropped the subscription: it is deleted.
* **the sending**: ``pywebpush`` encrypts (aes128gcm) and signs each message and posts it to the push service, in
  threads of its own, never in the event loop, only to public addresses (``push_net.py``).  At most
  ``MAX_PENDING`` messages wait at once, ``PER_PERSON`` turns for one person, each person's in turn, at most
  ``PER_PLACE`` sendings to one host at once (``push_queue.py``); past it a message is dropped and logged (a push
  is a courtesy: the game never waits on it).  A push service has ``SEND_TIMEOUT_S`` to answer; an endpoint that
  fails ``FAILURES_BEFORE_DROP`` times in a row is deleted.

A message says only "your turn" and the table's name, and the page it opens: nothing a seat's view does not show.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import json
import logging
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from fastapi import APIRouter, Request
from py_vapid import Vapid
from pydantic import BaseModel, Field
from pywebpush import WebPushException, webpush
from sqlalchemy import Engine
from sqlalchemy.engine import make_url

from ludotheque.server import push_net
from ludotheque.server.api import Strict, problems
from ludotheque.server.auth import OptionalPlayerTokenDep, SeatTokenDep
from ludotheque.server.config import Settings
from ludotheque.server.errors import Refusal
from ludotheque.server.push_queue import FairQueue
from ludotheque.server.store import Store
from ludotheque.server.store.players import player_by_token
from ludotheque.server.store.push import forget, subscribe, subscriptions

if TYPE_CHECKING:
    from ludotheque.server.store import TableRow

log = logging.getLogger("ludotheque.server.push")
router = APIRouter()

#: the private key's file in the data folder (PEM); the public key is derived from it
KEY_FILE = "vapid_private.pem"
#: subscriptions whose endpoint's name is being resolved at once (each ``Pusher``), past which one is refused (503)
RESOLVING_AT_ONCE = 4
#: messages waiting to be sent at once, past which a new one is dropped
MAX_PENDING = 200
#: turns and sendings waiting for one person (a player, else a seat), past which a new turn is dropped
PER_PERSON = 4
#: threads that post to the push services; one person holds at most one of them
SENDERS = 8
#: sendings to one push service's host at once: endpoints that never answer, however many people they are
#: subscribed for, hold at most this many threads
PER_PLACE = 2
#: seconds a push service has to take the connection, then to answer (``requests``' connect and read timeouts)
SEND_TIMEOUT_S = (3.0, 3.0)
#: sendings that fail in a row (no answer, a refusal other than 404 and 410) before the subscription is deleted
FAILURES_BEFORE_DROP = 3
#: how long a push service keeps a message for a device that is off (it is delivered when the device wakes)
TTL_S = 86_400

_TEXT = {"fr": ("À vous de jouer", "{name}\u202f: c’est votre tour."),
         "en": ("Your turn", "{name}: it is your turn."),
         "de": ("Du bist dran", "{name}: Du bist am Zug.")}


# -- the keys ---------------------------------------------------------------------------------------------------


def data_folder(db_url: str, data_dir: str) -> Path:
    """Where the server keeps its files: the SQLite file's folder, else ``data_dir`` (``Settings.data_dir``)."""
    url = make_url(db_url)
    if url.get_backend_name() == "sqlite" and url.database and url.database != ":memory:":
        return Path(url.database).parent
    return Path(data_dir)


@dataclass(frozen=True)
class PushKeys:
    vapid: Vapid
    #: the public key as the browser's ``applicationServerKey`` takes it: the uncompressed point, base64url
    public: str

    @classmethod
    def load(cls, folder: Path) -> PushKeys:
        """The key pair of ``folder``, made there first if it has none.  Two processes starting at once keep the
        same one: the file appears whole or not at all (written aside, then linked into place)."""
        path = folder / KEY_FILE
        if not path.exists():
            folder.mkdir(parents=True, exist_ok=True)
            fresh = Vapid()
            fresh.generate_keys()
            aside = folder / f".{KEY_FILE}.{os.getpid()}.{threading.get_ident()}"
            aside.write_bytes(fresh.private_pem())
            aside.chmod(0o600)
            try:
                with contextlib.suppress(FileExistsError):  # another process made it first: theirs is the key
                    os.link(aside, path)
            finally:
                aside.unlink()
        vapid = Vapid.from_file(str(path))
        point = vapid.public_key.public_bytes(serialization.Encoding.X962,
                                              serialization.PublicFormat.UncompressedPoint)
        return cls(vapid, _b64url(point))


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def _unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


# -- the subscriptions' owners (``store/push.py`` keeps the rows) ---------------------------------------------------


def seat_owner(table_id: str, seat: int) -> str:
    return f"seat:{table_id}:{seat}"


def player_owner(player_id: str) -> str:
    return f"player:{player_id}"


# -- the sending --------------------------------------------------------------------------------------------------


class Pusher:
    """Sends the "your turn" messages of one process, off the event loop, bounded, and fair between people
    (``push_queue.py``)."""

    def __init__(self, engine: Engine, keys: PushKeys, contact: str, settings: Settings | None = None) -> None:
        self.engine = engine
        self.keys = keys
        self.settings = settings or Settings(db_url="sqlite://")
        self._local = threading.local()  # each sending thread's session (``push_net.session``)
        #: the VAPID ``sub`` claim: whom a push service may write to about this server's messages
        self.contact = contact
        self._queue = FairQueue(SENDERS, PER_PERSON, MAX_PENDING, PER_PLACE)
        self._lock = threading.Lock()
        #: failures in a row of each endpoint that failed last time (a success or a deletion forgets it)
        self._failures: dict[str, int] = {}
        #: messages accepted by a push service, for the tests and operators
        self.sent = 0
        #: subscriptions whose endpoint's name is being resolved at once, past which one is refused (503)
        self.resolving = threading.BoundedSemaphore(RESOLVING_AT_ONCE)

    def turn(self, row: TableRow, seat: int) -> bool:
        """Tell ``seat``'s person (its own subscriptions and its player's) that it is their turn at ``row``'s
        table; False when too many of their messages (or everyone's) wait already (this one is dropped)."""
        owners = [seat_owner(row.id, seat)]
        player_id = row.seats[seat].player_id
        if player_id is not None:
            owners.append(player_owner(player_id))
        person = owners[-1]  # the player, else the seat: a guest's many seats are as many people
        if not self._queue.put(person, lambda: self._send_turn(person, row.id, row.name, owners)):
            log.warning("push: too many messages wait; the turn at table %s is not told", row.id)
            return False
        return True

    def _send_turn(self, person: str, table_id: str, name: str, owners: list[str]) -> None:
        """One sending a subscription, each a job of its own: a thread is held for one push service at a time."""
        for subscription in reversed(subscriptions(self.engine, owners)):
            title, body = _TEXT.get(subscription["lang"], _TEXT["fr"])
            message = {"title": title, "body": body.format(name=name), "url": f"/tables/{table_id}",
                       "tag": f"turn-{table_id}"}
            place = urlsplit(subscription["endpoint"]).hostname or "?"
            self._queue.put(person, functools.partial(self.send, subscription, message), first=True, place=place)

    def send(self, subscription: dict[str, str], message: dict[str, Any]) -> bool:
        """Post one message; a subscription its push service dropped (404, 410) is deleted.  Whether it was taken."""
        info = {"endpoint": subscription["endpoint"],
                "keys": {"p256dh": subscription["p256dh"], "auth": subscription["auth"]}}
        try:
            webpush(info, json.dumps(message), vapid_private_key=self.keys.vapid,
                    vapid_claims={"sub": self.contact}, timeout=SEND_TIMEOUT_S, ttl=TTL_S,
                    requests_session=self._session())
        except WebPushException as error:
            status = getattr(error.response, "status_code", None)
            if status in (404, 410):
                self._drop(subscription["endpoint"])
                log.info("push: a subscription ended (%s); deleted", status)
            else:
                log.warning("push: the push service refused a message (%s)", status)
                self._failed(subscription["endpoint"])
            return False
        except Exception as error:  # an unreachable push service: the message is lost, the game goes on
            refused = push_net.refused_in(error)
            if refused is not None:  # it leads into the server's own network now: never tried again
                self._drop(subscription["endpoint"])
                log.warning("push: a subscription was deleted: %s", refused)
            else:
                log.warning("push: the push service could not be reached (%s)", type(error).__name__)
                self._failed(subscription["endpoint"])
            return False
        with self._lock:
            self._failures.pop(subscription["endpoint"], None)
            self.sent += 1
        return True

    def _failed(self, endpoint: str) -> None:
        with self._lock:
            failures = self._failures[endpoint] = self._failures.get(endpoint, 0) + 1
        if failures >= FAILURES_BEFORE_DROP:
            self._drop(endpoint)
            log.warning("push: a subscription failed %d times in a row; deleted", failures)

    def _drop(self, endpoint: str) -> None:
        forget(self.engine, endpoint)
        with self._lock:
            self._failures.pop(endpoint, None)

    def _session(self) -> Any:
        session = getattr(self._local, "session", None)
        if session is None:
            session = self._local.session = push_net.session(self.settings.push_allow_private,
                                                             self.settings.push_hosts)
        return session

    def close(self) -> None:
        self._queue.close()


def start(store: Store, settings: Settings) -> Pusher:
    """The process's pusher for ``store``'s database, its keys made if the data folder has none."""
    keys = PushKeys.load(data_folder(settings.db_url, settings.data_dir))
    public_url = settings.public_url
    contact = settings.push_contact or (
        public_url if public_url and public_url.startswith("https://") else "mailto:ludotheque@localhost")
    return Pusher(store.engine, keys, contact, settings)


# -- the REST API ------------------------------------------------------------------------------------------------


class SubscriptionKeys(Strict):
    p256dh: str = Field(min_length=80, max_length=100)
    auth: str = Field(min_length=16, max_length=40)


class PushSubscription(Strict):
    """``PushSubscription.toJSON()`` as the browser gives it (``expirationTime`` is not used)."""

    endpoint: str = Field(min_length=10, max_length=2000)
    keys: SubscriptionKeys
    expirationTime: float | None = None  # the browser's name for it


class Subscribe(Strict):
    subscription: PushSubscription
    #: with the seat's ``Authorization: Bearer`` token: that seat's turns at this table
    table_id: str | None = Field(default=None, max_length=32)
    #: the language of the messages
    lang: Literal["fr", "en", "de"] = "fr"


class Subscribed(BaseModel):
    #: what the subscription was kept for: ``seat`` (the table's seat of the token), ``player`` (all the player's
    #: tables)
    kept_for: list[Literal["seat", "player"]]


class PushKey(BaseModel):
    #: the server's VAPID public key, base64url: the ``applicationServerKey`` of ``PushManager.subscribe``
    public_key: str


def _pusher(request: Request) -> Pusher:
    pusher: Pusher | None = request.app.state.lobby.services.push
    if pusher is None:
        raise Refusal(503, "this server sends no push messages")
    return pusher



@router.get("/api/push/key", response_model=PushKey, responses=problems(503))
async def push_key(request: Request) -> dict[str, Any]:
    """The server's VAPID public key, for ``PushManager.subscribe({applicationServerKey})``."""
    return {"public_key": _pusher(request).keys.public}


@router.post("/api/push/subscribe", response_model=Subscribed, status_code=201,
             responses=problems(400, 401, 403, 404, 503))
async def push_subscribe(body: Subscribe, request: Request, token: SeatTokenDep = None,
                         x_player_token: OptionalPlayerTokenDep = None) -> dict[str, Any]:
    """Keep a browser's push subscription: for a seat (``table_id`` with the seat's ``Authorization: Bearer``
    token) and for the player of ``X-Player-Token`` (every table they sit at); at least one of them.  The server
    sends it a message when the turn at a game by correspondence passes to that person while none of their pages
    is open there.  400 for an endpoint that is not https, whose host is not a push service's (an address of the
    server's own network, or a host outside ``Settings.push_hosts``), or keys that are not a browser's."""
    pusher = _pusher(request)
    # push services are reached over https only; ``Settings.push_allow_http`` lets a test's local endpoint in
    schemes = ("https", "http") if pusher.settings.push_allow_http else ("https",)
    try:
        point, secret = _unb64url(body.subscription.keys.p256dh), _unb64url(body.subscription.keys.auth)
    except ValueError:
        raise Refusal(400, "the subscription's keys are not base64url") from None
    if len(point) != 65 or point[0] != 4 or len(secret) != 16:
        raise Refusal(400, "the subscription's keys are not a P-256 public key and a 16-byte secret")
    owners: list[str] = []
    kept_for: list[str] = []
    if body.table_id is not None:
        if token is None:
            raise Refusal(401, "a seat's subscription needs the seat's token as Authorization: Bearer TOKEN")
        row = await asyncio.to_thread(request.app.state.lobby.store.table, body.table_id)
        if row is None:
            raise Refusal(404, f"no table {body.table_id!r}")
        seat = row.seat_of(token)
        if seat is None:
            raise Refusal(403, "this token holds no seat at this table")
        owners.append(seat_owner(row.id, seat))
        kept_for.append("seat")
    if x_player_token is not None:
        player = await asyncio.to_thread(player_by_token, pusher.engine, x_player_token)
        if player is None:
            raise Refusal(401, "no player holds this X-Player-Token")
        owners.append(player_owner(player.id))
        kept_for.append("player")
    if not owners:
        raise Refusal(401, "a subscription is a seat's (table_id and Authorization: Bearer) or a player's "
                      "(X-Player-Token)")
    # after the tokens: only a seat or a player makes the server resolve a name, and a few at once (a slow resolver
    # would otherwise hold the threads every request shares)
    if not pusher.resolving.acquire(blocking=False):
        raise Refusal(503, "too many push subscriptions are being checked at once: try again shortly",
                      headers={"Retry-After": "2"})
    try:
        await asyncio.to_thread(push_net.check_endpoint, body.subscription.endpoint, schemes,
                                pusher.settings.push_hosts, pusher.settings.push_allow_private)
    except push_net.EndpointRefused as refused:
        raise Refusal(400, str(refused)) from None
    finally:
        pusher.resolving.release()
    await asyncio.to_thread(subscribe, pusher.engine, owners, body.subscription.endpoint,
                            body.subscription.keys.p256dh, body.subscription.keys.auth, body.lang)
    return {"kept_for": kept_for}
