"""Rummü as a ludotheque game (seed 004, DECISIONS rummu-1..11, all-1..4).

A match is a series of hands.  A hand: chance deals card by card (each chance action is the type of the next
card, weighted by how many such cards are left unseen), turns up the first discard, then seats take turns.
A turn is a sequence of steps: draw (``draw`` then a chance action for the card, or ``take k``), laying steps
(``start``/``add``/``close``/``cancel`` build one combination card by card; ``put`` and ``swap`` work on table
combinations), and ``discard``, which ends the turn.  The action layout is in ``notation.py``.  However often a
seat cancels, every play stays open to it (rummu-11): nothing in the rules bounds a turn, and random play ends
its turns anyway, since a discard is always among its choices once nothing is being laid.

The draw pile is kept as an unordered multiset: drawing its "top" card is a chance action over what is left,
which is the same distribution as a shuffle done in advance and keeps reshuffles free of chance actions.
"""

from __future__ import annotations

import random
from itertools import accumulate, compress, repeat
from operator import truediv
from typing import Any

from ludotheque.core import CHANCE, Actor, Bot, Game, NotationError, OptionError, OptionSpec, State
from ludotheque.games.rummu import GAME, laying, notation, rules, view
from ludotheque.games.rummu.notation import ADD, CANCEL, CLOSE, DISCARD, DRAW, PUT, START, SWAP, TAKE
from ludotheque.games.rummu.rules import TYPES, card_str, count_list

_TYPE_RANGE = range(TYPES)
NO_HAND_LIMIT = 0  # default of the option ``hands``: the match ends only by the target (rummu-10, all-4)

# phases
DEAL, FLIP, DRAW_PHASE, DRAW_CARD, PLAY, OVER = "deal", "flip", "draw", "draw-card", "play", "over"
_CHANCE_PHASES = frozenset((DEAL, FLIP, DRAW_CARD))
_DECIDING = frozenset((DRAW_PHASE, PLAY))


