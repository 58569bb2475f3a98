"""MICE to meet you as a ludotheque game (seed 003, DECISIONS mice-1..8), multiplayer and solo.

A turn is split into steps (docs/games/mice.md has the full picture):

``roll``    chance rolls the active seat's dice one by one, reds first (mice-2: the face-up dice cards say which);
``select``  the active seat picks the yellow dice it adds to its red ones (``use R+Y2``) or fails (``fail``);
``adjust``  whoever uses dice pays nuts for ±1 changes (``Y1-1``), then cages or flips the card of the sum;
``fail``    after a failed roll: take back the cage top / turn a dice card face up (solo: flip a dice card);
``pay``     each passive seat in turn (solo: the player, for a second card) passes or pays to use what is left.

Steps where the rules leave nobody a choice are applied at once and logged: a roll whose sums can reach no card
is a failure; a seat that cannot use (or pay for) the remaining dice passes; a failed roll with nothing to take
back or turn up has no consequence.  Every step a seat takes spends a nut or ends its part of the turn, so a turn
always ends.  What such steps did is kept, for the last action only, in ``notes`` (structured, for
``events.describe``), besides the readable ``this_turn`` log of the view.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from ludotheque.core import CHANCE, Actor, Bot, Game, NotationError, OptionError, OptionSpec, State
from ludotheque.core.game import ScoreOrder
from ludotheque.games.mice import GAME, notation, rules, view
from ludotheque.games.mice.notation import (
    ADJUST,
    CAGE,
    FAIL,
    FLIP,
    PASS,
    PAY,
    TAKE_BACK,
    UNFLIP,
    USE,
)

ROLL, SELECT, ADJUSTING, FAILED, PAYING, OVER = "roll", "select", "adjust", "fail", "pay", "over"
RED_MASK = 0b00011
YELLOW_MASK = 0b11100
DIE_OUTCOMES = tuple((face, 1.0 / 6.0) for face in range(6))
#: what ``sample_chance`` draws a die from (``State._chance_cumulative``): its sums, as it would add them
_DIE_DRAW = (tuple(range(6)), tuple(itertools.accumulate(p for _, p in DIE_OUTCOMES)))
#: the log's text of a die (by slot) showing each face, and of each seat action (but ``take back``, which names
#: the card it returns): written once, not at every action
_DIE_TEXT = tuple(
    tuple(notation.format_chance(face, "R" if slot < 2 else "Y") for face in range(6)) for slot in range(5)
)
#: the slots of each slot mask, the number of bits of each, and for each roll (the slots rolled, a tuple) its
#: red slot mask and its number of yellow dice
_SLOTS: tuple[tuple[int, ...], ...] = tuple(tuple(s for s in range(5) if mask >> s & 1) for mask in range(32))
_BITS: tuple[int, ...] = tuple(len(slots) for slots in _SLOTS)
_ROLL_SHAPE: dict[tuple[int, ...], tuple[int, int]] = {
    rolled: (sum(1 << s for s in rolled if s < 2), sum(1 for s in rolled if s >= 2))
    for rolled in {rules.slots_rolled(face_up) for face_up in range(16)}
}


def _reachable(total: int, count: int, nuts: int, targets: int) -> bool:
    """``rules.reachable_total`` written without calls (``count`` >= 1): the sums ``count`` dice showing
    ``total`` can reach with ``nuts`` changes of one, within count..6*count, meet ``targets``."""
    spare = total - count
    low = total - (nuts if nuts < spare else spare)
    spare = 6 * count - total
    high = total + (nuts if nuts < spare else spare)
    return bool(targets >> low & ((1 << (high - low + 1)) - 1))


#: the log's opening of a roll (by seat, slot and face) and what each further die adds to it
_ROLL_TEXT = tuple(
    tuple(tuple(f"seat {seat} rolls {text}" for text in faces) for faces in _DIE_TEXT) for seat in range(5)
)
_MORE_DICE_TEXT = tuple(tuple(" " + text for text in faces) for faces in _DIE_TEXT)
_SEAT_ACTION_TEXT = tuple(
    tuple(f"seat {seat}: {notation.format_action(action)}" for action in range(notation.NUM_ACTIONS))
    for seat in range(5)
)
#: the slots each face-up mask of dice cards rolls (``rules.slots_rolled``)
_SLOTS_ROLLED = tuple(rules.slots_rolled(face_up) for face_up in range(16))


class MiceGame(Game):
    game_type = GAME
    option_specs = (
        OptionSpec(
            "level",
            "normal",
            "mice-8, solo only: normal = 3 nuts in hand; advanced = 2 nuts and 1 in the middle; "
            "hardest = no nut and 3 in the middle",
            choices=rules.LEVELS,
        ),
    )

    def _check_options(self) -> None:
        if self.players > 1 and self.options["level"] != "normal":
            raise OptionError(f"mice: option 'level' is for the solo game (1 player), not {self.players} players")

    @property
    def solo(self) -> bool:
        return self.players == 1

    def score_order(self) -> ScoreOrder:
        """Multiplayer: ``returns()`` are hand totals and the lowest wins (mice-7).  Solo: ``returns()`` is the
        rating's rank, 6 (Génial !) down to 0 (Dommage), so the higher the better (mice-8)."""
        return "higher" if self.solo else "lower"

    def num_distinct_actions(self) -> int:
        return notation.NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return notation.NUM_CHANCE

    def new_reference_state(self) -> MiceState:
        return MiceState(self)

    def heuristic_bot(self) -> Bot:
        from ludotheque.games.mice.heuristics import MiceHeuristicBot

        return MiceHeuristicBot()


