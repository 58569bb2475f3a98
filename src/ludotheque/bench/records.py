"""The per-move cost of saving a game (the table's log) and the cost of restoring it."""

from __future__ import annotations

import json
import random
import statistics
import time
from typing import Any

from ludotheque.bench.timing import median_seconds, seconds_of
from ludotheque.core import CHANCE, Actor, Game
from ludotheque.table import LogEntry, Table


def finished_table(game: Game, bots: str = "heuristic", seed: int = 0) -> Table:
    """A table on which ``bots`` (one bot spec for every seat) played a whole game, chance seeded by ``seed``."""
    from ludotheque.bots import make_bot

    table = Table(game, [make_bot(bots, game) for _ in range(game.players)], chance_rng=random.Random(seed))
    table.advance()
    if not table.is_over():
        raise RuntimeError(f"{game!r}: the bots stopped before the end")
    return table


def save_pass(game: Game, moves: list[tuple[Actor, int]]) -> tuple[list[float], list[float]]:
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
            times[done] = median_seconds(state.to_record, runs)
    return times


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
    from ludotheque.games import replay

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

    passes = [save_pass(game, moves) for _ in range(runs + 1)][1:]  # the first pass warms up
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
        ("replay", lambda: replay(record)),
        ("replay_notation", lambda: replay(notation_only)),
        ("json_parse", lambda: json.loads(text)),
    ):
        times = seconds_of(work, runs)
        seconds = statistics.median(times)
        figures[f"{key}_ms"] = round(seconds * 1e3, 3)
        figures[f"{key}_us_per_move"] = round(seconds * 1e6 / max(1, count), 2)
        figures[f"{key}_min_ms"] = round(min(times) * 1e3, 3)  # the least disturbed run, on a busy machine
    return figures
