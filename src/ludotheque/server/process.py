"""A server in a process of its own on loopback: started, stopped, or killed with SIGKILL as a crash would.

The tests, the crash test and the load benchmark drive the real server this way, over real sockets."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


#: The creation and login limits of a test server that does not test them: a module's tests make hundreds of guests
#: and tables from one address within a minute, as no person would.
ROOMY_LIMITS = {
    "LUDOTHEQUE_GUESTS_PER_MINUTE": "1000000",
    "LUDOTHEQUE_WAITING_TABLES": "1000000",
    "LUDOTHEQUE_TABLES_PER_CREATOR": "1000000",
    "LUDOTHEQUE_SOCKETS_PER_ADDRESS": "1000000",
    "LUDOTHEQUE_LOGIN_FAILURES_PER_USER": "1000000",
    "LUDOTHEQUE_LOGIN_FAILURES_PER_ADDRESS": "1000000",
}


#: the secret the nodes of a test's site share (``--redis``); an environment's own ``LUDOTHEQUE_SITE_SECRET`` or a
#: test's ``env`` wins
SITE_FOR_TESTS = {"LUDOTHEQUE_SITE_SECRET": os.environ.get("LUDOTHEQUE_SITE_SECRET") or "a test site's secret"}


class ServerProcess:
    """``ludotheque serve`` in a subprocess (``--no-pacing``; bots in the server's own threads by default).

    ``limits=False`` (the default) raises the creation and login limits out of the way (``ROOMY_LIMITS``); the
    tests of those limits start theirs with ``limits=True``, the defaults a host gets."""

    def __init__(self, db_url: str, log_dir: Path, *extra: str, limits: bool = False, port: int | None = None,
                 host: str = "127.0.0.1", netns: str | None = None) -> None:
        self.db_url = db_url
        self.host = host
        self.netns = netns  # a network namespace to run in (``ip netns exec``): another host, for ``make cluster``
        self.extra = extra
        self.limits = limits
        self.port = port or free_port()  # a given port: a restart where a server stood
        self.log_path = log_dir / f"server-{self.port}.log"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://{self.host}:{self.port}"

    def start(self, env: dict[str, str] | None = None) -> ServerProcess:
        # ``extra`` comes last: an option given again there (``--bot-workers 1``) wins over these defaults
        args = [sys.executable, "-m", "ludotheque.cli.main", "serve", "--host", self.host, "--port", str(self.port),
                "--db", self.db_url, "--no-pacing", "--bot-workers", "0", *self.extra]
        if self.netns is not None:
            args = ["ip", "netns", "exec", self.netns, *args]  # ip execs the server: its pid is the server's
        log = self.log_path.open("ab")
        limits = {} if self.limits else ROOMY_LIMITS
        self.process = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT,
                                        env={**os.environ, **SITE_FOR_TESTS, **limits, **(env or {})})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited at start:\n{self.log()}")
            try:
                if httpx.get(f"{self.url}/api/games", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                time.sleep(0.1)
        raise RuntimeError(f"the server did not answer within 60 s:\n{self.log()}")

    def kill(self) -> None:
        """SIGKILL: no shutdown, no flush, as a crash."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
