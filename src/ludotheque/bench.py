"""Speed measurements: random playouts through the public protocol and through each adapter, clone/resample
costs, bot think time, and the per-move cost of saving a game (the table's log) and of restoring it.

Figures are medians of several runs; every run is timed with ``time.perf_counter``.  They are printed, never
asserted (``ludotheque bench``, ``make bench``).

This module names no game.  A game's folder may hold a ``bench.py`` with any of these (all optional):

- ``OPTIONS``: options passed to every configuration the benchmark loads (a cap on the hands of a match that
  random players would never finish, say);
- ``figures(game, timed, runs)``: extra figures of one configuration, merged into its row (``timed(work)``
  repeats ``work()``, one game returning its action count, and gives ``games_per_s`` and ``actions_per_s``);
- ``side_table(rows)``: those figures as a table for the terminal, a dict with ``title``, ``columns``, ``rows``
  (lists of strings; an empty list closes a section) and ``note`` (a string or ``None``).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from types import ModuleType
from typing import Any

from ludotheque.core import CHANCE, Actor, Game, OptionValue, State, game_class, load_game, sample_chance
from ludotheque.table import LogEntry, Table


@dataclass
class Rate:
    """A median rate over runs, with the spread."""

    per_second: float
    runs: list[float] = field(default_factory=list)

    @classmethod
    def of(cls, runs: list[float]) -> Rate:
        return cls(statistics.median(runs), [round(r, 1) for r in runs])


# -- a game's own benchmark module ----------------------------------------------------------------------


def furniture(game_id: str) -> ModuleType | None:
    """The game's ``bench.py`` (next to its game module), or ``None`` when it has none."""
    package = game_class(game_id).__module__.rpartition(".")[0]
    name = f"{package}.bench"
    if importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name)


def bench_options(game_id: str) -> dict[str, OptionValue]:
    """The options every benchmarked configuration of ``game_id`` is loaded with (its ``bench.OPTIONS``)."""
    module = furniture(game_id)
    return dict(getattr(module, "OPTIONS", {})) if module is not None else {}


def load_for_bench(game_id: str, players: int) -> Game:
    """``game_id`` at ``players`` seats with its benchmark options."""
    return load_game(game_id, players=players, **bench_options(game_id))


# -- random play through the protocol -------------------------------------------------------------------


def _random_playout(game: Game, rng: random.Random, deals: list[int] | None = None) -> int:
    """One uniformly random game through the public protocol (the loop a researcher writes); its action count.

    ``deals``, if given, gets the number of deals (hands) the game completed appended."""
    state = game.new_initial_state()
    actions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            actions += 1
        else:
            for seat in state.current_players():
                state.apply_action(rng.choice(state.legal_actions(seat)), seat)
                actions += 1
    if deals is not None:
        deals.append(state.deals_completed())
    return actions


def _timed_runs(work: Callable[[], int], seconds: float, runs: int) -> tuple[list[float], list[float]]:
    """Repeat ``work`` for ``seconds`` per run; returns units/s and secondary counts/s per run."""
    units, counts = [], []
    for _ in range(runs):
        done = total = 0
        start = time.perf_counter()
        while True:
            total += work()
            done += 1
            elapsed = time.perf_counter() - start
            if elapsed >= seconds:
                break
        units.append(done / elapsed)
        counts.append(total / elapsed)
    return units, counts


def timed_rates(work: Callable[[], int], seconds: float = 1.0, runs: int = 5) -> dict[str, Any]:
    """Games/s and actions/s of ``work`` (one game, returning its action count), medians over ``runs``."""
    games, actions = _timed_runs(work, seconds, runs)
    return {"games_per_s": asdict(Rate.of(games)), "actions_per_s": asdict(Rate.of(actions))}


