"""Refusals, once for the whole server: one exception for a request refused (REST or WebSocket), and the handlers
that turn it, and a database that does not answer, into the answers the contract promises (``docs/server.md``).

A refusal changes nothing: it is raised before any write, or the write's transaction is rolled back.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException

log = logging.getLogger("ludotheque.server")

#: What a client reads when the database does not answer: nothing was written, the same request may be sent again.
UNAVAILABLE = "the database is unavailable; try again shortly"


class Refusal(HTTPException):
    """A request refused: its HTTP status, the protocol's error code for a WebSocket frame (``illegal``,
    ``not_your_turn``...), a message naming the problem for the person who sent it, and headers (``Retry-After``).

    It is an ``HTTPException`` because FastAPI lets only those through when one is raised while it reads a request's
    body (the body-size cap of ``security.py``); any other exception there becomes a 400."""

    def __init__(self, status: int, message: str, code: str | None = None,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(status, message, headers)
        self.status = status
        self.message = message
        self.code = code or _CODES.get(status, "refused")

    def __str__(self) -> str:
        return self.message

    def frame(self) -> dict[str, Any]:
        """The WebSocket's error frame."""
        return {"type": "error", "code": self.code, "message": self.message}


_CODES = {400: "malformed", 401: "unauthorized", 403: "forbidden", 404: "not_found", 409: "conflict",
          413: "too_large", 429: "rate_limited", 503: "unavailable"}


def database_error(error: BaseException) -> str:
    """A database error as a log may show it: its kind and the driver's error code, never its text, which quotes
    the statement and, for a broken constraint, the row's values (a token's digest, a user name)."""
    orig = getattr(error, "orig", None)
    parts = [type(error).__name__]
    if orig is not None:
        code = getattr(orig, "sqlstate", None) or getattr(orig, "sqlite_errorname", None)
        parts.append(f"{type(orig).__module__}.{type(orig).__name__}" + (f" {code}" if code else ""))
    return " from ".join(parts)


def install_error_handlers(app: FastAPI) -> None:
    """Every route may raise ``Refusal``; a database error anywhere is a 503 that names no statement."""

    @app.exception_handler(Refusal)
    async def refused(_request: Request, error: Refusal) -> JSONResponse:
        return JSONResponse({"detail": error.message}, status_code=error.status, headers=error.headers)

    @app.exception_handler(SQLAlchemyError)
    async def unavailable(request: Request, error: SQLAlchemyError) -> JSONResponse:
        # the route's pattern, never the path itself: a path may carry a login code
        route = getattr(request.scope.get("route"), "path", "?")
        log.error("database error on %s %s: %s", request.method, route, database_error(error))
        return JSONResponse({"detail": UNAVAILABLE}, status_code=503)
