"""Cheese Rescue (``cheese``): dogs, cats, mice and cheese on a grid."""

from ludotheque.core.gametype import CoachThresholds, GameType

GAME: GameType = GameType(
    id="cheese",
    name="Cheese Rescue",
    package=__name__,
    game_class="CheeseGame",
    min_players=2,
    max_players=4,
    simultaneous=False,
    chance=True,
    hidden_information=True,
    score_order="higher",
    coach_thresholds=CoachThresholds(0.4, 1.0, 2.0),
    optional_parts=frozenset({"levels", "native"}),
)

# After GAME: the game module reads it (``game_type = GAME``) while this package is still importing.
from ludotheque.games.cheese.game import CheeseGame, CheeseState  # noqa: E402

__all__ = ["GAME", "CheeseGame", "CheeseState"]
