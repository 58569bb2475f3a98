"""Shared test settings: hypothesis profiles (``make fuzz`` sets ``LUDOTHEQUE_FUZZ=long``)."""

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from ludotheque.server.process import ServerProcess

settings.register_profile(
    "quick", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "long", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("long" if os.environ.get("LUDOTHEQUE_FUZZ") == "long" else "quick")


@pytest.fixture(scope="module")
def sqlite_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server as a host starts it, on an SQLite file of its own, shared by a module's tests."""
    folder = tmp_path_factory.mktemp("server")
    process = ServerProcess(f"sqlite:///{folder / 'ludotheque.db'}", folder).start()
    try:
        yield process
    finally:
        process.stop()
