"""Rummü, from Mü & Mehr (``rummu``): rummy with yellow jokers."""

from ludotheque.core.gametype import CoachThresholds, GameType

GAME: GameType = GameType(
    id="rummu",
    name="Rummü",
    package=__name__,
    game_class="RummuGame",
    min_players=3,
    max_players=6,
    simultaneous=False,
    chance=True,
    hidden_information=True,
    score_order="higher",
    coach_thresholds=CoachThresholds(6.5, 20.0, 40.0),
    match_of_hands=True,
    optional_parts=frozenset({"levels", "bench", "native"}),
)

# After GAME: the game module reads it (``game_type = GAME``) while this package is still importing.
from ludotheque.games.rummu.game import RummuGame, RummuState  # noqa: E402

__all__ = ["GAME", "RummuGame", "RummuState"]
