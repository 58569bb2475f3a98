"""Mü rules that do not depend on the state's layout (seed 004, DECISIONS mu-1..9).

Cards are handled by *kind*: ``kind = colour * 10 + number`` (50 kinds).  The two 1s and the two 7s of a colour
are identical at the table, so the engine counts copies per kind instead of naming physical cards: hands are
lists of 50 counts, and an action names a kind (and where it is taken from), never a physical copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Final

# mu-1: colours and the numbers of one colour (0, 1, 1, 2, 3, 4, 5, 6, 7, 7, 8, 9).
COLOURS: Final = ("R", "Y", "G", "B", "K")  # red, yellow, green, blue, black (K as in CMYK)
COLOUR_NAMES: Final = ("red", "yellow", "green", "blue", "black")
NUMBERS: Final = tuple(range(10))
KINDS: Final = 50
COPIES: Final = tuple(2 if number in (1, 7) else 1 for number in NUMBERS)  # copies of each number per colour
TRIANGLES: Final = (1, 0, 1, 1, 1, 1, 2, 2, 1, 0)  # mu-1: points of a card by its number
CARDS_PER_COLOUR: Final = sum(COPIES)  # 12
TRIANGLES_PER_COLOUR: Final = sum(t * c for t, c in zip(TRIANGLES, COPIES, strict=True))  # 12


def colour_of(kind: int) -> int:
    return kind // 10


def number_of(kind: int) -> int:
    return kind % 10


def triangles(kind: int) -> int:
    return TRIANGLES[kind % 10]


def full_deck(removed: Sequence[int] = ()) -> list[int]:
    """Counts per kind of the deck once the ``removed`` colours are out (mu-1)."""
    return [0 if kind // 10 in removed else COPIES[kind % 10] for kind in range(KINDS)]


def cards_per_seat(players: int) -> int:
    """mu-1: every card is dealt; 36 cards with 3 players, 60 otherwise."""
    return (36 if players == 3 else 60) // players


# --------------------------------------------------------------------------------------------------
# Trumps (mu-5, mu-6)
# --------------------------------------------------------------------------------------------------
# A trump choice is ``None`` (no trump, only the chief may choose it) or a tuple ``("colour", c)`` /
# ``("number", d)``.  Encoded compactly as an int: 0..4 colour, 10..19 number (10 + d), -1 none.
NO_TRUMP: Final = -1


def is_colour_trump(trump: int) -> bool:
    return 0 <= trump < 5


def is_number_trump(trump: int) -> bool:
    return 10 <= trump < 20


def in_trump(kind: int, trump: int) -> bool:
    """Whether a card belongs to one trump choice (colour or number)."""
    if 0 <= trump < 5:  # is_colour_trump, written out: tricks and the heuristic ask this constantly
        return kind // 10 == trump
    if 10 <= trump < 20:
        return kind % 10 == trump - 10
    return False


def trump_name(trump: int) -> str:
    if is_colour_trump(trump):
        return COLOURS[trump]
    if is_number_trump(trump):
        return str(trump - 10)
    return "none"


def category(kind: int, chief_trump: int, vice_trump: int) -> int:
    """The suit a card belongs to for following (mu-6, mu-7): 5 for trump, else its colour."""
    if 0 <= kind < KINDS:
        return categories(chief_trump, vice_trump)[kind]
    return _category(kind, chief_trump, vice_trump)


def _category(kind: int, chief_trump: int, vice_trump: int) -> int:
    if in_trump(kind, chief_trump) or in_trump(kind, vice_trump):
        return 5
    return kind // 10


@lru_cache(maxsize=512)
def categories(chief_trump: int, vice_trump: int) -> tuple[int, ...]:
    """``category`` of every kind under these trumps (a table: following and tricks ask it for every card)."""
    return tuple(_category(kind, chief_trump, vice_trump) for kind in range(KINDS))


TRUMP_CATEGORY: Final = 5


def strength(kind: int, chief_trump: int, vice_trump: int, led_category: int) -> int:
    """``_strength``, read from a table of the kinds under these trumps and led suit."""
    if 0 <= kind < KINDS:
        return strengths(chief_trump, vice_trump, led_category)[kind]
    return _strength(kind, chief_trump, vice_trump, led_category)


@lru_cache(maxsize=2048)
def strengths(chief_trump: int, vice_trump: int, led_category: int) -> tuple[int, ...]:
    """``strength`` of every kind (a table: every card of every trick is compared)."""
    return tuple(_strength(kind, chief_trump, vice_trump, led_category) for kind in range(KINDS))


def _strength(kind: int, chief_trump: int, vice_trump: int, led_category: int) -> int:
    """A key comparing the cards of one trick (mu-6, mu-7); higher wins, equal keys: the first played wins.

    Tiers: 3 = in both the chief's and the vice's trump, 2 = the chief's trump, 1 = the vice's trump,
    0 = a non-trump card of the led colour, -1 = any other card (it cannot win).  Inside a tier the number
    ranks the cards (9 high) unless the tier is a number trump, whose cards are of equal rank.
    """
    chief = in_trump(kind, chief_trump)
    vice = in_trump(kind, vice_trump)
    number = kind % 10
    if chief and vice:
        # Both choices hold the card: with two colour trumps (the same colour) the numbers still rank; a
        # number in either choice makes every card of this tier that number or a single card, so rank 0.
        rank = number if is_colour_trump(chief_trump) and is_colour_trump(vice_trump) else 0
        return 300 + rank
    if chief:
        return 200 + (number if is_colour_trump(chief_trump) else 0)
    if vice:
        return 100 + (number if is_colour_trump(vice_trump) else 0)
    if kind // 10 == led_category:
        return number
    return -1


def trick_winner(kinds: Sequence[int], chief_trump: int, vice_trump: int) -> int:
    """Index (in play order) of the card that wins a trick; the first of equal keys wins (mu-6)."""
    led = category(kinds[0], chief_trump, vice_trump)
    best, best_key = 0, strength(kinds[0], chief_trump, vice_trump, led)
    for index in range(1, len(kinds)):
        key = strength(kinds[index], chief_trump, vice_trump, led)
        if key > best_key:
            best, best_key = index, key
    return best


def trump_options(laid: Sequence[int]) -> list[int]:
    """Trump choices a seat may name from the kinds it laid in the auction (mu-5): colours, then numbers."""
    colours = sorted({kind // 10 for kind in laid})
    numbers = sorted({10 + kind % 10 for kind in laid})
    return colours + numbers


# --------------------------------------------------------------------------------------------------
# Auction outcome (mu-3, mu-4)
# --------------------------------------------------------------------------------------------------


def tie_maker(bids: Sequence[int], layers: Sequence[int]) -> int:
    """mu-3: the seat that made the tie, among the seats sharing the highest bid the one that laid a card last.
    ``layers`` holds the seat of every card laid in the auction, in order.  A card laid afterwards by a seat below
    the top does not count."""
    top = max(bids)
    return next(seat for seat in reversed(layers) if bids[seat] == top)


def egalite_scores(bids: Sequence[int], tie_maker: int) -> list[int]:
    """mu-3: the seats sharing the highest bid score +5 per card laid, except the one that made the tie
    (``tie_maker``), which scores -10 per card laid; the seats below the top score nothing."""
    top = max(bids)
    out = [0] * len(bids)
    for seat, bid in enumerate(bids):
        if bid == top:
            out[seat] = -10 * bid if seat == tie_maker else 5 * bid
    return out


def choose_vice(bids: Sequence[int], laid_numbers: Sequence[Sequence[int]], chief: int) -> int | None:
    """mu-4: the second highest bid; ties go to the highest card laid, then the next...; else no vice."""
    others = [seat for seat in range(len(bids)) if seat != chief and bids[seat] > 0]
    if len(bids) == 3 or not others:
        return None
    second = max(bids[seat] for seat in others)
    tied = [seat for seat in others if bids[seat] == second]
    keys = {seat: sorted(laid_numbers[seat], reverse=True) for seat in tied}
    best = max(keys.values())
    holders = [seat for seat in tied if keys[seat] == best]
    return holders[0] if len(holders) == 1 else None


# --------------------------------------------------------------------------------------------------
# Scoring (mu-8)
# --------------------------------------------------------------------------------------------------


def contract(players: int, bid: int) -> int:
    """Triangles the chief's team needs for a bid of ``bid`` cards (mu-8)."""
    base, step = {3: (10, 2), 4: (28, 2), 5: (21, 3), 6: (16, 4)}[players]
    return base + step * bid


