"""Tiny games for the bot tests: one whose hidden state a bot could only know by cheating."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ludotheque.bots.random_bot import RandomBot
from ludotheque.core import CHANCE, Actor, Bot, CoachThresholds, Game, GameType, State

K = 4


class SecretGame(Game):
    """Chance deals a secret 0..3 that seat 0 never sees; seat 0 guesses it and wins if right.

    Its ``resample`` is consistent with seat 0's view (the view never shows the secret) but always redraws the
    secret as ``decoy(secret)``: a bot that searches determinizations guesses the decoy, one that read the true
    state would guess the secret.
    """

    game_type = GameType(
        id="secret",
        name="Secret",
        package=__name__,
        game_class="SecretGame",
        min_players=2,
        max_players=2,
        simultaneous=False,
        chance=True,
        hidden_information=True,
        score_order="higher",
        coach_thresholds=CoachThresholds(0.1, 0.3, 0.6),
    )

    def num_distinct_actions(self) -> int:
        return K

    def max_chance_outcomes(self) -> int:
        return K

    def new_reference_state(self) -> SecretState:
        return SecretState(self)

    def heuristic_bot(self) -> Bot:
        return RandomBot()

    def observation_tensor_shape(self) -> tuple[int, ...]:
        return (1,)

    def encode_view(self, view: dict[str, Any]) -> NDArray[np.float32]:
        return np.zeros(1, dtype=np.float32)


def decoy(secret: int) -> int:
    return (secret + 1) % K


class SecretState(State):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.secret: int | None = None
        self.guess: int | None = None
        self.resamples = 0

    def is_terminal(self) -> bool:
        return self.guess is not None

    def is_chance_node(self) -> bool:
        return self.secret is None

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return [(i, 1 / K) for i in range(K)]

    def _current_players(self) -> list[int]:
        return [0]

    def _legal_actions(self, player: int) -> list[int]:
        return list(range(K))

    def _apply(self, action: int, player: int | None) -> None:
        if player is None:
            self.secret = action
        else:
            self.guess = action

    def _action_to_string(self, action: int, actor: Actor) -> str:
        return ("secret " if actor == CHANCE else "guess ") + str(action)

    def _action_to_json(self, action: int, actor: Actor) -> dict[str, Any]:
        return {"type": "secret" if actor == CHANCE else "guess", "value": action}

    def returns(self) -> list[float]:
        right = float(self.guess is not None and self.guess == self.secret)
        return [right, 1.0 - right]

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        return [0] if self.guess == self.secret else [1]

    def _view(self, player: int | None) -> dict[str, Any]:
        data: dict[str, Any] = {"guessed": self.guess is not None}
        if player == 1 or self.is_terminal():
            data["secret"] = self.secret
        return data

    def resample(self, player: int, rng: random.Random) -> SecretState:
        self.resamples += 1
        twin = self.clone()
        twin.resamples = 0
        if player == 0 and self.secret is not None and self.guess is None:
            twin.secret = decoy(self.secret)
            twin._history = [(CHANCE, twin.secret)]
        return twin
