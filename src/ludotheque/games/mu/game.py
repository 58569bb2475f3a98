"""Mü as a ludotheque game (seed 004, DECISIONS mu-1..9, all-1..4).

A match is a series of hands.  A hand: (3 players) two chance actions remove two colours; chance deals the
cards one by one, starting left of the dealer; the auction from the dealer (mu-2), then égalité (mu-3) or
chief and vice (mu-4); trump naming and partner (mu-5); the tricks (mu-6, mu-7); the score (mu-8).  The
match ends when a hand leaves someone at the target or above (mu-9).  Action layout: see ``notation``.
"""

from __future__ import annotations

import random
from itertools import compress
from typing import Any

from ludotheque.core import CHANCE, Actor, Bot, Game, NotationError, OptionSpec, State
from ludotheque.games.mu import GAME, rules, view
from ludotheque.games.mu import notation as nt
from ludotheque.games.mu.rules import KINDS, NO_TRUMP
from ludotheque.games.mu.sampling import split_cards

REMOVE, DEAL, AUCTION, VICE_TRUMP, CHIEF_TRUMP, PARTNER, PLAY, OVER = (
    "remove",
    "deal",
    "auction",
    "vice_trump",
    "chief_trump",
    "partner",
    "play",
    "over",
)
_CHANCE_PHASES = frozenset((REMOVE, DEAL))
_KIND_RANGE = range(KINDS)
PHASES = (REMOVE, DEAL, AUCTION, VICE_TRUMP, CHIEF_TRUMP, PARTNER, PLAY, OVER)


def _cards_of(counts: list[int]) -> list[int]:
    """The kinds in a count vector, one entry per card, in kind order."""
    out: list[int] = []
    for kind in compress(range(KINDS), counts):  # only the kinds present: hands are mostly zeros
        out += [kind] * counts[kind]
    return out


class MuGame(Game):
    game_type = GAME
    chapter_field = "hand_number"
    option_specs = (
        OptionSpec(
            "target",
            200,
            "mu-9: the match ends after the hand in which someone reaches this total",
            minimum=1,
            maximum=100_000,
        ),
    )

    def num_distinct_actions(self) -> int:
        return nt.NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return nt.NUM_CHANCE

    def new_reference_state(self) -> MuState:
        return MuState(self)

    def heuristic_bot(self) -> Bot:
        from ludotheque.games.mu.heuristics import MuHeuristicBot

        return MuHeuristicBot()


