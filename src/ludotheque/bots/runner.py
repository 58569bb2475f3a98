"""Plays a game between bots: the one loop the CLI, the arena and (later) the server share.

Chance and bots draw from separate sources so that the same deal can be replayed with other bots (duplicate
deals), and every bot only ever receives its seat's view.  Search bots (``ludotheque.core.bot.SearchBot``) also
receive a sampler of determinizations for their seat (``state.resample(seat, rng)``), never the state itself.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from ludotheque.core import Bot, Game, State, sample_chance
from ludotheque.core.bot import ask_bot

#: Picks the chance action at a chance node (the arena's duplicate deals use a keyed one).
ChanceSampler = Callable[[State], int]


def step_bots(state: State, bots: Sequence[Bot | None], bot_rng: random.Random) -> bool:
    """Let every acting seat that has a bot choose; returns whether any did."""
    moved = False
    for seat in state.current_players():
        bot = bots[seat]
        if bot is None or seat not in state.current_players():
            continue
        action = ask_bot(bot, state, seat, bot_rng)
        state.apply_action(action, seat)
        moved = True
    return moved


def play_game(
    game: Game,
    bots: Sequence[Bot],
    chance_rng: random.Random | None = None,
    bot_rng: random.Random | None = None,
    on_step: Callable[[State], None] | None = None,
    chance: ChanceSampler | None = None,
) -> State:
    """Play one game to the end; returns the final state.

    Chance actions come from ``chance`` when given (a function of the chance node), else are drawn from
    ``chance_rng``.  Bots draw from ``bot_rng`` (default: ``chance_rng``).
    """
    if len(bots) != game.players:
        raise ValueError(f"{game.players} bots are needed, not {len(bots)}")
    missing = [seat for seat, bot in enumerate(bots) if bot is None]
    if missing:
        # step_bots leaves a seat without a bot to a person; here nobody would ever move for it
        raise ValueError(f"play_game needs a bot in every seat; none in seat(s) {missing}")
    if chance is None:
        if chance_rng is None:
            raise ValueError("play_game needs a chance_rng or a chance sampler")
        rng_for_chance = chance_rng

        def chance_from_rng(node: State) -> int:
            return sample_chance(node, rng_for_chance)

        chance = chance_from_rng
    bot_rng = bot_rng or chance_rng or random.Random()
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(chance(state))
        else:
            step_bots(state, bots, bot_rng)
        if on_step is not None:
            on_step(state)
    return state