def playouts(game: Game, seconds: float = 1.0, runs: int = 5, seed: int = 0) -> dict[str, Any]:
    """Random games/s and actions/s; for matches of several hands also deals/s (the issue's unit for those)."""
    rng = random.Random(seed)
    deals: list[int] = []
    games, actions = _timed_runs(lambda: _random_playout(game, rng, deals), seconds, runs)
    figures: dict[str, Any] = {"games_per_s": asdict(Rate.of(games)), "actions_per_s": asdict(Rate.of(actions))}
    per_game = sum(deals) / len(deals)
    if per_game != 1:
        figures["deals_per_game"] = round(per_game, 2)
        figures["deals_per_s"] = asdict(Rate.of([g * per_game for g in games]))
    return figures


# -- random play through the adapters -----------------------------------------------------------------


def _gymnasium_rates(game: Game, seconds: float, runs: int, seed: int) -> dict[str, Any] | None:
    """The Gymnasium env (``gymnasium.make``), seat 0 playing random legal actions against random bots."""
    try:
        import gymnasium
        import numpy as np

        from ludotheque.interop.gymnasium import env_id
    except ImportError:
        return None
    options: dict[str, Any] = dict(game.options)
    env = gymnasium.make(env_id(game.id), players=game.players, opponents="random", **options)
    rng = random.Random(seed)
    episodes = iter(range(seed, 2**62))

    def one() -> int:
        _, info = env.reset(seed=next(episodes))
        done = False
        while not done:
            legal = np.flatnonzero(info["action_mask"])
            _, _, terminated, truncated, info = env.step(int(legal[rng.randrange(len(legal))]))
            done = terminated or truncated
        state: State = env.unwrapped.state  # type: ignore[attr-defined]
        return len(state.history())

    try:
        return timed_rates(one, seconds, runs)
    finally:
        env.close()


def _pettingzoo_rates(game: Game, seconds: float, runs: int, seed: int) -> dict[str, Any] | None:
    """The PettingZoo AEC env (``env(...)``, with its order-enforcing wrapper), every seat random and legal."""
    try:
        import numpy as np

        from ludotheque.interop.pettingzoo import env as make_env
    except ImportError:
        return None
    env = make_env(game.id, players=game.players, **game.options)
    rng = random.Random(seed)
    episodes = iter(range(seed, 2**62))

    def one() -> int:
        env.reset(seed=next(episodes))
        for _ in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
        state: State = env.unwrapped.state
        return len(state.history())

    return timed_rates(one, seconds, runs)


def _openspiel_rates(game: Game, seconds: float, runs: int, seed: int) -> dict[str, Any] | None:
    """The OpenSpiel adapter (``python_ludotheque_<game>``, default parameters), the loop an OpenSpiel user
    writes: chance sampled, simultaneous nodes given one random action per seat."""
    try:
        from ludotheque.interop.openspiel import load
    except ImportError:
        return None
    spiel_game = load(game.id, game.players, **game.options)
    rng = random.Random(seed)

    def one() -> int:
        state = spiel_game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            elif state.is_simultaneous_node():
                state.apply_actions([rng.choice(state.legal_actions(p)) for p in range(game.players)])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        return len(state.ludo_state.history())

    return timed_rates(one, seconds, runs)


#: The adapters timed, in ``interop/``: row key, label, measuring function.
ADAPTERS: tuple[tuple[str, str, Callable[[Game, float, int, int], dict[str, Any] | None]], ...] = (
    ("gymnasium", "Gymnasium", _gymnasium_rates),
    ("pettingzoo", "PettingZoo", _pettingzoo_rates),
    ("openspiel", "OpenSpiel", _openspiel_rates),
)


def adapter_rates(game: Game, seconds: float = 1.0, runs: int = 5, seed: int = 0) -> dict[str, Any]:
    """Random games/s through each adapter (``None`` for an adapter whose library is not installed)."""
    return {key: measure(game, seconds, runs, seed) for key, _, measure in ADAPTERS}


# -- clone, resample, bots -------------------------------------------------------------------------------


def sample_states(game: Game, count: int, seed: int = 0) -> list[State]:
    """Decision states met along random games (what a bot is asked to think about)."""
    rng = random.Random(seed)
    states: list[State] = []
    while len(states) < count:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            if rng.random() < 0.1:
                states.append(state.clone())
            seat = rng.choice(state.current_players())
            state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    return states[:count]


