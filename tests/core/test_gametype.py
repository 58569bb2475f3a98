"""Each game's declaration (``GAME``) says what its engine does: checked against play, its files and its class."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from ludotheque.core import CoachThresholds, GameType, sample_chance
from ludotheque.core.gametype import OPTIONAL_PARTS, REQUIRED_PARTS, PartError
from ludotheque.games import REGISTRY, game_class, game_type, load_game

GAMES = sorted(REGISTRY)


def random_decisions(game_id: str, players: int, games: int = 3, seed: int = 0) -> list[tuple[int, ...]]:
    """The acting seats of every decision in a few random games."""
    game = load_game(game_id, players=players)
    rng = random.Random(seed)
    seen: list[tuple[int, ...]] = []
    for _ in range(games):
        state = game.new_initial_state()
        for _ in range(600):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            acting = state.current_players()
            seen.append(tuple(acting))
            state.apply_action(rng.choice(state.legal_actions(acting[0])), acting[0])
    return seen


@pytest.mark.parametrize("game_id", GAMES)
def test_the_class_takes_its_identity_from_the_declaration(game_id: str) -> None:
    declared = game_type(game_id)
    cls = game_class(game_id)
    assert cls.game_type is declared and declared.load_class() is cls
    assert (cls.id, cls.name, cls.min_players, cls.max_players) == (
        declared.id,
        declared.name,
        declared.min_players,
        declared.max_players,
    )
    assert declared.id == game_id and declared.package == REGISTRY[game_id]


@pytest.mark.parametrize("game_id", GAMES)
def test_simultaneous_moves_are_declared_as_play_shows_them(game_id: str) -> None:
    declared = game_type(game_id)
    players = max(2, declared.min_players)
    joint = any(len(acting) == players for acting in random_decisions(game_id, players))
    assert joint == declared.simultaneous


@pytest.mark.parametrize("game_id", GAMES)
def test_chance_and_score_order_are_declared_as_the_engine_plays(game_id: str) -> None:
    declared = game_type(game_id)
    game = load_game(game_id, players=declared.min_players)
    assert game.new_initial_state().is_chance_node() == declared.chance
    for players in range(declared.min_players, declared.max_players + 1):
        order = load_game(game_id, players=players).score_order()
        assert order in ("higher", "lower")
        if declared.score_order != "by_options":
            assert order == declared.score_order


@pytest.mark.parametrize("game_id", GAMES)
def test_hidden_information_means_a_determinization_can_differ(game_id: str) -> None:
    """A game declaring hidden information hides something from the seat to act somewhere in a random game: a
    resample differs from the truth while that seat's view stays the same."""
    declared = game_type(game_id)
    game = load_game(game_id, players=max(2, declared.min_players))
    rng = random.Random(1)
    differs = False
    state = game.new_initial_state()
    for _ in range(80):
        if state.is_terminal() or differs:
            break
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_players()[0]
        truth = state.to_record()["actions"]
        for seed in range(5):
            sample = state.resample(seat, random.Random(seed))
            assert sample.view(seat) == state.view(seat)
            differs = differs or sample.to_record()["actions"] != truth
        state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    assert differs == declared.hidden_information


@pytest.mark.parametrize("game_id", GAMES)
def test_a_match_of_hands_is_declared_where_the_engine_counts_hands(game_id: str) -> None:
    from ludotheque.core import State

    reference = type(load_game(game_id, players=game_type(game_id).min_players).new_reference_state())
    assert game_type(game_id).match_of_hands == (reference.deals_completed is not State.deals_completed)


@pytest.mark.parametrize("game_id", GAMES)
def test_the_declared_parts_are_the_packages_files(game_id: str) -> None:
    declared = game_type(game_id)
    folder = declared.web_folder.parent
    for part in REQUIRED_PARTS:
        assert declared.part(part).__name__ == f"{declared.package}.{part}"
    for part in OPTIONAL_PARTS:
        assert (folder / f"{part}.py").exists() == (part in declared.optional_parts), part
        module = declared.optional_part(part)
        assert (module is not None) == (part in declared.optional_parts)
    assert (declared.web_folder / "renderer.js").exists()
    assert isinstance(declared.coach_thresholds, CoachThresholds)
    low, middle, high = declared.coach_thresholds
    assert 0 < low < middle < high


def test_a_part_not_declared_is_refused_by_name() -> None:
    declared = game_type(GAMES[0])
    with pytest.raises(PartError, match="declares no part 'nowhere'"):
        declared.part("nowhere")
    with pytest.raises(PartError, match="not an optional part"):
        declared.optional_part("view")


def test_a_declaration_refuses_unknown_parts_and_player_counts() -> None:
    fields = {
        "id": "toy",
        "name": "Toy",
        "package": "toy",
        "game_class": "ToyGame",
        "simultaneous": False,
        "chance": False,
        "hidden_information": False,
        "score_order": "higher",
        "coach_thresholds": CoachThresholds(1, 2, 3),
    }
    with pytest.raises(ValueError, match="unknown optional parts"):
        GameType(min_players=2, max_players=2, optional_parts=frozenset({"tea"}), **fields)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="player counts"):
        GameType(min_players=3, max_players=2, **fields)  # type: ignore[arg-type]


def test_web_folders_live_in_the_game_packages() -> None:
    for game_id in GAMES:
        assert game_type(game_id).web_folder == Path(__file__).parents[2] / "src/ludotheque/games" / game_id / "web"
