"""Calcory's easier levels forget (DECISIONS calcory-5): the game's rule, played by the generic ForgetfulBot."""

from __future__ import annotations

import random

import pytest

from ludotheque.bots import make_bot
from ludotheque.bots.forgetful import ForgetfulBot
from ludotheque.bots.random_bot import RandomBot
from ludotheque.games.calcory.levels import forget


def calcory_view(turn: int) -> dict[str, object]:
    log = {
        "turn": [1, 1, 2, 3, 3],
        "seat": [0, 0, 1, 0, 0],
        "kind": ["flip"] * 5,
        "cell": ["A1", "A2", "B1", "C1", "C2"],
        "value": [3, 4, 5, 6, 7],
    }
    return {"seat": 0, "table": {"turn": turn, "log": log}}


def test_calcory_forgets_all_but_the_recent_turns() -> None:
    view = calcory_view(3)
    assert forget(view, 1)["table"]["log"]["cell"] == ["C1", "C2"]  # type: ignore[index]
    assert forget(view, 2)["table"]["log"]["value"] == [5, 6, 7]  # type: ignore[index]
    assert forget(view, 10)["table"]["log"] == view["table"]["log"]  # type: ignore[index]
    assert len(view["table"]["log"]["turn"]) == 5  # type: ignore[index]  # the original view is untouched


def test_forgetful_bot_sees_the_filtered_view() -> None:
    seen = []

    class Spy(RandomBot):
        def choose(self, view, legal_actions, rng, sampler=None):  # type: ignore[no-untyped-def]
            seen.append(view)
            return legal_actions[0]

    ForgetfulBot(Spy(), forget, 1).choose(calcory_view(3), [0, 1], random.Random(0))
    assert seen[0]["table"]["log"]["turn"] == [3, 3]
    with pytest.raises(ValueError, match="at least 0 turns"):
        ForgetfulBot(Spy(), forget, -1)


def test_calcory_levels() -> None:
    from ludotheque.games import load_game

    game = load_game("calcory", players=2)
    for level in ("easy", "medium", "hard"):
        assert make_bot(level, game).name == level
    easy = make_bot("easy", game)
    assert easy.inner.forget is forget and easy.inner.memory == 1  # type: ignore[attr-defined]