def clone_and_resample(game: Game, samples: int = 200, seed: int = 0) -> dict[str, float]:
    """Microseconds per ``clone()`` and per ``resample()`` over states met in random play."""
    states = sample_states(game, samples, seed)
    rng = random.Random(seed)
    start = time.perf_counter()
    for state in states:
        state.clone()
    clone_us = (time.perf_counter() - start) / len(states) * 1e6
    start = time.perf_counter()
    for state in states:
        state.resample(state.current_players()[0], rng)
    resample_us = (time.perf_counter() - start) / len(states) * 1e6
    return {"clone_us": round(clone_us, 1), "resample_us": round(resample_us, 1)}


def bot_move_time(game: Game, spec: str, moves: int = 5, seed: int = 0) -> dict[str, float]:
    """Seconds per move of a bot (median and max over ``moves`` states met in random play)."""
    from ludotheque.bots import make_bot, step_bots

    bots = [make_bot(spec, game) for _ in range(game.players)]
    rng = random.Random(seed)
    times = []
    for state in sample_states(game, moves, seed):
        seat = state.current_players()[0]
        seated: list[Any] = [None] * game.players
        seated[seat] = bots[seat]
        start = time.perf_counter()
        step_bots(state, seated, rng)
        times.append(time.perf_counter() - start)
    return {"median_s": round(statistics.median(times), 3), "max_s": round(max(times), 3)}


# -- saving and restoring a game ---------------------------------------------------------------------------


def finished_table(game: Game, bots: str = "heuristic", seed: int = 0) -> Table:
    """A table on which ``bots`` (one bot spec for every seat) played a whole game, chance seeded by ``seed``."""
    from ludotheque.bots import make_bot

    table = Table(game, [make_bot(bots, game) for _ in range(game.players)], chance_rng=random.Random(seed))
    table.advance()
    if not table.is_over():
        raise RuntimeError(f"{game!r}: the bots stopped before the end")
    return table


def _save_pass(game: Game, moves: list[tuple[Actor, int]]) -> tuple[list[float], list[float]]:
    """Seconds per move of playing ``moves`` again (1) through a table whose seats are all people (``submit``;
    chance through ``step``), each move's record entry written as a server would store it, and (2) through
    ``State.apply_action`` alone (what a move costs without any log).  The two are timed move by move in one
    loop, so that a busy machine slows both alike."""
    chance_actions = iter([action for actor, action in moves if actor == CHANCE])
    table = Table(game, [None] * game.players, chance=lambda _: next(chance_actions))
    bare = game.new_initial_state()
    clock = time.perf_counter
    with_log, alone = [], []
    for actor, action in moves:
        start = clock()
        entry: LogEntry | None = table.step() if actor == CHANCE else table.submit(actor, action)
        assert entry is not None
        entry.record_entry()
        middle = clock()
        bare.apply_action(action, None if actor == CHANCE else actor)
        end = clock()
        with_log.append(middle - start)
        alone.append(end - middle)
    return with_log, alone


def _to_record_times(
    game: Game, moves: list[tuple[Actor, int]], positions: set[int], runs: int
) -> dict[int, float]:
    """Seconds of ``state.to_record()`` after the first ``p`` moves (median of ``runs`` calls), for each ``p`` in
    ``positions``."""
    state = game.new_initial_state()
    state.to_record()  # warm up: the first call may import or fill caches
    times = {}
    for done, (actor, action) in enumerate(moves, 1):
        state.apply_action(action, None if actor == CHANCE else actor)
        if done in positions:
            times[done] = _median_seconds(state.to_record, runs)
    return times


