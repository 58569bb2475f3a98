"""Safarü and Safarü renversé as a ludotheque game (seed 004, DECISIONS safaru-1..8, all-1..4).

A turn is split into steps so the action space stays finite (see notation.py for the numbering):

1. ``play``: the seat to move plays a card from its hand.  A card that cannot catch is released onto the
   table and the turn ends (safaru-4).  A card that can catch must catch.
2. ``catch`` (main game): begin adding, begin seventeen, pair with a table card, or ``done`` once at least one
   method was used; each method at most once, on disjoint cards (safaru-3).
3. ``build``: take table cards one at a time into the adding/seventeen catch, then ``ok``.  Only cards that
   leave the catch completable are offered, so no step ever leads to a dead end.
4. renverse (safaru-7): every catch uses exactly one method.  When the card could catch by two or three
   methods, the left neighbour first picks it (``pick``); the player then chooses the cards.

Every deal is a run of chance actions, one card each (all-1).
"""

from __future__ import annotations

import random
from itertools import accumulate, compress, repeat
from operator import truediv
from typing import Any

from ludotheque.core import CHANCE, Actor, Bot, Game, OptionError, OptionSpec, State
from ludotheque.core.game import ScoreOrder
from ludotheque.games.safaru import GAME, view
from ludotheque.games.safaru import notation as nt
from ludotheque.games.safaru import rules as r

PLAY_PHASE, CATCH_PHASE, BUILD_PHASE, PICK_PHASE, PAIR_PHASE = "play", "catch", "build", "pick", "pair"
_KIND_RANGE = range(r.KINDS)

#: the kinds whose number is 0
_ZERO_KINDS = frozenset(k for k in _KIND_RANGE if k % 10 == 0)


class SafaruGame(Game):
    game_type = GAME
    chapter_field = "deal"
    option_specs = (
        OptionSpec(
            "renverse",
            False,
            "safaru-7: Safarü renversé (the left neighbour picks the method; most cards +24, most hedgehogs +18, "
            "each triangle +1; the lowest total wins)",
            choices=(False, True),
        ),
        OptionSpec(
            "target",
            0,
            "safaru-6 / all-4: 0 = one game (or the number set by 'games'); otherwise play games until a seat's "
            "total reaches this target",
            minimum=0,
            maximum=1000,
        ),
        OptionSpec(
            "games",
            1,
            "safaru-7: the number of games agreed before play; totals are added over the games (not with 'target')",
            minimum=1,
            maximum=r.MAX_GAMES,
        ),
        OptionSpec(
            "individual",
            False,
            "safaru-7, renverse with 4 players only: each seat plays for itself instead of partnering the opposite "
            "seat (safaru-2)",
            choices=(False, True),
        ),
    )

    def _check_options(self) -> None:
        """Options that only make sense together (safaru-2, safaru-6, safaru-7)."""
        if int(self.options["games"]) > 1 and int(self.options["target"]) > 0:
            raise OptionError(
                "safaru: a match is either a number of games ('games') or played to a target ('target'), not both; "
                f"got games={self.options['games']} and target={self.options['target']}"
            )
        if self.options["individual"]:
            if self.players != 4:
                raise OptionError(
                    f"safaru: option 'individual' is for 4 players, not {self.players}: with 2 or 3 players every "
                    "seat already plays for itself (safaru-2)"
                )
            if not self.options["renverse"]:
                raise OptionError(
                    "safaru: option 'individual' needs renverse=true: the main game with 4 players is always played "
                    "by opposite partners (safaru-2); renversé lets them play alone (safaru-7)"
                )

    @property
    def partners(self) -> bool:
        """safaru-2 / safaru-7: opposite seats pool their cards (4 players, unless renversé's ``individual``)."""
        return self.players == 4 and not self.options["individual"]

    def score_order(self) -> ScoreOrder:
        """safaru-7: in renversé the lowest total wins; in Safarü the highest (safaru-6)."""
        return "lower" if self.options["renverse"] else "higher"

    def num_distinct_actions(self) -> int:
        return nt.NUM_ACTIONS

    def max_chance_outcomes(self) -> int:
        return r.KINDS

    def new_reference_state(self) -> SafaruState:
        return SafaruState(self)

    def heuristic_bot(self) -> Bot:
        from ludotheque.games.safaru.heuristics import SafaruHeuristicBot

        return SafaruHeuristicBot()

    def teams(self) -> list[int]:
        """safaru-2: with 4 players opposite seats are partners (unless renversé's ``individual``, safaru-7)."""
        return [r.side_of(seat, self.players, self.partners) for seat in range(self.players)]


