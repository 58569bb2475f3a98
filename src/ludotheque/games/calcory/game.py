"""Calcory as a ludotheque game (seed 004, DECISIONS calcory-1..5).

Model.  The grid is dealt face down at the start, cell by cell in the order A1, A2, ..., F10: chance action
``v`` is "the next card is a v", weighted by how many v are left in the deck (all-1).  After the deal, play
is deterministic: a flip shows the card dealt (or put back) on that cell.  Hidden information is the value
of every face-down card; ``view`` shows face-up cards and the public history of reveals, never a face-down
card's value (calcory-5), so memory lives in the history.  Every reveal is public: all seats watch every
flip (seed: "s'assurant que tous les joueurs peuvent voir"), and a card put back comes from the face-up cards
everybody saw, so every seat knows which value went back where.

Player actions (see ``rules``): ``0..59`` flip that cell, ``60`` stop, ``61`` pass, ``62 + 60 v + c`` put a
``v`` back face down on cell ``c``.  Chance actions: ``0..9``, the value dealt to the next cell.
"""

from __future__ import annotations

import bisect
import random
from itertools import accumulate
from typing import Any

from ludotheque.core import CHANCE, Actor, Bot, Game, NotationError, State
from ludotheque.games.calcory import GAME, notation, rules, view

# Cell status codes.
EMPTY, DOWN, UP, MARKED = 0, 1, 2, 3
# Phases of a turn.
FLIP, PUT_BACK, PASSING, OVER = "flip", "put_back", "pass", "over"
LOG_KEYS = ("turn", "seat", "kind", "cell", "value")
_VALUE_COUNT = len(rules.VALUES)


class CalcoryGame(Game):
    game_type = GAME
    option_specs = ()  # DECISIONS holds no calcory option

    def num_distinct_actions(self) -> int:
        return rules.NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return len(rules.VALUES)

    def new_reference_state(self) -> CalcoryState:
        return CalcoryState(self)

    def heuristic_bot(self) -> Bot:
        from ludotheque.games.calcory.heuristics import CalcoryHeuristicBot

        return CalcoryHeuristicBot()


