"""What a game declares about itself: its capabilities and its parts, as OpenSpiel's ``GameType`` does.

Each ``games/<id>/__init__.py`` holds one ``GAME = GameType(...)``.  Tools read the declaration instead of
guessing (playing random games to find simultaneous moves) or importing a game's modules by name: a part is
found through ``GAME.part("view")``, an optional one through ``GAME.optional_part("levels")``, which is ``None``
when the game does not declare it.
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Literal, NamedTuple

if TYPE_CHECKING:
    from ludotheque.core.game import Game

#: The parts every game has, each a module of its package: ``game`` (the ``Game`` and ``State`` classes),
#: ``rules``, ``notation`` (``MOVE_SCHEMA``), ``view`` (``observation_shape``, ``encode``, ``TABLE_SCHEMA``),
#: ``events`` (``describe``), ``heuristics`` (the baseline bot) and ``display`` (the terminal's ``render``).
#: ``web`` is a folder (the browser renderer and the rules help), not a module.
REQUIRED_PARTS: tuple[str, ...] = ("game", "rules", "notation", "view", "events", "heuristics", "display")

#: Parts a game may declare: ``levels`` (its own level settings and bots), ``bench`` (its benchmark rows and
#: options), ``native`` (its compiled engine).
OPTIONAL_PARTS: frozenset[str] = frozenset({"levels", "bench", "native"})

#: Whether higher or lower totals win; ``"by_options"`` when an option decides (the game's ``score_order()``).
DeclaredScoreOrder = Literal["higher", "lower", "by_options"]


class CoachThresholds(NamedTuple):
    """How many of the game's points a decision must lose to be an inaccuracy, a mistake, a blunder."""

    inaccuracy: float
    mistake: float
    blunder: float


class PartError(LookupError):
    """A part asked of a game that does not declare it."""


@dataclass(frozen=True)
class GameType:
    """A game's declaration.  ``package`` is the dotted name of its folder; ``game_class`` the name of its
    ``Game`` subclass in the ``game`` part."""

    id: str
    name: str
    package: str
    game_class: str
    min_players: int
    max_players: int
    #: some decision has every seat choose at once (the state's ``current_players()`` lists them all)
    simultaneous: bool
    #: chance nodes occur (shuffles, dice)
    chance: bool
    #: some seat's view hides part of the state from it
    hidden_information: bool
    score_order: DeclaredScoreOrder
    #: the loss in the game's points that makes an inaccuracy, a mistake, a blunder (``docs/coach.md``)
    coach_thresholds: CoachThresholds
    optional_parts: frozenset[str] = field(default_factory=frozenset)
    #: a match of several hands (Mü, Rummü): ``deals_completed`` counts the hands, and the coach values a decision
    #: in the points of its hand
    match_of_hands: bool = False

    def __post_init__(self) -> None:
        unknown = self.optional_parts - OPTIONAL_PARTS
        if unknown:
            raise ValueError(f"{self.id}: unknown optional parts {sorted(unknown)} (known: {sorted(OPTIONAL_PARTS)})")
        if not 1 <= self.min_players <= self.max_players:
            raise ValueError(f"{self.id}: player counts {self.min_players}..{self.max_players}")

    def has_part(self, name: str) -> bool:
        return name in REQUIRED_PARTS or name in self.optional_parts

    def part(self, name: str) -> ModuleType:
        """The module ``name`` of the game's package (imported once, then found in ``sys.modules``)."""
        module = sys.modules.get(f"{self.package}.{name}")  # the hot path: views encoded at every RL step
        if module is not None and self.has_part(name):
            return module
        if not self.has_part(name):
            raise PartError(f"{self.id} declares no part {name!r}")
        return importlib.import_module(f"{self.package}.{name}")

    def optional_part(self, name: str) -> ModuleType | None:
        """An optional part, or ``None`` when the game does not declare it."""
        if name not in OPTIONAL_PARTS:
            raise PartError(f"{name!r} is not an optional part (optional parts: {sorted(OPTIONAL_PARTS)})")
        return self.part(name) if name in self.optional_parts else None

    def load_class(self) -> type[Game]:
        """The game's ``Game`` subclass."""
        cls: type[Game] = getattr(self.part("game"), self.game_class)
        return cls

    @property
    def web_folder(self) -> Path:
        """The folder of the browser renderer and the rules help (``games/<id>/web/``)."""
        package = importlib.import_module(self.package)
        return Path(package.__file__ or "").parent / "web"
