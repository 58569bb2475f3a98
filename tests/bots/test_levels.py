"""The levels: the settings every game resolves to (a regression table), and how a game declares its own."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest

from ludotheque.bots import ISMCTSBot, NoisyBot, UnknownBotError, make_bot
from ludotheque.bots.forgetful import ForgetfulBot
from ludotheque.bots.levels import LEVELS, game_levels, level_bot, level_settings
from ludotheque.core import Game
from ludotheque.games import load_game

from .toygames import SecretGame

#: ``level_settings(game, level)`` at every game, player count and level, as they resolved when the per-game
#: settings lived in one table of ``bots/levels.py``: moving them into each game's folder changed none.  Where
#: ``level_settings(..., search=True)`` differs (a level that plays a heuristic at that table), the entry is the
#: pair (settings, search settings).
RESOLVED: dict[tuple[str, int, str], Any] = {
    ("calcory", 2, "easy"): ({"kind": "forgetful", "epsilon": 0.1, "memory": 1}, {"kind": "noisy", "epsilon": 0.3}),
    ("calcory", 2, "medium"): (
        {"kind": "forgetful", "epsilon": 0.0, "memory": 6},
        {"kind": "ismcts", "iterations": 100},
    ),
    ("calcory", 2, "hard"): {"kind": "ismcts", "iterations": 800},
    ("calcory", 3, "easy"): ({"kind": "forgetful", "epsilon": 0.1, "memory": 1}, {"kind": "noisy", "epsilon": 0.3}),
    ("calcory", 3, "medium"): (
        {"kind": "forgetful", "epsilon": 0.0, "memory": 6},
        {"kind": "ismcts", "iterations": 67},
    ),
    ("calcory", 3, "hard"): {"kind": "ismcts", "iterations": 533},
    ("calcory", 4, "easy"): ({"kind": "forgetful", "epsilon": 0.1, "memory": 1}, {"kind": "noisy", "epsilon": 0.3}),
    ("calcory", 4, "medium"): (
        {"kind": "forgetful", "epsilon": 0.0, "memory": 6},
        {"kind": "ismcts", "iterations": 50},
    ),
    ("calcory", 4, "hard"): {"kind": "ismcts", "iterations": 400},
    ("cheese", 2, "easy"): {"kind": "noisy", "epsilon": 0.3},
    ("cheese", 2, "medium"): {"kind": "ismcts", "iterations": 40},
    ("cheese", 2, "hard"): {"kind": "ismcts", "iterations": 160},
    ("cheese", 3, "easy"): {"kind": "noisy", "epsilon": 0.3},
    ("cheese", 3, "medium"): {"kind": "ismcts", "iterations": 27},
    ("cheese", 3, "hard"): {"kind": "ismcts", "iterations": 107},
    ("cheese", 4, "easy"): {"kind": "noisy", "epsilon": 0.5},
    ("cheese", 4, "medium"): ({"kind": "noisy", "epsilon": 0.3}, {"kind": "ismcts", "iterations": 20}),
    ("cheese", 4, "hard"): {"kind": "ismcts", "iterations": 160},
    ("geier", 2, "easy"): {"kind": "noisy", "epsilon": 0.3},
    ("geier", 2, "medium"): {"kind": "ismcts", "iterations": 600},
    ("geier", 2, "hard"): {"kind": "ismcts", "iterations": 2400},
    ("geier", 3, "easy"): {"kind": "noisy", "epsilon": 0.3},
    ("geier", 3, "medium"): {"kind": "ismcts", "iterations": 400},
    ("geier", 3, "hard"): {"kind": "ismcts", "iterations": 1600},
    ("geier", 4, "easy"): {"kind": "noisy", "epsilon": 0.5},
    ("geier", 4, "medium"): {"kind": "ismcts", "iterations": 100, "rollout_epsilon": 0.5},
    ("geier", 4, "hard"): {"kind": "ismcts", "iterations": 1200, "rollout_epsilon": 0.5},
    ("geier", 5, "easy"): {"kind": "noisy", "epsilon": 0.3, "heuristic_settings": {"spread": 2}},
    ("geier", 5, "medium"): {"kind": "ismcts", "heuristic_settings": {"spread": 2}, "iterations": 240,
                             "rollout_epsilon": 0.5},
    ("geier", 5, "hard"): {"kind": "ismcts", "heuristic_settings": {"spread": 2}, "iterations": 960,
                           "rollout_epsilon": 0.3, "selection": "halving"},
    ("mice", 1, "easy"): {"kind": "noisy", "epsilon": 0.5},
    ("mice", 1, "medium"): ({"kind": "noisy", "epsilon": 0.3}, {"kind": "ismcts", "iterations": 120}),
    ("mice", 1, "hard"): {"kind": "ismcts", "iterations": 480},
    ("mice", 2, "easy"): {"kind": "noisy", "epsilon": 0.3},
    ("mice", 2, "medium"): {"kind": "ismcts", "iterations": 80},
    ("mice", 2, "hard"): {"kind": "ismcts", "iterations": 480},
    ("mice", 3, "easy"): {"kind": "noisy", "epsilon": 0.3},
    ("mice", 3, "medium"): ({"kind": "noisy", "epsilon": 0.0}, {"kind": "ismcts", "iterations": 80}),
    ("mice", 3, "hard"): {"kind": "ismcts", "iterations": 320},
    ("mice", 4, "easy"): {"kind": "noisy", "epsilon": 0.5},
    ("mice", 4, "medium"): ({"kind": "noisy", "epsilon": 0.3}, {"kind": "ismcts", "iterations": 60}),
    ("mice", 4, "hard"): {"kind": "ismcts", "iterations": 240},
    ("mice", 5, "easy"): {"kind": "noisy", "epsilon": 0.5},
    ("mice", 5, "medium"): ({"kind": "noisy", "epsilon": 0.3}, {"kind": "ismcts", "iterations": 48}),
    ("mice", 5, "hard"): {"kind": "ismcts", "iterations": 192},
    ("mu", 3, "easy"): {"kind": "noisy", "epsilon": 0.3},
    ("mu", 3, "medium"): {"kind": "ismcts", "iterations": 40, "max_rollout_steps": 150},
    ("mu", 3, "hard"): {"kind": "ismcts", "iterations": 160, "max_rollout_steps": 150},
    ("mu", 4, "easy"): {"kind": "noisy", "epsilon": 0.3},
    ("mu", 4, "medium"): {"kind": "ismcts", "iterations": 30, "max_rollout_steps": 150},
    ("mu", 4, "hard"): {"kind": "ismcts", "iterations": 120, "max_rollout_steps": 150},
    ("mu", 5, "easy"): {"kind": "noisy", "epsilon": 0.3},
    ("mu", 5, "medium"): (
        {"kind": "noisy", "epsilon": 0.0},
        {"kind": "ismcts", "iterations": 24, "max_rollout_steps": 150},
    ),
    ("mu", 5, "hard"): {"kind": "ismcts", "iterations": 240, "max_rollout_steps": 150},
    ("mu", 6, "easy"): {"kind": "noisy", "epsilon": 0.3},
    ("mu", 6, "medium"): (
        {"kind": "noisy", "epsilon": 0.15},
        {"kind": "ismcts", "iterations": 20, "max_rollout_steps": 150},
    ),
    ("mu", 6, "hard"): {"kind": "ismcts", "iterations": 240, "max_rollout_steps": 150},
    ("rummu", 3, "easy"): {"kind": "noisy", "epsilon": 0.3},
    ("rummu", 3, "medium"): {"kind": "ismcts", "iterations": 24, "max_rollout_steps": 100},
    ("rummu", 3, "hard"): {"kind": "ismcts", "iterations": 120, "max_rollout_steps": 100},
    ("rummu", 4, "easy"): {"kind": "noisy", "epsilon": 0.5},
    ("rummu", 4, "medium"): (
        {"kind": "noisy", "epsilon": 0.3},
        {"kind": "ismcts", "iterations": 30, "max_rollout_steps": 100},
    ),
    ("rummu", 4, "hard"): {"kind": "ismcts", "iterations": 120, "max_rollout_steps": 100},
    ("rummu", 5, "easy"): {"kind": "noisy", "epsilon": 0.5},
    ("rummu", 5, "medium"): (
        {"kind": "noisy", "epsilon": 0.3},
        {"kind": "ismcts", "iterations": 24, "max_rollout_steps": 100},
    ),
    ("rummu", 5, "hard"): {"kind": "ismcts", "iterations": 96, "max_rollout_steps": 100},
    ("rummu", 6, "easy"): {"kind": "noisy", "epsilon": 0.5},
    ("rummu", 6, "medium"): (
        {"kind": "noisy", "epsilon": 0.3},
        {"kind": "ismcts", "iterations": 20, "max_rollout_steps": 100},
    ),
    ("rummu", 6, "hard"): {"kind": "ismcts", "iterations": 80, "max_rollout_steps": 100},
    ("safaru", 2, "easy"): {"kind": "noisy", "epsilon": 0.3},
    ("safaru", 2, "medium"): {"kind": "ismcts", "iterations": 60},
    ("safaru", 2, "hard"): {"kind": "ismcts", "iterations": 320},
    ("safaru", 3, "easy"): {"kind": "noisy", "epsilon": 0.5},
    ("safaru", 3, "medium"): ({"kind": "noisy", "epsilon": 0.3}, {"kind": "ismcts", "iterations": 53}),
    ("safaru", 3, "hard"): {"kind": "ismcts", "iterations": 213, "rollout_epsilon": 0.5},
    ("safaru", 4, "easy"): {"kind": "noisy", "epsilon": 0.5},
    ("safaru", 4, "medium"): ({"kind": "noisy", "epsilon": 0.3}, {"kind": "ismcts", "iterations": 40}),
    ("safaru", 4, "hard"): {"kind": "ismcts", "iterations": 160},}


TABLES = sorted({(game_id, players) for game_id, players, _ in RESOLVED})


#: what every searching level adds to its budget: its cap of CPU seconds a move, and how many times its iterations
#: it searches on a compiled engine
TIMED: dict[str, tuple[float, int]] = {"medium": (0.3, 10), "hard": (2.0, 20), "expert": (10.0, 40)}


def timed(level: str, settings: dict[str, Any]) -> dict[str, Any]:
    """``settings`` of ``level`` as the levels by time give them: a search gets its cap and compiled budget."""
    if settings["kind"] != "ismcts":
        return settings
    cap, scale = TIMED[level]
    return {**settings, "time_limit": cap, "compiled_iterations": settings["iterations"] * scale}


def expert(hard: dict[str, Any]) -> dict[str, Any]:
    """expert at a table: hard's search there (its rollouts, heuristic settings) with four times its budget."""
    return timed("expert", {**hard, "iterations": hard["iterations"] * 4})


