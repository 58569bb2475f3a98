"""The mirror Geier bot: a positional best response that foresees its own copies and then plays the equilibrium."""

from __future__ import annotations

import random
from typing import Any

import pytest

import ludotheque
from ludotheque.bots.geier_mirror import GeierMirrorBot
from ludotheque.bots.geier_qre import GeierQREBot
from ludotheque.bots.registry import UnknownBotError, make_bot
from ludotheque.bots.runner import play_game
from ludotheque.games.geier.rules import POINT_INDEX


def mid_game(players: int, seed: int) -> Any:
    """A state at the start of a round, a few rounds in, with random cards played so far."""
    game = ludotheque.load_game("geier", players=players)
    state = game.new_initial_state()
    rng = random.Random(seed)
    for _ in range(4):
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
        while not state.is_chance_node():
            for seat in state.current_players():
                state.apply_action(rng.choice(state.legal_actions(seat)), seat)
    state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    return state


@pytest.mark.parametrize("seed", range(3))
def test_positional_values_do_not_depend_on_the_rng(seed: int) -> None:
    state = mid_game(4, seed)
    bot = GeierQREBot(state.game, rollouts=16, sweeps=1, positional=True)
    seen = []
    for rng_seed in (1, 2):
        bot.equilibrium(state.view(1), random.Random(rng_seed))
        _, values = bot.equilibrium(state.view(1), random.Random(rng_seed))
        seen.append(values.tolist())
    assert seen[0] == seen[1]
    drawn = GeierQREBot(state.game, rollouts=16, sweeps=1)
    assert drawn.equilibrium(state.view(1), random.Random(1))[1].tolist() != (
        drawn.equilibrium(state.view(1), random.Random(2))[1].tolist()
    )  # without positional seeds, other draws give other estimates


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("settings", [{"sweeps": 0, "final": "best"}, {"sweeps": 2, "temperature": 0.05}])
def test_a_copys_card_is_foreseen_from_another_seats_view(seed: int, settings: dict[str, Any]) -> None:
    """Every seat's copy card, worked out from seat 0's view, is the card that seat plays from its own view: for a
    best response and for a positional draw from the equilibrium, whatever rng the seat is given."""
    state = mid_game(5, seed)
    bot = GeierQREBot(state.game, rollouts=32, positional=True, **settings)
    foreseen = bot.copy_cards(state.view(0))
    for seat in range(5):
        played = bot.choose(state.view(seat), state.legal_actions(seat), random.Random(seat)) + 1
        assert foreseen[seat] == played
        assert played in state.view(seat)["table"]["hand"]


def test_a_positional_draw_still_follows_the_strategy() -> None:
    """Seeded by the position, the draw differs from one position to the next and covers the mixed strategy."""
    bot = GeierQREBot(ludotheque.load_game("geier", players=4), rollouts=16, sweeps=1, temperature=1.0,
                      positional=True)
    cards = {bot.copy_cards(mid_game(4, seed).view(0))[0] for seed in range(12)}
    assert len(cards) >= 4


def test_only_a_positional_bot_can_be_foreseen() -> None:
    state = mid_game(3, 0)
    for settings in ({"positional": False}, {"typed": True}, {"time_limit": 5.0}):
        options = {"positional": True, **settings}
        with pytest.raises(ValueError, match="foreseen"):
            GeierQREBot(state.game, rollouts=8, **options).copy_cards(state.view(0))  # type: ignore[arg-type]


class Copycat:
    """Plays the card a mirror bot's copy would play in its seat while the mirror looks for copies, except in the
    rounds listed in ``off``; then the lowest card."""

    name = "copycat"

    def __init__(self, game: ludotheque.Game, off: set[int]) -> None:
        self.model = GeierMirrorBot(game, rollouts=16)
        self.off = off

    def choose(self, view: dict[str, Any], legal_actions: list[int], rng: random.Random) -> int:
        card = min(view["table"]["hand"])
        played = len(view["table"]["rounds"])
        if played < self.model.rounds:
            card = self.model.look.copy_cards(view)[view["seat"]]
            if played in self.off:
                card = next(c for c in view["table"]["hand"] if c != card)
        return card - 1


class Watched(GeierMirrorBot):
    """Records the mode of each of its moves."""

    def __init__(self, game: ludotheque.Game, **settings: Any) -> None:
        super().__init__(game, **settings)
        self.modes: list[str] = []

    def choose(self, view: dict[str, Any], legal_actions: list[int], rng: random.Random) -> int:
        action = super().choose(view, legal_actions, rng)
        if len(legal_actions) > 1:
            self.modes.append(self.mode)
        return action


