"""Does a flood of wrong passwords slow the rest of the server?  (``python -m benchmarks.login_flood``)

A real server (SQLite in a temporary folder, ``--proxy-headers``) with the login limits raised out of the way, so
that every attempt is checked with argon2: 8 clients send wrong passwords for one account, each from an address of
its own (``X-Forwarded-For``), while one client times ``GET /api/tables`` (20 open tables listed).  Printed: the
times of ``GET /api/tables`` before and during the flood (p50, p95, max), and the logins checked a second.  The
passwords are checked ``Settings.hash_at_once`` at a time (``--hash-at-once N`` sets it: a large N shows the server
without the bound).  About 30 s in all.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import threading
import time
from pathlib import Path

import httpx

from ludotheque.server.process import ServerProcess

FLOODERS = 8
PASSWORD = "correct horse battery"


def percentile(times: list[float], share: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def time_listing(base: str, seconds: float) -> list[float]:
    times: list[float] = []
    with httpx.Client(timeout=30) as client:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            started = time.perf_counter()
            assert client.get(f"{base}/api/tables").status_code == 200
            times.append(time.perf_counter() - started)
            time.sleep(0.05)
    return times


def flood(base: str, username: str, index: int, stop: threading.Event, answers: list[int]) -> None:
    with httpx.Client(timeout=60, headers={"X-Forwarded-For": f"10.0.0.{index + 1}"}) as client:
        while not stop.is_set():
            response = client.post(f"{base}/api/login", json={"username": username, "password": "wrong password"})
            answers.append(response.status_code)


def report(label: str, times: list[float]) -> None:
    ms = [1000 * t for t in times]
    print(f"{label:>14}: GET /api/tables p50 {statistics.median(ms):7.1f} ms  p95 {percentile(ms, 0.95):7.1f} ms  "
          f"max {max(ms):7.1f} ms  ({len(ms)} requests)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hash-at-once", type=int, default=None, help="LUDOTHEQUE_HASH_AT_ONCE for the server")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long the flood lasts")
    args = parser.parse_args()
    env = {} if args.hash_at_once is None else {"LUDOTHEQUE_HASH_AT_ONCE": str(args.hash_at_once)}
    with tempfile.TemporaryDirectory() as folder:
        server = ServerProcess(f"sqlite:///{Path(folder) / 'ludotheque.db'}", Path(folder),
                               "--proxy-headers", "--forwarded-allow-ips", "127.0.0.1").start(env)
        try:
            base = server.url
            guest = httpx.post(f"{base}/api/players", json={"name": "Ana"}).json()
            username = f"flooded{int(time.time())}"
            made = httpx.post(f"{base}/api/me/account", json={"username": username, "password": PASSWORD},
                              headers={"X-Player-Token": guest["token"]}, timeout=30)
            assert made.status_code == 200, made.text
            for _ in range(20):
                httpx.post(f"{base}/api/tables", json={"game": "geier", "players": 2, "seats": ["me", "open"]},
                           headers={"X-Player-Token": made.json()["token"]})
            before = time_listing(base, 5.0)
            stop = threading.Event()
            answers: list[int] = []
            flooders = [threading.Thread(target=flood, args=(base, username, n, stop, answers), daemon=True)
                        for n in range(FLOODERS)]
            for thread in flooders:
                thread.start()
            time.sleep(1.0)  # the flood under way
            started, first = time.monotonic(), len(answers)
            during = time_listing(base, args.seconds)
            elapsed = time.monotonic() - started
            checked = sum(1 for status in answers[first:] if status == 401)
            stop.set()
            for thread in flooders:
                thread.join(60)
        finally:
            server.stop()
    print(f"login flood: {FLOODERS} clients of wrong passwords, hash_at_once="
          f"{args.hash_at_once if args.hash_at_once is not None else 'default (2)'}")
    report("before flood", before)
    report("during flood", during)
    print(f"{'logins':>14}: {checked} wrong passwords checked in {elapsed:.0f} s ({checked / elapsed:.1f}/s); "
          f"other answers: {sorted(set(answers) - {401}) or 'none'}")


if __name__ == "__main__":
    main()
