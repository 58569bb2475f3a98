"""Rummü's benchmark settings (``ludotheque bench`` reads this module; see ``ludotheque.bench``).

Random players never reach the target, so a match without a cap on hands would not end: the benchmark plays
matches of at most 30 hands, which also gives figures comparable from one run to the next.
"""

from __future__ import annotations

from ludotheque.core import OptionValue

#: Options passed to every configuration the benchmark loads.
OPTIONS: dict[str, OptionValue] = {"hands": 30}
