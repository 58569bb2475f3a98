"""Hol's der Geier / Stupides Vautours (``geier``)."""

from ludotheque.core.gametype import CoachThresholds, GameType

GAME: GameType = GameType(
    id="geier",
    name="Hol's der Geier / Stupides Vautours",
    package=__name__,
    game_class="GeierGame",
    min_players=2,
    max_players=5,
    simultaneous=True,
    chance=True,
    hidden_information=True,
    score_order="higher",
    coach_thresholds=CoachThresholds(1.0, 2.5, 5.0),
    optional_parts=frozenset({"levels", "bench", "native"}),
)

# After GAME: the game module reads it (``game_type = GAME``) while this package is still importing.
from ludotheque.games.geier.game import GeierGame, GeierState  # noqa: E402

__all__ = ["GAME", "GeierGame", "GeierState"]
