"""Replaying a finished table move by move, and a player's finished games, on SQLite and PostgreSQL.

Every replayed position is compared with the engine's own, rebuilt from the table's published record: a replay
that showed anything more, or anything else, than the seat saw would differ."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import httpx
import pytest

from ludotheque.core import CHANCE, State
from ludotheque.games import load_game
from ludotheque.server.process import ServerProcess

from .client import Client, create_table, play_to_end


def wait_finished(base: str, table_id: str, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while httpx.get(f"{base}/api/tables/{table_id}").json()["status"] != "finished":
        if time.monotonic() > deadline:
            raise AssertionError(f"table {table_id} did not finish in time")
        time.sleep(0.1)


def replay(base: str, table_id: str, headers: dict[str, str] | None = None, **params: Any) -> httpx.Response:
    return httpx.get(f"{base}/api/tables/{table_id}/replay", params=params, headers=headers)


def seen_by(seat: int | None) -> dict[str, Any]:
    """The query parameter of ``seat``'s view: none for a spectator."""
    return {} if seat is None else {"seat": seat}


def new_player(base: str, name: str) -> str:
    created = httpx.post(f"{base}/api/players", json={"name": name})
    assert created.status_code == 201, created.text
    token: str = created.json()["token"]
    return token


class Positions:
    """The engine's states after each action of a record, applied through the public protocol."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.actions = record["actions"]
        game = load_game(record["game"], players=record["players"], **record["options"])
        state = game.new_initial_state()
        self.states: list[State] = [state.clone()]
        self.events: list[list[Any]] = [[]]
        for item in self.actions:
            before = state.clone()
            by = item["by"]
            state.apply_action(item["action"], None if by == CHANCE else by)
            self.events.append(list(game.describe(before, by, item["action"], state)))
            self.states.append(state.clone())

    def seen(self, seq: int, seat: int | None) -> list[dict[str, Any]]:
        out = []
        for event in self.events[seq]:
            data = event.seen_by(seat)
            if data is not None:
                out.append({"seq": seq, **data})
        return out

    def chance_runs(self) -> list[int]:
        """The seq of the last action of each run of chance actions."""
        by = [item["by"] for item in self.actions]
        return [k + 1 for k in range(len(by)) if by[k] == CHANCE and (k + 1 == len(by) or by[k + 1] != CHANCE)]


@pytest.fixture(scope="module")
def finished(server: ServerProcess) -> tuple[str, Positions]:
    """A Mü game played to its end by bots: its id and the engine's positions from its record."""
    created = create_table(server.url, "mu", 3, ["bot:random"] * 3, options={"target": 60})
    table_id = created["table_id"]
    wait_finished(server.url, table_id)
    record = httpx.get(f"{server.url}/api/tables/{table_id}/record").json()
    return table_id, Positions(record)


