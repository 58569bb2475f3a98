"""One test per DECISIONS entry of Mü (mu-1..9, all-1..4), the option, and the seed's worked examples."""

from __future__ import annotations

import pytest

from ludotheque.core import CHANCE, IllegalActionError, OptionError
from ludotheque.games.mu import notation as nt
from ludotheque.games.mu import rules
from ludotheque.games.mu.game import MuState
from ludotheque.games.mu.notation import parse_card

from .mu_helpers import deal, new_state, pass_all, play


def K(name: str) -> int:
    kind = parse_card(name)
    assert kind is not None
    return kind


def T(name: str) -> int:
    return rules.COLOURS.index(name) if name in rules.COLOURS else 10 + int(name)


def moves(state: MuState, seat: int) -> set[str]:
    return {state.action_to_string(a, seat) for a in state.legal_actions(seat)}


def play_out(state: MuState) -> MuState:
    """Finish the current hand's tricks, every seat playing its first legal card."""
    hand = len(state.log)
    while len(state.log) == hand and not state.is_terminal():
        seat = state.current_players()[0]
        state.apply_action(state.legal_actions(seat)[0], seat)
    return state


# -- mu-1 -------------------------------------------------------------------------------------------


def test_deck_of_60_cards_and_60_triangles() -> None:
    # DECISIONS mu-1
    deck = rules.full_deck()
    assert sum(deck) == 60
    assert all(deck[c * 10 + 1] == 2 and deck[c * 10 + 7] == 2 and deck[c * 10 + 5] == 1 for c in range(5))
    assert sum(deck[k] * rules.triangles(k) for k in range(50)) == 60
    assert [rules.triangles(K(f"R{d}")) for d in range(10)] == [1, 0, 1, 1, 1, 1, 2, 2, 1, 0]


@pytest.mark.parametrize(("players", "each"), [(3, 12), (4, 15), (5, 12), (6, 10)])
def test_every_card_is_dealt(players: int, each: int) -> None:
    # DECISIONS mu-1
    state = deal(new_state(players), {})
    assert state.hand_sizes == [each] * players
    assert sum(sum(hand) for hand in state.hands) == (36 if players == 3 else 60)
    assert state.phase == "auction"


def test_three_players_remove_two_colours_by_chance() -> None:
    # DECISIONS mu-1, all-1: the removed colours are chance events, uniform over the colours left
    state = new_state(3)
    assert state.is_chance_node() and state.phase == "remove"
    assert state.chance_outcomes() == [(nt.REMOVE + c, 0.2) for c in range(5)]
    state.apply_action(state.string_to_action("out G", CHANCE))
    assert [a for a, _ in state.chance_outcomes()] == [nt.REMOVE + c for c in (0, 1, 3, 4)]
    state.apply_action(state.string_to_action("out B", CHANCE))
    assert state.phase == "deal" and sum(state.deck) == 36
    assert all(state.deck[k] == 0 for k in range(20, 40))


def test_deal_probabilities_count_the_copies() -> None:
    # DECISIONS mu-1, all-1: dealing a 1 or a 7 is twice as likely (two identical copies)
    outcomes = dict(new_state(4).chance_outcomes())
    assert len(outcomes) == 50
    assert outcomes[K("R7")] == pytest.approx(2 / 60) and outcomes[K("R5")] == pytest.approx(1 / 60)


# -- mu-2 -------------------------------------------------------------------------------------------


def test_auction_starts_with_the_dealer_and_the_first_bid_is_one_card() -> None:
    # DECISIONS mu-2, all-2: seat 0 deals the first hand and starts the auction
    state = deal(new_state(4), {0: ["R5", "R6"], 1: ["G1", "G2", "G3"]})
    assert state.current_players() == [0]
    assert moves(state, 0) >= {"R5", "R6", "pass"} and "done" not in moves(state, 0)
    play(state, "0:R5")  # the highest total before the turn was 0: one card ends the turn
    assert state.current_players() == [1] and state.bids == [1, 0, 0, 0]


