"""The REST API's request and response bodies (they make the published OpenAPI schema)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


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


class CreateTable(Strict):
    game: str = Field(max_length=32)
    players: int = Field(ge=1, le=16)
    options: dict[str, str | int | bool] = Field(default_factory=dict)
    #: one per seat: ``"me"`` (the creator, at most once), ``"open"`` (for a person), ``"bot:SPEC"``
    seats: list[str] | None = Field(default=None, max_length=16)
    name: str | None = Field(default=None, max_length=80)
    player_name: str | None = Field(default=None, max_length=80)
    private: bool = False
    #: the bot that takes the seats still open when the game starts
    default_bot: str = Field(default="medium", max_length=64)


class CreatedTable(BaseModel):
    table_id: str
    seat: int | None
    token: str | None
    invite_url: str


class JoinTable(Strict):
    name: str = Field(min_length=1, max_length=80)
    invite: str | None = Field(default=None, max_length=64)


class JoinedTable(BaseModel):
    seat: int
    token: str


class SeatInfo(BaseModel):
    seat: int
    kind: str
    name: str | None


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
