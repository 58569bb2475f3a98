"""Hol's der Geier / Stupides Vautours as a ludotheque game (seeds 000 and 001, DECISIONS geier-1..5).

Actions: seat action ``c - 1`` plays card ``c`` (1..15); chance action ``i`` turns ``POINT_CARDS[i]``.
A round is a chance node (the point card) followed by one simultaneous decision of every seat.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from typing import Any

from ludotheque.core import CHANCE, Actor, Bot, Game, OptionError, OptionSpec, State
from ludotheque.games.geier import GAME, notation, rules, view

# The actions set in each byte of a 15-bit mask: the actions of a whole mask are two list lookups and one
# concatenation, a new list every time (callers may keep or change it), with no cache to warm up.
_LOW_BYTE: tuple[list[int], ...] = tuple([i for i in range(8) if byte >> i & 1] for byte in range(256))
_HIGH_BYTE: tuple[list[int], ...] = tuple([i + 8 for i in range(8) if byte >> i & 1] for byte in range(256))


def _actions(mask: int) -> list[int]:
    """The set bits of a 15-bit mask, ascending: a hand's cards (shifted to actions) or a deck's point cards."""
    return _LOW_BYTE[mask & 255] + _HIGH_BYTE[mask >> 8]


#: ``_CUMULATIVE[k]``: the cumulative probabilities of ``k`` equally likely point cards, as ``sample_chance``
#: sums them (``itertools.accumulate``), so the draw is the one the generic path makes.
_CUMULATIVE: tuple[tuple[float, ...], ...] = tuple(
    tuple(itertools.accumulate([1.0 / k] * k)) if k else () for k in range(len(rules.POINT_CARDS) + 1)
)


#: each deck's chance actions and their cumulative probabilities (``State._chance_cumulative``), filled as decks
#: are met (at most 2**15)
_DRAWS: dict[int, tuple[tuple[int, ...], tuple[float, ...]]] = {}


def _outcomes(deck: int) -> list[tuple[int, float]]:
    """Uniform outcomes over the point cards left in a deck bitmask."""
    left = _actions(deck)
    return [(i, 1.0 / len(left)) for i in left]


_POINT_CARDS = rules.POINT_CARDS


class GeierGame(Game):
    game_type = GAME
    chapter_field = "round"
    clock_pace = 0.5  # one bid a round, chosen from a hand everyone can count
    option_specs = (
        OptionSpec(
            "tie_rule",
            "cascade",
            "geier-3: cascade = highest (lowest) card played by exactly one seat takes the pot; "
            "single = only the tied best value is set aside",
            choices=rules.TIE_RULES,
        ),
        OptionSpec(
            "final_tie",
            "next-best",
            "geier-5: next-best = best score held by exactly one seat wins; "
            "highest-mouse = among tied leaders, whoever won the highest mouse",
            choices=rules.FINAL_TIES,
        ),
    )

    def __init__(self, *, players: int, **options: Any) -> None:
        super().__init__(players=players, **options)
        self.tie_rule = str(self.options["tie_rule"])  # read once a round in every playout
        self.seats = tuple(range(players))

    def num_distinct_actions(self) -> int:
        return len(rules.HAND_CARDS)

    def max_chance_outcomes(self) -> int:
        return len(rules.POINT_CARDS)

    def new_reference_state(self) -> GeierState:
        return GeierState(self)

    def heuristic_bot(self) -> Bot:
        return self.heuristic_bot_with({})

    def heuristic_bot_with(self, settings: Mapping[str, Any]) -> Bot:
        """``spread``: how far the bid strays from the pot's rank; ``mirror``: the same, only where another seat holds
        the bot's very cards (``GeierHeuristicBot``)."""
        from ludotheque.games.geier.heuristics import GeierHeuristicBot

        unknown = sorted(set(settings) - {"spread", "mirror"})
        if unknown:
            raise OptionError(f"the geier heuristic has no setting {', '.join(unknown)} (settings: spread, mirror)")
        return GeierHeuristicBot(**settings)


