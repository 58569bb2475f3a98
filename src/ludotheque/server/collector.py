"""The garbage collector's pace in a server process.

CPython's default thresholds (700, 10, 10) run a young collection every 700 allocations and, on a heap as large as a
server's (every live table's state, view and log), a full collection often enough that its pauses, 40 to 100 ms on
this project's load benchmark with 1,000 tables, became the p99 of a person's move.  Almost all of a server's
garbage is freed by reference counting the moment it is dropped; the collector is only needed for cycles, which are
rare here.  So the server collects far less often (``THRESHOLDS``), and the objects it holds after its start (the
restored tables, the catalogues, the modules) are frozen out of every collection (``gc.freeze``).
``docs/performance.md`` shows the effect with the command to measure it.
"""

from __future__ import annotations

import gc

#: a young collection every 50,000 allocations, a middle one every 20 of those, a full one every 1,000 middle ones
THRESHOLDS = (50_000, 20, 1_000)


def pace_for_a_server() -> None:
    gc.set_threshold(*THRESHOLDS)


def freeze_what_start_made() -> None:
    """Collect once, then keep everything alive now out of every later collection."""
    gc.collect()
    gc.freeze()
