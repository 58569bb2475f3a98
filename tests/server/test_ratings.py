"""Ratings: the finishing order of a table, the update of a finished rated table on SQLite and PostgreSQL (values
checked against OpenSkill directly), and the leaderboard as the running server publishes it."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import Engine, delete, insert, select

from ludotheque.server.db import make_engine, migrate
from ludotheque.server.process import ServerProcess
from ludotheque.server.ratings import MODEL, displayed, finishing_ranks, rate_finished, rater_of
from ludotheque.server.schema import game_tables, ratings
from ludotheque.server.store import SeatRow, TableRow

from .client import bot_headers

# -- helpers ---------------------------------------------------------------------------------------------------


def person(seat: int, player_id: str, name: str | None = None, away: bool = False) -> SeatRow:
    return SeatRow(seat, "human", name or player_id.title(), None, None, player_id=player_id, away=away)


def bot(seat: int, level: str) -> SeatRow:
    return SeatRow(seat, "bot", level, None, level)


def table(*seats: SeatRow, rated: bool = True, game: str = "geier") -> TableRow:
    return TableRow(id="t1", game=game, players=len(seats), options={}, name="t", private=False, invite=None,
                    status="finished", default_bot="medium", creator_seat=None, created_at=0.0, seats=list(seats),
                    rated=rated)


def finish(engine: Engine, row: TableRow, returns: list[float], lower_wins: bool = False) -> None:
    with engine.begin() as db:
        rate_finished(db, row, returns, lower_wins)


def stored(engine: Engine, game: str = "geier") -> dict[str, dict[str, Any]]:
    with engine.connect() as db:
        rows = db.execute(select(ratings).where(ratings.c.game == game)).mappings().all()
    return {row["rater"]: dict(row) for row in rows}


def expected(ranks: list[int], priors: list[Any] | None = None) -> list[Any]:
    """OpenSkill's own answer for one game of single-seat entrants finishing at ``ranks``."""
    priors = priors or [MODEL.rating() for _ in ranks]
    return [team[0] for team in MODEL.rate([[p] for p in priors], ranks=[float(r) for r in ranks])]


@pytest.fixture(scope="module")
def engine(db_url: str) -> Iterator[Engine]:
    made = make_engine(db_url)
    migrate(made)
    try:
        yield made
    finally:
        made.dispose()


@pytest.fixture
def db(engine: Engine) -> Engine:
    """The module's database with no ratings yet."""
    with engine.begin() as connection:
        connection.execute(delete(ratings))
    return engine


# -- the finishing order ---------------------------------------------------------------------------------------


def test_seats_rank_by_return_with_ties_sharing_a_rank() -> None:
    assert finishing_ranks([3, 10, 7], [False] * 3, lower_wins=False) == [2, 0, 1]
    assert finishing_ranks([3, 10, 7], [False] * 3, lower_wins=True) == [0, 2, 1]
    assert finishing_ranks([1, 0, 1, 0], [False] * 4, lower_wins=False) == [0, 1, 0, 1]


def test_away_seats_finish_last_and_tied_whatever_they_scored() -> None:
    assert finishing_ranks([50, 3, 10, 40], [True, False, False, True], lower_wins=False) == [2, 1, 0, 2]
    assert finishing_ranks([-9, 3, 10], [True, False, False], lower_wins=True) == [2, 0, 1]
    assert finishing_ranks([1, 2], [True, True], lower_wins=False) == [0, 0]


def test_a_person_is_rated_even_when_a_bot_finished_their_seat_and_a_bot_under_its_level() -> None:
    assert rater_of(person(0, "p1", "Ana", away=True)) == ("player:p1", "Ana")
    assert rater_of(bot(1, "hard")) == ("bot:hard", "hard")
    assert rater_of(SeatRow(2, "open", None, None, None)) is None
    assert rater_of(bot(1, "x" * 61)) is None  # longer than the rater column


# -- rate_finished on a real database --------------------------------------------------------------------------


def test_an_unrated_table_changes_no_rating(db: Engine) -> None:
    finish(db, table(person(0, "a"), person(1, "b"), rated=False), [10, 3])
    assert stored(db) == {}


