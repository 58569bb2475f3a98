"""OpenSkill ratings per game, from rated tables; bots are rated under their level's name.

How a finished table counts (``rate_finished``, called once in the transaction that marks a rated table finished):

- **Finishing order.**  Seats whose person is ``away`` at the end (a bot took the seat for good: they left, or
  their time ran out again and again, and they did not take it back) finish last, tied among themselves, whatever
  the bot scored for them: as an abandon on Board Game Arena, leaving always costs.  The other seats rank by
  their return (higher is better, lower when the game says so); equal returns tie, so partners tie.
- **Who is rated.**  A seat held by a person is ``player:<id>``; a bot's seat is ``bot:<spec>`` (``bot:hard``), so
  a level has one rating per game in the same units as people's.  The bot that finished an away person's seat is
  not rated: the seat's result is the person's.  A seat with no player and no bot is left out (the others keep
  their order).
- **One rater in several seats** (two ``medium`` bots at one table): each seat takes part in the update as its own
  entrant with the rater's rating; the rater's new mu and sigma are the means of its seats' posteriors, and its
  game count grows by one.  A table with fewer than two distinct raters (solo games, a bot against itself) rates
  nobody: it says nothing about anyone's strength.

The number shown (``displayed``) is on the 1500-based scale people know from chess sites: ``1500 + 40 * (mu - 25)``,
rounded and never below 0.  A newcomer starts at 1500 (OpenSkill's mu 25), the average of the players stays near
there, and one point of mu is 40 points: a gap of beta (25/6 mu, about 170 points) makes the stronger one win about
three games in four, as 200 Elo points do.  Sigma says how sure the number is: as on lichess, a rating whose sigma
is still high is shown, marked provisional, and the leaderboard lists the settled ones first.

An entry is provisional while it has fewer than ``PROVISIONAL_GAMES`` games or its sigma is still above
``PROVISIONAL_SIGMA`` (after about ten games a sigma is near 6.3 in two-player games, higher with more seats).
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import HTMLResponse
from openskill.models import PlackettLuce, PlackettLuceRating
from pydantic import BaseModel
from sqlalchemy import Connection, Engine, case, insert, or_, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from ludotheque.games import game_ids
from ludotheque.server.api import Problem, problems
from ludotheque.server.errors import Refusal
from ludotheque.server.pages import shell
from ludotheque.server.schema import players as players_table
from ludotheque.server.schema import rating_history, ratings
from ludotheque.server.store import SeatRow, TableRow

router = APIRouter()

#: OpenSkill's defaults: mu 25, sigma 25/3, beta 25/6, tau 25/300
MODEL = PlackettLuce()
SCALE = 40
#: the shown rating of OpenSkill's mu 25 (a newcomer, and about the average player)
ORIGIN = 1500
PROVISIONAL_GAMES = 10
PROVISIONAL_SIGMA = 6.5
#: the ``rater`` column's width
RATER_MAX = 64


def displayed(mu: float, sigma: float) -> int:
    """The rating shown for ``mu`` (``sigma`` says whether it is provisional, ``provisional``): never negative."""
    return max(0, round(ORIGIN + SCALE * (mu - MODEL.mu)))


def provisional(games: int, sigma: float) -> bool:
    return games < PROVISIONAL_GAMES or sigma > PROVISIONAL_SIGMA


def finishing_ranks(returns: Sequence[float], away: Sequence[bool], lower_wins: bool) -> list[int]:
    """Each seat's rank, 0 first: away seats tied last, the others by return, equal returns tied."""
    sign = -1.0 if lower_wins else 1.0
    present = sorted({sign * value for value, gone in zip(returns, away, strict=True) if not gone}, reverse=True)
    return [len(present) if gone else present.index(sign * value) for value, gone in zip(returns, away, strict=True)]


def rater_of(seat: SeatRow) -> tuple[str, str] | None:
    """The seat's rater and the name it shows, or ``None`` for a seat nobody is rated for."""
    if seat.player_id is not None:  # a person, even when a bot finished the seat for them (away)
        rater, name = f"player:{seat.player_id}", seat.name or "?"
    elif seat.kind == "bot" and seat.bot:
        rater, name = f"bot:{seat.bot}", seat.bot
    else:
        return None
    return (rater, name[:80]) if len(rater) <= RATER_MAX else None


