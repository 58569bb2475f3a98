"""Geier for any number of seats: each round played as a game of its own, solved for a logit equilibrium.

Between two reveals Geier hides nothing (every hand can be worked out from the open piles; only the order of the
point cards to come is unknown), so a round is a simultaneous game among all the seats: each picks a card, and
what a card is worth depends on the cards of the others (tied cards cancel, geier-3).  ``GeierQREBot`` looks for
the round's *quantal response equilibrium*: every seat draws its card with weight ``exp(value / temperature)``,
where the value is measured against the other seats' current strategies (``fast.geier_round.response_values``:
compiled rollouts in which the later rounds are played by the heuristic with its bid drawn around the pot's rank).

Why this and not a best response: at four and five seats a precise best response is a card the others can
foresee, and two copies of one bot pick the same card and cancel each other (docs/bots.md, Geier 4-5).  Here
every seat, this one included, is modelled as a player who also thinks about the others, and the bot's own card
is drawn, not fixed.  With two seats the round's equilibrium is the matrix game of ``gt``, which solves it exactly.

The iteration is smoothed fictitious play: start every seat at the heuristic's mixed bid, then ``sweeps`` times
replace each seat's strategy by a ``damping`` step towards its logit response to the others.  With ``typed``,
each other seat is modelled as a mix of that iterate, the heuristic and uniform cards, weighted by how well each
predicted the cards the seat played earlier in the game (``_types``).  With ``positional``, the rollouts and the
final draw are seeded from the position and the seat instead of ``rng``: the card is then a function of what every
seat sees, and ``copy_cards`` works out what a copy of the bot would play in each seat (``geier_mirror``).  The
bot reads only its view.
"""

from __future__ import annotations

import hashlib
import random
import time
from typing import Any

import numpy as np

from ludotheque.core import Game
from ludotheque.fast.geier_round import heuristic_probabilities, response_values
from ludotheque.games.geier.rules import POINT_INDEX

FINAL_MOVES = ("sample", "best", "mixed")
#: ``typed=True``: what another seat may be, and how likely each is before any card is seen: a player of uniform
#: cards, the spread heuristic (with its share of uniform cards), or a player who answers the table like this bot.
TYPES = ("uniform", "heuristic", "responder")
TYPE_PRIOR = np.array([0.25, 0.25, 0.5])
#: each type's chance of a card is mixed with this share of uniform cards, so one surprising card does not rule it out
TYPE_FLOOR = 0.1


def _signature(rounds: list[dict[str, Any]], pot: list[int]) -> tuple[Any, ...]:
    """The key of a decision in one game: the cards played in every round before it and the pot it was for."""
    return (tuple(tuple(r["played"]) for r in rounds), tuple(pot))


def _logit(values: np.ndarray[Any, Any], hand: int, temperature: float) -> np.ndarray[Any, Any]:
    """Weights ``exp(value / temperature)`` over the cards in ``hand`` (a mask), normalised; 0 elsewhere."""
    held = np.array([bool(hand >> card & 1) for card in range(1, 16)])
    scaled = np.where(held, values / temperature, -np.inf)
    weights = np.exp(scaled - scaled[held].max())
    return np.asarray(weights / weights.sum())


def _best(values: np.ndarray[Any, Any], hand: int) -> int:
    """The held card of highest value (the lowest such card on a tie)."""
    return max((card for card in range(1, 16) if hand >> card & 1), key=lambda card: values[card - 1])


