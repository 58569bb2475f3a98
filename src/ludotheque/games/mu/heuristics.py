"""A Mü baseline that reads only its seat's view.

Auction: estimate the triangles the hand can take with its best trump (a long colour, high cards; prudently),
bid the largest contract that estimate covers, and never end a turn tied at the top (an égalité costs the
seat that made the tie 10 per card, mu-3).  If everyone else passed with no bid on the table it opens with one
card rather than force a redeal.  When the top bid is already far beyond any makeable contract and rivals keep laying
(a "war" heading for an égalité, typical of random players), it leads the war, since the tied seats other
than the one that made the tie gain 5 per card; it ties the top only when two rivals can still lay after it.
It lays a card of its intended trump first (a trump can only be named among laid cards, mu-5), then its
cheapest cards.  Trumps: the choice it holds most (and highest) of.  Partner: the highest other bidder.
Tricks: the chief's team leads trumps; others lead a master card of a colour, else a cheap card; following,
win with the cheapest winning card when the trick is worth it, else dump the cheapest card; feed points to a
winning partner.
"""

from __future__ import annotations

import random
from typing import Any

from ludotheque.core.bot import Sampler
from ludotheque.games.mu import notation as nt
from ludotheque.games.mu import rules
from ludotheque.games.mu.rules import COLOURS, KINDS, NO_TRUMP


def _kind(name: str) -> int:
    kind = _KINDS.get(name)
    return COLOURS.index(name[0]) * 10 + int(name[1]) if kind is None else kind


def _kinds(names: list[str]) -> list[int]:
    """``[_kind(name) for name in names]``, looked up in one pass when every name is a card's."""
    try:
        return [_KINDS[name] for name in names]
    except KeyError:
        return [_kind(name) for name in names]


_KINDS = {f"{COLOURS[kind // 10]}{kind % 10}": kind for kind in range(KINDS)}  # a card's name -> its kind


def _trump_code(name: str | None) -> int:
    if name is None or name == "none":
        return NO_TRUMP
    if name in COLOURS:
        return COLOURS.index(name)
    return 10 + int(name)


def _trump_value(trump: int, held: list[int]) -> float:
    """How much a seat holding ``held`` (kinds) gains from ``trump``: its trump cards, the high ones more."""
    value = 0.0
    worth = _TRUMP_WORTH.get(trump)
    if worth is None:
        return value
    for kind in held:
        if worth[kind]:
            value += worth[kind]
    return value


#: per trump choice, what each kind adds to ``_trump_value`` (0.0: not a trump)
_TRUMP_WORTH: dict[int, tuple[float, ...]] = {
    trump: tuple(
        (1.0 + (kind % 10) / 9.0 if rules.is_colour_trump(trump) else 1.4) if rules.in_trump(kind, trump) else 0.0
        for kind in range(KINDS)
    )
    for trump in [*range(5), *range(10, 20)]
}


