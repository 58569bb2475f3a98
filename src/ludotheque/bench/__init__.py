"""Speed measurements, in one place: random playouts through the public protocol and through each adapter, the
loop's own ceiling for each game, clone/resample costs, bot think time, and the per-move cost of saving a game
(the table's log) and of restoring it.  ``ludotheque bench`` and ``make bench`` call ``bench_game``.

Figures are medians of several runs; every run is timed with ``time.perf_counter``.  They are printed, never
asserted.  Modules: ``timing`` (timed runs, medians), ``playouts`` (the protocol's loop), ``ceiling`` (the same
loop over a null engine), ``adapters`` (Gymnasium, PettingZoo, OpenSpiel), ``records`` (saving and restoring),
``bots`` (time per bot move; ``python -m ludotheque.bench.bots``), ``lengths`` (how long random play lasts;
``python -m ludotheque.bench.lengths``).

This package names no game.  A game's folder may hold a ``bench.py`` with any of these (all optional):

- ``OPTIONS``: options passed to every configuration the benchmark loads (a cap on the hands of a match that
  random players would never finish, say);
- ``figures(game, timed, runs)``: extra figures of one configuration, merged into its row (``timed(work)``
  repeats ``work()``, one game returning its action count, and gives ``games_per_s`` and ``actions_per_s``);
- ``side_table(rows)``: those figures as a table for the terminal, a dict with ``title``, ``columns``, ``rows``
  (lists of strings; an empty list closes a section) and ``note`` (a string or ``None``).
"""

from __future__ import annotations

import random
from types import ModuleType
from typing import Any

from ludotheque.bench.adapters import ADAPTERS, adapter_rates
from ludotheque.bench.bots import bot_move_time
from ludotheque.bench.ceiling import loop_ceiling, paired_share, recorded_shapes
from ludotheque.bench.playouts import clone_and_resample, playouts, random_playout, sample_states
from ludotheque.bench.records import finished_table, save_and_restore, save_pass
from ludotheque.bench.timing import Rate, timed_rates, timed_runs
from ludotheque.core import Game, OptionValue
from ludotheque.games import game_class, game_type, load_game

__all__ = [
    "ADAPTERS",
    "Rate",
    "adapter_rates",
    "bench_game",
    "bench_options",
    "bot_move_time",
    "clone_and_resample",
    "finished_table",
    "furniture",
    "load_for_bench",
    "loop_ceiling",
    "paired_share",
    "playouts",
    "random_playout",
    "sample_states",
    "save_and_restore",
    "save_pass",
    "side_tables",
    "timed_rates",
    "timed_runs",
]


# -- a game's own benchmark module ----------------------------------------------------------------------


def furniture(game_id: str) -> ModuleType | None:
    """The game's ``bench.py`` (next to its game module), or ``None`` when it has none."""
    return game_type(game_id).optional_part("bench")


def bench_options(game_id: str) -> dict[str, OptionValue]:
    """The options every benchmarked configuration of ``game_id`` is loaded with (its ``bench.OPTIONS``)."""
    module = furniture(game_id)
    return dict(getattr(module, "OPTIONS", {})) if module is not None else {}


def load_for_bench(game_id: str, players: int) -> Game:
    """``game_id`` at ``players`` seats with its benchmark options."""
    return load_game(game_id, players=players, **bench_options(game_id))


# -- one game ----------------------------------------------------------------------------------------------


def with_ceiling(game: Game, played: dict[str, Any], seconds: float, runs: int) -> dict[str, Any]:
    """The loop's ceiling for ``game`` beside the protocol's deals/s (``played``: its ``playouts`` figures)."""
    recorded = recorded_shapes(game, random.Random(0))  # the null engine's games, for both measures below
    figures = loop_ceiling(game, seconds, runs, recorded=recorded)
    deals = played["deals_per_s" if "deals_per_s" in played else "games_per_s"]["per_second"]
    figures["protocol_deals_per_s"] = round(deals, 1)
    figures["share_of_ceiling"] = round(deals / figures["deals_per_s"], 3)
    # the same share from neighbouring slices (steady where the machine's speed drifts), and the deals/s it gives
    # at the ceiling measured above: what to hold against ``target_deals_per_s`` on a shared machine
    paired = paired_share(game, seconds / 4, max(3, 2 * runs - 1), shapes=recorded[0])
    figures["share_of_ceiling_paired"] = paired
    figures["protocol_deals_per_s_paired"] = round(paired["share"] * figures["deals_per_s"], 1)
    return figures


def bench_game(
    game_id: str,
    players: list[int] | None = None,
    seconds: float = 1.0,
    runs: int = 5,
    bot_levels: tuple[str, ...] = ("easy", "medium", "hard"),
    bot_moves: int = 3,
    records: bool = True,
    adapters: bool = True,
) -> list[dict[str, Any]]:
    """Every measurement for one game, one row per player count (the game's ``bench.figures`` included)."""
    cls = game_class(game_id)
    extra = furniture(game_id)
    rows = []
    for n in players or list(range(cls.min_players, cls.max_players + 1)):
        game = load_for_bench(game_id, n)
        row: dict[str, Any] = {
            "game": game_id,
            "players": n,
            "options": bench_options(game_id),
            "playouts": playouts(game, seconds, runs),
        }
        row["ceiling"] = with_ceiling(game, row["playouts"], seconds, runs)
        row.update(clone_and_resample(game))
        row["bots"] = {level: bot_move_time(game, level, bot_moves) for level in bot_levels}
        if records:
            row["records"] = save_and_restore(game, runs)
        if adapters:
            row["adapters"] = adapter_rates(game, seconds, runs)
        if extra is not None and hasattr(extra, "figures"):
            row.update(extra.figures(game, lambda work: timed_rates(work, seconds, runs), runs))
        rows.append(row)
    return rows


def side_tables(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tables the games' ``bench.side_table`` make of their own figures, in the order the games come."""
    tables = []
    for game_id in dict.fromkeys(row["game"] for row in rows):
        extra = furniture(game_id)
        if extra is not None and hasattr(extra, "side_table"):
            table = extra.side_table([row for row in rows if row["game"] == game_id])
            if table is not None:
                tables.append(table)
    return tables
