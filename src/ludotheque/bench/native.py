"""The compiled engine beside the reference, one configuration at a time:
``python -m ludotheque.bench.native GAME --players N [--json]``.

Each figure is measured on both engines in the same run (medians of short runs; ratios are what to read on a
shared machine): random deals a second through the protocol (the researcher's Python loop) and its share of the
null engine's ceiling, playouts a second with the heuristic policy and with uniform random moves, ISMCTS
iterations a second of CPU at the game's ``medium`` settings, the batch API's games a second, the Gymnasium and
PettingZoo adapters' games a second, and for a game of simultaneous bids OpenSpiel's goofspiel driven by the same
loop.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from ludotheque.bench import bench_options
from ludotheque.bench.adapters import ADAPTERS
from ludotheque.bench.ceiling import paired_share
from ludotheque.bench.playouts import random_playout
from ludotheque.bench.timing import Rate, timed_runs
from ludotheque.bots.ismcts import ISMCTSBot
from ludotheque.bots.levels import level_settings
from ludotheque.core import Game, State, sample_chance
from ludotheque.core.bot import make_sampler
from ludotheque.core.native import NativeState, native_state_class, use_engine
from ludotheque.games import load_game


@contextmanager
def engine(name: str) -> Iterator[None]:
    previous = use_engine(name)
    try:
        yield
    finally:
        use_engine(previous)


def rate(work: Callable[[], int], seconds: float, runs: int) -> float:
    """Median units a second of ``work`` (which returns the units it did)."""
    return Rate.of(timed_runs(work, seconds, runs)[1]).per_second


def protocol(game: Game, seconds: float, runs: int) -> dict[str, Any]:
    rows: dict[str, Any] = {}
    for name in ("python", "native"):
        with engine(name):
            rng = random.Random(0)

            def one(rng: random.Random = rng) -> int:
                return random_playout(game, rng)

            games = Rate.of(timed_runs(one, seconds, runs)[0]).per_second
            rows[name] = {"games_per_s": round(games, 1), "share_of_ceiling_paired": paired_share(game)["share"]}
    return rows


def decision_state(game: Game, seed: int = 0) -> State:
    """A state a few decisions into a random game, at a decision with a choice."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    decisions = 0
    while True:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_players()[0]
        legal = state.legal_actions(seat)
        if decisions >= 2 and len(legal) > 1:
            return state
        state.apply_action(rng.choice(legal), seat)
        decisions += 1


#: playouts asked of the compiled engine in one call
PLAYOUT_BATCH = 200


def playout_rates(game: Game, seconds: float, runs: int) -> dict[str, Any]:
    """Whole games a second from the start: the Python search's rollout against the compiled playouts."""
    rows: dict[str, Any] = {}
    for policy, eps in (("heuristic", 0.15), ("random", 1.0)):
        bot = ISMCTSBot(game, rollout_epsilon=eps, native=False)
        start = game.new_reference_state()
        rng = random.Random(1)

        def python_one(start: State = start, bot: ISMCTSBot = bot, rng: random.Random = rng) -> int:
            bot._rollout(start.clone(), rng)
            return 1

        with engine("native"):
            compiled = game.new_initial_state()
        seeds = iter(range(10**9))

        def native_batch(compiled: Any = compiled, eps: float = eps, seeds: Iterator[int] = seeds) -> int:
            compiled._native.playouts(PLAYOUT_BATCH, [eps], next(seeds))
            return PLAYOUT_BATCH

        python = rate(python_one, seconds, runs)
        native = rate(native_batch, seconds, runs)
        rows[policy] = {"python": round(python, 1), "native": round(native, 1), "ratio": round(native / python, 1)}
    return rows


