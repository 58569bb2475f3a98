"""Safarü's view and heuristic against the references they replaced, at every node of random games.

The view shares the finished turns, deals and games with the state instead of copying them; the heuristic reads
its card values from a ready table, memoises the options of each method on a table, and scores each option once.
``_reference_table_view`` and the ``_reference_...`` functions below are the previous code: the views must be
equal (``==`` on the whole dict, every seat and a spectator, determinizations included, views kept from earlier
moments included), and the heuristic must choose the same move from the same view and random state.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any
from unittest import mock

from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque.core import sample_chance
from ludotheque.games.safaru import heuristics
from ludotheque.games.safaru import rules as r
from ludotheque.games.safaru.game import SafaruState
from ludotheque.games.safaru.heuristics import MAX_OPTIONS, Option, SafaruHeuristicBot, _fits, subsets, worth
from ludotheque.games.safaru.view import table_view


def _reference_copy_entry(entry: dict[str, Any]) -> dict[str, Any]:
    out = dict(entry)
    for key in ("table_before", "table", "hands"):
        if key in out:
            out[key] = list(out[key])
    if "catches" in out:
        out["catches"] = [{"method": c["method"], "cards": list(c["cards"])} for c in out["catches"]]
    return out


def _reference_pool(caught: list[list[int]], players: int, partners: bool) -> list[list[int]]:
    pooled = [[0] * r.KINDS for _ in range(r.sides(players, partners))]
    for seat in range(players):
        side = pooled[r.side_of(seat, players, partners)]
        for k in range(r.KINDS):
            side[k] += caught[seat][k]
    return pooled


def _reference_table_view(state: SafaruState, player: int | None) -> dict[str, Any]:
    data = table_view(state, player)  # the parts built afresh are the same code; the shared ones are copied
    data["log"] = [_reference_copy_entry(e) for e in state.log]
    data["results"] = [
        {"scores": list(x["scores"]), "caught": [list(c) for c in x["caught"]], "left": list(x["left"])}
        for x in state.results
    ]
    return data


def _reference_subsets(
    table: list[int], need: int, fixed: Option, min_size: int, zero_required: bool
) -> Iterator[Option]:
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


def _reference_fits(table: Counter[int], *sets: Option) -> bool:
    used: Counter[int] = Counter()
    for s in sets:
        used.update(s)
    return all(table[k] >= c for k, c in used.items())


def _reference_method_options(
    method: int, played: int, table: list[int], zero_required: bool, fixed: Option = ()
) -> list[Option]:
    if method == r.PAIR:
        return [(k,) for k in sorted(set(table)) if k % 10 == played]
    need, min_size = r.method_target(method, played)
    need -= sum(k % 10 for k in fixed)
    if need < 0:
        return []
    return list(_reference_subsets(table, need, fixed, min_size, zero_required))


def _reference_best_plan(
    options: dict[int, list[Option]], table: list[int], value: dict[int, float], mandatory: bool, pair_bonus: float
) -> tuple[float, dict[int, Option]]:
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
            if _reference_fits(counts, *chosen.values(), o):
                chosen[m] = o
                walk(i + 1, chosen, total + score(o) + (pair_bonus if m == r.PAIR else 0.0))
                del chosen[m]

    walk(0, {}, 0.0)
    return best


def _reference_choice(view: dict[str, Any], legal: list[int], seed: int) -> int:
    """The heuristic's move with every replaced part swapped back for its reference."""
    values = tuple({k: worth(k, reverse) for k in range(r.KINDS)} for reverse in (False, True))
    with (
        mock.patch.object(heuristics, "VALUES", values),
        mock.patch.object(heuristics, "method_options", _reference_method_options),
        mock.patch.object(heuristics, "best_plan", _reference_best_plan),
    ):
        return SafaruHeuristicBot().choose(view, legal, random.Random(seed))


def _check_views(state: SafaruState) -> None:
    for player in (None, *range(state.game.players)):
        assert table_view(state, player) == _reference_table_view(state, player)
    scores = _reference_scores(state)
    assert r.seat_scores(state.caught, state.game.players, state.reverse, state.partners) == scores
    assert state.current_scores() == scores
    for counts in (state.table, *state.hands, *state.caught):
        assert r.names(counts) == _reference_names(counts)