class GeierQREBot:
    """Geier, any number of seats: the round's logit equilibrium by smoothed fictitious play over rollouts."""

    def __init__(
        self,
        game: Game,
        *,
        rollouts: int = 64,
        sweeps: int = 2,
        temperature: float = 0.05,
        damping: float = 0.5,
        spread: float = 2.0,
        epsilon: float = 0.3,
        margin: float = 0.002,
        final: str = "sample",
        typed: bool = False,
        positional: bool = False,
        time_limit: float | None = None,
        name: str = "qre",
    ) -> None:
        if game.id != "geier":
            raise ValueError("GeierQREBot plays geier only")
        if rollouts < 1 or sweeps < 0:
            raise ValueError(f"rollouts must be at least 1 and sweeps at least 0 (got {rollouts} and {sweeps})")
        if not 0.0 < temperature < float("inf"):
            raise ValueError(f"the temperature must be a finite number > 0, not {temperature}")
        if not 0.0 < damping <= 1.0:
            raise ValueError(f"the damping must be in (0, 1], not {damping}")
        if not 0.0 <= spread < float("inf") or not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"the model's spread must be >= 0 and its epsilon in [0, 1] (got {spread}, {epsilon})")
        if final not in FINAL_MOVES:
            raise ValueError(f"unknown final move {final!r} ({', '.join(FINAL_MOVES)})")
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"the time limit must be > 0 seconds, not {time_limit}")
        self.name = name
        self.players = game.players
        self.cascade = game.options["tie_rule"] == "cascade"
        self.next_best = game.options["final_tie"] == "next-best"
        self.rollouts = rollouts
        self.sweeps = sweeps
        self.temperature = temperature
        self.damping = damping
        self.spread = spread
        self.epsilon = epsilon
        self.margin = margin
        self.final = final
        self.typed = bool(typed)
        #: seed the rollouts from the position instead of ``rng``: the values are then a function of what every seat
        #: sees, so this bot can work out exactly what a copy of itself would play in another seat (``geier_mirror``)
        self.positional = bool(positional)
        self.time_limit = time_limit
        #: per decision of this game (``_signature``): every seat's uniform, heuristic and fictitious-play strategies,
        #: the three predictions whose fit to the cards then played sets each seat's type (``typed=True``)
        self._predictions: dict[tuple[Any, ...], tuple[np.ndarray[Any, Any], ...]] = {}
        #: the last decision's posterior over ``TYPES`` for each seat (players, 3)
        self.last_types: np.ndarray[Any, Any] = np.tile(TYPE_PRIOR, (game.players, 1))
        #: the last decision's strategies (players, 15) and this seat's card values, for tests and analysis
        self.last_strategies: np.ndarray[Any, Any] = np.zeros((game.players, 15))
        self.last_values: np.ndarray[Any, Any] = np.zeros(15)

    def _position(self, view: dict[str, Any]) -> dict[str, Any]:
        table = view["table"]
        seat = view["seat"]
        hands = []
        for other in range(self.players):
            # a seat's face-down card of this round is among its unrevealed cards; this seat's own is not chosen yet
            cards = table["hand"] if other == seat else table["unrevealed"][other]
            hands.append(sum(1 << card for card in cards))
        to_come_mask = 0
        for value in table["points_to_come"]:
            to_come_mask |= 1 << POINT_INDEX[value]
        return {
            "seat": seat,
            "hands": np.array(hands, dtype=np.int64),
            "pot_sum": int(table["pot_sum"]),
            "pot_mouse": max((v for v in table["pot"] if v > 0), default=0),
            "to_come": np.array(table["points_to_come"], dtype=np.int64),
            "to_come_mask": to_come_mask,
            "points": np.array(table["points"], dtype=np.int64),
            "best_mouse": np.array([max((v for v in won if v > 0), default=0) for won in table["won"]], dtype=np.int64),
        }

    @staticmethod
    def _seed(position: dict[str, Any], step: int, seat: int) -> int:
        """A rollout seed that depends only on what every seat sees, the iteration step and the seat valued."""
        key = (
            tuple(position["hands"].tolist()), position["pot_sum"], position["pot_mouse"],
            sorted(position["to_come"].tolist()), tuple(position["points"].tolist()),
            tuple(position["best_mouse"].tolist()), step, seat,
        )
        return int.from_bytes(hashlib.blake2b(repr(key).encode(), digest_size=8).digest(), "big") >> 2

    def _draw_seed(self, position: dict[str, Any], step: int, seat: int, rng: random.Random) -> int:
        return self._seed(position, step, seat) if self.positional else rng.getrandbits(62)

    def _values(self, position: dict[str, Any], strategies: np.ndarray[Any, Any], seat: int, seed: int) -> Any:
        return response_values(
            position["hands"], position["pot_sum"], position["pot_mouse"], position["to_come"], position["points"],
            position["best_mouse"], strategies, seat, self.rollouts, seed, self.spread, self.epsilon, self.cascade,
            self.next_best, self.margin,
        )

    def _heuristic(self, position: dict[str, Any]) -> np.ndarray[Any, Any]:
        """Every seat's card under the model's spread heuristic (players, 15)."""
        return np.array([
            heuristic_probabilities(int(hand), position["pot_sum"], position["to_come_mask"], self.spread, self.epsilon)
            for hand in position["hands"]
        ])

    def copy_cards(self, view: dict[str, Any]) -> list[int]:
        """The card a copy of this bot would play in each seat's place this round, worked out from ``view``.

        Only a bot whose choice is a function of the position can be foreseen: positional seeds (its rollouts
        and its draw), no typing (which depends on the bot's own past) and no time cap (which depends on the
        clock)."""
        if not self.positional or self.typed or self.time_limit is not None:
            raise ValueError("only a positional bot, untyped and with no time cap, can be foreseen")
        position = self._position(view)
        unused = random.Random(0)  # positional: every seed and draw comes from the position, never from an rng
        strategies = self._profile(position, view, unused)
        cards = []
        for seat in range(self.players):
            values = self._answer(position, strategies, seat, unused)
            cards.append(self._pick(values, int(position["hands"][seat]), strategies[seat], position, seat, unused))
        return cards

    def equilibrium(
        self, view: dict[str, Any], rng: random.Random
    ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        """Every seat's strategy over cards (players, 15) and this seat's card values against the others'."""
        return self._equilibrium(self._position(view), view, rng)

    def _equilibrium(
        self, position: dict[str, Any], view: dict[str, Any], rng: random.Random
    ) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
        strategies = self._profile(position, view, rng)
        return strategies, self._answer(position, strategies, position["seat"], rng)

    def _answer(
        self, position: dict[str, Any], strategies: np.ndarray[Any, Any], seat: int, rng: random.Random
    ) -> np.ndarray[Any, Any]:
        """The seat's card values against the others' final strategies (the last step, after the sweeps)."""
        return np.asarray(self._values(position, strategies, seat, self._draw_seed(position, self.sweeps, seat, rng)))

    def _profile(self, position: dict[str, Any], view: dict[str, Any], rng: random.Random) -> np.ndarray[Any, Any]:
        """Every seat's strategy over cards (players, 15) after the sweeps of smoothed fictitious play."""
        start = time.perf_counter()
        me = position["seat"]
        hands = position["hands"]
        heuristic = self._heuristic(position)
        uniform = np.array([[float(hand >> card & 1) for card in range(1, 16)] for hand in hands])
        uniform /= uniform.sum(axis=1, keepdims=True)
        types = self._types(view) if self.typed else np.tile([0.0, 0.0, 1.0], (self.players, 1))
        types[me] = (0.0, 0.0, 1.0)
        iterate = heuristic.copy()

        def model() -> np.ndarray[Any, Any]:
            """Each seat's card as the others see it: its types' predictions, weighted by how likely each is."""
            return np.asarray(types[:, :1] * uniform + types[:, 1:2] * heuristic + types[:, 2:] * iterate)

        for step in range(self.sweeps):
            if self.time_limit is not None and time.perf_counter() - start > self.time_limit:
                break  # the time cap cuts the others' updates, never this seat's own answer
            for seat in range(self.players):
                values = self._values(position, model(), seat, self._draw_seed(position, step, seat, rng))
                response = _logit(values, int(hands[seat]), self.temperature)
                iterate[seat] = (1 - self.damping) * iterate[seat] + self.damping * response
        if self.typed:
            table = view["table"]
            if not table["rounds"]:
                self._predictions.clear()  # a new game: the last one's predictions are no evidence
            self._predictions[_signature(table["rounds"], table["pot"])] = (uniform, heuristic, iterate)
        self.last_types = types
        return model()

    def _pick(
        self,
        values: np.ndarray[Any, Any],
        hand: int,
        strategy: np.ndarray[Any, Any],
        position: dict[str, Any],
        seat: int,
        rng: random.Random,
    ) -> int:
        """The seat's card by ``final``: drawn with ``rng``, or, positional, with a draw seeded by the position."""
        if self.final == "best":
            return _best(values, hand)
        weights = _logit(values, hand, self.temperature) if self.final == "sample" else strategy
        if self.positional:
            rng = random.Random(self._seed(position, self.sweeps + 1, seat))
        return int(rng.choices(range(1, 16), weights=list(weights))[0])

    def _types(self, view: dict[str, Any]) -> np.ndarray[Any, Any]:
        """Each seat's posterior over ``TYPES`` from the cards it played in this game's earlier rounds.

        A type's chance of a card is the prediction this bot made for that seat when it decided in that round
        (uniform over its hand, the heuristic's strategy, or the seat's fictitious-play iterate), floored."""
        rounds = view["table"]["rounds"]
        log_posterior = np.tile(np.log(TYPE_PRIOR), (self.players, 1))
        for index, record in enumerate(rounds):
            predicted = self._predictions.get(_signature(rounds[:index], record["pot"]))
            if predicted is None:
                continue  # a round this bot did not decide in (it joined later): no evidence
            for seat, card in enumerate(record["played"]):
                chances = np.array([prediction[seat, card - 1] for prediction in predicted])
                log_posterior[seat] += np.log((1 - TYPE_FLOOR) * chances + TYPE_FLOOR * predicted[0][seat, card - 1])
        posterior = np.exp(log_posterior - log_posterior.max(axis=1, keepdims=True))
        return np.asarray(posterior / posterior.sum(axis=1, keepdims=True))

    def choose(self, view: dict[str, Any], legal_actions: list[int], rng: random.Random) -> int:
        if len(legal_actions) == 1:
            return legal_actions[0]
        position = self._position(view)
        me = position["seat"]
        strategies, values = self._equilibrium(position, view, rng)
        self.last_strategies, self.last_values = strategies, values
        card = self._pick(values, int(position["hands"][me]), strategies[me], position, me, rng)
        action = card - 1
        return action if action in legal_actions else rng.choice(legal_actions)
