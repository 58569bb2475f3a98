"""The server's log lines: plain text, or one JSON object a line (``--log-format json``), never a secret.

uvicorn prints the path of each request and WebSocket handshake with its query string, and a seat's WebSocket
carries its token there (``/ws/tables/ID?token=...``); invite codes travel the same way.  Every line, in both
formats, goes through ``redact`` before it is written, the text of exceptions included.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime
from typing import Any

#: The secrets a line may carry: query values named like a token, an invite or a code, and bearer tokens.
_SECRETS = re.compile(
    r"(?P<name>[?&;](?:[\w.-]*token|invite|code|password)=)[^&\s\"'#]*"
    r"|(?P<bearer>\bBearer\s+)[^\s\"',]+",
    re.IGNORECASE,
)
REDACTED = "[redacted]"

#: text: what the console showed before (warnings and errors); json: every request too, for a log collector.
LEVELS = {"text": "warning", "json": "info"}


def redact(text: str) -> str:
    return _SECRETS.sub(lambda m: f"{m.group('name') or m.group('bearer')}{REDACTED}", text)


class TextFormatter(logging.Formatter):
    def __init__(self) -> None:
        super().__init__("%(levelname)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        return redact(super().format(record))


class JsonFormatter(logging.Formatter):
    """``{"time", "level", "logger", "message"}``, and ``"exception"`` with the traceback when there is one."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": redact(record.getMessage()),
        }
        if record.exc_info:
            line["exception"] = redact(self.formatException(record.exc_info))
        elif record.exc_text:
            line["exception"] = redact(record.exc_text)
        return json.dumps(line, ensure_ascii=False)


def log_config(log_format: str) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for uvicorn's ``log_config``: the ludotheque loggers and uvicorn's (its
    access log included) on stderr, in ``log_format`` (``text`` or ``json``)."""
    if log_format not in LEVELS:
        raise ValueError(f"--log-format is 'text' or 'json', not {log_format!r}")
    formatter = JsonFormatter if log_format == "json" else TextFormatter
    level = LEVELS[log_format].upper()
    handler = {"handlers": ["stderr"], "level": level, "propagate": False}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"line": {"()": f"{formatter.__module__}.{formatter.__qualname__}"}},
        "handlers": {"stderr": {"class": "logging.StreamHandler", "formatter": "line", "stream": "ext://sys.stderr"}},
        # asyncio's too: what the event loop logs (a connection's failure) is one line of the same format
        "loggers": {"uvicorn": handler, "uvicorn.access": handler, "ludotheque": handler, "asyncio": handler},
    }