def _reference_scores(state: SafaruState) -> list[float]:
    """The running scores as the previous ``rules.seat_scores`` counted them (no memo, the plain sums)."""
    players, reverse, partners = state.game.players, state.reverse, state.partners
    pooled = _reference_pool(state.caught, players, partners)
    hedgehogs = [sum(p[r.YELLOW * 10 : r.YELLOW * 10 + 10]) for p in pooled]
    triangles = [sum(p[k] * r.TRIANGLES[k % 10] for k in range(r.KINDS)) for p in pooled]
    if reverse:
        most = r._shares([sum(p) for p in pooled], r.REVERSE_MOST_CARDS)
        prickly = r._shares(hedgehogs, r.REVERSE_HEDGEHOGS)
        by_side = [most[i] + prickly[i] + triangles[i] for i in range(len(pooled))]
    else:
        unicorns = [sum(p[r.BLUE * 10 : r.BLUE * 10 + 10]) for p in pooled]
        babies = [sum(p[k] for k in range(0, r.KINDS, 10)) for p in pooled]
        most = r._shares(unicorns, r.UNICORN_BONUS)
        prickly = r._shares(hedgehogs, r.HEDGEHOG_MALUS)
        by_side = [most[i] + prickly[i] + r.BABY_MALUS * babies[i] + triangles[i] for i in range(len(pooled))]
    return [by_side[r.side_of(seat, players, partners)] for seat in range(players)]


def _reference_names(counts: list[int]) -> list[str]:
    return [r.card_name(k) for k in range(r.KINDS) for _ in range(counts[k])]


KINDS = st.integers(0, r.KINDS - 1)


@settings(max_examples=300, deadline=None)
@given(
    table=st.lists(KINDS, max_size=16),
    need=st.integers(-1, 20),
    fixed=st.lists(KINDS, max_size=3).map(tuple),
    min_size=st.integers(0, 4),
    zero_required=st.booleans(),
)
def test_subsets_and_fits_answer_as_the_references(
    table: list[int], need: int, fixed: Option, min_size: int, zero_required: bool
) -> None:
    got = list(subsets(table, need, fixed, min_size, zero_required))
    assert got == list(_reference_subsets(table, need, fixed, min_size, zero_required))
    counts = Counter(table)
    for option in got[:5]:
        assert _fits(counts, option, fixed) == _reference_fits(counts, option, fixed)
        assert _fits(counts, fixed, option, option) == _reference_fits(counts, fixed, option, option)


def test_subsets_stop_at_the_same_option_as_the_reference() -> None:
    table = [k for k in range(r.KINDS) for _ in range(2)]  # two of every card: thousands of ways to make 17
    got = list(subsets(table, 17, (), 2, False))
    assert len(got) == MAX_OPTIONS and got == list(_reference_subsets(table, 17, (), 2, False))


TABLES = [(2, {}), (3, {}), (4, {}), (2, {"renverse": True}), (3, {"renverse": True}),
          (4, {"renverse": True, "individual": True})]


@settings(max_examples=8, deadline=None)
@given(table=st.sampled_from(TABLES), seed=st.integers(0, 2**32 - 1))
def test_views_and_heuristic_choices_equal_the_references(table: tuple[int, dict[str, Any]], seed: int) -> None:
    players, options = table
    state = ludotheque.load_game("safaru", players=players, **options).new_initial_state()
    assert isinstance(state, SafaruState)
    rng = random.Random(seed)
    bot = SafaruHeuristicBot()
    kept: list[tuple[int, dict[str, Any], SafaruState]] = []
    while not state.is_terminal():
        _check_views(state)
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_players()[0]
        legal = state.legal_actions(seat)
        view = state.view(seat)
        choice_seed = rng.randrange(2**32)
        choice = bot.choose(view, legal, random.Random(choice_seed))
        assert choice == _reference_choice(view, legal, choice_seed)
        twin = state.resample(seat, rng)
        _check_views(twin)
        if rng.random() < 0.1:
            kept.append((seat, table_view(state, seat), state.clone()))
        state.apply_action(choice if rng.random() < 0.7 else rng.choice(legal), seat)
    _check_views(state)
    for seat, seen, then in kept:  # an earlier view still shows its own moment: later turns did not leak in
        assert seen == _reference_table_view(then, seat)
