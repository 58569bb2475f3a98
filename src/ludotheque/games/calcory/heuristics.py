"""A Calcory baseline that remembers everything (calcory-5: bots may use the history).

It reads the view's log to know every face-down card ever revealed, then:
1. if remembered cards complete the turn's sum to exactly 13, flip them (as many cards as possible);
2. otherwise weigh flipping an unknown card (the chance that it makes 13 at once or with remembered cards)
   against its risk of busting, and stop when the risk is high and stopping marks (or beats) cards;
3. a single card is only marked when collecting it would end the game with this seat ahead (calcory-4);
4. the card put back is the one that least helps the next players complete a 13.
"""

from __future__ import annotations

import random
from typing import Any

from ludotheque.core.bot import Sampler
from ludotheque.games.calcory import rules
from ludotheque.games.calcory.view import memory, unseen_counts


def best_path(known: list[int], target: int, zeros_allowed: int) -> list[int] | None:
    """The largest multiset of ``known`` values summing exactly to ``target`` (at most ``zeros_allowed`` 0s),
    or ``None``.  ``target`` is 1..13, so a small subset-sum table suffices."""
    if target <= 0:
        return None
    best: list[list[int] | None] = [None] * (target + 1)
    best[0] = []
    for value in sorted(v for v in known if v > 0):
        for total in range(target, value - 1, -1):
            before = best[total - value]
            if before is not None and (best[total] is None or len(before) + 1 > len(best[total] or [])):
                best[total] = [*before, value]
    path = best[target]
    if path is None:
        return None
    zeros = min(zeros_allowed, sum(1 for v in known if v == 0))
    return [0] * zeros + path


def _p13(total: int, zeros: int, known: list[int], unseen: list[int]) -> tuple[float, float]:
    """(chance of reaching 13, chance of busting) when an unknown card is flipped next, reaching 13 meaning
    at once or through remembered cards."""
    size = sum(unseen)
    if size == 0:
        return 0.0, 0.0
    good = bad = 0
    for u, count in enumerate(unseen):
        if not count:
            continue
        new_total, new_zeros = total + u, zeros + (u == 0)
        if rules.busts(new_total, new_zeros):
            bad += count
        elif new_total == rules.TARGET or best_path(known, rules.TARGET - new_total, 1 - new_zeros):
            good += count
    return good / size, bad / size


class CalcoryHeuristicBot:
    name = "heuristic"

    def choose(
        self, view: dict[str, Any], legal_actions: list[int], rng: random.Random, sampler: Sampler | None = None
    ) -> int:
        table = view["table"]
        if table["phase"] == "put_back":
            return self._put_back(table, legal_actions)
        if table["phase"] != "flip" or len(legal_actions) == 1:
            return legal_actions[0]
        action = self._flip_or_stop(view, legal_actions, rng)
        return action if action in legal_actions else rng.choice(legal_actions)

    def _flip_or_stop(self, view: dict[str, Any], legal: list[int], rng: random.Random) -> int:
        table = view["table"]
        seat = view["seat"]
        remembered = memory(table)
        unseen = unseen_counts(table, remembered)
        total, zeros, count = table["sum"], table["zeros"], len(table["flipped"])
        known = list(remembered.values())
        by_value: dict[int, list[int]] = {}
        for cell, value in remembered.items():
            by_value.setdefault(value, []).append(cell)
        unknown = [c for c, item in enumerate(table["cells"]) if item == "down" and c not in remembered]

        path = best_path(known, rules.TARGET - total, 1 - zeros)
        if path:  # 1. a sure 13
            return by_value[path[-1]][0]

        p13, pbust = _p13(total, zeros, known, unseen)
        # best "set-up" flip of a remembered card that keeps the turn alive and improves the next gamble
        setup_value, setup_p = None, 0.0
        for value in sorted(by_value):
            if rules.busts(total + value, zeros + (value == 0)) or total + value == rules.TARGET:
                continue
            rest = list(known)
            rest.remove(value)
            chance, _ = _p13(total + value, zeros + (value == 0), rest, unseen)
            if chance > setup_p:
                setup_value, setup_p = value, chance

        if rules.STOP in legal and self._stop_is_good(table, seat, total, count, max(p13, setup_p), pbust):
            return rules.STOP
        if unknown and (p13 >= setup_p or setup_value is None):
            return rng.choice(unknown)
        if setup_value is not None:
            return by_value[setup_value][0]
        if rules.STOP in legal:
            return rules.STOP
        return rng.choice(legal)

    @staticmethod
    def _stop_is_good(table: dict[str, Any], seat: int, total: int, count: int, p13: float, pbust: float) -> bool:
        marked = table["marked"]
        if marked is not None and not rules.beats(total, count, marked["sum"], marked["count"]):
            return False  # stopping would fail
        won: list[int] = table["cards_won"]
        if count == 1:
            # calcory-4: a single surviving card ends the game; only worth it when that wins
            return won[seat] + 1 > max(w for s, w in enumerate(won) if s != seat)
        if marked is not None:
            return p13 < 0.45  # beating the marks denies their owner the cards
        return total >= 11 or (pbust >= 0.4 and p13 < 0.3) or (count >= rules.MARKERS)

    @staticmethod
    def _put_back(table: dict[str, Any], legal: list[int]) -> int:
        remembered = memory(table)
        known = list(remembered.values())
        unseen = unseen_counts(table, remembered)
        empties = [c for c, item in enumerate(table["cells"]) if item is None]
        best: tuple[float, int] | None = None
        for value in sorted(set(table["holding"])):
            # how much this card, once known, helps someone starting a turn to a 13
            with_it = [*known, value]
            if best_path(with_it, rules.TARGET, 1) and not best_path(known, rules.TARGET, 1):
                help_ = 1.0
            else:
                help_, _ = _p13(value, int(value == 0), known, unseen)
            if best is None or help_ < best[0]:
                best = (help_, value)
        assert best is not None
        action = rules.put_action(best[1], empties[0])
        return action if action in legal else legal[0]
