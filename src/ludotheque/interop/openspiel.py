"""Every ludotheque game as an OpenSpiel Python game.

``register()`` registers ``python_ludotheque_<game>`` for each registered game; then
``pyspiel.load_game("python_ludotheque_geier", {"players": 3})`` gives a ``pyspiel.Game`` that OpenSpiel's
tests and algorithms use like any other.  Parameters: ``players`` (default: the fewest the game allows),
``utility`` (``"returns"``: the points as the rules count them, the default; ``"win_loss"``: +1 each winner,
-1 each other seat, 0 when nobody wins), ``turn_based`` (see below), ``max_moves`` (the game is cut, terminal,
after that many decisions: returns are then the points so far, or 0 for ``win_loss``; default
``DEFAULT_MAX_MOVES``, far past the longest random game of every game that ends, so that random play, OpenSpiel's
``random_sim_test`` and MCTS rollouts end on every game; 0 = no cut), ``perfect_recall`` (see below), and the
game's own options.

- Chance nodes are the engine's chance nodes (``chance_outcomes()``; chance mode ``EXPLICIT_STOCHASTIC``).
- A decision where every seat chooses at once (Hol's der Geier) is a simultaneous node (``_apply_actions``), and
  the game's dynamics is then ``SIMULTANEOUS``: whether a game has such decisions is found by playing a few
  random games of each configuration (cached).  Other decisions are sequential nodes.  With
  ``turn_based=True`` the dynamics is ``SEQUENTIAL`` and a joint decision is taken seat after seat, each seat
  seeing none of the choices made before it (views hide pending choices): this is what sequential algorithms
  such as ISMCTS need.
- Every game is declared ``IMPERFECT_INFORMATION``, ``GENERAL_SUM``, ``TERMINAL`` rewards (returns are 0
  until the end).  Utility bounds are ``±UTILITY_BOUND`` for ``returns`` (the protocol does not bound points)
  and ``±1`` for ``win_loss``; ``max_game_length`` is ``max_moves`` (``MAX_GAME_LENGTH`` with no cut).
- Observation (``observation_string``/``observation_tensor``): the seat's ``view`` as compact JSON and
  ``state.observation_tensor(seat)``, shaped ``game.observation_tensor_shape()``.  Information state
  (``information_state_string``): with ``perfect_recall=True`` (default) a digest of the seat's views before
  each of its own moves and those moves, then the current view; with ``perfect_recall=False`` the current view
  alone (much cheaper to maintain, exact when the view keeps everything the seat has seen).  No
  information-state tensor.
- ``resample_from_infostate(player, sampler)`` uses the engine's ``resample``, so ISMCTS searches over worlds
  consistent with what the seat has seen.
- Serialization (``serialize``, pickling, ``serialize_game_and_state``) stores the ludotheque record of the
  game (notation, see ``docs/architecture.md``) and replays it.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from typing import Any, Final

import numpy as np
import pyspiel

from ludotheque.core import CHANCE, Actor, Game, State
from ludotheque.core.bot import Sampler
from ludotheque.games import game_class, game_ids, load_game, replay
from ludotheque.interop._common import DEFAULT_MAX_MOVES, REWARD_MODES, final_rewards, has_joint_decisions

__all__ = [
    "DEFAULT_MAX_MOVES",
    "MAX_GAME_LENGTH",
    "UTILITY_BOUND",
    "LudothequeOpenSpielGame",
    "LudothequeOpenSpielState",
    "OpenSpielBot",
    "from_ludotheque",
    "game_name",
    "load",
    "register",
]

PREFIX: Final = "python_ludotheque_"
UTILITY_BOUND: Final = 1_000_000.0
MAX_GAME_LENGTH: Final = 100_000
ADAPTER_PARAMS: Final = ("players", "turn_based", "utility", "max_moves", "perfect_recall")


def game_name(game_id: str) -> str:
    """The OpenSpiel short name of a ludotheque game: ``python_ludotheque_<id>``."""
    return f"{PREFIX}{game_id}"


def _parameter_spec(game_id: str) -> dict[str, Any]:
    cls = game_class(game_id)
    spec: dict[str, Any] = {
        "players": cls.min_players,
        "turn_based": False,
        "utility": "returns",
        "max_moves": DEFAULT_MAX_MOVES,
        "perfect_recall": True,
    }
    for option in cls.option_specs:
        if option.name in spec:
            raise ValueError(f"{game_id}: option {option.name!r} clashes with an OpenSpiel adapter parameter")
        spec[option.name] = option.default
    return spec


def _game_type(game_id: str, simultaneous: bool) -> Any:
    cls = game_class(game_id)
    dynamics = pyspiel.GameType.Dynamics
    return pyspiel.GameType(
        short_name=game_name(game_id),
        long_name=f"Python ludotheque {cls.name}",
        dynamics=dynamics.SIMULTANEOUS if simultaneous else dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_spec(game_id),
        default_loadable=True,
        provides_factored_observation_string=False,
    )


class LudothequeOpenSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A configured ludotheque game seen from OpenSpiel."""

    def __init__(self, game_id: str, params: dict[str, Any]) -> None:
        params = {**_parameter_spec(game_id), **dict(params)}
        options = {k: v for k, v in params.items() if k not in ADAPTER_PARAMS}
        utility = str(params["utility"])
        if utility not in REWARD_MODES:
            raise ValueError(f"utility must be one of {', '.join(REWARD_MODES)}, not {utility!r}")
        self.ludo: Game = load_game(game_id, players=int(params["players"]), **options)
        self.utility = utility
        self.perfect_recall = bool(params["perfect_recall"])
        self.max_moves = int(params["max_moves"])
        if self.max_moves < 0:
            raise ValueError(f"max_moves must be 0 (no cut) or positive, not {self.max_moves}")
        self.joint = not bool(params["turn_based"]) and has_joint_decisions(self.ludo)
        bound = 1.0 if utility == "win_loss" else UTILITY_BOUND
        info = pyspiel.GameInfo(
            num_distinct_actions=self.ludo.num_distinct_actions(),
            max_chance_outcomes=self.ludo.max_chance_outcomes(),
            num_players=self.ludo.players,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=None,
            max_game_length=self.max_moves or MAX_GAME_LENGTH,
        )
        super().__init__(_game_type(game_id, self.joint), info, params)

    def new_initial_state(self) -> LudothequeOpenSpielState:
        return LudothequeOpenSpielState(self)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickled as its game string (``python_ludotheque_geier(players=3,...)``), loaded again on unpickling."""
        return (_load_game_string, (str(self),))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> LudothequeObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return LudothequeObserver(self.ludo, iig_obs_type)


class _Trail:
    """Perfect recall, computed only when asked: per seat, a digest of its view before each of its moves and the
    move.  Moving records only where in the history each seat moved; ``digest`` replays a shadow copy of the game
    up to the present (once: later calls go on from where it stopped), so random play pays nothing for it."""

    __slots__ = ("digests", "done", "marks", "shadow")

    def __init__(self, players: int) -> None:
        self.marks: list[list[int]] = [[] for _ in range(players)]  # history indices of each seat's moves
        self.digests = [""] * players  # each seat's digest over its moves replayed so far
        self.done = 0  # history actions the shadow has replayed
        self.shadow: State | None = None

    def moved(self, seat: int, index: int) -> None:
        self.marks[seat].append(index)

    def digest(self, state: State, seat: int) -> str:
        if self.shadow is None:
            self.shadow = state.game.new_initial_state()
        history = state.history()
        mover = {index: s for s, marks in enumerate(self.marks) for index in marks if index >= self.done}
        for index in range(self.done, len(history)):
            actor, action = history[index]
            if index in mover:
                who = mover[index]
                seen = f"{self.digests[who]}|{_view_text(self.shadow, who)}|{action}"
                self.digests[who] = hashlib.sha1(seen.encode()).hexdigest()
            self.shadow.apply_action(action, None if actor == CHANCE else actor)
        self.done = len(history)
        return self.digests[seat]

    def __deepcopy__(self, memo: dict[int, Any]) -> _Trail:
        twin = _Trail(len(self.marks))
        twin.marks = [list(m) for m in self.marks]
        twin.digests = list(self.digests)
        twin.done = self.done
        twin.shadow = None if self.shadow is None else self.shadow.clone()
        return twin


class _Engine:
    """Holds the engine state: copied with ``clone()``, pickled as the game's record (replayed on load)."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        return _Engine(self.state.clone())

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (_engine_from_record, (json.dumps(self.state.to_record()),))


