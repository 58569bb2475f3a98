"""Cheese Rescue rules: one test per DECISIONS id (cheese-1..5, all-1..3) and the seed's examples (seed 002)."""

from __future__ import annotations

import random

import pytest

from ludotheque.core import CHANCE, IllegalActionError, NotationError, replay_record
from ludotheque.games import load_game
from ludotheque.games.cheese import rules
from ludotheque.games.cheese.game import CheeseState
from ludotheque.games.cheese.notation import cell_name, parse_cell

TOKENS = {"D": rules.DOG, "C": rules.CAT, "M": rules.MOUSE, "*": rules.START, ".": rules.EMPTY}


def new_state(players: int) -> CheeseState:
    state = load_game("cheese", players=players).new_initial_state()
    assert isinstance(state, CheeseState)
    return state


def play(state: CheeseState, moves: list[str]) -> None:
    """Apply moves in notation; chance draws and seat moves alike go to whoever acts now."""
    for move in moves:
        state.apply_action(state.string_to_action(move))


def deal(state: CheeseState, animals: list[str]) -> None:
    """Force the opening deal (two animals per seat, seat 0 first, round after round)."""
    assert len(animals) == 2 * state.game.players
    play(state, animals)
    assert not state.is_chance_node()


def board(rows: list[str], frame: int = 5) -> tuple[list[int], list[int]]:
    """Cells and owners from rows of tokens: D C M * . and cheeses 'v@s' (worth v, seat s)."""
    cells = [rules.EMPTY] * (frame * frame)
    owners = [-1] * (frame * frame)
    for r, row in enumerate(rows):
        for c, token in enumerate(row.split()):
            cell = r * frame + c
            if token in TOKENS:
                cells[cell] = TOKENS[token]
            else:
                value, seat = token.split("@")
                cells[cell] = rules.CHEESE1 + int(value) - 1
                owners[cell] = int(seat)
    return cells, owners


# -- cheese-1: the cards -------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "pile"), [(2, [3, 6, 9]), (3, [4, 9, 14]), (4, [6, 12, 18])])
def test_pile_after_setting_aside(players: int, pile: list[int]) -> None:
    # DECISIONS cheese-1: 6 dogs, 12 cats, 18 mice; 2 players set aside 3/6/9, 3 players 2/3/4, 4 players none
    state = new_state(players)
    assert state.pile == pile
    assert sum(state.pile) == {2: 18, 3: 27, 4: 36}[players]


def test_cheese_sets() -> None:
    # DECISIONS cheese-1: each seat holds 6 cheeses of its own shape, worth 1, 1, 1, 2, 2, 3
    state = new_state(3)
    for seat in range(3):
        assert state.view(seat)["table"]["hands"][seat]["cheeses"] == [1, 1, 1, 2, 2, 3]
        assert state.hands[seat] == [0, 0, 0, 3, 2, 1]


def test_chance_draws_weighted_by_cards_left() -> None:
    # DECISIONS cheese-1 and all-1: the pile is drawn card by card (identical animals merged, weighted)
    state = new_state(2)
    assert state.chance_outcomes() == [(0, 3 / 18), (1, 6 / 18), (2, 9 / 18)]
    play(state, ["dog", "dog", "dog"])
    assert state.chance_outcomes() == [(1, 6 / 15), (2, 9 / 15)]
    with pytest.raises(ValueError, match="no dog"):
        state.string_to_action("dog")


# -- cheese-2: the surface and the start card --------------------------------------------------------


@pytest.mark.parametrize(("players", "side", "centre"), [(2, 5, "e5"), (3, 6, "f6"), (4, 7, "g7")])
def test_surface_size_and_frame(players: int, side: int, centre: str) -> None:
    # DECISIONS cheese-2: 5x5 with 2 players, 6x6 with 3, 7x7 with 4; the frame is (2N-1)x(2N-1)
    game = load_game("cheese", players=players)
    state = new_state(players)
    assert state.side == side and state.frame == 2 * side - 1
    assert cell_name(state.centre, state.frame) == centre
    assert game.num_distinct_actions() == 6 * (2 * side - 1) ** 2
    assert game.max_chance_outcomes() == 3


