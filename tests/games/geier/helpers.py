"""Building Geier states by hand: forced point cards and chosen plays."""

from __future__ import annotations

from collections.abc import Sequence

import ludotheque
from ludotheque.games.geier.game import GeierState


def new_state(players: int, **options: str) -> GeierState:
    state = ludotheque.load_game("geier", players=players, **options).new_initial_state()
    assert isinstance(state, GeierState)
    return state


def play_round(state: GeierState, point: int, cards: Sequence[int]) -> None:
    """Turn the point card ``point`` (e.g. +7) and let seat i play ``cards[i]``."""
    state.apply_action(state.string_to_action(f"{point:+d}"))
    for seat, card in enumerate(cards):
        state.apply_action(card - 1, seat)