def test_every_step_shows_what_the_seat_saw(server: ServerProcess, finished: tuple[str, Positions]) -> None:
    table_id, positions = finished
    last = len(positions.actions)
    for seq in range(last + 1):  # forward one action at a time, as the page steps
        step = replay(server.url, table_id, seq=seq, seat=1).json()
        assert (step["seq"], step["last_seq"], step["seat"], step["game"]) == (seq, last, 1, "mu")
        assert step["view"] == positions.states[seq].view(1)
        assert step["events"] == positions.seen(seq, 1)
        item = positions.actions[seq - 1] if seq else None
        assert step["entry"] == (None if item is None else {"actor": item["by"], "notation": item["move"]})
    for seq in (last // 2, 3, 0):  # and back
        assert replay(server.url, table_id, seq=seq, seat=2).json()["view"] == positions.states[seq].view(2)


def test_a_step_offers_the_seat_the_moves_it_had_there(server: ServerProcess,
                                                      finished: tuple[str, Positions]) -> None:
    # the replay page's "retry your mistakes": before each of seat 1's actions, its legal moves as it was offered
    # them; elsewhere (another seat acts, chance, a spectator) none
    table_id, positions = finished
    acted = [seq for seq, item in enumerate(positions.actions) if item["by"] == 1][:5]
    for seq in acted:
        state = positions.states[seq]
        legal = replay(server.url, table_id, seq=seq, seat=1).json()["legal"]
        assert [m["notation"] for m in legal] == [state.action_to_string(a, 1) for a in state.legal_actions(1)]
        assert positions.actions[seq]["move"] in {m["notation"] for m in legal}
        assert replay(server.url, table_id, seq=seq).json()["legal"] == []
    others = [seq for seq, item in enumerate(positions.actions) if item["by"] not in (1, CHANCE)][:3]
    assert all(replay(server.url, table_id, seq=seq, seat=1).json()["legal"] == [] for seq in others)


def test_every_hand_is_shown_once_the_game_is_over(server: ServerProcess, finished: tuple[str, Positions]) -> None:
    table_id, positions = finished
    end = positions.states[-1]
    for seat in (0, 1, 2, None):
        step = replay(server.url, table_id, **seen_by(seat)).json()
        assert step["seq"] == len(positions.actions) and step["seat"] == seat
        assert step["view"] == end.view(seat) and step["view"]["terminal"]


def test_a_hand_stays_hidden_from_the_other_seats(server: ServerProcess, finished: tuple[str, Positions]) -> None:
    table_id, positions = finished
    dealt = positions.chance_runs()[0]  # the first deal, complete
    views = {seat: replay(server.url, table_id, seq=dealt, **seen_by(seat)).json()["view"]
             for seat in (0, 1, None)}
    hand = views[1]["table"]["hand"]
    assert hand and hand == positions.states[dealt].view(1)["table"]["hand"]
    for other in (0, None):
        assert views[other] == positions.states[dealt].view(other)
        assert json.dumps(hand) not in json.dumps(views[other])


def test_since_gives_the_events_of_several_steps(server: ServerProcess, finished: tuple[str, Positions]) -> None:
    table_id, positions = finished
    last = len(positions.actions)
    everything = replay(server.url, table_id, seat=0, since=0).json()["events"]
    assert everything == [e for seq in range(1, last + 1) for e in positions.seen(seq, 0)]
    some = replay(server.url, table_id, seq=20, since=10).json()["events"]
    assert some == [e for seq in range(11, 21) for e in positions.seen(seq, None)]
    assert replay(server.url, table_id, seq=0).json()["events"] == []


def test_marks_point_at_each_run_of_chance(server: ServerProcess, finished: tuple[str, Positions]) -> None:
    table_id, positions = finished
    marks = replay(server.url, table_id, seq=0).json()["marks"]
    assert marks == [{"seq": seq, "index": i} for i, seq in enumerate(positions.chance_runs(), 1)]
    by = [item["by"] for item in positions.actions]
    for mark in marks:
        assert by[mark["seq"] - 1] == CHANCE  # the run's last action is chance...
        assert mark["seq"] == len(by) or by[mark["seq"]] != CHANCE  # ... and the next is a player's
    assert marks[0]["seq"] > 1  # Mü deals every card one by one: the first mark is the whole deal


def test_bad_steps_are_refused(server: ServerProcess, finished: tuple[str, Positions]) -> None:
    table_id, positions = finished
    last = len(positions.actions)
    bad: list[tuple[dict[str, Any], str]] = [
        ({"seq": -1}, "0 to"), ({"seq": last + 1}, f"0 to {last}"), ({"seat": 3}, "seat is 0 to 2"),
        ({"seat": -1}, "seat is"), ({"seq": 5, "since": 6}, "since"), ({"since": -1}, "since")]
    for params, words in bad:
        refused = replay(server.url, table_id, **params)
        assert refused.status_code == 400 and words in refused.json()["detail"], (params, refused.text)
    assert replay(server.url, "nope").status_code == 404
    assert replay(server.url, table_id, headers={"Authorization": "Basic x"}).status_code == 401


def test_a_game_in_play_is_not_replayed(server: ServerProcess) -> None:
    playing = create_table(server.url, "geier", 2, ["me", "bot:random"])  # the person's move is awaited
    assert httpx.get(f"{server.url}/api/tables/{playing['table_id']}").json()["status"] == "playing"
    for seat in (None, 0, 1):
        refused = replay(server.url, playing["table_id"], headers={"Authorization": f"Bearer {playing['token']}"},
                         **seen_by(seat))
        assert refused.status_code == 409 and "finished" in refused.json()["detail"]
    waiting = create_table(server.url, "geier", 2, ["me", "open"])
    assert replay(server.url, waiting["table_id"]).status_code == 409


def test_a_players_games_and_a_private_replay(server: ServerProcess) -> None:
    base = server.url
    ana, bo = new_player(base, "Ana"), new_player(base, "Bo")
    response = httpx.post(f"{base}/api/tables", headers={"X-Player-Token": ana},
                          json={"game": "geier", "players": 2, "seats": ["me", "bot:random"], "private": True,
                                "name": "Ana's"})
    assert response.status_code == 201, response.text
    created = response.json()
    table_id = created["table_id"]
    assert table_id not in [g["table_id"] for g in httpx.get(f"{base}/api/me/games",
                                                             headers={"X-Player-Token": ana}).json()]
    client = Client(server.ws_url, table_id, created["token"])
    try:
        client.hello()
        play_to_end([client], random.Random(5))
    finally:
        client.close()
    wait_finished(base, table_id)
    # the private replay: a seat's token, or the player who sat there
    assert replay(base, table_id).status_code == 403
    assert replay(base, table_id, headers={"X-Player-Token": bo}).status_code == 403
    assert replay(base, table_id, headers={"X-Player-Token": "nobody"}).status_code == 403
    assert replay(base, table_id, headers={"Authorization": f"Bearer {created['token']}"}).status_code == 200
    step = replay(base, table_id, headers={"X-Player-Token": ana}, seat=1)
    assert step.status_code == 200 and step.json()["view"]["terminal"]
    # the history
    mine = httpx.get(f"{base}/api/me/games", headers={"X-Player-Token": ana}).json()
    game = mine[0]
    record = httpx.get(f"{base}/api/tables/{table_id}/record",
                       headers={"Authorization": f"Bearer {created['token']}"}).json()
    end = Positions(record).states[-1]
    assert game["result"] == {"returns": end.returns(), "winners": end.winners()}
    assert {k: game[k] for k in ("table_id", "game", "name", "players", "seat", "rated")} == {
        "table_id": table_id, "game": "geier", "name": "Ana's", "players": 2, "seat": 0, "rated": False}
    assert game["seats"] == [{"seat": 0, "name": "Ana", "kind": "human"}, {"seat": 1, "name": "random", "kind": "bot"}]
    finished_at = httpx.get(f"{base}/api/tables/{table_id}").json()["finished_at"]
    assert finished_at is not None and game["finished_at"] == finished_at
    assert table_id not in [g["table_id"] for g in httpx.get(f"{base}/api/me/games",
                                                             headers={"X-Player-Token": bo}).json()]
    assert httpx.get(f"{base}/api/me/games").status_code == 401
    assert httpx.get(f"{base}/api/me/games", headers={"X-Player-Token": "nobody"}).status_code == 401
    assert httpx.get(f"{base}/api/me/games", params={"limit": 201}, headers={"X-Player-Token": ana}).status_code == 422


def test_a_players_games_come_newest_first(server: ServerProcess) -> None:
    base = server.url
    cy = new_player(base, "Cy")
    tables: list[str] = []
    for _ in range(2):
        created = httpx.post(f"{base}/api/tables", headers={"X-Player-Token": cy},
                             json={"game": "geier", "players": 2, "seats": ["me", "bot:random"]}).json()
        client = Client(server.ws_url, created["table_id"], created["token"])
        try:
            client.hello()
            play_to_end([client], random.Random(len(tables)))
        finally:
            client.close()
        wait_finished(base, created["table_id"])
        tables.append(created["table_id"])
    listed = httpx.get(f"{base}/api/me/games", headers={"X-Player-Token": cy}).json()
    assert [g["table_id"] for g in listed] == tables[::-1]
    one = httpx.get(f"{base}/api/me/games", params={"limit": 1}, headers={"X-Player-Token": cy}).json()
    assert [g["table_id"] for g in one] == tables[1:]


def test_the_replay_page_is_served(server: ServerProcess, finished: tuple[str, Positions]) -> None:
    page = httpx.get(f"{server.url}/tables/{finished[0]}/replay")
    assert page.status_code == 200 and "/static/js/replay.js" in page.text


@pytest.mark.parametrize(("game_id", "players", "options", "hands"), [("rummu", 3, {"hands": 2}, 2),
                                                                    ("mice", 2, {}, 1)])
def test_marks_are_hands_not_every_draw(game_id: str, players: int, options: dict[str, Any],
                                        hands: int | None) -> None:
    """Rummü draws and MICE rolls in the middle of a hand: the marks are where each hand begins (the game's
    ``chapter_field``), and a game of one hand has one, its deal."""
    from ludotheque.server.replay import chance_marks, chapter_marks
    from ludotheque.table import Table

    game = load_game(game_id, players=players, **options)
    table = Table(game, [game.heuristic_bot()] * players, chance_rng=random.Random(3), bot_rng=random.Random(4))
    table.play_out()
    entries = [(entry.actor, entry.action, entry.notation) for entry in table.log]
    marks = chapter_marks(game, entries)
    assert len(marks) < len(chance_marks(entries))
    if hands is not None:
        assert len(marks) == hands
    field = game.chapter_field
    if field is not None:
        chapters = [Table.restore_logged(game, entries[:mark]).state.view(None)["table"][field] for mark in marks]
        assert chapters == sorted(set(chapters)), "each mark begins a new hand"
