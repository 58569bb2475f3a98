"""Bots by name, shared by the CLI and (later) the server: ``--bots random,heuristic,ismcts:hard``.

A bot spec is a name followed by ``:``-separated arguments (commas separate the bots of a list)::

    random                      uniform random legal moves
    heuristic[:key=value]       the game's hand-written bot, with its own settings if any (``heuristic:spread=2``)
    noisy[:eps][:key=value]     the heuristic with a share ``eps`` of random moves (default 0.3)
    easy | medium | hard | expert  the levels (``ludotheque.bots.levels``); ``hard:time=3`` caps hard's thinking
                                at 3 s of CPU a move (``expert``: for analysis, never seated by the server)
    ismcts[:LEVEL][:key=value]  ISMCTS: ``ismcts:hard``, ``ismcts:iterations=800:time=1.5``
    NAME[:key=value]            a game's own bot, declared in its ``levels.py`` (``BOTS``): Geier's ``gt``

ISMCTS keys: ``iterations`` (or ``it``), ``cit`` (the iterations where the game runs compiled; ``it`` alone sets
both), ``time`` (CPU seconds per move, a cap), ``eps`` (random share of the
rollouts), ``depth`` (rollout moves before the points so far decide), ``sel`` (``puct``: the tree; ``halving``:
flat Monte Carlo at the root by sequential halving), ``final`` (``best``: the most visited move; ``visits``: a move
drawn in proportion to its visits, among those visited at least a quarter as often as the most visited); ``inf``
(a pool of that many determinizations weighted by how likely the other seats' moves were, ``bots/inference.py``)
and ``meps`` (the share of random moves of the model those moves are weighed by, default 0.3);
``h.KEY`` sets the heuristic's own setting KEY for the search's prior and rollouts (``ismcts:hard:h.spread=0``).

A game's own bot is declared as ``BOTS = {"NAME": {"players": (2,), "keys": {"it": ("rollouts", int)}, "build":
make}}``: the player counts it plays (any other is refused), its ``key=value`` settings (each key -> the builder's
argument and its type) and ``make(game, settings) -> Bot``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ludotheque.bots.compiled import CompiledHeuristicBot
from ludotheque.bots.ismcts import ISMCTSBot
from ludotheque.bots.levels import LEVELS, game_levels, level_bot, level_settings
from ludotheque.bots.noisy import NoisyBot
from ludotheque.bots.random_bot import RandomBot
from ludotheque.core import Bot, Game, LudothequeError


class UnknownBotError(LudothequeError):
    """No bot has that name, or its arguments are wrong."""


def _no_args(name: str, args: list[str]) -> None:
    if args:
        raise UnknownBotError(f"bot {name!r} takes no arguments (got {':'.join(args)!r})")


def _random(game: Game, args: list[str]) -> Bot:
    _no_args("random", args)
    return RandomBot()


def _setting_value(text: str) -> float | str:
    try:
        return float(text)
    except ValueError:
        return text


def _tuned_heuristic(game: Game, pairs: list[str], spec: str) -> Bot:
    """The game's heuristic with its own settings, given as ``key=value`` (``heuristic:spread=2`` at Geier)."""
    settings: dict[str, float | str] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep:
            raise UnknownBotError(f"{spec}: a heuristic setting is key=value, not {pair!r}")
        settings[key.strip()] = _setting_value(value.strip())
    try:
        return CompiledHeuristicBot(game.heuristic_bot_with(settings), settings)
    except (TypeError, ValueError) as error:
        raise UnknownBotError(f"{spec}: {error}") from error


def _heuristic(game: Game, args: list[str]) -> Bot:
    return _tuned_heuristic(game, args, "heuristic")


def _noisy(game: Game, args: list[str]) -> Bot:
    share = [a for a in args if "=" not in a]
    pairs = [a for a in args if "=" in a]
    if len(share) > 1:
        raise UnknownBotError("noisy takes one share of random moves, then the heuristic's settings: noisy:0.3")
    try:
        epsilon = float(share[0]) if share else 0.3
        inner = _tuned_heuristic(game, pairs, "noisy")
        return NoisyBot(inner, epsilon, name=":".join([f"noisy:{epsilon:g}", *pairs]))
    except UnknownBotError:
        raise
    except ValueError as error:
        raise UnknownBotError(f"noisy: {error}") from error


def _flag(text: str) -> bool:
    """``1``/``0``, ``true``/``false``, ``on``/``off``."""
    word = text.strip().lower()
    if word in ("1", "true", "on", "yes"):
        return True
    if word in ("0", "false", "off", "no"):
        return False
    raise ValueError(f"{text!r} is not 0 or 1")


