"""The oracle: ISMCTS over the true state, every card seen.  It is the ceiling of the strength table (how much of
the gap between ``medium`` and perfect information ``hard`` closes, ``docs/bots.md``), a measurement only: it
declares ``omniscient = True``, so ``ask_bot`` hands it the true state only where its caller allows it (an
arena), refuses it everywhere else, and the server never seats it.

``oracle`` searches with ``hard``'s settings at the table; ``oracle:LEVEL`` with another level's.  Its search is
the compiled one where the game runs compiled (the determinization step skipped), else ``bots/ismcts.py``'s over
the true state's copies.
"""

from __future__ import annotations

from typing import Any

from ludotheque.bots.ismcts import ISMCTSBot
from ludotheque.core import Game


class OracleBot(ISMCTSBot):
    omniscient = True

    def __init__(self, game: Game, **settings: Any) -> None:
        settings.setdefault("name", "oracle")
        super().__init__(game, **settings)
