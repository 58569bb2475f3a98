"""Cheese Rescue as a ludotheque game (seed 002, DECISIONS cheese-1..5).

Actions: seat action ``kind * F*F + cell`` places a card of ``kind`` (rules.DOG .. rules.CHEESE3) from the
seat's hand on ``cell`` of the F x F frame (F = 2N - 1).  Chance action ``a`` gives the next drawn animal
(rules.DOG, CAT or MOUSE) to the seat that must draw: two per seat before the first turn (seat 0 first, round
after round), then one to the seat that has just placed, while the pile lasts (cheese-4).  Identical animals
are merged into one outcome weighted by how many are left, which is the same as drawing card by card.
"""

from __future__ import annotations

import random
from typing import Any

from ludotheque.core import CHANCE, Actor, Bot, Game, NotationError, State
from ludotheque.games.cheese import GAME, notation, rules, view


class CheeseGame(Game):
    game_type = GAME
    clock_pace = 0.5  # a roll, then one of a few moves
    option_specs = ()

    @property
    def side(self) -> int:
        return rules.SIDE[self.players]

    @property
    def frame(self) -> int:
        return 2 * rules.SIDE[self.players] - 1

    def num_distinct_actions(self) -> int:
        return rules.KINDS * self.frame * self.frame

    def max_chance_outcomes(self) -> int:
        return len(rules.ANIMALS)

    def new_reference_state(self) -> CheeseState:
        return CheeseState(self)

    def heuristic_bot(self) -> Bot:
        from ludotheque.games.cheese.heuristics import CheeseHeuristicBot

        return CheeseHeuristicBot()


