"""One site on several processes: the processes meet through Redis, the truth stays in the database.

Started with ``--redis``, each process is a *node* of the site.  A table in play lives in exactly one node, its
*owner*, which holds a lease on it in Redis (``...:lease:TABLE`` = the node's id, renewed every
``renew_s``, gone ``lease_s`` after its node stops renewing it).  Whatever reaches another node for that table goes
to the owner, as lichess's socket servers pass their messages to its game servers:

* a REST verb that changes the table (join, start, leave, ...) is a *call*: the node sends it to the owner's
  channel and waits for the answer (a refusal comes back as the same refusal);
* a WebSocket is *relayed*: the node that holds the socket sends the client's messages to the owner, and the owner
  serves the connection as its own (the frame of each seat built by the table's actor, hidden cards and all, the
  ack before the frame) and sends what the client is owed back to the relaying node.

Every key and channel is under ``ludotheque:SITE:DB:``, ``SITE`` being the site's name (``Settings.site_name``,
the database's name by default) and ``DB`` the Redis database number of ``--redis``: pub/sub channels are shared by
every database number of a Redis, so two sites on one Redis stay apart only by their names.  Each node has one
channel (``...:node:ID``) and one subscriber on it; a message is a JSON object whose ``k`` says what it is.

Redis is not trusted with the site's authority: every message is signed with the site's shared secret
(``Settings.site_secret``, HMAC-SHA256 over the channel and the message) and carries its time and a nonce; a node
drops a message whose signature is wrong, that is older than ``MESSAGE_TTL_S``, or whose nonce it has seen (a
replay).  A Redis client without the secret can stop the site (delete leases, flood channels) but cannot act in it:
no forged ``ws.open`` serves a seat, no forged call runs a verb.  And the database, not Redis, decides who writes a
table: each lease comes with a fencing number (``Store.take_fence``) that every commit of the table's log checks.

A node that stops (killed or cut off) stops renewing its leases and its own liveness key; after at most
``lease_s`` and two sweeps another node claims each orphaned table, restores it from the database's log, and starts
its bots and clocks again; the relays of the dead owner close their sockets with 1012 and the clients reconnect and
say ``hello`` to whichever node they reach.  A node that finds it lost a lease (or that another node wrote the
table's next action first: the log's key refuses a second writer) drops the table at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import redis.asyncio as aioredis

log = logging.getLogger("ludotheque.server.cluster")

#: the close code a relayed socket gets when its table changes owner: the client reconnects and says hello
CLOSE_MOVED = 1012
#: seconds a signed message stays valid (the nodes' clocks must agree within it: NTP)
MESSAGE_TTL_S = 30.0

# Renew the leases that are still this node's; the keys of the others are returned (lost).
_RENEW = """
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('get', key) == ARGV[1] then redis.call('pexpire', key, ARGV[2]) else table.insert(lost, key) end
end
return lost
"""
# Give a lease back, if it is still this node's.
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class CallFailed(Exception):
    """A call to another node was refused there (``status`` and ``detail`` as the HTTP refusal), or got no answer."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status, self.detail = status, detail


@dataclass(eq=False)
class RelayedSocket:
    """The owner's side of a socket another node holds: it looks to ``serve_connection`` like a WebSocket."""

    cluster: Cluster
    node: str  # the node that holds the socket
    conn: str
    inbox: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)

    async def receive(self) -> dict[str, Any]:
        return await self.inbox.get()

    async def send_json(self, message: dict[str, Any]) -> None:
        await self.cluster.send(self.node, {"k": "ws.out", "conn": self.conn, "msg": message})

    async def close(self, code: int = 1000, reason: str = "") -> None:
        await self.cluster.send(self.node, {"k": "ws.close", "conn": self.conn, "code": code, "reason": reason})