@pytest.mark.parametrize("rounds", [1, 2, 3])
def test_a_seat_that_plays_like_a_copy_keeps_the_bot_on_the_equilibrium(rounds: int) -> None:
    game = ludotheque.load_game("geier", players=4)
    bot = Watched(game, rounds=rounds, rollouts=16)
    play_game(game, [bot, make_bot("random", game), Copycat(game, set()), make_bot("random", game)],
              random.Random(rounds))
    assert bot.mirrors == {2}
    assert bot.modes == ["look"] * rounds + ["mix"] * (14 - rounds)


@pytest.mark.parametrize("off", [{0}, {1}])
def test_a_seat_that_differs_once_is_no_copy_and_the_bot_exploits(off: set[int]) -> None:
    game = ludotheque.load_game("geier", players=4)
    bot = Watched(game, rounds=2, rollouts=16)
    play_game(game, [bot, make_bot("random", game), Copycat(game, off), make_bot("random", game)],
              random.Random(3))
    assert bot.mirrors == set()
    assert bot.modes == ["look"] * 2 + ["exploit"] * 12


def test_two_mirrors_find_each_other() -> None:
    game = ludotheque.load_game("geier", players=5)
    bots = [Watched(game, rollouts=16), make_bot("random", game), Watched(game, rollouts=16),
            make_bot("random", game), make_bot("random", game)]
    play_game(game, bots, random.Random(4))
    first, second = bots[0], bots[2]
    assert isinstance(first, Watched) and isinstance(second, Watched)
    assert (first.mirrors, second.mirrors) == ({2}, {0})


def test_evidence_is_this_games_only() -> None:
    game = ludotheque.load_game("geier", players=4)
    bot = GeierMirrorBot(game, rollouts=16)
    play_game(game, [bot, make_bot("random", game), Copycat(game, set()), make_bot("random", game)],
              random.Random(5))
    assert bot.mirrors == {2}
    state = game.new_initial_state()
    state.apply_action(POINT_INDEX[4])
    bot.choose(state.view(0), state.legal_actions(0), random.Random(0))
    assert bot.mirrors is None and len(bot._copy_cards) == 1


def test_a_bot_that_joins_late_has_no_evidence_and_exploits() -> None:
    game = ludotheque.load_game("geier", players=3)
    state = mid_game(3, 1)
    bot = Watched(game, rollouts=16)
    bot.choose(state.view(0), state.legal_actions(0), random.Random(0))
    assert bot.mirrors == set() and bot.modes == ["exploit"]


def test_the_others_face_down_cards_do_not_change_the_choice() -> None:
    game = ludotheque.load_game("geier", players=4)
    chosen = []
    for face_down in ([15, 14, 13], [1, 2, 3]):
        state = game.new_initial_state()
        state.apply_action(POINT_INDEX[7])
        for seat, card in enumerate(face_down, start=1):
            state.apply_action(card - 1, seat)
        bot = GeierMirrorBot(game, rollouts=16)
        chosen.append((bot.choose(state.view(0), state.legal_actions(0), random.Random(9)), bot._copy_cards))
    assert chosen[0] == chosen[1]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_whole_games_are_legal(players: int) -> None:
    game = ludotheque.load_game("geier", players=players)
    bots = [make_bot("mirror:it=8", game), make_bot("mirror:it=8:rounds=1", game)]
    bots += [make_bot("random", game) for _ in range(players - 2)]
    assert play_game(game, bots, random.Random(players)).is_terminal()  # the engine refuses any illegal card


@pytest.mark.parametrize(
    ("spec", "message"),
    [("mirror:rounds=0", "rounds"), ("mirror:temp=1", "unknown mirror argument"), ("mirror:it=x", "mirror argument")],
)
def test_bad_settings_are_refused(spec: str, message: str) -> None:
    with pytest.raises(UnknownBotError, match=message):
        make_bot(spec, ludotheque.load_game("geier", players=4))


def test_other_games_are_refused() -> None:
    with pytest.raises(UnknownBotError, match="geier only"):
        make_bot("mirror", ludotheque.load_game("mice", players=2))


def test_the_registry_builds_a_positional_qre() -> None:
    bot = make_bot("qre:positional=1:it=8", ludotheque.load_game("geier", players=3))
    assert isinstance(bot, GeierQREBot) and bot.positional
    assert len(bot.copy_cards(mid_game(3, 2).view(1))) == 3
