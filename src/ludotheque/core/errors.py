"""One error hierarchy for the whole platform.

Every error is a ``ValueError`` so callers that only care about "bad input" can catch that, while the
server and the CLI can tell the cases apart.  Messages name the problem and, where it helps, what is allowed.
"""

from __future__ import annotations


class LudothequeError(ValueError):
    """Base of every error raised for bad input to ludotheque."""


class UnknownGameError(LudothequeError):
    """No game has that id."""


class PlayerCountError(LudothequeError):
    """The game cannot be played by that many players."""


class OptionError(LudothequeError):
    """An option is unknown, or its value is not one the game allows."""


class SeatError(LudothequeError):
    """A seat number outside ``range(players)``."""


class IllegalActionError(LudothequeError):
    """The action is not legal in this state (the state is left unchanged)."""


class NotationError(IllegalActionError):
    """A move written in notation that names no legal action here."""


class GameOverError(IllegalActionError):
    """An action was applied to a finished game."""


class NotYourTurnError(LudothequeError):
    """A seat acted when it was not theirs to act, or the acting seat was ambiguous."""


class RecordError(LudothequeError):
    """A malformed record, or one whose moves do not replay.

    ``index`` is the position in ``record["actions"]`` of the first bad move, or ``None`` when the record is
    malformed before any move is read.
    """

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index