def _load_game_string(text: str) -> LudothequeOpenSpielGame:
    register()
    game: LudothequeOpenSpielGame = pyspiel.load_game(text)
    return game


def _engine_from_record(record: str) -> _Engine:
    return _Engine(replay(record))


def _view_text(state: State, seat: int | None) -> str:
    return json.dumps(state.view(seat), sort_keys=True, separators=(",", ":"))


class LudothequeOpenSpielState(pyspiel.State):  # type: ignore[misc]
    """One position; the engine state lives in ``self._engine.state``."""

    def __init__(self, game: LudothequeOpenSpielGame) -> None:
        super().__init__(game)
        self._engine = _Engine(game.ludo.new_initial_state())
        self._joint = game.joint
        self._utility = game.utility
        self._max_moves = game.max_moves
        self._recall = game.perfect_recall
        self._moves = 0  # decisions taken (a simultaneous node counts once), for max_moves
        self._next: int | None = None  # turn-based: the acting seat whose move comes next (replays name it)
        self._player: int | None = None  # current_player(), once worked out for this position
        self._legal: dict[int, list[int]] = {}  # legal actions per seat, once listed for this position
        self._trail = _Trail(game.ludo.players) if self._recall else None

    @property
    def ludo_state(self) -> State:
        """The ludotheque state (read it; change it only through OpenSpiel's ``apply_action``)."""
        return self._engine.state

    # -- OpenSpiel API ------------------------------------------------------------------------------

    def current_player(self) -> int:
        # OpenSpiel asks several times per action: worked out once after each action (``_moved``)
        if self._player is None:
            self._player = self._current_player()
        return self._player

    def _current_player(self) -> int:
        state = self._engine.state
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if state.is_chance_node():
            return int(pyspiel.PlayerId.CHANCE)
        acting = state.current_players()
        if self._joint and len(acting) == state.game.players:
            return int(pyspiel.PlayerId.SIMULTANEOUS)
        return self._next if self._next in acting else acting[0]

    def _legal_actions(self, player: int) -> list[int]:
        # OpenSpiel lists them again to check each action it applies: listed once per position and seat
        legal = self._legal.get(player)
        if legal is None:
            legal = self._legal[player] = [] if self.is_terminal() else self._engine.state.legal_actions(player)
        return legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [] if self.is_terminal() else self._engine.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        state = self._engine.state
        if state.is_chance_node():
            state.apply_action(int(action))
        else:
            self._play(self.current_player(), int(action))
            self._next = None
            self._moves += 1
        self._player = None
        self._legal = {}

    def _apply_actions(self, actions: list[int]) -> None:
        state = self._engine.state
        for seat in state.current_players():
            self._play(seat, int(actions[seat]))
        self._moves += 1
        self._player = None
        self._legal = {}

    def _action_to_string(self, player: int, action: int) -> str:
        actor: Actor = CHANCE if player == int(pyspiel.PlayerId.CHANCE) else int(player)
        return self._engine.state.action_to_string(int(action), actor)

    def is_terminal(self) -> bool:
        """The end of the game, or ``max_moves`` decisions (unless it is 0)."""
        return self._engine.state.is_terminal() or 0 < self._max_moves <= self._moves

    def is_truncated(self) -> bool:
        """Ended by ``max_moves`` before the game's own end."""
        return self.is_terminal() and not self._engine.state.is_terminal()

    def returns(self) -> list[float]:
        """0 until the end; then the utility (``win_loss`` gives 0 to all after a truncation: nobody won)."""
        state = self._engine.state
        if not self.is_terminal():
            return [0.0] * state.game.players
        return final_rewards(state, self._utility)

    def __str__(self) -> str:
        """The spectator's view (public information) and the number of actions so far."""
        state = self._engine.state
        return f"{_view_text(state, None)}\nactions: {len(state.history())}, moves: {self._moves}"

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> LudothequeOpenSpielState:
        """A state ``player_id`` cannot tell from this one, drawn with the engine's ``resample``."""
        seed = int(probability_sampler() * 2**53)
        twin = self._engine.state.resample(int(player_id), random.Random(seed))
        return self._replayed(twin.history())

    # -- information state --------------------------------------------------------------------------

    def information_state_text(self, seat: int) -> str:
        if self._trail is None:
            return _view_text(self._engine.state, seat)
        return f"{self._trail.digest(self._engine.state, seat)}|{_view_text(self._engine.state, seat)}"

    def observation_text(self, seat: int | None) -> str:
        return _view_text(self._engine.state, seat)

    # -- helpers ------------------------------------------------------------------------------------

    def _play(self, seat: int, action: int) -> None:
        state = self._engine.state
        state.apply_action(action, seat)  # IllegalActionError (a ValueError) leaves the state unchanged
        if self._trail is not None:
            self._trail.moved(seat, len(state.history()) - 1)

    def _replayed(self, history: list[tuple[Any, int]]) -> LudothequeOpenSpielState:
        """A fresh OpenSpiel state with this engine history (so OpenSpiel's own history is right too)."""
        return _replay(self.get_game(), history)


