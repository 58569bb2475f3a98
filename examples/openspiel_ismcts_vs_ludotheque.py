"""OpenSpiel's own ISMCTS bot against a ludotheque bot, on our engines through the OpenSpiel adapter.

    .venv/bin/python examples/openspiel_ismcts_vs_ludotheque.py --games geier,safaru --deals 4
    .venv/bin/python examples/openspiel_ismcts_vs_ludotheque.py --ours ismcts:medium --simulations 300

For every game, every deal is played once per seat rotation (OpenSpiel's bot takes each seat in turn, ours fills
the others) with the same chance seed, so the luck of the deal weighs on both sides alike.  OpenSpiel's
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` searches the game loaded as
``python_ludotheque_<game>(turn_based=True, utility=win_loss, perfect_recall=False)``: it is sequential (ISMCTS
needs that; a simultaneous decision such as Geier's is taken seat after seat, each seeing none of the others'
choices), it scores a win +1, a loss -1, and its search keys nodes on the seat's current view (our views keep the
public record of the game), which keeps the rollouts cheap.  Like every bot, it never sees the true state: it
receives a sampler of determinizations for its seat, and its search draws further worlds with the engine's
``resample``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts

import ludotheque
from ludotheque.bots import make_bot
from ludotheque.core import Bot, State, sample_chance
from ludotheque.interop import openspiel


def ask(bot: Any, state: State, seat: int, rng: random.Random) -> int:
    """A bot's move: search bots also get a sampler of determinizations for their seat (never the state)."""
    view, legal = state.view(seat), state.legal_actions(seat)
    if hasattr(bot, "choose_with_sampler"):
        return int(bot.choose_with_sampler(view, legal, rng, lambda r: state.resample(seat, r)))
    return int(bot.choose(view, legal, rng))


def play(game: ludotheque.Game, bots: Sequence[Any], chance_rng: random.Random, bot_rng: random.Random) -> State:
    """One game between ``bots`` (one per seat); chance draws from ``chance_rng``."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, chance_rng))
            continue
        for seat in state.current_players():
            if seat in state.current_players():
                state.apply_action(ask(bots[seat], state, seat, bot_rng), seat)
    return state


@dataclass
class Tally:
    games: int = 0
    wins: float = 0.0  # a shared win counts 1 / number of winners
    points: list[float] = field(default_factory=list)
    seconds: float = 0.0

    def row(self, name: str) -> str:
        mean = sum(self.points) / len(self.points) if self.points else 0.0
        rate = self.wins / self.games if self.games else 0.0
        return f"  {name:<28} {self.games:>5} {rate:>8.1%} {mean:>10.2f} {self.seconds:>9.1f}s"


class Clocked:
    """Counts the thinking time of a bot."""

    def __init__(self, inner: Any, tally: Tally) -> None:
        self.inner, self.tally, self.name = inner, tally, inner.name
        if hasattr(inner, "choose_with_sampler"):
            self.choose_with_sampler = self._with_sampler

    def choose(self, view: dict[str, Any], legal: list[int], rng: random.Random) -> int:
        started = time.perf_counter()
        try:
            return int(self.inner.choose(view, legal, rng))
        finally:
            self.tally.seconds += time.perf_counter() - started

    def _with_sampler(self, view: dict[str, Any], legal: list[int], rng: random.Random, sample: Any) -> int:
        started = time.perf_counter()
        try:
            return int(self.inner.choose_with_sampler(view, legal, rng, sample))
        finally:
            self.tally.seconds += time.perf_counter() - started


def openspiel_ismcts(game: ludotheque.Game, simulations: int, seed: int) -> openspiel.OpenSpielBot:
    spiel_game = openspiel.load(
        game.id, game.players, turn_based=True, utility="win_loss", perfect_recall=False, **dict(game.options)
    )
    rng = np.random.RandomState(seed)
    search = ismcts.ISMCTSBot(
        spiel_game,
        mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng),
        uct_c=2.0,
        max_simulations=simulations,
        random_state=rng,
    )
    return openspiel.OpenSpielBot(spiel_game, search, name=f"openspiel-ismcts:{simulations}")


def match(game_id: str, players: int, ours: str, deals: int, simulations: int, seed: int) -> dict[str, Tally]:
    game = ludotheque.load_game(game_id, players=players)
    theirs_name = f"openspiel-ismcts:{simulations}"
    tallies = {theirs_name: Tally(), ours: Tally()}
    for deal in range(deals):
        for spiel_seat in range(players):
            theirs = Clocked(openspiel_ismcts(game, simulations, seed + deal), tallies[theirs_name])
            mine: Bot = make_bot(ours, game)
            bots = [theirs if seat == spiel_seat else Clocked(mine, tallies[ours]) for seat in range(players)]
            state = play(game, bots, random.Random(f"{seed}:{deal}"), random.Random(f"{seed}:{deal}:{spiel_seat}"))
            winners = state.winners()
            for seat, points in enumerate(state.returns()):
                tally = tallies[theirs_name if seat == spiel_seat else ours]
                tally.games += 1
                tally.points.append(points)
                if seat in winners:
                    tally.wins += 1 / len(winners)
    return tallies


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="geier,safaru", help="comma-separated game ids")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument(
        "--ours", default="heuristic", help="our bot (ludotheque.bots spec: heuristic, ismcts:medium...)"
    )
    parser.add_argument("--deals", type=int, default=2, help="deals per game (each played in every seat rotation)")
    parser.add_argument("--simulations", type=int, default=100, help="OpenSpiel ISMCTS simulations per move")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    openspiel.register()
    for game_id in [g.strip() for g in args.games.split(",") if g.strip()]:
        started = time.perf_counter()
        tallies = match(game_id, args.players, args.ours, args.deals, args.simulations, args.seed)
        games = args.deals * args.players
        print(f"{game_id}, {args.players} players, {games} games ({time.perf_counter() - started:.1f}s)")
        print(f"  {'bot':<28} {'seats':>5} {'win rate':>8} {'mean pts':>10} {'thinking':>10}")
        for name, tally in tallies.items():
            print(tally.row(name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
