"""A Safarü baseline that reads only its view.

Each card has a worth for whoever catches it: its triangles, a bonus for a unicorn (the +24 race), a malus
for a hedgehog (the −12) and for a baby (−5).  In renverse everything caught costs: one for the card count,
its triangles, more for a hedgehog.

- Play: for every card in hand, the best catch it allows (the best disjoint combination of methods, or, in
  renverse, the best single method the left neighbour would leave us) against the cost of releasing it; the
  best card is played.
- Catch steps: the best plan from what is left is recomputed at each step and its next step taken.
- Renverse pick: name the method whose best catch is worst for the player.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

from ludotheque.core.bot import Sampler
from ludotheque.games.safaru import notation as nt
from ludotheque.games.safaru import rules as r

Option = tuple[int, ...]  # caught table kinds
MAX_OPTIONS = 300


def worth(kind: int, reverse: bool) -> float:
    n = r.number(kind)
    if reverse:
        return -(1.0 + r.TRIANGLES[n] + (1.5 if r.colour(kind) == r.YELLOW else 0.0))
    value = float(r.TRIANGLES[n])
    if n == 0:
        value += r.BABY_MALUS
    if r.colour(kind) == r.BLUE:
        value += 3.0
    if r.colour(kind) == r.YELLOW:
        value -= 1.5
    return value


def subsets(table: list[int], need: int, fixed: Option, min_size: int, zero_required: bool) -> Iterator[Option]:
    """Sub-multisets Y of ``table`` summing to ``need`` such that fixed + Y is a valid adding/seventeen set."""
    distinct = sorted(Counter(table).items())
    count = 0

    def walk(i: int, left: int, chosen: list[int]) -> Iterator[Option]:
        nonlocal count
        if count >= MAX_OPTIONS:
            return
        if i == len(distinct):
            if left == 0:
                whole = fixed + tuple(chosen)
                if len(whole) >= min_size and (not zero_required or any(k % 10 == 0 for k in whole)):
                    count += 1
                    yield tuple(chosen)
            return
        kind, copies = distinct[i]
        value = kind % 10
        for take in range(copies + 1):
            if take * value > left:
                break
            yield from walk(i + 1, left - take * value, chosen + [kind] * take)

    yield from walk(0, need, [])


def _fits(table: Counter[int], *sets: Option) -> bool:
    used: Counter[int] = Counter()
    for s in sets:
        used.update(s)
    return all(table[k] >= c for k, c in used.items())


def method_options(method: int, played: int, table: list[int], zero_required: bool, fixed: Option = ()) -> list[Option]:
    if method == r.PAIR:
        return [(k,) for k in sorted(set(table)) if k % 10 == played]
    need, min_size = r.method_target(method, played)
    need -= sum(k % 10 for k in fixed)
    if need < 0:
        return []
    return list(subsets(table, need, fixed, min_size, zero_required))


def best_plan(
    options: dict[int, list[Option]], table: list[int], value: dict[int, float], mandatory: bool, pair_bonus: float
) -> tuple[float, dict[int, Option]]:
    """Best disjoint choice of at most one option per method (at least one when ``mandatory``)."""
    counts = Counter(table)

    def score(o: Option) -> float:
        return sum(value[k] for k in o)

    ranked = {m: sorted(opts, key=score, reverse=True)[:25] for m, opts in options.items()}
    best: tuple[float, dict[int, Option]] = (float("-inf"), {})
    methods = list(ranked)

    def walk(i: int, chosen: dict[int, Option], total: float) -> None:
        nonlocal best
        if i == len(methods):
            if (chosen or not mandatory) and total > best[0]:
                best = (total, dict(chosen))
            return
        walk(i + 1, chosen, total)
        m = methods[i]
        for o in ranked[m]:
            if _fits(counts, *chosen.values(), o):
                chosen[m] = o
                walk(i + 1, chosen, total + score(o) + (pair_bonus if m == r.PAIR else 0.0))
                del chosen[m]

    walk(0, {}, 0.0)
    return best


class SafaruHeuristicBot:
    name = "heuristic"

    def choose(
        self, view: dict[str, Any], legal_actions: list[int], rng: random.Random, sampler: Sampler | None = None
    ) -> int:
        action = self._choose(view, legal_actions)
        if action in legal_actions:
            return action
        if nt.CLOSE in legal_actions:
            return nt.CLOSE
        return rng.choice(legal_actions)

    def _choose(self, view: dict[str, Any], legal: list[int]) -> int:
        table_view = view["table"]
        reverse = bool(view["options"]["renverse"])
        table = [k for k in (nt.parse_card(c) for c in table_view["table"]) if k is not None]
        value = {k: worth(k, reverse) for k in range(r.KINDS)}
        phase = table_view["phase"]
        if phase == "play":
            return self._play(table_view, table, value, reverse, legal)
        turn = table_view["turn"]
        played_kind = nt.parse_card(turn["card"])
        assert played_kind is not None
        played = played_kind % 10
        zero_required = bool(turn["zero_required"])
        used = {r.METHOD_NAMES.index(c["method"]) for c in turn["catches"]}
        if phase == "pick":  # the neighbour's choice: the method whose best catch is worst for the player
            scored = []
            for action in legal:
                m = action - nt.CHOOSE
                opts = method_options(m, played, table, zero_required)
                bonus = value[played_kind] if m == r.PAIR else 0.0
                scored.append((max(sum(value[k] for k in o) for o in opts) + bonus, action))
            return min(scored)[1]
        building = turn["building"]
        options: dict[int, list[Option]] = {}
        if building is not None:
            current = r.METHOD_NAMES.index(building["method"])
            fixed = tuple(k for k in (nt.parse_card(c) for c in building["cards"]) if k is not None)
            options[current] = method_options(current, played, table, zero_required, fixed)
            if not reverse:
                for m in (r.ADD, r.SEVENTEEN, r.PAIR):
                    if m not in used and m != current:
                        options[m] = method_options(m, played, table, zero_required)
            _, plan = best_plan(options, table, value, False, value[played_kind])
            if current not in plan:  # the catch under way must be finished: its best completion
                plan = {current: max(options[current], key=lambda o: sum(value[k] for k in o), default=())}
            step = plan[current]
            return nt.TAKE + step[0] if step else nt.CLOSE
        if phase == "pair":
            opts = method_options(r.PAIR, played, table, zero_required)
            return nt.PAIR_WITH + max(opts, key=lambda o: value[o[0]])[0]
        for m in (r.ADD, r.SEVENTEEN, r.PAIR):
            if m not in used:
                options[m] = method_options(m, played, table, zero_required)
        options = {m: o for m, o in options.items() if o}
        _, plan = best_plan(options, table, value, not used, value[played_kind])
        if r.PAIR in plan:
            return nt.PAIR_WITH + plan[r.PAIR][0]
        if r.ADD in plan:
            return nt.BEGIN_ADD
        if r.SEVENTEEN in plan:
            return nt.BEGIN_17
        return nt.DONE

    def _play(
        self, table_view: dict[str, Any], table: list[int], value: dict[int, float], reverse: bool, legal: list[int]
    ) -> int:
        zero_required = any(k % 10 == 0 for k in table)
        scored: list[tuple[float, int]] = []
        for kind in legal:
            played = kind % 10
            options = {m: method_options(m, played, table, zero_required) for m in (r.ADD, r.SEVENTEEN, r.PAIR)}
            options = {m: o for m, o in options.items() if o}
            if not options:
                # a release leaves the card to the others; a 0 released forces babies on them (safaru-3)
                score = -0.5 * value[kind] - (0.0 if reverse else 0.5) + (1.0 if played == 0 and not reverse else 0.0)
            elif reverse:
                per_method = [
                    max(sum(value[k] for k in o) for o in opts) + (value[kind] if m == r.PAIR else 0.0)
                    for m, opts in options.items()
                ]
                score = min(per_method) if len(per_method) > 1 else per_method[0]
            else:
                score, _ = best_plan(options, table, value, True, value[kind])
            scored.append((score, -kind))
        return -max(scored)[1]
