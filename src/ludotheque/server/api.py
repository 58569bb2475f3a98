"""The REST API's request and response bodies (they make the published OpenAPI schema)."""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from ludotheque.games import game_class, game_ids


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class OptionInfo(BaseModel):
    name: str
    type: str
    default: str | int | bool
    doc: str
    choices: list[str | int | bool] | None = None
    minimum: int | None = None
    maximum: int | None = None


class GameInfo(BaseModel):
    id: str
    name: str
    min_players: int
    max_players: int
    options: list[OptionInfo]
    #: the clock profiles' times are multiplied by it (``docs/server.md``)
    clock_pace: float = 1.0
    #: each profile's seconds per move and reserve at this game's pace
    clock_profiles: dict[str, dict[str, float]] = Field(default_factory=dict)


#: ``GameId`` and the player counts in the schema are read from the game registry.
GameId = Enum("GameId", {game_id: game_id for game_id in game_ids()}, type=str)  # type: ignore[misc]
MAX_PLAYERS = max(game_class(game_id).max_players for game_id in game_ids())
SeatSpec = Annotated[str, Field(pattern=r"^(me|open|bot:[A-Za-z0-9_.:=-]{1,60})$")]


class ClockSpec(Strict):
    """A clock of one's own: seconds per move, and a reserve spent once a move takes longer."""

    move: float = Field(ge=1, le=86_400)
    reserve: float = Field(default=0, ge=0, le=86_400)


class CorrespondenceClock(Strict):
    """A game by correspondence: N days a move (1 to 14; 400 otherwise).  A bot plays a move only once its days
    are spent, never for a person who is merely away, and the person is told when it is their turn (Web Push)."""

    days: StrictInt = Field(description="days a move, 1 to 14")


#: the days a correspondence clock may give a move
CORRESPONDENCE_DAYS = (1, 14)

ClockProfile = Literal["relaxed", "normal", "fast"]


class CreateTable(Strict):
    game: GameId
    players: int = Field(ge=1, le=MAX_PLAYERS)
    options: dict[str, str | int | bool] = Field(default_factory=dict)
    #: one per seat: ``"me"`` (the creator, at most once), ``"open"`` (for a person), ``"bot:SPEC"``
    seats: list[SeatSpec] | None = Field(default=None, max_length=MAX_PLAYERS)
    name: str | None = Field(default=None, max_length=80)
    player_name: str | None = Field(default=None, max_length=80)
    private: bool = False
    #: the bot that takes the seats still open when the game starts, and plays for people who are gone
    default_bot: str = Field(default="medium", min_length=1, max_length=64)
    #: none (the default), a profile (times suited to the game's pace), times of one's own, or days a move (a game
    #: by correspondence)
    clock: ClockProfile | ClockSpec | CorrespondenceClock | None = None
    #: whether the result counts for the players' ratings
    rated: bool = False
    #: whether a person whose seat a bot took may take it back
    reclaim: bool = True
    #: whether a seat may ask the coach for a move during the game (``{"type": "hint"}``); never with ``rated``
    hints: bool = False


class CreatedTable(BaseModel):
    table_id: str
    seat: int | None
    token: str | None
    invite_url: str
    #: a new guest's token, when the request named no player (``X-Player-Token``) and took a seat
    player_token: str | None = None


class JoinTable(Strict):
    name: str = Field(min_length=1, max_length=80)
    invite: str | None = Field(default=None, max_length=64)


class JoinedTable(BaseModel):
    seat: int
    token: str
    player_token: str | None = None


class Rematch(BaseModel):
    """The rematch's table, and the seat kept there for the person who asked (seats turn by one)."""

    table_id: str
    seat: int
    token: str


class RematchOffer(BaseModel):
    """A finished table's rematch as its frames show it: the new table, and the old seats whose people accepted
    it and declined it."""

    table_id: str
    accepted: list[int]
    declined: list[int]


class SeatInfo(BaseModel):
    seat: int
    kind: str
    name: str | None
    away: bool = False
    #: how the seat's person left it to a bot: ``resigned``, ``left`` or ``timeout`` (``null`` while they hold it)
    departure: Literal["resigned", "left", "timeout"] | None = None
    #: the user name of the account seated here, whose page is ``/players/{account}`` (``null``: a guest, a bot)
    account: str | None = None


class TableSummary(BaseModel):
    id: str
    game: str
    name: str
    players: int
    options: dict[str, Any]
    status: str
    private: bool
    creator_seat: int | None
    seats: list[SeatInfo]
    clock: dict[str, Any] | None = None
    rated: bool = False
    reclaim: bool = True
    rematch_of: str | None = None
    rematch: str | None = None
    hints: bool = False
    finished_at: float | None = None
    #: a finished rated table: the change of each seated person's shown rating, by seat (``{"0": 12, "1": -12}``)
    rating_changes: dict[str, int] | None = None
    #: the seats a person is to play now, while the game is in play (``null`` when this process does not hold the
    #: table in play: finished, waiting, or held by another process of a site)
    to_act: list[int] | None = None


class Problem(BaseModel):
    """Why a request was refused, in words."""

    detail: str


def problems(*statuses: int, meaning: dict[int, str] | None = None) -> dict[int | str, dict[str, Any]]:
    """The refusals an operation documents, each with the reason's schema; ``meaning`` says what a status means
    where it differs from the tables' (the players' endpoints)."""
    meanings = {400: "a value the game or the table does not allow", 401: "Authorization is not 'Bearer TOKEN'",
                403: "this token (or invite) does not allow it", 404: "no such table",
                409: "the table's state does not allow it now",
                429: "a limit of the server is reached (Retry-After says in how many seconds to try again, when known)",
                503: "the database is unavailable",
                **(meaning or {})}
    return {status: {"model": Problem, "description": meanings[status]} for status in statuses}