def _replay(game: LudothequeOpenSpielGame, history: list[tuple[Any, int]]) -> LudothequeOpenSpielState:
    fresh: LudothequeOpenSpielState = game.new_initial_state()
    index = 0
    while index < len(history):
        if fresh.current_player() == int(pyspiel.PlayerId.SIMULTANEOUS):
            n = fresh.num_players()
            chunk = history[index : index + n]
            if sorted(int(actor) for actor, _ in chunk if actor != CHANCE) != list(range(n)):
                raise ValueError(
                    "this state is in the middle of a simultaneous decision, which a simultaneous node cannot "
                    "show: load the game with turn_based=True"
                )
            joint = [0] * n
            for actor, action in chunk:
                joint[int(actor)] = action
            fresh.apply_actions(joint)
            index += n
        else:
            actor, action = history[index]
            if actor != CHANCE:
                fresh._next = int(actor)  # a turn-based joint decision is replayed in the history's order
                fresh._player = None
                fresh._legal = {}
            fresh.apply_action(action)
            index += 1
    return fresh


def load(game_id: str, players: int | None = None, **params: Any) -> LudothequeOpenSpielGame:
    """``pyspiel.load_game`` of ``python_ludotheque_<game_id>`` (registering the games first)."""
    register()
    if players is not None:
        params["players"] = players
    game: LudothequeOpenSpielGame = pyspiel.load_game(game_name(game_id), params)
    return game


