"""The coach's review of a finished table over the REST API (``docs/coach.md``, ``docs/server.md``): queued, its
progress, the review of the issue's JSON with one entry per action of the seat, kept in the database across a
restart (SQLite and PostgreSQL), the refusals, and the limits on reviews queued.  Budgets are tiny
(``LUDOTHEQUE_REVIEW_SECONDS``): the reviews' quality is ``tests/bots/test_coach.py``'s."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from ludotheque.core import CHANCE
from ludotheque.games import load_game
from ludotheque.server.process import ServerProcess

from .client import Client, create_table
from .test_replay import wait_finished

#: A review of about a second at most, whose decisions spend few playouts.
#: One review under way at a time: a second is refused (429).
COACH_ENV = {"LUDOTHEQUE_REVIEW_SECONDS": "1", "LUDOTHEQUE_REVIEW_PLAYOUTS": "30", "LUDOTHEQUE_REVIEWS_QUEUED": "1"}
#: The tests that need no second database.
sqlite_only = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)


@pytest.fixture(scope="module")
def coach(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    process = ServerProcess(db_url, tmp_path_factory.mktemp("coach")).start(COACH_ENV)
    try:
        yield process
    finally:
        process.stop()


def finished(base: str, players: int = 2, **extra: Any) -> str:
    table_id: str = create_table(base, "geier", players, ["bot:random"] * players, **extra)["table_id"]
    wait_finished(base, table_id)
    return table_id


def ask(base: str, table_id: str, seat: int, token: str | None = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else None
    return httpx.post(f"{base}/api/tables/{table_id}/review", json={"seat": seat}, headers=headers)


def state(base: str, table_id: str, seat: int, token: str | None = None) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"} if token else None
    return httpx.get(f"{base}/api/tables/{table_id}/review", params={"seat": seat}, headers=headers)


def wait_done(base: str, table_id: str, seat: int, token: str | None = None) -> tuple[dict[str, Any], list[str]]:
    """The review once done, and every status seen on the way."""
    seen = []
    deadline = time.monotonic() + 60
    while True:
        answer = state(base, table_id, seat, token)
        assert answer.status_code == 200, answer.text
        data: dict[str, Any] = answer.json()
        seen.append(data["status"])
        assert data["status"] != "failed", data
        assert 0 <= data["progress"]["done"] <= data["progress"]["total"] or data["status"] == "queued"
        if data["status"] == "done":
            return data, seen
        assert time.monotonic() < deadline, "the review took too long"
        time.sleep(0.05)


def test_a_finished_game_is_reviewed_then_kept(coach: ServerProcess, tmp_path: Path) -> None:
    base = coach.url
    table_id = finished(base)
    first = ask(base, table_id, 0)
    assert first.status_code == 202 and first.json()["status"] in ("queued", "running")
    done, seen = wait_done(base, table_id, 0)
    assert set(seen) <= {"queued", "running", "done"}
    review = done["review"]
    assert review["seat"] == 0 and review["model"] == "easy" and review["game"] == "geier"
    # the seat reviewed is modelled by the chosen level, the other by the bot that sat there
    assert review["models"] == [{"seat": 0, "model": "easy", "by": "person"},
                                {"seat": 1, "model": "random", "by": "bot"}]
    assert review["unit"] == "game"

    # one entry per action of seat 0, numbered by the table's seq, playing what the record says; the coach's
    # move is legal there
    record = httpx.get(f"{base}/api/tables/{table_id}/record").json()
    state_ = load_game("geier", players=2).new_initial_state()
    mine = []
    for seq, item in enumerate(record["actions"], 1):
        by = item["by"]
        if by == 0:
            mine.append(seq)
            entry = review["decisions"][len(mine) - 1]
            assert entry["seq"] == seq and entry["played"] == item["move"]
            assert state_.string_to_action(entry["best"], 0) in state_.legal_actions(0)
            assert entry["judgement"] in ("good", "inaccuracy", "mistake", "blunder")
        state_.apply_action(item["action"], None if by == CHANCE else by)
    assert [entry["seq"] for entry in review["decisions"]] == mine
    assert done["progress"]["done"] == done["progress"]["total"] > 0
    assert set(review["summary"]) >= {"total_loss", "accuracy", "worst"}

    # asked again: the stored review, at once; after a restart on the same database, still there
    again = ask(base, table_id, 0)
    assert again.status_code == 200 and again.json()["review"] == review
    restarted = ServerProcess(coach.db_url, tmp_path).start(COACH_ENV)
    try:
        kept = state(restarted.url, table_id, 0)
        assert kept.status_code == 200 and kept.json()["status"] == "done" and kept.json()["review"] == review
    finally:
        restarted.stop()


@sqlite_only
def test_refusals(coach: ServerProcess) -> None:
    base = coach.url
    assert ask(base, "nosuchtable", 0).status_code == 404
    assert state(base, "nosuchtable", 0).status_code == 404
    playing = create_table(base, "geier", 2, ["me", "bot:random"])  # waits for its person's bids
    assert ask(base, playing["table_id"], 0, playing["token"]).status_code == 409
    table_id = finished(base)
    assert ask(base, table_id, 2).status_code == 400  # a 2-player table has seats 0 and 1
    assert state(base, table_id, 1).status_code == 404  # nothing asked for seat 1
    assert httpx.post(f"{base}/api/tables/{table_id}/review", json={"seats": 0}).status_code == 422


@sqlite_only
def test_a_private_tables_review_needs_that_seats_token(coach: ServerProcess) -> None:
    base = coach.url
    created = create_table(base, "geier", 2, ["me", "bot:random"], private=True)
    table_id, token = created["table_id"], created["token"]
    # the person bids their lowest card until the end
    client = Client(coach.ws_url, table_id, token)
    try:
        frame = client.hello()
        counter = 0
        while not frame["view"]["terminal"]:
            if frame["legal"]:
                counter += 1
                client.send({"type": "move", "move": frame["legal"][0]["notation"], "client_move_id": f"m{counter}",
                             "after_seq": frame["seq"]})
            frame = client.next("state")
    finally:
        client.close()
    wait_finished(base, table_id)
    assert ask(base, table_id, 0).status_code == 403
    assert ask(base, table_id, 1, token).status_code == 403  # seat 0's token is not seat 1's
    assert state(base, table_id, 0).status_code == 403
    assert ask(base, table_id, 0, token).status_code == 202
    assert wait_done(base, table_id, 0, token)[0]["review"]["seat"] == 0


@pytest.fixture(scope="module")
def slow_coach(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A coach whose every review spends its whole time budget (3 s): one is surely under way while the next
    requests are made."""
    folder = tmp_path_factory.mktemp("slow-coach")
    env = {**COACH_ENV, "LUDOTHEQUE_REVIEW_SECONDS": "3", "LUDOTHEQUE_REVIEW_PLAYOUTS": "100000000"}
    process = ServerProcess(f"sqlite:///{folder / 'ludotheque.db'}", folder).start(env)
    try:
        yield process
    finally:
        process.stop()