def search_rates(game: Game, seconds: float) -> dict[str, Any]:
    """ISMCTS iterations a second of CPU with the ``medium`` level's settings, on one mid-game decision."""
    settings = level_settings(game, "medium", search=True)
    settings.pop("kind", None)
    settings.pop("iterations", None)
    rows: dict[str, Any] = {}
    with engine("native"):
        state = decision_state(game)
    seat = state.current_players()[0]
    view, legal = state.view(seat), state.legal_actions(seat)
    for name, native, iterations in (("python", False, 200), ("native", True, 20_000)):
        bot = ISMCTSBot(game, iterations=iterations, native=native, **settings)
        done = 0
        spent = 0.0
        while spent < seconds:
            start = time.process_time()
            bot.choose(view, legal, random.Random(done), make_sampler(state, seat))
            spent += time.process_time() - start
            done += bot.last.iterations
        rows[name] = round(done / spent, 1)
    rows["ratio"] = round(rows["native"] / rows["python"], 1)
    return rows


def batch_rate(game: Game, seconds: float, runs: int) -> float | None:
    """The batch API's uniformly random games a second (``ludotheque.native.simulate``)."""
    from ludotheque.native import simulate

    n = 1000
    seeds = iter(range(10**9))

    def one() -> int:
        simulate(game, n=n, policies="random", seed=next(seeds))
        return n

    return round(rate(one, seconds, runs), 1)


def adapter_rates(game: Game, seconds: float, runs: int) -> dict[str, Any]:
    rows: dict[str, Any] = {}
    for key, _, measure in ADAPTERS:
        if key == "openspiel":
            continue
        pair = {}
        for name in ("python", "native"):
            with engine(name):
                figures = measure(game, seconds, runs, 0)
            pair[name] = None if figures is None else figures["games_per_s"]["per_second"]
        if pair["python"] and pair["native"]:
            pair["ratio"] = round(pair["native"] / pair["python"], 2)
        rows[key] = pair
    return rows


def goofspiel_rate(game: Game, seconds: float, runs: int) -> dict[str, Any] | None:
    """OpenSpiel's C++ goofspiel (15 cards, random prize order) through the same Python loop, beside the game."""
    try:
        import pyspiel
    except ImportError:
        return None
    spiel = pyspiel.load_game(f"goofspiel(num_cards=15,players={game.players},points_order=random)")
    rng = random.Random(0)

    def one() -> int:
        state = spiel.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, weights = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, weights)[0])
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.players)])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        return 1

    goofspiel = rate(one, seconds, runs)
    with engine("native"):
        ours = rate(lambda: (random_playout(game, rng), 1)[1], seconds, runs)
    return {"goofspiel_games_per_s": round(goofspiel, 1), "native_games_per_s": round(ours, 1),
            "ratio": round(ours / goofspiel, 2)}


def bench_native(game: Game, seconds: float = 0.5, runs: int = 3) -> dict[str, Any]:
    with engine("native"):
        if native_state_class(game) is None:
            raise SystemExit(f"{game.id} has no compiled engine in this build")
        assert isinstance(game.new_initial_state(), NativeState)
    figures: dict[str, Any] = {
        "game": game.id,
        "players": game.players,
        "protocol": protocol(game, seconds, runs),
        "playouts_per_s": playout_rates(game, seconds, runs),
        "ismcts_iterations_per_cpu_s": search_rates(game, 2 * seconds),
        "batch_games_per_s": batch_rate(game, seconds, runs),
        "adapters_games_per_s": adapter_rates(game, seconds, runs),
    }
    if game.game_type.simultaneous:
        figures["goofspiel"] = goofspiel_rate(game, seconds, runs)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game")
    parser.add_argument("--players", type=int, required=True)
    parser.add_argument("--seconds", type=float, default=0.5, help="length of one timed run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="one JSON object instead of lines")
    args = parser.parse_args()
    # the game's benchmark options (its bench.OPTIONS: a cap on the hands of a match random players never finish)
    game = load_game(args.game, players=args.players, **bench_options(args.game))
    figures = bench_native(game, args.seconds, args.runs)
    if args.json:
        print(json.dumps(figures))
        return
    for key, value in figures.items():
        print(f"{key}: {json.dumps(value) if isinstance(value, dict) else value}")


if __name__ == "__main__":
    main()
