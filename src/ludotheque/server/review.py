"""The coach's review of a finished table for one seat (``docs/coach.md``): asked with a POST, computed in the
coach's workers at low priority (``botpool.CoachLane``), followed with a GET, and kept in the database once done.

A review is a function of the record, the seat, the opponent model and the budget, so it is computed once per
(table, seat): a second request gets the stored one, or the one under way.  Every review costs seconds of CPU, so
at most one is queued per (table, seat), at most ``Settings.reviews_per_requester`` per requester (the
``X-Player-Token``'s player, else the client address: one client cannot hold the queue) and at most
``Settings.reviews_queued`` at once (429 beyond); the coach runs one at a time, on the CPU the bots leave.  Reviews
queued or running live in the memory of the process that took the request (its ``Services.reviews``): a restart
forgets them (the page asks again), never a review done.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, Field
from sqlalchemy import Engine, insert, select
from sqlalchemy.exc import IntegrityError

from ludotheque.core import CHANCE, Actor
from ludotheque.games import load_game
from ludotheque.server.api import MAX_PLAYERS, Strict, problems
from ludotheque.server.auth import OptionalPlayerTokenDep, SeatTokenDep
from ludotheque.server.botpool import BotPool, ReviewRequest, seat_bots
from ludotheque.server.config import Settings
from ludotheque.server.errors import Refusal
from ludotheque.server.limits import client_address
from ludotheque.server.schema import CHANCE_ACTOR, reviews
from ludotheque.server.store import Store, TableRow, write
from ludotheque.server.store.players import player_by_token
from ludotheque.table import Table

log = logging.getLogger("ludotheque.server")
router = APIRouter()


#: Reviews that failed, remembered (so that a GET says so) until this many newer ones failed.
FAILED_KEPT = 1000

# -- the answers ------------------------------------------------------------------------------------------------


class AskReview(Strict):
    seat: int = Field(ge=0, lt=MAX_PLAYERS)


class Progress(BaseModel):
    """Decisions valued so far, out of those to value (forced moves cost nothing and are not counted)."""

    done: int
    total: int


class ReviewState(BaseModel):
    """Where the review of ``seat`` stands; ``review`` once it is ``done`` (the JSON of ``ludotheque review
    --json``), ``error`` once it ``failed``."""

    table_id: str
    seat: int
    status: Literal["queued", "running", "done", "failed"]
    progress: Progress
    review: dict[str, Any] | None = None
    error: str | None = None


# -- the reviews under way ------------------------------------------------------------------------------------


@dataclass
class Job:
    table_id: str
    seat: int
    requester: str = ""
    status: str = "queued"
    done: int = 0
    total: int = 0
    error: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def answer(self) -> dict[str, Any]:
        return {"table_id": self.table_id, "seat": self.seat, "status": self.status,
                "progress": {"done": self.done, "total": self.total}, "review": None, "error": self.error}


def done_answer(table_id: str, seat: int, review: dict[str, Any]) -> dict[str, Any]:
    valued = sum(1 for decision in review["decisions"] if decision["expected_played"] is not None)
    return {"table_id": table_id, "seat": seat, "status": "done", "progress": {"done": valued, "total": valued},
            "review": review, "error": None}


def stored_review(engine: Engine, table_id: str, seat: int) -> dict[str, Any] | None:
    with engine.connect() as db:
        found = db.execute(select(reviews.c.review).where(reviews.c.table_id == table_id, reviews.c.seat == seat)
                           ).scalar_one_or_none()
    return dict(found) if found is not None else None


def store_review(engine: Engine, table_id: str, seat: int, review: dict[str, Any]) -> None:
    """Keep a review done; one computed twice (two processes of a site asked at once) keeps the first."""
    with contextlib.suppress(IntegrityError):
        write(engine, lambda db: db.execute(
            insert(reviews).values(table_id=table_id, seat=seat, review=review, created_at=time.time())))


def record_of(store: Store, row: TableRow) -> dict[str, Any]:
    """The finished table's record, from its log (the rows were validated when first committed)."""
    game = load_game(row.game, players=row.players, **row.options)
    entries: list[tuple[Actor, int, str]] = [
        (CHANCE if action.actor == CHANCE_ACTOR else action.actor, action.action, action.notation)
        for action in store.actions(row.id)
    ]
    return Table.restore_logged(game, entries).record({"table": row.id})


