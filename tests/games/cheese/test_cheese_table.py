"""Cheese Rescue on a table: structured moves, view schema, and what each seat saw (DECISIONS all-3, cheese-3..5)."""

from __future__ import annotations

import pytest

from ludotheque.core import CHANCE
from ludotheque.games import load_game
from ludotheque.games.cheese.display import event_text
from ludotheque.games.cheese.game import CheeseState
from ludotheque.games.cheese.notation import parse_action, to_json
from ludotheque.table import Table
from ludotheque.testing import check_table, fuzz_games

# The seed's worked end, as in test_cheese_rules.py::test_golden_playthrough (2 players; "c" is chance).
GOLDEN = [
    ("c", "cat"), ("c", "dog"), ("c", "mouse"), ("c", "dog"), (0, "C e4"), ("c", "mouse"), (1, "1 e3"),
    ("c", "cat"), (0, "M f3"), ("c", "dog"), (1, "D f2"), ("c", "mouse"), (0, "3 e2"), ("c", "cat"),
    (1, "D d3"), ("c", "mouse"), (0, "2 d2"), ("c", "cat"), (1, "C g2"), ("c", "cat"), (0, "2 e1"),
    ("c", "mouse"), (1, "3 h2"), ("c", "mouse"), (0, "1 d1"), ("c", "cat"), (1, "1 g1"), ("c", "mouse"),
    (0, "M h1"), ("c", "mouse"), (1, "1 d5"), ("c", "mouse"), (0, "1 f1"), (1, "M f4"), (0, "1 d4"),
    (1, "M h3"), (0, "D g3"), (1, "2 f5"), (0, "M g5"), (1, "2 g4"), (0, "C h4"), (1, "C h5"),
]  # fmt: skip


def new_table(players: int) -> Table:
    return Table(load_game("cheese", players=players), [None] * players, events=True)


def draw(table: Table, animal: str) -> None:
    table._apply(CHANCE, table.state.string_to_action(animal, CHANCE))


@pytest.mark.fuzz
@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_moves_and_events_hold_on_random_games(players: int) -> None:
    stats = check_table(load_game("cheese", players=players), games=fuzz_games(3, 60), seed=players)
    assert stats.games and stats.determinizations


def test_a_drawn_animal_is_seen_by_its_drawer_only() -> None:
    # DECISIONS cheese-4 and all-3: hands are secret; the drawer sees its card, the others that it drew one
    table = new_table(2)
    draw(table, "cat")
    assert table.events(0) == [{"seq": 1, "type": "draw", "seat": 0, "card": "C", "pile": 17}]
    assert table.events(1) == [{"seq": 1, "type": "draw", "seat": 0, "pile": 17}]
    assert table.events(None) == table.events(1)
    draw(table, "dog")
    assert table.events(1, since=1) == [{"seq": 2, "type": "draw", "seat": 1, "card": "D", "pile": 16}]
    assert table.events(0, since=1) == [{"seq": 2, "type": "draw", "seat": 1, "pile": 16}]
    assert event_text(table.events(0)[0]) == "seat 0 draws a cat (17 left in the pile)"
    assert event_text(table.events(0)[1]) == "seat 1 draws a card (16 left in the pile)"


def test_a_placed_card_is_public_with_its_grid_coordinates() -> None:
    # DECISIONS cheese-3: the surface is not drawn, so a cell is a row and a column of the frame (from the top
    # left, 9 x 9 with 2 players): e4, just below the start card e5, is row 5, column 4
    table = new_table(2)
    for animal in ("cat", "dog", "mouse", "dog"):
        draw(table, animal)
    table.submit(0, "C e4")
    placed = {"seq": 5, "type": "place", "seat": 0, "card": "C", "row": 5, "col": 4, "cell": "e4"}
    for reader in (0, 1, None):
        assert table.events(reader, since=4) == [placed]
    assert table.log[-1].move == {"type": "place", "card": "C", "row": 5, "col": 4}
    assert table.state.view(None)["table"]["placed"] == [[5 * 9 + 4, 1, 0]]  # the view's cell is row * F + col
    assert event_text(placed) == "seat 0 places a cat on e4"


