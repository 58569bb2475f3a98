"""``rules.completable`` (bitsets) against ``rules.completable_by_table``, the reference (safaru-3)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from ludotheque.games.safaru import rules


@given(
    st.lists(st.integers(0, 4), min_size=10, max_size=10),
    st.integers(-2, 20),
    st.integers(0, 4),
    st.booleans(),
    st.integers(0, 4),
    st.booleans(),
)
def test_completable_agrees_with_the_table(
    avail: list[int], need: int, size: int, has_zero: bool, min_size: int, zero_required: bool
) -> None:
    args = (avail, need, size, has_zero, min_size, zero_required)
    assert rules.completable(*args) == rules.completable_by_table(*args)