def test_the_winner_gains_and_the_loser_loses_exactly_as_openskill_says(db: Engine) -> None:
    finish(db, table(person(0, "a", "Ana"), person(1, "b", "Bo")), [3, 10])
    after = stored(db)
    loser, winner = expected([1, 0])
    assert after["player:a"]["mu"] == pytest.approx(loser.mu)
    assert after["player:a"]["sigma"] == pytest.approx(loser.sigma)
    assert after["player:b"]["mu"] == pytest.approx(winner.mu)
    assert after["player:b"]["mu"] > MODEL.mu > after["player:a"]["mu"]
    assert (after["player:a"]["name"], after["player:a"]["games"]) == ("Ana", 1)

    # the next game starts from the stored ratings; a renamed person shows their latest name
    finish(db, table(person(0, "a", "Ana B."), person(1, "b", "Bo")), [8, 2])
    again = stored(db)
    winner2, loser2 = expected([0, 1], [loser, winner])
    assert again["player:a"]["mu"] == pytest.approx(winner2.mu) and again["player:b"]["mu"] == pytest.approx(loser2.mu)
    assert (again["player:a"]["name"], again["player:a"]["games"]) == ("Ana B.", 2)


def test_fewer_points_win_when_the_game_says_so(db: Engine) -> None:
    # MICE-style: the lowest total wins
    finish(db, table(person(0, "a"), person(1, "b"), person(2, "c"), game="mice"), [12, 4, 30], lower_wins=True)
    after = stored(db, "mice")
    second, first, third = expected([1, 0, 2])
    assert after["player:b"]["mu"] == pytest.approx(first.mu)
    assert after["player:a"]["mu"] == pytest.approx(second.mu)
    assert after["player:c"]["mu"] == pytest.approx(third.mu)
    assert after["player:b"]["mu"] > after["player:a"]["mu"] > after["player:c"]["mu"]


def test_a_person_who_left_finishes_last_even_with_the_best_score(db: Engine) -> None:
    finish(db, table(person(0, "gone", away=True), person(1, "b"), bot(2, "easy")), [99, 10, 5])
    after = stored(db)
    gone, second, third = expected([2, 0, 1])
    assert after["player:gone"]["mu"] == pytest.approx(gone.mu)
    assert after["player:gone"]["mu"] < MODEL.mu < after["player:b"]["mu"]
    assert after["player:b"]["mu"] == pytest.approx(second.mu)
    assert after["bot:easy"]["mu"] == pytest.approx(third.mu)
    assert set(after) == {"player:gone", "player:b", "bot:easy"}  # the bot that finished the seat is not rated


def test_partners_and_equal_scores_tie(db: Engine) -> None:
    # Safarü renversé: partners 0 and 2 share their return
    finish(db, table(person(0, "a"), person(1, "b"), person(2, "c"), person(3, "d"), game="safaru"), [1, 0, 1, 0])
    after = stored(db, "safaru")
    assert after["player:a"]["mu"] == pytest.approx(after["player:c"]["mu"])
    assert after["player:b"]["mu"] == pytest.approx(after["player:d"]["mu"])
    assert after["player:a"]["mu"] > MODEL.mu > after["player:b"]["mu"]
    assert after["player:a"]["mu"] == pytest.approx(expected([0, 1, 0, 1])[0].mu)


def test_one_bot_level_in_several_seats_counts_one_game_at_the_mean_of_its_seats(db: Engine) -> None:
    finish(db, table(bot(0, "medium"), person(1, "a"), bot(2, "medium")), [5, 20, 11])
    after = stored(db)
    first_bot, person_a, second_bot = expected([2, 0, 1])
    assert after["bot:medium"]["games"] == 1 and after["bot:medium"]["name"] == "medium"
    assert after["bot:medium"]["mu"] == pytest.approx((first_bot.mu + second_bot.mu) / 2)
    assert after["bot:medium"]["sigma"] == pytest.approx((first_bot.sigma + second_bot.sigma) / 2)
    assert after["player:a"]["mu"] == pytest.approx(person_a.mu)


def test_a_solo_game_or_a_rater_alone_at_the_table_rates_nobody(db: Engine) -> None:
    finish(db, table(person(0, "a"), game="mice"), [7])
    finish(db, table(bot(0, "hard"), bot(1, "hard")), [10, 3])
    assert stored(db, "mice") == {} and stored(db) == {}