def test_the_end_event_gives_the_scoring_steps_and_the_remaining_cheese() -> None:
    # DECISIONS cheese-5.  Seed 002: "on retire de la surface de jeu (dans cet ordre) : 1. Toutes les cartes
    # "chat" adjacentes aux cartes "chien". 2. Toutes les cartes "souris" adjacentes aux cartes "chat".
    # 3. Toutes les cartes "fromage" adjacentes aux cartes "souris"."  The event names each step's cards.
    record = {
        "format": "ludotheque-record/1",
        "game": "cheese",
        "players": 2,
        "options": {},
        "actions": [{"by": CHANCE if by == "c" else by, "move": move} for by, move in GOLDEN],
    }
    table = Table.restore(record, events=True)
    assert table.state.is_terminal()
    end = {
        "seq": 42,
        "type": "end",
        "removed": {
            "cats": [{"row": 7, "col": 6, "cell": "g2"}],
            "mice": [
                {"row": 4, "col": 6, "cell": "g5"},
                {"row": 5, "col": 5, "cell": "f4"},
                {"row": 6, "col": 7, "cell": "h3"},
            ],
            "cheeses": [
                {"row": 6, "col": 4, "cell": "e3", "seat": 1, "card": "1"},
                {"row": 7, "col": 7, "cell": "h2", "seat": 1, "card": "3"},
                {"row": 8, "col": 6, "cell": "g1", "seat": 1, "card": "1"},
            ],
        },
        "points": [10, 5],
        "cheese_cards": [6, 3],
        "winners": [0],
    }
    for reader in (0, 1, None):
        last = table.events(reader, since=41)
        assert [e["type"] for e in last] == ["place", "end"]
        assert last[-1] == end
    assert event_text(end) == (
        "scoring: cats scared off by a dog: g2; mice caught by a cat: g5 f4 h3; cheeses eaten by a mouse: "
        "e3 (1 of seat 1) h2 (3 of seat 1) g1 (1 of seat 1); points seat 0 10 (6 cheeses), seat 1 5 (3 cheeses); "
        "won by seat 0"
    )


def test_no_end_event_before_the_square_is_full() -> None:
    # DECISIONS cheese-3.  Seed 002: "La partie se termine quand la surface de jeu est complète. Les joueurs ont
    # tous posé 12 cartes."  No scoring before the last card.
    record = {
        "format": "ludotheque-record/1",
        "game": "cheese",
        "players": 2,
        "options": {},
        "actions": [{"by": CHANCE if by == "c" else by, "move": move} for by, move in GOLDEN[:-1]],
    }
    table = Table.restore(record, events=True)
    assert all(e["type"] != "end" for e in table.events(None))


@pytest.mark.parametrize(("players", "text", "move"), [
    (2, "3 f5", {"type": "place", "card": "3", "row": 4, "col": 5}),
    (3, "D f6", {"type": "place", "card": "D", "row": 5, "col": 5}),  # cheese-2: the first card at the centre
    (4, "M g6", {"type": "place", "card": "M", "row": 7, "col": 6}),
])  # fmt: skip
def test_placements_have_a_structured_form(players: int, text: str, move: dict[str, object]) -> None:
    # DECISIONS cheese-3: row and column count from the frame's top left (F = 2N - 1), whatever the player count
    state = load_game("cheese", players=players).new_initial_state()
    assert isinstance(state, CheeseState)
    action = parse_action(text, state.frame, chance=False)
    assert state.action_to_json(action, 0) == move
    assert to_json(action, state.frame, chance=False) == move


def test_draws_have_a_structured_form() -> None:
    # DECISIONS all-1: each draw is a chance action naming the animal, with the kind letter a placement uses
    state = load_game("cheese", players=2).new_initial_state()
    assert [state.action_to_json(a, CHANCE) for a in state.legal_actions()] == [
        {"type": "draw", "card": "D"},
        {"type": "draw", "card": "C"},
        {"type": "draw", "card": "M"},
    ]


def test_notation_is_parsed_without_listing_the_legal_moves() -> None:
    # DECISIONS cheese-3: a placement is legal on a free cell next to a card within the square; parsing checks
    # that one placement, never the whole list
    state = load_game("cheese", players=4).new_initial_state()
    assert isinstance(state, CheeseState)
    for _ in range(8):
        state.apply_action(state.legal_actions()[0])

    def refuse(player: int) -> list[int]:
        raise AssertionError("string_to_action listed the legal moves")

    state._legal_actions = refuse  # type: ignore[method-assign]
    assert state.string_to_action("1 g6") == 3 * 13 * 13 + 7 * 13 + 6


@pytest.mark.parametrize("players", [2, 3, 4])
def test_more_points_win(players: int) -> None:
    # DECISIONS cheese-5.  Seed 002: "Le gagnant est celui qui a le plus de points."
    assert load_game("cheese", players=players).score_order() == "higher"