@pytest.mark.parametrize("players", [2, 4])
def test_start_card_with_two_and_four(players: int) -> None:
    # DECISIONS cheese-2: with 2 or 4 players the neutral start card lies in the centre; the first card touches it
    state = new_state(players)
    assert state.cells[state.centre] == rules.START
    deal(state, ["mouse"] * (2 * players))
    centre = cell_name(state.centre, state.frame)
    cells = {cell_name(a % state.frame**2, state.frame) for a in state.legal_actions()}
    col, row = centre[0], int(centre[1:])
    assert cells == {f"{col}{row + 1}", f"{col}{row - 1}", f"{chr(ord(col) - 1)}{row}", f"{chr(ord(col) + 1)}{row}"}


def test_no_start_card_with_three() -> None:
    # DECISIONS cheese-2: with 3 players no start card; the first card goes anywhere, fixed at the centre f6
    state = new_state(3)
    assert rules.START not in state.cells
    deal(state, ["cat"] * 6)
    legal = state.legal_actions()
    assert {a % state.frame**2 for a in legal} == {state.centre}
    assert len(legal) == 4  # cat, cheese 1, 2, 3
    before = state.history()
    with pytest.raises(IllegalActionError, match="centre"):
        state.apply_action(rules.CHEESE1 * 121 + parse_cell("a1", 11))
    with pytest.raises(NotationError, match="centre"):
        state.string_to_action("1 a1")
    assert state.history() == before
    play(state, ["C f6"])
    assert state.cells[state.centre] == rules.CAT


def test_start_card_never_removed_and_scores_nothing() -> None:
    # DECISIONS cheese-2: the start card has no owner, no points, and is never removed
    cells, owners = board(["M * M", ". . .", ". . ."], frame=3)
    _cats, _mice, cheeses = rules.cascade(cells, 3)
    assert cells[1] == rules.START and 1 not in cheeses
    assert rules.scores(cells, owners, cheeses, 2) == ([0, 0], [0, 0])


# -- cheese-3: placement ---------------------------------------------------------------------------


def test_placement_must_share_a_side() -> None:
    # DECISIONS cheese-3: an empty cell sharing a side with a placed card (diagonal is not enough)
    state = new_state(2)
    deal(state, ["cat", "dog", "cat", "dog"])
    before = state.history()
    with pytest.raises(ValueError, match="shares no side"):
        state.apply_action(state.string_to_action("C d4"))  # diagonal to e5
    with pytest.raises(ValueError, match="taken"):
        state.string_to_action("C e5")
    assert state.history() == before
    play(state, ["C e4", "cat", "D d4"])  # d4 touches e4
    assert state.cells[parse_cell("d4", 9)] == rules.DOG


def test_placement_must_fit_in_the_square() -> None:
    # DECISIONS cheese-3: all cards, start card included, must still fit in some N x N square
    state = new_state(2)
    deal(state, ["mouse"] * 4)
    # a column of five cards e5..e1: the next card below (e0 does not exist) or e.g. e6..e9 would make 6 rows
    play(state, ["M e4", "mouse", "M e3", "mouse", "M e2", "mouse", "M e1", "mouse"])
    legal = {cell_name(a % 81, 9) for a in state.legal_actions()}
    assert "e6" not in legal  # rows 1..6 would not fit in 5
    assert {"d1", "f1", "d5", "f5", "d3"} <= legal
    with pytest.raises(ValueError, match="would not fit"):
        state.string_to_action("M e6")


