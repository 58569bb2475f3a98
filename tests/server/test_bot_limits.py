"""Bots on a public server: seats take the named bots only (custom specs need ``--allow-custom-bots``), and bot work
is shared, so that strong bots at some tables never make a person at another table wait for a quick one.

The sharing is shown by what happens, not by timing: bots that think for a minute a move hold their tables while a
person plays several turns against a random bot (its own lane), or against a ``medium`` one (a worker that the cap
on concurrent ``hard`` moves keeps free).  The database plays no part here: SQLite only."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from ludotheque.server.process import ServerProcess

from .client import Client, bot_headers, create_table

#: A ``hard`` search that thinks far longer than these tests last (its cap, 60 s, ends it).
SLOW_HARD = "bot:ismcts:hard:iterations=100000000:time=60"


@pytest.fixture(scope="module")
def public(sqlite_server: ServerProcess) -> ServerProcess:
    """A server as a host starts it: custom bots refused."""
    return sqlite_server


def create(server: ServerProcess, game: str, players: int, seats: list[str], **extra: object) -> httpx.Response:
    return httpx.post(f"{server.url}/api/tables", json={"game": game, "players": players, "seats": seats, **extra},
                      headers=bot_headers(server.url, seats))


@pytest.mark.parametrize("level", ["random", "heuristic", "easy", "medium", "hard"])
def test_the_named_levels_are_seated(public: ServerProcess, level: str) -> None:
    # an open seat keeps the table waiting: no bot plays here
    response = create(public, "geier", 3, ["me", "open", f"bot:{level}"], default_bot=level)
    assert response.status_code == 201, response.text


def test_a_games_own_bot_is_seated_where_it_plays(public: ServerProcess) -> None:
    assert create(public, "geier", 2, ["open", "bot:gt"]).status_code == 201
    three = create(public, "geier", 3, ["open", "open", "bot:gt"])  # gt plays two-player Geier only
    assert three.status_code == 400 and "unknown bot" in three.json()["detail"]


@pytest.mark.parametrize("spec", ["hard:time=60", "ismcts:iterations=999999999", "ismcts:hard", "noisy:0.1",
                                  "heuristic:spread=2", "gt:it=100000", "genius", "medium:", "Hard"])
def test_any_other_spec_is_refused_and_the_answer_says_how(public: ServerProcess, spec: str) -> None:
    for seats, default in ((["me", f"bot:{spec}"], "medium"), (["me", "open"], spec)):
        response = create(public, "geier", 2, seats, default_bot=default)
        assert response.status_code == 400, (spec, response.text)
        detail = response.json()["detail"]
        assert "--allow-custom-bots" in detail and "random, heuristic, easy, medium, hard, gt" in detail


def test_a_named_level_with_settings_is_told_so(public: ServerProcess) -> None:
    detail = create(public, "geier", 2, ["me", "bot:hard:time=60"]).json()["detail"]
    assert "takes no settings" in detail


def test_custom_bots_with_the_flag(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'ludotheque.db'}", tmp_path, "--allow-custom-bots").start()
    try:
        assert create(server, "geier", 2, ["open", "bot:hard:time=2"], default_bot="ismcts:it=50").status_code == 201
        unknown = create(server, "geier", 2, ["open", "bot:genius"])
        assert unknown.status_code == 400 and "unknown bot" in unknown.json()["detail"]
        # the oracle reads every seat's cards: never at a table, whatever the flag allows
        for spec in ("bot:oracle", "bot:oracle:medium"):
            oracle = create(server, "geier", 2, ["me", spec])
            assert oracle.status_code == 400 and "sees every card" in oracle.json()["detail"]
    finally:
        server.stop()


def play_turns(server: ServerProcess, seats: list[str], turns: int) -> None:
    """A person plays ``turns`` turns of two-player Geier against ``seats``' bot: each turn needs the bot's move."""
    created = create_table(server.url, "geier", 2, ["me", *seats])
    person = Client(server.ws_url, created["table_id"], created["token"])
    try:
        state = person.hello()
        for turn in range(turns):
            while not state["legal"]:
                state = person.next("state")  # the bot's move and the next card
            person.send({"type": "move", "move": state["legal"][0]["notation"], "client_move_id": f"m{turn}",
                         "after_seq": state["seq"]})
            state = person.next("state")
    finally:
        person.close()


def slow_tables(server: ServerProcess, count: int) -> list[str]:
    return [create_table(server.url, "geier", 2, [SLOW_HARD, SLOW_HARD])["table_id"] for _ in range(count)]


def test_a_random_bot_answers_while_a_hard_bot_thinks(tmp_path: Path) -> None:
    # one worker for searches: a quick bot queued behind the slow search would wait a minute a move
    server = ServerProcess(f"sqlite:///{tmp_path / 'ludotheque.db'}", tmp_path, "--bot-workers", "1",
                           "--allow-custom-bots").start()
    try:
        slow = slow_tables(server, 2)
        play_turns(server, ["bot:random"], turns=4)
        assert seqs(server, slow) == [1, 1], "a slow bot moved: the test proves nothing"
    finally:
        server.stop()


def test_a_medium_bot_finds_a_worker_while_hard_moves_wait(tmp_path: Path) -> None:
    # two workers, one hard move at once: the other worker stays free for the medium bot
    server = ServerProcess(f"sqlite:///{tmp_path / 'ludotheque.db'}", tmp_path, "--bot-workers", "2",
                           "--allow-custom-bots").start(env={"LUDOTHEQUE_HARD_AT_ONCE": "1"})
    try:
        slow = slow_tables(server, 2)
        play_turns(server, ["bot:medium"], turns=3)
        assert seqs(server, slow) == [1, 1], "a slow bot moved: the test proves nothing"
    finally:
        server.stop()


def seqs(server: ServerProcess, table_ids: list[str]) -> list[int]:
    """Each table's seq, as a spectator sees it (at two-player Geier, 1: a card is drawn, no bid made yet)."""
    out = []
    for table_id in table_ids:
        watcher = Client(server.ws_url, table_id)
        out.append(int(watcher.hello()["seq"]))
        watcher.close()
    return out
