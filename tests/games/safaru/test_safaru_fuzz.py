"""Random-play fuzzing of Safarü over every player count and option (quick share here, long in make fuzz).

The invariants re-derive the rules independently of the engine: conservation of the 60 cards, every catch
checked against its method by brute force, releases only of cards that could not catch, and the scores
recounted from the caught cards.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator

import pytest

import ludotheque
from ludotheque.core import CHANCE, State
from ludotheque.games.safaru import rules
from ludotheque.games.safaru.game import SafaruState
from ludotheque.testing import fuzz_games, random_sim_test

# target 80 makes a match of two or more games in both variants
CONFIGS: list[tuple[int, bool, int, dict[str, object]]] = [
    (players, renverse, target, {})
    for players, renverse, target in itertools.product((2, 3, 4), (False, True), (0, 80))
]
# safaru-7: a number of games agreed before play, and individual play at 4 players in renversé
CONFIGS += [(3, True, 0, {"games": 3}), (2, False, 0, {"games": 2}), (4, True, 0, {"individual": True})]


def number_multisets(numbers: list[int], cap: int) -> Iterator[tuple[int, ...]]:
    """Every sub-multiset of ``numbers`` (as sorted tuples of numbers) whose sum is at most ``cap``."""
    counts = sorted(Counter(numbers).items())

    def walk(i: int, left: int) -> Iterator[tuple[int, ...]]:
        if i == len(counts):
            yield ()
            return
        value, copies = counts[i]
        for take in range(copies + 1):
            if take * value > left:
                break
            for rest in walk(i + 1, left - take * value):
                yield (value,) * take + rest

    yield from walk(0, cap)


def valid_catch(method: str, card: int, numbers: tuple[int, ...], zero_rule: bool) -> bool:
    """One catch against safaru-3, written from the rule's text."""
    if method == "pair":
        return len(numbers) == 1 and numbers[0] == card
    if zero_rule and 0 not in numbers:
        return False
    if method == "add":
        return len(numbers) >= 2 and sum(numbers) == card
    return len(numbers) >= 1 and sum(numbers) + card == 17


def can_catch_by(card: int, table: list[int]) -> list[str]:
    zero_rule = 0 in table
    methods = []
    for method in ("add", "17", "pair"):
        if any(valid_catch(method, card, sub, zero_rule) for sub in number_multisets(table, 17)):
            methods.append(method)
    return methods


def num(name: str) -> int:
    return int(name[1])


def check_turn(entry: dict[str, object], players: int, reverse: bool) -> None:
    card = num(str(entry["card"]))
    before = [str(c) for c in entry["table_before"]]  # type: ignore[attr-defined]
    table = [num(c) for c in before]
    catches = entry["catches"]
    assert isinstance(catches, list)
    possible = can_catch_by(card, table)
    # safaru-4: released exactly when the card could not catch
    assert entry["released"] == (not catches) == (not possible), (entry, possible)
    methods = [c["method"] for c in catches]
    assert len(set(methods)) == len(methods), "each method at most once"
    taken: Counter[str] = Counter()
    for catch in catches:
        taken.update(catch["cards"])
        assert valid_catch(catch["method"], card, tuple(sorted(num(c) for c in catch["cards"])), 0 in table), catch
    assert not taken - Counter(before), "catches are disjoint and come from the table"
    if reverse:  # safaru-7: one method; the left neighbour picked it when there was a choice
        assert len(catches) <= 1
        if catches:
            assert entry["picked_by"] == ((int(str(entry["seat"])) + 1) % players if len(possible) > 1 else None)
            assert methods[0] in possible


