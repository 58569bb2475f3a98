"""The compiled engines' tests run on the native engine (tests/games/ force the reference)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ludotheque.core.native import use_engine


@pytest.fixture(autouse=True)
def native_engine() -> Iterator[None]:
    previous = use_engine("native")
    yield
    use_engine(previous)
