"""Geier's bot levels and its own bot ``gt``: plain data that ``ludotheque.bots`` reads (``bots/levels.py`` has
the generic levels and the format of these overrides).

Tied cards cancel (geier-3), so bots that bid alike knock each other out while a random player collects the pots;
the more seats, the more it matters, hence the changes at 4 and 5 seats.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ludotheque.core import Bot, Game

#: Rollouts with half their moves random instead of 15 %: with 15 % the search learned to outbid or dodge the
#: heuristic's foreseeable bids, which failed against the players really at a 4- or 5-seat table.
_NOISY_ROLLOUTS: dict[str, Any] = {"rollout_epsilon": 0.5}

#: Bids drawn around the pot's rank (the heuristic's ``spread``), so that look-alike bots do not cancel each
#: other's cards.
_MIXED_BIDS: dict[str, Any] = {"heuristic_settings": {"spread": 2}}

LEVEL_SETTINGS: dict[str, dict[str, Any]] = {
    # 3 seats: the usual 30 % random moves (easy finishes ahead of random in 73.4 % of the games, 59.7 % with 50 %).
    # 4 seats: half the moves random; two plain heuristics never score there, and with 30 % easy finished ahead
    # of random in only 54.2 % [49.1, 59.4] of 400 games, with 50 % in 64.1 % [59.3, 68.8].
    # 5 seats: 30 % random moves and the bid drawn around the pot's rank (spread 2).
    "easy": {"by_players": {4: {"epsilon": 0.5}, 5: {"epsilon": 0.3, **_MIXED_BIDS}}},
    # 4 seats: 100 iterations, a twelfth of hard's, since hard could not be told from the scaled 300.
    # 5 seats: the spread bid in the search's prior and rollouts.
    "medium": {"iterations": 600, "by_players": {4: {**_NOISY_ROLLOUTS, "iterations": 100},
                                                 5: {**_NOISY_ROLLOUTS, **_MIXED_BIDS}}},
    # 5 seats: a best response to a table that bids like easy: flat Monte Carlo at the root, spent by sequential
    # halving on common random numbers, every opponent played with the spread bid and 30 % random moves.
    "hard": {"iterations": 2400, "by_players": {4: _NOISY_ROLLOUTS,
                                                5: {"selection": "halving", "rollout_epsilon": 0.3, **_MIXED_BIDS}}},
}


#: A bot that plays a person's seat (they left, resigned, or their time ran out) draws its bid where bots of the
#: table's level would bid alike: with two people's seats taken over at one table, equal hands made the same bid,
#: which ties, and a tie keeps the hands equal, round after round.  The heuristic draws only when another seat
#: holds its very cards (``mirror``); a search draws its move by its visits.  Measured in ``docs/bots.md``.
TAKEOVER: dict[str, Any] = {"heuristic_settings": {"mirror": 2}, "final": "visits"}


def _gt(game: Game, settings: Mapping[str, Any]) -> Bot:
    from ludotheque.games.geier.gt import GeierGTBot

    return GeierGTBot(game, **settings)


#: Geier's own bots, by spec name: the player counts they play, their ``key=value`` settings (key -> the
#: builder's argument and its type) and the builder.  ``gt`` needs 2 players: only then is everything but the
#: round's face-down cards public, so that each round is a matrix game.
BOTS: dict[str, dict[str, Any]] = {
    "gt": {
        "players": (2,),
        "keys": {"it": ("rollouts", int), "iterations": ("rollouts", int), "time": ("time_limit", float)},
        "build": _gt,
    },
}
