"""MICE to meet you (``mice``), with its solo game."""

from ludotheque.core.gametype import CoachThresholds, GameType

GAME: GameType = GameType(
    id="mice",
    name="MICE to meet you",
    package=__name__,
    game_class="MiceGame",
    min_players=1,
    max_players=5,
    simultaneous=False,
    chance=True,
    hidden_information=False,  # every card is drawn when it is turned face up: nothing dealt is unseen
    score_order="by_options",  # several players: lowest total wins (mice-7); solo: higher rating (mice-8)
    coach_thresholds=CoachThresholds(0.4, 1.0, 2.0),
    optional_parts=frozenset({"levels", "native"}),
)

# After GAME: the game module reads it (``game_type = GAME``) while this package is still importing.
from ludotheque.games.mice.game import MiceGame, MiceState  # noqa: E402

__all__ = ["GAME", "MiceGame", "MiceState"]