def bonus(bid: int, chief_trump: int) -> int:
    """What chief and partner each gain when the contract is made (mu-8)."""
    if chief_trump == NO_TRUMP:
        return 10 * bid + 30
    if is_number_trump(chief_trump):
        return 10 * bid + (10 if chief_trump - 10 in (1, 7) else 20)
    return 10 * bid


def shortfall(players: int, bid: int, team_points: int) -> int:
    """``n - k`` of mu-8: k is the largest bid whose contract the team did make (0 if none)."""
    made = [b for b in range(1, bid) if team_points >= contract(players, b)]
    return bid - (max(made) if made else 0)


def hand_scores(
    players: int,
    triangles_won: Sequence[int],
    chief: int,
    partner: int | None,
    bid: int,
    chief_trump: int,
) -> tuple[list[int], bool]:
    """Score deltas of a played hand (mu-8) and whether the contract was made."""
    deltas = list(triangles_won)
    team = triangles_won[chief] + (triangles_won[partner] if partner is not None else 0)
    if team >= contract(players, bid):
        gain = bonus(bid, chief_trump)
        deltas[chief] += gain
        if partner is not None:
            deltas[partner] += gain
        return deltas, True
    missing = shortfall(players, bid, team)
    for seat in range(players):
        if seat == chief:
            deltas[seat] -= 10 * missing
        elif seat != partner:
            deltas[seat] += 5 * missing
    return deltas, False


def match_winners(scores: Sequence[int]) -> list[int]:
    """mu-9: the highest total wins; a shared highest total is a shared win (our reading)."""
    top = max(scores)
    return [seat for seat, score in enumerate(scores) if score == top]
