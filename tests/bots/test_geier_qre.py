"""The round-equilibrium Geier bot (``qre``): legal, reads only its view, answers its values, keeps its budget."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import ludotheque
from ludotheque.bots.geier_qre import GeierQREBot
from ludotheque.bots.registry import UnknownBotError, make_bot
from ludotheque.bots.runner import play_game
from ludotheque.games.geier.rules import POINT_INDEX, TIE_RULES


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("tie_rule", TIE_RULES)
def test_whole_games_are_legal(players: int, tie_rule: str) -> None:
    game = ludotheque.load_game("geier", players=players, tie_rule=tie_rule)
    bots = [make_bot("qre:it=8", game), make_bot("qre:it=8:sweeps=0:final=best", game)]
    bots += [make_bot("random", game) for _ in range(players - 2)]
    state = play_game(game, bots, random.Random(players))  # the engine refuses any illegal card
    assert state.is_terminal()


def round_one(players: int, face_down: list[int]) -> Any:
    """A state in round one after the point card +7, with seats 1.. having put ``face_down`` cards down."""
    state = ludotheque.load_game("geier", players=players).new_initial_state()
    state.apply_action(POINT_INDEX[7])
    for seat, card in enumerate(face_down, start=1):
        state.apply_action(card - 1, seat)
    return state


def test_the_others_face_down_cards_do_not_change_the_decision() -> None:
    """What the others put down this round is hidden: two states that differ only there give the same search."""
    game = ludotheque.load_game("geier", players=4)
    bot = GeierQREBot(game, rollouts=16)
    seen = []
    for face_down in ([15, 14, 13], [1, 2, 3]):
        state = round_one(4, face_down)
        bot.choose(state.view(0), state.legal_actions(0), random.Random(5))
        seen.append((bot.last_strategies.copy(), bot.last_values.copy()))
    assert np.array_equal(seen[0][0], seen[1][0])
    assert np.array_equal(seen[0][1], seen[1][1])


def test_strategies_are_mixed_over_each_hand() -> None:
    state = round_one(5, [])
    bot = make_bot("qre:it=16", state.game)
    assert isinstance(bot, GeierQREBot)
    bot.choose(state.view(0), state.legal_actions(0), random.Random(2))
    assert bot.last_strategies.shape == (5, 15)
    assert np.allclose(bot.last_strategies.sum(axis=1), 1.0)
    assert (bot.last_strategies > 0).all()  # every card in hand keeps some weight: logit and noise never cut one


def test_the_position_is_read_from_the_view() -> None:
    """Hands, pot, points and mice as the rules leave them after two rounds (geier-3: a tie carries the pot)."""
    game = ludotheque.load_game("geier", players=3, final_tie="highest-mouse")
    state = game.new_initial_state()
    for value, cards in ((6, [9, 4, 2]), (-2, [5, 5, 3]), (8, None)):
        state.apply_action(POINT_INDEX[value])
        for seat, card in enumerate(cards or []):
            state.apply_action(card - 1, seat)
    state.apply_action(11 - 1, 2)  # seat 2 has put its card down in round three: hidden from seat 0
    position = GeierQREBot(game)._position(state.view(0))
    full = sum(1 << c for c in range(1, 16))
    # round 1: +6 to the unique 9 (seat 0); round 2: the 5s cancel, -2 to the lowest unique card, 3 (seat 2)
    assert position["hands"].tolist() == [full & ~(1 << 9) & ~(1 << 5), full & ~(1 << 4) & ~(1 << 5),
                                          full & ~(1 << 2) & ~(1 << 3)]
    assert position["points"].tolist() == [6, 0, -2]
    assert position["best_mouse"].tolist() == [6, 0, 0]
    assert (position["pot_sum"], position["pot_mouse"]) == (8, 8)
    assert sorted(position["to_come"].tolist()) == [v for v in range(-5, 11) if v not in (0, 6, -2, 8)]


def test_time_limit_keeps_only_its_own_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a cap already spent, the others' updates are skipped and the seat still answers once."""
    game = ludotheque.load_game("geier", players=4)
    bot = GeierQREBot(game, rollouts=8, sweeps=3, time_limit=1e-9)
    calls = []
    original = bot._values

    def counted(*args: Any) -> Any:
        calls.append(args[2])
        return original(*args)

    monkeypatch.setattr(bot, "_values", counted)
    state = round_one(4, [])
    bot.choose(state.view(0), state.legal_actions(0), random.Random(0))
    assert calls == [0]
    calls.clear()
    bot.time_limit = None
    bot.choose(state.view(0), state.legal_actions(0), random.Random(0))
    assert calls == [0, 1, 2, 3] * 3 + [0]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("qre:temp=0", "temperature"),
        ("qre:damping=1.5", "damping"),
        ("qre:final=argmax", "final move"),
        ("qre:sweeps=-1", "sweeps"),
        ("qre:depth=3", "unknown qre argument"),
        ("qre:it=many", "qre argument"),
        ("qre:time=0", "time limit"),
    ],
)
def test_bad_settings_are_refused(spec: str, message: str) -> None:
    game = ludotheque.load_game("geier", players=4)
    with pytest.raises(UnknownBotError, match=message):
        make_bot(spec, game)


def test_other_games_are_refused() -> None:
    with pytest.raises(UnknownBotError, match="geier only"):
        make_bot("qre", ludotheque.load_game("cheese", players=2))


def test_typed_reads_who_plays_like_what_from_the_cards_played() -> None:
    """``typed=1``: by the end of a game, a seat of uniform cards is read as uniform and a spread heuristic as the
    heuristic; untyped, every seat is modelled as a responder."""
    game = ludotheque.load_game("geier", players=4)
    typed = GeierQREBot(game, rollouts=128, sweeps=3, temperature=0.03, typed=True)
    plain = GeierQREBot(game, rollouts=16)
    right = 0
    for seed in range(4):
        bots = [typed, make_bot("random", game), make_bot("heuristic:spread=2", game), plain]
        play_game(game, bots, random.Random(seed))
        right += int(np.argmax(typed.last_types[1]) == 0) + int(np.argmax(typed.last_types[2]) == 1)
        assert typed.last_types[0].tolist() == [0.0, 0.0, 1.0]  # itself: always a responder
    assert right >= 7
    assert plain.last_types[1:].tolist() == [[0.0, 0.0, 1.0]] * 3


def test_typed_evidence_is_this_games_only() -> None:
    """A new game starts from the prior; a bot that joins a game late has no evidence for the rounds it missed."""
    game = ludotheque.load_game("geier", players=3)
    bot = GeierQREBot(game, rollouts=8, typed=True)
    play_game(game, [bot, make_bot("random", game), make_bot("random", game)], random.Random(1))
    assert len(bot._predictions) == 14  # one per round with a choice (the last round's card is forced)
    state = round_one(3, [])
    bot.choose(state.view(0), state.legal_actions(0), random.Random(0))
    assert len(bot._predictions) == 1
    assert np.allclose(bot.last_types[1:], [0.25, 0.25, 0.5])
    late = GeierQREBot(game, rollouts=8, typed=True)
    state = game.new_initial_state()
    for value in (3, -2):
        state.apply_action(POINT_INDEX[value])
        for seat in range(3):
            state.apply_action(state.legal_actions(seat)[seat], seat)
    state.apply_action(POINT_INDEX[9])
    late.choose(state.view(0), state.legal_actions(0), random.Random(0))
    assert np.allclose(late.last_types[1:], [0.25, 0.25, 0.5])
