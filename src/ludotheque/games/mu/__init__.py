"""Mü, from Mü & Mehr (``mu``): auction, trumps and tricks."""

from ludotheque.core.gametype import CoachThresholds, GameType

GAME: GameType = GameType(
    id="mu",
    name="Mü",
    package=__name__,
    game_class="MuGame",
    min_players=3,
    max_players=6,
    simultaneous=False,
    chance=True,
    hidden_information=True,
    score_order="higher",
    coach_thresholds=CoachThresholds(2.5, 7.0, 14.0),
    match_of_hands=True,
    optional_parts=frozenset({"levels", "native"}),
)

# After GAME: the game module reads it (``game_type = GAME``) while this package is still importing.
from ludotheque.games.mu.game import MuGame, MuState  # noqa: E402

__all__ = ["GAME", "MuGame", "MuState"]
