"""A tournament's games written down as they finish (JSON lines), so that a long run can be resumed or stopped.

The first line holds the tournament's identity (game, players, options, bots, seed, and the settings behind each
level the bots name, so that a file played with other level budgets is not silently extended); each further line
is one ``GameResult``, with the game itself as a record (``ludotheque.replay`` plays it back; older lines may have
none).  Running the same tournament again with the same file plays only the games not yet in it; a
smaller ``--games`` summarizes the games already played (whole deals only, so duplicate deals stay balanced).
A run that plays games holds an exclusive lock on its file, so two runs cannot both append the same games; a
summary plays none and only reads.  The lock is POSIX's ``flock``; where there is none (Windows), runs are not
locked against each other, and everything else works.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import Any

from ludotheque.arena.tournament import ArenaSpec, GameResult
from ludotheque.bots.levels import level_settings
from ludotheque.bots.registry import spec_level
from ludotheque.core import LudothequeError, RecordError

FORMAT = "ludotheque-arena/1"


class JournalBusyError(LudothequeError):
    """Another run is appending games to this file."""


def identity(spec: ArenaSpec) -> dict[str, Any]:
    """What must match for two runs to be one tournament (the number of games may grow)."""
    game = spec.game()
    levels = sorted({level for bot in spec.bots if (level := spec_level(bot)) is not None})
    found = {
        "format": FORMAT,
        "game": spec.game_id,
        "players": spec.players,
        "options": spec.options,
        "bots": list(spec.bots),
        "seed": spec.seed,
        "levels": {level: level_settings(game, level) for level in levels},
    }
    if not spec.duplicate:  # written only when off, so that the journals of duplicate runs keep their identity
        found["duplicate"] = False
    return found


def load(path: Path, spec: ArenaSpec) -> list[GameResult]:
    """Games of this tournament already in ``path`` ([] if there is no file yet).

    Raises ``RecordError`` when the file belongs to another tournament or a line is not a game result."""
    if not path.exists():
        return []
    lines = path.read_text().splitlines()
    if not lines:
        return []
    try:
        header = json.loads(lines[0])
    except json.JSONDecodeError as error:
        raise RecordError(f"{path}: the first line is not JSON ({error.msg})") from error
    expected = identity(spec)
    if isinstance(header, dict) and "levels" not in header:
        expected.pop("levels")  # a file written before headers named the level settings
    if header != expected:
        differ = sorted(k for k in expected if not isinstance(header, dict) or header.get(k) != expected[k])
        raise RecordError(f"{path} holds another tournament (differs in: {', '.join(differ)})")
    results = []
    first_line: dict[tuple[int, int], int] = {}
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            result = GameResult(**json.loads(line))
        except (json.JSONDecodeError, TypeError) as error:
            raise RecordError(f"{path}, line {number}: not a game result ({error})") from error
        game = (result.deal, result.seating)
        if game in first_line:
            raise RecordError(
                f"{path}, line {number}: deal {result.deal}, seating {result.seating} is already on line "
                f"{first_line[game]} (did two runs write this file?)"
            )
        first_line[game] = number
        results.append(result)
    return results


def _lock(file: Any) -> None:
    """An exclusive, non-blocking lock on ``file`` where the OS has ``flock`` (``BlockingIOError`` if held)."""
    try:
        import fcntl
    except ImportError:
        return
    fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)


class Journal:
    """Appends each finished game to ``path`` (creating it with its header), holding the file's lock until closed.

    Raises ``JournalBusyError`` when another run holds it: both would play the missing games and write them twice.
    """

    def __init__(self, path: Path, spec: ArenaSpec) -> None:
        self.path = path
        self._file = path.open("a")
        try:
            _lock(self._file)
        except BlockingIOError as error:
            self._file.close()
            raise JournalBusyError(
                f"{path} is being written by another arena run; wait for it, or summarize the games it holds "
                "with a --games no larger than theirs"
            ) from error
        if not path.read_text().strip():
            self._file.truncate(0)
            self._file.write(json.dumps(identity(spec)) + "\n")
            self._file.flush()

    def write(self, result: GameResult) -> None:
        self._file.write(json.dumps(asdict(result)) + "\n")
        self._file.flush()

    def close(self) -> None:
        """Release the file (and its lock)."""
        self._file.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