class Reviews:
    """An application's reviews queued, running or failed, by (table, seat)."""

    def __init__(self, store: Store, bots: BotPool, settings: Settings) -> None:
        self.store = store
        self.bots = bots
        self.settings = settings
        #: reviews one requester may have under way (``Settings.reviews_per_requester``)
        self.per_requester = settings.reviews_per_requester
        self.jobs: OrderedDict[tuple[str, int], Job] = OrderedDict()

    def waiting(self, requester: str | None = None) -> int:
        """Reviews queued or running (``requester``'s only, when given)."""
        return sum(1 for job in self.jobs.values() if job.status in ("queued", "running")
                   and (requester is None or job.requester == requester))

    def current(self, table_id: str, seat: int) -> Job | None:
        return self.jobs.get((table_id, seat))

    def ask(self, row: TableRow, seat: int, requester: str = "") -> Job:
        """Queue the review of ``seat`` (the caller found none stored): the one under way if there is one; 429
        when ``requester`` has ``per_requester`` under way, or ``Settings.reviews_queued`` are.  Checked and queued
        without a pause, so two requests at once queue one review."""
        job = self.jobs.get((row.id, seat))
        if job is not None and job.status in ("queued", "running"):
            return job
        if self.waiting(requester) >= self.per_requester:
            raise Refusal(429, f"{self.per_requester} of your reviews are under way already: ask for this one once "
                          "they are done", headers={"Retry-After": "60"})
        limit = self.settings.reviews_queued
        if self.waiting() >= limit:
            raise Refusal(429, f"the coach has {limit} reviews to make already: ask again in a few minutes",
                          headers={"Retry-After": "60"})
        job = Job(row.id, seat, requester)
        self.jobs[(row.id, seat)] = job
        self.jobs.move_to_end((row.id, seat))
        job.task = asyncio.get_running_loop().create_task(self._run(job, row), name=f"review {row.id}:{seat}")
        return job

    async def _run(self, job: Job, row: TableRow) -> None:
        engine = self.store.engine
        try:
            review = await asyncio.to_thread(stored_review, engine, job.table_id, job.seat)
            if review is None:
                record = await asyncio.to_thread(record_of, self.store, row)
                # seeded by the table's id, as its hints were: a followed hint is the review's preferred move
                request = ReviewRequest(f"{job.table_id}:{job.seat}", record, job.seat, self.settings.review_seconds,
                                        self.settings.review_playouts, self.settings.coach_model,
                                        seed=job.table_id, bots=seat_bots(row.seats))

                def progress(done: int, total: int) -> None:
                    job.done, job.total = done, total

                def started() -> None:
                    job.status = "running"

                review = await self.bots.review(request, progress, started)
                await asyncio.to_thread(store_review, engine, job.table_id, job.seat, review)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # a failed review is said, and may be asked again
            log.exception("the review of table %s, seat %d failed", job.table_id, job.seat)
            job.status, job.error = "failed", f"the review could not be made ({type(error).__name__})"
            failed = [key for key, other in self.jobs.items() if other.status == "failed"]
            for key in failed[: max(0, len(failed) - FAILED_KEPT)]:
                del self.jobs[key]
            return
        del self.jobs[(job.table_id, job.seat)]  # done: read from the database from now on


def reviews_of(request: Request) -> Reviews:
    """The process's ``Reviews`` (one of its ``Services``)."""
    found: Reviews = request.app.state.lobby.services.reviews
    return found


# -- who may ask ------------------------------------------------------------------------------------------------