_ISMCTS_KEYS: dict[str, tuple[str, Any]] = {
    "iterations": ("iterations", int),
    "it": ("iterations", int),
    # the budget on a compiled engine, where a level's differs (bots/levels.py); ``it`` alone sets both and lifts
    # the level's time cap
    "cit": ("compiled_iterations", int),
    # CPU seconds a move, at most
    "time": ("time_limit", float),
    "eps": ("rollout_epsilon", float),
    "depth": ("max_rollout_steps", int),
    "sel": ("selection", str),
    # 0: this package's Python loop even where the game runs compiled (the reference the compiled search is
    # measured against)
    "native": ("native", _flag),
    "final": ("final", str),
    # inference (bots/inference.py): a pool of N determinizations weighted by the other seats' moves under the
    # heuristic with a share meps of random moves
    "inf": ("inference", int),
    "meps": ("model_epsilon", float),
}


def _keyed(arg: str, keys: dict[str, tuple[str, Any]], bot: str, known: str) -> tuple[str, object]:
    """One ``key=value`` argument of a bot with a key table: the setting's field and its typed value."""
    key, sep, value = arg.partition("=")
    if not sep or key.strip() not in keys:
        raise UnknownBotError(f"unknown {bot} argument {arg!r} (keys: {', '.join(keys)}{known})")
    field, kind = keys[key.strip()]
    try:
        return field, kind(value.strip())
    except ValueError as error:
        raise UnknownBotError(f"{bot} argument {arg!r}: {error}") from error


def _ismcts_settings(args: list[str], settings: dict[str, object]) -> dict[str, object]:
    settings = dict(settings)
    given: dict[str, object] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        key = key.strip()
        if sep and key.startswith("h."):
            # a setting of the heuristic the search uses as prior and rollout policy: ``h.spread=2``
            tuned = dict(settings.get("heuristic_settings") or {})  # type: ignore[call-overload]
            tuned[key[2:]] = _setting_value(value.strip())
            settings["heuristic_settings"] = tuned
            continue
        field, typed = _keyed(arg, _ISMCTS_KEYS, "ISMCTS", "; or a level")
        given[field] = typed
    if "iterations" in given:
        # an explicit count is the count, on either engine and in any time (unless cit= or time= say otherwise):
        # what a measurement asks for
        settings.pop("compiled_iterations", None)
        settings.pop("time_limit", None)
    return {**settings, **given}


def _ismcts(game: Game, args: list[str]) -> Bot:
    level = "medium"
    if args and args[0] in LEVELS:
        level, args = args[0], args[1:]
    # the level's search settings, also where the level itself plays a heuristic at this table
    base = level_settings(game, level, search=True)
    if base["kind"] != "ismcts":
        raise UnknownBotError(f"ismcts:{level}: the level {level!r} is not a search (levels that are: medium, hard)")
    settings = _ismcts_settings(args, {k: v for k, v in base.items() if k != "kind"})
    settings.setdefault("name", "ismcts:" + ":".join([level, *args]) if args or level != "medium" else "ismcts")
    try:
        return ISMCTSBot(game, **settings)  # type: ignore[arg-type]
    except (TypeError, ValueError) as error:
        raise UnknownBotError(f"ismcts: {error}") from error


def _oracle(game: Game, args: list[str]) -> Bot:
    """``oracle`` (hard's search settings) or ``oracle:LEVEL``, with ISMCTS's keys after: a search that sees every
    card, for measurements only (``bots/oracle.py``)."""
    from ludotheque.bots.oracle import OracleBot

    level = "hard"
    if args and args[0] in LEVELS:
        level, args = args[0], args[1:]
    base = level_settings(game, level, search=True)
    if base["kind"] != "ismcts":
        raise UnknownBotError(f"oracle:{level}: the level {level!r} is not a search (levels that are: medium, hard)")
    settings = _ismcts_settings(args, {k: v for k, v in base.items() if k != "kind"})
    settings["name"] = ":".join(["oracle", *([level] if level != "hard" else []), *args])
    try:
        return OracleBot(game, **settings)
    except (TypeError, ValueError) as error:
        raise UnknownBotError(f"oracle: {error}") from error


def _level(level: str) -> Callable[[Game, list[str]], Bot]:
    def make(game: Game, args: list[str]) -> Bot:
        overrides: dict[str, object] = {}
        if args:
            overrides = _ismcts_settings(args, {})
        try:
            return level_bot(game, level, overrides, name=":".join([level, *args]))
        except (TypeError, ValueError) as error:
            raise UnknownBotError(f"{level}: {error}") from error

    return make


def game_bots(game: Game) -> dict[str, dict[str, Any]]:
    """The game's own bots (``BOTS`` in its ``levels.py``), by spec name; none for most games."""
    bots: dict[str, dict[str, Any]] = getattr(game_levels(game), "BOTS", {})
    return bots


