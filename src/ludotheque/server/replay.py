"""A player's finished games, and replaying a finished table move by move as one seat saw it."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
