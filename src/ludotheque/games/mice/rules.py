"""MICE to meet you: rules that do not depend on the state's layout (seed 003, DECISIONS mice-1..8).

Everything here is a pure function of small integers, so the state and the heuristic bot share it.
"""

from __future__ import annotations

from collections.abc import Sequence

# mice-1: mouse cards 1..18 in hand; a hand is a bitmask with bit c set for card c.
CARDS: tuple[int, ...] = tuple(range(1, 19))
FULL_HAND = sum(1 << c for c in CARDS)

# mice-1/mice-2: the four dice cards, left to right as the seed lays them; bit i of a face-up mask is
# DICE_CARDS[i].  What each takes away when face down: (red dice, yellow dice).
DICE_CARDS: tuple[int, ...] = (6, 9, 12, 15)
DICE_CARD_INDEX: dict[int, int] = {value: i for i, value in enumerate(DICE_CARDS)}
ALL_FACE_UP = 0b1111
SIX_BIT = 1 << DICE_CARD_INDEX[6]
TAKES_AWAY: dict[int, tuple[int, int]] = {15: (1, 0), 12: (0, 1), 9: (0, 1), 6: (1, 1)}

# Dice slots: 0-1 red, 2-4 yellow.  A turn rolls the seat's red dice into slots 0.. and its yellow dice into
# slots 2.., in that order (reds first); a slot not rolled this turn holds 0.
RED_SLOTS: tuple[int, ...] = (0, 1)
YELLOW_SLOTS: tuple[int, ...] = (2, 3, 4)
SLOT_NAMES: tuple[str, ...] = ("R1", "R2", "Y1", "Y2", "Y3")

LEVELS = ("normal", "advanced", "hardest")
# mice-8: (nuts in the player's reserve, nuts in the middle) at the start of a solo game.
SOLO_NUTS: dict[str, tuple[int, int]] = {"normal": (3, 0), "advanced": (2, 1), "hardest": (0, 3)}
NUTS_PER_PLAYER = 3  # mice-3

# mice-8 / the seed's table, best first.  A solo game's return is its rank (6 = Génial !, 0 = Dommage).
RATINGS: tuple[str, ...] = (
    "Génial !",
    "Formidable.",
    "Très bien.",
    "Bien joué.",
    "Pas mal.",
    "Peut mieux faire !",
    "Dommage, essaye encore !",
)
SOLO_WIN_RANK = 3  # "Bien joué." or better (the hand is empty): winners() == [0]


def dice_counts(face_up: int) -> tuple[int, int]:
    """(red, yellow) dice a seat rolls with these dice cards face up (mice-2)."""
    red, yellow = 2, 3
    for i, value in enumerate(DICE_CARDS):
        if not face_up >> i & 1:
            r, y = TAKES_AWAY[value]
            red -= r
            yellow -= y
    return red, yellow


def slots_rolled(face_up: int) -> tuple[int, ...]:
    """The dice slots a seat rolls, in rolling order."""
    red, yellow = dice_counts(face_up)
    return RED_SLOTS[:red] + YELLOW_SLOTS[:yellow]


def can_flip(face_up: int, value: int) -> bool:
    """A face-up dice card may be turned face down; the 6 only as the last face-up one (mice-2)."""
    bit = 1 << DICE_CARD_INDEX[value]
    if not face_up & bit:
        return False
    return value != 6 or face_up == SIX_BIT


def hand_cards(hand: int) -> list[int]:
    return [c for c in CARDS if hand >> c & 1]


def hand_total(hand: int) -> int:
    return sum(c for c in CARDS if hand >> c & 1)


# Bitmask of the flippable dice card values for each face-up mask (a table: it is asked at every step).
FLIPPABLE: tuple[int, ...] = tuple(
    sum(1 << value for value in DICE_CARDS if can_flip(face_up, value)) for face_up in range(16)
)


def target_mask(hand: int, face_up: int, flips: bool) -> int:
    """Bitmask of the sums that would discard or (when ``flips``) flip a card."""
    return hand | FLIPPABLE[face_up] if flips else hand


def sum_range(values: Sequence[int], nuts: int) -> tuple[int, int]:
    """Lowest and highest sums ``values`` can show when up to ``nuts`` nuts each move one die by ±1 (1..6)."""
    total = sum(values)
    count = len(values)
    down = min(nuts, total - count)
    up = min(nuts, 6 * count - total)
    return total - down, total + up


def reachable(values: Sequence[int], nuts: int, targets: int) -> bool:
    """Whether some sum in ``targets`` (a bitmask) can be shown with the given nuts."""
    return bool(values) and reachable_total(sum(values), len(values), nuts, targets)


def reachable_total(total: int, count: int, nuts: int, targets: int) -> bool:
    """``reachable`` for ``count`` dice showing ``total``: each nut moves the sum by one, within count..6*count."""
    low = total - min(nuts, total - count)
    high = total + min(nuts, 6 * count - total)
    window = ((1 << (high + 1)) - 1) ^ ((1 << low) - 1)
    return bool(targets & window)


def solo_rank(hand: int, face_up: int) -> int:
    """Index into RATINGS (0 best) for a solo game's final position (mice-8)."""
    left = bin(hand).count("1")
    if left == 0:
        return min(4 - bin(face_up).count("1"), 3)  # 4 face up -> 0 "Génial !" ... 1 face up -> 3 "Bien joué."
    return min(3 + left, 6)  # 1 card -> "Pas mal.", 2 -> "Peut mieux faire !", 3+ -> "Dommage"


def ranking_key(hand: int, face_up: int, nuts: int) -> tuple[int, int, int]:
    """Smaller is better (mice-7): hand total, then more face-down dice cards, then more nuts."""
    face_down = 4 - bin(face_up).count("1")
    return (hand_total(hand), -face_down, -nuts)


def final_winners(hands: Sequence[int], face_ups: Sequence[int], nuts: Sequence[int]) -> list[int]:
    """The winning seats of a finished multiplayer game; several when everything is tied (mice-7)."""
    keys = [ranking_key(h, f, k) for h, f, k in zip(hands, face_ups, nuts, strict=True)]
    best = min(keys)
    return [seat for seat, key in enumerate(keys) if key == best]