def test_bid_may_exceed_the_previous_highest_by_one() -> None:
    # DECISIONS mu-2
    state = deal(new_state(4), {0: ["R5", "R6"], 1: ["G1", "G2", "G3"]})
    play(state, "0:R5, 1:G1")
    assert state.current_players() == [1] and "done" in moves(state, 1) and "pass" not in moves(state, 1)
    play(state, "1:G2")  # 2 = highest (1) + 1: the limit, the turn ends
    assert state.current_players() == [2] and state.bids[1] == 2
    play(state, "2:pass, 3:pass")
    # seat 0 is at 1, the highest is 2: it may reach 3, so lay up to two cards
    play(state, "0:R6")
    assert state.current_players() == [0] and state.turn_limit == 3


def test_leader_may_lay_only_one_more_card() -> None:
    # DECISIONS mu-2: "s'il a déjà plus de cartes que les autres, il peut jouer une carte de plus"
    state = deal(new_state(4), {0: ["R5", "R6", "R8"]})
    play(state, "0:R5, 1:pass, 2:pass, 3:pass, 0:R6")
    assert state.current_players() == [1] and state.bids[0] == 2


def test_done_after_a_smaller_bid_and_the_limit_is_never_broken() -> None:
    # DECISIONS mu-2: staying in without taking the lead
    state = deal(new_state(4), {0: ["R5"], 1: ["G1", "G2", "G3"], 2: ["B1", "B2", "B3", "B4"]})
    play(state, "0:R5, 1:G1, 1:G2, 2:B1, 2:done")
    assert state.bids == [1, 2, 1, 0] and state.current_players() == [3]
    play(state, "3:pass, 0:pass, 1:pass, 2:B2, 2:B3")  # highest 2 -> at most 3
    assert state.bids[2] == 3 and state.current_players() == [3]
    with pytest.raises(IllegalActionError):
        state.apply_action(nt.DONE, 3)  # done needs a card laid this turn


def test_a_player_who_passed_may_bid_again_and_the_auction_ends_after_all_pass() -> None:
    # DECISIONS mu-2
    state = deal(new_state(4), {0: ["R5"], 1: ["G1", "G2"]})
    play(state, "0:pass, 1:pass, 2:pass, 3:K1, 0:R5, 0:done")
    assert state.bids == [1, 0, 0, 1]
    play(state, "1:G1, 1:G2, 2:pass, 3:pass, 0:pass")
    assert state.phase == "auction"  # three passes in a row are not enough with 4 players
    play(state, "1:pass")
    assert state.phase != "auction" and state.chief == 1


def test_nobody_bids_the_hand_is_redealt_by_the_same_dealer() -> None:
    # DECISIONS mu-2 (our reading: the same dealer deals again, nothing is scored)
    state = pass_all(deal(new_state(5), {}))
    assert state.phase == "deal" and state.dealer == 0 and state.scores == [0] * 5
    assert state.log[-1]["result"] == "redeal" and sum(state.deck) == 60


# -- mu-3 -------------------------------------------------------------------------------------------


def test_egalite_pays_the_tied_and_charges_the_one_who_made_the_tie() -> None:
    # DECISIONS mu-3, seed: "Le ou les joueurs qui ont le plus grand nombre de cartes devant eux reçoivent 5 points
    # par carte qu'ils ont posée. Cependant, celui qui a joué la dernière carte perd 10 points par carte posée."
    state = deal(new_state(4), {0: ["R5", "R6"], 1: ["G1", "G2"]})
    play(state, "0:R5, 1:G1, 1:done, 2:pass, 3:pass, 0:pass, 1:pass")
    assert state.log[-1]["result"] == "egalite" and state.log[-1]["tie_maker"] == 1
    assert state.scores == [5, -10, 0, 0]
    assert state.phase == "deal" and state.dealer == 1  # the hand ends unplayed; the deal moves on


