"""Plays a game between bots: the one loop the CLI, the arena and (later) the server share.

Chance and bots draw from separate RNGs so that the same deal can be replayed with other bots (duplicate
deals), and every bot only ever receives its seat's view.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ludotheque.core import Bot, Game, State, sample_chance


def step_bots(state: State, bots: Sequence[Bot | None], bot_rng: random.Random) -> bool:
    """Let every acting seat that has a bot choose; returns whether any did."""
    moved = False
    for seat in state.current_players():
        bot = bots[seat]
        if bot is None:
            continue
        action = bot.choose(state.view(seat), state.legal_actions(seat), bot_rng)
        state.apply_action(action, seat)
        moved = True
    return moved


def play_game(
    game: Game,
    bots: Sequence[Bot],
    chance_rng: random.Random,
    bot_rng: random.Random | None = None,
    on_step: Callable[[State], None] | None = None,
) -> State:
    """Play one game to the end; returns the final state."""
    if len(bots) != game.players:
        raise ValueError(f"{game.players} bots are needed, not {len(bots)}")
    bot_rng = bot_rng or chance_rng
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, chance_rng))
        else:
            step_bots(state, bots, bot_rng)
        if on_step is not None:
            on_step(state)
    return state
