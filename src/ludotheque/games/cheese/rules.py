"""Cheese Rescue constants and pure rule functions (seed 002, DECISIONS cheese-1..5).

Cards are told apart by *kind*: ``DOG, CAT, MOUSE`` (animals, drawn from the pile) and ``CHEESE1..3`` (each
seat's own cheeses, told apart by shape, i.e. by owner).  On the board a cell holds a kind, ``START`` (the
neutral start card) or ``EMPTY``; a second array says who placed the card.

The board is a frame of F x F cells, F = 2N - 1, centred on the start card (2 and 4 players) or on the first
card placed (3 players; by translation the first card can be fixed there).  Every N x N square holding the
centre lies inside the frame, so the frame never cuts a legal placement off.
"""

from __future__ import annotations

from functools import cache

DOG, CAT, MOUSE, CHEESE1, CHEESE2, CHEESE3 = range(6)
KINDS = 6
START = 6
EMPTY = -1
ANIMALS = (DOG, CAT, MOUSE)
CHEESES = (CHEESE1, CHEESE2, CHEESE3)
ANIMAL_NAMES = ("dog", "cat", "mouse")
KIND_CODES = ("D", "C", "M", "1", "2", "3")  # notation letters of the kinds
KIND_NAMES = ("dog", "cat", "mouse", "cheese 1", "cheese 2", "cheese 3")

# cheese-1: 6 dogs, 12 cats, 18 mice; set aside by player count; each seat's cheeses 1, 1, 1, 2, 2, 3
ALL_ANIMALS = (6, 12, 18)
SET_ASIDE = {2: (3, 6, 9), 3: (2, 3, 4), 4: (0, 0, 0)}
CHEESE_SET = (3, 2, 1)  # how many cheeses of value 1, 2, 3
STARTING_HAND = (0, 0, 0, *CHEESE_SET)
DEALT_ANIMALS = 2  # cheese-4: two animals each before the first turn
# cheese-2: the side of the square; cheese-3: every seat places 12 cards
SIDE = {2: 5, 3: 6, 4: 7}
PLACEMENTS = 12


def value_of(kind: int) -> int:
    """Points of a cheese kind (0 for animals)."""
    return kind - CHEESE1 + 1 if kind >= CHEESE1 else 0


def pile_counts(players: int) -> list[int]:
    """Dogs, cats, mice in the draw pile at the start (cheese-1)."""
    return [total - out for total, out in zip(ALL_ANIMALS, SET_ASIDE[players], strict=True)]


def has_start_card(players: int) -> bool:
    """cheese-2: a start card with 2 and 4 players, none with 3."""
    return players != 3


@cache
def neighbours(frame: int) -> tuple[tuple[int, ...], ...]:
    """Cells sharing a side with each cell of a frame x frame board (cheese-3, cheese-5)."""
    table = []
    for cell in range(frame * frame):
        row, col = divmod(cell, frame)
        near = []
        if row > 0:
            near.append(cell - frame)
        if col > 0:
            near.append(cell - 1)
        if col < frame - 1:
            near.append(cell + 1)
        if row < frame - 1:
            near.append(cell + frame)
        table.append(tuple(near))
    return tuple(table)


@cache
def rows_cols(frame: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Row and column of each cell of a frame x frame board."""
    cells = range(frame * frame)
    return tuple(c // frame for c in cells), tuple(c % frame for c in cells)


def cascade(cells: list[int], frame: int) -> tuple[list[int], list[int], list[int]]:
    """cheese-5: the cats, mice and cheeses removed, in this order, each step all at once.

    Cats next to a dog go; then mice next to a cat that stayed; then cheeses next to a mouse that stayed.
    Returns three sorted lists of cells.
    """
    near = neighbours(frame)
    cats = [i for i, k in enumerate(cells) if k == CAT and any(cells[j] == DOG for j in near[i])]
    gone = set(cats)
    mice = [i for i, k in enumerate(cells) if k == MOUSE and any(cells[j] == CAT and j not in gone for j in near[i])]
    gone.update(mice)
    cheeses = [
        i
        for i, k in enumerate(cells)
        if k >= CHEESE1 and k != START and any(cells[j] == MOUSE and j not in gone for j in near[i])
    ]
    return cats, mice, cheeses


def scores(
    cells: list[int], owners: list[int], removed_cheeses: list[int], players: int
) -> tuple[list[int], list[int]]:
    """Each seat's points and remaining cheese cards after the cascade (cheese-5)."""
    points = [0] * players
    count = [0] * players
    gone = set(removed_cheeses)
    for i, k in enumerate(cells):
        if CHEESE1 <= k <= CHEESE3 and i not in gone:
            points[owners[i]] += value_of(k)
            count[owners[i]] += 1
    return points, count


def winners(points: list[int], cheese_cards: list[int]) -> list[int]:
    """cheese-5: most points; tied: most remaining cheese cards; still tied: a shared win."""
    best = max(points)
    leaders = [s for s, p in enumerate(points) if p == best]
    most = max(cheese_cards[s] for s in leaders)
    return [s for s in leaders if cheese_cards[s] == most]
