"""Tournaments between bots: seat rotation, duplicate deals, confidence intervals and OpenSkill ratings."""

from ludotheque.arena.chance import KeyedChance
from ludotheque.arena.stats import Interval, Ratings, clustered_mean, clustered_rate, mean_interval, wilson
from ludotheque.arena.tournament import (
    ArenaResult,
    ArenaSpec,
    BotSummary,
    GameResult,
    play_one,
    run_arena,
    seatings,
    summarize,
)

__all__ = [
    "ArenaResult",
    "ArenaSpec",
    "BotSummary",
    "GameResult",
    "Interval",
    "KeyedChance",
    "Ratings",
    "clustered_mean",
    "clustered_rate",
    "mean_interval",
    "play_one",
    "run_arena",
    "seatings",
    "summarize",
    "wilson",
]