class MuState(State):
    game: MuGame

    def __init__(self, game: MuGame) -> None:
        super().__init__(game)
        n = game.players
        self.target = int(game.options["target"])
        self.scores = [0] * n
        self.dealer = 0  # all-2: seat 0 deals the first hand
        self.log: list[dict[str, Any]] = []  # finished hands (public summaries, never mutated)
        self._outcomes: list[tuple[int, float]] | None = None  # cached chance outcomes of this node
        self._start_hand(0)

    # -- hand set-up ------------------------------------------------------------------------------

    def _start_hand(self, history_index: int) -> None:
        """Reset the per-hand fields; ``history_index`` is where this hand's first action will be."""
        n = self.game.players
        self.hand_start = history_index
        self.phase = REMOVE if n == 3 else DEAL
        self.removed: list[int] = []
        self.deck = rules.full_deck()
        self.deck_left = 60
        self.dealt = 0
        self.hands = [[0] * KINDS for _ in range(n)]
        self.hand_sizes = [0] * n
        self.laid = [[0] * KINDS for _ in range(n)]
        self.laid_order: list[list[int]] = [[] for _ in range(n)]  # kinds in the order laid (mu-4)
        self.bids = [0] * n
        self.auction: list[tuple[int, int]] = []  # (seat, action) of lays, dones and passes
        self.turn = self.dealer  # mu-2: the auction starts with the dealer
        self.turn_limit = 1
        self.turn_laid = 0
        self.passes = 0
        self.chief: int | None = None
        self.vice: int | None = None
        self.partner: int | None = None
        self.chief_trump = NO_TRUMP
        self.vice_trump = NO_TRUMP
        self.leader = 0
        self.trick: list[tuple[int, int, bool]] = []  # (seat, kind, from the table)
        self.tricks: list[tuple[int, tuple[tuple[int, int, bool], ...], int]] = []  # (leader, cards, winner)
        self.won = [0] * n  # triangles won this hand
        self.played = [0] * KINDS

    # -- protocol ---------------------------------------------------------------------------------
    # ``current_players``, ``legal_actions`` and ``apply_action`` answer the common cases (the seat to act, or
    # chance, with a legal action) in one step, without the base class's chain of hooks; anything else goes to
    # ``State``'s methods, the reference, which validate and raise.  tests/core/test_fast_paths.py checks the two
    # agree.

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def is_chance_node(self) -> bool:
        return self.phase in _CHANCE_PHASES

    def current_players(self) -> list[int]:
        phase = self.phase
        if phase == OVER or phase in _CHANCE_PHASES:
            return []
        return [self._actor()]

    def legal_actions(self, player: int | None = None) -> list[int]:
        phase = self.phase
        if phase != OVER and phase not in _CHANCE_PHASES:
            actor = self._actor()
            if player is None or (type(player) is int and player == actor):
                return self._legal_actions(actor)  # a new list at every call
        return super().legal_actions(player)

    def apply_action(self, action: int, player: Actor | None = None) -> None:
        if type(action) is int:
            phase = self.phase
            if phase in _CHANCE_PHASES:
                if (player is None or player == CHANCE) and self._is_chance_outcome(action):
                    self._apply(action, None)
                    self._history.append((CHANCE, action))
                    return
            elif phase != OVER:
                actor = self._actor()
                if (player is None or (type(player) is int and player == actor)) and self._is_legal(action, actor):
                    self._apply(action, actor)
                    self._history.append((actor, action))
                    return
        super().apply_action(action, player)

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        if self._outcomes is not None:  # asked twice per chance step (listing, then validating)
            return list(self._outcomes)
        if self.phase == REMOVE:
            left = [c for c in range(5) if c not in self.removed]
            outcomes = [(nt.REMOVE + c, 1.0 / len(left)) for c in left]
        else:
            total = self.deck_left
            outcomes = [(nt.DEAL + kind, count / total) for kind, count in enumerate(self.deck) if count]
        self._outcomes = outcomes
        return list(outcomes)

    def _current_players(self) -> list[int]:
        return [self._actor()]

    def _actor(self) -> int:
        if self.phase == AUCTION:
            return self.turn
        if self.phase == VICE_TRUMP:
            assert self.vice is not None
            return self.vice
        if self.phase in (CHIEF_TRUMP, PARTNER):
            assert self.chief is not None
            return self.chief
        return (self.leader + len(self.trick)) % self.game.players

    def _legal_actions(self, player: int) -> list[int]:
        if self.phase == AUCTION:
            hand = self.hands[player]
            lays = [kind for kind in range(KINDS) if hand[kind]]
            return [*lays, nt.PASS] if self.turn_laid == 0 else [*lays, nt.DONE]
        if self.phase == VICE_TRUMP:
            return [self._trump_action(t) for t in rules.trump_options(self.laid_order[player])]
        if self.phase == CHIEF_TRUMP:
            return [self._trump_action(t) for t in rules.trump_options(self.laid_order[player])] + [nt.NO_TRUMP_ACTION]
        if self.phase == PARTNER:
            return [nt.PARTNER + s for s in range(self.game.players) if s not in (self.chief, self.vice)]
        return self._playable(player)

    def _playable(self, player: int) -> list[int]:
        """mu-7: cards from hand and table; a seat holding the led suit (trump or a colour) must play it."""
        hand, laid = self.hands[player], self.laid[player]
        held = [kind for kind in range(KINDS) if hand[kind] or laid[kind]]
        if self.trick:
            cats = rules.categories(self.chief_trump, self.vice_trump)
            led = cats[self.trick[0][1]]
            following = [kind for kind in held if cats[kind] == led]
            if following:
                held = following
        actions = [nt.FROM_HAND + kind for kind in held if hand[kind]]
        actions += [nt.FROM_TABLE + kind for kind in held if laid[kind]]
        return actions

    def _is_acting(self, player: int) -> bool:
        return player == self._actor()

    def _is_chance_outcome(self, action: int) -> bool:
        if self.phase == REMOVE:
            return nt.REMOVE <= action < nt.NUM_CHANCE and action - nt.REMOVE not in self.removed
        return 0 <= action < nt.REMOVE and self.deck[action] > 0

    def _is_legal(self, action: int, player: int) -> bool:
        """Whether ``action`` is among ``_legal_actions(player)`` for the acting seat, without listing them."""
        if not 0 <= action < nt.NUM_ACTIONS:
            return False
        if self.phase == AUCTION:
            if action < nt.FROM_TABLE:
                return self.hands[player][action] > 0
            return action == (nt.PASS if self.turn_laid == 0 else nt.DONE)
        if self.phase in (VICE_TRUMP, CHIEF_TRUMP):
            if action == nt.NO_TRUMP_ACTION:
                return self.phase == CHIEF_TRUMP
            if not nt.TRUMP_COLOUR <= action < nt.NO_TRUMP_ACTION:
                return False
            trump = self._trump_of(action)
            return any(rules.in_trump(kind, trump) for kind in self.laid_order[player])
        if self.phase == PARTNER:
            seat = action - nt.PARTNER
            return 0 <= seat < self.game.players and seat not in (self.chief, self.vice)
        if action >= nt.DONE:
            return False
        from_table = action >= nt.FROM_TABLE
        kind = action - nt.FROM_TABLE if from_table else action
        if not (self.laid if from_table else self.hands)[player][kind]:
            return False
        if not self.trick:
            return True
        cats = rules.categories(self.chief_trump, self.vice_trump)
        led = cats[self.trick[0][1]]
        if cats[kind] == led:
            return True
        hand, laid = self.hands[player], self.laid[player]  # mu-7: off suit only when the seat holds none of it
        return not any(cats[k] == led for k in compress(_KIND_RANGE, hand)) and not any(
            cats[k] == led for k in compress(_KIND_RANGE, laid)
        )

    def _category(self, kind: int) -> int:
        return rules.category(kind, self.chief_trump, self.vice_trump)

    @staticmethod
    def _trump_action(trump: int) -> int:
        return nt.TRUMP_COLOUR + trump if rules.is_colour_trump(trump) else nt.TRUMP_NUMBER + trump - 10

    # -- applying actions -------------------------------------------------------------------------

    def _apply(self, action: int, player: int | None) -> None:
        self._outcomes = None
        if player is None:
            self._apply_chance(action)
        elif self.phase == AUCTION:
            self._apply_auction(action, player)
        elif self.phase == VICE_TRUMP:
            self.vice_trump = self._trump_of(action)
            self.phase = CHIEF_TRUMP
        elif self.phase == CHIEF_TRUMP:
            self.chief_trump = self._trump_of(action)
            self.phase = PARTNER if self.game.players >= 4 else PLAY
            self.leader = player  # mu-7: the chief leads the first trick
        elif self.phase == PARTNER:
            self.partner = action - nt.PARTNER
            self.phase = PLAY
        else:
            self._apply_play(action, player)

    @staticmethod
    def _trump_of(action: int) -> int:
        if action == nt.NO_TRUMP_ACTION:
            return NO_TRUMP
        if action < nt.TRUMP_NUMBER:
            return action - nt.TRUMP_COLOUR
        return 10 + action - nt.TRUMP_NUMBER

    def _apply_chance(self, action: int) -> None:
        n = self.game.players
        if self.phase == REMOVE:
            colour = action - nt.REMOVE
            self.removed.append(colour)
            for kind in range(colour * 10, colour * 10 + 10):
                self.deck[kind] = 0
            self.deck_left -= rules.CARDS_PER_COLOUR
            if len(self.removed) == 2:
                self.phase = DEAL
            return
        kind = action - nt.DEAL
        seat = (self.dealer + 1 + self.dealt) % n  # dealing starts left of the dealer
        self.deck[kind] -= 1
        self.deck_left -= 1
        self.dealt += 1
        self.hands[seat][kind] += 1
        self.hand_sizes[seat] += 1
        if self.deck_left == 0:
            self.phase = AUCTION
            self._begin_turn(self.dealer)

    def _begin_turn(self, seat: int) -> None:
        self.turn = seat
        self.turn_laid = 0
        self.turn_limit = max(self.bids) + 1  # mu-2: at most one above the highest total before this turn

    def _apply_auction(self, action: int, seat: int) -> None:
        n = self.game.players
        self.auction.append((seat, action))
        if action == nt.PASS:
            self.passes += 1
            if self.passes == n:  # mu-2: everyone passed in a row
                self._end_auction()
            else:
                self._begin_turn((seat + 1) % n)
            return
        if action != nt.DONE:
            kind = action - nt.FROM_HAND
            self.hands[seat][kind] -= 1
            self.hand_sizes[seat] -= 1
            self.laid[seat][kind] += 1
            self.laid_order[seat].append(kind)
            self.bids[seat] += 1
            self.turn_laid += 1
            # The turn goes on while the seat may lay more; at the limit (or with an empty hand) it ends.
            if self.bids[seat] < self.turn_limit and self.hand_sizes[seat] > 0:
                return
        self.passes = 0
        self._begin_turn((seat + 1) % n)

    def _end_auction(self) -> None:
        n = self.game.players
        top = max(self.bids)
        base: dict[str, Any] = {"hand": len(self.log) + 1, "dealer": self.dealer, "bids": list(self.bids)}
        if top == 0:  # mu-2: nobody bid, the same dealer deals again (our reading)
            self.log.append({**base, "result": "redeal", "deltas": [0] * n, "scores": list(self.scores)})
            self._start_hand(len(self._history) + 1)
            return
        leaders = [seat for seat in range(n) if self.bids[seat] == top]
        if len(leaders) > 1:  # mu-3
            maker = rules.tie_maker(self.bids, [seat for seat, action in self.auction if action < nt.FROM_TABLE])
            deltas = rules.egalite_scores(self.bids, maker)
            self._finish_hand({**base, "result": "egalite", "tied": leaders, "tie_maker": maker}, deltas)
            return
        self.chief = leaders[0]
        numbers = [[kind % 10 for kind in order] for order in self.laid_order]
        self.vice = rules.choose_vice(self.bids, numbers, self.chief)
        self.phase = VICE_TRUMP if self.vice is not None else CHIEF_TRUMP

    def _apply_play(self, action: int, seat: int) -> None:
        from_table = action >= nt.FROM_TABLE
        kind = action - nt.FROM_TABLE if from_table else action
        if from_table:
            self.laid[seat][kind] -= 1
        else:
            self.hands[seat][kind] -= 1
            self.hand_sizes[seat] -= 1
        self.played[kind] += 1
        self.trick.append((seat, kind, from_table))
        if len(self.trick) < self.game.players:
            return
        kinds = [card[1] for card in self.trick]
        winner = self.trick[rules.trick_winner(kinds, self.chief_trump, self.vice_trump)][0]
        self.won[winner] += sum(rules.triangles(k) for k in kinds)
        self.tricks.append((self.leader, tuple(self.trick), winner))
        self.trick = []
        self.leader = winner
        if len(self.tricks) == rules.cards_per_seat(self.game.players):
            self._score_hand()

    def _score_hand(self) -> None:
        """mu-8, with the rule's breakdown in the hand's summary: the team's triangles against its contract, the
        bonus when made, or k and the shortfall n - k when missed."""
        n = self.game.players
        assert self.chief is not None
        bid = self.bids[self.chief]
        deltas, made = rules.hand_scores(n, self.won, self.chief, self.partner, bid, self.chief_trump)
        team = self.won[self.chief] + (self.won[self.partner] if self.partner is not None else 0)
        missing = None if made else rules.shortfall(n, bid, team)
        summary = {
            "hand": len(self.log) + 1,
            "dealer": self.dealer,
            "bids": list(self.bids),
            "result": "made" if made else "missed",
            "chief": self.chief,
            "vice": self.vice,
            "partner": self.partner,
            "chief_trump": rules.trump_name(self.chief_trump),
            "vice_trump": rules.trump_name(self.vice_trump) if self.vice is not None else None,
            "bid": bid,
            "contract": rules.contract(n, bid),
            "triangles": list(self.won),
            "team_triangles": team,
            "bonus": rules.bonus(bid, self.chief_trump) if made else None,
            "k": None if missing is None else bid - missing,
            "chief_loss": None if missing is None else 10 * missing,
            "opponent_gain": None if missing is None else 5 * missing,
        }
        self._finish_hand(summary, deltas)

    def _finish_hand(self, summary: dict[str, Any], deltas: list[int]) -> None:
        n = self.game.players
        for seat in range(n):
            self.scores[seat] += deltas[seat]
        self.log.append({**summary, "deltas": deltas, "scores": list(self.scores)})
        if max(self.scores) >= self.target:  # mu-9
            self.phase = OVER
            return
        self.dealer = (self.dealer + 1) % n  # all-2: the deal rotates clockwise
        self._start_hand(len(self._history) + 1)

    # -- notation ---------------------------------------------------------------------------------

    def _action_to_string(self, action: int, actor: Actor) -> str:
        return nt.format_chance(action) if actor == CHANCE else nt.format_action(action)

    def _action_to_json(self, action: int, actor: Actor) -> dict[str, Any]:
        if actor == CHANCE:
            receiver = (self.dealer + 1 + self.dealt) % self.game.players  # dealing starts left of the dealer
            return nt.to_json(action, True, receiver=receiver)
        return nt.to_json(action, False, auction=self.phase == AUCTION)

    def string_to_action(self, text: str, player: Actor | None = None) -> int:
        """Parse the notation into its action and check that one action's legality (no listing of the moves)."""
        actor = self._notation_actor(player)
        if not isinstance(text, str):
            raise NotationError(f"mu: a move is written as text, not {text!r}")
        live = not self.is_terminal()
        if actor == CHANCE:
            action = nt.parse_chance(text)
            legal = live and self.is_chance_node() and self._is_chance_outcome(action)
        else:
            action = nt.parse_action(text)
            acting = live and not self.is_chance_node() and self._actor() == actor
            legal = acting and self._is_legal(action, actor)
            if acting and not legal and action < nt.FROM_TABLE and self._is_legal(action + nt.FROM_TABLE, actor):
                action += nt.FROM_TABLE  # "R7" with no red 7 playable from hand: the table's
                legal = True
        if not legal:
            return super().string_to_action(text, actor)  # raises a NotationError listing the legal moves
        return action

    # -- results ----------------------------------------------------------------------------------

    def deals_completed(self) -> int:
        return len(self.log)

    def returns(self) -> list[float]:
        return [float(score) for score in self.scores]

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        return rules.match_winners(self.scores)

    def _view(self, player: int | None) -> dict[str, Any]:
        return view.table_view(self, player)

    # -- hidden information -----------------------------------------------------------------------

    def voids(self) -> list[set[int]]:
        """Suits (categories) each seat has shown it lacks by not following (mu-7); they stay lacking."""
        out: list[set[int]] = [set() for _ in range(self.game.players)]
        cat = self._category
        tricks = [cards for _, cards, _ in self.tricks]
        if self.trick:
            tricks.append(tuple(self.trick))
        for cards in tricks:
            led = cat(cards[0][1])
            for seat, kind, _ in cards[1:]:
                if cat(kind) != led:
                    out[seat].add(led)
        return out

    def resample(self, player: int, rng: random.Random) -> MuState:
        """Redeal the cards ``player`` has not seen (other hands, the undealt deck) among the other seats,
        keeping their sizes and the suits each seat showed it lacks, and rewrite this hand's deal to match.

        No public move depends on a hidden card, so the result is a copy with the other seats' hands, the deck
        and this hand's deal actions replaced: what replaying the rewritten history would give, without the
        replay (which cost most of the call).
        """
        self.check_seat(player)
        if self.is_terminal():
            return self.clone()
        n = self.game.players
        current = self._history[self.hand_start :]
        deal_steps = [i for i, (actor, action) in enumerate(current) if actor == CHANCE and action < nt.REMOVE]
        dealt_to: list[list[int]] = [[] for _ in range(n)]
        for index, step in enumerate(deal_steps):
            dealt_to[(self.dealer + 1 + index) % n].append(current[step][1])
        others = [seat for seat in range(n) if seat != player]
        hidden = {seat: _cards_of(self.hands[seat]) for seat in others}
        pool = [kind for seat in others for kind in hidden[seat]]
        pool += _cards_of(self.deck)
        pool.sort()  # canonical order: the draw must not depend on which seat holds which hidden card
        voids = self.voids()
        drawn = split_cards(
            pool,
            {seat: self.hand_sizes[seat] for seat in others},
            {seat: voids[seat] for seat in others},
            self._category,
            rng,
        )
        sequences: list[list[int]] = [list(dealt_to[player]) if seat == player else [] for seat in range(n)]
        for seat in others:
            public = list(dealt_to[seat])  # what the seat was dealt, minus what is still hidden in its hand
            for kind in hidden[seat]:
                public.remove(kind)
            public.sort()  # where the shown cards fell in the deal depends on the hidden ones
            cards = public + drawn[seat]
            rng.shuffle(cards)
            sequences[seat] = cards
        twin = self.clone()
        for seat in others:  # the seat's hidden cards go back to the deck, and the drawn ones come out of it
            hand = [0] * KINDS
            for kind in hidden[seat]:
                twin.deck[kind] += 1
            for kind in drawn[seat]:
                hand[kind] += 1
                twin.deck[kind] -= 1
            twin.hands[seat] = hand
        dealt = [0] * n
        for deal_index, step in enumerate(deal_steps):
            seat = (self.dealer + 1 + deal_index) % n
            twin._history[self.hand_start + step] = (CHANCE, nt.DEAL + sequences[seat][dealt[seat]])
            dealt[seat] += 1
        if current:
            twin._outcomes = None  # the deck may differ (and a replay leaves no cache)
        return twin

    def clone(self) -> MuState:
        twin = MuState.__new__(MuState)
        twin.game = self.game
        twin._history = list(self._history)
        twin.target = self.target
        twin.scores = list(self.scores)
        twin.dealer = self.dealer
        twin.log = list(self.log)  # summaries are never mutated
        twin.hand_start = self.hand_start
        twin.phase = self.phase
        twin.removed = list(self.removed)
        twin.deck = list(self.deck)
        twin.deck_left = self.deck_left
        twin.dealt = self.dealt
        twin.hands = [list(h) for h in self.hands]
        twin.hand_sizes = list(self.hand_sizes)
        twin.laid = [list(h) for h in self.laid]
        twin.laid_order = [list(h) for h in self.laid_order]
        twin.bids = list(self.bids)
        twin.auction = list(self.auction)
        twin.turn = self.turn
        twin.turn_limit = self.turn_limit
        twin.turn_laid = self.turn_laid
        twin.passes = self.passes
        twin.chief = self.chief
        twin.vice = self.vice
        twin.partner = self.partner
        twin.chief_trump = self.chief_trump
        twin.vice_trump = self.vice_trump
        twin.leader = self.leader
        twin.trick = list(self.trick)
        twin.tricks = list(self.tricks)
        twin.won = list(self.won)
        twin.played = list(self.played)
        twin._outcomes = self._outcomes  # never mutated in place: _apply replaces it
        return twin