class SafaruState(State):
    game: SafaruGame

    def __init__(self, game: SafaruGame) -> None:
        super().__init__(game)
        n = game.players
        self.reverse = bool(game.options["renverse"])
        self.target = int(game.options["target"])
        self.games = int(game.options["games"])
        self.partners = game.partners
        self.totals: list[float] = [0.0] * n  # finished games of the match
        self.results: list[dict[str, Any]] = []  # each finished game: scores, caught cards, cards left (public)
        self.round = -1  # deals so far over the whole match; the starter is round % n
        self.finished = False
        self._new_game()

    # -- setup ------------------------------------------------------------------------------------

    def _new_game(self) -> None:
        n = self.game.players
        self.hands: list[list[int]] = [[0] * r.KINDS for _ in range(n)]
        self.table: list[int] = [0] * r.KINDS
        self.tnum: list[int] = [0] * 10  # the table counted by number (kept in step with self.table)
        self.pile: list[int] = list(r.COPIES)
        self.pile_size = r.DECK_SIZE
        self.caught: list[list[int]] = [[0] * r.KINDS for _ in range(n)]
        self.log: list[dict[str, Any]] = []  # finished turns and deals of this game (public)
        self._new_round()

    def _new_round(self) -> None:
        """safaru-5: 4 cards each (round the table when the pile runs short), and up to 4 to an empty table."""
        n = self.game.players
        self.round += 1
        self.starter = self.round % n
        order = [(self.starter + i) % n for i in range(n)]
        left = self.pile_size
        # 4 each, or round the table until the pile is empty
        queue = order * r.HAND_SIZE if left >= r.HAND_SIZE * n else [order[i % n] for i in range(left)]
        if sum(self.table) == 0:
            queue += [r.TABLE] * min(r.TABLE_DEAL, left - len(queue))
        self.deal_queue = queue
        self.round_queue = tuple(queue)  # the whole deal of this round, for resample
        self.deal_log: dict[str, Any] = {"deal": self.round, "starter": self.starter, "table": []}
        self.round_hist_start = len(self._history) + (1 if self._history else 0)
        self.round_log_start = len(self.log)
        self.to_move = self.starter
        self._reset_turn()

    def _reset_turn(self) -> None:
        self.phase = PLAY_PHASE
        self.played = -1  # kind of the card in play this turn
        self.zero_required = False  # a 0 lay on the table when the card was played (safaru-3)
        self.used: list[int] = []  # methods used this turn, in order
        self.catches: list[dict[str, Any]] = []
        self.paired = False
        self.method = -1  # the adding/seventeen catch being built
        self.build: list[int] = []  # kinds taken so far into that catch
        self.build_sum = 0
        self.table_before: list[str] = []
        self.picked_by: int | None = None
        self._legal_cache: list[int] | None = None

    # -- protocol ---------------------------------------------------------------------------------
    # The public methods below answer the common cases (a legal action of the seat or chance that acts) in
    # one step, without the base class's chain of hooks; anything else goes to ``State``'s methods, the
    # reference, which validate and raise.  tests/core/test_fast_paths.py checks the two agree.

    def is_terminal(self) -> bool:
        return self.finished

    def is_chance_node(self) -> bool:
        return bool(self.deal_queue)  # empty once finished: the match ends on a turn, after the last deal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._chance_outcomes() if self.deal_queue and not self.finished else []

    def current_players(self) -> list[int]:
        return [] if self.finished or self.deal_queue else [self.actor()]

    def legal_actions(self, player: int | None = None) -> list[int]:
        if (
            not self.finished
            and not self.deal_queue
            and (player is None or (type(player) is int and player == self.actor()))
        ):
            legal = self._legal_cache
            if legal is None:
                legal = self._legal_cache = self._compute_legal()
            return list(legal)
        return super().legal_actions(player)

    def apply_action(self, action: int, player: Actor | None = None) -> None:
        if type(action) is int and not self.finished:
            if self.deal_queue:
                if 0 <= action < r.KINDS and self.pile[action] > 0 and (player is None or player == CHANCE):
                    self._legal_cache = None
                    self._deal(action)
                    self._history.append((CHANCE, action))
                    return
            else:
                seat = self.actor()
                if (player is None or (type(player) is int and player == seat)) and self._is_legal(action, seat):
                    self._apply(action, seat)
                    self._history.append((seat, action))
                    return
        super().apply_action(action, player)

    def _chance_cumulative(self) -> tuple[list[int], list[float]] | None:
        if not self.deal_queue or self.finished:
            return None
        size = float(self.pile_size)
        pile = self.pile
        return list(compress(_KIND_RANGE, pile)), list(accumulate(map(truediv, filter(None, pile), repeat(size))))

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        # [(k, c / size) for k, c in enumerate(self.pile) if c], built by C-level iterators: it is asked at
        # each of the 60 deals of a game and ran over the 50 kinds in Python
        size = float(self.pile_size)
        counts = [c for c in self.pile if c]
        return list(zip(compress(_KIND_RANGE, self.pile), map(truediv, counts, repeat(size)), strict=True))

    def _is_chance_outcome(self, action: int) -> bool:
        return 0 <= action < r.KINDS and self.pile[action] > 0

    def actor(self) -> int:
        """The seat acting at a decision node: the player, or its left neighbour picking (renverse)."""
        if self.phase == PICK_PHASE:
            return (self.to_move + 1) % self.game.players
        return self.to_move

    def _current_players(self) -> list[int]:
        return [self.actor()]

    def _is_acting(self, player: int) -> bool:
        return player == self.actor()

    def _legal_actions(self, player: int) -> list[int]:
        if self._legal_cache is None:
            self._legal_cache = self._compute_legal()
        return list(self._legal_cache)

    def _is_legal(self, action: int, player: int) -> bool:
        if self.phase == PLAY_PHASE:
            return 0 <= action < r.KINDS and self.hands[self.to_move][action] > 0
        if self._legal_cache is None:
            self._legal_cache = self._compute_legal()
        return action in self._legal_cache  # no copy: only read

    def _compute_legal(self) -> list[int]:
        if self.phase == PLAY_PHASE:
            return list(compress(_KIND_RANGE, self.hands[self.to_move]))  # the kinds held
        played = r.number(self.played)
        if self.phase == PICK_PHASE:
            return [nt.CHOOSE + m for m in self._methods_left()]
        if self.phase == PAIR_PHASE:
            return self._pair_actions(played)
        if self.phase == CATCH_PHASE:
            out: list[int] = []
            left = self._methods_left()
            if r.PAIR in left:
                out += self._pair_actions(played)
            if r.ADD in left:
                out.append(nt.BEGIN_ADD)
            if r.SEVENTEEN in left:
                out.append(nt.BEGIN_17)
            if self.used:
                out.append(nt.DONE)
            return sorted(out)
        return self._build_actions(played)

    def _pair_actions(self, played: int) -> list[int]:
        return [nt.PAIR_WITH + k for k in range(played, r.KINDS, 10) if self.table[k]]

    def _build_actions(self, played: int) -> list[int]:
        need, min_size = r.method_target(self.method, played)
        need -= self.build_sum
        size = len(self.build)
        has_zero = not _ZERO_KINDS.isdisjoint(self.build)  # a 0 taken already
        ok_numbers = r.takeable(self.tnum, need, size, has_zero, min_size, self.zero_required)
        # only the kinds on the table (a handful of the 50) are looked at
        out = [nt.TAKE + k for k in compress(_KIND_RANGE, self.table) if k % 10 in ok_numbers]
        if need == 0 and size >= min_size and (has_zero or not self.zero_required):
            out.append(nt.CLOSE)
        return out

    def _methods_left(self) -> list[int]:
        """Methods not yet used this turn that can still catch on what is left of the table."""
        return [m for m in r.catch_methods(r.number(self.played), self.tnum, self.zero_required) if m not in self.used]

    # -- applying actions -------------------------------------------------------------------------

    def _apply(self, action: int, player: int | None) -> None:
        self._legal_cache = None
        if player is None:
            self._deal(action)
            return
        if self.phase == PLAY_PHASE:
            self._play(action)
        elif action == nt.DONE:
            self._end_turn()
        elif action in (nt.BEGIN_ADD, nt.BEGIN_17):
            self._begin(r.ADD if action == nt.BEGIN_ADD else r.SEVENTEEN)
        elif nt.CHOOSE <= action < nt.CHOOSE + 3:
            method = action - nt.CHOOSE
            self.picked_by = player
            if method == r.PAIR:
                self.phase = PAIR_PHASE
            else:
                self._begin(method)
        elif nt.PAIR_WITH <= action < nt.BEGIN_ADD:
            kind = action - nt.PAIR_WITH
            self.table[kind] -= 1
            self.tnum[kind % 10] -= 1
            self.caught[self.to_move][kind] += 1
            self.paired = True
            self.used.append(r.PAIR)
            self.catches.append({"method": "pair", "cards": [r.card_name(kind)]})
            self._after_catch()
        elif nt.TAKE <= action < nt.PAIR_WITH:
            kind = action - nt.TAKE
            self.table[kind] -= 1
            self.tnum[kind % 10] -= 1
            self.build.append(kind)
            self.build_sum += kind % 10
        else:  # CLOSE
            for kind in self.build:
                self.caught[self.to_move][kind] += 1
            self.used.append(self.method)
            self.catches.append({"method": r.METHOD_NAMES[self.method], "cards": [r.card_name(k) for k in self.build]})
            self.method, self.build, self.build_sum = -1, [], 0
            self._after_catch()

    def _deal(self, kind: int) -> None:
        destination = self.deal_queue.pop(0)
        self.pile[kind] -= 1
        self.pile_size -= 1
        if destination == r.TABLE:
            self.table[kind] += 1
            self.tnum[kind % 10] += 1
            self.deal_log["table"].append(r.card_name(kind))
        else:
            self.hands[destination][kind] += 1
        if not self.deal_queue:
            self.deal_log["hands"] = [sum(h) for h in self.hands]
            self.log.append(self.deal_log)

    def _play(self, kind: int) -> None:
        seat = self.to_move
        self.hands[seat][kind] -= 1
        self.played = kind
        self.table_before = r.names(self.table)
        self.zero_required = self.tnum[0] > 0
        methods = self._methods_left()
        if not methods:  # safaru-4: a card that cannot catch is released
            self._end_turn()
        elif self.reverse and len(methods) > 1:  # safaru-7: the left neighbour picks the method
            self.phase = PICK_PHASE
        elif self.reverse:
            if methods[0] == r.PAIR:
                self.phase = PAIR_PHASE
            else:
                self._begin(methods[0])
        else:
            self.phase = CATCH_PHASE

    def _begin(self, method: int) -> None:
        self.method = method
        self.build = []
        self.build_sum = 0
        self.phase = BUILD_PHASE

    def _after_catch(self) -> None:
        """Renverse: one method per catch.  Main game: go on while another method could still catch."""
        if self.reverse or not self._methods_left():
            self._end_turn()
        else:
            self.phase = CATCH_PHASE

    def _end_turn(self) -> None:
        seat = self.to_move
        if self.paired:
            self.caught[seat][self.played] += 1
        else:
            self.table[self.played] += 1
            self.tnum[self.played % 10] += 1
        self.log.append(
            {
                "seat": seat,
                "card": r.card_name(self.played),
                "table_before": self.table_before,
                "catches": self.catches,
                "released": not self.catches,
                "picked_by": self.picked_by,
            }
        )
        n = self.game.players
        self._reset_turn()
        for step in range(1, n + 1):
            nxt = (seat + step) % n
            if any(self.hands[nxt]):
                self.to_move = nxt
                return
        if self.pile_size:
            self._new_round()
        else:
            self._end_game()

    def _end_game(self) -> None:
        """safaru-6/7: score the game.  A target match (safaru-6, all-4) goes on until a seat's total reaches the
        target; otherwise the match is the number of games agreed (safaru-7, one by default)."""
        scores = r.seat_scores(self.caught, self.game.players, self.reverse, self.partners)
        self.results.append(
            {"scores": scores, "caught": [r.names(c) for c in self.caught], "left": r.names(self.table)}
        )
        self.totals = [t + s for t, s in zip(self.totals, scores, strict=True)]
        played = len(self.results)
        if (max(self.totals) >= self.target if self.target else played >= self.games) or played >= r.MAX_GAMES:
            self.finished = True
        else:
            self._new_game()

    # -- notation ---------------------------------------------------------------------------------

    def _action_to_string(self, action: int, actor: Actor) -> str:
        return nt.format_action(action, actor == CHANCE)

    def _action_to_json(self, action: int, actor: Actor) -> dict[str, Any]:
        if actor == CHANCE:
            to = self.deal_queue[0] if self.deal_queue else None
            return nt.to_json(action, True, "table" if to == r.TABLE else to)
        return nt.to_json(action, False)

    def string_to_action(self, text: str, player: Actor | None = None) -> int:
        """The notation is read directly (``notation.parse_action``), then checked by the cheap legality tests;
        only a move that is not legal here goes to the generic path, which raises naming the legal moves."""
        actor = self._notation_actor(player)
        action = nt.parse_action(text, actor == CHANCE, self.game.id)
        if self.finished:
            legal = False
        elif actor == CHANCE:
            legal = self.is_chance_node() and self._is_chance_outcome(action)
        else:
            legal = not self.is_chance_node() and self._is_acting(actor) and self._is_legal(action, actor)
        if not legal:
            return super().string_to_action(text, actor)  # raises a NotationError listing legal moves
        return action

    # -- results ----------------------------------------------------------------------------------

    def current_scores(self) -> list[float]:
        """The running game's score per seat from the cards caught so far (public)."""
        return r.seat_scores(self.caught, self.game.players, self.reverse, self.partners)

    def returns(self) -> list[float]:
        """Match totals; before the end, the running game is counted as if it ended now."""
        if self.finished:
            return list(self.totals)
        return [t + s for t, s in zip(self.totals, self.current_scores(), strict=True)]

    def winners(self) -> list[int]:
        """The best total (highest; lowest in renversé, safaru-7), ties and partners sharing the win.  A target
        match (safaru-6): the highest total among the seats that reached the target."""
        if not self.finished:
            return []
        if self.target:
            reached = [s for s, t in enumerate(self.totals) if t >= self.target]
            if not self.reverse and reached:
                return r.best_seats(self.totals, False, reached)  # seed: the highest of those who reached it
        return r.best_seats(self.totals, self.reverse)

    # -- views ------------------------------------------------------------------------------------

    def _view(self, player: int | None) -> dict[str, Any]:
        return view.table_view(self, player)

    def resample(self, player: int, rng: random.Random) -> SafaruState:
        """Deal the cards ``player`` cannot see (other hands and the pile) again at random.

        Hands are empty before every deal, so only this deal's cards can still be hidden: each other seat
        keeps the cards it already played from this deal (public) and gets a random hand of the same size.
        The state is a copy with those hands, the pile and this deal's history entries rewritten: exactly
        what replaying the rewritten history gives (no move depends on a hidden card), without the replay.
        Each rewritten seat's deals take its new cards from the end (its new hand, last first, then the
        cards it played this deal, last first), as the replay this replaced did.
        """
        self.check_seat(player)
        n = self.game.players
        unseen = list(self.pile)
        for seat in range(n):
            if seat != player:
                for k in range(r.KINDS):
                    unseen[k] += self.hands[seat][k]
        pool = r.kinds_of(unseen)
        rng.shuffle(pool)
        twin = self.clone()
        new_deal: list[list[int]] = [[] for _ in range(n)]  # each seat's cards of this deal, in dealing order
        for seat in range(n):
            if seat == player:
                continue
            size = sum(self.hands[seat])
            hand = pool[:size]
            del pool[:size]
            new_deal[seat] = self._played_this_round(seat) + hand
            twin.hands[seat] = [0] * r.KINDS
            for k in hand:
                twin.hands[seat][k] += 1
        twin.pile = [0] * r.KINDS
        for k in pool:  # what no hand got
            twin.pile[k] += 1
        dealt = len(self.round_queue) - len(self.deal_queue)
        for index, destination in enumerate(self.round_queue[:dealt], self.round_hist_start):
            if destination not in (r.TABLE, player):
                twin._history[index] = (CHANCE, new_deal[destination].pop())
        return twin

    def _played_this_round(self, seat: int) -> list[int]:
        played = [
            nt.parse_card(entry["card"]) for entry in self.log[self.round_log_start :] if entry.get("seat") == seat
        ]
        if self.to_move == seat and self.played >= 0:
            played.append(self.played)
        return [k for k in played if k is not None]

    def clone(self) -> SafaruState:
        twin = SafaruState.__new__(SafaruState)
        twin.__dict__.update(self.__dict__)
        twin._history = list(self._history)
        twin.totals = list(self.totals)
        twin.results = list(self.results)  # finished games are never mutated
        twin.hands = [list(h) for h in self.hands]
        twin.table = list(self.table)
        twin.tnum = list(self.tnum)
        twin.pile = list(self.pile)
        twin.caught = [list(c) for c in self.caught]
        twin.log = list(self.log)  # finished entries are never mutated
        twin.deal_queue = list(self.deal_queue)
        twin.deal_log = {**self.deal_log, "table": list(self.deal_log["table"])}
        twin.used = list(self.used)
        twin.catches = [{"method": c["method"], "cards": list(c["cards"])} for c in self.catches]
        twin.build = list(self.build)
        twin.table_before = list(self.table_before)
        twin._legal_cache = None
        return twin
