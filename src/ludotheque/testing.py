"""Protocol checks any game must pass, in the spirit of OpenSpiel's ``random_sim_test``.

Game tests call ``random_sim_test`` with their own invariants; ``fuzz_games`` picks the quick share of the
fuzzing for ``make test`` and the long share for ``make fuzz`` (``LUDOTHEQUE_FUZZ=long``).
"""

from __future__ import annotations

import copy
import json
import os
import pickle
import random
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ludotheque.core import (
    CHANCE,
    Bot,
    Game,
    GameOverError,
    IllegalActionError,
    NotYourTurnError,
    State,
    replay_record,
    sample_chance,
)
from ludotheque.games import load_game

Invariant = Callable[[State], None]


def fuzz_games(quick: int, long: int) -> int:
    """How many random games a fuzz test plays: ``long`` under ``make fuzz``, else ``quick``."""
    return long if os.environ.get("LUDOTHEQUE_FUZZ") == "long" else quick


@dataclass
class SimStats:
    games: int = 0
    actions: int = 0
    chance_actions: int = 0
    illegal_probes: int = 0
    resamples: int = 0
    winners_count: dict[int, int] = field(default_factory=dict)

    def __str__(self) -> str:
        return (
            f"{self.games} games, {self.actions} actions ({self.chance_actions} chance), "
            f"{self.illegal_probes} illegal probes, {self.resamples} resamples"
        )


def snapshot(state: State) -> str:
    """Everything observable about a state, for 'unchanged' checks."""
    seats: list[int | None] = [None, *range(state.game.players)]
    return json.dumps(
        {
            "history": state.history(),
            "views": [state.view(seat) for seat in seats],
            "to_act": state.current_players(),
            "returns": state.returns(),
        },
        sort_keys=True,
    )


def check_step(state: State, rng: random.Random, stats: SimStats, deep: bool) -> None:
    """Protocol checks at one node; ``deep`` adds the costly ones (illegal probes, resample, notation)."""
    game = state.game
    acting = state.current_players()
    assert not (acting and state.is_chance_node()), "a chance node has no acting seat"
    assert all(0 <= p < game.players for p in acting), acting
    for seat in [None, *range(game.players)]:
        json.dumps(state.view(seat))
    if deep:
        for seat in range(game.players):
            tensor = state.observation_tensor(seat)
            assert tensor.shape == game.observation_tensor_shape(), (tensor.shape, game.observation_tensor_shape())
            assert tensor.dtype == np.float32 and bool(np.isfinite(tensor).all())
    if state.is_chance_node():
        outcomes = state.chance_outcomes()
        assert outcomes, "a chance node has outcomes"
        total = sum(p for _, p in outcomes)
        assert abs(total - 1.0) < 1e-9, f"chance probabilities sum to {total}"
        actions = [a for a, _ in outcomes]
        assert len(set(actions)) == len(actions), "chance outcomes are distinct"
        assert all(0 <= a < game.max_chance_outcomes() for a in actions), actions
        if deep:
            for action in rng.sample(actions, min(len(actions), 8)):
                text = state.action_to_string(action, CHANCE)
                assert state.string_to_action(text, CHANCE) == action, (text, action)
        return
    assert acting, "a non-terminal decision node has an acting seat"
    for seat in range(game.players):
        legal = state.legal_actions(seat)
        if seat not in acting:
            assert legal == [], f"seat {seat} does not act but has legal actions"
            continue
        assert legal, f"seat {seat} acts but has no legal action"
        assert legal == sorted(set(legal)), "legal actions are sorted and distinct"
        assert all(0 <= a < game.num_distinct_actions() for a in legal), "actions are in the action space"
        if deep:
            texts = set()
            for action in legal:
                text = state.action_to_string(action, seat)
                texts.add(text)
                assert state.string_to_action(text, seat) == action, (seat, text, action)
            assert len(texts) == len(legal), "notation tells legal actions apart"
    if deep:
        before = snapshot(state)
        seat = rng.choice(acting)
        legal_set = set(state.legal_actions(seat))
        illegal = [a for a in range(game.num_distinct_actions()) if a not in legal_set]
        if illegal:
            try:
                state.apply_action(rng.choice(illegal), seat)
            except IllegalActionError:
                stats.illegal_probes += 1
            else:
                raise AssertionError("an illegal action was accepted")
        idle = [p for p in range(game.players) if p not in acting]
        if idle:
            try:
                state.apply_action(state.legal_actions(seat)[0], idle[0])
            except NotYourTurnError:
                stats.illegal_probes += 1
            else:
                raise AssertionError("an out-of-turn action was accepted")
        assert snapshot(state) == before, "a rejected action changed the state"
        for observer in acting[:2]:
            twin = state.resample(observer, rng)
            assert twin.view(observer) == state.view(observer), "resample keeps the observer's view"
            assert twin.current_players() == state.current_players()
            assert twin.legal_actions(observer) == state.legal_actions(observer)
            stats.resamples += 1
        assert snapshot(state) == before, "resample changed the state it was drawn from"


