"""Building Mü states by hand: a forced deal, then moves in notation."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import ludotheque
from ludotheque.core import CHANCE
from ludotheque.games.mu import rules
from ludotheque.games.mu.game import MuState
from ludotheque.games.mu.notation import card_name, parse_card


def new_state(players: int, **options: object) -> MuState:
    state = ludotheque.load_game("mu", players=players, **options).new_initial_state()
    assert isinstance(state, MuState)
    return state


def deal(state: MuState, fixed: Mapping[int, Sequence[str]], removed: Sequence[str] = ("Y", "K")) -> MuState:
    """Deal the current hand: seat ``s`` gets the cards ``fixed[s]`` (names like ``R7``) and the rest of the deck
    is spread in ascending order over the seats' free places.  With 3 players ``removed`` colours go first."""
    n = state.game.players
    if state.phase == "remove":
        for colour in removed:
            state.apply_action(state.string_to_action(f"out {colour}", CHANCE))
    per_seat = rules.cards_per_seat(n)
    counts = list(state.deck)
    hands: list[list[int]] = [[] for _ in range(n)]
    for seat, names in fixed.items():
        held = list(state.hands[seat])  # cards already dealt count towards ``fixed``
        for name in names:
            kind = parse_card(name)
            assert kind is not None, name
            if held[kind]:
                held[kind] -= 1
                continue
            assert counts[kind] > 0, name
            counts[kind] -= 1
            hands[seat].append(kind)
    rest = [kind for kind in range(rules.KINDS) for _ in range(counts[kind])]
    for seat in range(n):
        while len(hands[seat]) + state.hand_sizes[seat] < per_seat:
            hands[seat].append(rest.pop(0))
    assert not rest
    taken = [0] * n
    while state.phase == "deal":
        seat = (state.dealer + 1 + state.dealt) % n
        state.apply_action(state.string_to_action(card_name(hands[seat][taken[seat]]), CHANCE))
        taken[seat] += 1
    return state


def play(state: MuState, moves: str) -> MuState:
    """Apply moves written ``seat:move`` separated by commas, e.g. ``"0:R7, 1:pass"``."""
    for item in moves.split(","):
        seat, move = item.strip().split(":", 1)
        state.apply_action(state.string_to_action(move, int(seat)), int(seat))
    return state


def pass_all(state: MuState) -> MuState:
    """Every seat passes until the auction ends."""
    while state.phase == "auction":
        seat = state.current_players()[0]
        state.apply_action(state.string_to_action("pass", seat), seat)
    return state
