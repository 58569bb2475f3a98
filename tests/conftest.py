"""Shared test settings: hypothesis profiles (``make fuzz`` sets ``LUDOTHEQUE_FUZZ=long``)."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "quick", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "long", max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("long" if os.environ.get("LUDOTHEQUE_FUZZ") == "long" else "quick")