def _game_bot(game: Game, name: str, args: list[str]) -> Bot:
    """The game's own bot ``name``, built from its ``key=value`` arguments."""
    declared = game_bots(game)[name]
    players = tuple(declared["players"])
    if game.players not in players:
        counts = " or ".join(str(n) for n in players)
        raise UnknownBotError(f"the bot {name!r} plays {game.id} with {counts} players, not {game.players}")
    keys: dict[str, tuple[str, type]] = declared["keys"]
    settings = dict(_keyed(arg, keys, name, "") for arg in args)
    try:
        bot: Bot = declared["build"](game, settings)
    except (TypeError, ValueError) as error:
        raise UnknownBotError(f"{name}: {error}") from error
    return bot


BOTS: dict[str, Callable[[Game, list[str]], Bot]] = {
    "random": _random,
    "heuristic": _heuristic,
    "noisy": _noisy,
    "easy": _level("easy"),
    "medium": _level("medium"),
    "hard": _level("hard"),
    "expert": _level("expert"),
    "ismcts": _ismcts,
    "oracle": _oracle,
}


def bot_names(game: Game | None = None) -> list[str]:
    """The bots every game has, then, if a game is given, its own that play at its player count."""
    return [*BOTS, *([] if game is None else own_bot_names(game))]


def _split(spec: str) -> tuple[str, list[str]]:
    """A spec's bot name and its non-empty arguments."""
    name, *args = [part.strip() for part in spec.strip().split(":")]
    return name, [a for a in args if a]


def own_bot_names(game: Game) -> list[str]:
    """The game's own bots that play at its player count (Geier's ``gt`` at two players), by spec name."""
    return [name for name, bot in game_bots(game).items() if game.players in bot["players"]]


def has_settings(spec: str) -> bool:
    """Whether a spec sets anything beyond a bot's name (``hard:time=60``, ``ismcts:hard``, ``noisy:0.1``)."""
    return bool(_split(spec)[1])


def is_search(spec: str, game: Game) -> bool:
    """Whether the bot ``spec`` searches at ``game`` (its moves take up to seconds), rather than playing a
    heuristic or at random (milliseconds).  A level is what it plays at this player count: ``medium`` is a
    heuristic at some tables.  A game's own bots, and anything unknown, count as searches."""
    name, _ = _split(spec)
    if name in ("random", "heuristic", "noisy"):
        return False
    if name in LEVELS:
        try:
            return bool(level_settings(game, name)["kind"] == "ismcts")
        except ValueError:
            return True
    return True


def make_bot(spec: str, game: Game) -> Bot:
    """A bot for ``game`` from its spec (``"random"``, ``"heuristic"``, ``"ismcts:hard"``, ``"hard:time=2"``)."""
    name, args = _split(spec)
    if name in BOTS:
        return BOTS[name](game, args)
    if name in game_bots(game):
        return _game_bot(game, name, args)
    raise UnknownBotError(f"unknown bot {spec!r} at {game.id} (bots: {', '.join(bot_names(game))})")


def takeover_spec(spec: str, game: Game) -> str:
    """The spec a bot plays a person's seat with (a seat the person left, or whose time ran out): ``spec`` with the
    settings the game's ``levels.py`` gives such a bot (``TAKEOVER``), when ``spec`` is a plain level.  Why: people's
    seats taken over by bots of the table's one level would otherwise play alike, and where seats decide at once
    with the same cards (Geier's first rounds, and every round after a tie) alike means the same card, which cancels
    (geier-3): round after round.  ``TAKEOVER`` keeps the level and makes each bot draw its own bid: the heuristic's
    settings (``heuristic_settings``) for every level, and a search's ``final`` choice for the levels that search."""
    name, args = _split(spec)
    takeover: dict[str, Any] = getattr(game_levels(game), "TAKEOVER", {})
    if name not in LEVELS or args or not takeover:
        return spec
    extra = [f"h.{key}={value}" for key, value in takeover.get("heuristic_settings", {}).items()]
    if level_settings(game, name)["kind"] == "ismcts" and "final" in takeover:
        extra.append(f"final={takeover['final']}")
    return ":".join([name, *extra])


def spec_level(spec: str) -> str | None:
    """The level a spec plays at (``hard``, ``hard:time=3``, ``ismcts:hard``; plain ``ismcts`` searches with
    medium's settings), or None for a bot that is no level."""
    name, args = _split(spec)
    if name in LEVELS:
        return name
    if name == "ismcts":
        return args[0] if args and args[0] in LEVELS else "medium"
    return None


def parse_bots(specs: str, game: Game, seats: int) -> list[Bot]:
    """``"random,heuristic"`` -> bots for ``seats`` seats; a single name fills every seat."""
    names = [s for s in specs.split(",") if s.strip()] if specs else ["random"]
    if len(names) == 1:
        names = names * seats
    if len(names) != seats:
        raise UnknownBotError(f"{seats} bots are needed, {len(names)} were given ({specs!r})")
    return [make_bot(name, game) for name in names]