def test_game_ends_when_square_full() -> None:
    # DECISIONS cheese-3: the game ends when the square is full: every player has placed 12 cards
    state = new_state(2)
    rng = random.Random(3)
    while not state.is_terminal():
        actions = state.legal_actions()
        state.apply_action(rng.choice(actions))
    assert state.placed == [12, 12]
    filled = [i for i, k in enumerate(state.cells) if k != rules.EMPTY]
    assert len(filled) == 25
    rows = {i // 9 for i in filled}
    cols = {i % 9 for i in filled}
    assert len(rows) == 5 and len(cols) == 5


# -- cheese-4: hands and draws ------------------------------------------------------------------------


def test_two_animals_each_then_draw_after_placing() -> None:
    # DECISIONS cheese-4: 6 cheeses and 2 drawn animals in hand; place one card, then draw while the pile lasts
    state = new_state(3)
    assert state.is_chance_node()
    play(state, ["dog", "cat", "mouse", "mouse", "cat", "dog"])  # seat 0, 1, 2, then again
    assert state.hands[0][:3] == [1, 0, 1]
    assert state.hands[1][:3] == [0, 2, 0]
    assert state.hands[2][:3] == [1, 0, 1]
    assert state.current_players() == [0]
    play(state, ["D f6"])
    assert state.is_chance_node() and state.view(None)["table"]["drawing"] == 0
    play(state, ["cat"])
    assert state.hands[0][:3] == [0, 1, 1] and state.current_players() == [1]
    assert sum(state.hands[0]) == 8


def test_no_draw_once_pile_is_empty_and_leftovers_discarded() -> None:
    # DECISIONS cheese-4: no draw once the pile is empty; cards left in hand at the end are discarded
    state = new_state(2)
    rng = random.Random(11)
    draws = 0
    while not state.is_terminal():
        if state.is_chance_node():
            draws += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert draws == 18 and sum(state.pile) == 0
    assert [sum(h) for h in state.hands] == [3, 3]  # 6 + 9 cards each, 12 placed
    view = state.view(1)["table"]
    assert view["hands"][0]["animals"] + len(view["hands"][0]["cheeses"]) == 3
    assert "hand" not in state.view(None)["table"]


# -- cheese-5: the cascade and the winners --------------------------------------------------------------


def test_cascade_order_each_step_at_once() -> None:
    # DECISIONS cheese-5: cats by dogs, then mice by remaining cats, then cheeses by remaining mice
    cells, owners = board(
        [
            "D C M 1@0 .",
            ". . . . .",
            "C M 2@1 . .",
            ". . . . .",
            "M 3@0 . . .",
        ]
    )
    cats, mice, cheeses = rules.cascade(cells, 5)
    assert cats == [1]  # b5: the cat next to the dog
    assert mice == [11]  # b3: the a3 cat stays and removes it; c5 stays, its cat being gone
    assert cheeses == [3, 21]  # d5 (by the c5 mouse) and b1 (by a1); c3 survives, its mouse gone
    assert rules.scores(cells, owners, cheeses, 2) == ([0, 2], [0, 1])


def test_cat_removed_by_dog_no_longer_removes_its_mouse() -> None:
    # DECISIONS cheese-5: a cat removed by a dog no longer removes its mouse, and that mouse eats its cheese
    cells, owners = board(["D C M 3@0 .", ". . . . ."] + [". . . . ."] * 3)
    cats, mice, cheeses = rules.cascade(cells, 5)
    assert (cats, mice, cheeses) == ([1], [], [3])
    assert rules.scores(cells, owners, cheeses, 2)[0] == [0, 0]


def test_cheese_survives_because_its_mouse_was_removed() -> None:
    # DECISIONS cheese-5: a cheese survives only because the cat removed its mouse
    cells, owners = board(["C M 3@0 . .", ". . . . ."] + [". . . . ."] * 3)
    cats, mice, cheeses = rules.cascade(cells, 5)
    assert (cats, mice, cheeses) == ([], [1], [])
    assert rules.scores(cells, owners, cheeses, 2) == ([3, 0], [1, 0])


def test_adjacency_is_by_a_side_only() -> None:
    # DECISIONS cheese-5: adjacency is sharing a side; diagonals do nothing
    cells, _owners = board(["D . M .", ". C . 1@1", ". . . .", ". . . ."], frame=4)
    assert rules.cascade(cells, 4) == ([], [], [])


@pytest.mark.parametrize(
    ("points", "cards", "expected"),
    [
        ([7, 5], [3, 4], [0]),  # most points wins
        ([6, 6], [3, 4], [1]),  # tie: more remaining cheese cards
        ([6, 6, 2], [4, 4, 1], [0, 1]),  # still tied: shared
        ([0, 0, 0, 0], [0, 0, 0, 0], [0, 1, 2, 3]),  # nobody kept any cheese: everyone shares
    ],
)
def test_winners_and_ties(points: list[int], cards: list[int], expected: list[int]) -> None:
    # DECISIONS cheese-5: most points; tied: more remaining cheese cards; still tied: a shared win
    assert rules.winners(points, cards) == expected


# -- all-1, all-2, all-3 -------------------------------------------------------------------------------------


def test_all_randomness_is_chance_and_replays() -> None:
    # DECISIONS all-1: deals are chance actions, so the history fixes the state
    state = new_state(2)
    deal(state, ["dog", "cat", "mouse", "mouse"])
    assert [a for a, _ in state.history()] == [CHANCE] * 4


def test_seat_zero_starts_clockwise() -> None:
    # DECISIONS all-2: seat 0 plays first, then 1, 2, ... clockwise
    state = new_state(4)
    deal(state, ["mouse"] * 8)
    order = []
    for move in ["M g6", "mouse", "M g5", "mouse", "M g4", "mouse", "M g3", "mouse", "M g2"]:
        if not state.is_chance_node():
            order.append(state.current_players()[0])
        play(state, [move])
    assert order == [0, 1, 2, 3, 0]


def test_view_shows_own_hand_only() -> None:
    # DECISIONS all-3: a seat sees its own animals; for others only how many (and their cheeses, by shape)
    state = new_state(2)
    deal(state, ["dog", "cat", "dog", "mouse"])
    mine = state.view(0)["table"]
    theirs = state.view(1)["table"]
    assert mine["hand"] == [2, 0, 0, 3, 2, 1]
    assert theirs["hand"] == [0, 1, 1, 3, 2, 1]
    assert mine["hands"][1] == {"cheeses": [1, 1, 1, 2, 2, 3], "animals": 2}
    assert mine["unseen"] == [1, 6, 9]  # pile (1, 5, 8) plus seat 1's cat and mouse
    assert "cat" not in str(mine)


# -- the seed's worked example of the end: a full game checked by hand ---------------------------------------

GOLDEN = [
    ("c", "cat"), ("c", "dog"), ("c", "mouse"), ("c", "dog"), (0, "C e4"), ("c", "mouse"), (1, "1 e3"),
    ("c", "cat"), (0, "M f3"), ("c", "dog"), (1, "D f2"), ("c", "mouse"), (0, "3 e2"), ("c", "cat"),
    (1, "D d3"), ("c", "mouse"), (0, "2 d2"), ("c", "cat"), (1, "C g2"), ("c", "cat"), (0, "2 e1"),
    ("c", "mouse"), (1, "3 h2"), ("c", "mouse"), (0, "1 d1"), ("c", "cat"), (1, "1 g1"), ("c", "mouse"),
    (0, "M h1"), ("c", "mouse"), (1, "1 d5"), ("c", "mouse"), (0, "1 f1"), (1, "M f4"), (0, "1 d4"),
    (1, "M h3"), (0, "D g3"), (1, "2 f5"), (0, "M g5"), (1, "2 g4"), (0, "C h4"), (1, "C h5"),
]  # fmt: skip


def test_golden_playthrough() -> None:
    # DECISIONS cheese-3, cheese-5.  The final square (seat 0 = @0, seat 1 = @1):
    #   5  1@1  *   2@1  M    C
    #   4  1@0  C   M    2@1  C
    #   3  D    1@1 M    D    M
    #   2  2@0  3@0 D    C    3@1
    #   1  1@0  2@0 1@0  1@1  M
    #       d   e   f    g    h
    # 1. cats next to a dog: g2 (by g3).  2. mice next to a remaining cat: g5 (h5), f4 (e4), h3 (h4);
    # f3 and h1 stay.  3. cheeses next to f3 or h1: e3, g1, h2, all seat 1's.
    # Seat 0 keeps 1+2+3+1+2+1 = 10 with 6 cards; seat 1 keeps d5 1 + f5 2 + g4 2 = 5 with 3 cards.
    record = {
        "format": "ludotheque-record/1",
        "game": "cheese",
        "players": 2,
        "options": {},
        "actions": [{"by": CHANCE if by == "c" else by, "move": move} for by, move in GOLDEN],
    }
    state = replay_record(record, load_game)
    assert isinstance(state, CheeseState) and state.is_terminal()
    cats, mice, cheeses = state.removed or ([], [], [])
    assert [cell_name(c, 9) for c in cats] == ["g2"]
    assert sorted(cell_name(c, 9) for c in mice) == ["f4", "g5", "h3"]
    assert sorted(cell_name(c, 9) for c in cheeses) == ["e3", "g1", "h2"]
    assert state.returns() == [10.0, 5.0]
    assert state.winners() == [0]
    assert state.to_record() == record