class RummuGame(Game):
    game_type = GAME
    chapter_field = "hand_number"
    clock_pace = 2.0  # a turn may rearrange every combination on the table
    option_specs = (
        OptionSpec(
            "partnerships",
            False,
            "rummu-2/9: with 4 or 6 players, opposite seats play as partners (scores add, target 500)",
        ),
        OptionSpec(
            "target",
            0,
            "rummu-10: the match ends after the hand in which a player (team) reaches this total; "
            "0 = the rulebook's 200 (500 in partnerships)",
            minimum=0,
        ),
        OptionSpec(
            "hands",
            NO_HAND_LIMIT,
            "a tool's cap, not in the rules (all-4): 0 = no cap, the match ends only by the target (rummu-10); "
            "N = it also stops after N hands, highest total winning (simulations and benchmarks, where random "
            "players never reach the target)",
            minimum=0,
        ),
    )

    def _check_options(self) -> None:
        if self.options["partnerships"] and self.players not in (4, 6):
            raise OptionError(f"rummu: partnerships need 4 or 6 players, not {self.players} (rummu-2)")

    @property
    def partnerships(self) -> bool:
        return bool(self.options["partnerships"])

    @property
    def target(self) -> int:
        target = int(self.options["target"])
        if target:
            return target
        return rules.TARGET_TEAM if self.partnerships else rules.TARGET_SINGLE

    def teams(self) -> list[int]:
        """rummu-2: in partnerships opposite seats are partners."""
        return [self.team_of(seat) for seat in range(self.players)]

    def team_of(self, seat: int) -> int:
        """Seats ``s`` and ``s + n/2`` are partners (opposite seats); without partnerships, each seat alone."""
        return seat % (self.players // 2) if self.partnerships else seat

    def num_distinct_actions(self) -> int:
        return notation.NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return TYPES

    def new_reference_state(self) -> RummuState:
        return RummuState(self)

    def heuristic_bot(self) -> Bot:
        from ludotheque.games.rummu.heuristics import RummuHeuristicBot

        return RummuHeuristicBot()

    def seat_help(self, state: State, seat: int) -> dict[str, Any] | None:
        """The laying help of ``laying.py`` for the seat in its play phase: which cards of its hand start or
        keep a combination it can finish, and what the combination being laid lacks when it cannot."""
        state = state.reference_state()  # a compiled state's fields are its reference shadow's
        assert isinstance(state, RummuState)
        if state.phase != PLAY or state.current != seat:
            return None
        return laying.seat_help(
            state.hands[seat], state.sizes[seat], state.partial, 3 if state.opened[seat] else state.needs[seat]
        )


class RummuState(State):
    game: RummuGame

    def __init__(self, game: RummuGame) -> None:
        super().__init__(game)
        n = game.players
        self.totals: list[int] = [0] * n  # each seat's own points over the match
        self.results: list[dict[str, Any]] = []  # finished hands, public (leftover hands are shown at the end)
        self.hand_no = 0
        self.dealer = 0  # all-2: seat 0 deals the first hand
        self._start_hand()

    # -- hand set-up ------------------------------------------------------------------------------------

    def _start_hand(self) -> None:
        n = self.game.players
        self.hands: list[list[int]] = [[0] * TYPES for _ in range(n)]  # counts per card type
        self.sizes: list[int] = [0] * n
        self.pile: list[int] = list(rules.DECK_COUNTS)  # counts per type; drawn by chance
        self.pile_size = rules.DECK_SIZE
        self.discard: list[int] = []  # bottom to top
        self.combos: list[list[int]] = []  # table combinations, sorted cards
        self.owners: list[int] = []
        # per combination: card types that may be added to it, worked out when legal moves are first asked for
        # (None until then), so that replaying a long match does not pay for them at every combination laid
        self.extend: list[list[int] | None] = []
        self.swaps: list[list[int] | None] = []  # per combination: naturals that may replace one of its jokers
        self.opened: list[bool] = [False] * n
        first = self.hand_no == 0
        self.needs: list[int] = [
            rules.opening_threshold(None if first else self._unit_total(s), self.game.partnerships) for s in range(n)
        ]
        self.partial: list[int] = []  # the combination being laid (public, card by card)
        self.cancels = 0
        self.phase = DEAL
        self.to_deal = rules.HAND_SIZE[n] * n
        self.current = (self.dealer + 1) % n  # rummu-2: the player left of the dealer deals first and starts
        self.epoch = 0  # reshuffles so far in this hand
        self.exhausted = False  # the pile ran out with nothing to reshuffle: this turn is the hand's last
        # hidden deliveries of this hand: [history index, seat, card, epoch, revealed, log index or -1]
        self.hidden: list[list[int]] = []
        self.known: list[list[int]] = [[0] * TYPES for _ in range(n)]  # publicly known cards in each hand
        self.log: list[tuple[int, str, str]] = []  # (seat or -1, public text, private text for that seat)
        self.log.append((-1, f"hand {self.hand_no + 1}: seat {self.dealer} deals", ""))
        self._legal_cache: list[int] | None = None
        self._legal_set: frozenset[int] | None = None

    def _unit_total(self, seat: int) -> int:
        """The seat's total, or its team's total in partnerships (rummu-5, rummu-9)."""
        if not self.game.partnerships:
            return self.totals[seat]
        team = self.game.team_of(seat)
        return sum(t for s, t in enumerate(self.totals) if self.game.team_of(s) == team)

    # -- protocol ---------------------------------------------------------------------------------------
    # The public methods below answer the common cases (a legal action of the seat or chance that acts) in
    # one step, without the base class's chain of hooks; anything else goes to ``State``'s methods, the
    # reference, which validate and raise.  tests/core/test_fast_paths.py checks the two agree.

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.phase in _CHANCE_PHASES

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._chance_outcomes() if self.phase in _CHANCE_PHASES else []

    def current_players(self) -> list[int]:
        return [self.current] if self.phase in _DECIDING else []

    def legal_actions(self, player: int | None = None) -> list[int]:
        if self.phase in _DECIDING and (player is None or (type(player) is int and player == self.current)):
            legal = self._legal_cache
            if legal is None:
                legal = self._legal_cache = self._compute_legal()
            return list(legal)
        return super().legal_actions(player)

    def apply_action(self, action: int, player: Actor | None = None) -> None:
        if type(action) is int:
            phase = self.phase
            if phase in _CHANCE_PHASES:
                if 0 <= action < TYPES and self.pile[action] > 0 and (player is None or player == CHANCE):
                    self._legal_cache = None
                    self._legal_set = None
                    self._apply_chance(action)
                    self._history.append((CHANCE, action))
                    return
            elif phase != OVER and (player is None or (type(player) is int and player == self.current)):
                legal = self._legal_cache
                if legal is None:
                    legal = self._legal_cache = self._compute_legal()
                if action in legal:
                    seat = self.current
                    self._apply(action, seat)
                    self._history.append((seat, action))
                    return
        super().apply_action(action, player)

    def _chance_cumulative(self) -> tuple[list[int], list[float]] | None:
        if self.phase not in _CHANCE_PHASES:
            return None
        pile = self.pile
        cumulative = list(accumulate(map(truediv, filter(None, pile), repeat(self.pile_size))))
        return list(compress(_TYPE_RANGE, pile)), cumulative

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        # [(t, count / size) for t, count in enumerate(self.pile) if count], built by C-level iterators (it is
        # asked at every deal and draw, and ran over the 50 types in Python)
        counts = [count for count in self.pile if count]
        return list(zip(compress(_TYPE_RANGE, self.pile), map(truediv, counts, repeat(self.pile_size)), strict=True))

    def _is_chance_outcome(self, action: int) -> bool:
        return 0 <= action < TYPES and self.pile[action] > 0

    def _current_players(self) -> list[int]:
        return [self.current]

    def _is_acting(self, player: int) -> bool:
        return player == self.current

    def _legal_actions(self, player: int) -> list[int]:
        if self._legal_cache is None:
            self._legal_cache = self._compute_legal()
        return list(self._legal_cache)

    def _is_legal(self, action: int, player: int) -> bool:
        if self._legal_cache is None:
            self._legal_cache = self._compute_legal()
        if self._legal_set is None:
            self._legal_set = frozenset(self._legal_cache)
        return action in self._legal_set

    def _compute_legal(self) -> list[int]:
        """The acting seat's actions, built in ascending order (the action ranges follow one another in the
        order they are built here, and each part is ascending), so that no sort is needed."""
        seat = self.current
        if self.phase == DRAW_PHASE:
            return [DRAW, *range(TAKE, TAKE + len(self.discard))]
        hand = self.hands[seat]
        size = self.sizes[seat]
        held = list(compress(_TYPE_RANGE, hand))  # the types in hand, ascending
        need = 3 if self.opened[seat] else self.needs[seat]
        out: list[int]
        if self.partial:
            laid = tuple(sorted(self.partial))  # the memos' key: neither answer depends on the order
            # keep enough cards to finish the combination and still discard one (rummu-7)
            if size - 1 - max(0, need - len(laid) - 1) >= 1:
                addable = rules.addable_types(laid, need)
                out = [ADD + t for t in held if addable >> t & 1]
            else:
                out = []
            if len(laid) >= need and rules.is_valid_sorted(laid):
                out.append(CLOSE)
            out.append(CANCEL)
            return out
        out = [START + t for t in held] if size >= need + 1 else []  # rummu-11: however many cancels came before
        out += [DISCARD + t for t in held]
        if self.opened[seat] and self.combos:
            if size >= 2:
                for j in range(len(self.combos)):
                    out += [PUT + j * TYPES + t for t in self._extensions(j) if hand[t]]
            for j in range(len(self.combos)):
                out += [SWAP + j * TYPES + t for t in self._swaps(j) if hand[t]]
        return out

    def _apply(self, action: int, player: int | None) -> None:
        self._legal_cache = None
        self._legal_set = None
        if player is None:
            self._apply_chance(action)
            return
        seat = player
        if action == DRAW:
            self.phase = DRAW_CARD
        elif action < START:
            k = action - TAKE + 1
            taken = self.discard[-k:][::-1]  # rummu-3: top card first
            del self.discard[-k:]
            for card in taken:
                self._receive(seat, card, public=True)
            self._log(seat, f"takes {k} from the discard pile: {' '.join(card_str(c) for c in taken)}")
            self.phase = PLAY
        elif action < ADD:
            card = action - START
            self._lose(seat, card)
            self.partial = [card]
            self._log(seat, f"starts a combination with {card_str(card)}")
        elif action < CLOSE:
            card = action - ADD
            self._lose(seat, card)
            self.partial.append(card)
            self._log(seat, f"adds {card_str(card)}")
        elif action == CLOSE:
            cards = sorted(self.partial, key=_run_order)
            self.partial = []
            self.combos.append(cards)
            self.owners.append(seat)
            self.extend.append(None)
            self.swaps.append(None)
            opening = "" if self.opened[seat] else " (opening)"
            self.opened[seat] = True
            self._log(seat, f"lays combination {len(self.combos)}{opening}: {_cards(cards)}")
        elif action == CANCEL:
            for card in self.partial:
                self._receive(seat, card, public=True)
            self._log(seat, f"takes back {_cards(self.partial)}")
            self.partial = []
            self.cancels += 1
        elif action < PUT:
            card = action - DISCARD
            self._lose(seat, card)
            self.discard.append(card)
            self._log(seat, f"discards {card_str(card)}")
            if self.sizes[seat] == 0:
                self._end_hand(seat)  # rummu-8: out by discarding the last card
            elif self.exhausted:
                self._log(-1, "nothing is left to draw: the hand ends with nobody out")
                self._end_hand(None)
            else:
                self._begin_turn((seat + 1) % self.game.players)
        elif action < SWAP:
            j, card = divmod(action - PUT, TYPES)
            self._lose(seat, card)
            self._set_combo(j, [*self.combos[j], card])
            self._log(seat, f"puts {card_str(card)} on combination {j + 1}")
        else:
            j, card = divmod(action - SWAP, TYPES)
            joker = rules.YELLOW * 10 + card % 10
            self._lose(seat, card)
            self._set_combo(j, [card if c == joker else c for c in self.combos[j]])
            self._receive(seat, joker, public=True)
            self._log(seat, f"swaps {card_str(card)} for the joker {card_str(joker)} of combination {j + 1}")

    def _apply_chance(self, card: int) -> None:
        self.pile[card] -= 1
        self.pile_size -= 1
        if self.phase == DEAL:
            n = self.game.players
            dealt = rules.HAND_SIZE[n] * n - self.to_deal
            seat = (self.dealer + 1 + dealt) % n
            self._hidden_receive(seat, card, -1)
            self.to_deal -= 1
            if self.to_deal == 0:
                self.phase = FLIP
        elif self.phase == FLIP:
            self.discard.append(card)
            self._log(-1, f"the discard pile starts with {card_str(card)}")
            self._begin_turn(self.current)
        else:
            seat = self.current
            self._log(seat, "draws from the pile", f"draws {card_str(card)} from the pile")
            self._hidden_receive(seat, card, len(self.log) - 1)
            self.phase = PLAY
            if self.pile_size == 0:
                self._pile_emptied()

    # -- card movements ---------------------------------------------------------------------------------

    def _hidden_receive(self, seat: int, card: int, log_index: int) -> None:
        self.hidden.append([len(self._history), seat, card, self.epoch, 0, log_index])
        self.hands[seat][card] += 1
        self.sizes[seat] += 1

    def _receive(self, seat: int, card: int, public: bool) -> None:
        self.hands[seat][card] += 1
        self.sizes[seat] += 1
        if public:
            self.known[seat][card] += 1

    def _lose(self, seat: int, card: int) -> None:
        """A card leaves a hand face up.  Observers count it against the cards they knew were there first;
        otherwise it reveals one hidden delivery (the earliest unrevealed one of that card)."""
        self.hands[seat][card] -= 1
        self.sizes[seat] -= 1
        if self.known[seat][card]:
            self.known[seat][card] -= 1
            return
        for event in self.hidden:
            if event[1] == seat and event[2] == card and not event[4]:
                event[4] = 1
                return
        raise AssertionError("a card left a hand it was never in")  # pragma: no cover

    def _set_combo(self, j: int, cards: list[int]) -> None:
        cards = sorted(cards, key=_run_order)
        self.combos[j] = cards
        self.extend[j] = None
        self.swaps[j] = None

    def _extensions(self, j: int) -> list[int]:
        found = self.extend[j]
        if found is None:
            found = self.extend[j] = rules.extension_candidates(self.combos[j])
        return found

    def _swaps(self, j: int) -> list[int]:
        found = self.swaps[j]
        if found is None:
            found = self.swaps[j] = rules.swap_candidates(self.combos[j])
        return found

    def _log(self, seat: int, public: str, private: str = "") -> None:
        self.log.append(
            (seat, f"seat {seat} {public}" if seat >= 0 else public, f"seat {seat} {private}" if private else "")
        )

    # -- turns and hands --------------------------------------------------------------------------------

    def _begin_turn(self, seat: int) -> None:
        self.current = seat
        self.cancels = 0
        self.phase = DRAW_PHASE

    def _pile_emptied(self) -> None:
        """rummu-3: when the last card is drawn, the discard pile but its top becomes the new draw pile.  If that
        leaves nothing to draw, the hand ends with nobody out once the drawing player's turn is over."""
        if len(self.discard) > 1:
            for card in self.discard[:-1]:
                self.pile[card] += 1
            self.pile_size = len(self.discard) - 1
            self.discard = self.discard[-1:]
            self.epoch += 1
            self._log(-1, f"the draw pile is empty: {self.pile_size} discarded cards are shuffled into a new one")
        else:
            self.exhausted = True
            self._log(-1, "the draw pile is empty and nothing can be reshuffled: the hand ends after this turn")

    def _end_hand(self, out: int | None) -> None:
        """rummu-8/9: score the hand, then end the match (rummu-10) or deal the next hand."""
        result = self._score_hand(out)
        self.totals = [t + p for t, p in zip(self.totals, result["points"], strict=True)]
        result["totals"] = list(self.totals)
        for team in result["teams"] or []:
            team["total"] = self._unit_total(team["seats"][0])
        self.results.append(result)  # finished hands are never changed again (clones share them)
        self.hand_no += 1
        limit = int(self.game.options["hands"])  # a tool's cap (all-4); 0, the default, is none
        n = self.game.players
        if max(self._unit_total(s) for s in range(n)) >= self.game.target or (limit and self.hand_no >= limit):
            self.phase = OVER
            self._legal_cache = None
            self._legal_set = None
            return
        self.dealer = (self.dealer + 1) % n
        self._start_hand()

    def _score_hand(self, out: int | None) -> dict[str, Any]:
        """rummu-8/9: the hand's breakdown, each seat's points included (``_end_hand`` adds the totals).  Every
        part of it was shown at the table: the combinations, and the hands laid open at the count."""
        game = self.game
        n = game.players
        left = [count_list(self.hands[seat]) for seat in range(n)]
        # rummu-9: the partner of the player who went out pays nothing for their cards
        waived = [
            out is not None and seat != out and game.partnerships and game.team_of(seat) == game.team_of(out)
            for seat in range(n)
        ]
        penalties = [0 if waived[seat] else rules.hand_penalty(left[seat]) for seat in range(n)]
        bonus = [rules.OUT_BONUS if seat == out else 0 for seat in range(n)]
        points = [bonus[seat] + penalties[seat] for seat in range(n)]
        combos: list[dict[str, Any]] = []
        for cards, owner in zip(self.combos, self.owners, strict=True):
            value = rules.combo_points(cards)  # the owner keeps it as others extended it (rummu-8)
            points[owner] += value
            combos.append(
                {
                    "owner": owner,
                    "cards": [card_str(c) for c in cards],
                    "kind": "set" if rules.is_set(cards) else "run",
                    "pure": rules.is_pure(cards),
                    "points": value,
                }
            )
        teams = None
        if game.partnerships:
            teams = [
                {
                    "seats": [s for s in range(n) if game.team_of(s) == team],
                    "points": sum(p for s, p in enumerate(points) if game.team_of(s) == team),
                    "total": 0,
                }
                for team in range(n // 2)
            ]
        return {
            "hand": self.hand_no + 1,
            "dealer": self.dealer,
            "out": out,
            "combos": combos,
            "left": [[card_str(c) for c in cards] for cards in left],
            "penalties": penalties,
            "waived": waived,
            "bonus": bonus,
            "points": points,
            "totals": [],
            "teams": teams,
        }

    # -- notation ---------------------------------------------------------------------------------------

    def _action_to_string(self, action: int, actor: Actor) -> str:
        if actor == CHANCE:
            return notation.format_chance(action)
        return notation.format_action(action)

    def _action_to_json(self, action: int, actor: Actor) -> dict[str, Any]:
        if actor != CHANCE:
            return notation.to_json(action)
        if self.phase == DEAL:
            n = self.game.players
            dealt = rules.HAND_SIZE[n] * n - self.to_deal
            return notation.to_json(action, "deal", (self.dealer + 1 + dealt) % n)
        if self.phase == FLIP:
            return notation.to_json(action, "flip")
        return notation.to_json(action, "draw_card", self.current)

    def string_to_action(self, text: str, player: Actor | None = None) -> int:
        """Parse the notation (a lookup in the fixed action layout), then check that move's legality alone."""
        actor = self._notation_actor(player)
        if actor == CHANCE:
            action = notation.parse_chance(text, self.game.id)
            if not self.is_chance_node() or self.is_terminal():
                raise NotationError(f"{self.game.id}: chance has no move here, so {text!r} is not legal")
            legal = self._is_chance_outcome(action)
        else:
            action = notation.parse_action(text, self.game.id)
            legal = (
                not self.is_terminal()
                and not self.is_chance_node()
                and self._is_acting(actor)
                and self._is_legal(action, actor)
            )
        if not legal:
            return super().string_to_action(text, actor)  # raises a NotationError listing legal moves
        return action

    # -- results ----------------------------------------------------------------------------------------

    def deals_completed(self) -> int:
        return self.hand_no

    def returns(self) -> list[float]:
        """Each seat's total; in partnerships both partners get their team's total (rummu-9)."""
        return [float(self._unit_total(s)) for s in range(self.game.players)]

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        return rules.winners_of([self._unit_total(s) for s in range(self.game.players)])

    def _view(self, player: int | None) -> dict[str, Any]:
        return view.table_view(self, player)

    # -- resampling -------------------------------------------------------------------------------------

    def resample(self, player: int, rng: random.Random) -> RummuState:
        """Redeal what ``player`` has not seen: the other seats' cards that never showed, and the draw pile.

        Cards are exchangeable only within one pile generation (an *epoch*: the deck, then each reshuffled
        discard pile), because the observer knows what each reshuffle put into the pile.  Within an epoch the
        unrevealed deliveries to other seats (and, for the current epoch, the pile) are shuffled together and
        the history's chance actions rewritten; every public action stays legal since public legality never
        depends on hidden cards, and cards that later left a hand face up keep their delivery.
        """
        self.check_seat(player)
        twin = self.clone()
        if twin.phase == OVER:
            return twin
        pools: dict[int, list[list[int]]] = {}
        for event in twin.hidden:
            if event[1] != player and not event[4]:
                pools.setdefault(event[3], []).append(event)
        pools.setdefault(twin.epoch, [])
        for epoch, events in pools.items():
            cards = [e[2] for e in events]
            if epoch == twin.epoch:
                cards.extend(t for t in range(TYPES) for _ in range(twin.pile[t]))
            cards.sort()  # canonical order: the draw must not depend on which seat holds which hidden card
            rng.shuffle(cards)
            for event in events:
                twin.hands[event[1]][event[2]] -= 1
            for event, card in zip(events, cards, strict=False):
                event[2] = card
                twin.hands[event[1]][card] += 1
                twin._history[event[0]] = (CHANCE, card)
                if event[5] >= 0:
                    seat, public, _ = twin.log[event[5]]
                    twin.log[event[5]] = (seat, public, f"seat {seat} draws {card_str(card)} from the pile")
            if epoch == twin.epoch:
                twin.pile = [0] * TYPES
                for card in cards[len(events) :]:
                    twin.pile[card] += 1
        twin._legal_cache = None
        twin._legal_set = None
        return twin

    def clone(self) -> RummuState:
        twin = RummuState.__new__(RummuState)
        twin.game = self.game
        twin._history = list(self._history)
        twin.totals = list(self.totals)
        twin.results = list(self.results)  # finished hands are never mutated
        twin.hand_no = self.hand_no
        twin.dealer = self.dealer
        twin.hands = [list(h) for h in self.hands]
        twin.sizes = list(self.sizes)
        twin.pile = list(self.pile)
        twin.pile_size = self.pile_size
        twin.discard = list(self.discard)
        twin.combos = [list(c) for c in self.combos]
        twin.owners = list(self.owners)
        twin.extend = list(self.extend)  # replaced, never mutated
        twin.swaps = list(self.swaps)
        twin.opened = list(self.opened)
        twin.needs = list(self.needs)
        twin.partial = list(self.partial)
        twin.cancels = self.cancels
        twin.phase = self.phase
        twin.to_deal = self.to_deal
        twin.current = self.current
        twin.epoch = self.epoch
        twin.exhausted = self.exhausted
        twin.hidden = [list(e) for e in self.hidden]
        twin.known = [list(k) for k in self.known]
        twin.log = list(self.log)
        twin._legal_cache = self._legal_cache
        twin._legal_set = self._legal_set
        return twin


def _run_order(card: int) -> tuple[int, int]:
    """Cards of a combination shown by number, then colour."""
    return (card % 10, card // 10)


def _cards(cards: list[int]) -> str:
    return " ".join(card_str(c) for c in cards)