class MuHeuristicBot:
    name = "heuristic"

    def choose(
        self, view: dict[str, Any], legal_actions: list[int], rng: random.Random, sampler: Sampler | None = None
    ) -> int:
        table = view["table"]
        phase = table["phase"]
        if phase == "auction":
            action = self._bid(view, legal_actions)
        elif phase in ("vice_trump", "chief_trump"):
            action = self._trump(view, legal_actions)
        elif phase == "partner":
            action = self._partner(view, legal_actions)
        else:
            action = self._play(view, legal_actions)
        return action if action in legal_actions else rng.choice(legal_actions)

    # -- auction ----------------------------------------------------------------------------------

    def _held(self, view: dict[str, Any]) -> list[int]:
        table = view["table"]
        return _kinds(table["hand"]) + _kinds(table["laid"][view["seat"]])

    def _best_trump(self, held: list[int]) -> int:
        options = sorted({k // 10 for k in held}) + sorted({10 + k % 10 for k in held})
        return max(options, key=lambda t: _trump_value(t, held))

    def _desired_bid(self, view: dict[str, Any], held: list[int]) -> int:
        n = view["players"]
        trump = self._best_trump(held)
        per_seat = len(held)
        trumps = sum(1 for k in held if rules.in_trump(k, trump))
        colours = 3 if n == 3 else 5
        total_trumps = rules.CARDS_PER_COLOUR if rules.is_colour_trump(trump) else colours * rules.COPIES[trump % 10]
        # tricks: trumps beyond a fair share of the trumps, plus 9s and 8s of other colours
        share = (total_trumps - trumps) / max(1, n - 1)
        tricks = max(0.0, trumps - share) + 0.5 * trumps
        tricks += sum(0.7 if k % 10 == 9 else 0.3 if k % 10 == 8 else 0 for k in held if not rules.in_trump(k, trump))
        tricks = min(tricks, float(per_seat))
        deck = 36 if n == 3 else 60
        mine = 0.7 * tricks * n  # a trick holds n cards, one triangle each on average; be prudent
        team = mine + (0.6 * deck / n if n >= 4 else 0)  # a partner takes something near a fair share
        bid = 0
        while bid < per_seat and rules.contract(n, bid + 1) <= team - 2:
            bid += 1
        return bid

    def _bid(self, view: dict[str, Any], legal: list[int]) -> int:
        table = view["table"]
        me = view["seat"]
        bids = table["bids"]
        held = self._held(view)
        others = max(b for s, b in enumerate(bids) if s != me)
        goal = min(self._desired_bid(view, held), table["turn_limit"])
        if max(bids) == 0 and len(table["auction"]) == view["players"] - 1:
            goal = max(goal, 1)  # everyone else passed: open with one card rather than force a redeal
        war = others > goal and self._hot(view)
        if war:
            goal = table["turn_limit"]  # a bidding war heading for an égalité: lead it, never close it
        hand = _kinds(table["hand"])
        goal = min(goal, bids[me] + len(hand))
        if goal == others and not (war and self._active_rivals(view) >= 2):
            goal -= 1  # do not end the turn tied at the top, unless in a war where others will lay after us
        stop = nt.PASS if nt.PASS in legal else nt.DONE
        if bids[me] >= goal or not hand:
            return stop
        trump = self._best_trump(held)
        laid = _kinds(table["laid"][me])
        if not any(rules.in_trump(k, trump) for k in laid) and any(rules.in_trump(k, trump) for k in hand):
            candidates = [k for k in hand if rules.in_trump(k, trump)]  # so that this trump can be named
        else:
            candidates = [k for k in hand if not rules.in_trump(k, trump)] or hand
        kind = min(candidates, key=lambda k: (rules.triangles(k), k % 10))
        return nt.FROM_HAND + kind

    @staticmethod
    def _last_moves(view: dict[str, Any]) -> dict[int, str]:
        """Each seat's last auction move this hand (a card or ``pass``; ``done`` is skipped)."""
        last_move: dict[int, str] = {}
        for seat, move in view["table"]["auction"]:
            if move != "done":
                last_move[seat] = move
        return last_move

    def _active_rivals(self, view: dict[str, Any]) -> int:
        """Rivals that still hold cards and laid in their last turn: likely to lay again."""
        table = view["table"]
        last_move = self._last_moves(view)
        return sum(
            1
            for seat in range(view["players"])
            if seat != view["seat"] and table["hand_sizes"][seat] > 0 and last_move.get(seat, "pass") != "pass"
        )

    def _hot(self, view: dict[str, Any]) -> bool:
        """The top bid is beyond what a hand can hope to make and a rival within one card of it keeps laying:
        the auction is heading for an égalité (mu-3), which pays the tied seats but the one that made the tie."""
        table = view["table"]
        me, n = view["seat"], view["players"]
        last_move = self._last_moves(view)
        top = max(table["bids"])
        deck = 36 if n == 3 else 60
        if rules.contract(n, top) <= 0.8 * deck:
            return False  # bids a strong hand could still make: no war yet
        rivals = [s for s in range(n) if s != me]
        close = [s for s in rivals if last_move.get(s, "pass") != "pass" and table["bids"][s] >= top - 1]
        return len(close) >= 1

    def _trump(self, view: dict[str, Any], legal: list[int]) -> int:
        held = self._held(view)
        best, best_value = legal[0], -1.0
        for action in legal:
            if action == nt.NO_TRUMP_ACTION:
                continue
            trump = action - nt.TRUMP_COLOUR if action < nt.TRUMP_NUMBER else 10 + action - nt.TRUMP_NUMBER
            value = _trump_value(trump, held)
            if value > best_value:
                best, best_value = action, value
        return best

    def _partner(self, view: dict[str, Any], legal: list[int]) -> int:
        table = view["table"]

        def key(action: int) -> tuple[int, int]:
            seat = action - nt.PARTNER
            laid = [_kind(c) % 10 for c in table["laid"][seat]]
            return table["bids"][seat], max(laid, default=-1)

        return max(legal, key=key)

    # -- tricks -----------------------------------------------------------------------------------

    def _play(self, view: dict[str, Any], legal: list[int]) -> int:
        table = view["table"]
        me = view["seat"]
        n = view["players"]
        chief_t, vice_t = _trump_code(table["chief_trump"]), _trump_code(table["vice_trump"])
        team = {table["chief"], table["partner"]} - {None}
        ally = team - {me} if me in team else set()
        trick = table["trick"]
        cards = [(a, a % KINDS) for a in legal]

        def cheap(item: tuple[int, int]) -> tuple[int, int, int]:
            kind = item[1]
            trump = rules.category(kind, chief_t, vice_t) == rules.TRUMP_CATEGORY
            return rules.triangles(kind), int(trump), kind % 10

        if not trick:
            return self._lead(view, cards, chief_t, vice_t, me in team, cheap)
        kinds = [_kind(name) for _, name, _ in trick]
        led = rules.category(kinds[0], chief_t, vice_t)
        win_index = rules.trick_winner(kinds, chief_t, vice_t)
        best_key = rules.strength(kinds[win_index], chief_t, vice_t, led)
        winner = trick[win_index][0]
        points = sum(rules.triangles(k) for k in kinds)
        last = len(trick) == n - 1
        winning = [c for c in cards if rules.strength(c[1], chief_t, vice_t, led) > best_key]
        if winner in ally:
            losing = [c for c in cards if c not in winning] or cards
            if last or best_key >= 200:
                return max(losing, key=lambda c: (rules.triangles(c[1]), -(c[1] % 10)))[0]
            return min(losing, key=cheap)[0]
        if winning and (last or points + max(rules.triangles(c[1]) for c in winning) >= 2):
            return min(winning, key=lambda c: (rules.strength(c[1], chief_t, vice_t, led), cheap(c)))[0]
        return min(cards, key=cheap)[0]

    def _lead(
        self, view: dict[str, Any], cards: list[tuple[int, int]], chief_t: int, vice_t: int, on_team: bool, cheap: Any
    ) -> int:
        table = view["table"]
        played = _kinds([name for trick in table["tricks"] for _, name, _ in trick["cards"]])
        mine = {kind for _, kind in cards}
        trumps = [c for c in cards if rules.category(c[1], chief_t, vice_t) == rules.TRUMP_CATEGORY]
        if trumps and on_team:
            return max(trumps, key=lambda c: rules.strength(c[1], chief_t, vice_t, 5))[0]
        counts = rules.full_deck()
        for action, kind in sorted(cards, key=lambda c: -(c[1] % 10)):
            if rules.category(kind, chief_t, vice_t) == rules.TRUMP_CATEGORY:
                continue
            higher = [
                k for k in range(kind + 1, kind // 10 * 10 + 10) if rules.category(k, chief_t, vice_t) == kind // 10
            ]
            if all(played.count(k) >= counts[k] or k in mine for k in higher):
                return action  # a master card of its colour
        return int(min(cards, key=cheap)[0])