def random_sim_test(
    game: Game,
    games: int,
    seed: int,
    invariants: Invariant | None = None,
    deep_every: int = 7,
    max_actions: int = 100_000,
) -> SimStats:
    """Play ``games`` uniformly random games, checking the protocol at every step and the game's own
    ``invariants`` after every action; every finished game must replay from its record to the same result."""
    rng = random.Random(seed)
    stats = SimStats()
    for _ in range(games):
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            deep = steps % deep_every == 0
            check_step(state, rng, stats, deep)
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                stats.chance_actions += 1
            else:
                seat = rng.choice(state.current_players())
                state.apply_action(rng.choice(state.legal_actions(seat)), seat)
            stats.actions += 1
            steps += 1
            if invariants is not None:
                invariants(state)
            assert steps <= max_actions, f"game did not end within {max_actions} actions"
        assert state.current_players() == [] and state.legal_actions() == []
        try:
            state.apply_action(0)
        except GameOverError:
            pass
        else:
            raise AssertionError("an action was accepted after the end")
        returns, winners = state.returns(), state.winners()
        assert len(returns) == game.players
        assert winners == sorted(set(winners)) and all(0 <= w < game.players for w in winners)
        record = state.to_record()
        again = replay_record(json.loads(json.dumps(record)), load_game)
        assert again.returns() == returns and again.winners() == winners, "record replays to the same end"
        assert again.history() == state.history(), "record replays the same actions"
        stats.games += 1
        for w in winners:
            stats.winners_count[w] = stats.winners_count.get(w, 0) + 1
    return stats


# --------------------------------------------------------------------------------------------------
# Table checks: schemas, structured moves, the per-seat event stream, fast restore
# --------------------------------------------------------------------------------------------------


@dataclass
class TableStats:
    games: int = 0
    actions: int = 0
    events: int = 0
    views_validated: int = 0
    moves_validated: int = 0
    determinizations: int = 0

    def __str__(self) -> str:
        return (
            f"{self.games} games, {self.actions} actions, {self.events} events, {self.views_validated} views and "
            f"{self.moves_validated} moves validated, {self.determinizations} determinizations compared"
        )


def _validator(schema: dict[str, object]) -> Callable[[object], None]:
    import jsonschema

    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)

    def validate(instance: object) -> None:
        error = jsonschema.exceptions.best_match(validator.iter_errors(instance))
        if error is not None:
            path = "/".join(str(p) for p in error.absolute_path)
            raise AssertionError(f"{schema.get('title', 'schema')}: at /{path}: {error.message}")

    return validate


def _replayed_events(game: Game, history: list[tuple[object, int]]) -> Any:
    from ludotheque.table import Table

    table = Table(game, [None] * game.players, events=True)
    for actor, action in history:
        table._apply(actor, action)  # type: ignore[arg-type]
    return table


