"""The levels ``easy``, ``medium``, ``hard`` and ``expert`` for every game.

Levels are set by time: a move of ``medium`` takes at most 0.3 s of CPU, one of ``hard`` at most 2 s, so that the
pace stays a person's at every table; ``expert`` thinks up to 10 s, for analysis and the coach (the server does not
seat it: ``server/config.py`` names the levels a table offers).

* ``easy``: the game's heuristic with a share of random moves (it makes visible mistakes).
* ``medium``, ``hard``, ``expert``: ISMCTS with an iteration budget and a cap of CPU seconds (``time_limit``,
  counted on the thinking thread, so that a busy server does not make a level weaker).  The budget is what the
  level plays where the cap is not reached, which keeps arena games replayable; on a compiled engine the level
  searches ``compiled_scale`` times as many iterations (``compiled_iterations``), which still fit the cap there
  (``python -m ludotheque.bench.bots`` prints the seconds a move).

A game refines these in its own ``levels.py`` (``games/<id>/levels.py``, read through the game's furniture):

* ``LEVEL_SETTINGS``: per level, settings merged into ``DEFAULT_LEVELS``.  ISMCTS budgets are set for
  ``budget_players`` seats (default 2) and scaled down in proportion for more seats; ``by_players`` refines them
  for one player count (a measured budget) or replaces the level there by another kind of bot (``"kind":
  "noisy"``: a heuristic ``medium`` where the search could not be told from the heuristic it rolls out).
* ``forget(view, memory)``: the view a ``"kind": "forgetful"`` level's heuristic reads, with only the last
  ``memory`` turns remembered (Calcory, where memory is the game).
* ``BOTS``: the game's own bots (``bots/registry.py`` reads them).

The settings are plain data so that docs, benchmarks and arena journals can print them.
"""

from __future__ import annotations

import copy
from types import ModuleType
from typing import Any

from ludotheque.core import Bot, Game

LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "expert")

#: CPU seconds a move, at most, per searching level
THINKING_CAP: dict[str, float] = {"medium": 0.3, "hard": 2.0, "expert": 10.0}

DEFAULT_LEVELS: dict[str, dict[str, Any]] = {
    "easy": {"kind": "noisy", "epsilon": 0.3},
    "medium": {"kind": "ismcts", "iterations": 100, "time_limit": THINKING_CAP["medium"], "compiled_scale": 10},
    "hard": {"kind": "ismcts", "iterations": 400, "time_limit": THINKING_CAP["hard"], "compiled_scale": 20},
    # hard's search with four times its budget (more where compiled) and five times its time
    "expert": {"kind": "ismcts", "iterations": 1600, "time_limit": THINKING_CAP["expert"], "compiled_scale": 40},
}


def game_levels(game: Game) -> ModuleType | None:
    """The game's ``levels`` module (its level settings, forgetting rule and own bots), or None if it has none."""
    return game.game_type.optional_part("levels")  # None: the game keeps the generic levels


def level_settings(game: Game, level: str, *, search: bool = False) -> dict[str, Any]:
    """The settings of ``level`` for ``game`` at its player count (a copy): the ISMCTS budget is scaled to the
    seats, then a ``by_players`` entry for this player count, if any, overrides it (a measured budget, or another
    kind of bot).  ``search=True`` gives the level's ISMCTS settings even where the level does not search at this
    table (``ismcts:medium`` at a table whose ``medium`` is a heuristic): overrides of another kind are skipped."""
    if level not in DEFAULT_LEVELS:
        raise ValueError(f"unknown level {level!r} (levels: {', '.join(LEVELS)})")
    if level == "expert":
        return _expert(game)
    module = game_levels(game)
    overrides: dict[str, dict[str, Any]] = getattr(module, "LEVEL_SETTINGS", {})
    settings = _merged(dict(DEFAULT_LEVELS[level]), copy.deepcopy(overrides.get(level, {})), search)
    base_players = int(settings.pop("budget_players", 2))
    by_players: dict[int, dict[str, Any]] = settings.pop("by_players", {})
    if "iterations" in settings and game.players > base_players:
        # a rollout costs about one move per seat: more seats, fewer iterations in the same time
        settings["iterations"] = max(10, round(settings["iterations"] * base_players / game.players))
    settings = _merged(settings, by_players.get(game.players, {}), search)
    scale = settings.pop("compiled_scale", None)
    if scale is not None and "iterations" in settings:
        settings["compiled_iterations"] = int(settings["iterations"] * scale)
    return settings


