"""``NaN``, ``Infinity`` and numbers past a double (``1e400``) are not JSON: every route answers 422, never 500.

Python's JSON parser takes them; a model, the database or a 422 that echoes the value cannot, and the request
would end in a server error with a traceback."""

from __future__ import annotations

import httpx
import pytest

from ludotheque.server.process import ServerProcess

from .client import create_table

BODIES = ['{"game": NaN, "players": 2, "seats": ["me", "bot:random"]}',
          '{"game": "geier", "players": Infinity, "seats": ["me", "bot:random"]}',
          '{"game": "geier", "players": 2, "seats": ["me", "bot:random"], "clock": {"days": -Infinity}}',
          '{"game": "geier", "players": 2, "seats": ["me", "bot:random"], "options": {"x": 1e400}}',
          '{"name": 1E+400}', '[NaN]', 'NaN', '-1e999']


def test_non_finite_numbers_are_refused_on_every_route(sqlite_server: ServerProcess) -> None:
    created = create_table(sqlite_server.url, "geier", 2, ["me", "open"])
    routes = [("POST", "/api/tables"), ("POST", "/api/players"), ("PUT", "/api/me/preferences"),
              ("PUT", "/api/me/name"), ("POST", "/api/me/account"), ("POST", "/api/login"),
              ("POST", "/api/login/link"), ("POST", f"/api/tables/{created['table_id']}/join"),
              ("POST", f"/api/tables/{created['table_id']}/review"), ("POST", "/api/push/subscribe")]
    with httpx.Client(base_url=sqlite_server.url) as client:
        for method, path in routes:
            for body in BODIES:
                for kind in ("application/json", None):
                    headers = {"Content-Type": kind} if kind else {}
                    answer = client.request(method, path, content=body, headers=headers)
                    assert answer.status_code == 422, (method, path, body, answer.status_code, answer.text)
                    assert answer.json()["detail"][0]["type"] == "json_invalid"
                    assert answer.headers["x-frame-options"] == "DENY"
        # finite numbers, however written, are read as before
        fine = client.post("/api/tables", content='{"game": "geier", "players": 2.0e0, "seats": ["me", "open"]}',
                           headers={"Content-Type": "application/json"})
        assert fine.status_code in (201, 422) and fine.status_code != 500
    assert "Traceback" not in sqlite_server.log()


@pytest.mark.parametrize("body", ['{"game": "geier", "players": 2, "seats": ["me", "open"], "name": "NaN"}'])
def test_the_word_nan_in_a_string_is_text(sqlite_server: ServerProcess, body: str) -> None:
    answer = httpx.post(f"{sqlite_server.url}/api/tables", content=body, headers={"Content-Type": "application/json"})
    assert answer.status_code == 201, answer.text