def check_table(
    game: Game, games: int, seed: int, compare_every: int = 5, view_every: int = 1, max_actions: int = 100_000
) -> TableStats:
    """Play ``games`` random games on a ``Table`` with events and check, at every step, that every view
    (each seat's and the spectator's) and every move's structured form (legal moves and chance outcomes) match the
    game's schemas, and that events are JSON objects with a ``"type"``.

    Hidden information: every ``compare_every`` actions, for a random seat, a determinization of the game for that
    seat (``state.resample``: other hands redrawn, the seat's view unchanged) is replayed on another table, and the
    seat's whole event stream must be the same on both.  Since the two games differ only in what that seat could
    not see, an event that showed it more would differ somewhere; the spectator's stream is compared likewise.
    Each finished table must restore from its record, with raw actions and from notation alone.  ``view_every``
    validates the views at every k-th action only (and at the end), for games whose views grow with the game."""
    import json as _json

    from ludotheque.table import Table

    rng = random.Random(seed)
    view_ok, move_ok = _validator(game.view_schema()), _validator(game.move_schema())
    stats = TableStats()
    for _ in range(games):
        table = Table(game, [None] * game.players, events=True)
        state = table.state
        while not state.is_terminal():
            for seat in [None, *range(game.players)] if table.seq % view_every == 0 else []:
                view_ok(state.view(seat))
                stats.views_validated += 1
            if state.is_chance_node():
                action = sample_chance(state, rng)
                move_ok(state.action_to_json(action, CHANCE))
                entry = table._apply(CHANCE, action)
            else:
                seat = rng.choice(state.current_players())
                legal = table.legal_moves(seat)
                for move in rng.sample(legal, min(len(legal), 12)):
                    move_ok(move["move"])
                    stats.moves_validated += 1
                entry = table.submit(seat, rng.choice(legal)["notation"])
            for observer in [None, *range(game.players)]:
                for data in entry.seen_by(observer):
                    assert isinstance(data.get("type"), str), f"an event has a type: {data}"
                    _json.dumps(data)
                    stats.events += 1
            stats.actions += 1
            assert stats.actions <= max_actions * (stats.games + 1), "a game did not end"
            if table.seq % compare_every == 0:
                _compare_determinization(table, rng, stats)
        for seat in [None, *range(game.players)]:
            view_ok(state.view(seat))
        record = _json.loads(_json.dumps(table.record()))
        again = Table.restore(record)
        assert again.state.history() == state.history() and again.state.returns() == state.returns()
        by_notation = {**record, "actions": [{"by": a["by"], "move": a["move"]} for a in record["actions"]]}
        assert Table.restore(by_notation).state.history() == state.history()
        assert replay_record(record, load_game).history() == state.history()
        stats.games += 1
    return stats


def _compare_determinization(table: Any, rng: random.Random, stats: TableStats) -> None:
    state = table.state
    if state.is_terminal():
        return
    seat = rng.randrange(state.game.players)
    twin = state.resample(seat, rng)
    assert twin.view(seat) == state.view(seat), "resample keeps the seat's view"
    other = _replayed_events(state.game, twin.history())
    assert other.state.view(seat) == state.view(seat), "the determinization's history replays to its view"
    mine, theirs = table.events(seat), other.events(seat)
    for index, (a, b) in enumerate(zip(mine, theirs, strict=True)):
        assert a == b, f"seat {seat}'s event {index} depends on what it could not see: {a} vs {b}"
    assert table.events(None) == other.events(None), "the spectator's events depend on hidden cards"
    stats.determinizations += 1


def check_against_references(
    state: State, bot: Bot, references: Callable[[ExitStack], None], rng: random.Random, limit: int | None = None,
) -> int:
    """Play ``state`` out (the bot's move mostly, a random one sometimes; chance from ``rng``) and, at every
    decision, check that every seat's view and the spectator's (equal and pickled alike: the search keys its nodes on
    the pickle) and the bot's choice from the same view and seed stay the same when ``references`` puts the reference
    versions of a game's fast functions in place.  The decisions checked."""
    players = state.game.players
    seats = (None, *range(players))
    decisions = 0
    while not state.is_terminal() and (limit is None or decisions < limit):
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_players()[0]
        legal = state.legal_actions(seat)
        views = [state.view(s) for s in seats]
        mine, theirs = random.Random(decisions), random.Random(decisions)
        choice = bot.choose(copy.deepcopy(views[seat + 1]), legal, mine)
        with ExitStack() as stack:
            references(stack)
            assert [state.view(s) for s in seats] == views
            assert [pickle.dumps(state.view(s)) for s in seats] == [pickle.dumps(v) for v in views]
            assert bot.choose(copy.deepcopy(views[seat + 1]), legal, theirs) == choice
        assert mine.random() == theirs.random()  # both choices drew alike from their rng
        decisions += 1
        state.apply_action(choice if rng.random() < 0.8 else rng.choice(legal), seat)
    return decisions