class MiceState(State):
    game: MiceGame

    def __init__(self, game: MiceGame) -> None:
        super().__init__(game)
        n = game.players
        self.solo = game.solo
        self.hands: list[int] = [rules.FULL_HAND] * n
        self.cages: list[list[int]] = [[] for _ in range(n)]  # open piles, top card last
        self.face_up: list[int] = [rules.ALL_FACE_UP] * n
        if self.solo:  # mice-8: the "supply" is the middle of the table
            own, middle = rules.SOLO_NUTS[str(game.options["level"])]
            self.nuts: list[int] = [own]
            self.supply = middle
        else:  # mice-3
            self.nuts = [0] * n
            self.supply = rules.NUTS_PER_PLAYER * n
        self.active = 0  # all-2: seat 0 starts
        self.turn = 0
        self.phase = ROLL
        self.actor = 0  # the seat deciding now (outside ROLL and OVER)
        self.dice: list[int] = [0] * 5  # slot values this turn (0: not rolled)
        self.rolled: tuple[int, ...] = ()
        self.roll_index = 0
        self.used = 0  # slot mask used by the seat in ADJUSTING
        self.active_used = 0  # slot mask the active seat used (0 after a failure)
        self.pool = 0  # slot mask left to the passive seats (solo: to a second card)
        self.failed = False
        self.second = False  # solo: the player paid for a second card this turn
        self.queue: list[int] = []  # passive seats still to be asked this turn
        self.this_turn: list[str] = []
        self.last_turn: list[str] = []
        self._legal: list[int] | None = None  # the acting seat's legal actions, cached until the next action
        self.notes: list[dict[str, Any]] = []  # what the last action set off by itself (events.describe reads it)
        self._start_turn()

    # -- turn flow ----------------------------------------------------------------------------------

    def _start_turn(self) -> None:
        if self.this_turn:
            self.last_turn = self.this_turn
        self.this_turn = []
        self.turn += 1
        self.dice = [0] * 5
        self.rolled = _SLOTS_ROLLED[self.face_up[self.active]]
        self.roll_index = 0
        self.used = self.active_used = self.pool = 0
        self.failed = self.second = False
        self.queue = []
        self.phase = ROLL
        self.actor = self.active

    def _end(self) -> None:
        self.phase = OVER
        self.queue = []
        if self.solo:
            self.this_turn.append(f"game over: {rules.RATINGS[self._solo_rank()]}")
        else:
            names = ", ".join(str(s) for s in rules.final_winners(self.hands, self.face_up, self.nuts))
            self.this_turn.append(f"game over: seat(s) {names} win")

    def _next_turn(self) -> None:
        self.active = (self.active + 1) % self.game.players
        self._start_turn()

    def _targets(self, seat: int) -> int:
        """Sums that would cage a mouse card or (multiplayer) flip a dice card of ``seat``."""
        hand = self.hands[seat]
        return hand if self.solo else hand | rules.FLIPPABLE[self.face_up[seat]]  # rules.target_mask

    def _values(self, mask: int) -> list[int]:
        return [self.dice[s] for s in range(5) if mask >> s & 1]

    def _red_mask(self) -> int:
        return _ROLL_SHAPE[self.rolled][0]

    def _yellow_count(self) -> int:
        return _ROLL_SHAPE[self.rolled][1]

    def _total(self, mask: int) -> int:
        """The sum of the dice in a slot mask (a slot not rolled holds 0)."""
        dice = self.dice
        return sum([dice[s] for s in _SLOTS[mask]])

    def _uses(self) -> list[int]:
        """The ``use`` actions of the active seat: the choices of yellow dice that, with the red ones, can reach
        a card with the seat's nuts (``rules.reachable`` of each choice's values, written out: this runs after
        every roll)."""
        red, yellows = _ROLL_SHAPE[self.rolled]
        nuts, targets = self.nuts[self.active], self._targets(self.active)
        dice = self.dice
        red_total, red_count = dice[0] + dice[1], _BITS[red]
        y1, y2, y3 = dice[2], dice[3], dice[4]
        uses = []
        for m in range(1 << yellows):
            count = red_count + _BITS[m]
            if count and _reachable(
                red_total + (y1 if m & 1 else 0) + (y2 if m & 2 else 0) + (y3 if m & 4 else 0), count, nuts, targets
            ):
                uses.append(USE + m)
        return uses

    def _enter_select(self) -> None:
        self.phase = SELECT
        self.actor = self.active
        uses = self._uses()
        if uses:
            self._legal = [*uses, FAIL]  # computed anyway: keep it as the cached legal actions
        else:
            self.this_turn.append(f"seat {self.active} fails: no sum reaches a card")
            self.notes.append({"type": "fail", "seat": self.active, "forced": True})
            self._fail()

    def _fail(self) -> None:
        """mice-5 (solo: mice-8): the roll is not used."""
        self.failed = True
        self.active_used = 0
        seat = self.active
        if self.solo:
            self.phase = FAILED  # a face-up dice card is always left while the game goes on
            return
        self.pool = sum(1 << s for s in self.rolled)  # the passive seats may use all dice
        if self.cages[seat] or self.face_up[seat] != rules.ALL_FACE_UP:
            self.phase = FAILED
            return
        self.this_turn.append(f"seat {seat} has nothing to take back or turn up")
        self.notes.append({"type": "nothing_to_undo", "seat": seat})
        self._start_passives()

    def _pay_nuts_left(self, seat: int) -> int | None:
        """Nuts ``seat`` keeps for changes after paying to use the pool, or None if it cannot pay."""
        if self.solo:
            return self.nuts[seat] - 1 if self.nuts[seat] > 0 else None
        if self.supply > 0:
            return self.nuts[seat]
        return self.nuts[seat] - 1 if self.nuts[seat] > 0 else None

    def _offer(self, seat: int) -> bool:
        """Whether ``seat`` may pay to use the pool; when it may not, a note says why (no nut, or no card)."""
        left = self._pay_nuts_left(seat)
        if left is None:
            reason = "no_nut"
        else:
            pool = self.pool
            count = _BITS[pool]
            if count and _reachable(self._total(pool), count, left, self._targets(seat)):
                return True
            reason = "no_card"
        self.notes.append({"type": "cannot_use", "seat": seat, "reason": reason})
        return False

    def _note_pool(self) -> None:
        values = self._values(self.pool)
        self.notes.append(
            {
                "type": "pool",
                "seat": self.active,
                "dice": view.slot_names(self.pool),
                "values": values,
                "sum": sum(values),
                "failed": self.failed,
            }
        )

    def _start_passives(self) -> None:
        n = self.game.players
        self.queue = [(self.active + k) % n for k in range(1, n)] if self.pool else []
        if self.pool:
            self._note_pool()
        self._next_passive()

    def _next_passive(self) -> None:
        while self.queue:
            seat = self.queue.pop(0)
            if self._offer(seat):
                self.phase = PAYING
                self.actor = seat
                return
        self._next_turn()

    def _after_use(self, seat: int) -> None:
        if self.solo:
            if self.hands[0] == 0:
                self._end()
            elif not self.second:
                self.pool = YELLOW_MASK & ~self.used & sum(1 << s for s in self.rolled)
                if self.pool:
                    self._note_pool()
                if self.pool and self._offer(0):
                    self.phase = PAYING
                    self.actor = 0
                else:
                    self._solo_close()
            else:
                self.pool = 0  # the second card used every remaining yellow die
                self._solo_close()
            return
        if seat == self.active:
            self.pool = YELLOW_MASK & ~self.used & sum(1 << s for s in self.rolled)
            self._start_passives()
        else:
            self._next_passive()

    def _solo_close(self) -> None:
        """mice-8: a nut from the middle when the roll caged a card and the yellow dice left unused sum to 15+."""
        left = self._total(self.pool)
        if left >= 15 and self.supply > 0:
            self.supply -= 1
            self.nuts[0] += 1
            self.this_turn.append("seat 0 takes a nut from the middle (unused yellow dice sum to 15 or more)")
            self.notes.append({"type": "bonus_nut", "seat": 0, "sum": left, "nut": {"from": "middle", "to": 0}})
        self._next_turn()

    def _solo_rank(self) -> int:
        return rules.solo_rank(self.hands[0], self.face_up[0])

    # -- protocol -----------------------------------------------------------------------------------
    # The public methods below answer the common cases (a legal action of the seat or chance that acts) in
    # one step, without the base class's chain of hooks; anything else goes to ``State``'s methods, the
    # reference, which validate and raise.  tests/core/test_fast_paths.py checks the two agree.

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.phase == ROLL

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(DIE_OUTCOMES) if self.phase == ROLL else []

    def current_players(self) -> list[int]:
        phase = self.phase
        return [] if phase in (ROLL, OVER) else [self.actor]

    def legal_actions(self, player: int | None = None) -> list[int]:
        phase = self.phase
        if phase != ROLL and phase != OVER and (player is None or (type(player) is int and player == self.actor)):
            legal = self._legal
            if legal is None:
                legal = self._legal = self._compute_legal(self.actor)
            return list(legal)
        return super().legal_actions(player)

    def apply_action(self, action: int, player: Actor | None = None) -> None:
        if type(action) is int:
            phase = self.phase
            if phase == ROLL:
                if 0 <= action < 6 and (player is None or player == CHANCE):
                    self._roll(action)
                    self._history.append((CHANCE, action))
                    return
            elif phase != OVER and (player is None or (type(player) is int and player == self.actor)):
                actor = self.actor
                legal = self._legal
                if legal is None:
                    legal = self._legal = self._compute_legal(actor)
                if action in legal:
                    self._decide(action, actor)
                    self._history.append((actor, action))
                    return
        super().apply_action(action, player)

    def _chance_cumulative(self) -> tuple[tuple[int, ...], tuple[float, ...]] | None:
        return _DIE_DRAW if self.phase == ROLL else None

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return list(DIE_OUTCOMES)

    def _is_chance_outcome(self, action: int) -> bool:
        return 0 <= action < 6

    def _current_players(self) -> list[int]:
        return [self.actor]

    def _is_acting(self, player: int) -> bool:
        return player == self.actor

    def _legal_actions(self, player: int) -> list[int]:
        if self._legal is None:
            self._legal = self._compute_legal(self.actor)
        return list(self._legal) if player == self.actor else []

    def _is_legal(self, action: int, player: int) -> bool:
        if player != self.actor:
            return False
        if self._legal is None:
            self._legal = self._compute_legal(self.actor)
        return action in self._legal  # read only: no copy

    def _compute_legal(self, player: int) -> list[int]:
        phase = self.phase
        if phase == SELECT:
            return [*self._uses(), FAIL]
        if phase == ADJUSTING:
            return self._adjust_actions(player)
        if phase == PAYING:
            return [PASS, PAY]  # PAYING is entered only when paying is possible
        if phase == FAILED:
            face_up = self.face_up[player]
            if self.solo:
                return [FLIP + i for i, v in enumerate(rules.DICE_CARDS) if rules.can_flip(face_up, v)]
            actions = [TAKE_BACK] if self.cages[player] else []
            return actions + [notation.UNFLIP + i for i in range(4) if not face_up >> i & 1]
        return []

    def _adjust_actions(self, seat: int) -> list[int]:
        used = self.used
        total, count = self._total(used), _BITS[used]
        targets = self._targets(seat)
        actions: list[int] = []
        nuts = self.nuts[seat]
        if nuts > 0:
            # a change is legal if the die stays in 1..6 and a card can still be reached afterwards (the same
            # test for every die: only the sum counts)
            up = rules.reachable_total(total + 1, count, nuts - 1, targets)
            down = rules.reachable_total(total - 1, count, nuts - 1, targets)
            if up or down:
                dice = self.dice
                for slot in _SLOTS[used]:
                    value = dice[slot]
                    if up and value < 6:
                        actions.append(ADJUST + slot * 2)
                    if down and value > 1:
                        actions.append(ADJUST + slot * 2 + 1)
        if 1 <= total <= 18 and self.hands[seat] >> total & 1:
            actions.append(CAGE + total - 1)
        if not self.solo and total in rules.DICE_CARD_INDEX and rules.can_flip(self.face_up[seat], total):
            actions.append(FLIP + rules.DICE_CARD_INDEX[total])
        return actions

    def _apply(self, action: int, player: int | None) -> None:
        if player is None:
            self._roll(action)
        else:
            self._decide(action, player)

    def _roll(self, action: int) -> None:
        self._legal = None
        self.notes = []
        slot = self.rolled[self.roll_index]
        self.dice[slot] = action + 1
        self.roll_index += 1
        if self.roll_index == 1:
            self.this_turn.append(_ROLL_TEXT[self.active][slot][action])
        else:  # one log line for the whole roll
            self.this_turn[-1] += _MORE_DICE_TEXT[slot][action]
        if self.roll_index == len(self.rolled):
            self._enter_select()

    def _decide(self, action: int, player: int) -> None:
        self._legal = None
        self.notes = []
        if action != TAKE_BACK:
            self.this_turn.append(_SEAT_ACTION_TEXT[player][action])
        else:
            self.this_turn.append(f"seat {player}: {notation.format_action(action, self._top(player))}")
        if action < FAIL:
            self.used = self.active_used = self._red_mask() | (action - USE) << 2
            self.phase = ADJUSTING
        elif action == FAIL:
            self._fail()
        elif action < CAGE:
            slot, down = divmod(action - ADJUST, 2)
            self.dice[slot] += -1 if down else 1
            self.nuts[player] -= 1
            self.supply += 1
        elif action < FLIP:
            card = action - CAGE + 1
            self.hands[player] &= ~(1 << card)
            self.cages[player].append(card)
            self._after_use(player)
        elif action < TAKE_BACK:
            self._flip(player, action - FLIP)
        elif action == TAKE_BACK:
            card = self.cages[player].pop()
            self.hands[player] |= 1 << card
            self._start_passives()
        elif action < PASS:
            self.face_up[player] |= 1 << (action - UNFLIP)
            self._start_passives()
        elif action == PASS:
            if self.solo:
                self._solo_close()
            else:
                self._next_passive()
        else:
            self._pay(player)

    def _flip(self, seat: int, index: int) -> None:
        self.face_up[seat] &= ~(1 << index)
        if self.solo:  # mice-8: only a failed roll flips; all four face down ends the game
            if self.face_up[0] == 0:
                self._end()
            else:
                self._next_turn()
        elif rules.DICE_CARDS[index] == 6:  # mice-7: the last dice card ends the game at once
            self._end()
        else:
            self._after_use(seat)

    def _pay(self, seat: int) -> None:
        if self.solo:  # mice-8: a nut to the middle buys a second card with the remaining yellow dice
            self.nuts[0] -= 1
            self.supply += 1
            self.second = True
        else:  # mice-6: the active seat gets a nut, from the supply while it has one
            if self.supply > 0:
                self.supply -= 1
                source = "the supply"
            else:
                self.nuts[seat] -= 1
                source = f"seat {seat}"
            self.nuts[self.active] += 1
            self.this_turn.append(f"seat {self.active} receives a nut from {source}")
        self.used = self.pool
        self.phase = ADJUSTING
        self.actor = seat

    def _top(self, seat: int) -> int | None:
        cage = self.cages[seat]
        return cage[-1] if cage else None

    def _next_colour(self) -> str:
        if self.phase == ROLL and self.roll_index < len(self.rolled):
            return "R" if self.rolled[self.roll_index] < 2 else "Y"
        return "R"

    def _action_to_string(self, action: int, actor: Actor) -> str:
        if actor == CHANCE:
            if not 0 <= action < notation.NUM_CHANCE:
                raise ValueError(f"mice: {action} is not a die face (0..5)")
            return notation.format_chance(action, self._next_colour())
        return notation.format_action(action, self._top(int(actor)))

    def _action_to_json(self, action: int, actor: Actor) -> dict[str, Any]:
        if actor == CHANCE:
            slot = self.rolled[self.roll_index] if self.phase == ROLL and self.roll_index < len(self.rolled) else 0
            return notation.to_json(action, die=rules.SLOT_NAMES[slot])
        return notation.to_json(action, cage_top=self._top(int(actor)))

    def string_to_action(self, text: str, player: Actor | None = None) -> int:
        actor = self._notation_actor(player)
        if actor == CHANCE:
            colour, action = notation.parse_chance(text)
            if self.is_chance_node() and not self.is_terminal() and colour == self._next_colour():
                return action
            if self.is_chance_node() and not self.is_terminal():
                raise NotationError(
                    f"mice: the next die is {'red' if self._next_colour() == 'R' else 'yellow'}, "
                    f"so write {self._next_colour()}1..{self._next_colour()}6, not {text!r}"
                )
            raise NotationError(f"mice: no die is being rolled now, so {text!r} is not legal")
        action, card = notation.parse_action(text)  # a lookup, then one cheap legality test (no list of moves)
        seat = int(actor)
        deciding = not self.is_terminal() and not self.is_chance_node() and seat == self.actor
        if deciding and self._is_legal(action, seat) and (card is None or card == self._top(seat)):
            return action
        return super().string_to_action(text, actor)  # raises a NotationError listing the legal moves

    def returns(self) -> list[float]:
        """Multiplayer: each seat's hand total, the lower the better (mice-7, ``score_order() == "lower"``).
        Solo: the rating's rank, 6 (Génial !) down to 0 (Dommage), the higher the better (mice-8)."""
        if self.solo:
            return [float(len(rules.RATINGS) - 1 - self._solo_rank())]
        return [float(rules.hand_total(h)) for h in self.hands]

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        if self.solo:
            return [0] if self._solo_rank() <= rules.SOLO_WIN_RANK else []
        return rules.final_winners(self.hands, self.face_up, self.nuts)

    def rating(self) -> str | None:
        """The solo result's text (seed's table) once the solo game is over."""
        return rules.RATINGS[self._solo_rank()] if self.solo and self.is_terminal() else None

    def _view(self, player: int | None) -> dict[str, Any]:
        return view.table_view(self, player)

    def resample(self, player: int, rng: random.Random) -> MiceState:
        """Everything is public (mice-1) and dice not yet rolled are chance, not state: an exact copy."""
        self.check_seat(player)
        return self.clone()

    def clone(self) -> MiceState:
        twin = MiceState.__new__(MiceState)
        twin.game = self.game
        twin._history = list(self._history)
        twin.solo = self.solo
        twin.hands = list(self.hands)
        twin.cages = [list(c) for c in self.cages]
        twin.face_up = list(self.face_up)
        twin.nuts = list(self.nuts)
        twin.supply = self.supply
        twin.active = self.active
        twin.turn = self.turn
        twin.phase = self.phase
        twin.actor = self.actor
        twin.dice = list(self.dice)
        twin.rolled = self.rolled
        twin.roll_index = self.roll_index
        twin.used = self.used
        twin.active_used = self.active_used
        twin.pool = self.pool
        twin.failed = self.failed
        twin.second = self.second
        twin.queue = list(self.queue)
        twin.this_turn = list(self.this_turn)
        twin.last_turn = list(self.last_turn)
        twin._legal = self._legal  # never mutated in place: replaced after each action
        twin.notes = list(self.notes)  # each note is never changed once made
        return twin