def test_egalite_a_card_laid_afterwards_below_the_top_changes_nothing() -> None:
    # DECISIONS mu-3: "celui qui a joué la dernière carte" is, among the players sharing the highest total, the one
    # who laid a card last: the one who made the tie.  A card laid afterwards by a player below the top changes
    # nothing.  Bids 2, 2, 1, 0: seat 0 made the tie, then seat 2 laid one card.
    state = deal(new_state(4), {0: ["R5", "R6"], 1: ["G1", "G2", "G3"], 2: ["B1"]})
    play(state, "0:R5, 1:G1, 1:G2, 2:pass, 3:pass, 0:R6, 0:done, 1:pass, 2:B1, 2:done, 3:pass, 0:pass, 1:pass, 2:pass")
    summary = state.log[-1]
    assert summary["result"] == "egalite" and summary["bids"] == [2, 2, 1, 0] and summary["tie_maker"] == 0
    # "reçoivent 5 points par carte" for the tied seat 1; "perd 10 points par carte" for seat 0, who made the tie;
    # seat 2 does not share the highest total, so the égalité gives it nothing.
    assert state.scores == [-20, 10, 0, 0]


def test_egalite_the_tie_maker_is_the_tied_seat_that_laid_last() -> None:
    # DECISIONS mu-3: seat 3 laid the auction's last card among the tied seats 0, 1, 3
    assert rules.egalite_scores([3, 3, 1, 3], tie_maker=3) == [15, 15, 0, -30]
    assert rules.tie_maker([3, 3, 1, 3], [0, 1, 1, 3, 3, 0, 0, 1, 3, 2]) == 3  # seat 2 laid after, below the top


# -- mu-4 -------------------------------------------------------------------------------------------


def test_vice_is_the_second_highest_bid() -> None:
    # DECISIONS mu-4
    assert rules.choose_vice([3, 2, 1, 0], [[1, 2, 3], [4, 5], [9], []], chief=0) == 1


def test_vice_tie_goes_to_the_highest_card_then_the_next() -> None:
    # DECISIONS mu-4
    assert rules.choose_vice([3, 2, 2, 0], [[0, 0, 0], [9, 1], [8, 7], []], chief=0) == 1
    assert rules.choose_vice([3, 2, 2, 0], [[0, 0, 0], [9, 1], [2, 9], []], chief=0) == 2
    assert rules.choose_vice([3, 2, 2, 0], [[0, 0, 0], [7, 1], [1, 7], []], chief=0) is None


def test_no_vice_with_one_bidder_or_three_players() -> None:
    # DECISIONS mu-4
    assert rules.choose_vice([2, 0, 0, 0], [[1, 2], [], [], []], chief=0) is None
    assert rules.choose_vice([2, 1, 0], [[1, 2], [5], []], chief=0) is None
    state = deal(new_state(3), {0: ["R5"], 1: ["G1", "G2"]})
    play(state, "0:R5, 1:G1, 1:G2, 2:pass, 0:pass, 1:pass")
    assert state.chief == 1 and state.vice is None and state.phase == "chief_trump"


def test_vice_from_an_auction() -> None:
    # DECISIONS mu-4: seats 2 and 3 both bid 1, seat 3 laid the higher card
    state = deal(new_state(4), {0: ["R5", "R6"], 2: ["G3"], 3: ["B8"]})
    play(state, "0:R5, 1:pass, 2:G3, 2:done, 3:B8, 3:done, 0:R6, 1:pass, 2:pass, 3:pass, 0:pass")
    assert state.chief == 0 and state.vice == 3 and state.phase == "vice_trump"


# -- mu-5 -------------------------------------------------------------------------------------------


def auction_with_vice() -> MuState:
    state = deal(new_state(4), {0: ["R5", "G6", "R1"], 1: ["B8", "K2"]})
    return play(state, "0:R5, 1:B8, 1:K2, 2:pass, 3:pass, 0:G6, 0:R1, 1:pass, 2:pass, 3:pass, 0:pass")


