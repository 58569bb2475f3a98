"""A MICE baseline that plans the whole use of a roll and then plays it step by step.

At every decision it scores each way to finish the current step: which dice to use, how many nuts to spend on
±1 changes, and which card the sum then cages or flips.  Caging card ``c`` is worth ``c`` (the hand total falls
by ``c``, mice-7); a nut spent costs ``NUT`` points; leaving the others a sum they can cage costs a little.
Flipping dice cards is worth something only while the bot leads (it moves the end closer), and flipping the 6
(mice-7: the game ends at once) is taken exactly when the bot would win.  Because the plan is recomputed from
the view at each step with the same scores, the steps of one plan follow each other.

Solo (mice-8): every card counts the same for the rating, so cage first the card that is hardest to roll with
the dice the bot has (the chance of each sum is enumerated once per dice set), spend nuts only when that cages
a card, buy a second card with the remaining yellow dice when one is reachable, and after a failed roll flip
the dice card that leaves the best chance of caging something on the next roll.
"""

from __future__ import annotations

import itertools
import random
from functools import lru_cache
from typing import Any

from ludotheque.core.bot import Sampler
from ludotheque.games.mice import rules
from ludotheque.games.mice.notation import ADJUST, CAGE, FAIL, FLIP, PASS, PAY, TAKE_BACK, UNFLIP, USE

NUT = 1.5  # points a nut is worth to keep (multiplayer)
SOLO_NUT = 4.0  # in card-values: a solo nut is worth keeping unless it cages a card
WIN, LOSE = 1000.0, -1000.0


def _best(values: list[int], nuts: int, worth: dict[int, float], nut_cost: float) -> tuple[float, int | None]:
    """Best (score, target sum) reachable from ``values`` with up to ``nuts`` changes; (-inf, None) if none."""
    if not values:
        return _NOTHING
    return _best_sum(sum(values), len(values), nuts, worth, nut_cost)


def _best_sum(total: int, count: int, nuts: int, worth: dict[int, float], nut_cost: float) -> tuple[float, int | None]:
    """``_best`` of ``count`` >= 1 dice showing ``total``."""
    spare = total - count
    low = total - (nuts if nuts < spare else spare)
    spare = 6 * count - total
    high = total + (nuts if nuts < spare else spare)
    best_score, best_target = _MINUS_INF, None
    for target, value in worth.items():
        if low <= target <= high:
            score = value - nut_cost * (target - total if target >= total else total - target)
            if score > best_score:
                best_score, best_target = score, target
    return best_score, best_target


_MINUS_INF = float("-inf")
_NOTHING: tuple[float, int | None] = (_MINUS_INF, None)


def _adjust(dice: list[dict[str, Any]], nuts: int, worth: dict[int, float], legal: list[int], nut_cost: float) -> int:
    """One nut change towards the best reachable card, or the last legal step (done) when none helps."""
    used = [d["value"] for d in dice if d["using"]]
    _, target = _best(used, nuts, worth, nut_cost)
    step = None if target is None else _step_towards(target, dice, legal)
    return step if step is not None else legal[-1]


def _step_towards(target: int, dice: list[dict[str, Any]], legal: list[int]) -> int | None:
    """The legal action that moves the sum in use towards ``target`` (or cages/flips at it)."""
    total = sum(d["value"] for d in dice if d["using"])
    if total == target:
        for action in legal:
            if CAGE <= action < FLIP and action - CAGE + 1 == target:
                return action
            if FLIP <= action < TAKE_BACK and rules.DICE_CARDS[action - FLIP] == target:
                return action
        return None
    down = 1 if target < total else 0
    for action in legal:
        if ADJUST <= action < CAGE and (action - ADJUST) % 2 == down:
            return action
    return None


@lru_cache(maxsize=4096)
def _solo_chance(hand: int, red: int, yellow: int) -> float:
    """Probability that a roll of ``red`` + ``yellow`` dice can cage a card of ``hand`` without nuts."""
    if red == 0 or hand == 0:
        return 0.0
    hits = 0
    outcomes = 0
    for roll in itertools.product(range(1, 7), repeat=red + yellow):
        outcomes += 1
        base = sum(roll[:red])
        yellows = roll[red:]
        sums = {base + sum(c) for k in range(len(yellows) + 1) for c in itertools.combinations(yellows, k)}
        if any(s <= 18 and hand >> s & 1 for s in sums):
            hits += 1
    return hits / outcomes


