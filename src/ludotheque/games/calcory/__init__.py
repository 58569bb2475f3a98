"""Calcory, from Mü & Mehr (``calcory``): memory and sums to 13."""

from ludotheque.core.gametype import CoachThresholds, GameType

GAME: GameType = GameType(
    id="calcory",
    name="Calcory",
    package=__name__,
    game_class="CalcoryGame",
    min_players=2,
    max_players=4,
    simultaneous=False,
    chance=True,
    hidden_information=True,
    score_order="higher",
    coach_thresholds=CoachThresholds(0.7, 2.0, 4.0),
    optional_parts=frozenset({"levels", "native"}),
)

# After GAME: the game module reads it (``game_type = GAME``) while this package is still importing.
from ludotheque.games.calcory.game import CalcoryGame, CalcoryState  # noqa: E402

__all__ = ["GAME", "CalcoryGame", "CalcoryState"]