def test_vice_names_first_among_laid_cards() -> None:
    # DECISIONS mu-5
    state = auction_with_vice()
    assert state.chief == 0 and state.vice == 1 and state.current_players() == [1]
    assert moves(state, 1) == {"trump B", "trump K", "trump 8", "trump 2"}


def test_chief_names_among_laid_cards_or_no_trump_then_a_partner_not_the_vice() -> None:
    # DECISIONS mu-5
    state = play(auction_with_vice(), "1:trump B")
    assert state.current_players() == [0]
    assert moves(state, 0) == {"trump R", "trump G", "trump 5", "trump 6", "trump 1", "no trump"}
    play(state, "0:trump 5")
    assert moves(state, 0) == {"partner 2", "partner 3"}
    play(state, "0:partner 3")
    assert state.partner == 3 and state.phase == "play" and state.current_players() == [0]


def test_three_players_have_no_partner() -> None:
    # DECISIONS mu-5
    state = deal(new_state(3), {0: ["R5"]})
    play(state, "0:R5, 1:pass, 2:pass, 0:pass")
    play(state, "0:no trump")
    assert state.phase == "play" and state.partner is None


# -- mu-6 -------------------------------------------------------------------------------------------


def test_seed_example_chief_zero_vice_green() -> None:
    # DECISIONS mu-6, seed: "le vert 0 est le plus haut atout ... en dernier la couleur verte du 1 vers le 9"
    chief, vice = T("0"), T("G")
    assert rules.trick_winner([K("G9"), K("R0"), K("G0")], chief, vice) == 2  # green 0 highest
    assert rules.trick_winner([K("G9"), K("R0"), K("B0")], chief, vice) == 1  # then the 0s, first played
    assert rules.trick_winner([K("B0"), K("R0"), K("G9")], chief, vice) == 0
    assert rules.trick_winner([K("G1"), K("G9"), K("G5")], chief, vice) == 1  # then green 1 to 9
    assert rules.trick_winner([K("R9"), K("G1")], chief, vice) == 1  # any trump beats a colour


def test_chief_trump_beats_vice_trump_and_equal_numbers_go_to_the_first() -> None:
    # DECISIONS mu-6
    chief, vice = T("R"), T("5")
    assert rules.trick_winner([K("G5"), K("R0")], chief, vice) == 1  # chief's trump over the vice's
    assert rules.trick_winner([K("G5"), K("B5")], chief, vice) == 0  # a number trump: equal rank
    assert rules.trick_winner([K("R0"), K("R5")], chief, vice) == 1  # R5 is both trumps: the top
    assert rules.trick_winner([K("B7"), K("B7")], rules.NO_TRUMP, rules.NO_TRUMP) == 0  # two equal cards


def test_a_trump_card_belongs_to_trump_not_to_its_colour() -> None:
    # DECISIONS mu-6, mu-7 with the seed's example: trumps 6 and green, a red 6 is a trump
    assert rules.category(K("R6"), T("6"), T("G")) == rules.TRUMP_CATEGORY
    assert rules.category(K("R5"), T("6"), T("G")) == 0
    assert rules.trick_winner([K("R2"), K("R6")], T("6"), T("G")) == 1


# -- mu-7 -------------------------------------------------------------------------------------------


def trick_ready() -> MuState:
    """5 players; seat 1 is chief with trump 6, seat 0 vice with green: the seed's following example."""
    state = deal(new_state(5), {1: ["R6", "R9", "R1"], 0: ["G3", "G4"], 2: ["R2", "G9", "B4"], 3: ["K9"]})
    play(state, "0:G3, 1:R6, 1:R9, 2:pass, 3:pass, 4:pass, 0:pass, 1:pass")
    return play(state, "0:trump G, 1:trump 6, 1:partner 3")


def test_the_chief_leads_and_may_play_from_the_table() -> None:
    # DECISIONS mu-7
    state = trick_ready()
    assert state.current_players() == [1]
    assert {"R6*", "R9*", "R1"} <= moves(state, 1)
    play(state, "1:R9*")
    assert state.laid[1][K("R9")] == 0 and state.trick == [(1, K("R9"), True)]