class Cluster:
    """This node's link to the site's other nodes (``redis_url``: the site's Redis, its database number included)."""

    def __init__(self, redis_url: str, site: str, secret: str, lease_s: float = 6.0, renew_s: float = 2.0,
                 node: str | None = None, *,
                 on_call: Callable[[str, dict[str, Any]], Awaitable[Any]] | None = None,
                 on_socket: Callable[[RelayedSocket, str, int | None], Awaitable[None]] | None = None,
                 on_lost: Callable[[str], Awaitable[None]] | None = None) -> None:
        """``on_call``: answers another node's call of a table verb; ``on_socket``: serves a socket another node
        relays; ``on_lost``: a table whose lease this node lost.  A cluster without them (a test's) answers none."""
        self.redis = aioredis.from_url(redis_url, decode_responses=True)
        database = int(self.redis.connection_pool.connection_kwargs.get("db") or 0)
        self.prefix = f"ludotheque:{site}:{database}:"
        self._key = hashlib.sha256(b"ludotheque site messages\n" + secret.encode()).digest()
        self._nonces: dict[str, float] = {}  # the nonces of the messages taken lately, and when they expire
        self._refused_logged = 0.0
        self.node = node or secrets.token_hex(6)
        self.lease_s, self.renew_s = lease_s, renew_s
        self.owned: set[str] = set()  # the tables whose lease this node holds
        self._replies: dict[str, asyncio.Future[Any]] = {}
        #: sockets this node holds for tables another node owns: conn -> (owner, deliver)
        self.relays: dict[str, tuple[str, str, Callable[[dict[str, Any]], None]]] = {}
        #: sockets another node holds for tables this node owns: conn -> the owner's side of it
        self.served: dict[str, RelayedSocket] = {}
        self.on_call, self.on_socket, self.on_lost = on_call, on_socket, on_lost
        self._tasks: list[asyncio.Task[None]] = []
        self._background: set[asyncio.Task[None]] = set()  # calls answered and sockets served, held till done
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)

    # -- keys -----------------------------------------------------------------------------------------------

    def lease_key(self, table_id: str) -> str:
        return f"{self.prefix}lease:{table_id}"

    def channel(self, node: str) -> str:
        return f"{self.prefix}node:{node}"

    def alive_key(self, node: str) -> str:
        return f"{self.prefix}alive:{node}"

    # -- life of the node ------------------------------------------------------------------------------------

    async def start(self) -> None:
        pubsub = self.redis.pubsub()
        await pubsub.subscribe(self.channel(self.node))
        await self.redis.set(self.alive_key(self.node), "1", px=int(self.lease_s * 1000))
        self._tasks = [asyncio.create_task(self._listen(pubsub)), asyncio.create_task(self._keep_alive())]

    async def close(self) -> None:
        """Give every lease back, so that the other nodes take the tables at once, and stop."""
        for task in (*self._tasks, *self._background):
            task.cancel()
        with contextlib.suppress(Exception):
            for table_id in list(self.owned):
                await self.release(table_id)
            await self.redis.delete(self.alive_key(self.node))
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    async def _keep_alive(self) -> None:
        while True:
            await asyncio.sleep(self.renew_s)
            try:
                await self.redis.set(self.alive_key(self.node), "1", px=int(self.lease_s * 1000))
                lost = await self._renew(keys=[self.lease_key(t) for t in self.owned],
                                         args=[self.node, int(self.lease_s * 1000)]) if self.owned else []
            except Exception:  # Redis away: keep trying; the leases run out if it stays away
                log.exception("node %s could not renew its leases", self.node)
                continue
            for key in lost:
                table_id = str(key).removeprefix(f"{self.prefix}lease:")
                await self.lose(table_id)

    async def lose(self, table_id: str) -> None:
        """The lease is gone (run out, or another node wrote the table): the table leaves this node."""
        if table_id in self.owned:
            self.owned.discard(table_id)
            log.warning("node %s lost table %s", self.node, table_id)
            with contextlib.suppress(Exception):  # still ours in Redis when another writer was found first
                await self._release(keys=[self.lease_key(table_id)], args=[self.node])
            if self.on_lost is not None:
                await self.on_lost(table_id)

    # -- leases ----------------------------------------------------------------------------------------------

    async def claim(self, table_id: str) -> str | None:
        """The node that owns the table: this one if its lease was free (taken now), else its owner's id."""
        key = self.lease_key(table_id)
        if await self.redis.set(key, self.node, nx=True, px=int(self.lease_s * 1000)):
            self.owned.add(table_id)
            return self.node
        owner = await self.redis.get(key)
        if owner is None:  # ran out between the two commands
            return await self.claim(table_id)
        if owner == self.node:
            self.owned.add(table_id)
        return str(owner)

    async def owners(self, table_ids: list[str]) -> list[str | None]:
        if not table_ids:
            return []
        values = await self.redis.mget([self.lease_key(t) for t in table_ids])
        return [None if v is None else str(v) for v in values]

    async def release(self, table_id: str) -> None:
        self.owned.discard(table_id)
        await self._release(keys=[self.lease_key(table_id)], args=[self.node])

    async def alive(self, nodes: set[str]) -> set[str]:
        """Which of ``nodes`` still renew their liveness key."""
        ordered = sorted(nodes)
        values = await self.redis.mget([self.alive_key(n) for n in ordered]) if ordered else []
        return {n for n, v in zip(ordered, values, strict=True) if v is not None}

    # -- messages --------------------------------------------------------------------------------------------

    async def send(self, node: str, message: dict[str, Any]) -> None:
        channel = self.channel(node)
        await self.redis.publish(channel, self.sign(channel, message))

    def sign(self, channel: str, message: dict[str, Any]) -> str:
        """``MAC.JSON``: the message with its time and a nonce, signed for ``channel`` alone."""
        body = json.dumps({**message, "t": time.time(), "n": secrets.token_hex(8)}, separators=(",", ":"))
        return f"{self._mac(channel, body)}.{body}"

    def _mac(self, channel: str, body: str) -> str:
        return hmac.new(self._key, f"{channel}\n{body}".encode(), hashlib.sha256).hexdigest()

    def verified(self, channel: str, data: str) -> dict[str, Any] | None:
        """The message of ``data`` if it is signed with the site's secret for ``channel``, recent, and not seen
        before; else None (logged, at most once every 10 s)."""
        mac, _, body = data.partition(".")
        why = None
        message: Any = None
        if not hmac.compare_digest(mac.encode(), self._mac(channel, body).encode()):
            why = "a wrong signature"
        else:
            message = json.loads(body)
            now = time.time()
            for nonce, expires in list(self._nonces.items()):
                if expires < now:
                    del self._nonces[nonce]
            sent = message.get("t") if isinstance(message, dict) else None
            if not isinstance(sent, int | float) or abs(now - sent) > MESSAGE_TTL_S:
                why = "a time out of bounds"
            elif message.get("n") in self._nonces:
                why = "a nonce seen before (a replay)"
            else:
                self._nonces[str(message.get("n"))] = now + 2 * MESSAGE_TTL_S
        if why is None:
            return dict(message)
        if time.monotonic() - self._refused_logged > 10.0:
            self._refused_logged = time.monotonic()
            log.warning("node %s dropped a message on its channel: %s", self.node, why)
        return None

    async def call(self, node: str, verb: str, args: dict[str, Any], timeout: float = 10.0) -> Any:
        """Run ``verb`` at ``node`` (the table's owner) and return its answer; its refusal is raised as
        ``CallFailed``, and so is a node that does not answer (503)."""
        call_id = secrets.token_hex(8)
        reply: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._replies[call_id] = reply
        try:
            await self.send(node, {"k": "call", "id": call_id, "from": self.node, "verb": verb, "args": args})
            return await asyncio.wait_for(reply, timeout)
        except TimeoutError:
            raise CallFailed(503, "the server that holds this table does not answer: try again shortly") from None
        finally:
            self._replies.pop(call_id, None)

    async def _listen(self, pubsub: Any) -> None:
        while True:
            try:
                async for message in pubsub.listen():
                    if message.get("type") == "message":
                        verified = self.verified(str(message["channel"]), str(message["data"]))
                        if verified is not None:
                            self._dispatch(verified)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("node %s: its channel failed; subscribing again", self.node)
                await asyncio.sleep(1.0)
                with contextlib.suppress(Exception):
                    await pubsub.subscribe(self.channel(self.node))

    def _dispatch(self, message: dict[str, Any]) -> None:
        kind = message.get("k")
        if kind == "call":
            self._spawn(self._answer(message))
        elif kind == "reply":
            reply = self._replies.get(message["id"])
            if reply is not None and not reply.done():
                if "error" in message:
                    reply.set_exception(CallFailed(message["error"]["status"], message["error"]["detail"]))
                else:
                    reply.set_result(message.get("ok"))
        elif kind == "ws.open":
            socket = RelayedSocket(self, message["from"], message["conn"])
            self.served[socket.conn] = socket
            if self.on_socket is not None:
                self._spawn(self._serve(socket, message["table"], message.get("seat")))
        elif kind == "ws.in":
            served = self.served.get(message["conn"])
            if served is not None:
                served.inbox.put_nowait({"type": "websocket.receive", "text": message.get("text")})
        elif kind == "ws.gone":
            served = self.served.pop(message["conn"], None)
            if served is not None:
                served.inbox.put_nowait({"type": "websocket.disconnect"})
        elif kind in ("ws.out", "ws.close"):
            relay = self.relays.get(message["conn"])
            if relay is not None:
                relay[2](message)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _serve(self, socket: RelayedSocket, table_id: str, seat: int | None) -> None:
        assert self.on_socket is not None
        try:
            await self.on_socket(socket, table_id, seat)
        except Exception:
            log.exception("node %s: a relayed connection to table %s failed", self.node, table_id)
        finally:
            self.served.pop(socket.conn, None)

    async def _answer(self, message: dict[str, Any]) -> None:
        from ludotheque.server.errors import Refusal

        answer: dict[str, Any] = {"k": "reply", "id": message["id"]}
        try:
            assert self.on_call is not None
            answer["ok"] = await self.on_call(message["verb"], message["args"])
        except Refusal as refusal:
            answer["error"] = {"status": refusal.status_code, "detail": refusal.detail}
        except CallFailed as failed:
            answer["error"] = {"status": failed.status, "detail": failed.detail}
        except Exception:
            log.exception("node %s: the call %s failed", self.node, message.get("verb"))
            answer["error"] = {"status": 503, "detail": "the server that holds this table failed: try again"}
        await self.send(message["from"], answer)

    # -- relays (this node holds the socket) -----------------------------------------------------------------

    def relay(self, conn: str, table_id: str, owner: str, deliver: Callable[[dict[str, Any]], None]) -> None:
        self.relays[conn] = (owner, table_id, deliver)

    def unrelay(self, conn: str) -> None:
        self.relays.pop(conn, None)

    async def check_relays(self) -> None:
        """Close the relayed sockets whose table changed owner (or whose owner is gone): their clients reconnect."""
        if not self.relays:
            return
        items = list(self.relays.items())
        owners = await self.owners([table_id for _, (_, table_id, _) in items])
        for (conn, (owner, _, deliver)), now in zip(items, owners, strict=True):
            if now != owner:
                deliver({"k": "ws.close", "conn": conn, "code": CLOSE_MOVED,
                         "reason": "the table moved to another server: reconnect"})

    async def check_served(self) -> None:
        """End the connections served for nodes that stopped: their sockets are gone with them."""
        nodes = {socket.node for socket in self.served.values()}
        if not nodes:
            return
        living = await self.alive(nodes)
        for conn, socket in list(self.served.items()):
            if socket.node not in living:
                self.served.pop(conn, None)
                socket.inbox.put_nowait({"type": "websocket.disconnect"})
