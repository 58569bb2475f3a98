"""Rummü engine: one test per DECISIONS id and option, the seed's situations, bad input, no leak, records,
a golden playthrough and random-play fuzzing with the game's invariants."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque.core import (
    CHANCE,
    IllegalActionError,
    NotationError,
    NotYourTurnError,
    OptionError,
    RecordError,
    replay_record,
    sample_chance,
)
from ludotheque.games import load_game
from ludotheque.games.rummu import notation, rules
from ludotheque.games.rummu.game import RummuState
from ludotheque.games.rummu.notation import DISCARD, PUT, SWAP, parse_card
from ludotheque.testing import fuzz_games, random_sim_test, snapshot

CONFIGS: list[tuple[int, dict[str, Any]]] = [
    (3, {}), (4, {}), (5, {}), (6, {}), (4, {"partnerships": True}), (6, {"partnerships": True}),
]


def new(players: int = 3, **options: Any) -> RummuState:
    state = load_game("rummu", players=players, **options).new_initial_state()
    assert isinstance(state, RummuState)
    return state


def deal(state: RummuState, hands: list[str], flip: str) -> None:
    """Force a deal: ``hands[seat]`` lists that seat's cards; chance deals round-robin from the dealer's left."""
    n = state.game.players
    per_seat = [h.split() for h in hands]
    size = rules.HAND_SIZE[n]
    assert all(len(h) == size for h in per_seat)
    for i in range(n * size):
        seat = (state.dealer + 1 + i) % n
        state.apply_action(parse_card(per_seat[seat][i // n]))
    state.apply_action(parse_card(flip))


def do(state: RummuState, seat: int, *moves: str) -> None:
    for move in moves:
        state.apply_action(state.string_to_action(move, seat), seat)


def chance(state: RummuState, card: str) -> None:
    state.apply_action(state.string_to_action(card, CHANCE))


def hand_of(state: RummuState, seat: int) -> list[str]:
    return list(state.view(seat)["table"]["hand"])


# Scenario A (3 players, seat 0 deals, seat 1 starts): joker swap, opening, adding to another's combination.
HANDS_A = [
    "G1 G2 G3 G5 G6 K0 K1 K2 K3",
    "R3 Y4 R5 R6 R4 B9 G9 K9 G0",
    "B1 B2 B3 B4 R7 K5 K6 K8 G8",
]
TURNS_A: list[tuple[Any, str]] = [
    (1, "draw"), (CHANCE, "R9"),
    (1, "start R3"), (1, "add Y4"), (1, "add R5"), (1, "add R6"), (1, "close"),  # opening: 4 cards, a joker
    (1, "swap R4 1"),  # R4 takes the place of Y4, which goes to hand
    (1, "start B9"), (1, "add G9"), (1, "add K9"), (1, "add R9"), (1, "close"),  # a pure set of four 9s
    (1, "discard G0"),
    (2, "draw"), (CHANCE, "B5"),
    (2, "start B1"), (2, "add B2"), (2, "add B3"), (2, "add B4"), (2, "add B5"), (2, "close"),
    (2, "put R7 1"),  # on seat 1's run: seat 1 keeps its points
    (2, "discard G8"),
    (0, "take 1"), (0, "discard G8"),
    (1, "draw"), (CHANCE, "R8"), (1, "put R8 1"), (1, "discard Y4"),  # seat 1 goes out
]


def play_a(**options: Any) -> RummuState:
    state = new(3, **options)
    deal(state, HANDS_A, "R0")
    for by, move in TURNS_A:
        if by == CHANCE:
            chance(state, move)
        else:
            do(state, by, move)
    return state


# -- the invariants (fuzzed) ---------------------------------------------------------------------------------


def recount(cards: list[str]) -> int:
    """rummu-8 recounted independently from the table in the seed, on card names."""
    nums = [int(c[1]) for c in cards]
    colours = {c[0] for c in cards}
    is_set = len(set(nums)) == 1
    pure = "Y" not in colours and (is_set or len(colours) == 1)
    size = len(cards)
    table = {
        ("set", 3): (0, 0), ("set", 4): (30, 10), ("set", 5): (50, 50),
        ("run", 3): (10, 0), ("run", 4): (20, 10), ("run", 5): (40, 20),
    }
    pure_points, mixed_points = table[("set" if is_set else "run", min(size, 5))]
    points = (pure_points if pure else mixed_points) + 10 * max(0, size - 5)
    if is_set and nums[0] in (1, 7):
        points //= 2
    return points


class Invariants:
    """All 60 cards accounted for; every table combination valid; no turn ends without a discard; each finished
    hand's points recounted independently; known cards really in hand."""

    def __init__(self, start: RummuState | None = None) -> None:
        self.turn: tuple[int, int] | None = None
        self.results = 0 if start is None else len(start.results)

    def __call__(self, state: Any) -> None:
        assert isinstance(state, RummuState)
        if len(state.history()) == 1:  # random_sim_test reuses one checker: a new game starts
            self.turn, self.results = None, 0
        total = [sum(column) for column in zip(*state.hands, state.pile, strict=True)]
        for seat, hand in enumerate(state.hands):
            assert sum(hand) == state.sizes[seat] and min(hand) >= 0
            assert all(k <= h for k, h in zip(state.known[seat], hand, strict=True))
        assert sum(state.pile) == state.pile_size
        for card in state.discard + state.partial:
            total[card] += 1
        for combo in state.combos:
            assert rules.is_valid(combo), combo
            for card in combo:
                total[card] += 1
        assert total == list(rules.DECK_COUNTS), "all 60 cards accounted for"
        history = state.history()
        if len(state.results) > self.results:  # a hand ended: on a discard, scored as rummu-8 says
            assert history[-1][0] != CHANCE and DISCARD <= history[-1][1] < PUT
            self._recount(state)
            self.results = len(state.results)
            self.turn = None
        if state.phase in ("draw", "play"):
            turn = (state.hand_no, state.current)
            if self.turn is not None and turn != self.turn:
                actor, action = history[-1]
                assert actor != CHANCE and DISCARD <= action < PUT, "a turn ends with a discard"
            self.turn = turn

    def _recount(self, state: RummuState) -> None:
        result = state.results[-1]
        n = state.game.players
        expected = [0] * n
        out = result["out"]
        for seat, left in enumerate(result["left"]):
            partner = (out is not None and seat != out and state.game.partnerships
                       and seat % (n // 2) == out % (n // 2))
            assert result["waived"][seat] is partner
            penalty = 0 if partner else -sum(10 if c[0] == "Y" else 5 for c in left)
            assert result["penalties"][seat] == penalty
            expected[seat] += penalty
        assert result["bonus"] == [10 if seat == out else 0 for seat in range(n)]
        if out is not None:
            expected[out] += 10
            assert result["left"][out] == []
        for combo in result["combos"]:
            expected[combo["owner"]] += recount(combo["cards"])
            assert combo["pure"] is ("Y" not in {c[0] for c in combo["cards"]}
                                     and (combo["kind"] == "set" or len({c[0] for c in combo["cards"]}) == 1))
        assert result["points"] == expected
        previous = state.results[-2]["totals"] if len(state.results) > 1 else [0] * n
        assert result["totals"] == [p + q for p, q in zip(previous, expected, strict=True)]
        if state.game.partnerships:  # rummu-9: partners' scores add
            assert result["teams"] == [{"seats": [t, t + n // 2], "points": expected[t] + expected[t + n // 2],
                                        "total": result["totals"][t] + result["totals"][t + n // 2]}
                                       for t in range(n // 2)]
        else:
            assert result["teams"] is None


# -- DECISIONS, one by one -------------------------------------------------------------------------------------


def test_rummu_1_deck_and_jokers() -> None:
    # DECISIONS rummu-1: the same 60 cards; yellow cards are always jokers (here Y4 in a red run)
    state = play_a()
    assert sum(rules.DECK_COUNTS) == 60
    assert sum(state._chance_outcomes()[i][1] for i in range(len(state._chance_outcomes()))) == pytest.approx(1)
    assert state.results[-1]["combos"][0]["cards"] == ["R3", "R4", "R5", "R6", "R7", "R8"]


@pytest.mark.parametrize(("players", "size"), [(3, 9), (4, 8), (5, 8), (6, 7)])
def test_rummu_2_deal(players: int, size: int) -> None:
    # DECISIONS rummu-2: deal 9/8/8/7; the rest is the pile, its top starts the discard pile; left of dealer starts
    state = new(players)
    rng = random.Random(players)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    assert state.sizes == [size] * players
    assert len(state.discard) == 1 and state.pile_size == 60 - players * size - 1
    assert state.current_players() == [1] and state.dealer == 0  # DECISIONS all-2: seat 0 deals


@pytest.mark.parametrize("players", [3, 5])
def test_rummu_2_partnerships_need_4_or_6(players: int) -> None:
    # DECISIONS rummu-2: partnerships only with 4 or 6 players
    with pytest.raises(OptionError, match="4 or 6"):
        load_game("rummu", players=players, partnerships=True)


@pytest.mark.parametrize("players", [4, 6])
def test_rummu_2_partners_sit_opposite(players: int) -> None:
    # DECISIONS rummu-2 (option partnerships=true): opposite seats
    game = load_game("rummu", players=players, partnerships=True)
    half = players // 2
    assert all(game.team_of(s) == game.team_of(s + half) for s in range(half))  # type: ignore[attr-defined]
    assert len({game.team_of(s) for s in range(players)}) == half  # type: ignore[attr-defined]


def test_rummu_3_take_several_from_discard_top_first() -> None:
    # DECISIONS rummu-3: one or more cards from the top of the discard pile, top first
    state = play_a(hands=2)  # hand 2: seat 1 deals, seat 2 starts
    rng = random.Random(3)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    do(state, 2, "draw")
    state.apply_action(sample_chance(state, rng))
    first = hand_of(state, 2)[0]
    do(state, 2, f"discard {first}")
    top = state.view(None)["table"]["discard"]
    assert len(top) == 2
    assert notation.format_action(notation.TAKE + 1) in [state.action_to_string(a) for a in state.legal_actions()]
    do(state, 0, "take 2")
    assert state.view(None)["table"]["known"][0] == sorted(top, key=parse_card)
    assert state.view(None)["table"]["log"][-1].endswith(f"takes 2 from the discard pile: {top[1]} {top[0]}")
    assert state.discard == []


def _drain(state: RummuState, keep_discard_small: bool) -> None:
    """Turn after turn: draw and discard the drawn card, or (keep_discard_small) take the whole discard pile
    when it holds two cards, so that the pile runs out while the discard pile holds a single card."""
    hand_no, epoch = state.hand_no, state.epoch
    while state.hand_no == hand_no and not state.is_terminal():
        seat = state.current
        if keep_discard_small and len(state.discard) >= 2:
            do(state, seat, f"take {len(state.discard)}")
            do(state, seat, f"discard {hand_of(state, seat)[0]}")
            continue
        do(state, seat, "draw")
        card = state.legal_actions()[0]
        discards = len(state.discard)
        state.apply_action(card)
        if state.epoch > epoch:
            assert state.pile_size == discards - 1  # the discard pile but its top
            return  # just reshuffled
        do(state, seat, f"discard {rules.card_str(card)}")


def test_rummu_3_reshuffle() -> None:
    # DECISIONS rummu-3: an empty draw pile takes the discard pile but its top card
    state = new(3)
    deal(state, HANDS_A, "R0")
    _drain(state, keep_discard_small=False)
    assert state.epoch == 1 and not state.exhausted
    assert state.pile_size == 31  # R0 and 31 discards, all but the top, make the new pile
    assert len(state.discard) == 1
    assert "shuffled into a new one" in state.view(0)["table"]["log"][-1]


def test_rummu_3_nothing_to_draw_ends_the_hand() -> None:
    # DECISIONS rummu-3: if the reshuffle leaves nothing to draw, the hand ends with nobody out
    state = new(3, hands=1)
    deal(state, HANDS_A, "R0")
    _drain(state, keep_discard_small=True)
    assert state.is_terminal()
    result = state.results[-1]
    assert result["out"] is None
    # nobody out: no +10 and no partner relief, only the cards left in hand (rummu-8)
    assert result["points"] == [rules.hand_penalty([parse_card(c) for c in left]) for left in result["left"]]


def test_rummu_4_table_combinations_stay_valid_and_unmerged() -> None:
    # DECISIONS rummu-4 and rummu-6: only valid combinations reach the table; cards are only ever added
    state = new(3)
    deal(state, HANDS_A, "R0")
    do(state, 1, "draw")
    chance(state, "R9")
    do(state, 1, "start R3", "add Y4")
    legal = {state.action_to_string(a) for a in state.legal_actions()}
    assert "add R5" in legal and "add R9" in legal  # a red run R3..R9 could hold Y4
    assert "add G0" in legal  # G0 Y1? R3 Y4 is possible as a several-colour run 0..4
    assert "add R4" not in legal  # two 4s in a run
    assert "add G9" not in legal  # no combination holds R3, Y4 and G9
    assert "close" not in legal  # two cards
    do(state, 1, "add G0")
    assert "close" not in {state.action_to_string(a) for a in state.legal_actions()}  # not a valid combination
    with pytest.raises(NotationError):
        do(state, 1, "add R6")  # red twice in a several-colour run
    do(state, 1, "cancel")
    assert sorted(state.view(0)["table"]["known"][1]) == ["G0", "R3", "Y4"]  # everyone saw them


def test_rummu_5_opening_needs_k_cards() -> None:
    # DECISIONS rummu-5: in the first hand, the first combination laid has at least 4 cards
    state = new(3)
    deal(state, HANDS_A, "R0")
    do(state, 1, "draw")
    chance(state, "R9")
    do(state, 1, "start B9", "add G9", "add K9")
    assert rules.is_valid(state.partial)
    assert notation.CLOSE not in state.legal_actions()  # a valid set of 3 does not open
    do(state, 1, "add R9", "close")
    assert state.opened[1] and state.owners == [1]
    # once opened, three cards are enough
    do(state, 1, "start R3", "add R4", "add R5")
    assert notation.CLOSE in state.legal_actions()


def test_rummu_5_later_hands_follow_the_total() -> None:
    # DECISIONS rummu-5: from the second hand the need follows the total (here -45 -> 3, 90 -> 4, 25 -> 4)
    state = play_a(hands=2)
    assert state.totals == [-45, 90, 25]
    assert state.needs == [3, 4, 4]
    assert state.view(0)["table"]["needs"] == [3, 4, 4]


def test_rummu_5_team_thresholds() -> None:
    # DECISIONS rummu-5 with partnerships: the team's total, team scale (-80 -> 3, 50 -> 4)
    state = _partner_hand(partnerships=True, hands=2)
    assert state.needs == [3, 4, 3, 4]


def test_rummu_6_swap_and_add_to_any_combination() -> None:
    # DECISIONS rummu-6: exchange a natural for the joker it stands for; add to anyone's combination
    state = new(3)
    deal(state, HANDS_A, "R0")
    do(state, 1, "draw")
    chance(state, "R9")
    do(state, 1, "start R3", "add Y4", "add R5", "add R6")
    assert not any(a >= PUT for a in state.legal_actions())  # not opened yet: no put, no swap
    do(state, 1, "close")
    assert "swap R4 1" in {state.action_to_string(a) for a in state.legal_actions()}
    do(state, 1, "swap R4 1")
    assert state.combos[0] == [parse_card(c) for c in ("R3", "R4", "R5", "R6")]
    assert "Y4" in hand_of(state, 1)
    assert state.view(2)["table"]["known"][1] == ["Y4"]  # everyone saw the joker go to hand
    assert "put Y2 1" not in {state.action_to_string(a) for a in state.legal_actions()}
    state = play_a()
    assert state.results[-1]["combos"][0] == {"owner": 1, "cards": ["R3", "R4", "R5", "R6", "R7", "R8"],
                                              "kind": "run", "pure": True, "points": 50}


def test_rummu_6_not_opened_cannot_add() -> None:
    # DECISIONS rummu-6: only an opened player adds to table combinations
    state = new(3)
    deal(state, HANDS_A, "R0")
    for by, move in TURNS_A[:14]:
        chance(state, move) if by == CHANCE else do(state, by, move)
    do(state, 2, "draw")
    chance(state, "R2")  # R2 fits seat 1's run, but seat 2 has not opened
    assert not any(PUT <= a < SWAP for a in state.legal_actions())
    with pytest.raises(NotationError):
        do(state, 2, "put R2 1")


def test_rummu_7_keep_a_card_to_discard() -> None:
    # DECISIONS rummu-7: a player must keep one card to discard
    state = play_a(hands=2)
    rng = random.Random(7)
    while state.is_chance_node():
        state.apply_action(sample_chance(state, rng))
    state.sizes[2] = 3  # white-box: a 3-card hand (the legality rule reads only sizes and the need)
    state._legal_cache = None
    state.phase = "play"
    assert not any(notation.START <= a < notation.ADD for a in state.legal_actions())  # 3 < need 4 + 1
    state.sizes[2] = 1
    state._legal_cache = None
    state.opened[2] = True
    assert not any(PUT <= a < SWAP for a in state.legal_actions())  # putting would leave nothing to discard


def test_rummu_8_scoring_of_a_hand() -> None:
    # DECISIONS rummu-8: +10 out; -5 per card left (-10 yellow); combinations to their owners
    state = play_a(hands=1)
    result = state.results[-1]
    assert result["out"] == 1
    # seat 1: +10, run R3-R8 pure (50), four 9s pure (30); seat 2: B1-B5 pure (40), K5 K6 K8 left (-15)
    assert result["points"] == [-45, 90, 25]
    assert state.returns() == [-45.0, 90.0, 25.0] and state.winners() == [1]


def _partner_hand(**options: Any) -> RummuState:
    state = new(4, **options)
    deal(state, ["K0 K1 K2 K3 G5 G6 B8 B0", "R2 R3 R4 R5 B7 G7 K7 G9",
                  "G0 G1 G2 G3 B4 B5 B6 K8", "Y1 Y2 R8 R9 Y3 K4 K5 K6"], "R0")
    do(state, 1, "draw")
    chance(state, "R6")
    do(state, 1, "start R2", "add R3", "add R4", "add R5", "add R6", "close",
       "start B7", "add G7", "add K7", "close", "discard G9")
    return state


def test_rummu_9_partner_of_the_player_out_has_no_penalty() -> None:
    # DECISIONS rummu-9: the partner of the player who went out keeps no penalty; partners' scores add
    alone = _partner_hand(hands=1)
    assert alone.results[-1]["points"] == [-40, 50, -40, -55]  # seat 3: three yellows (-30), five others (-25)
    team = _partner_hand(partnerships=True, hands=1)
    assert team.results[-1]["points"] == [-40, 50, -40, 0]
    assert team.returns() == [-80.0, 50.0, -80.0, 50.0]
    assert team.winners() == [1, 3]


def test_rummu_10_target_ends_the_match() -> None:
    # DECISIONS rummu-10 (option target): the match ends once a player reaches the target; highest total wins
    state = play_a(target=90)
    assert state.is_terminal() and state.winners() == [1]
    state = play_a(target=91)
    assert not state.is_terminal() and state.hand_no == 1 and state.dealer == 1  # all-2: the deal rotates


def test_rummu_10_default_targets() -> None:
    # DECISIONS rummu-10 / all-4: 200, team 500
    assert load_game("rummu", players=4).target == 200  # type: ignore[attr-defined]
    assert load_game("rummu", players=4, partnerships=True).target == 500  # type: ignore[attr-defined]
    team = _partner_hand(partnerships=True, target=50)
    assert team.is_terminal() and team.winners() == [1, 3]


def test_rummu_10_no_cap_on_hands_by_default() -> None:
    # DECISIONS rummu-10 / all-4: nothing but the target ends the match; the cap on hands is a tool's option
    assert load_game("rummu", players=3).options["hands"] == 0
    assert load_game("rummu", players=3).new_initial_state().view(None)["table"]["hand_limit"] == 0
    state = play_a(target=1000)
    rng = random.Random(0)
    while len(state.results) < 31:  # random players never reach 1000: the match goes on past any old cap
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    assert not state.is_terminal()


def test_option_hands_caps_the_match_for_tools() -> None:
    # DECISIONS all-4: a cap is a tool's option (simulations, benchmarks): stop after that many hands
    assert play_a(hands=1).is_terminal() and play_a(hands=1).winners() == [1]
    assert not play_a(hands=2).is_terminal()
    assert not play_a(hands=0).is_terminal() and not play_a().is_terminal()


def test_rummu_11_cancels_never_forbid_a_legal_opening() -> None:
    # DECISIONS rummu-11: however a move is split into steps, every play the rules allow stays possible.  With a
    # cap of three cancels per turn, "start" was no longer offered after the third and this opening was lost.
    state = new(3)
    deal(state, HANDS_A, "R0")
    do(state, 1, "draw")
    chance(state, "R9")
    before = state.legal_actions()
    attempts = [["start R3"], ["start R3", "add Y4"], ["start B9", "add G9", "add K9"], ["start G0", "add R3"],
                ["start R6", "add R5"]]
    for attempt in attempts:
        do(state, 1, *attempt, "cancel")
        assert state.legal_actions() == before  # a cancel gives the turn back as it was
    assert state.cancels == 5
    do(state, 1, "start R3", "add Y4", "add R5", "add R6", "close")  # the opening of 4 cards (rummu-5)
    assert state.opened[1] and state.combos == [[parse_card(c) for c in ("R3", "Y4", "R5", "R6")]]
    do(state, 1, "start B9", "add G9", "cancel", "start B9", "add G9", "add K9", "close", "discard G0")
    assert len(state.combos) == 2 and state.current == 2


def test_the_heuristic_bounds_its_own_retries() -> None:
    # DECISIONS rummu-11: the rules set no bound on cancels; the heuristic, whose plans are deterministic, starts
    # nothing more in a turn after three cancels, so that it cannot loop
    state = new(3)
    deal(state, HANDS_A, "R0")
    do(state, 1, "draw")
    chance(state, "R9")
    bot = state.game.heuristic_bot()
    assert notation.START <= bot.choose(state.view(1), state.legal_actions(), random.Random(0)) < notation.ADD
    for _ in range(3):
        do(state, 1, "start R3", "cancel")
    choice = bot.choose(state.view(1), state.legal_actions(), random.Random(0))
    assert any(notation.START <= a < notation.ADD for a in state.legal_actions())
    assert DISCARD <= choice < PUT


def test_all_1_chance_is_in_the_history() -> None:
    # DECISIONS all-1: the deal and every draw from the pile are chance actions; the record replays them
    state = play_a()
    chance_moves = [a for who, a in state.history() if who == CHANCE]
    assert len(chance_moves) == 27 + 1 + 3
    again = ludotheque.replay(json.loads(json.dumps(state.to_record())))
    assert again.history() == state.history() and again.view(None) == state.view(None)


# -- golden playthrough ------------------------------------------------------------------------------------------

GOLDEN_RECORD: dict[str, Any] = {
    "format": "ludotheque-record/1",
    "game": "rummu",
    "players": 3,
    "options": {"partnerships": False, "target": 0, "hands": 1},
    "actions": (
        [{"by": "chance", "move": HANDS_A[(1 + i) % 3].split()[i // 3]} for i in range(27)]
        + [{"by": "chance", "move": "R0"}]
        + [{"by": by, "move": move} for by, move in TURNS_A]
    ),
}


def test_golden_playthrough() -> None:
    state = replay_record(GOLDEN_RECORD, load_game)
    assert state.is_terminal()
    # by hand, from rummu-8: seat 0 keeps 9 natural cards: -45.  Seat 1 goes out (+10) and owns the red run
    # R3..R8 (pure, 6 cards: 40 + 10) and the set of four 9s (pure: 30): 90.  Seat 2 owns B1..B5 (pure run of
    # 5: 40) and keeps K5 K6 K8 (-15): 25.
    assert state.returns() == [-45.0, 90.0, 25.0]
    assert state.winners() == [1]
    assert state.to_record() == GOLDEN_RECORD


# -- bad input -------------------------------------------------------------------------------------------------


def test_illegal_action_leaves_state_unchanged() -> None:
    state = new(3)
    deal(state, HANDS_A, "R0")
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        state.apply_action(notation.CLOSE, 1)  # nothing drawn, nothing being laid
    with pytest.raises(IllegalActionError):
        state.apply_action(notation.NUM_ACTIONS + 5, 1)
    with pytest.raises(NotYourTurnError):
        state.apply_action(notation.DRAW, 2)
    with pytest.raises(NotationError, match="not a legal move"):
        state.string_to_action("take 4", 1)
    with pytest.raises(NotationError, match="not a move"):
        state.string_to_action("grab everything", 1)
    with pytest.raises(NotationError, match="not a card"):
        state.string_to_action("discard Q5", 1)
    assert snapshot(state) == before
    with pytest.raises(NotationError, match="chance has no move"):
        state.string_to_action("R0", CHANCE)  # chance does not act here (R0 is type 0, the number of "draw")
    assert snapshot(state) == before


def test_chance_cannot_deal_a_card_that_is_gone() -> None:
    state = new(3)
    deal(state, HANDS_A, "R0")
    do(state, 1, "draw")
    before = snapshot(state)
    with pytest.raises(NotationError):
        state.string_to_action("R3", CHANCE)  # R3 is in seat 1's hand
    with pytest.raises(IllegalActionError):
        state.apply_action(parse_card("R3"))
    assert snapshot(state) == before


def test_malformed_records() -> None:
    with pytest.raises(RecordError):
        replay_record({"format": "ludotheque-record/1", "game": "rummu"}, load_game)
    bad = json.loads(json.dumps(GOLDEN_RECORD))
    bad["actions"][28]["move"] = "discard R3"  # seat 1 must draw first
    with pytest.raises(RecordError) as info:
        replay_record(bad, load_game)
    assert info.value.index == 28
    bad = json.loads(json.dumps(GOLDEN_RECORD))
    bad["actions"][0]["move"] = "Z9"
    with pytest.raises(RecordError, match="not a card"):
        replay_record(bad, load_game)
    bad = json.loads(json.dumps(GOLDEN_RECORD))
    bad["options"]["partnerships"] = True
    with pytest.raises(RecordError, match="4 or 6"):
        replay_record(bad, load_game)


# -- hidden information (DECISIONS all-3) ---------------------------------------------------------------------


def test_no_leak_between_hidden_cards() -> None:
    # DECISIONS all-3: seat 1's view is the same whatever seats 0 and 2 hold and whatever the pile holds
    other = ["G1 G2 G3 G5 G6 K0 K1 K2 Y9", HANDS_A[1], "B1 B2 B3 B4 R7 K5 K6 K8 K3"]  # K3 moved, Y9 from pile
    worlds = []
    for hands in (HANDS_A, other):
        state = new(3)
        deal(state, hands, "R0")
        do(state, 1, "draw")
        chance(state, "R9")
        do(state, 1, "start R3", "add Y4", "add R5", "add R6", "close", "discard G0")
        do(state, 2, "draw")
        chance(state, "G7")
        worlds.append(state)
    a, b = worlds
    assert a.view(1) == b.view(1)
    assert a.view(None) == b.view(None)
    assert a.view(0) != b.view(0) and a.view(2) != b.view(2)
    assert "hand" not in a.view(None)["table"]
    assert "G7" not in json.dumps(a.view(0))  # seat 2's draw stays hidden from seat 0
    assert "G7" in json.dumps(a.view(2))


def test_resample_keeps_the_view_and_replays() -> None:
    state = play_a(hands=2)
    rng = random.Random(5)
    for _ in range(400):  # well into the second hand, through reshuffles
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    for seat in range(3):
        for k in range(5):
            twin = state.resample(seat, random.Random(k))
            assert twin.view(seat) == state.view(seat)
            again = replay_record(twin.to_record(), load_game)
            assert again.view(seat) == state.view(seat)
            assert again.view(None) == state.view(None)


@settings(max_examples=fuzz_games(12, 300))
@given(st.integers(0, 10_000), st.integers(0, 500), st.sampled_from(CONFIGS))
def test_resample_property(seed: int, steps: int, config: tuple[int, dict[str, Any]]) -> None:
    players, options = config
    state = new(players, hands=2, **options)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    Invariants(state)(state)
    seat = rng.randrange(players)
    twin = state.resample(seat, rng)
    Invariants(twin)(twin)
    assert twin.view(seat) == state.view(seat)
    # no leak: the twin differs from the state only in what the observer cannot see, and a spectator sees
    # none of that either
    assert twin.view(None) == state.view(None)
    again = replay_record(twin.to_record(), load_game)
    assert again.view(seat) == state.view(seat)


# -- fuzzing ------------------------------------------------------------------------------------------------------


@pytest.mark.fuzz
@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_fuzz_protocol(players: int, options: dict[str, Any]) -> None:
    """The full protocol checks plus the invariants, over every player count and option."""
    game = load_game("rummu", players=players, hands=2, **options)
    stats = random_sim_test(game, fuzz_games(8, 150), seed=players, invariants=Invariants())
    print(stats)
    assert stats.games == fuzz_games(8, 150)


@pytest.mark.fuzz
@pytest.mark.parametrize(("players", "options"), [*CONFIGS, (3, {"target": 1}), (5, {"target": 40})])
def test_fuzz_invariants(players: int, options: dict[str, Any]) -> None:
    """Thousands of random games (long share) checking only the invariants, fast."""
    game = load_game("rummu", players=players, **({"hands": 2} | options))
    rng = random.Random(players)
    games = fuzz_games(20, 1000)
    hands = outs = actions = 0
    for _ in range(games):
        state = game.new_initial_state()
        check = Invariants()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            check(state)
            actions += 1
        hands += len(state.results)
        outs += sum(r["out"] is not None for r in state.results)
        assert state.winners() == rules.winners_of([int(r) for r in state.returns()])
    print(f"rummu {players}p {options}: {games} games, {hands} hands ({outs} with a player out), {actions} actions")


# -- bots and display ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "options"), CONFIGS)
def test_heuristic_bot_plays_legal_moves(players: int, options: dict[str, Any]) -> None:
    """The heuristic reads only views; play_game would raise on an illegal choice."""
    from ludotheque.bots import play_game
    from ludotheque.bots.random_bot import RandomBot

    game = load_game("rummu", players=players, hands=1, **options)
    bots: list[Any] = [game.heuristic_bot()] + [RandomBot() for _ in range(players - 1)]
    state = play_game(game, bots, random.Random(players), random.Random(players + 1))
    assert isinstance(state, RummuState)
    assert state.is_terminal() and len(state.results) == 1


def test_render_shows_the_table() -> None:
    from rich.console import Console

    state = play_a(hands=2)
    rng = random.Random(1)
    for _ in range(60):
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    console = Console(record=True, width=120)
    for seat in (None, 0):
        console.print(state.game.render(state.view(seat)))
    text = console.export_text()
    assert "Rummü - hand 2" in text and "Draw pile" in text and "Last hand (1): seat 1 went out" in text
    assert "Your hand: " + " ".join(hand_of(state, 0)) in text
    final = play_a(hands=1)
    console.print(final.game.render(final.view(None)))
    assert "Match over. Winner(s): seat 1" in console.export_text()
