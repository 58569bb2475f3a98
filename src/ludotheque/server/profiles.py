"""What a player's games say about them: their rating per game with its history, and their recent results.

A public page (``/players/{name}``, ``GET /api/players/{name}``) exists for accounts only, by user name: a guest has
no name of their own to be found by.  ``/me`` reads the same for its player (``GET /api/me/ratings``), guests
included.  A game's result comes from its table's row: the place each seat finished (``result.places``, written
with the result; computed again for tables finished before it was), its points and how its person left.
"""

from __future__ import annotations

import asyncio
import json
from functools import lru_cache
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel
from sqlalchemy import Engine, func, select

from ludotheque.core import LudothequeError
from ludotheque.games import load_game
from ludotheque.server.api import problems
from ludotheque.server.errors import Refusal
from ludotheque.server.pages import shell
from ludotheque.server.players import PlayerDep
from ludotheque.server.ratings import displayed, finishing_ranks, provisional
from ludotheque.server.schema import game_tables, players, rating_history, ratings, seats

router = APIRouter()

#: the recent games a page lists, and the points of a rating's chart per game
RECENT = 20
CHART_POINTS = 200


class GameRating(BaseModel):
    #: the shown rating (``ratings.displayed``: 1500-based, never negative)
    rating: int
    provisional: bool
    games: int


class RecentGame(BaseModel):
    table_id: str
    game: str
    finished_at: float | None
    #: 1 first; ties share a place; a person who resigned or left is last
    place: int | None
    points: int | float | None
    departure: Literal["resigned", "left", "timeout"] | None
    rated: bool


class RatingPoint(BaseModel):
    at: float
    table_id: str
    rating: int


class PlayerPage(BaseModel):
    name: str
    #: when the player first came (their guest's creation, for an account made from a guest)
    since: float
    ratings: dict[str, GameRating]
    recent: list[RecentGame]
    #: each game's rating after each rated game, oldest first (the chart)
    history: dict[str, list[RatingPoint]]


@lru_cache(maxsize=256)
def _lower_wins(game: str, players_count: int, options: str) -> bool:
    try:
        return load_game(game, players=players_count, **json.loads(options)).score_order() == "lower"
    except LudothequeError:
        return False


def places_of(row: Any, away: list[bool]) -> list[int] | None:
    """Each seat's place (1 first) at a finished table: written with its result, or computed for older rows."""
    result = row["result"] or {}
    if "places" in result:
        return list(result["places"])
    if "returns" not in result:
        return None
    lower = _lower_wins(row["game"], row["players"], json.dumps(row["options"], sort_keys=True))
    return [rank + 1 for rank in finishing_ranks(result["returns"], away, lower)]


def recent_games(engine: Engine, player_id: str, limit: int) -> list[dict[str, Any]]:
    """The player's finished games, newest first, with the place, points and departure of their seat."""
    ended = func.coalesce(game_tables.c.finished_at, game_tables.c.created_at)
    query = (select(game_tables, func.min(seats.c.seat).label("my_seat"))
             .join(seats, seats.c.table_id == game_tables.c.id)
             .where(seats.c.player_id == player_id, game_tables.c.status == "finished")
             .group_by(game_tables.c.id).order_by(ended.desc(), game_tables.c.id).limit(limit))
    with engine.connect() as db:
        rows = db.execute(query).mappings().all()
        ids = [row["id"] for row in rows]
        seat_rows = db.execute(select(seats.c.table_id, seats.c.seat, seats.c.away, seats.c.departure)
                               .where(seats.c.table_id.in_(ids)).order_by(seats.c.seat)).mappings().all() if ids else []
    by_table: dict[str, list[Any]] = {}
    for seat_row in seat_rows:
        by_table.setdefault(seat_row["table_id"], []).append(seat_row)
    out = []
    for row in rows:
        table_seats = by_table.get(row["id"], [])
        mine = row["my_seat"]
        places = places_of(row, [bool(s["away"]) for s in table_seats])
        returns = (row["result"] or {}).get("returns")
        out.append({
            "table_id": row["id"], "game": row["game"], "finished_at": row["finished_at"],
            "place": places[mine] if places and mine < len(places) else None,
            "points": returns[mine] if returns and mine < len(returns) else None,
            "departure": next((s["departure"] for s in table_seats if s["seat"] == mine), None),
            "rated": bool(row["rated"]),
        })
    return out


def player_ratings(engine: Engine, player_id: str) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]:
    """The player's rating per game, and each game's rating after each of its rated games (oldest first)."""
    rater = f"player:{player_id}"
    with engine.connect() as db:
        rows = db.execute(select(ratings).where(ratings.c.rater == rater, ratings.c.games > 0)
                          .order_by(ratings.c.game)).mappings().all()
        points = db.execute(select(rating_history.c.game, rating_history.c.at, rating_history.c.table_id,
                                   rating_history.c.after)
                            .where(rating_history.c.rater == rater)
                            .order_by(rating_history.c.game, rating_history.c.at.desc())).mappings().all()
    by_game = {row["game"]: {"rating": displayed(row["mu"], row["sigma"]), "games": row["games"],
                             "provisional": provisional(row["games"], row["sigma"])} for row in rows}
    history: dict[str, list[dict[str, Any]]] = {}
    for point in points:
        kept = history.setdefault(point["game"], [])
        if len(kept) < CHART_POINTS:  # the latest ones
            kept.append({"at": point["at"], "table_id": point["table_id"], "rating": point["after"]})
    return by_game, {game: kept[::-1] for game, kept in history.items()}


def player_page(engine: Engine, name: str) -> dict[str, Any]:
    with engine.connect() as db:
        row = db.execute(select(players.c.id, players.c.username, players.c.created_at)
                         .where(players.c.username == name.lower())).mappings().first()
    if row is None:
        raise Refusal(404, f"no player {name!r}: a player page is an account's (a guest has none)")
    by_game, history = player_ratings(engine, row["id"])
    recent = recent_games(engine, row["id"], RECENT)
    return {"name": row["username"], "since": row["created_at"], "ratings": by_game, "recent": recent,
            "history": history}


@router.get("/api/players/{name}", response_model=PlayerPage, responses=problems(404, 503))
async def get_player(name: Annotated[str, Path(max_length=40, description="an account's user name")],
                     request: Request) -> dict[str, Any]:
    """An account's public page: its rating per game (with each game's history), its recent finished games with
    their results, and when it came.  404 for an unknown name, and for guests, who have no page."""
    return await asyncio.to_thread(player_page, request.app.state.lobby.store.engine, name)


class MyRatings(BaseModel):
    ratings: dict[str, GameRating]
    history: dict[str, list[RatingPoint]]


@router.get("/api/me/ratings", response_model=MyRatings, responses=problems(401, 503))
async def my_ratings(player: PlayerDep, request: Request) -> dict[str, Any]:
    """The rating per game of the player of ``X-Player-Token`` (guests too), with each game's history."""
    by_game, history = await asyncio.to_thread(player_ratings, request.app.state.lobby.store.engine, player.id)
    return {"ratings": by_game, "history": history}


@router.get("/players/{name}", include_in_schema=False)
def player_html(name: str) -> HTMLResponse:
    # an unknown name gets the page too: it says so in the reader's language, from the API's 404
    return shell("player")
