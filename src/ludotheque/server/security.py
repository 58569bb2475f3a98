"""HTTP hardening for the open internet: security headers on every response, a cap on request bodies, validation
errors that never echo more than a prefix of the input, and the origins a page's WebSocket may come from.

``install(app, settings)`` puts the first three in place; ``origin_allowed`` is the WebSocket handshake's check.
The middleware is plain ASGI: Starlette's ``BaseHTTPMiddleware`` would buffer streamed answers and skip WebSockets.
"""

from __future__ import annotations

import json
import math
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from ludotheque.server.config import Settings
from ludotheque.server.errors import Refusal

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: Scripts, styles, pictures and connections come from this server only; no page may frame ours (clickjacking).
#: ``'unsafe-inline'`` is for styles alone: the game renderers set per-element values (a seat's colour, a cell's
#: place) at run time (their stylesheets are files, ``games/<id>/web/renderer.css``); no script runs that the server
#: did not serve as a file.
#: ``connect-src 'self'`` also covers ``ws:``/``wss:`` to the same host (CSP level 3).
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self'; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
#: Invite links carry the table's invite code in their query: no address of ours is ever sent to another site.
SECURITY_HEADERS: list[tuple[bytes, bytes]] = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
]
#: A validation error echoes at most this many characters of the value it refuses.
ECHO_PREFIX = 100


class BodyTooLarge(Refusal):
    """A request body past ``Settings.max_body_bytes``: raised while FastAPI reads the body, which lets a refusal
    through, so the answer is a 413 like any refusal."""

    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is larger than the server accepts ({limit} bytes)")


class HardenedHTTP:
    """Adds ``SECURITY_HEADERS`` to every HTTP answer and refuses bodies over ``max_body_bytes`` with 413: at once
    when ``Content-Length`` says so, or as soon as a streamed (chunked) body passes the limit."""

    def __init__(self, app: ASGIApp, max_body_bytes: int) -> None:
        self.app = app
        self.max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def send_hardened(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                names = {name.lower() for name, _ in message.get("headers", [])}
                message["headers"] = [*message.get("headers", []),
                                      *((name, value) for name, value in SECURITY_HEADERS if name not in names)]
            await send(message)

        limit = self.max_body_bytes
        declared = _content_length(scope)
        if declared is not None and declared > limit:
            too_large = BodyTooLarge(limit)
            await _refuse(send_hardened, too_large.status, too_large.message)
            return
        received = 0

        async def receive_capped() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        try:
            await self.app(scope, receive_capped, send_hardened)
        except BodyTooLarge as refusal:
            if started:
                raise
            await _refuse(send_hardened, refusal.status, refusal.message)
        except Exception:
            # the server's own 500 is written outside this middleware: write it here, headers included (the
            # error still goes up, to be logged)
            if not started:
                await _refuse(send_hardened, 500, "Internal Server Error", plain=True)
            raise


def _content_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _refuse(send: Send, status: int, message: str, plain: bool = False) -> None:
    body = message.encode() if plain else json.dumps({"detail": message}).encode()
    kind = b"text/plain; charset=utf-8" if plain else b"application/json"
    # the connection closes: the rest of an oversized body is never read
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", kind), (b"content-length", str(len(body)).encode()),
                            (b"connection", b"close")]})
    await send({"type": "http.response.body", "body": body})


def trimmed(value: Any, limit: int = ECHO_PREFIX) -> Any:
    """``value`` as it is when its JSON is short, else the first ``limit`` characters (of the text itself, or of
    its JSON), followed by an ellipsis."""
    value = jsonable_encoder(value)
    if isinstance(value, str):
        return value if len(value) <= limit else value[:limit] + "…"
    text = json.dumps(value, ensure_ascii=False)
    return value if len(text) <= limit else text[:limit] + "…"