@lru_cache(maxsize=64)
def _card_chances(red: int, yellow: int) -> tuple[float, ...]:
    """For each sum 0..18, the probability that a roll of these dice can show it (reds plus any yellow subset)."""
    hits = [0] * 19
    outcomes = 0
    for roll in itertools.product(range(1, 7), repeat=red + yellow):
        outcomes += 1
        base = sum(roll[:red])
        yellows = roll[red:]
        sums = {base + sum(c) for k in range(len(yellows) + 1) for c in itertools.combinations(yellows, k)}
        for s in sums:
            if s <= 18:
                hits[s] += 1
    return tuple(h / max(outcomes, 1) for h in hits)


def _card_chance(card: int, red: int, yellow: int) -> float:
    return _card_chances(red, yellow)[card] if red else 0.0


class MiceHeuristicBot:
    name = "heuristic"

    def choose(
        self, view: dict[str, Any], legal_actions: list[int], rng: random.Random, sampler: Sampler | None = None
    ) -> int:
        table = view["table"]
        me = view["seat"]
        action = self._solo(table, legal_actions) if table["solo"] else self._multi(table, me, legal_actions)
        return action if action in legal_actions else rng.choice(legal_actions)

    # -- multiplayer -----------------------------------------------------------------------------------

    def _lead(self, table: dict[str, Any], me: int) -> int:
        mine: int = table["seats"][me]["hand_total"]
        others: list[int] = [s["hand_total"] for i, s in enumerate(table["seats"]) if i != me]
        return min(others) - mine

    def _would_win(self, table: dict[str, Any], me: int, caged: int = 0, flips: int = 0) -> bool:
        keys = []
        for i, s in enumerate(table["seats"]):
            total = s["hand_total"] - (caged if i == me else 0)
            down = len(s["face_down"]) + (flips if i == me else 0)
            keys.append((total, -down, -s["nuts"]))
        return keys[me] <= min(keys)

    def _worth(self, table: dict[str, Any], me: int) -> dict[int, float]:
        info = table["seats"][me]
        hand = info["hand"]
        worth: dict[int, float] = {card: float(card) for card in hand}
        flippable = rules.FLIPPABLE[sum([1 << rules.DICE_CARD_INDEX[v] for v in info["face_up"]])]
        lead: int | None = None  # worked out only when a flip's worth needs it
        for value in info["face_up"]:
            if not flippable >> value & 1:
                continue
            if value == 6:
                flip = WIN if self._would_win(table, me, flips=1) else LOSE
            elif not hand:
                flip = 10.0
            else:
                if lead is None:
                    lead = self._lead(table, me)
                flip = 6.0 + lead / 4 if lead > 0 else -4.0
            worth[value] = max(worth.get(value, flip), flip)
        return worth

    def _gift(self, table: dict[str, Any], me: int, pool: list[int]) -> float:
        """What leaving ``pool`` to the other seats costs (they may cage its sum; each pays us a nut)."""
        cost = 0.0
        if not pool:
            return cost
        total = sum(pool)
        for i, s in enumerate(table["seats"]):
            if i != me and total in s["hand"]:
                cost += 0.4 * total - 0.8
        return cost

    def _multi(self, table: dict[str, Any], me: int, legal: list[int]) -> int:
        phase = table["phase"]
        if phase == "fail":
            return max(legal, key=lambda a: self._undo_score(table, me, a))
        info = table["seats"][me]
        worth = self._worth(table, me)
        dice = table["dice"]
        if phase == "select":
            reds = [d["value"] for d in dice if d["die"][0] == "R"]
            yellows = [d["value"] for d in dice if d["die"][0] == "Y"]
            best_score, best_action = self._fail_score(table, me) - self._gift(table, me, reds + yellows), FAIL
            nuts = info["nuts"]
            others = [s["hand"] for i, s in enumerate(table["seats"]) if i != me]
            red_total, red_count = sum(reds), len(reds)
            # each choice of yellow dice, scored by sums alone: the best card the dice in use reach, less what the
            # dice left over give the others (``_best`` and ``_gift`` of the two lists, without building them)
            for action in legal:
                if action == FAIL:
                    continue
                mask = action - USE
                total, count, left, leftover = red_total, red_count, 0, False
                for k, value in enumerate(yellows):
                    if mask >> k & 1:
                        total += value
                        count += 1
                    else:
                        left += value
                        leftover = True
                score = _best_sum(total, count, nuts, worth, NUT)[0] if count else _MINUS_INF
                cost = 0.0
                if leftover:
                    for hand in others:
                        if left in hand:
                            cost += 0.4 * left - 0.8
                score -= cost
                if score > best_score:
                    best_score, best_action = score, action
            return best_action
        if phase == "adjust":
            return _adjust(dice, info["nuts"], worth, legal, NUT)
        if phase == "pay":
            pool = [d["value"] for d in dice if d["pool"]]
            nuts = info["nuts"] if table["supply"] > 0 else info["nuts"] - 1
            score, _ = _best(pool, nuts, worth, NUT)
            price = 0.3 if table["supply"] > 0 else NUT + 0.3  # a nut to the active seat helps it a little
            return PAY if score - price > 0 else PASS
        return legal[0]

    def _undo_score(self, table: dict[str, Any], me: int, action: int) -> float:
        info = table["seats"][me]
        if action == TAKE_BACK:
            return -float(info["cage"][-1])
        lead = self._lead(table, me)
        value = rules.DICE_CARDS[action - UNFLIP]
        return (-3.0 if lead > 0 else 1.0) + value / 100  # more dice back first when behind

    def _fail_score(self, table: dict[str, Any], me: int) -> float:
        info = table["seats"][me]
        options = [-float(info["cage"][-1])] if info["cage"] else []
        if info["face_down"]:
            options.append(-3.0 if self._lead(table, me) > 0 else 1.0)
        return max(options, default=0.0)

    # -- solo ------------------------------------------------------------------------------------------

    def _solo(self, table: dict[str, Any], legal: list[int]) -> int:
        phase = table["phase"]
        info = table["seats"][0]
        dice = table["dice"]
        # every card is worth the same to the rating; among them, the hardest to roll go first
        red, yellow = info["red_dice"], info["yellow_dice"]
        worth = {card: 20.0 + 30.0 * (1.0 - _card_chance(card, red, yellow)) for card in info["hand"]}
        if phase == "select":
            reds = [d["value"] for d in dice if d["die"].startswith("R")]
            yellows = [d["value"] for d in dice if d["die"].startswith("Y")]
            best_score, best_action = float("-inf"), FAIL
            for action in legal:
                if action == FAIL:
                    continue
                mask = action - USE
                used = reds + [v for k, v in enumerate(yellows) if mask >> k & 1]
                left = [v for k, v in enumerate(yellows) if not mask >> k & 1]
                score, target = _best(used, info["nuts"], worth, SOLO_NUT)
                if target is None:
                    continue
                spent = abs(target - sum(used))
                rest = {c: w for c, w in worth.items() if c != target}
                second, _ = _best(left, info["nuts"] - spent - 1, rest, SOLO_NUT)
                if second > 20.0:
                    score += second - SOLO_NUT
                elif sum(left) >= 15 and table["supply"] > 0:
                    score += SOLO_NUT
                if score > best_score:
                    best_score, best_action = score, action
            return best_action
        if phase == "adjust":
            return _adjust(dice, info["nuts"], worth, legal, SOLO_NUT)
        if phase == "pay":
            pool = [d["value"] for d in dice if d["pool"]]
            score, _ = _best(pool, info["nuts"] - 1, worth, SOLO_NUT)
            return PAY if score - SOLO_NUT > 20.0 - SOLO_NUT else PASS
        if phase == "fail":
            hand = sum(1 << c for c in info["hand"])
            face_up = sum(1 << rules.DICE_CARD_INDEX[v] for v in info["face_up"])

            def chance(action: int) -> float:
                left = face_up & ~(1 << (action - FLIP))
                return _solo_chance(hand, *rules.dice_counts(left))

            return max(legal, key=chance)
        return legal[0]