def test_one_review_queued_per_seat_and_a_cap_on_all(slow_coach: ServerProcess) -> None:
    base = slow_coach.url
    table_id = finished(base, players=3)
    assert ask(base, table_id, 0).status_code == 202
    assert ask(base, table_id, 0).status_code == 202  # the same review: a second one would be refused
    refused = ask(base, table_id, 1)  # one is under way (LUDOTHEQUE_REVIEWS_QUEUED=1)
    assert refused.status_code == 429 and "Retry-After" in refused.headers
    wait_done(base, table_id, 0)
    assert ask(base, table_id, 1).status_code == 202
    wait_done(base, table_id, 1)


@sqlite_only
def test_a_hints_table_is_never_rated(coach: ServerProcess) -> None:
    refused = httpx.post(f"{coach.url}/api/tables", json={"game": "geier", "players": 2, "seats": ["me", "bot:random"],
                                                          "hints": True, "rated": True})
    assert refused.status_code == 400 and "rated" in refused.json()["detail"]


def test_the_coachs_model_of_people_is_a_setting(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # LUDOTHEQUE_COACH_MODEL, default easy (docs/coach.md: until playouts of medium are cheap); a spec no game can
    # make stops the server at its creation, with the reason
    from ludotheque.bots.coach import default_model
    from ludotheque.server.app import create_app
    from ludotheque.server.config import Settings

    monkeypatch.delenv("LUDOTHEQUE_COACH_MODEL", raising=False)
    assert default_model() == "easy"
    monkeypatch.setenv("LUDOTHEQUE_COACH_MODEL", "heuristic")
    assert default_model() == "heuristic"
    create_app(Settings(db_url=f"sqlite:///{tmp_path / 'a.db'}"))
    monkeypatch.setenv("LUDOTHEQUE_COACH_MODEL", "nobody")
    with pytest.raises(ValueError, match="the coach's model 'nobody' is no bot"):
        create_app(Settings(db_url=f"sqlite:///{tmp_path / 'b.db'}"))