class GeierState(State):
    game: GeierGame

    def __init__(self, game: GeierGame) -> None:
        super().__init__(game)
        n = game.players
        self.hands: list[int] = [rules.FULL_HAND] * n  # bitmask of cards still in hand (chosen ones removed)
        self.deck: int = rules.ALL_POINTS  # bitmask over POINT_CARDS indices not yet turned
        self.pot: list[int] = []  # point cards on the table, not yet won
        self.chosen: list[int] = [0] * n  # this round's face-down card per seat, 0 = not chosen yet
        self.points: list[int] = [0] * n
        self.won: list[list[int]] = [[] for _ in range(n)]
        self.rounds: list[dict[str, Any]] = []  # resolved rounds, public
        self.lost: list[int] = []  # the last pot when nobody took it (geier-4)
        self.awaiting_card = True  # chance turns the next point card

    # -- protocol ---------------------------------------------------------------------------------
    # The public methods below answer the common cases (a legal action of the seat or chance that acts) in
    # one step, without the base class's chain of hooks; anything else goes to ``State``'s methods, the
    # reference, which validate and raise.  tests/core/test_fast_paths.py checks the two agree.

    def is_terminal(self) -> bool:
        return self.awaiting_card and self.deck == 0

    def is_chance_node(self) -> bool:
        return self.awaiting_card and self.deck != 0

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return _outcomes(self.deck) if self.awaiting_card else []

    def current_players(self) -> list[int]:
        if self.awaiting_card:
            return []
        chosen = self.chosen
        if chosen.count(0) == len(chosen):  # the round's first question: every seat
            return list(self.game.seats)
        return [seat for seat, card in enumerate(chosen) if card == 0]

    def legal_actions(self, player: int | None = None) -> list[int]:
        if not self.awaiting_card and type(player) is int and 0 <= player < len(self.chosen):
            if self.chosen[player]:
                return []
            cards = self.hands[player] >> 1
            return _LOW_BYTE[cards & 255] + _HIGH_BYTE[cards >> 8]
        return super().legal_actions(player)

    def apply_action(self, action: int, player: Actor | None = None) -> None:
        if not self.awaiting_card:
            chosen = self.chosen
            if type(player) is int and 0 <= player < len(chosen) and not chosen[player] and type(action) is int:
                hand = self.hands[player]
                if action >= 0 and hand >> (action + 1) & 1:  # a hand holds bits 1..15 only
                    self.hands[player] = hand ^ (2 << action)
                    chosen[player] = action + 1
                    self._history.append((player, action))
                    if 0 not in chosen:
                        self._resolve_round()
                    return
        elif (player is None or player == CHANCE) and type(action) is int and 0 <= action < 15 and (
            self.deck >> action & 1
        ):
            self.deck ^= 1 << action
            self.pot.append(_POINT_CARDS[action])
            self.awaiting_card = False
            self._history.append((CHANCE, action))
            return
        super().apply_action(action, player)

    def _chance_cumulative(self) -> tuple[tuple[int, ...], tuple[float, ...]] | None:
        if not self.awaiting_card or not self.deck:
            return None
        try:
            return _DRAWS[self.deck]
        except KeyError:
            deck = self.deck
            return _DRAWS.setdefault(deck, (tuple(_actions(deck)), _CUMULATIVE[deck.bit_count()]))

    def _chance_outcomes(self) -> list[tuple[int, float]]:
        return _outcomes(self.deck)

    def _is_chance_outcome(self, action: int) -> bool:
        return 0 <= action < 15 and bool(self.deck >> action & 1)

    def _current_players(self) -> list[int]:
        return [seat for seat, card in enumerate(self.chosen) if card == 0]

    def _is_acting(self, player: int) -> bool:
        return self.chosen[player] == 0

    def _legal_actions(self, player: int) -> list[int]:
        return _actions(self.hands[player] >> 1)

    def _is_legal(self, action: int, player: int) -> bool:
        return 0 <= action < 15 and bool(self.hands[player] >> (action + 1) & 1)

    def _apply(self, action: int, player: int | None) -> None:
        if player is None:
            self._turn_point_card(action)
        else:
            self._play_card(action, player)

    def _turn_point_card(self, action: int) -> None:
        self.deck &= ~(1 << action)
        self.pot.append(rules.POINT_CARDS[action])
        self.awaiting_card = False

    def _play_card(self, action: int, player: int) -> None:
        card = action + 1
        self.hands[player] &= ~(1 << card)
        self.chosen[player] = card
        if 0 not in self.chosen:
            self._resolve_round()

    def _resolve_round(self) -> None:
        played = self.chosen
        pot = self.pot
        pot_sum = sum(pot)
        best = max(played) if pot_sum >= 0 else min(played)  # rules.pot_taker's usual case, without the call
        taker = played.index(best) if played.count(best) == 1 else rules.pot_taker(played, pot_sum, self.game.tie_rule)
        # the record keeps this round's lists: the state takes new ones from here on
        self.rounds.append({"pot": pot, "played": played, "taker": taker})
        if taker is not None:
            self.points[taker] += pot_sum
            self.won[taker] += pot
            self.pot = []
        elif self.deck:
            self.pot = list(pot)  # the pot stays for the next card
        else:
            self.lost = list(pot)  # geier-4: nobody took the last pot
            self.pot = []
        self.chosen = [0] * len(played)
        self.awaiting_card = True

    def _action_to_string(self, action: int, actor: Actor) -> str:
        return notation.format_action(action, actor == CHANCE)

    def _action_to_json(self, action: int, actor: Actor) -> dict[str, Any]:
        return notation.to_json(action, actor == CHANCE)

    def string_to_action(self, text: str, player: Actor | None = None) -> int:
        actor = self._notation_actor(player)
        action = notation.parse_action(text, actor == CHANCE, self.game.id)
        if actor == CHANCE:
            legal = self.is_chance_node() and not self.is_terminal() and self._is_chance_outcome(action)
        else:
            legal = action in self.legal_actions(actor)
        if not legal:
            return super().string_to_action(text, actor)  # raises a NotationError naming the problem
        return action

    def returns(self) -> list[float]:
        return [float(p) for p in self.points]

    def winners(self) -> list[int]:
        if not self.is_terminal():
            return []
        return rules.final_winners(self.points, self.won, str(self.game.options["final_tie"]))

    def _view(self, player: int | None) -> dict[str, Any]:
        return view.table_view(self, player)

    def resample(self, player: int, rng: random.Random) -> GeierState:
        """Only the other seats' face-down cards of this round are hidden (the deck is drawn by chance)."""
        self.check_seat(player)
        twin = self.clone()
        pending = len(self.rounds) * (self.game.players + 1) + 1  # history index where this round's choices start
        kept = twin._history[:pending]
        for actor, action in twin._history[pending:]:
            assert actor != CHANCE
            if actor == player:
                kept.append((actor, action))
                continue
            seat = int(actor)
            twin.hands[seat] |= 1 << twin.chosen[seat]
            options = [c for c in rules.HAND_CARDS if twin.hands[seat] >> c & 1]
            card = rng.choice(options)
            twin.hands[seat] &= ~(1 << card)
            twin.chosen[seat] = card
            kept.append((seat, card - 1))
        twin._history = kept
        return twin

    def clone(self) -> GeierState:
        twin = GeierState.__new__(GeierState)
        twin.game = self.game
        twin._history = list(self._history)
        twin.hands = list(self.hands)
        twin.deck = self.deck
        twin.pot = list(self.pot)
        twin.chosen = list(self.chosen)
        twin.points = list(self.points)
        twin.won = [list(w) for w in self.won]
        twin.rounds = list(self.rounds)  # resolved rounds are never mutated
        twin.lost = list(self.lost)
        twin.awaiting_card = self.awaiting_card
        return twin
