"""OpenSpiel's own ISMCTS bot against a ludotheque bot, in our arena, on our engines via the OpenSpiel adapter.

    .venv/bin/python examples/openspiel_ismcts_vs_ludotheque.py --games geier,safaru --games-per 4
    .venv/bin/python examples/openspiel_ismcts_vs_ludotheque.py --ours ismcts:medium --simulations 300

The example adds the bot spec ``openspiel-ismcts[:SIMULATIONS]`` to ``ludotheque.bots`` and runs
``ludotheque.arena.run_arena``: every deal is played once per seat rotation with the same chance outcomes
(duplicate deals), and the arena reports mean points, win rates with confidence intervals and ratings.

OpenSpiel's bot is ``open_spiel.python.algorithms.ismcts.ISMCTSBot`` with random rollouts.  It searches the game
loaded as ``python_ludotheque_<game>(turn_based=True, utility=win_loss, perfect_recall=False)``, which is
sequential (ISMCTS needs that; a simultaneous decision such as Geier's is taken seat after seat, each seat seeing
none of the others' choices).  It scores a win +1 and a loss -1, and its search keys nodes on the seat's current
view (our views keep the public record of the game), which keeps the rollouts cheap.  Like every bot it never
sees the true state: ``openspiel.OpenSpielBot`` receives a sampler of determinizations for its seat from the
arena, and the search draws further worlds with the engine's ``resample``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

import numpy as np
from open_spiel.python.algorithms import ismcts, mcts
from rich.console import Console

import ludotheque
from ludotheque.arena import ArenaSpec, run_arena
from ludotheque.arena.report import arena_table
from ludotheque.bots import registry
from ludotheque.core import Bot
from ludotheque.interop import openspiel

SPEC = "openspiel-ismcts"


def openspiel_ismcts(game: ludotheque.Game, args: list[str]) -> Bot:
    """``openspiel-ismcts[:SIMULATIONS[:SEED]]``: OpenSpiel's ISMCTS as a ludotheque bot (default 100, 0)."""
    simulations = int(args[0]) if args else 100
    seed = int(args[1]) if len(args) > 1 else 0
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
    return openspiel.OpenSpielBot(spiel_game, search, name=f"{SPEC}:{simulations}")


def add_openspiel_bot() -> None:
    """Make ``openspiel-ismcts`` a bot spec, for the arena (and anything else using ``make_bot``)."""
    registry.BOTS.setdefault(SPEC, openspiel_ismcts)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", default="geier,safaru", help="comma-separated game ids")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--ours", default="heuristic", help="our bot: a ludotheque.bots spec (ismcts:medium...)")
    parser.add_argument("--games-per", type=int, default=4, help="games per game id (rounded up to whole deals)")
    parser.add_argument("--simulations", type=int, default=100, help="OpenSpiel ISMCTS simulations per move")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    add_openspiel_bot()
    openspiel.register()
    console = Console(width=None if sys.stdout.isatty() else 140)
    for game_id in [g.strip() for g in args.games.split(",") if g.strip()]:
        spec = ArenaSpec(
            game_id=game_id,
            players=args.players,
            options={},
            bots=(f"{SPEC}:{args.simulations}", args.ours),
            games=args.games_per,
            seed=args.seed,
        )
        console.print(arena_table(run_arena(spec)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
