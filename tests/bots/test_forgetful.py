"""Calcory's easier levels forget (DECISIONS calcory-5)."""

from __future__ import annotations

from ludotheque.bots import make_bot
from ludotheque.bots.forgetful import ForgetfulBot, forget_calcory
from ludotheque.bots.random_bot import RandomBot


def calcory_view(turn: int) -> dict[str, object]:
    log = {
        "turn": [1, 1, 2, 3, 3],
        "seat": [0, 0, 1, 0, 0],
        "kind": ["flip"] * 5,
        "cell": ["A1", "A2", "B1", "C1", "C2"],
        "value": [3, 4, 5, 6, 7],
    }
    return {"seat": 0, "table": {"turn": turn, "log": log}}


def test_forget_calcory_keeps_recent_turns() -> None:
    view = calcory_view(3)
    assert forget_calcory(view, 1)["table"]["log"]["cell"] == ["C1", "C2"]  # type: ignore[index]
    assert forget_calcory(view, 2)["table"]["log"]["value"] == [5, 6, 7]  # type: ignore[index]
    assert forget_calcory(view, 10)["table"]["log"] == view["table"]["log"]  # type: ignore[index]
    assert len(view["table"]["log"]["turn"]) == 5  # type: ignore[index]  # the original view is untouched


def test_forgetful_bot_sees_a_filtered_view() -> None:
    seen = []

    class Spy(RandomBot):
        def choose(self, view, legal_actions, rng):  # type: ignore[no-untyped-def]
            seen.append(view)
            return legal_actions[0]

    import random

    ForgetfulBot(Spy(), "calcory", 1).choose(calcory_view(3), [0, 1], random.Random(0))
    assert seen[0]["table"]["log"]["turn"] == [3, 3]
    ForgetfulBot(Spy(), "geier", 1).choose(calcory_view(3), [0, 1], random.Random(0))  # no filter: unchanged
    assert len(seen[1]["table"]["log"]["turn"]) == 5


def test_calcory_levels() -> None:
    from ludotheque.core import load_game

    game = load_game("calcory", players=2)
    for level in ("easy", "medium", "hard"):
        assert make_bot(level, game).name == level