def _expert(game: Game) -> dict[str, Any]:
    """``hard``'s search at this table (the game's measured rollouts and heuristic settings) with four times its
    budget, and the expert's cap and compiled scale."""
    settings = level_settings(game, "hard", search=True)
    expert = DEFAULT_LEVELS["expert"]
    settings["iterations"] *= expert["iterations"] // DEFAULT_LEVELS["hard"]["iterations"]
    settings["time_limit"] = expert["time_limit"]
    settings["compiled_iterations"] = settings["iterations"] * expert["compiled_scale"]
    return settings


def _merged(settings: dict[str, Any], override: dict[str, Any], search_only: bool) -> dict[str, Any]:
    """``settings`` refined by ``override``; an override of another kind replaces them (or, when only the search
    settings are wanted, is skipped)."""
    if override.get("kind", settings["kind"]) == settings["kind"]:
        return {**settings, **override}
    return settings if search_only else dict(override)


def level_bot(game: Game, level: str, overrides: dict[str, Any] | None = None, name: str | None = None) -> Bot:
    """The bot playing ``level`` at ``game``; ``overrides`` are ISMCTS settings (``time_limit``, ...)."""
    from ludotheque.bots.compiled import CompiledHeuristicBot
    from ludotheque.bots.forgetful import ForgetfulBot
    from ludotheque.bots.ismcts import ISMCTSBot
    from ludotheque.bots.noisy import NoisyBot

    settings = level_settings(game, level)
    kind = settings.pop("kind")
    name = name or level
    if kind in ("noisy", "forgetful") and overrides:
        # a time cap holds trivially for a heuristic (it moves in milliseconds), so ``medium:time=2`` works at every
        # table; any other search setting would be silently meaningless, hence an error
        unused = sorted(set(overrides) - {"time_limit", "heuristic_settings"})
        if unused:
            raise ValueError(f"level {level!r} of {game.id} plays a heuristic here; it takes no search settings "
                             f"({', '.join(unused)})")
    # the level's heuristic settings, refined by the spec's (``easy:h.spread=2``, ``hard:h.spread=2``)
    tuned = {**settings.get("heuristic_settings", {}), **(overrides or {}).get("heuristic_settings", {})}
    if kind == "noisy":
        heuristic = CompiledHeuristicBot(game.heuristic_bot_with(tuned), tuned)
        return NoisyBot(heuristic, float(settings["epsilon"]), name=name)
    if kind == "forgetful":
        forget = getattr(game_levels(game), "forget", None)
        if forget is None:
            raise ValueError(f"level {level!r} of {game.id} forgets, but {game.id} has no forgetting rule "
                             "(a forget(view, memory) function in its levels.py)")
        inner = ForgetfulBot(game.heuristic_bot_with(tuned), forget, int(settings["memory"]))
        return NoisyBot(inner, float(settings.get("epsilon", 0.0)), name=name)
    if kind == "ismcts":
        if "iterations" in (overrides or {}):  # ``hard:it=50``: that count on either engine and in any time,
            # unless cit= or time= are given too (overrides come after)
            settings.pop("compiled_iterations", None)
            settings.pop("time_limit", None)
        settings.update(overrides or {})
        if tuned:
            settings["heuristic_settings"] = tuned
        return ISMCTSBot(game, name=name, **settings)
    raise ValueError(f"unknown level kind {kind!r}")