class CalcoryState(State):
    game: CalcoryGame

    def __init__(self, game: CalcoryGame) -> None:
        super().__init__(game)
        n = game.players
        self.card: list[int] = [-1] * rules.CELLS  # value lying on each cell, -1 = no card
        self.status: list[int] = [EMPTY] * rules.CELLS
        self.seen: list[bool] = [False] * rules.CELLS  # the card now on the cell has been face up before
        self.to_deal: list[int] = list(rules.DECK_COUNTS)  # cards of each value not dealt yet
        self.dealt = 0
        self.face_down = 0  # how many cells hold a face-down card (flippable)
        # the face-down cells in order, kept up to date move by move: listing them is the flip phase's legal
        # actions, asked for at every move, and scanning the 60 statuses each time dominated random play
        self.down_cells: list[int] = []
        self.current = 0  # all-2: seat 0 starts
        self.turn = 0  # 1 for the first turn after the deal
        self.phase = FLIP
        self.flipped: list[int] = []  # cells flipped this turn, in order
        self.total = 0  # their sum
        self.zeros = 0  # how many 0s among them
        self.marked_owner = -1  # seat whose markers lie on the table, -1 = none
        self.marked: list[int] = []  # the marked cells (face up)
        self.markers: list[int] = [rules.MARKERS] * n  # markers at home per seat
        self.holding: list[int] = []  # values taken, one of which goes back (calcory-2, calcory-4)
        self.collecting = False  # the put-back follows a collection (calcory-4) rather than a 13
        self.piles: list[list[int]] = [[] for _ in range(n)]  # values won, in the order won
        # the public history of reveals, column by column (cheap to copy into views): one entry per flip or
        # put-back, with its turn, seat, kind ("flip"/"back"), cell name and value
        self.log: dict[str, list[Any]] = {key: [] for key in LOG_KEYS}
        self.last_turn: dict[str, Any] | None = None  # summary of the last finished turn (public)
        self.ending: dict[str, Any] | None = None  # calcory-4: the single card whose collection ended the game
        self._turn_flips: list[tuple[int, int]] = []  # (cell, value) flipped during the current turn

    # -- protocol ---------------------------------------------------------------------------------
    # The public methods below answer the common cases (a legal action of the seat or chance that acts) in
    # one step, without the base class's chain of hooks; anything else goes to ``State``'s methods, the
    # reference, which validate and raise.  tests/core/test_fast_paths.py checks the two agree.

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.dealt < rules.CELLS

    def current_players(self) -> list[int]:
        return [] if self.phase == OVER or self.dealt < rules.CELLS else [self.current]

    def legal_actions(self, player: int | None = None) -> list[int]:
        if (
            self.phase != OVER
            and self.dealt >= rules.CELLS
            and (player is None or (type(player) is int and player == self.current))
        ):
            return self._legal_actions(self.current)
        return super().legal_actions(player)

    def apply_action(self, action: int, player: Actor | None = None) -> None:
        if type(action) is int and self.phase != OVER:
            if self.dealt < rules.CELLS:
                if (player is None or player == CHANCE) and 0 <= action < _VALUE_COUNT and self.to_deal[action] > 0:
                    self._deal(action)
                    self._history.append((CHANCE, action))
                    return
            else:
                seat = self.current
                if (player is None or (type(player) is int and player == seat)) and self._is_legal(action, seat):
                    self._apply(action, seat)
                    self._history.append((seat, action))
                    return
        super().apply_action(action, player)

    def _chance_cumulative(self) -> tuple[list[int], list[float]] | None:
        if self.dealt >= rules.CELLS:
            return None
        left = rules.CELLS - self.dealt
        to_deal = self.to_deal
        # the very sums ``sample_chance`` would add up from ``_chance_outcomes``
        return [v for v, count in enumerate(to_deal) if count], list(accumulate([c / left for c in to_deal if c]))

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        left = rules.CELLS - self.dealt
        return [(v, count / left) for v, count in enumerate(self.to_deal) if count]

    def _is_chance_outcome(self, action: int) -> bool:
        return 0 <= action < len(rules.VALUES) and self.to_deal[action] > 0

    def _current_players(self) -> list[int]:
        return [self.current]

    def _is_acting(self, player: int) -> bool:
        return player == self.current

    def _legal_actions(self, player: int) -> list[int]:
        if self.phase == FLIP:
            actions = list(self.down_cells)
            if self._can_stop():
                actions.append(rules.STOP)
            return actions
        if self.phase == PASSING:
            return [rules.PASS]
        # PUT_BACK: any value held, on any empty cell (rules.put_action, unrolled: up to 10 x 60 actions)
        empties = [c for c, status in enumerate(self.status) if status == EMPTY]
        actions = []
        for value in sorted(set(self.holding)):
            base = rules.put_action(value, 0)
            actions.extend([base + c for c in empties])
        return actions

    def _is_legal(self, action: int, player: int) -> bool:
        if not 0 <= action < rules.NUM_ACTIONS:
            return False
        if self.phase == FLIP:
            if action < rules.CELLS:
                return self.status[action] == DOWN
            return action == rules.STOP and self._can_stop()
        if self.phase == PASSING:
            return action == rules.PASS
        if action < rules.PUT_BASE:
            return False
        value, cell = rules.split_put(action)
        return value in self.holding and self.status[cell] == EMPTY

    def _can_stop(self) -> bool:
        """calcory-2/3: enough cards flipped to stop, and enough markers at home to mark them."""
        count = len(self.flipped)
        seat = self.current
        return rules.min_cards_to_stop(len(self.piles[seat])) <= count <= self.markers[seat]

    def _apply(self, action: int, player: int | None) -> None:
        if player is None:
            self._deal(action)
        elif action < rules.CELLS:
            self._flip(action)
        elif action == rules.STOP:
            self._stop()
        elif action == rules.PASS:
            self._pass()
        else:
            self._put_back(*rules.split_put(action))

    # -- the moves --------------------------------------------------------------------------------

    def _deal(self, value: int) -> None:
        cell = self.dealt
        self.card[cell] = value
        self.status[cell] = DOWN
        self.to_deal[value] -= 1
        self.dealt += 1
        self.face_down += 1
        self.down_cells.append(cell)  # cells are dealt in order, so the list stays sorted
        if self.dealt == rules.CELLS:
            self._begin_turn(0)

    def _flip(self, cell: int) -> None:
        value = self.card[cell]
        self.status[cell] = UP
        self.seen[cell] = True
        self.face_down -= 1
        self.down_cells.remove(cell)
        self.flipped.append(cell)
        self._turn_flips.append((cell, value))
        self.total += value
        self.zeros += value == 0
        self._note(self.current, "flip", cell, value)
        if rules.busts(self.total, self.zeros):
            self._turn_back(self.flipped)  # calcory-2: the turn fails
            self._end_turn("bust")
        elif self.total == rules.TARGET:
            self.holding = [self.card[c] for c in self.flipped]  # calcory-2: take them, one goes back
            for c in self.flipped:
                self._remove(c)
            self.flipped = []
            self.collecting = False
            self.phase = PUT_BACK
        elif self.face_down == 0 and not self._can_stop():
            self.phase = PASSING  # nothing left to flip and stopping not allowed: the turn fails

    def _stop(self) -> None:
        seat = self.current
        if self.marked_owner < 0:
            self._mark(seat)  # calcory-3: nothing marked, the flipped cards are marked
            self._end_turn("mark")
            return
        old_sum = sum(self.card[c] for c in self.marked)
        if rules.beats(self.total, len(self.flipped), old_sum, len(self.marked)):
            beaten = self.marked_owner
            self.markers[beaten] += len(self.marked)  # the beaten markers go home
            self._turn_back(self.marked)
            self.marked = []
            self.marked_owner = -1
            self._mark(seat)
            self._end_turn("beat", beaten=beaten)
        else:
            self._turn_back(self.flipped)  # calcory-3: stopping without beating them fails
            self._end_turn("fail")

    def _pass(self) -> None:
        if self.flipped:
            self._turn_back(self.flipped)
            self._end_turn("stuck")
        else:
            self._end_turn("pass")

    def _put_back(self, value: int, cell: int) -> None:
        seat = self.current
        self.holding.remove(value)
        self.card[cell] = value
        self.status[cell] = DOWN
        self.seen[cell] = True  # everyone saw which card went back (calcory: it stays known)
        self.face_down += 1
        bisect.insort(self.down_cells, cell)
        self.piles[seat].extend(self.holding)
        kept = len(self.holding)
        self.holding = []
        self._note(seat, "back", cell, value)
        self._end_turn("collect" if self.collecting else "13", back=(cell, value), kept=kept)

    # -- helpers ----------------------------------------------------------------------------------

    def _note(self, seat: int, kind: str, cell: int, value: int) -> None:
        log = self.log
        log["turn"].append(self.turn)
        log["seat"].append(seat)
        log["kind"].append(kind)
        log["cell"].append(rules.CELL_NAMES[cell])
        log["value"].append(value)

    def _mark(self, seat: int) -> None:
        for c in self.flipped:
            self.status[c] = MARKED
        self.marked = list(self.flipped)
        self.marked_owner = seat
        self.markers[seat] -= len(self.flipped)
        self.flipped = []

    def _turn_back(self, cells: list[int]) -> None:
        for c in cells:
            self.status[c] = DOWN
        self.face_down += len(cells)
        self.down_cells.extend(cells)
        self.down_cells.sort()
        if cells is self.flipped:
            self.flipped = []

    def _remove(self, cell: int) -> None:
        if self.status[cell] == DOWN:  # never in play (only face-up cards are taken), but keep the list true
            self.down_cells.remove(cell)
        self.card[cell] = -1
        self.status[cell] = EMPTY
        self.seen[cell] = False

    def _end_turn(self, outcome: str, **extra: Any) -> None:
        summary: dict[str, Any] = {
            "turn": self.turn,
            "seat": self.current,
            "flips": [[rules.CELL_NAMES[c], v] for c, v in self._turn_flips],
            "outcome": outcome,
        }
        if "back" in extra:
            cell, value = extra["back"]
            summary["back"] = [rules.CELL_NAMES[cell], value]
            summary["kept"] = extra["kept"]
        if "beaten" in extra:
            summary["beaten"] = extra["beaten"]
        self.last_turn = summary
        self.collecting = False
        self.flipped = []
        self._turn_flips = []
        self.total = 0
        self.zeros = 0
        self._begin_turn((self.current + 1) % self.game.players)

    def _begin_turn(self, seat: int) -> None:
        self.current = seat
        self.turn += 1
        if self.marked_owner == seat:
            # calcory-4: the marks survived a full round; the owner takes those cards
            cells = self.marked
            cards = [self.card[c] for c in cells]
            for c in cells:
                self._remove(c)
            self.markers[seat] += len(self.marked)
            self.marked = []
            self.marked_owner = -1
            if len(cards) == 1:
                self.piles[seat].extend(cards)  # a single card is kept and the game ends
                name = rules.CELL_NAMES[cells[0]]
                self.ending = {"turn": self.turn, "seat": seat, "cell": name, "value": cards[0]}
                self.phase = OVER
                return
            self.holding = cards
            self.collecting = True
            self.phase = PUT_BACK
        elif self.face_down == 0:
            self.phase = PASSING  # calcory-4: nothing to flip
        else:
            self.phase = FLIP

    # -- notation, results, views -----------------------------------------------------------------

    def _action_to_string(self, action: int, actor: Actor) -> str:
        if actor == CHANCE:
            return notation.format_deal(self.dealt, action)
        return notation.format_action(action)

    def _action_to_json(self, action: int, actor: Actor) -> dict[str, Any]:
        if actor == CHANCE:
            return notation.deal_to_json(self.dealt, action)
        return notation.to_json(action)

    def string_to_action(self, text: str, player: Actor | None = None) -> int:
        """Notation parsed directly, then checked with the cheap legality tests (no list of legal moves)."""
        actor = self._notation_actor(player)
        if actor == CHANCE:
            if self.is_terminal() or not self.is_chance_node():
                raise NotationError(f"{self.game.id}: chance does not act here, so {text!r} is not legal")
            action = notation.parse_deal(text, self.dealt)
            legal = self._is_chance_outcome(action)
        else:
            action = notation.parse_action(text)
            legal = (
                not self.is_terminal()
                and not self.is_chance_node()
                and self._is_acting(actor)
                and self._is_legal(action, actor)
            )
        if not legal:
            return super().string_to_action(text, actor)  # raises a NotationError listing legal moves
        return action

    def returns(self) -> list[float]:
        return [float(len(pile)) for pile in self.piles]

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        return rules.winners([len(pile) for pile in self.piles])

    def _view(self, player: int | None) -> dict[str, Any]:
        return view.table_view(self, player)

    def resample(self, player: int, rng: random.Random) -> CalcoryState:
        """Shuffle the values of the never-seen face-down cards among their cells and rewrite the deal.

        Every seat saw the same things (all reveals are public), so the same cells are hidden from all.  A
        never-seen card still lies on the cell it was dealt to and never showed up in the history after the
        deal, so the rest of the history replays unchanged.
        """
        self.check_seat(player)
        twin = self.clone()
        hidden = [c for c in range(self.dealt) if self.status[c] == DOWN and not self.seen[c]]
        # sorted before the shuffle: the draw must not depend on how the hidden values lie (the coach's review
        # of two deals that differ only in hidden cards uses the same determinizations)
        values = sorted(self.card[c] for c in hidden)
        rng.shuffle(values)
        for c, v in zip(hidden, values, strict=True):
            twin.card[c] = v
            twin._history[c] = (CHANCE, v)  # history entry c dealt cell c
        return twin

    def clone(self) -> CalcoryState:
        twin = CalcoryState.__new__(CalcoryState)
        twin.game = self.game
        twin._history = list(self._history)
        twin.card = list(self.card)
        twin.status = list(self.status)
        twin.seen = list(self.seen)
        twin.to_deal = list(self.to_deal)
        twin.dealt = self.dealt
        twin.face_down = self.face_down
        twin.down_cells = list(self.down_cells)
        twin.current = self.current
        twin.turn = self.turn
        twin.phase = self.phase
        twin.flipped = list(self.flipped)
        twin.total = self.total
        twin.zeros = self.zeros
        twin.marked_owner = self.marked_owner
        twin.marked = list(self.marked)
        twin.markers = list(self.markers)
        twin.holding = list(self.holding)
        twin.collecting = self.collecting
        twin.piles = [list(p) for p in self.piles]
        twin.log = {key: list(column) for key, column in self.log.items()}
        twin.last_turn = self.last_turn  # replaced, never mutated
        twin.ending = self.ending
        twin._turn_flips = list(self._turn_flips)
        return twin
