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
from functools import lru_cache
from typing import Any

from ludotheque.core.bot import Sampler
from ludotheque.games.calcory import rules
from ludotheque.games.calcory.view import memory, unseen_counts


def best_path(known: list[int], target: int, zeros_allowed: int) -> list[int] | None:
    """The largest multiset of ``known`` values summing exactly to ``target`` (at most ``zeros_allowed`` 0s),
    or ``None``.  ``target`` is 1..13, so a small subset-sum table suffices."""
    if target <= 0:
        return None
    path = _best_paths(_positives(known), max(target, rules.TARGET))[target]
    if path is None:
        return None
    zeros = min(zeros_allowed, known.count(0))
    return [0] * zeros + list(path)


def _positives(known: list[int]) -> tuple[int, ...]:
    """The positive values of ``known``, ascending: all that ``best_path``'s table depends on."""
    return tuple(sorted([v for v in known if v > 0]))


@lru_cache(maxsize=1 << 12)
def _best_paths(values: tuple[int, ...], top: int) -> tuple[tuple[int, ...] | None, ...]:
    """``best[t]`` for every ``t`` in 0..``top``: the largest run of ``values`` (positive, ascending) summing to
    ``t``, or ``None``.  Memoised: a search meets the same remembered cards at node after node, and asks for
    several targets each time.  A total ``t`` only ever reads smaller totals, so the entries up to a target are
    the same whatever larger ``top`` the table is filled to: one table serves every target up to 13."""
    best: list[list[int] | None] = [None] * (top + 1)
    best[0] = []
    for value in values:
        for total in range(top, value - 1, -1):
            before = best[total - value]
            if before is not None and (best[total] is None or len(before) + 1 > len(best[total] or [])):
                best[total] = [*before, value]
    return tuple(None if path is None else tuple(path) for path in best)


def _p13(total: int, zeros: int, known: list[int], unseen: list[int]) -> tuple[float, float]:
    """(chance of reaching 13, chance of busting) when an unknown card is flipped next, reaching 13 meaning
    at once or through remembered cards."""
    return _chances(total, zeros, _positives(known), tuple(unseen))


@lru_cache(maxsize=1 << 14)
def _chances(total: int, zeros: int, values: tuple[int, ...], unseen: tuple[int, ...]) -> tuple[float, float]:
    """``_p13`` from the positive remembered values (the 0s among them change no sum), memoised: a search
    meets the same turn and the same memory at node after node."""
    size = sum(unseen)
    if size == 0:
        return 0.0, 0.0
    # ``best_path(known, TARGET - new_total, ...)`` is a non-empty list exactly when its table has a path there
    paths = _best_paths(values, rules.TARGET)
    good = bad = 0
    for u, count in enumerate(unseen):
        if not count:
            continue
        new_total, new_zeros = total + u, zeros + (u == 0)
        if rules.busts(new_total, new_zeros):
            bad += count
        elif new_total == rules.TARGET or paths[rules.TARGET - new_total] is not None:
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
