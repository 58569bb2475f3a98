"""The REST contract of the table server, on SQLite and PostgreSQL."""

from __future__ import annotations

import httpx

from ludotheque.games import game_ids
from ludotheque.server.process import ServerProcess

from .client import create_table


def test_games_lists_every_game_with_its_options(server: ServerProcess) -> None:
    games = httpx.get(f"{server.url}/api/games").json()
    assert [g["id"] for g in games] == game_ids()
    geier = next(g for g in games if g["id"] == "geier")
    assert (geier["min_players"], geier["max_players"]) == (2, 5)
    tie_rule = next(o for o in geier["options"] if o["name"] == "tie_rule")
    assert tie_rule["default"] == "cascade" and tie_rule["choices"] == ["cascade", "single"]


def test_create_join_start_and_list(server: ServerProcess) -> None:
    base = server.url
    created = create_table(base, "geier", 3, ["me", "open", "open"], name="Friday", player_name="Ana")
    assert created["seat"] == 0 and len(created["token"]) > 20
    table_id = created["table_id"]
    assert created["invite_url"] == f"{base}/tables/{table_id}"
    listed = httpx.get(f"{base}/api/tables").json()
    assert table_id in [t["id"] for t in listed]
    joined = httpx.post(f"{base}/api/tables/{table_id}/join", json={"name": "Bo"}).json()
    assert joined["seat"] == 1 and joined["token"] != created["token"]
    summary = httpx.get(f"{base}/api/tables/{table_id}").json()
    assert [(s["kind"], s["name"]) for s in summary["seats"]] == [("human", "Ana"), ("human", "Bo"), ("open", None)]
    assert summary["status"] == "waiting" and summary["name"] == "Friday"
    # only the creator starts, with its token
    refused = httpx.post(f"{base}/api/tables/{table_id}/start", headers={"Authorization": f"Bearer {joined['token']}"})
    assert refused.status_code == 403
    started = httpx.post(f"{base}/api/tables/{table_id}/start",
                         headers={"Authorization": f"Bearer {created['token']}"}).json()
    assert started["status"] == "playing"
    assert started["seats"][2] == {"seat": 2, "kind": "bot", "name": "medium", "away": False, "departure": None,
                                   "account": None}
    assert table_id not in [t["id"] for t in httpx.get(f"{base}/api/tables").json()]
    full = httpx.post(f"{base}/api/tables/{table_id}/join", json={"name": "Cy"})
    assert full.status_code == 409


def test_a_table_whose_seats_are_filled_starts_by_itself(server: ServerProcess) -> None:
    created = create_table(server.url, "geier", 2, ["me", "open"])
    httpx.post(f"{server.url}/api/tables/{created['table_id']}/join", json={"name": "Bo"})
    assert httpx.get(f"{server.url}/api/tables/{created['table_id']}").json()["status"] == "playing"
    bots_only = create_table(server.url, "geier", 2, ["bot:random", "bot:heuristic"])
    assert bots_only["seat"] is None and bots_only["token"] is None


def test_private_tables_need_the_invite(server: ServerProcess) -> None:
    created = create_table(server.url, "mu", 3, ["me", "open", "open"], private=True)
    table_id = created["table_id"]
    code = created["invite_url"].split("?invite=")[1]
    assert table_id not in [t["id"] for t in httpx.get(f"{server.url}/api/tables").json()]
    assert httpx.post(f"{server.url}/api/tables/{table_id}/join", json={"name": "Bo"}).status_code == 403
    wrong = httpx.post(f"{server.url}/api/tables/{table_id}/join", json={"name": "Bo", "invite": "nope"})
    assert wrong.status_code == 403
    ok = httpx.post(f"{server.url}/api/tables/{table_id}/join", json={"name": "Bo", "invite": code})
    assert ok.status_code == 200 and ok.json()["seat"] == 1


def test_bad_requests_name_the_problem(server: ServerProcess) -> None:
    base = server.url

    def post(body: dict[str, object]) -> httpx.Response:
        return httpx.post(f"{base}/api/tables", json=body)

    unknown = post({"game": "chess", "players": 2})
    assert unknown.status_code == 422 and "geier" in unknown.text  # the schema names the games
    assert "2 to 5 players" in post({"game": "geier", "players": 6}).json()["detail"]
    assert "no option 'speed'" in post({"game": "geier", "players": 2, "options": {"speed": 1}}).json()["detail"]
    assert "unknown bot" in post({"game": "geier", "players": 2, "seats": ["me", "bot:genius"]}).json()["detail"]
    assert "one entry per seat" in post({"game": "geier", "players": 2, "seats": ["me"]}).json()["detail"]
    assert "at most one seat" in post({"game": "geier", "players": 2, "seats": ["me", "me"]}).json()["detail"]
    assert post({"game": "geier", "players": 2, "colour": "red"}).status_code == 422
    assert httpx.get(f"{base}/api/tables/nope").status_code == 404
    assert httpx.post(f"{base}/api/tables/nope/join", json={"name": "x"}).status_code == 404
    assert httpx.post(f"{base}/api/tables/nope/start", headers={"Authorization": "Basic x"}).status_code == 401


def test_the_record_waits_for_the_end(server: ServerProcess) -> None:
    created = create_table(server.url, "geier", 2, ["me", "bot:heuristic"])
    response = httpx.get(f"{server.url}/api/tables/{created['table_id']}/record")
    assert response.status_code == 409 and "hidden card" in response.json()["detail"]


def test_the_openapi_schema_is_published(server: ServerProcess) -> None:
    schema = httpx.get(f"{server.url}/openapi.json").json()
    assert {"/api/games", "/api/tables", "/api/tables/{table_id}/join"} <= set(schema["paths"])
