"""The bot workers end with the server, however it ends, and never hold its port: after a crash (SIGKILL) the
same port serves again at once, and SIGTERM while a bot thinks ends every process of the server.

The processes of a server are read from ``/proc`` (its children, theirs, ...), recorded while a bot thinks, before
the server is ended; the port is free when no socket listens on it (``/proc/net/tcp``)."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from ludotheque.server.process import ServerProcess

from .client import Client, create_table

pytestmark = pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads processes from Linux's /proc")

#: A bot that thinks far longer than any of these tests waits (a custom spec: the servers allow them).
SLOW_HARD = "bot:ismcts:hard:iterations=100000000:time=60"


def descendants(pid: int) -> set[int]:
    """Every process below ``pid``: its children, their children..."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            children = (task / "children").read_text().split()
        except OSError:
            continue  # the task ended meanwhile
        for child in map(int, children):
            found |= {child} | descendants(child)
    return found


def alive(pid: int) -> bool:
    """A process that still runs (a zombie, which only waits to be reaped, holds no socket and runs nothing)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def listening(port: int) -> bool:
    """Whether any socket of this machine listens on ``port`` (TCP, IPv4 or IPv6)."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table) as lines:
            next(lines)
            for line in lines:
                local, state = line.split()[1], line.split()[3]
                if int(local.rpartition(":")[2], 16) == port and state == "0A":
                    return True
    return False


def gone(pids: set[int], port: int, within: float) -> bool:
    """Whether every process of ``pids`` has ended and the port is free, within ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not any(alive(pid) for pid in pids) and not listening(port):
            return True
        time.sleep(0.1)
    return False


@pytest.fixture
def thinking_server(tmp_path: Path) -> Iterator[tuple[ServerProcess, set[int]]]:
    """A server with a worker process thinking a long bot move, and the processes below the server then."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'ludotheque.db'}", tmp_path, "--bot-workers", "1",
                           "--allow-custom-bots").start()
    assert server.process is not None
    processes: set[int] = set()
    try:
        table = create_table(server.url, "geier", 2, [SLOW_HARD, SLOW_HARD])["table_id"]
        watcher = Client(server.ws_url, table)
        state = watcher.hello()
        while state["seq"] < 1:
            state = watcher.next("state")  # the card is drawn: the bots are asked at once
        watcher.close()
        deadline = time.monotonic() + 30
        while not thinking(descendants(server.process.pid)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert thinking(descendants(server.process.pid)), "no bot worker is thinking"
        assert listening(server.port)
        processes = descendants(server.process.pid)
        yield server, processes
    finally:
        server.kill()
        for pid in processes:
            if alive(pid) and "python" in cmdline(pid):
                os.kill(pid, 9)  # a failed test leaves nothing behind for the next


def thinking(pids: set[int]) -> bool:
    """Whether one of ``pids`` has run for longer than a worker takes to start (about half a second of CPU)."""
    return any(cpu_seconds(pid) > 2.0 for pid in pids)


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")
    except OSError:
        return ""


def test_a_crash_leaves_no_process_and_the_port_serves_again(
        thinking_server: tuple[ServerProcess, set[int]], tmp_path: Path) -> None:
    server, processes = thinking_server
    server.kill()
    assert gone(processes, server.port, within=5.0), [cmdline(pid) for pid in processes if alive(pid)]
    again = ServerProcess(server.db_url, tmp_path, "--bot-workers", "1", "--allow-custom-bots",
                          port=server.port).start()  # raises if the port cannot be had
    try:
        assert again.port == server.port
    finally:
        again.stop()


def test_sigterm_while_a_bot_thinks_ends_every_process(thinking_server: tuple[ServerProcess, set[int]]) -> None:
    server, processes = thinking_server
    assert server.process is not None
    server.process.terminate()
    assert gone({server.process.pid, *processes}, server.port, within=10.0), \
        [cmdline(pid) for pid in {server.process.pid, *processes} if alive(pid)]


def test_a_worker_killed_by_the_system_is_replaced(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'ludotheque.db'}", tmp_path, "--bot-workers", "1").start()
    assert server.process is not None
    try:
        for bot in ("bot:medium", "bot:random"):  # a search's worker, then the quick bots' one
            workers = {pid for pid in descendants(server.process.pid) if "spawn_main" in cmdline(pid)}
            assert workers
            for pid in workers:
                os.kill(pid, 9)  # as the out-of-memory killer would
            created = create_table(server.url, "geier", 2, ["me", bot])
            person = Client(server.ws_url, created["table_id"], created["token"])
            state = person.hello()
            for turn in range(3):
                while not state["legal"]:
                    state = person.next("state")  # the bot moved: a new worker answered
                person.send({"type": "move", "move": state["legal"][0]["notation"], "client_move_id": f"m{turn}",
                             "after_seq": state["seq"]})
                state = person.next("state")
            person.close()
    finally:
        server.stop()