class CheeseState(State):
    game: CheeseGame

    def __init__(self, game: CheeseGame) -> None:
        super().__init__(game)
        n = game.players
        frame = game.frame
        self.frame = frame
        self.side = game.side
        self.centre = (frame // 2) * frame + frame // 2
        self.cells: list[int] = [rules.EMPTY] * (frame * frame)  # kind on each cell (rules.START, EMPTY)
        self.owners: list[int] = [-1] * (frame * frame)  # who placed it (-1: start card, empty)
        self.hands: list[list[int]] = [list(rules.STARTING_HAND) for _ in range(n)]  # counts per kind
        self.pile: list[int] = rules.pile_counts(n)  # dogs, cats, mice left to draw
        self.to_draw: list[int] = [seat for _ in range(rules.DEALT_ANIMALS) for seat in range(n)]
        self.turn = 0  # DECISIONS all-2: seat 0 starts
        self.placed: list[int] = [0] * n
        self.order: list[tuple[int, int, int]] = []  # (cell, kind, seat) in placement order
        self.frontier: set[int] = set()  # empty cells sharing a side with a card (pruned: see legal_cells)
        self.box: tuple[int, int, int, int] | None = None  # rows and columns spanned by the cards
        self.removed: tuple[list[int], list[int], list[int]] | None = None  # the cascade, once terminal
        self.cached_cells: tuple[int, ...] | None = None  # legal_cells() until the next placement
        if rules.has_start_card(n):
            self._put(self.centre, rules.START, -1)

    # -- board ------------------------------------------------------------------------------------

    def _put(self, cell: int, kind: int, seat: int) -> None:
        self.cells[cell] = kind
        self.owners[cell] = seat
        self.frontier.discard(cell)
        self.cached_cells = None
        for near in rules.neighbours(self.frame)[cell]:
            if self.cells[near] == rules.EMPTY:
                self.frontier.add(near)
        row, col = divmod(cell, self.frame)
        if self.box is None:
            self.box = (row, row, col, col)
        else:
            r0, r1, c0, c1 = self.box
            self.box = (min(r0, row), max(r1, row), min(c0, col), max(c1, col))

    def fits(self, cell: int) -> bool:
        """cheese-3: the cards plus one on ``cell`` still fit in an N x N square."""
        if self.box is None:
            return True
        row, col = divmod(cell, self.frame)
        r0, r1, c0, c1 = self.box
        return r1 - self.side < row < r0 + self.side and c1 - self.side < col < c0 + self.side

    def legal_cells(self) -> tuple[int, ...]:
        """cheese-3: empty, sharing a side with a card, inside some N x N square with all the cards.

        With 3 players the first card goes anywhere; by translation it is the frame's centre.  Cached until the
        next placement (legality is asked for several times per turn).
        """
        if self.cached_cells is None:
            if self.box is None:
                self.cached_cells = (self.centre,)
            else:
                # the box only grows, so a cell that no longer fits never will: drop it from the frontier
                r0, r1, c0, c1 = self.box
                low_r, high_r, low_c, high_c = r1 - self.side, r0 + self.side, c1 - self.side, c0 + self.side
                rows, cols = rules.rows_cols(self.frame)
                self.frontier = {c for c in self.frontier if low_r < rows[c] < high_r and low_c < cols[c] < high_c}
                self.cached_cells = tuple(sorted(self.frontier))
        return self.cached_cells

    def why_illegal(self, action: int, player: int) -> str:
        """A human reason for an illegal placement (for error messages)."""
        size = self.frame * self.frame
        if not 0 <= action < rules.KINDS * size:
            return f"action {action} is outside 0..{rules.KINDS * size - 1}"
        kind, cell = divmod(action, size)
        name = notation.cell_name(cell, self.frame)
        if self.hands[player][kind] == 0:
            return f"seat {player} holds no {rules.KIND_NAMES[kind]}"
        if self.cells[cell] != rules.EMPTY:
            return f"{name} is taken"
        if self.box is None:
            return f"the first card goes on the centre, {notation.cell_name(self.centre, self.frame)}"
        if all(self.cells[near] == rules.EMPTY for near in rules.neighbours(self.frame)[cell]):
            return f"{name} shares no side with a card"
        if not self.fits(cell):
            return f"a card on {name} would not fit in a {self.side}x{self.side} square with the others"
        return f"{rules.KIND_CODES[kind]} {name} is legal here"

    # -- protocol ---------------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return len(self.order) == rules.PLACEMENTS * self.game.players

    def is_chance_node(self) -> bool:
        return bool(self.to_draw)

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        total = sum(self.pile)
        return [(a, count / total) for a, count in enumerate(self.pile) if count]

    def _current_players(self) -> list[int]:
        return [self.turn]

    def _legal_actions(self, player: int) -> list[int]:
        size = self.frame * self.frame
        cells = self.legal_cells()
        hand = self.hands[player]
        return [kind * size + cell for kind in range(rules.KINDS) if hand[kind] for cell in cells]

    def _is_legal(self, action: int, player: int) -> bool:
        size = self.frame * self.frame
        if not 0 <= action < rules.KINDS * size:
            return False
        kind, cell = divmod(action, size)
        if not self.hands[player][kind]:
            return False
        return cell in self.legal_cells()

    def _illegal_message(self, action: int, player: int) -> str:
        return f"cheese: illegal placement for seat {player}: {self.why_illegal(action, player)}"

    def _apply(self, action: int, player: int | None) -> None:
        if player is None:
            seat = self.to_draw.pop(0)
            self.pile[action] -= 1
            self.hands[seat][action] += 1
            return
        kind, cell = divmod(action, self.frame * self.frame)
        self.hands[player][kind] -= 1
        self._put(cell, kind, player)
        self.placed[player] += 1
        self.order.append((cell, kind, player))
        if sum(self.pile):
            self.to_draw.append(player)  # cheese-4: draw while the pile lasts
        self.turn = (self.turn + 1) % self.game.players
        if self.is_terminal():
            self.removed = rules.cascade(self.cells, self.frame)

    def _action_to_string(self, action: int, actor: Actor) -> str:
        return notation.format_action(action, self.frame, actor == CHANCE)

    def _action_to_json(self, action: int, actor: Actor) -> dict[str, Any]:
        return notation.to_json(action, self.frame, actor == CHANCE)

    def string_to_action(self, text: str, player: Actor | None = None) -> int:
        """Parse the notation straight to its action, then check that one action's legality (no scan)."""
        actor = self._notation_actor(player)
        action = notation.parse_action(text, self.frame, actor == CHANCE, self.game.id)
        if actor == CHANCE:
            if not self.is_chance_node() or self.is_terminal() or not self.pile[action]:
                raise NotationError(f"cheese: no {text.strip()} is left in the pile (or nothing is drawn now)")
            return action
        seat = int(actor)
        if seat not in self.current_players():
            raise NotationError(f"cheese: seat {seat} has no move here, so {text!r} is not legal")
        if not self._is_legal(action, seat):
            raise NotationError(f"cheese: {text!r} is not legal for seat {seat}: {self.why_illegal(action, seat)}")
        return action

    def final_scores(self) -> tuple[list[int], list[int]]:
        """Points and remaining cheese cards per seat (zeros before the end)."""
        n = self.game.players
        if self.removed is None:
            return [0] * n, [0] * n
        return rules.scores(self.cells, self.owners, self.removed[2], n)

    def returns(self) -> list[float]:
        return [float(p) for p in self.final_scores()[0]]

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        return rules.winners(*self.final_scores())

    def _view(self, player: int | None) -> dict[str, Any]:
        return view.table_view(self, player)

    # -- hidden information -----------------------------------------------------------------------

    def resample(self, player: int, rng: random.Random) -> CheeseState:
        """Redraw the animals hidden from ``player``: those still in the other seats' hands, and the pile.

        The history is rebuilt: each animal another seat placed is given that seat's earliest draw not yet
        matched (which draw brought it is hidden), and the draws left unmatched get cards drawn at random from
        the unseen ones, shuffled from a canonical order.  Every placement still follows a draw of its animal,
        so the new history replays, ``player``'s view is unchanged, and states that differ only in cards hidden
        from ``player`` give the same result for the same ``rng``.
        """
        self.check_seat(player)
        replay = CheeseState(self.game)
        history = list(self._history)
        slots: list[list[int]] = [[] for _ in range(self.game.players)]  # history indices of unmatched draws
        for index, (actor, action) in enumerate(self._history):
            if actor == CHANCE:
                slots[replay.to_draw[0]].append(index)
                replay._apply(action, None)
                continue
            seat = int(actor)
            kind = action // (self.frame * self.frame)
            if kind in rules.ANIMALS and seat != player:
                # which draw brought a placed animal is hidden, so it is given the seat's earliest unmatched draw:
                # which draws stay hidden then depends on public moves only, never on the hidden animals
                history[slots[seat].pop(0)] = (CHANCE, kind)
            replay._apply(action, seat)
        hidden = [index for seat, held in enumerate(slots) if seat != player for index in held]
        unseen = [
            animal
            for seat, hand in enumerate(self.hands)
            if seat != player
            for animal in rules.ANIMALS
            for _ in range(hand[animal])
        ]
        for animal, count in enumerate(self.pile):
            unseen.extend([animal] * count)
        unseen.sort()  # canonical order: the draw must not depend on where the hidden animals lie
        rng.shuffle(unseen)
        for index, animal in zip(hidden, unseen, strict=False):
            history[index] = (CHANCE, animal)
        twin = CheeseState(self.game)
        for actor, action in history:
            twin._apply(action, None if actor == CHANCE else int(actor))
        twin._history = history
        return twin

    def clone(self) -> CheeseState:
        twin = CheeseState.__new__(CheeseState)
        twin.game = self.game
        twin._history = list(self._history)
        twin.frame = self.frame
        twin.side = self.side
        twin.centre = self.centre
        twin.cells = list(self.cells)
        twin.owners = list(self.owners)
        twin.hands = [list(h) for h in self.hands]
        twin.pile = list(self.pile)
        twin.to_draw = list(self.to_draw)
        twin.turn = self.turn
        twin.placed = list(self.placed)
        twin.order = list(self.order)
        twin.frontier = set(self.frontier)
        twin.box = self.box
        twin.removed = self.removed  # computed once at the end, never mutated
        twin.cached_cells = self.cached_cells  # a tuple, never mutated
        return twin
