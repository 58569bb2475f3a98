"""Safarü and Safarü renversé, from Mü & Mehr (``safaru``)."""

from ludotheque.core.gametype import CoachThresholds, GameType

GAME: GameType = GameType(
    id="safaru",
    name="Safarü / Safarü renversé",
    package=__name__,
    game_class="SafaruGame",
    min_players=2,
    max_players=4,
    simultaneous=False,
    chance=True,
    hidden_information=True,
    score_order="by_options",  # safaru-6: the highest total wins; renversé (safaru-7): the lowest
    coach_thresholds=CoachThresholds(2.0, 6.0, 12.0),
    optional_parts=frozenset({"levels", "native"}),
)

# After GAME: the game module reads it (``game_type = GAME``) while this package is still importing.
from ludotheque.games.safaru.game import SafaruGame, SafaruState  # noqa: E402

__all__ = ["GAME", "SafaruGame", "SafaruState"]
