"""MICE to meet you: one test per DECISIONS entry (mice-1..8), per option value, and the seed's worked example."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ludotheque.core import CHANCE, OptionError
from ludotheque.games import load_game
from ludotheque.games.mice import rules
from ludotheque.games.mice.game import MiceState


def new(players: int, **options: str) -> MiceState:
    state = load_game("mice", players=players, **options).new_initial_state()
    assert isinstance(state, MiceState)
    return state


def play(state: MiceState, *moves: str) -> None:
    """Apply moves in notation, each by whoever acts (chance included)."""
    for move in moves:
        actor = CHANCE if state.is_chance_node() else state.current_players()[0]
        state.apply_action(state.string_to_action(move, actor), None if actor == CHANCE else actor)


def legal(state: MiceState) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def table(state: MiceState) -> dict:  # type: ignore[type-arg]
    return state.view(None)["table"]


def seat(state: MiceState, s: int) -> dict:  # type: ignore[type-arg]
    return table(state)["seats"][s]


# -- mice-1 -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_setup_cards_and_dice_cards(players: int) -> None:
    # DECISIONS mice-1: each seat holds mouse cards 1..18 and the dice cards 6, 9, 12, 15 face up
    state = new(players)
    for s in range(players):
        info = seat(state, s)
        assert info["hand"] == list(range(1, 19))
        assert info["cage"] == []
        assert info["face_up"] == [6, 9, 12, 15]
        assert (info["red_dice"], info["yellow_dice"]) == (2, 3)


def test_everything_is_public() -> None:
    # DECISIONS mice-1: all moves are public, so every seat sees every hand: all views show the same table
    state = new(3)
    play(state, "R5", "R3", "Y6", "Y3", "Y2", "use R+Y2", "cage 11")
    spectator = state.view(None)["table"]
    for s in range(3):
        assert state.view(s)["table"] == spectator
    assert spectator["seats"][0]["cage"] == [11]


# -- mice-2 -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face_down", "dice"),
    [((), (2, 3)), ((15,), (1, 3)), ((12,), (2, 2)), ((9,), (2, 2)), ((9, 12), (2, 1)), ((9, 12, 15), (1, 1)),
     ((9, 12, 15, 6), (0, 0))],
)
def test_dice_cards_take_dice_away(face_down: tuple[int, ...], dice: tuple[int, int]) -> None:
    # DECISIONS mice-2: 15 -> one red, 12 -> one yellow, 9 -> one yellow, 6 -> one red and one yellow
    face_up = rules.ALL_FACE_UP
    for value in face_down:
        face_up &= ~(1 << rules.DICE_CARD_INDEX[value])
    assert rules.dice_counts(face_up) == dice


def test_flipped_15_rolls_one_red_three_yellow() -> None:
    # DECISIONS mice-2: the seed's example: after flipping the 15, one red and three yellow dice are rolled
    state = new(2)
    play(state, "R6", "R6", "Y1", "Y1", "Y1", "use R+Y1+Y2+Y3")
    assert legal(state) == ["cage 15", "flip 15"]
    play(state, "flip 15")
    assert seat(state, 0)["face_down"] == [15]
    # seat 1's turn (pool empty: no passive turn), then seat 0 rolls 1 red + 3 yellow
    play(state, "R1", "R1", "Y1", "Y1", "Y1", "use R", "cage 2", "pass")
    assert state.is_chance_node() and state.active == 0
    play(state, "R2")
    assert state.action_to_string(0) == "Y1"  # the second die rolled is already yellow
    play(state, "Y3", "Y4", "Y5")
    assert [d["die"] for d in table(state)["dice"]] == ["R1", "Y1", "Y2", "Y3"]


def test_six_is_flipped_last() -> None:
    # DECISIONS mice-2: the 6 may be flipped only when it is the last face-up dice card
    assert not rules.can_flip(rules.ALL_FACE_UP, 6)
    assert not rules.can_flip(rules.SIX_BIT | 1 << rules.DICE_CARD_INDEX[9], 6)
    assert rules.can_flip(rules.SIX_BIT, 6)
    state = new(2)
    play(state, "R3", "R3", "Y1", "Y1", "Y1", "use R")  # sum 6 with every dice card face up
    assert legal(state) == ["cage 6"]


# -- mice-3 -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_nuts_in_the_supply(players: int) -> None:
    # DECISIONS mice-3: 3 nuts per player in the general supply, none in the players' reserves
    state = new(players)
    assert table(state)["supply"] == 3 * players
    assert all(seat(state, s)["nuts"] == 0 for s in range(players))


# -- mice-4 -------------------------------------------------------------------------------------------


def test_active_must_use_red_dice_and_may_add_yellow() -> None:
    # DECISIONS mice-4: the red sum is compulsory, any subset of yellow dice may be added
    state = new(2)
    play(state, "R2", "R1", "Y4", "Y5", "Y6")
    assert legal(state) == [
        "use R", "use R+Y1", "use R+Y2", "use R+Y1+Y2", "use R+Y3", "use R+Y1+Y3", "use R+Y2+Y3",
        "use R+Y1+Y2+Y3", "fail",
    ]
    play(state, "use R+Y1+Y3")
    assert table(state)["sum"] == 13
    assert legal(state) == ["cage 13"]  # no nut yet: only the exact sum
    play(state, "cage 13")
    assert seat(state, 0)["cage"] == [13]
    assert 13 not in seat(state, 0)["hand"]


def test_one_card_per_turn_and_sum_must_match_a_card() -> None:
    # DECISIONS mice-4: one card per turn; a sum that is no card cannot be used (19+ is no card)
    state = new(2)
    play(state, "R6", "R6", "Y6", "Y6", "Y6")
    assert "use R+Y1+Y2+Y3" not in legal(state)  # 30
    assert "use R+Y1+Y2" not in legal(state)  # 24
    assert "use R+Y1" in legal(state)  # 18
    play(state, "use R+Y1", "cage 18")
    assert state.current_players() == [1] and legal(state) == ["pass", "pay"]  # seat 1 may use 12


def test_nut_changes_a_used_die_within_one_to_six() -> None:
    # DECISIONS mice-4: each nut returned to the supply changes a used die by ±1, and a die stays in 1..6
    state = new(2)
    # give seat 0 a nut first: seat 1 pays to use seat 0's leftover dice
    play(state, "R1", "R1", "Y1", "Y1", "Y1", "use R+Y1+Y2", "cage 4", "pay", "cage 1")
    play(state, "R2", "R2", "Y2", "Y2", "Y2", "use R+Y1+Y2+Y3", "cage 10")  # seat 1 uses all dice
    assert seat(state, 0)["nuts"] == 1
    play(state, "R6", "R1", "Y1", "Y1", "Y1", "use R")
    moves = legal(state)
    assert "R1+1" not in moves and "R2-1" not in moves  # 6 + 1 and 1 - 1 leave 1..6
    assert {"R1-1", "R2+1", "cage 7"} <= set(moves)
    supply = table(state)["supply"]
    play(state, "R2+1")
    assert table(state)["sum"] == 8 and seat(state, 0)["nuts"] == 0 and table(state)["supply"] == supply + 1
    assert legal(state) == ["cage 8"]


# -- mice-5 -------------------------------------------------------------------------------------------


def test_failed_roll_take_back_or_turn_up() -> None:
    # DECISIONS mice-5: a failed roll takes back the cage top or turns a face-down dice card face up
    state = new(2)
    play(state, "R6", "R6", "Y1", "Y1", "Y1", "use R+Y1+Y2+Y3", "flip 15")
    play(state, "R1", "R1", "Y1", "Y1", "Y1", "use R+Y1+Y2+Y3", "cage 5")
    play(state, "R3", "Y1", "Y1", "Y3", "use R+Y1", "cage 4", "pay", "cage 4")  # seat 1 pays for Y2+Y3
    assert seat(state, 0)["cage"] == [4]
    play(state, "R1", "R1", "Y1", "Y1", "Y2", "use R+Y1+Y2+Y3", "cage 6")  # seat 1's turn
    play(state, "R2", "Y2", "Y2", "Y2", "fail")
    assert legal(state) == ["take back 4", "unflip 15"]
    play(state, "take back 4")
    assert 4 in seat(state, 0)["hand"] and seat(state, 0)["cage"] == []
    # the others may now use the sum of all dice: 8
    assert table(state)["pool_sum"] == 8 and table(state)["failed"]


def test_failed_roll_with_nothing_to_undo() -> None:
    # DECISIONS mice-5: with an empty cage and every dice card face up, a failure has no consequence
    state = new(2)
    play(state, "R1", "R1", "Y1", "Y1", "Y1", "fail")
    assert table(state)["failed"] and table(state)["phase"] == "pay"  # straight to seat 1, sum of all dice 5
    assert table(state)["pool_sum"] == 5 and state.current_players() == [1]
    assert "seat 0 has nothing to take back or turn up" in table(state)["this_turn"]


def test_unflip_gives_dice_back() -> None:
    # DECISIONS mice-5: turning a dice card face up again gives its dice back for the next turn
    state = new(2)
    play(state, "R6", "R6", "Y1", "Y1", "Y1", "use R+Y1+Y2+Y3", "flip 15")
    play(state, "R1", "R1", "Y1", "Y1", "Y1", "use R+Y1+Y2+Y3", "cage 5")
    play(state, "R1", "Y1", "Y1", "Y1", "fail")
    assert legal(state) == ["unflip 15"]
    play(state, "unflip 15")
    assert seat(state, 0)["face_up"] == [6, 9, 12, 15] and seat(state, 0)["red_dice"] == 2


def test_forced_failure_when_no_sum_reaches_a_card() -> None:
    # DECISIONS mice-5: "cannot use it": a roll no subset can turn into a card fails by itself
    state = new(2)
    state.hands[0] = 1 << 1  # only card 1 left: two red dice never make 1
    play(state, "R1", "R1", "Y1", "Y1", "Y1")
    assert table(state)["failed"]
    assert "seat 0 fails: no sum reaches a card" in table(state)["this_turn"]


# -- mice-6 -------------------------------------------------------------------------------------------


def test_passive_order_and_nut_from_supply() -> None:
    # DECISIONS mice-6: passive seats clockwise from the active seat's left; the nut goes from the supply
    state = new(4)
    play(state, "R1", "R1", "Y1", "Y1", "Y2", "use R+Y1+Y2")  # sum 4, leaves Y3 = 2
    play(state, "cage 4")
    assert state.current_players() == [1]
    play(state, "pass")
    assert state.current_players() == [2]
    play(state, "pay")
    assert table(state)["supply"] == 11 and seat(state, 0)["nuts"] == 1 and seat(state, 2)["nuts"] == 0
    play(state, "cage 2")
    assert state.current_players() == [3]
    play(state, "pay", "cage 2")
    assert seat(state, 0)["nuts"] == 2 and state.is_chance_node() and state.active == 1


def test_passive_pays_from_own_reserve_when_supply_is_empty() -> None:
    # DECISIONS mice-6: with the supply empty the passive seat pays from its reserve; without a nut it cannot
    state = new(3)
    state.supply = 0
    state.nuts = [3, 6, 0]  # the 9 nuts are all in reserves (conserved)
    play(state, "R1", "R1", "Y1", "Y1", "Y2", "use R+Y1+Y2", "cage 4")
    assert state.current_players() == [1]  # seat 1 can pay from its own reserve
    play(state, "pay")
    assert state.nuts == [4, 5, 0] and state.supply == 0
    play(state, "cage 2")
    # seat 2 has no nut and the supply is empty: it cannot use the dice and is skipped
    assert state.is_chance_node() and state.active == 1


def test_passive_uses_the_whole_sum() -> None:
    # DECISIONS mice-6: the passive seat uses the sum of every unused yellow die, not a part of it
    state = new(2)
    play(state, "R1", "R1", "Y3", "Y4", "Y5", "use R")
    play(state, "cage 2", "pay")
    assert table(state)["using"] == ["Y1", "Y2", "Y3"] and table(state)["sum"] == 12
    assert legal(state) == ["cage 12", "flip 12"]


def test_worked_example() -> None:
    # DECISIONS mice-4, mice-6: the seed's example, step by step.  Three players; A = seat 0, B = seat 1.
    state = new(3)
    # set-up so that B owns a nut: seat 0 uses every die, seat 1 leaves one die that seat 2 pays for
    play(state, "R1", "R1", "Y1", "Y1", "Y1", "use R+Y1+Y2+Y3", "cage 5")
    play(state, "R1", "R1", "Y1", "Y1", "Y2", "use R+Y1+Y2", "cage 4", "pay", "cage 2", "pass")
    play(state, "R1", "R1", "Y1", "Y1", "Y1", "use R+Y1+Y2+Y3", "cage 5")
    assert state.nuts == [0, 1, 0] and state.supply == 8 and state.active == 0
    # A rolls red 5 and 3, yellow 6, 3 and 2
    play(state, "R5", "R3", "Y6", "Y3", "Y2")
    # A adds the yellow 3 to the reds: 11, and cages the 11
    play(state, "use R+Y2")
    assert table(state)["sum"] == 11
    play(state, "cage 11")
    assert seat(state, 0)["cage"] == [5, 11]
    # 8 is left for the others (6 + 2); B, on A's left, decides first
    assert table(state)["pool"] == ["Y1", "Y3"] and table(state)["pool_sum"] == 8
    assert state.current_players() == [1]
    # B gives A a nut from the supply to use the 8
    play(state, "pay")
    assert state.supply == 7 and state.nuts == [1, 1, 0]
    assert table(state)["sum"] == 8 and "cage 8" in legal(state)
    # "6 + 1 = 7" is no die: to raise the sum B must change another remaining die (the 2)
    assert "Y1+1" not in legal(state) and {"Y1-1", "Y3+1", "Y3-1"} <= set(legal(state))
    # B pays a second nut, from his own reserve, to turn the 6 into a 5: the 8 becomes a 7, and cages the 7
    play(state, "Y1-1")
    assert state.nuts == [1, 0, 0] and state.supply == 8 and table(state)["sum"] == 7
    play(state, "cage 7")
    assert seat(state, 1)["cage"] == [4, 7]
    # for the next player the sum is no longer 8 but 7
    assert state.current_players() == [2] and table(state)["pool_sum"] == 7
    play(state, "pay")
    assert legal(state) == ["cage 7"]


# -- mice-7 -------------------------------------------------------------------------------------------


def test_game_ends_when_the_six_is_flipped() -> None:
    # DECISIONS mice-7: the game ends at once (the passive seats do not play) when a seat flips its 6
    state = new(2)
    state.face_up[0] = rules.SIX_BIT  # 15, 12 and 9 already face down: one red and one yellow die
    state.rolled = rules.slots_rolled(state.face_up[0])
    play(state, "R3", "Y3", "use R+Y1")
    assert legal(state) == ["cage 6", "flip 6"]
    play(state, "flip 6")
    assert state.is_terminal()
    # seat 0: 171 in hand and 4 face-down dice cards; seat 1: 171 and none -> seat 0 wins the tie
    assert state.returns() == [171.0, 171.0] and state.winners() == [0]


def test_scoring_and_tie_breaks() -> None:
    # DECISIONS mice-7: lowest hand total; then more face-down dice cards; then more nuts; then shared
    full = rules.FULL_HAND
    assert rules.final_winners([full, full & ~(1 << 18)], [15, 15], [0, 0]) == [1]
    assert rules.final_winners([full, full], [0, 15], [0, 3]) == [0]
    assert rules.final_winners([full, full], [7, 7], [1, 2]) == [1]
    assert rules.final_winners([full, full, full], [7, 7, 15], [2, 2, 2]) == [0, 1]


def test_a_passive_seat_can_end_the_game() -> None:
    # DECISIONS mice-6, mice-7: a passive seat flips like an active one, and its 6 ends the game too
    state = new(3)
    state.face_up[2] = rules.SIX_BIT
    play(state, "R1", "R1", "Y2", "Y3", "Y3", "use R+Y1", "cage 4", "pass", "pay")
    assert legal(state) == ["cage 6", "flip 6"]
    play(state, "flip 6")
    # ending the game is not winning it: seat 0 caged a 4 and has the lowest total
    assert state.is_terminal() and state.returns() == [167.0, 171.0, 171.0] and state.winners() == [0]


# -- mice-8 and the option `level` ---------------------------------------------------------------------


@pytest.mark.parametrize(("level", "own", "middle"), [("normal", 3, 0), ("advanced", 2, 1), ("hardest", 0, 3)])
def test_solo_levels(level: str, own: int, middle: int) -> None:
    # DECISIONS mice-8 (option level): nuts in the player's reserve and in the middle
    state = new(1, level=level)
    assert state.game.options["level"] == level
    assert seat(state, 0)["nuts"] == own and table(state)["supply"] == middle


def test_level_is_a_solo_option() -> None:
    # DECISIONS mice-8: the level only exists for the solo game
    with pytest.raises(OptionError, match="solo"):
        load_game("mice", players=3, level="hardest")
    with pytest.raises(OptionError):
        load_game("mice", players=1, level="expert")


def test_solo_no_flip_by_sum_and_second_card() -> None:
    # DECISIONS mice-8: dice cards are never flipped by a sum; a nut buys a second card with the yellow dice left
    state = new(1)
    play(state, "R3", "R3", "Y4", "Y4", "Y1", "use R")
    assert legal(state) == ["R1+1", "R1-1", "R2+1", "R2-1", "cage 6"]  # no "flip 6"
    play(state, "cage 6")
    assert state.current_players() == [0] and legal(state) == ["pass", "pay"]
    play(state, "pay")
    assert state.nuts == [2] and state.supply == 1 and table(state)["sum"] == 9
    play(state, "cage 9")
    assert seat(state, 0)["cage"] == [6, 9] and state.is_chance_node()


def test_solo_bonus_nut() -> None:
    # DECISIONS mice-8: a nut from the middle when the roll caged a card and the unused yellow dice make 15+
    state = new(1, level="advanced")
    play(state, "R1", "R2", "Y5", "Y5", "Y5", "use R", "cage 3")
    play(state, "pass")
    assert state.nuts == [3] and state.supply == 0
    # the middle is empty now: no more bonus
    play(state, "R2", "R2", "Y6", "Y5", "Y6", "use R", "cage 4", "pass")
    assert state.nuts == [3] and state.supply == 0


def test_solo_no_bonus_on_a_failed_roll() -> None:
    # DECISIONS mice-8: a roll that cages nothing earns no nut whatever the yellow sum
    state = new(1, level="hardest")
    play(state, "R1", "R2", "Y5", "Y5", "Y5", "fail")
    assert legal(state) == ["flip 9", "flip 12", "flip 15"]  # the 6 goes last
    play(state, "flip 12")
    assert state.nuts == [0] and state.supply == 3
    assert seat(state, 0)["face_down"] == [12] and seat(state, 0)["yellow_dice"] == 2


def test_solo_ends_when_all_dice_cards_are_flipped() -> None:
    # DECISIONS mice-8: the game ends when all four dice cards are face down; rating "Dommage" with 3+ cards
    state = new(1, level="hardest")
    for flip, roll in (("flip 15", ("R1", "R1", "Y6", "Y6", "Y6")), ("flip 12", ("R6", "Y6", "Y6", "Y6")),
                       ("flip 9", ("R6", "Y6", "Y6")), ("flip 6", ("R6", "Y6"))):
        state.hands[0] = 1 << 1  # card 1 alone: no roll below can make it (and no nut to change a die)
        state.cages[0] = list(range(2, 19))
        play(state, *roll)
        assert table(state)["phase"] == "fail"  # a forced failure
        play(state, flip)
    assert state.is_terminal()
    assert state.rating() == "Pas mal." and state.returns() == [2.0] and state.winners() == []
    assert state.view(0)["table"]["rating"] == "Pas mal."


def test_solo_ends_when_the_hand_is_empty() -> None:
    # DECISIONS mice-8: the game ends when the hand is empty; the seed's table gives the rating
    state = new(1)
    state.hands[0] = 1 << 12
    state.cages[0] = [c for c in rules.CARDS if c != 12]
    play(state, "R6", "R6", "Y1", "Y1", "Y1", "use R", "cage 12")
    assert state.is_terminal() and state.rating() == "Génial !"
    assert state.returns() == [6.0] and state.winners() == [0]


@pytest.mark.parametrize(
    ("cards", "face_up", "rating"),
    [(0, 4, "Génial !"), (0, 3, "Formidable."), (0, 2, "Très bien."), (0, 1, "Bien joué."), (1, 0, "Pas mal."),
     (2, 2, "Peut mieux faire !"), (3, 4, "Dommage, essaye encore !"), (9, 0, "Dommage, essaye encore !")],
)
def test_solo_rating_table(cards: int, face_up: int, rating: str) -> None:
    # DECISIONS mice-8: the seed's rating table
    hand = sum(1 << c for c in range(1, cards + 1))
    mask = (1 << face_up) - 1 if face_up < 4 else rules.ALL_FACE_UP
    if 0 < face_up < 4:
        mask = rules.ALL_FACE_UP & ~((1 << (4 - face_up)) - 1)  # the 6 goes face down last
    assert rules.RATINGS[rules.solo_rank(hand, mask)] == rating


# -- nut changes: the reachable sums, against brute force ----------------------------------------------


@given(st.lists(st.integers(1, 6), min_size=1, max_size=5), st.integers(0, 6), st.integers(0, (1 << 19) - 1))
def test_reachable_matches_brute_force(values: list[int], nuts: int, targets: int) -> None:
    # DECISIONS mice-4: each nut moves one used die by ±1 and a die stays in 1..6
    seen = {tuple(values)}
    frontier = [tuple(values)]
    for _ in range(nuts):
        nxt = []
        for dice in frontier:
            for i in range(len(dice)):
                for delta in (1, -1):
                    if 1 <= dice[i] + delta <= 6:
                        moved = (*dice[:i], dice[i] + delta, *dice[i + 1:])
                        if moved not in seen:
                            seen.add(moved)
                            nxt.append(moved)
        frontier = nxt
    sums = {sum(d) for d in seen}
    assert rules.reachable(values, nuts, targets) == any(targets >> s & 1 for s in sums)
