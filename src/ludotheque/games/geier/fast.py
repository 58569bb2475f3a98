"""Hol's der Geier for many games at once: a Numba kernel for the built-in policies, NumPy for any other.

The same rules as the engine (``game.py``, ``rules.py``: geier-1..5, both tie rules, carry-over, the lost last pot,
both final tie rules).  Two engines, chosen by ``engine=``:

* ``"numba"`` (``fast_kernel.py``): one compiled loop per game, games spread over the cores.  It plays the
  named policies (``"random"``, ``"heuristic"``) only, since a Python policy called per game would cost more
  than the game.  This is the fast one: a round is a few integer operations on 16-bit hand masks.
* ``"numpy"``: the round loop vectorised over the batch (every array has the games on axis 0).  It accepts any
  ``Policy`` callable, which sees a whole round of the batch at once (``RoundInfo``).

``"auto"`` (the default) takes Numba when every seat's policy is a name.  ``resolve(decks, plays)`` scores
given decks and plays (what the equivalence tests drive); ``simulate(...)`` draws decks and lets the policies
choose the plays.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ludotheque.core import OptionError
from ludotheque.games.geier.rules import FINAL_TIES, POINT_CARDS, TIE_RULES

CARDS = 15
VALUES = np.arange(1, CARDS + 1, dtype=np.int64)  # hand card values, index i holds card i + 1
POINTS = np.array(POINT_CARDS, dtype=np.int64)

IntArray = NDArray[np.signedinteger[Any]]  # int16 inside the batch, int64 at the edges
BoolArray = NDArray[np.bool_]


@dataclass
class RoundInfo:
    """What a policy may look at before a round's plays: public information plus each seat's hand."""

    hands: BoolArray  # (games, players, 15) cards still in hand
    pot_sum: IntArray  # (games,) value of the pot including the card just turned
    to_come: BoolArray  # (games, 15) point cards (indexed like POINT_CARDS) not yet turned
    points: IntArray  # (games, players)


Policy = Callable[[RoundInfo, np.random.Generator], IntArray]


@dataclass
class BatchResult:
    returns: IntArray  # (games, players) points, int64
    winners: BoolArray  # (games, players) True for each winning seat
    decks: IntArray  # (games, 15) point card values in the order turned (int8 from Numba, int64 from NumPy)
    plays: IntArray  # (games, 15, players) cards played each round (idem)


def _check(players: int, tie_rule: str, final_tie: str) -> None:
    if not 2 <= players <= 5:
        raise OptionError(f"geier is played by 2 to 5 players, not {players}")
    if tie_rule not in TIE_RULES:
        raise OptionError(f"option 'tie_rule' takes one of {', '.join(TIE_RULES)}, not {tie_rule!r}")
    if final_tie not in FINAL_TIES:
        raise OptionError(f"option 'final_tie' takes one of {', '.join(FINAL_TIES)}, not {final_tie!r}")


def _taker(plays: IntArray, pot_sum: IntArray, tie_rule: str) -> IntArray:
    """Seat taking the pot per game, -1 when it stays (geier-3).

    Works on (games, players) arrays only: with at most five seats, comparing seats pairwise is cheaper than
    counting over the fifteen card values.
    """
    players = plays.shape[1]
    # a pot < 0 is taken by the lowest card: negate the cards so that "best" is always "highest"
    signed = plays * np.where(pot_sum >= 0, 1, -1).astype(plays.dtype)[:, None]
    shared = np.zeros(plays.shape, dtype=np.bool_)
    for a in range(players):
        for b in range(a + 1, players):
            same = plays[:, a] == plays[:, b]
            shared[:, a] |= same
            shared[:, b] |= same
    floor = -100
    if tie_rule == "cascade":
        candidate = np.where(shared, floor, signed)
    else:
        # single: only the best value and, if it is tied, the next value below it are considered
        top = signed.max(axis=1, keepdims=True)
        second = np.where(signed < top, signed, floor).max(axis=1, keepdims=True)
        top_unique = (~shared & (signed == top)).any(axis=1, keepdims=True)
        allowed = np.where(top_unique, signed == top, signed == second)
        candidate = np.where(allowed & ~shared, signed, floor)
    best = candidate.max(axis=1)
    seat = candidate.argmax(axis=1)
    return np.where(best > floor, seat, -1)


def _final_winners(points: IntArray, best_mouse: IntArray, final_tie: str) -> BoolArray:
    """geier-5 for every game at once."""
    same = points[:, :, None] == points[:, None, :]  # (g, p, p)
    holders = same.sum(axis=2)  # how many seats hold each seat's score
    top = points.max(axis=1, keepdims=True)
    leaders = points == top
    single_leader = leaders.sum(axis=1) == 1
    if final_tie == "next-best":
        unique = holders == 1
        masked = np.where(unique, points, np.iinfo(points.dtype).min)  # the dtype's own floor: int16 here
        best = masked.max(axis=1, keepdims=True)
        tied_case = unique & (points == best)
    else:
        mouse = np.where(leaders, best_mouse, 0)
        highest = mouse.max(axis=1, keepdims=True)
        tied_case = leaders & (mouse == highest) & (highest > 0)
    winners: BoolArray = np.where(single_leader[:, None], leaders, tied_case)
    return winners


ENGINES = ("auto", "numba", "numpy")


def resolve(
    decks: IntArray,
    plays: IntArray,
    *,
    tie_rule: str = "cascade",
    final_tie: str = "next-best",
    engine: str = "auto",
) -> tuple[IntArray, BoolArray]:
    """Returns and winners of games with the given point-card order and plays.

    ``decks``: (games, 15) point values in the order turned; ``plays``: (games, 15, players) cards 1..15.
    """
    games, rounds, players = plays.shape
    _check(players, tie_rule, final_tie)
    if _engine(engine) != "numpy":
        from ludotheque.games.geier import fast_kernel

        returns, won = fast_kernel.resolve_batch(
            np.ascontiguousarray(decks, dtype=np.int8),
            np.ascontiguousarray(plays, dtype=np.int8),
            tie_rule == "cascade",
            final_tie == "next-best",
        )
        return returns, won
    state = _Batch(games, players, final_tie == "highest-mouse")
    for r in range(rounds):
        state.turn(decks[:, r])
        state.play(plays[:, r, :], tie_rule, last=r == rounds - 1)
    return state.points.astype(np.int64), _final_winners(state.points, state.best_mouse, final_tie)


def _engine(engine: str) -> str:
    if engine not in ENGINES:
        raise OptionError(f"unknown engine {engine!r} (engines: {', '.join(ENGINES)})")
    return engine


class _Batch:
    """Running totals of a batch of games."""

    # int16 throughout: every value fits (cards 1..15, points -15..55), and small arrays stay in cache.
    def __init__(self, games: int, players: int, track_mice: bool) -> None:
        self.rows = np.arange(games)
        self.seats = np.arange(players)
        self.track_mice = track_mice  # only the highest-mouse final tie needs the mice each seat won
        self.points = np.zeros((games, players), dtype=np.int16)
        self.best_mouse = np.zeros((games, players), dtype=np.int16)  # highest mouse each seat won
        self.pot_sum = np.zeros(games, dtype=np.int16)
        self.pot_mouse = np.zeros(games, dtype=np.int16)  # highest mouse in the pot

    def turn(self, cards: IntArray) -> None:
        self.pot_sum += cards.astype(np.int16)
        if self.track_mice:
            np.maximum(self.pot_mouse, cards.astype(np.int16), out=self.pot_mouse)

    def play(self, plays: IntArray, tie_rule: str, last: bool) -> None:
        taker = _taker(plays, self.pot_sum, tie_rule)
        takes = taker[:, None] == self.seats[None, :]  # (g, p) one-hot of the taker; all False if none
        self.points += takes * self.pot_sum[:, None]
        if self.track_mice:
            np.maximum(self.best_mouse, takes * self.pot_mouse[:, None], out=self.best_mouse)
        if last:  # geier-4: a last pot nobody takes is lost
            self.pot_sum[:] = 0
            self.pot_mouse[:] = 0
        else:
            kept = taker < 0  # a pot nobody took stays for the next round
            self.pot_sum *= kept
            self.pot_mouse *= kept


def random_policy(info: RoundInfo, rng: np.random.Generator) -> IntArray:
    """Each seat plays a uniformly random card from its hand."""
    keys = rng.random(info.hands.shape)
    keys[~info.hands] = -1.0
    cards: IntArray = keys.argmax(axis=2).astype(np.int64) + 1
    return cards


def heuristic_policy(info: RoundInfo, rng: np.random.Generator) -> IntArray:
    """The engine's ``GeierHeuristicBot`` vectorised: bid the card whose rank in hand matches the pot's rank
    among the absolute values still in play."""
    worth = np.abs(info.pot_sum)[:, None]  # (g, 1)
    field = np.abs(POINTS)[None, :]  # (1, 15)
    below = ((field < worth) & info.to_come).sum(axis=1)
    equal = ((field == worth) & info.to_come).sum(axis=1) + 1  # the pot itself is in the field
    size = info.to_come.sum(axis=1) + 1
    fraction = (below + (equal - 1) / 2) / np.maximum(1, size - 1)
    in_hand = info.hands.sum(axis=2)  # (g, p)
    index = np.round(fraction[:, None] * (in_hand - 1)).astype(np.int64)  # half to even, like round()
    position = np.cumsum(info.hands, axis=2) - 1  # rank of each card within the hand
    pick = info.hands & (position == index[:, :, None])
    cards: IntArray = pick.argmax(axis=2).astype(np.int64) + 1
    return cards


POLICIES: dict[str, Policy] = {"random": random_policy, "heuristic": heuristic_policy}


def simulate(
    games: int,
    players: int,
    policy: str | Policy | list[str | Policy] = "random",
    seed: int = 0,
    engine: str = "auto",
    **options: Any,
) -> BatchResult:
    """Play ``games`` games of ``players`` seats at once; ``policy`` is one for all seats or one per seat.

    The same ``seed`` gives the same batch on every run and machine, for a given engine (the two engines draw
    their random numbers differently).
    """
    tie_rule = str(options.pop("tie_rule", "cascade"))
    final_tie = str(options.pop("final_tie", "next-best"))
    if options:
        raise OptionError(f"geier has no option {sorted(options)[0]!r} (options: final_tie, tie_rule)")
    _check(players, tie_rule, final_tie)
    if games < 1:
        raise OptionError(f"a batch needs at least one game, not {games}")
    per_seat = policy if isinstance(policy, list) else [policy] * players
    if len(per_seat) != players:
        raise OptionError(f"{players} policies are needed, not {len(per_seat)}")
    for p in per_seat:
        if isinstance(p, str) and p not in POLICIES:
            raise OptionError(f"unknown policy {p!r} (policies: {', '.join(POLICIES)}, or a callable)")
    named = all(isinstance(p, str) for p in per_seat)
    chosen_engine = _engine(engine)
    if chosen_engine == "numba" and not named:
        raise OptionError("engine 'numba' plays the named policies only (random, heuristic); use engine='numpy'")
    if chosen_engine != "numpy" and named:
        from ludotheque.games.geier import fast_kernel

        codes = np.array([fast_kernel.POLICY_CODES[str(p)] for p in per_seat], dtype=np.int64)
        decks, plays, returns, winners = fast_kernel.simulate_batch(
            games, players, codes, seed, tie_rule == "cascade", final_tie == "next-best"
        )
        return BatchResult(returns, winners, decks, plays)
    chosen = [POLICIES[p] if isinstance(p, str) else p for p in per_seat]
    rng = np.random.default_rng(seed)
    decks = POINTS[rng.permuted(np.tile(np.arange(CARDS), (games, 1)), axis=1)]
    turned = np.ascontiguousarray(decks.T).astype(np.int16)  # (15, g): round r's card is a contiguous row
    # A seat playing uniformly at random from its hand every round plays a uniformly random permutation of
    # its cards: draw those up front (one sort) instead of round by round.
    hand = np.arange(1, CARDS + 1, dtype=np.int16)
    permutations = rng.permuted(np.broadcast_to(hand, (games, players, CARDS)), axis=2)
    by_round = np.ascontiguousarray(permutations.transpose(2, 0, 1))  # (15, g, p)
    others = {p for p in chosen if p is not random_policy}
    hands = np.ones((games, players, CARDS), dtype=np.bool_)
    to_come = np.ones((games, CARDS), dtype=np.bool_)
    index_of = np.zeros(21, dtype=np.int64)
    index_of[POINTS + 5] = np.arange(CARDS)
    batch = _Batch(games, players, final_tie == "highest-mouse")
    for r in range(CARDS):
        batch.turn(turned[r])
        cards = by_round[r]
        if others:
            to_come[batch.rows, index_of[turned[r] + 5]] = False
            info = RoundInfo(hands, batch.pot_sum, to_come, batch.points)
            for choose in others:
                mine = [seat for seat, p in enumerate(chosen) if p is choose]
                cards[:, mine] = choose(info, rng)[:, mine].astype(np.int16)
            hands[batch.rows[:, None], batch.seats[None, :], cards - 1] = False
        batch.play(cards, tie_rule, last=r == CARDS - 1)
    plays = by_round.transpose(1, 0, 2)  # (g, 15, p)
    winners = _final_winners(batch.points, batch.best_mouse, final_tie)
    return BatchResult(batch.points.astype(np.int64), winners, decks, plays.astype(np.int64))