async def validation_problem(request: Request, error: Exception) -> JSONResponse:
    """FastAPI's 422 with each error's ``input`` and ``ctx`` values cut to a short prefix: a refused 10 MB name
    comes back as 100 characters, not 10 MB."""
    assert isinstance(error, RequestValidationError)
    details = []
    for item in error.errors():
        item = dict(item)
        if "input" in item:
            item["input"] = trimmed(item["input"])
        if isinstance(item.get("ctx"), dict):
            item["ctx"] = {key: trimmed(value) for key, value in item["ctx"].items()}
        details.append(jsonable_encoder(item))
    return JSONResponse({"detail": details}, status_code=422)


class NonFinite(ValueError):
    pass


def _no_constant(name: str) -> Any:
    raise NonFinite(name)


def _finite(text: str) -> float:
    value = float(text)
    if math.isinf(value):
        raise NonFinite(text)
    return value


def _json_body(scope: Scope) -> bool:
    """Whether FastAPI reads this request's body as JSON (no content type, ``application/json``, ``...+json``)."""
    if scope.get("method") not in ("POST", "PUT", "PATCH", "DELETE"):
        return False
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-type":
            kind: str = value.decode("latin-1").split(";")[0].strip().lower()
            return kind == "application/json" or (kind.startswith("application/") and kind.endswith("+json"))
    return True


class FiniteJSON:
    """Refuses with 422 a JSON body that holds ``NaN``, ``Infinity`` or a number no double holds (``1e400``):
    Python's parser takes them (JSON has none), and then neither a model, the database nor an answer that echoes
    them can.  The body (already capped by ``HardenedHTTP``) is read once here and handed on as it came."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not _json_body(scope):
            await self.app(scope, receive, send)
            return
        messages: list[Message] = []
        body = b""
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            body += message.get("body", b"")
            if not message.get("more_body", False):
                break
        try:
            json.loads(body, parse_constant=_no_constant, parse_float=_finite)
        except NonFinite as error:
            answer = JSONResponse({"detail": [{"type": "json_invalid", "loc": ["body"], "msg": "JSON decode error",
                                               "input": {}, "ctx": {"error": f"{trimmed(str(error))} is not a "
                                                                             "JSON number"}}]}, status_code=422)
            await answer(scope, receive, send)
            return
        except (ValueError, RecursionError):
            pass  # not JSON, or nested too deeply: FastAPI answers it as it does

        async def replay() -> Message:
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)


def install(app: FastAPI, settings: Settings) -> None:
    app.add_middleware(FiniteJSON)  # inside HardenedHTTP: the body it reads is capped, its 422 gets the headers
    app.add_middleware(HardenedHTTP, max_body_bytes=settings.max_body_bytes)
    app.add_exception_handler(RequestValidationError, validation_problem)


# -- the WebSocket handshake's Origin ----------------------------------------------------------------------------

_DEFAULT_PORTS = {"http": 80, "https": 443}
_PAGE_SCHEME = {"ws": "http", "wss": "https", "http": "http", "https": "https"}

Origin = tuple[str, str, int]


def normalized_origin(url: str) -> Origin | None:
    """``(scheme, host, port)`` of an http(s) address, default port filled in; None for anything else (``null``,
    ``javascript:``, ``file:``, a malformed port)."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in _DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname.lower(), port or _DEFAULT_PORTS[scheme]


def own_origin(scheme: str, host: str | None, settings: Settings) -> Origin | None:
    """The origin of the server's own pages: ``--public-url``'s when set, else the one the request came to (a
    ``ws:`` handshake's pages are ``http:``, ``wss:``'s ``https:``)."""
    if settings.public_url:
        return normalized_origin(settings.public_url)
    page_scheme = _PAGE_SCHEME.get(scheme.lower())
    if page_scheme is None or not host:
        return None
    return normalized_origin(f"{page_scheme}://{host}")


def origin_accepted(origin: str, scheme: str, host: str | None, settings: Settings) -> bool:
    """Whether a page of ``origin`` may open a WebSocket here: the server's own origin or one of
    ``--allow-origin``'s, compared by scheme, host and port."""
    seen = normalized_origin(origin)
    if seen is None:
        return False
    accepted = {own_origin(scheme, host, settings), *(normalized_origin(o) for o in settings.allow_origins)}
    return seen in accepted
