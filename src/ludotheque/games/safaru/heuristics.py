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
from functools import lru_cache
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


#: ``VALUES[reverse][kind]``: ``worth(kind, reverse)`` for every kind, read at every choice (never written)
VALUES: tuple[dict[int, float], dict[int, float]] = (
    {k: worth(k, False) for k in range(r.KINDS)},
    {k: worth(k, True) for k in range(r.KINDS)},
)


def subsets(table: list[int], need: int, fixed: Option, min_size: int, zero_required: bool) -> Iterator[Option]:
    """Sub-multisets Y of ``table`` summing to ``need`` such that fixed + Y is a valid adding/seventeen set
    (at most ``MAX_OPTIONS``, in the order of a walk over the kinds ascending, taking 0, 1, ... copies of each)."""
    yield from _subsets(table, need, fixed, min_size, zero_required)


def _subsets(table: list[int], need: int, fixed: Option, min_size: int, zero_required: bool) -> list[Option]:
    """``subsets`` as a list, built by a walk that skips the branches whose kinds left cannot add up to what
    is missing (they yield nothing, so the options, their order and the cut at ``MAX_OPTIONS`` are the same)."""
    distinct = sorted(Counter(table).items())
    last = len(distinct)
    room = [0] * (last + 1)  # room[i]: the most that the kinds from the i-th on can add
    for i in range(last - 1, -1, -1):
        kind, copies = distinct[i]
        room[i] = room[i + 1] + kind % 10 * copies
    fixed_zero = any(k % 10 == 0 for k in fixed)
    out: list[Option] = []

    def walk(i: int, left: int, chosen: list[int]) -> None:
        if len(out) >= MAX_OPTIONS:
            return
        if i == last:
            if left == 0 and len(fixed) + len(chosen) >= min_size and (
                not zero_required or fixed_zero or any(k % 10 == 0 for k in chosen)
            ):
                out.append(tuple(chosen))
            return
        if left > room[i]:
            return
        kind, copies = distinct[i]
        value = kind % 10
        for take in range(copies + 1):
            if take * value > left:
                break
            walk(i + 1, left - take * value, chosen + [kind] * take)

    walk(0, need, [])
    return out


def _fits(table: Counter[int], *sets: Option) -> bool:
    """Whether ``table`` holds every card of ``sets`` together (each set is a handful of kinds)."""
    joined = sets[0] if len(sets) == 1 else sum(sets, ())
    return all(joined.count(k) <= table[k] for k in set(joined))


def method_options(method: int, played: int, table: list[int], zero_required: bool, fixed: Option = ()) -> list[Option]:
    """The options of ``method`` for a card numbered ``played`` on ``table`` (kinds, ascending), a new list."""
    return list(_method_options(method, played, tuple(table), zero_required, fixed))


@lru_cache(maxsize=1 << 13)
def _method_options(
    method: int, played: int, table: tuple[int, ...], zero_required: bool, fixed: Option
) -> tuple[Option, ...]:
    """``method_options``, memoised: a rollout meets the same table again and again (every card of the hand with
    the same number, every later turn that leaves the table as it was), and the options are a pure function
    of these arguments.  ``_reference_method_options`` in the tests computes them afresh."""
    if method == r.PAIR:
        return tuple((k,) for k in sorted(set(table)) if k % 10 == played)
    need, min_size = r.method_target(method, played)
    need -= sum(k % 10 for k in fixed)
    if need < 0:
        return ()
    return tuple(_subsets(list(table), need, fixed, min_size, zero_required))


def best_plan(
    options: dict[int, list[Option]], table: list[int], value: dict[int, float], mandatory: bool, pair_bonus: float
) -> tuple[float, dict[int, Option]]:
    """Best disjoint choice of at most one option per method (at least one when ``mandatory``)."""
    counts = Counter(table)

    # each option's score once (the sort and the walk both read it), summed as ``sum(value[k] for k in o)``
    scores = {o: sum([value[k] for k in o]) for opts in options.values() for o in opts}
    score = scores.__getitem__
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


#: every card name as the view writes it, and the kind ``notation.parse_card`` reads in it
_KIND_OF: dict[str, int | None] = {name: nt.parse_card(name) for name in r.NAMES}


def _kinds(names: list[str]) -> list[int]:
    """The kinds of the cards named (names that are no card are skipped, as ``parse_card`` reads them)."""
    kinds = [_KIND_OF.get(name) for name in names]
    if None in kinds:  # a name not written as the view writes it: read each one
        return [k for k in (nt.parse_card(c) for c in names) if k is not None]
    return kinds  # type: ignore[return-value]


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
        table = _kinds(table_view["table"])
        value = VALUES[reverse]
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
