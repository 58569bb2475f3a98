"""Leaving a game and what it costs, and the ratings people see: resigning over the table's socket, the departure
each seat keeps, a finished rated table's rating changes, the results on /me and the public player pages, on
SQLite and PostgreSQL, over real sockets."""

from __future__ import annotations

import random
import time
from typing import Any

import httpx

from ludotheque.server.process import ServerProcess

from .client import Client, create_table, play_to_end


def summary(server: ServerProcess, table_id: str) -> dict[str, Any]:
    data: dict[str, Any] = httpx.get(f"{server.url}/api/tables/{table_id}").json()
    return data


def finished(server: ServerProcess, table_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120  # a deadline for a hung server, not a timed assertion
    while (found := summary(server, table_id))["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)
    return found


def test_a_resigned_seat_is_a_rated_loss_a_bot_finishes_and_me_and_the_player_page_show_it(
    server: ServerProcess,
) -> None:
    created = create_table(server.url, "geier", 2, ["me", "bot:random"], rated=True, player_name="Résa")
    table_id, token, player = created["table_id"], created["token"], created["player_token"]
    # an account, so that the player has a public page
    account = httpx.post(f"{server.url}/api/me/account", headers={"X-Player-Token": player},
                         json={"username": "Resa", "password": "a long enough password"})
    assert account.status_code in (200, 201), account.text
    player = account.json()["token"]
    spectator = Client(server.ws_url, table_id)
    seated = Client(server.ws_url, table_id, token)
    try:
        spectator.hello()
        assert summary(server, table_id)["seats"][0]["departure"] is None
        spectator.send({"type": "resign"})
        assert spectator.next("error")["code"] == "unauthorized"
        seated.hello()
        seated.send({"type": "resign"})
        frame = seated.next("state")
        while frame["seats"][0]["departure"] != "resigned":
            frame = seated.next("state")
        assert frame["seats"][0]["away"] and any(n["kind"] == "resign" for n in frame["notices"])
        reclaimed = httpx.post(f"{server.url}/api/tables/{table_id}/reclaim",
                               headers={"Authorization": f"Bearer {token}"})
        assert reclaimed.status_code == 409
        done = finished(server, table_id)
    finally:
        spectator.close()
        seated.close()
    assert done["seats"][0]["departure"] == "resigned" and done["seats"][1]["departure"] is None
    # the seat's result is a loss, whatever the bot scored for it: its rating goes down, the person's only
    assert set(done["rating_changes"]) == {"0"} and done["rating_changes"]["0"] < 0
    mine = httpx.get(f"{server.url}/api/me/games", headers={"X-Player-Token": player}).json()
    assert mine[0]["table_id"] == table_id
    assert (mine[0]["place"], mine[0]["departure"]) == (2, "resigned")
    assert mine[0]["points"] == mine[0]["result"]["returns"][0]
    page = httpx.get(f"{server.url}/api/players/RESA").json()
    assert page["name"] == "resa" and page["since"] > 0
    geier = page["ratings"]["geier"]
    assert geier == {"rating": 1500 + done["rating_changes"]["0"], "provisional": True, "games": 1}
    assert page["recent"][0] == {"table_id": table_id, "game": "geier", "finished_at": done["finished_at"],
                                 "place": 2, "points": mine[0]["points"], "departure": "resigned", "rated": True}
    assert [p["rating"] for p in page["history"]["geier"]] == [geier["rating"]]
    assert summary(server, table_id)["seats"][0]["account"] == "resa"
    assert httpx.get(f"{server.url}/players/resa").status_code == 200
    ratings = httpx.get(f"{server.url}/api/me/ratings", headers={"X-Player-Token": player}).json()
    assert ratings["ratings"]["geier"] == geier


def test_no_page_for_a_guest_or_an_unknown_name_and_no_rating_changes_off_rated_tables(
    server: ServerProcess,
) -> None:
    created = create_table(server.url, "geier", 2, ["me", "bot:random"], player_name="Gaspard")
    assert httpx.get(f"{server.url}/api/players/Gaspard").status_code == 404
    assert httpx.get(f"{server.url}/api/players/nobody-at-all").status_code == 404
    left = httpx.post(f"{server.url}/api/tables/{created['table_id']}/leave",
                      headers={"Authorization": f"Bearer {created['token']}"})
    assert left.status_code == 200 and left.json()["seats"][0]["departure"] == "left"
    done = finished(server, created["table_id"])
    assert done["seats"][0]["departure"] == "left" and done["rating_changes"] is None


def test_a_rematch_declined_is_seen_by_whoever_offered_it_who_may_still_start_it(server: ServerProcess) -> None:
    created = create_table(server.url, "geier", 2, ["me", "open"], player_name="Ana")
    table_id = created["table_id"]
    joined = httpx.post(f"{server.url}/api/tables/{table_id}/join", json={"name": "Bruno"}).json()
    ana = Client(server.ws_url, table_id, created["token"])
    bruno = Client(server.ws_url, table_id, joined["token"])

    def post(path: str, token: str) -> httpx.Response:
        return httpx.post(f"{server.url}/api/tables/{table_id}/{path}", headers={"Authorization": f"Bearer {token}"})

    try:
        ana.hello()
        bruno.hello()
        assert post("rematch/decline", joined["token"]).status_code == 409  # nothing offered yet (nor over)
        play_to_end([ana, bruno], random.Random(3))
        assert post("rematch/decline", joined["token"]).status_code == 409  # over, but nothing offered
        offer = post("rematch", created["token"]).json()
        declined = post("rematch/decline", joined["token"])
        assert declined.status_code == 200, declined.text
        assert declined.json() == {"table_id": offer["table_id"], "accepted": [0], "declined": [1]}
        seen = ana.frames()[-1]
        while not (seen["rematch"] and seen["rematch"]["declined"]):
            seen = ana.next("state")
        assert seen["rematch"]["declined"] == [1]
        assert post("rematch/decline", joined["token"]).status_code == 409  # said once
        assert post("rematch", joined["token"]).status_code == 409  # the seat is no longer kept
        waiting = summary(server, offer["table_id"])
        assert waiting["status"] == "waiting" and waiting["seats"][0]["kind"] == "declined"
        started = httpx.post(f"{server.url}/api/tables/{offer['table_id']}/start",
                             headers={"Authorization": f"Bearer {offer['token']}"})
        assert started.status_code == 200 and started.json()["seats"][0]["kind"] == "bot"
    finally:
        ana.close()
        bruno.close()
