"""The laying step's fast helpers against ``rules.extendable``, the reference (rummu-4, rummu-7)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ludotheque.games.rummu import rules

# partial combinations as random play builds them: a few types, often of neighbouring numbers or one colour
_CARDS = st.lists(st.integers(0, rules.TYPES - 1), min_size=1, max_size=7)
_RUNS = st.builds(
    lambda colour, start, length, colours: [
        (colours[i % len(colours)] if colours else colour) * 10 + (start + i) % 10 for i in range(length)
    ],
    st.integers(0, 4),
    st.integers(0, 9),
    st.integers(1, 7),
    st.lists(st.integers(0, 4), max_size=3),
)
_SETS = st.builds(lambda number, colours: [c * 10 + number for c in colours], st.integers(0, 9),
                  st.lists(st.integers(0, 4), min_size=1, max_size=5))


@given(st.one_of(_CARDS, _RUNS, _SETS), st.integers(0, 12))
def test_extending_types_is_extendable_of_each_type(cards: list[int], need: int) -> None:
    expected = [t for t in range(rules.TYPES) if rules.extendable([*cards, t], need)]
    assert rules.extending_types(cards, need, range(rules.TYPES)) == expected
    held = [t for t in range(rules.TYPES) if t % 3 == 0]
    assert rules.extending_types(cards, need, held) == [t for t in held if t in expected]
    mask = rules.addable_types(tuple(sorted(cards)), need)
    assert [t for t in range(rules.TYPES) if mask >> t & 1] == expected


@given(st.one_of(_CARDS, _RUNS, _SETS))
def test_is_valid_sorted_is_is_valid(cards: list[int]) -> None:
    assert rules.is_valid_sorted(tuple(sorted(cards))) == rules.is_valid(cards)
