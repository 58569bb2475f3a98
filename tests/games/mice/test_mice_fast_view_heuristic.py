"""MICE's view and heuristic, written for speed, against the plain versions they replaced (kept here as the
reference): the same view (compared exactly, pickled bytes included, since a search keys its nodes by them) and
the same choice from the same view and rng, at every node of random and heuristic games."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any
from unittest import mock

import pytest

from ludotheque.core import sample_chance
from ludotheque.games import load_game
from ludotheque.games.mice import heuristics, rules
from ludotheque.games.mice.game import MiceState
from ludotheque.games.mice.heuristics import LOSE, NUT, WIN, MiceHeuristicBot, _adjust
from ludotheque.games.mice.notation import FAIL, PASS, PAY, USE
from ludotheque.games.mice.view import table_view


def reference_table_view(state: Any, player: int | None) -> dict[str, Any]:
    seats = []
    for seat in range(state.game.players):
        face_up = state.face_up[seat]
        red, yellow = rules.dice_counts(face_up)
        seats.append(
            {
                "hand": rules.hand_cards(state.hands[seat]),
                "hand_total": rules.hand_total(state.hands[seat]),
                "cage": list(state.cages[seat]),
                "face_up": [v for i, v in enumerate(rules.DICE_CARDS) if face_up >> i & 1],
                "face_down": [v for i, v in enumerate(rules.DICE_CARDS) if not face_up >> i & 1],
                "nuts": state.nuts[seat],
                "red_dice": red,
                "yellow_dice": yellow,
            }
        )
    using = state.used if state.phase == "adjust" else 0
    dice = [
        {
            "die": rules.SLOT_NAMES[slot],
            "value": state.dice[slot] or None,
            "active_used": bool(state.active_used >> slot & 1),
            "pool": bool(state.pool >> slot & 1),
            "using": bool(using >> slot & 1),
        }
        for slot in state.rolled
    ]
    deciding = state.phase not in ("roll", "over")

    def names(mask: int) -> list[str]:
        return [rules.SLOT_NAMES[s] for s in range(5) if mask >> s & 1]

    data: dict[str, Any] = {
        "solo": state.solo,
        "turn": state.turn,
        "active": state.active,
        "phase": state.phase,
        "actor": state.actor if deciding else None,
        "supply": state.supply,
        "seats": seats,
        "dice": dice,
        "using": names(using),
        "sum": sum(state.dice[s] for s in range(5) if using >> s & 1) if using else None,
        "pool": names(state.pool),
        "pool_sum": sum(state.dice[s] for s in range(5) if state.pool >> s & 1),
        "failed": state.failed,
        "second_card": state.second,
        "this_turn": list(state.this_turn),
        "last_turn": list(state.last_turn),
        "rating": None,
    }
    if state.solo and state.phase == "over":
        data["rating"] = rules.RATINGS[state._solo_rank()]
    return data


def reference_best(values: list[int], nuts: int, worth: dict[int, float], nut_cost: float) -> tuple[float, int | None]:
    if not values:
        return float("-inf"), None
    total, count = sum(values), len(values)
    low = total - min(nuts, total - count)
    high = total + min(nuts, 6 * count - total)
    best: tuple[float, int | None] = (float("-inf"), None)
    for target, value in worth.items():
        if low <= target <= high:
            score = value - nut_cost * abs(target - total)
            if score > best[0]:
                best = (score, target)
    return best


class ReferenceBot(MiceHeuristicBot):
    """The heuristic with its previous ``_multi``, ``_worth`` and ``_gift`` (and ``_best``, patched in by the test)."""

    def _multi(self, table: dict[str, Any], me: int, legal: list[int]) -> int:
        phase = table["phase"]
        info = table["seats"][me]
        worth = self._worth(table, me)
        dice = table["dice"]
        if phase == "select":
            reds = [d["value"] for d in dice if d["die"].startswith("R")]
            yellows = [d["value"] for d in dice if d["die"].startswith("Y")]
            best_score, best_action = self._fail_score(table, me) - self._gift(table, me, reds + yellows), FAIL
            for action in legal:
                if action == FAIL:
                    continue
                mask = action - USE
                used = reds + [v for k, v in enumerate(yellows) if mask >> k & 1]
                left = [v for k, v in enumerate(yellows) if not mask >> k & 1]
                score, _ = reference_best(used, info["nuts"], worth, NUT)
                score -= self._gift(table, me, left)
                if score > best_score:
                    best_score, best_action = score, action
            return best_action
        if phase == "adjust":
            return _adjust(dice, info["nuts"], worth, legal, NUT)
        if phase == "pay":
            pool = [d["value"] for d in dice if d["pool"]]
            nuts = info["nuts"] if table["supply"] > 0 else info["nuts"] - 1
            score, _ = reference_best(pool, nuts, worth, NUT)
            price = 0.3 if table["supply"] > 0 else NUT + 0.3  # a nut to the active seat helps it a little
            return PAY if score - price > 0 else PASS
        if phase == "fail":
            return max(legal, key=lambda a: self._undo_score(table, me, a))
        return legal[0]

    def _worth(self, table: dict[str, Any], me: int) -> dict[int, float]:
        info = table["seats"][me]
        worth: dict[int, float] = {card: float(card) for card in info["hand"]}
        lead = self._lead(table, me)
        face_up = sum(1 << rules.DICE_CARD_INDEX[v] for v in info["face_up"])
        for value in info["face_up"]:
            if not rules.can_flip(face_up, value):
                continue
            if value == 6:
                flip = WIN if self._would_win(table, me, flips=1) else LOSE
            elif not info["hand"]:
                flip = 10.0
            else:
                flip = 6.0 + lead / 4 if lead > 0 else -4.0
            worth[value] = max(worth.get(value, flip), flip)
        return worth

    def _gift(self, table: dict[str, Any], me: int, pool: list[int]) -> float:
        total = sum(pool)
        cost = 0.0
        for i, s in enumerate(table["seats"]):
            if i != me and pool and total in s["hand"]:
                cost += 0.4 * total - 0.8
        return cost


@pytest.mark.parametrize(("players", "games"), [(1, 6), (2, 4), (3, 2), (5, 1)])
def test_views_and_choices_are_the_reference_ones(players: int, games: int) -> None:
    game = load_game("mice", players=players)
    bot, reference = MiceHeuristicBot(), ReferenceBot()
    decisions = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_initial_state()
        assert isinstance(state, MiceState)
        while not state.is_terminal():
            for seat in (None, *range(players)):
                got, expected = table_view(state, seat), reference_table_view(state, seat)
                assert got == expected
                assert pickle.dumps(got) == pickle.dumps(expected)
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            seat = state.current_players()[0]
            legal = state.legal_actions(seat)
            view = state.view(seat)
            mine, theirs = random.Random(decisions), random.Random(decisions)
            choice = bot.choose(copy.deepcopy(view), legal, mine)
            with mock.patch.object(heuristics, "_best", reference_best):
                assert reference.choose(copy.deepcopy(view), legal, theirs) == choice
            assert mine.random() == theirs.random()  # the same draws from the rng
            decisions += 1
            # heuristic play in even games (long turns, nuts spent), random play in odd ones
            state.apply_action(choice if seed % 2 == 0 else rng.choice(legal), seat)
    assert decisions > 50
