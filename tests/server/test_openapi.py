"""Schemathesis against the published OpenAPI schema of a running server, with bounded examples per operation and
its stateful phase (sequences along the links it infers: create a table, join it, start it, read it): no request
the schema allows, nor a malformed one, makes the server fail or answer outside its schema.

Three checks are left out, each for a reason of the API's shape: a table's player count depends on its game (the
schema bounds it for all games at once, so a valid-looking count can be refused: ``positive_data_acceptance``),
Starlette answers OPTIONS on a path with one of its methods in ``Allow`` (``allow_header_conformance``), and the
guest ``POST /api/players`` makes has a ``name`` but no page at ``GET /api/players/{name}``, which is an account's
(``ensure_resource_availability`` follows that inferred link and expects one)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx

from ludotheque.server.process import ServerProcess


def test_the_api_keeps_to_its_schema(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'ludotheque.db'}", tmp_path).start()
    try:
        # a guest's token, so that the player's own endpoints are reached past their 401
        guest = httpx.post(f"{server.url}/api/players", json={"name": "schemathesis"}).json()["token"]
        run = subprocess.run(
            [str(Path(sys.executable).with_name("schemathesis")), "run", f"{server.url}/openapi.json",
             "-H", f"X-Player-Token: {guest}",
             "--max-examples", "12", "--seed", "1", "--workers", "1", "--no-color",
             "--exclude-checks", "positive_data_acceptance,allow_header_conformance,ensure_resource_availability"],
            capture_output=True, text=True, timeout=600, check=False, cwd=tmp_path,
        )
    finally:
        server.stop()
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert "API Operations" in run.stdout and "Tested: 31" in run.stdout
    assert "API Links" in run.stdout  # the stateful phase follows the inferred links: create, join, start, get