def rate_finished(db: Connection, row: TableRow, returns: Sequence[float], lower_wins: bool) -> dict[str, Any]:
    """Update the ratings of a finished table's raters, inside the caller's transaction (once per table), and keep
    each rater's rating before and after in ``rating_history``.  What the table's result keeps of it, for its
    summary and its end box (``{}`` when nobody was rated): ``rating_changes``, the change of the shown rating of each
    seat a person held, by seat (``{"0": 12}``), and ``rating_provisional``, whether that rating is provisional."""
    if not row.rated or len(row.seats) < 2:
        return {}
    ranks = finishing_ranks(returns, [seat.away for seat in row.seats], lower_wins)
    entrants = [(found, rank) for seat, rank in zip(row.seats, ranks, strict=True) if (found := rater_of(seat))]
    names: dict[str, str] = {}
    for (rater, name), _ in entrants:
        names.setdefault(rater, name)
    if len(names) < 2:
        return {}
    now = time.time()
    before = _lock(db, row.game, names, now)
    # one rating object per seat: OpenSkill copies the teams with deepcopy, which would merge a rater's seats
    teams = [[MODEL.rating(mu=before[rater][0], sigma=before[rater][1], name=rater)] for (rater, _), _ in entrants]
    after = MODEL.rate(teams, ranks=[float(rank) for _, rank in entrants])
    seats_of: dict[str, list[PlackettLuceRating]] = {}
    for ((rater, _), _), (posterior,) in zip(entrants, after, strict=True):
        seats_of.setdefault(rater, []).append(posterior)
    changes: dict[str, int] = {}
    unsure: dict[str, bool] = {}
    for rater in sorted(seats_of):
        posteriors = seats_of[rater]
        mu = math.fsum(p.mu for p in posteriors) / len(posteriors)
        sigma = math.fsum(p.sigma for p in posteriors) / len(posteriors)
        db.execute(
            update(ratings)
            .where(ratings.c.game == row.game, ratings.c.rater == rater)
            .values(name=names[rater], mu=mu, sigma=sigma, games=ratings.c.games + 1, updated_at=now)
        )
        first = min(seat.seat for seat in row.seats if (found := rater_of(seat)) and found[0] == rater)
        shown_before, shown_after = displayed(*before[rater][:2]), displayed(mu, sigma)
        db.execute(insert(rating_history).values(
            game=row.game, rater=rater, table_id=row.id, seat=first, before=shown_before, after=shown_after,
            mu=mu, sigma=sigma, games=before[rater][2] + 1, at=now))
        for seat in row.seats:
            if seat.player_id is not None and f"player:{seat.player_id}" == rater:
                changes[str(seat.seat)] = shown_after - shown_before
                unsure[str(seat.seat)] = provisional(before[rater][2] + 1, sigma)
    return {"rating_changes": changes, "rating_provisional": unsure} if changes else {}


def _lock(db: Connection, game: str, names: dict[str, str], now: float) -> dict[str, tuple[float, float, int]]:
    """The raters' current mu and sigma, their rows made (at OpenSkill's defaults) if new and locked until the
    transaction ends, so that two tables finishing at once do not lose an update.  Rows are taken in rater order,
    so that two such transactions cannot wait for each other."""
    upsert = sqlite_insert if db.dialect.name == "sqlite" else postgresql_insert
    fresh = [{"game": game, "rater": rater, "name": names[rater], "mu": MODEL.mu, "sigma": MODEL.sigma, "games": 0,
              "updated_at": now} for rater in sorted(names)]
    db.execute(upsert(ratings).values(fresh).on_conflict_do_nothing())
    rows = db.execute(
        select(ratings.c.rater, ratings.c.mu, ratings.c.sigma, ratings.c.games)
        .where(ratings.c.game == game, ratings.c.rater.in_(sorted(names)))
        .order_by(ratings.c.rater)
        .with_for_update()  # SQLite has no row locks: its transactions begin IMMEDIATE and so run one at a time
    ).all()
    return {rater: (mu, sigma, games) for rater, mu, sigma, games in rows}


# -- the leaderboard -------------------------------------------------------------------------------------------


class RatingEntry(BaseModel):
    rater: str
    name: str
    kind: Literal["player", "bot"]
    #: ``1500 + 40 * (mu - 25)``, rounded, never below 0: what the leaderboard shows (``displayed``)
    rating: int
    mu: float
    sigma: float
    games: int
    provisional: bool
    #: the user name of a person with an account, whose page is ``/players/{account}`` (``null``: guests, bots)
    account: str | None = None


class Leaderboard(BaseModel):
    game: str
    players: list[RatingEntry]


def leaderboard(engine: Engine, game: str, limit: int) -> dict[str, Any]:
    # settled ratings first (as lichess leaves provisional ones out of its boards), each part by rating
    unsettled = case((or_(ratings.c.games < PROVISIONAL_GAMES, ratings.c.sigma > PROVISIONAL_SIGMA), 1), else_=0)
    query = (select(ratings).where(ratings.c.game == game, ratings.c.games > 0)
             .order_by(unsettled, ratings.c.mu.desc(), ratings.c.games.desc(), ratings.c.rater).limit(limit))
    with engine.connect() as db:
        rows = db.execute(query).mappings().all()
        ids = [row["rater"].removeprefix("player:") for row in rows if row["rater"].startswith("player:")]
        accounts = dict(db.execute(select(players_table.c.id, players_table.c.username)
                                   .where(players_table.c.id.in_(ids), players_table.c.username.is_not(None))
                                   ).tuples().all()) if ids else {}
    players = [{"rater": row["rater"], "name": row["name"], "kind": "bot" if row["rater"].startswith("bot:") else
                "player", "rating": displayed(row["mu"], row["sigma"]), "mu": row["mu"], "sigma": row["sigma"],
                "games": row["games"], "provisional": provisional(row["games"], row["sigma"]),
                "account": accounts.get(row["rater"].removeprefix("player:"))} for row in rows]
    return {"game": game, "players": players}


_REFUSALS = {**problems(503), 404: {"model": Problem, "description": "no such game"}}


@router.get("/api/ratings/{game}", response_model=Leaderboard, responses=_REFUSALS)
async def game_ratings(
    game: Annotated[str, Path(description="a game's id (GET /api/games)", examples=list(game_ids()))],
    request: Request,
    limit: Annotated[int, Query(ge=1, le=1000, description="at most this many entries, best first")] = 100,
) -> dict[str, Any]:
    """A game's leaderboard, best first: people and bot levels, from rated tables."""
    if game not in game_ids():
        raise Refusal(404, f"no game {game!r}: the games are {', '.join(game_ids())}")
    return await asyncio.to_thread(leaderboard, request.app.state.lobby.store.engine, game, limit)


@router.get("/ratings", include_in_schema=False)
def ratings_index_page() -> HTMLResponse:
    return shell("ratings")


@router.get("/ratings/{game}", include_in_schema=False)
def ratings_page(game: str) -> HTMLResponse:
    # an unknown game gets the page too: it says so in the reader's language, from the API's 404
    return shell("ratings")
