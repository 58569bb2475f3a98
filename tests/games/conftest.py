"""The games' own tests check the reference engines (their fields, fast paths and rules), so they run on the
Python engine whatever ``LUDOTHEQUE_ENGINE`` says; tests/native/ holds the compiled engines to them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ludotheque.core.native import use_engine


@pytest.fixture(autouse=True)
def reference_engine() -> Iterator[None]:
    previous = use_engine("python")
    yield
    use_engine(previous)