def _seconds(work: Callable[[], object], runs: int) -> list[float]:
    """Seconds of each of ``runs`` calls of ``work``."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return times


def _median_seconds(work: Callable[[], object], runs: int) -> float:
    return statistics.median(_seconds(work, runs))


def save_and_restore(
    game: Game, runs: int = 5, seed: int = 0, bots: str = "heuristic", samples: int = 5
) -> dict[str, Any]:
    """Per-move cost of saving a game and the cost of restoring it, on one game ``bots`` played to the end.

    Saving: each move played again through a ``Table`` (the log entry appended, its record entry written:
    ``table_move_us``) and, in the same loop, through ``State.apply_action`` alone (``apply_only_us``); the
    difference, move by move, is what the log costs (``log_us``).  The old way, ``state.to_record()`` after the
    move, replays the whole history: it is timed at up to ``samples`` positions of the first and of the last
    tenth of the game (``to_record_us``).  "first" and "last" are means over the first and the last tenth of
    the moves: equal when a move costs the same at any point of the game.

    Restoring: ``Table.restore_logged`` of the game's own log (what a server does at start: its actions were
    validated when first committed), ``Table.restore`` of the finished game's record (every action validated
    again; with raw actions, as ``Table.record()`` writes it) and of the same record in notation only, and
    ``ludotheque.replay`` of both."""
    import ludotheque

    played = finished_table(game, bots, seed)
    moves = [(entry.actor, entry.action) for entry in played.log]
    count = len(moves)
    tenth = max(1, count // 10)
    record = played.record()
    notation_only = {**record, "actions": [{"by": a["by"], "move": a["move"]} for a in record["actions"]]}

    def us(seconds: float) -> float:
        return round(seconds * 1e6, 2)

    def first_last(passes: list[list[float]]) -> dict[str, float]:
        # each move's median over the passes first (a pause of the machine hits one pass, not all), then means
        per_move = [statistics.median(times) for times in zip(*passes, strict=True)]
        return {
            "first": us(statistics.fmean(per_move[:tenth])),
            "last": us(statistics.fmean(per_move[-tenth:])),
            "all": us(statistics.fmean(per_move)),
        }

    passes = [_save_pass(game, moves) for _ in range(runs + 1)][1:]  # the first pass warms up
    table_us = first_last([with_log for with_log, _ in passes])
    bare_us = first_last([alone for _, alone in passes])
    log_us = first_last([[a - b for a, b in zip(*one, strict=True)] for one in passes])
    step = max(1, tenth // samples)
    early = set(range(1, tenth + 1, step)) if count else set()
    late = set(range(count - tenth + 1, count + 1, step)) if count else set()
    to_record = _to_record_times(game, moves, early | late, runs)
    restored = Table.restore(record)
    text = json.dumps(record)
    figures: dict[str, Any] = {
        "bots": bots,
        "moves": count,
        "deals": played.state.deals_completed(),
        "record_kb": round(len(text.encode()) / 1024, 1),
        "restored_equal": restored.state.history() == played.state.history()
        and restored.state.returns() == played.state.returns()
        and restored.record() == record,
        "table_move_us": table_us,
        "apply_only_us": bare_us,
        "log_us": log_us,
        "to_record_us": {
            "first": us(statistics.fmean(to_record[p] for p in early)) if early else 0.0,
            "last": us(statistics.fmean(to_record[p] for p in late)) if late else 0.0,
            "samples": len(early) + len(late),
        },
    }
    logged = [(entry.actor, entry.action, entry.notation) for entry in played.log]
    for key, work in (
        ("restore_logged", lambda: Table.restore_logged(game, logged)),
        ("restore", lambda: Table.restore(record)),
        ("restore_notation", lambda: Table.restore(notation_only)),
        ("replay", lambda: ludotheque.replay(record)),
        ("replay_notation", lambda: ludotheque.replay(notation_only)),
        ("json_parse", lambda: json.loads(text)),
    ):
        times = _seconds(work, runs)
        seconds = statistics.median(times)
        figures[f"{key}_ms"] = round(seconds * 1e3, 3)
        figures[f"{key}_us_per_move"] = round(seconds * 1e6 / max(1, count), 2)
        figures[f"{key}_min_ms"] = round(min(times) * 1e3, 3)  # the least disturbed run, on a busy machine
    return figures


# -- one game ----------------------------------------------------------------------------------------------


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