@pytest.mark.parametrize("table", TABLES, ids=[f"{game_id}-{players}" for game_id, players in TABLES])
def test_every_level_resolves_to_the_settings_it_always_had(table: tuple[str, int]) -> None:
    game = load_game(table[0], players=table[1])
    for level in LEVELS:
        if level == "expert":
            hard = RESOLVED[(*table, "hard")]
            assert not isinstance(hard, tuple)
            assert level_settings(game, level) == level_settings(game, level, search=True) == expert(hard)
            continue
        expected = RESOLVED[(*table, level)]
        plain, search = expected if isinstance(expected, tuple) else (expected, expected)
        assert level_settings(game, level) == timed(level, plain), (*table, level)
        assert level_settings(game, level, search=True) == timed(level, search), (*table, level)


def test_level_settings_are_copies() -> None:
    game = load_game("geier", players=5)
    level_settings(game, "easy")["heuristic_settings"]["spread"] = 9
    assert level_settings(game, "easy")["heuristic_settings"] == {"spread": 2}


def test_a_game_without_levels_plays_the_generic_ones() -> None:
    game = SecretGame(players=2)
    assert game_levels(game) is None
    assert level_settings(game, "easy") == {"kind": "noisy", "epsilon": 0.3}
    assert level_settings(game, "hard") == timed("hard", {"kind": "ismcts", "iterations": 400})
    assert level_settings(game, "expert") == timed("expert", {"kind": "ismcts", "iterations": 1600})
    assert isinstance(make_bot("hard", game), ISMCTSBot)