def test_follow_a_colour_with_a_non_trump_card_of_it() -> None:
    # DECISIONS mu-7: red led, seat 2 holds R2 as its only non-trump red card: it must play it
    state = play(trick_ready(), "1:R9*")
    assert moves(state, 2) == {"R2"}


def test_seed_example_red_six_is_not_red() -> None:
    # DECISIONS mu-7 (seed): "ce joueur n'a pas besoin de jouer son 6 rouge même si c'est sa seule carte rouge"
    state = deal(new_state(5), {1: ["B6", "R9"], 0: ["G3"], 2: ["R6", "B4", "B5"]})
    play(state, "0:G3, 1:B6, 1:R9, 2:pass, 3:pass, 4:pass, 0:pass, 1:pass, 0:trump G, 1:trump 6, 1:partner 3")
    hand2 = [k for k in range(50) if state.hands[2][k]]
    assert all(k // 10 != 0 for k in hand2 if k != K("R6"))  # R6 is seat 2's only red card
    play(state, "1:R9*")
    distinct = sum(1 for k in range(50) if state.hands[2][k])
    assert "R6" in moves(state, 2) and len(moves(state, 2)) == distinct  # free to play anything


def test_trump_led_must_be_followed_with_a_trump() -> None:
    # DECISIONS mu-7 (seed): a green lead, the red 6 as only trump must be played
    state = deal(new_state(5), {1: ["B6", "G9"], 0: ["G3"], 2: ["R6", "B4", "B5"]})
    play(state, "0:G3, 1:B6, 1:G9, 2:pass, 3:pass, 4:pass, 0:pass, 1:pass, 0:trump G, 1:trump 6, 1:partner 3")
    play(state, "1:G9*")
    trumps = [k for k in range(50) if state.hands[2][k] and rules.category(k, T("6"), T("G")) == 5]
    assert moves(state, 2) == {nt.card_name(k) for k in trumps} and "R6" in moves(state, 2)


def test_the_trick_winner_leads_next() -> None:
    # DECISIONS mu-7
    state = play(trick_ready(), "1:R9*")
    for _ in range(4):
        seat = state.current_players()[0]
        state.apply_action(state.legal_actions(seat)[0], seat)
    leader, cards, winner = state.tricks[0]
    assert leader == 1 and state.leader == winner and state.current_players() == [winner]
    kinds = [kind for _, kind, _ in cards]
    assert cards[rules.trick_winner(kinds, state.chief_trump, state.vice_trump)][0] == winner


# -- mu-8 -------------------------------------------------------------------------------------------


def test_contract_table() -> None:
    # DECISIONS mu-8
    assert [rules.contract(3, b) for b in (1, 2)] == [12, 14]
    assert [rules.contract(4, b) for b in (1, 2)] == [30, 32]
    assert rules.contract(5, 4) == 33  # the seed's example fixes this row
    assert [rules.contract(6, b) for b in (1, 2)] == [20, 24]


def test_seed_example_five_players_bid_four_team_29() -> None:
    # DECISIONS mu-8, seed: chief -20, each of the 3 opponents +10, the partner nothing
    triangles = [0, 20, 9, 0, 0]  # chief 1 and partner 2 took 29 triangles
    deltas, made = rules.hand_scores(5, triangles, chief=1, partner=2, bid=4, chief_trump=T("G"))
    assert not made and rules.shortfall(5, 4, 29) == 2
    assert [d - t for d, t in zip(deltas, triangles, strict=True)] == [10, -20, 0, 10, 10]


@pytest.mark.parametrize(("trump", "gain"), [("G", 30), ("1", 40), ("7", 40), ("5", 50), (None, 60)])
def test_bonus_by_the_chiefs_trump(trump: str | None, gain: int) -> None:
    # DECISIONS mu-8: 10n, 10n+10 for 1 or 7, 10n+20 other numbers, 10n+30 no trump (here n = 3)
    code = rules.NO_TRUMP if trump is None else T(trump)
    deltas, made = rules.hand_scores(4, [20, 0, 14, 26], chief=0, partner=2, bid=3, chief_trump=code)
    assert made and deltas == [20 + gain, 0, 14 + gain, 26]


def test_missed_with_no_smaller_contract_made() -> None:
    # DECISIONS mu-8: k = 0 when even a bid of 1 would have failed
    deltas, _ = rules.hand_scores(3, [5, 20, 11], chief=0, partner=None, bid=3, chief_trump=T("R"))
    assert deltas == [5 - 30, 20 + 15, 11 + 15]


def test_a_played_hand_is_scored_by_triangles_and_contract() -> None:
    # DECISIONS mu-8 on a whole 3-player hand
    state = deal(new_state(3), {0: ["R9", "R8", "G9", "G8"]}, removed=("Y", "K"))
    play(state, "0:R9, 1:pass, 2:pass, 0:pass, 0:trump R")
    play_out(state)
    summary = state.log[-1]
    assert sum(summary["triangles"]) == 36
    team = summary["triangles"][0]
    made = team >= 12
    expected = [t + (10 if s == 0 else 0) if made else t for s, t in enumerate(summary["triangles"])]
    if not made:
        expected = [t - 10 if s == 0 else t + 5 for s, t in enumerate(summary["triangles"])]
    assert summary["deltas"] == expected and state.scores == expected


# -- mu-9, all-4 and the option -------------------------------------------------------------------


def test_target_option_default_and_bounds() -> None:
    # DECISIONS mu-9, all-4: the target is an option, 200 by default
    assert new_state(4).target == 200
    assert new_state(4, target=50).target == 50
    with pytest.raises(OptionError):
        new_state(4, target=0)


def test_match_ends_when_someone_reaches_the_target() -> None:
    # DECISIONS mu-9, all-4
    state = deal(new_state(4, target=5), {0: ["R5", "R6"], 1: ["G1", "G2"]})
    play(state, "0:R5, 1:G1, 1:done, 2:pass, 3:pass, 0:pass, 1:pass")  # égalité: seat 0 +5 reaches 5
    assert state.is_terminal() and state.winners() == [0] and state.returns() == [5.0, -10.0, 0.0, 0.0]


def test_match_goes_on_below_the_target_and_a_shared_top_is_a_shared_win() -> None:
    # DECISIONS mu-9 (our reading: equal highest totals share the win)
    state = deal(new_state(4, target=10), {0: ["R5", "R6"], 1: ["G1", "G2"]})
    play(state, "0:R5, 1:G1, 1:done, 2:pass, 3:pass, 0:pass, 1:pass")
    assert not state.is_terminal() and state.dealer == 1
    deal(state, {1: ["R5"], 2: ["G1"]})
    play(state, "1:R5, 2:G1, 2:done, 3:pass, 0:pass, 1:pass, 2:pass")  # seat 1 +5, seat 2 laid last -10
    assert state.scores == [5, -5, -10, 0] and not state.is_terminal()
    assert rules.match_winners([200, 210, 210]) == [1, 2]


# -- all-1, all-2 ---------------------------------------------------------------------------------


def test_deal_starts_left_of_the_dealer_and_the_deal_rotates() -> None:
    # DECISIONS all-1, all-2
    state = new_state(4)
    state.apply_action(state.string_to_action("R3", CHANCE))
    assert state.hands[1][K("R3")] == 1
    deal(state, {})
    pass_all(state)  # a redeal keeps the dealer
    deal(state, {0: ["R5", "R6"], 1: ["G1"]})
    play(state, "0:R5, 1:G1, 1:done, 2:pass, 3:pass, 0:pass, 1:pass")
    assert state.dealer == 1 and state.phase == "deal"
    state.apply_action(state.string_to_action("B3", CHANCE))
    assert state.hands[2][K("B3")] == 1
    deal(state, {})
    assert state.current_players() == [1]  # the new dealer opens the auction
