"""What a seat's own hand can still make of a combination: the help a page gives the person laying one.

The laying steps are legal by the public rule (``rules.addable_types``: some combination of the whole deck holds
the cards, rummu-7), which cannot look at a hand.  A person on a phone who adds a step their hand cannot finish
(after red 1, 2, 3 the joker 5, with no red 4 in hand) is left with greyed cards and only "take the cards back".
So the table's frame for that seat (``help``, from ``RummuGame.seat_help``) says which cards of its hand keep the
combination finishable (``finishable``), which start one (``startable``), and, when nothing in hand can finish the
combination being laid, which cards it lacks (``missing``).  Only the seat's own hand and public cards are used:
nothing the seat does not know.  The search is for a person's page only (bots never ask): the view stays cheap.
"""

from __future__ import annotations

from ludotheque.games.rummu import rules
from ludotheque.games.rummu.rules import CARD_STRS, TYPES


def can_finish(laid: tuple[int, ...], need: int, held: tuple[int, ...], spare: int) -> bool:
    """Whether at most ``spare`` of the ``held`` types (each usable once: a combination never holds two identical
    cards) complete ``laid`` (sorted, non-empty) into a valid combination of at least ``need`` cards."""
    return completion(laid, need, set(held), spare) is not None


def completion(laid: tuple[int, ...], need: int, cards: set[int], spare: int) -> tuple[int, ...] | None:
    """The fewest cards among ``cards`` (at most ``spare``) that make ``laid`` a valid combination of at least
    ``need`` cards, or None.

    The combinations are built, not searched card by card: a set of one number, or a run over a span of numbers
    (shortest first), one colour with jokers (naturals preferred) or one colour per number.  Each candidate is
    judged by the rules' own ``is_valid``, so the help never calls a combination finishable that the table would
    refuse."""
    need = max(3, need)
    cards = cards - set(laid)
    numbers = {c % 10 for c in laid}
    found: list[tuple[int, ...]] = []
    if len(numbers) == 1:  # a set of that number: its other colours, as few as make `need`
        n = next(iter(numbers))
        others = sorted(c for c in cards if c % 10 == n)
        extra = max(0, need - len(laid))
        if extra <= min(spare, len(others)) and rules.is_valid_sorted(tuple(sorted((*laid, *others[:extra])))):
            found.append(tuple(others[:extra]))
    if len(numbers) == len(laid):  # else two cards of one number: a set only
        low, high = min(numbers), max(numbers)
        spans = sorted(
            ((first, last) for first in range(low + 1) for last in range(max(high, first + need - 1), 10)),
            key=lambda span: (span[1] - span[0], span),
        )
        for first, last in spans:
            if last - first + 1 - len(laid) > spare or (found and last - first + 1 - len(laid) >= len(found[0])):
                break
            run = _run(laid, cards, range(first, last + 1))
            if run is not None:
                found.append(run)
                break
    return min(found, key=len) if found else None


def _run(laid: tuple[int, ...], cards: set[int], span: range) -> tuple[int, ...] | None:
    """The cards of ``cards`` that make, with ``laid``, a valid run over exactly the numbers of ``span``; None if
    none do."""
    fixed = {c % 10: c for c in laid}
    for colour in range(len(rules.COLOURS)):  # one colour, a joker where the natural card is missing
        if colour == rules.YELLOW:
            continue
        added = []
        for n in span:
            if n in fixed:
                continue
            if colour * 10 + n in cards:
                added.append(colour * 10 + n)
            elif rules.YELLOW * 10 + n in cards:
                added.append(rules.YELLOW * 10 + n)
            else:
                break
        else:
            if rules.is_valid_sorted(tuple(sorted((*laid, *added)))):
                return tuple(added)
    if len(span) > len(rules.COLOURS):
        return None  # a run of several colours has one colour per number
    choices = [None if n in fixed else sorted(c for c in cards if c % 10 == n) for n in span]
    spread = _distinct_colours(choices, 0, {c // 10 for c in laid})
    if spread is not None and rules.is_valid_sorted(tuple(sorted((*laid, *spread)))):
        return tuple(spread)
    return None


def _distinct_colours(choices: list[list[int] | None], at: int, used: set[int]) -> list[int] | None:
    """One card from each list of ``choices[at:]`` (None: a number already laid), no colour twice nor among
    ``used``; None if there is no such choice (five numbers and five colours at most)."""
    if at == len(choices):
        return []
    options = choices[at]
    if options is None:
        return _distinct_colours(choices, at + 1, used)
    for card in options:
        if card // 10 not in used:
            rest = _distinct_colours(choices, at + 1, used | {card // 10})
            if rest is not None:
                return [card, *rest]
    return None


def finishable(laid: tuple[int, ...], need: int, held: tuple[int, ...], spare: int) -> list[int]:
    """The held types whose addition to ``laid`` (sorted, non-empty) still leaves a combination the hand can
    finish with ``spare`` cards at most, this one included."""
    if spare <= 0:
        return []
    addable = rules.addable_types(laid, need)
    return [
        t
        for t in held
        if addable >> t & 1 and can_finish(tuple(sorted((*laid, t))), need, tuple(x for x in held if x != t), spare - 1)
    ]


def startable(need: int, held: tuple[int, ...], spare: int) -> list[int]:
    """The held types that start a combination of at least ``need`` cards the hand can lay with ``spare`` cards."""
    return [t for t in held if can_finish((t,), need, tuple(x for x in held if x != t), spare - 1)]


def missing(laid: tuple[int, ...], need: int) -> list[int]:
    """Fewest cards of the deck (not the hand's) that make ``laid`` a valid combination of ``need`` cards or more;
    [] when no combination holds ``laid``."""
    found = completion(laid, need, set(range(TYPES)), TYPES)
    return sorted(found) if found is not None else []


def seat_help(hand: list[int], size: int, partial: list[int], need: int) -> dict[str, list[str]]:
    """The help for a seat holding ``hand`` (counts per type, ``size`` cards) in its play phase, laying
    ``partial`` (maybe nothing yet) towards a combination of ``need`` cards; one card always stays for the discard."""
    held = tuple(t for t in range(TYPES) if hand[t])
    spare = size - 1
    if not partial:
        return {"startable": [CARD_STRS[t] for t in startable(need, held, spare)]}
    laid = tuple(sorted(partial))
    can = finishable(laid, need, held, spare)
    help_: dict[str, list[str]] = {"finishable": [CARD_STRS[t] for t in can]}
    if not can and not (len(laid) >= need and rules.is_valid_sorted(laid)):
        help_["missing"] = [CARD_STRS[t] for t in missing(laid, need)]
    return help_