def test_tables_finishing_at_once_lose_no_update(db: Engine) -> None:
    # new raters made by several transactions at the same moment: each update counts, none fails
    errors: list[BaseException] = []

    def play(index: int) -> None:
        try:
            finish(db, table(person(0, "a"), person(1, "b"), bot(2, "easy")), [index % 3, 1, 2])
        except BaseException as error:  # reported by the assertion below
            errors.append(error)

    threads = [threading.Thread(target=play, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert {rater: row["games"] for rater, row in stored(db).items()} == {"player:a": 8, "player:b": 8, "bot:easy": 8}


@settings(max_examples=25)
@given(st.lists(st.tuples(st.sampled_from(["a", "b", "c"]), st.sampled_from(["a", "b", "c"]),
                          st.integers(-50, 50), st.integers(-50, 50), st.booleans()), min_size=1, max_size=12))
def test_ratings_stay_finite_and_a_two_player_winner_never_loses_mu(
    engine: Engine, games: list[tuple[str, str, int, int, bool]]
) -> None:
    with engine.begin() as connection:
        connection.execute(delete(ratings).where(ratings.c.game == "cheese"))
    for first, second, return_a, return_b, lower_wins in games:
        if first == second:
            continue
        before = stored(engine, "cheese")
        finish(engine, table(person(0, first), person(1, second), game="cheese"), [return_a, return_b], lower_wins)
        after = stored(engine, "cheese")
        for row in after.values():
            assert math.isfinite(row["mu"]) and math.isfinite(row["sigma"]) and row["sigma"] > 0
        if return_a != return_b:
            winner = first if (return_a > return_b) != lower_wins else second
            prior = before.get(f"player:{winner}", {"mu": MODEL.mu})["mu"]
            assert after[f"player:{winner}"]["mu"] >= prior


# -- the leaderboard, from the running server ------------------------------------------------------------------


def seed(engine: Engine, game: str, entries: list[tuple[str, str, float, float, int]]) -> None:
    with engine.begin() as connection:
        connection.execute(delete(ratings).where(ratings.c.game == game))
        for rater, name, mu, sigma, games in entries:
            connection.execute(insert(ratings).values(game=game, rater=rater, name=name, mu=mu, sigma=sigma,
                                                      games=games, updated_at=0.0))


def test_the_leaderboard_lists_people_and_bot_levels_best_first(server: ServerProcess, engine: Engine) -> None:
    seed(engine, "rummu", [
        ("player:p2", "Bo", 26.0, 7.0, 3),
        ("bot:hard", "hard", 28.0, 4.0, 40),
        ("player:p1", "Ana", 30.0, 3.0, 20),
        ("bot:medium", "medium", 25.0, 6.0, 12),
    ])
    seed(engine, "calcory", [("player:p1", "Ana", 40.0, 1.0, 90)])
    board = httpx.get(f"{server.url}/api/ratings/rummu").json()
    assert board["game"] == "rummu"
    assert [(p["rater"], p["name"], p["kind"], p["rating"]) for p in board["players"]] == [
        ("player:p1", "Ana", "player", 1700), ("bot:hard", "hard", "bot", 1620), ("bot:medium", "medium", "bot", 1500),
        ("player:p2", "Bo", "player", 1540)]
    ana, hard, medium, bo = board["players"]
    assert ana == {"rater": "player:p1", "name": "Ana", "kind": "player", "rating": displayed(30, 3), "mu": 30.0,
                   "sigma": 3.0, "games": 20, "provisional": False, "account": None}
    assert bo["provisional"] and not hard["provisional"] and not medium["provisional"]
    top = httpx.get(f"{server.url}/api/ratings/rummu", params={"limit": 2}).json()["players"]
    assert [p["rater"] for p in top] == ["player:p1", "bot:hard"]
    assert httpx.get(f"{server.url}/api/ratings/mu").json() == {"game": "mu", "players": []}


def test_an_unknown_game_has_no_leaderboard(server: ServerProcess) -> None:
    answer = httpx.get(f"{server.url}/api/ratings/chess")
    assert answer.status_code == 404 and "chess" in answer.json()["detail"]
    assert httpx.get(f"{server.url}/api/ratings/geier", params={"limit": 0}).status_code == 422


def test_a_rated_table_of_bots_rates_its_levels_as_openskill_does(server: ServerProcess, engine: Engine) -> None:
    seed(engine, "geier", [])
    created = httpx.post(f"{server.url}/api/tables", headers=bot_headers(server.url, ["bot:random"]), json={
        "game": "geier", "players": 2, "seats": ["bot:random", "bot:easy"], "rated": True}).json()
    deadline = time.monotonic() + 120  # a deadline for a hung server, not a timed assertion
    while httpx.get(f"{server.url}/api/tables/{created['table_id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots' game did not finish"
        time.sleep(0.1)
    with engine.connect() as connection:
        result = connection.execute(
            select(game_tables.c.result).where(game_tables.c.id == created["table_id"])).scalar_one()
    ranks = finishing_ranks(result["returns"], [False, False], lower_wins=False)
    random_bot, easy_bot = expected(ranks)
    board = {p["rater"]: p for p in httpx.get(f"{server.url}/api/ratings/geier").json()["players"]}
    assert board["bot:random"]["mu"] == pytest.approx(random_bot.mu)
    assert board["bot:easy"]["mu"] == pytest.approx(easy_bot.mu)
    assert board["bot:easy"]["games"] == board["bot:random"]["games"] == 1
