"""Calcory rules that do not depend on the state's layout (DECISIONS calcory-1..5).

The grid has 6 rows ``A``..``F`` of 10 columns ``1``..``10``; cell ``r * 10 + c`` is named ``"A1"``..``"F10"``.
Only the numbers of the Mü & Mehr cards matter (calcory-1): each of the 5 colours holds 0, 1, 1, 2, 3, 4, 5,
6, 7, 7, 8, 9, so the 60 cards are ten 1s, ten 7s and five of every other number.
"""

from __future__ import annotations

from typing import Final

ROWS: Final = 6
COLS: Final = 10
CELLS: Final = ROWS * COLS
ROW_NAMES: Final = "ABCDEF"
VALUES: Final = tuple(range(10))
# calcory-1 / mu-1: how many cards of each number 0..9 the 60-card deck holds.
DECK_COUNTS: Final = (5, 10, 5, 5, 5, 5, 5, 10, 5, 5)
DECK_SIZE: Final = sum(DECK_COUNTS)
MARKERS: Final = 6  # calcory-1: markers per player
TARGET: Final = 13  # calcory-2

# Player action space: flip a cell, stop, pass, put back a value on an empty cell.
STOP: Final = CELLS  # 60
PASS: Final = CELLS + 1  # 61
PUT_BASE: Final = CELLS + 2  # 62 + value * 60 + cell
NUM_ACTIONS: Final = PUT_BASE + len(VALUES) * CELLS  # 662

assert DECK_SIZE == CELLS


def cell_name(cell: int) -> str:
    return f"{ROW_NAMES[cell // COLS]}{cell % COLS + 1}"


CELL_NAMES: Final = tuple(cell_name(c) for c in range(CELLS))
CELL_INDEX: Final = {name: c for c, name in enumerate(CELL_NAMES)}


def put_action(value: int, cell: int) -> int:
    return PUT_BASE + value * CELLS + cell


def split_put(action: int) -> tuple[int, int]:
    """(value, cell) of a put-back action."""
    return divmod(action - PUT_BASE, CELLS)


def min_cards_to_stop(cards_won: int) -> int:
    """calcory-2: a player who has won no card yet must have flipped at least 2 cards to stop."""
    return 1 if cards_won else 2


def beats(new_sum: int, new_count: int, old_sum: int, old_count: int) -> bool:
    """calcory-3: a higher sum beats the marked cards, or an equal sum made with more cards."""
    return new_sum > old_sum or (new_sum == old_sum and new_count > old_count)


def busts(total: int, zeros: int) -> bool:
    """calcory-2: over 13, or a second 0, fails the turn."""
    return total > TARGET or zeros >= 2


def winners(piles: list[int]) -> list[int]:
    """calcory-4: most cards wins; equal best counts share the win (the seed is silent on ties)."""
    best = max(piles)
    return [seat for seat, count in enumerate(piles) if count == best]