def recount(caught: list[list[str]], players: int, reverse: bool, partners: bool = True) -> list[float]:
    """safaru-6 / safaru-7 from the card names, independently of rules.side_scores."""
    sides = 2 if players == 4 and partners else players
    pooled: list[list[str]] = [[] for _ in range(sides)]
    for seat in range(players):
        pooled[seat % sides].extend(caught[seat])
    tri = {0: 1, 1: 0, 2: 1, 3: 1, 4: 1, 5: 1, 6: 2, 7: 2, 8: 1, 9: 0}

    def shared(counts: list[int], prize: float) -> list[float]:
        top = max(counts)
        holders = [i for i, c in enumerate(counts) if c == top and c > 0]
        return [prize / len(holders) if i in holders else 0.0 for i in range(len(counts))]

    hedgehogs = shared([sum(c[0] == "Y" for c in p) for p in pooled], 18 if reverse else -12)
    triangles = [sum(tri[num(c)] for c in p) for p in pooled]
    if reverse:
        most = shared([len(p) for p in pooled], 24)
        side = [most[i] + hedgehogs[i] + triangles[i] for i in range(sides)]
    else:
        most = shared([sum(c[0] == "B" for c in p) for p in pooled], 24)
        babies = [sum(num(c) == 0 for c in p) for p in pooled]
        side = [most[i] + hedgehogs[i] - 5 * babies[i] + triangles[i] for i in range(sides)]
    return [side[seat % sides] for seat in range(players)]


def check_invariants(state: State) -> None:
    assert isinstance(state, SafaruState)
    n = state.game.players
    reverse = bool(state.game.options["renverse"])
    # all 60 cards conserved: hands, table, pile, caught piles, the card in play and the catch being built
    total = [state.table[k] + state.pile[k] for k in range(rules.KINDS)]
    for seat in range(n):
        for k in range(rules.KINDS):
            total[k] += state.hands[seat][k] + state.caught[seat][k]
    if state.played >= 0:
        total[state.played] += 1
    for k in state.build:
        total[k] += 1
    assert total == list(rules.COPIES)
    assert state.pile_size == sum(state.pile)
    history = state.history()
    if history and history[-1][0] != CHANCE and state.played < 0:
        turns = [e for e in state.log if "seat" in e]
        if turns:  # a turn just ended (unless a new game of the match has just begun)
            check_turn(turns[-1], n, reverse)
    view = state.view(None)["table"]
    for result in view["results"]:
        assert result["scores"] == recount(result["caught"], n, reverse, state.partners)
    assert state.totals == [sum(r["scores"][s] for r in view["results"]) for s in range(n)]
    if state.is_terminal():
        assert state.returns() == state.totals
        if not state.target:  # safaru-7: the number of games agreed before play (one by default)
            assert len(view["results"]) == state.games
        assert view["results"][-1]["caught"] == view["caught"]


@pytest.mark.fuzz
@pytest.mark.parametrize(("players", "renverse", "target", "more"), CONFIGS)
def test_random_play(players: int, renverse: bool, target: int, more: dict[str, object]) -> None:
    game = ludotheque.load_game("safaru", players=players, renverse=renverse, target=target, **more)
    several = target or more.get("games")
    games = fuzz_games(5, 120) if several else fuzz_games(12, 300)  # a match is several games
    seed = players * 10 + renverse + target + len(more)
    stats = random_sim_test(game, games, seed=seed, invariants=check_invariants, deep_every=11)
    print(f"safaru players={players} renverse={renverse} target={target} {more}: {stats}")
    if several:
        print(f"  ({stats.chance_actions // 60} games of the match dealt in all)")
    assert stats.games == games


def test_invariants_catch_a_bad_catch() -> None:
    # the checker itself must fail on an illegal catch and on a release of a card that could catch
    with pytest.raises(AssertionError):
        check_turn(
            {
                "seat": 0,
                "card": "B7",
                "table_before": ["G3", "G5"],
                "catches": [{"method": "add", "cards": ["G3", "G5"]}],
                "released": False,
                "picked_by": None,
            },
            2,
            False,
        )
    with pytest.raises(AssertionError):
        check_turn(
            {"seat": 0, "card": "B8", "table_before": ["G3", "G5"], "catches": [], "released": True, "picked_by": None},
            2,
            False,
        )