def from_ludotheque(game: LudothequeOpenSpielGame, state: State) -> LudothequeOpenSpielState:
    """The OpenSpiel state of ``game`` that has ``state``'s history (same game, players and options)."""
    if state.game != game.ludo:
        raise ValueError(f"{state.game!r} is not {game.ludo!r}")
    return _replay(game, state.history())


class OpenSpielBot:
    """An OpenSpiel bot (``pyspiel.Bot``: ``step(state)``) playing in ludotheque's bot interface.

    It is a search bot: the runner hands it a sampler of determinizations for its seat, never the true state.
    It turns one determinization into an OpenSpiel state of ``game`` (load it with ``turn_based=True`` for
    sequential algorithms) and asks the OpenSpiel bot; bots that search, such as ISMCTS, then draw further worlds
    with ``resample_from_infostate``.  Without a sampler it plays a uniformly random legal move.
    """

    def __init__(self, game: LudothequeOpenSpielGame, bot: Any, name: str = "openspiel") -> None:
        self.game = game
        self.bot = bot
        self.name = name

    def choose(
        self, view: dict[str, Any], legal_actions: list[int], rng: random.Random, sampler: Sampler | None = None
    ) -> int:
        if sampler is None:
            return rng.choice(legal_actions)
        if len(legal_actions) == 1:
            return legal_actions[0]
        root = from_ludotheque(self.game, sampler(rng))
        seat = int(view["seat"])
        if root.current_player() != seat:
            raise ValueError(f"OpenSpiel's state has player {root.current_player()} to act, not seat {seat}")
        action = int(self.bot.step(root))
        if action not in legal_actions:
            raise ValueError(f"the OpenSpiel bot chose {action}, which is not legal here")
        return action