def with_levels(game: Game, **furniture: Any) -> Game:
    """``game`` whose ``levels`` part holds ``furniture`` instead of its own."""
    levels = SimpleNamespace(**furniture)
    declared = game.game_type
    game.game_type = SimpleNamespace(  # type: ignore[misc]
        optional_part=lambda name: levels if name == "levels" else None,
        optional_parts=declared.optional_parts - {"native"},  # the Python engine: the test's bots read its states
        part=declared.part,
    )
    return game


def test_a_forgetful_level_reads_the_games_forgetting_rule() -> None:
    asked: list[int] = []

    def forget(view: dict[str, Any], memory: int) -> dict[str, Any]:
        asked.append(memory)
        return view

    game = with_levels(load_game("geier", players=2),
                       LEVEL_SETTINGS={"easy": {"kind": "forgetful", "memory": 3}}, forget=forget)
    easy = level_bot(game, "easy")
    assert isinstance(easy, NoisyBot) and isinstance(easy.inner, ForgetfulBot) and easy.epsilon == 0.0
    state = game.new_initial_state()
    state.apply_action(0)
    assert easy.choose(state.view(0), state.legal_actions(0), random.Random(0)) in state.legal_actions(0)
    assert asked == [3]


def test_a_forgetful_level_without_a_forgetting_rule_is_refused() -> None:
    game = with_levels(load_game("geier", players=2), LEVEL_SETTINGS={"easy": {"kind": "forgetful", "memory": 3}})
    with pytest.raises(ValueError, match="geier has no forgetting rule"):
        level_bot(game, "easy")
    with pytest.raises(UnknownBotError, match="no forgetting rule"):
        make_bot("easy", game)


def test_a_game_declares_its_own_bots_with_their_player_counts_and_keys() -> None:
    built: list[dict[str, Any]] = []

    def build(game: Game, settings: dict[str, Any]) -> NoisyBot:
        built.append(settings)
        return NoisyBot(game.heuristic_bot(), 0.0, name="own")

    own = {"players": (2, 4), "keys": {"n": ("count", int)}, "build": build}
    two = with_levels(load_game("geier", players=2), BOTS={"own": own})
    assert make_bot("own:n=3", two).name == "own" and built == [{"count": 3}]
    with pytest.raises(UnknownBotError, match="'own' plays geier with 2 or 4 players, not 3"):
        make_bot("own", with_levels(load_game("geier", players=3), BOTS={"own": own}))
    with pytest.raises(UnknownBotError, match="unknown own argument 'm=1'"):
        make_bot("own:m=1", two)
    with pytest.raises(UnknownBotError, match="unknown bot 'own' at geier"):
        make_bot("own", load_game("geier", players=2))  # another game (here: the real Geier) does not have it