def may_review(engine: Engine, row: TableRow, seat: int, token: str | None, player_token: str | None) -> bool:
    """Anyone may ask for a public table's reviews; a private table's review of a seat needs that seat's token
    (or the ``X-Player-Token`` of the player who sat there)."""
    if not row.private or (token is not None and row.seat_of(token) == seat):
        return True
    player = player_by_token(engine, player_token) if player_token else None
    return player is not None and row.seats[seat].player_id == player.id


async def _finished_row(request: Request, table_id: str, seat: int, token: str | None,
                        player_token: str | None) -> TableRow:
    store: Store = request.app.state.lobby.store
    row = await asyncio.to_thread(store.table, table_id)
    if row is None:
        raise Refusal(404, f"no table {table_id!r}")
    if not 0 <= seat < row.players:
        raise Refusal(400, f"seat is 0 to {row.players - 1} at this table, not {seat}")
    if not await asyncio.to_thread(may_review, store.engine, row, seat, token, player_token):
        raise Refusal(403, f"a private table's review of seat {seat} needs that seat's token "
                           "(Authorization: Bearer) or the X-Player-Token of the player who sat there")
    if row.status != "finished":
        raise Refusal(409, f"the table is {row.status}: a game is reviewed once it is over")
    return row


# -- the routes ---------------------------------------------------------------------------------------------------

_ANSWERS: dict[int | str, dict[str, Any]] = {
    200: {"model": ReviewState, "description": "the review, done already"},
    **problems(400, 401, 403, 404, 409, 429, 503,
               meaning={404: "no such table", 429: "the coach has too many reviews to make (Retry-After)"}),
}


@router.post("/api/tables/{table_id}/review", response_model=ReviewState, status_code=202, responses=_ANSWERS)
async def ask_review(table_id: str, body: AskReview, request: Request, response: Response,
                     token: SeatTokenDep = None, x_player_token: OptionalPlayerTokenDep = None) -> dict[str, Any]:
    """Ask the coach to review a finished table's ``seat``: 202 with where it stands (``queued``, then
    ``running``), or 200 with the review once it is done.  A private table's review needs the seat's token
    (``Authorization: Bearer``)."""
    row = await _finished_row(request, table_id, body.seat, token, x_player_token)
    store: Store = request.app.state.lobby.store
    stored = await asyncio.to_thread(stored_review, store.engine, table_id, body.seat)
    if stored is not None:
        response.status_code = 200
        return done_answer(table_id, body.seat, stored)
    player = await asyncio.to_thread(player_by_token, store.engine, x_player_token) if x_player_token else None
    requester = f"player:{player.id}" if player is not None else f"address:{client_address(request.client)}"
    return reviews_of(request).ask(row, body.seat, requester).answer()


@router.get("/api/tables/{table_id}/review", response_model=ReviewState,
            responses={**problems(400, 401, 403, 404, 409, 503, meaning={
                404: "no such table, or no review of this seat was asked"})})
async def review_state(table_id: str, request: Request, seat: Annotated[int, Query(ge=0, lt=MAX_PLAYERS)],
                       token: SeatTokenDep = None, x_player_token: OptionalPlayerTokenDep = None) -> dict[str, Any]:
    """Where the review of ``seat`` stands (``queued``, ``running`` with its progress, ``failed``), or, once it is
    ``done``, the review: ``{"seat", "model", "models", "unit", "decisions": [{"seq", "played", "best",
    "expected_played", "expected_best", "stderr", "loss", "judgement", "played_move", "best_move", "moment"}],
    "summary"}`` (``docs/coach.md``)."""
    await _finished_row(request, table_id, seat, token, x_player_token)
    job = reviews_of(request).current(table_id, seat)
    if job is not None:
        return job.answer()
    store: Store = request.app.state.lobby.store
    stored = await asyncio.to_thread(stored_review, store.engine, table_id, seat)
    if stored is None:
        raise Refusal(404, f"no review of seat {seat} was asked at this table: POST to ask for one")
    return done_answer(table_id, seat, stored)


__all__ = ["AskReview", "ReviewState", "Reviews", "router"]