class LudothequeObserver:
    """OpenSpiel's Python observer protocol: ``tensor``/``dict`` filled by ``set_from``, ``string_from``.

    Default (no perfect recall, the seat's private information): the view's tensor and JSON.  Perfect recall:
    the information-state string (no tensor).  No private information: the spectator's view (string only).
    """

    def __init__(self, game: Game, iig_obs_type: Any) -> None:
        self.perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER if iig_obs_type is None else iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("ludotheque games do not provide observations of every seat's private information")
        self.public_only = private == pyspiel.PrivateInfoType.NONE
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None = None
        self.dict: dict[str, np.ndarray[Any, np.dtype[np.float32]]] = {}
        if not self.perfect_recall and not self.public_only:
            shape = game.observation_tensor_shape()
            self.tensor = np.zeros(math.prod(shape), dtype=np.float32)
            self.dict = {"observation": self.tensor.reshape(shape)}

    def set_from(self, state: LudothequeOpenSpielState, player: int) -> None:
        if self.tensor is not None:
            self.tensor[:] = state.ludo_state.observation_tensor(int(player)).ravel()

    def string_from(self, state: LudothequeOpenSpielState, player: int) -> str:
        if self.public_only:
            return state.observation_text(None)
        if self.perfect_recall:
            return state.information_state_text(int(player))
        return state.observation_text(int(player))


_game_classes: dict[str, type[LudothequeOpenSpielGame]] = {}


def _game_class_for(game_id: str) -> type[LudothequeOpenSpielGame]:
    """A subclass bound to ``game_id``: what OpenSpiel calls with the parameters.

    A class rather than a closure: OpenSpiel's registry keeps the creator until the process ends, and a class
    (which lives in reference cycles) is never freed by that last release, which happens without the GIL.
    """
    if game_id not in _game_classes:

        def __init__(self: LudothequeOpenSpielGame, params: Any = None) -> None:
            LudothequeOpenSpielGame.__init__(self, game_id, dict(params or {}))

        name = "".join(part.capitalize() for part in game_id.replace("-", "_").split("_")) + "OpenSpielGame"
        _game_classes[game_id] = type(name, (LudothequeOpenSpielGame,), {"__init__": __init__})
    return _game_classes[game_id]


def register() -> list[str]:
    """Register every ludotheque game with OpenSpiel (idempotent); returns the OpenSpiel names."""
    names = []
    known = set(pyspiel.registered_names())
    for game_id in game_ids():
        name = game_name(game_id)
        if name not in known:
            cls = game_class(game_id)
            default = load_game(game_id, players=cls.min_players)
            pyspiel.register_game(_game_type(game_id, has_joint_decisions(default)), _game_class_for(game_id))
        names.append(name)
    return names
