"""Building Safarü states by hand: forced deals (chance actions), then moves in notation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ludotheque
from ludotheque.core import CHANCE
from ludotheque.games.safaru import rules
from ludotheque.games.safaru.game import SafaruState


def new_state(players: int, **options: Any) -> SafaruState:
    state = ludotheque.load_game("safaru", players=players, **options).new_initial_state()
    assert isinstance(state, SafaruState)
    return state


def deal(state: SafaruState, hands: Sequence[Sequence[str]], table: Sequence[str] = ()) -> SafaruState:
    """Force the pending deal: ``hands[i]`` goes to the i-th seat from the starter (one card each round the
    table, as dealt), then ``table`` to the table."""
    n = state.game.players
    order = [(state.starter + i) % n for i in range(n)]
    queue = list(state.deal_queue)
    by_seat = {order[i]: list(hands[i]) for i in range(len(hands))}
    table_cards = list(table)
    for destination in queue:
        card = table_cards.pop(0) if destination == rules.TABLE else by_seat[destination].pop(0)
        state.apply_action(state.string_to_action(card, CHANCE))
    assert not state.is_chance_node()
    return state


def dealt(players: int, hands: Sequence[Sequence[str]], table: Sequence[str], **options: Any) -> SafaruState:
    return deal(new_state(players, **options), hands, table)


def play(state: SafaruState, *moves: str) -> SafaruState:
    """Apply moves in notation, each by whoever acts now."""
    for move in moves:
        seat = state.current_players()[0]
        state.apply_action(state.string_to_action(move, seat), seat)
    return state


def legal_texts(state: SafaruState) -> list[str]:
    seat = state.current_players()[0]
    return [state.action_to_string(a, seat) for a in state.legal_actions(seat)]


def filler(players: int, used: Sequence[str], count: int) -> list[str]:
    """``count`` cards not in ``used`` (to fill hands in tests that do not care)."""
    left = list(rules.COPIES)
    for name in used:
        kind = rules.LETTERS.index(name[0]) * 10 + int(name[1])
        left[kind] -= 1
    out: list[str] = []
    for kind in range(rules.KINDS):
        while left[kind] and len(out) < count:
            left[kind] -= 1
            out.append(rules.card_name(kind))
    return out
