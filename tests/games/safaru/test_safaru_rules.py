"""One test per DECISIONS entry of Safarü (safaru-1..8, all-1..4), each option, and the seed's examples."""

from __future__ import annotations

import random

import pytest

import ludotheque
from ludotheque.core import CHANCE, NotYourTurnError, OptionError
from ludotheque.games.safaru import rules
from ludotheque.games.safaru.game import SafaruState

from .safaru_helpers import dealt, legal_texts, new_state, play


def caught(state: SafaruState, seat: int) -> list[str]:
    return rules.names(state.caught[seat])


def vec(*cards: str) -> list[int]:
    out = [0] * rules.KINDS
    for name in cards:
        out[rules.LETTERS.index(name[0]) * 10 + int(name[1])] += 1
    return out


# -- safaru-1 -------------------------------------------------------------------------------------


def test_deck_unicorns_hedgehogs_babies_triangles() -> None:
    # DECISIONS safaru-1 (and mu-1): 60 cards, 5 colours x 0,1,1,2,3,4,5,6,7,7,8,9; blue = unicorns,
    # yellow = hedgehogs, 0s = babies; triangles 0->1, 1->0, 2..5->1, 6,7->2, 8->1, 9->0
    assert rules.DECK_SIZE == 60 and sum(rules.COPIES) == 60
    assert [rules.COPIES[k] for k in range(10)] == [1, 2, 1, 1, 1, 1, 1, 2, 1, 1]
    assert rules.COLOURS[rules.BLUE] == "blue" and rules.COLOURS[rules.YELLOW] == "yellow"
    assert sum(rules.COPIES[k] * rules.TRIANGLES[k % 10] for k in range(50)) == 60
    # one unicorn, one hedgehog, one baby: +24 for the unicorn, -12 for the hedgehog, -5 +1 for the baby
    assert rules.side_scores([vec("B9", "Y9", "R0")], 1, False) == [24 - 12 - 5 + 1]


# -- safaru-2 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_deal_four_each_and_four_to_the_table(players: int) -> None:
    # DECISIONS safaru-2: 4 cards to each player, 4 face up on the table; seat 0 starts (all-2)
    state = new_state(players)
    rng = random.Random(players)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.legal_actions()))
    assert [sum(h) for h in state.hands] == [4] * players
    assert sum(state.table) == 4 and state.pile_size == 60 - 4 * players - 4
    assert state.current_players() == [0]
    assert len(state.view(None)["table"]["table"]) == 4


def test_four_players_opposite_partners_pool_their_cards() -> None:
    # DECISIONS safaru-2 and safaru-6: seats 0 and 2 against 1 and 3, cards pooled
    caught_cards = [vec("B1"), vec("B2", "Y3"), vec("B3"), vec("R0")]
    # side 0 (seats 0, 2): 2 unicorns -> +24, triangles 0+1; side 1: 1 unicorn, 1 hedgehog -> -12, a baby -5,
    # triangles B2 1 + Y3 1 + R0 1
    assert rules.seat_scores(caught_cards, 4, False) == [25, -14, 25, -14]
    assert rules.side_of(0, 4) == rules.side_of(2, 4) != rules.side_of(1, 4) == rules.side_of(3, 4)
    assert ludotheque.load_game("safaru", players=4).new_initial_state().view(0)["table"]["partners"] == [
        [0, 2],
        [1, 3],
    ]


# -- safaru-3 -------------------------------------------------------------------------------------


def test_adding_two_or_more_cards_played_card_stays() -> None:
    # DECISIONS safaru-3: adding catches 2+ table cards summing to the played number; the card stays
    state = dealt(2, [["Y7", "R1", "R2", "R3"], ["G1", "G2", "K1", "K2"]], ["G3", "G4", "K9", "B2"])
    play(state, "Y7")
    assert legal_texts(state) == ["add"]  # no 10 for seventeen (9+1? no 1 on the table), no 7 to pair
    play(state, "add")
    assert legal_texts(state) == ["+G3", "+G4"]  # the 2 cannot be completed (it would need a 5)
    play(state, "+G3")
    assert legal_texts(state) == ["+G4"]  # not closable with one card
    play(state, "+G4", "ok")
    assert caught(state, 0) == ["G3", "G4"]
    assert rules.names(state.table) == ["Y7", "B2", "K9"]
    assert state.current_players() == [1]


def test_adding_needs_two_cards_pairing_takes_one_and_the_played_card() -> None:
    # DECISIONS safaru-3: a single equal card is caught by pairing, never by adding; pairing takes the played card
    state = dealt(2, [["R5", "R1", "R2", "R3"], ["G1", "G2", "K1", "K2"]], ["G5", "K9", "Y8", "K6"])
    play(state, "R5")
    assert legal_texts(state) == ["=G5"]
    play(state, "=G5")
    assert caught(state, 0) == ["R5", "G5"]
    assert rules.names(state.table) == ["Y8", "K6", "K9"]


def test_seventeen_with_one_card_played_card_stays() -> None:
    # DECISIONS safaru-3: seventeen catches 1+ table cards that with the played number make 17
    state = dealt(2, [["Y8", "R1", "R2", "R3"], ["G1", "G2", "K1", "K2"]], ["K9", "B1", "B2", "R4"])
    play(state, "Y8")
    assert legal_texts(state) == ["17"]  # 1+2+4 = 7: no adding to 8
    play(state, "17", "+K9", "ok")
    assert caught(state, 0) == ["K9"]
    assert rules.names(state.table) == ["R4", "Y8", "B1", "B2"]


def test_three_methods_each_once_on_disjoint_cards_then_the_next_must_release() -> None:
    # DECISIONS safaru-3 (each method at most once, disjoint cards) and safaru-4 (after the table was emptied
    # the next player must release)
    state = dealt(2, [["B8", "R1", "R2", "R3"], ["G1", "G2", "K1", "K2"]], ["Y8", "G3", "G5", "K9"])
    play(state, "B8")
    assert legal_texts(state) == ["=Y8", "add", "17"]
    play(state, "add", "+G3", "+G5", "ok")
    assert legal_texts(state) == ["=Y8", "17", "done"]  # adding is spent
    play(state, "17")
    assert legal_texts(state) == ["+K9"]  # the cards caught by adding are gone
    play(state, "+K9", "ok", "=Y8")
    assert caught(state, 0) == ["Y8", "G3", "G5", "B8", "K9"]
    assert sum(state.table) == 0
    play(state, "G1")  # seat 1 releases: nothing can be caught on an empty table
    assert rules.names(state.table) == ["G1"]
    assert state.log[-1]["released"] is True


def test_several_adding_combinations_only_one_is_caught() -> None:
    # seed, Attraper: "peut seulement attraper une seule combinaison" (DECISIONS safaru-3: each method once)
    state = dealt(2, [["K7", "R1", "R2", "R3"], ["G1", "G2", "K1", "K2"]], ["G3", "G4", "B2", "Y5"])
    play(state, "K7")
    assert legal_texts(state) == ["add", "17"]  # 7 + (2+3+5) = 17 too
    play(state, "add")
    assert legal_texts(state) == ["+Y5", "+G3", "+G4", "+B2"]
    play(state, "+G3")
    assert legal_texts(state) == ["+G4"]
    play(state, "+G4", "ok")  # adding is spent, 2+5 is not 10: the turn ends with 2+5 still on the table
    assert caught(state, 0) == ["G3", "G4"]
    assert rules.names(state.table) == ["Y5", "B2", "K7"]


def test_zero_rule_each_adding_or_seventeen_catch_takes_a_zero() -> None:
    # DECISIONS safaru-3: with a 0 on the table, an adding or seventeen catch must include a 0; with a single
    # 0 only one of the two can be made (our reading: each catch needs its own 0)
    state = dealt(2, [["B8", "R1", "R2", "R3"], ["G1", "G2", "K1", "K2"]], ["R0", "G3", "K5", "K9"])
    play(state, "B8")
    assert legal_texts(state) == ["add", "17"]
    play(state, "add", "+G3", "+K5")
    assert legal_texts(state) == ["+R0"]  # "ok" is not legal without the 0
    play(state, "+R0", "ok")
    assert caught(state, 0) == ["R0", "G3", "K5"]
    assert state.current_players() == [1]  # 8+9 = 17 but no 0 is left for it
    assert rules.names(state.table) == ["B8", "K9"]


def test_zero_rule_does_not_apply_to_pairing() -> None:
    # DECISIONS safaru-3: the 0 rule names adding and seventeen only
    state = dealt(2, [["B8", "R1", "R2", "R3"], ["G1", "G2", "K1", "K2"]], ["R0", "Y8", "K6", "K9"])
    play(state, "B8")
    assert legal_texts(state) == ["=Y8", "add", "17"]  # 8 = 0 + 8 and 17 = 8 + 9 + 0 need the 0, pairing not
    play(state, "=Y8")
    assert legal_texts(state) == ["17", "done"]
    play(state, "done")
    assert caught(state, 0) == ["Y8", "B8"]


def test_played_zero_adds_two_zeros_and_pairs_a_zero() -> None:
    # DECISIONS safaru-3: a played 0 adds two or more 0s (sum 0), pairs with a 0
    state = dealt(2, [["B0", "R1", "R2", "R3"], ["G1", "G2", "K1", "K2"]], ["R0", "G0", "K6", "K9"])
    play(state, "B0")
    assert legal_texts(state) == ["=R0", "=G0", "add"]
    play(state, "add", "+R0", "+G0", "ok")
    assert caught(state, 0) == ["R0", "G0"]


# -- safaru-4 -------------------------------------------------------------------------------------


def test_a_card_that_can_catch_must_catch_any_card_may_be_played() -> None:
    # DECISIONS safaru-4: every card in hand may be played; one that can catch must catch (no "done" first);
    # one that cannot is released and stays on the table
    state = dealt(2, [["B8", "R1", "Y2", "R3"], ["G1", "G2", "K1", "K2"]], ["Y8", "G4", "G5", "K6"])
    assert legal_texts(state) == ["R1", "R3", "Y2", "B8"]
    twin = state.clone()
    play(twin, "B8")
    assert "done" not in legal_texts(twin) and twin.current_players() == [0]
    play(state, "R1")  # 1: no two cards add to 1, 16 is not reachable, no 1 to pair
    assert state.log[-1] == {
        "seat": 0,
        "card": "R1",
        "table_before": ["Y8", "G4", "G5", "K6"],
        "catches": [],
        "released": True,
        "picked_by": None,
    }
    assert "R1" in rules.names(state.table) and state.current_players() == [1]


# -- safaru-5 -------------------------------------------------------------------------------------


def _expected_queue(state: SafaruState) -> list[int]:
    n = state.game.players
    order = [(state.starter + i) % n for i in range(n)]
    pile = state.pile_size
    queue = order * 4 if pile >= 4 * n else [order[i % n] for i in range(pile)]
    if sum(state.table) == 0:
        queue += [rules.TABLE] * min(4, pile - len(queue))
    return queue


@pytest.mark.parametrize(("players", "renverse"), [(2, False), (3, False), (4, True), (3, True)])
def test_deals_rotate_refill_an_empty_table_and_go_round_when_short(players: int, renverse: bool) -> None:
    # DECISIONS safaru-5 and all-2: deal d is started by seat d mod n; 4 more each when the hands are empty,
    # 4 to the table only if it is empty, round the table when the pile runs short; the game ends when the
    # hands and the pile are empty; the cards left on the table are not scored
    for seed in range(6):
        rng = random.Random(seed)
        state = new_state(players, renverse=renverse)
        deals = 0
        short = False
        while not state.is_terminal():
            if state.is_chance_node():
                if len(state.history()) == state.round_hist_start:
                    assert state.starter == deals % players == state.round % players
                    assert all(sum(h) == 0 for h in state.hands)
                    assert state.deal_queue == _expected_queue(state)
                    short = short or state.pile_size < 4 * players
                    deals += 1
                state.apply_action(rng.choice(state.legal_actions()))
                if not state.is_chance_node():
                    assert state.current_players() == [state.starter]
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert state.pile_size == 0 and all(sum(h) == 0 for h in state.hands)
        if players == 3:
            assert short  # 44 cards after the first deal never divide into 12s
        scored = [sum(c) for c in state.caught]
        assert sum(scored) + sum(state.table) == 60
        assert state.returns() == rules.seat_scores(state.caught, players, renverse)


def test_short_pile_three_players_last_deal_is_three_three_two() -> None:
    # DECISIONS safaru-5: 3 players, 8 cards left and a table not empty: dealt one by one round the table
    state = new_state(3)
    state.pile_size = 8  # arrange the situation directly: only the queue computation is under test
    state.table = vec("R9")
    state.hands = [[0] * 50 for _ in range(3)]
    state.round = 3
    state._new_round()
    assert state.starter == 1
    assert state.deal_queue == [1, 2, 0, 1, 2, 0, 1, 2]


# -- safaru-6 -------------------------------------------------------------------------------------


def test_scoring_with_split_ties() -> None:
    # DECISIONS safaru-6: most unicorns +24, most hedgehogs -12, ties split equally; each baby -5; triangles +1
    caught_cards = [vec("B1", "B2", "Y3"), vec("B4", "B5", "R0"), vec("Y6", "Y7", "G8")]
    # unicorns 2,2,0 -> +12 +12; hedgehogs 1,0,2 -> seat 2 -12; baby: seat 1 -5;
    # triangles: 0+1+1 = 2, 1+1+1 = 3, 2+2+1 = 5
    assert rules.side_scores(caught_cards, 3, False) == [14, 10, -7]
    # two hedgehog leaders share -12: -6 each; three unicorn leaders share 24: 8 each
    tie = [vec("B9", "Y9"), vec("B9", "Y9"), vec("B1")]
    assert rules.side_scores(tie, 3, False) == [8 - 6, 8 - 6, 8]


def test_nobody_with_a_unicorn_gets_no_bonus() -> None:
    # DECISIONS safaru-8: a prize (most unicorns, most hedgehogs) that nobody can claim because nobody caught
    # such a card goes to nobody
    assert rules.side_scores([vec("R9"), vec("G9")], 2, False) == [0, 0]
    assert rules.side_scores([vec("B9"), vec("G9"), vec("K9")], 3, False) == [24, 0, 0]  # no hedgehog: no -12
    sides = rules.breakdown([vec("R9"), vec("G9")], 2, False)
    assert [side["points"]["most_unicorns"] for side in sides] == [0, 0]
    assert [side["points"]["most_hedgehogs"] for side in sides] == [0, 0]


def test_renverse_prize_nobody_can_claim_goes_to_nobody() -> None:
    # DECISIONS safaru-8 in renversé: nobody caught a hedgehog, so nobody gets the +18; nobody caught anything at
    # all, so nobody gets the +24 for most cards either
    assert rules.side_scores([vec("R9"), vec("G9", "K9")], 2, True) == [0, 24]
    assert rules.side_scores([vec(), vec(), vec()], 3, True) == [0, 0, 0]
    sides = rules.breakdown([vec(), vec(), vec()], 3, True)
    assert [side["points"] for side in sides] == [{"most_cards": 0, "most_hedgehogs": 0, "triangles": 0}] * 3


def test_finished_game_returns_and_winners() -> None:
    # DECISIONS safaru-6: the highest score wins; a shared best score is a shared win
    state = new_state(3)
    state.totals = [10.0, 14.0, 14.0]
    state.finished = True
    assert state.winners() == [1, 2]


def test_target_match_plays_games_until_a_total_reaches_it() -> None:
    # DECISIONS safaru-6 option target and all-4: several games; the first to reach the target wins, or the
    # highest of those who reached it
    for seed in range(3):
        rng = random.Random(seed)
        state = new_state(2, target=60)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            if len(state.results) and not state.is_terminal():
                assert max(state.totals) < 60  # a game ended without reaching the target: another starts
        totals = [sum(g["scores"][s] for g in state.results) for s in range(2)]
        assert state.returns() == totals and max(totals) >= 60
        reached = [s for s in range(2) if totals[s] >= 60]
        assert state.winners() == [s for s in reached if totals[s] == max(totals[t] for t in reached)]


def test_target_winner_is_the_highest_of_those_who_reached_it() -> None:
    # seed: "si plusieurs y arrivent, c'est le joueur avec le plus de points qui gagne"
    state = new_state(3, target=100)
    state.totals = [104.0, 120.0, 90.0]
    state.finished = True
    assert state.winners() == [1]


def test_option_values() -> None:
    # DECISIONS safaru-6 (target), safaru-7 (renverse, the number of games, individual play at 4): defaults and
    # bad values
    game = ludotheque.load_game("safaru", players=2)
    assert game.options == {"renverse": False, "target": 0, "games": 1, "individual": False}
    assert ludotheque.load_game("safaru", players=3, renverse=True, target=100).options["target"] == 100
    assert ludotheque.load_game("safaru", players=3, renverse=True, games=3).options["games"] == 3
    assert ludotheque.load_game("safaru", players=4, renverse=True, individual=True).options["individual"] is True
    with pytest.raises(OptionError, match=r"games.*an integer in \[1, 100\]"):
        ludotheque.load_game("safaru", players=2, renverse=True, games=0)
    with pytest.raises(OptionError):
        ludotheque.load_game("safaru", players=2, target=-5)
    with pytest.raises(OptionError):
        ludotheque.load_game("safaru", players=2, renverse="maybe")
    with pytest.raises(OptionError):
        ludotheque.load_game("safaru", players=2, colours=3)


# -- safaru-7 -------------------------------------------------------------------------------------


def test_renverse_left_neighbour_picks_the_method_and_only_it_is_used() -> None:
    # DECISIONS safaru-7: when the card can catch by more than one method the player on the left picks it;
    # our reading: the catch then uses that one method only, the player choosing the cards
    state = dealt(2, [["B8", "R1", "R2", "R3"], ["G1", "G2", "K1", "K2"]], ["Y8", "G3", "G5", "K9"], renverse=True)
    play(state, "B8")
    assert state.current_players() == [1]
    assert legal_texts(state) == ["pick add", "pick 17", "pick pair"]
    with pytest.raises(NotYourTurnError):
        state.apply_action(state.legal_actions(1)[0], 0)
    play(state, "pick 17")
    assert state.current_players() == [0] and legal_texts(state) == ["+K9"]
    play(state, "+K9", "ok")
    assert caught(state, 0) == ["K9"] and state.current_players() == [1]
    assert state.log[-1]["picked_by"] == 1
    assert rules.names(state.table) == ["Y8", "G3", "G5", "B8"]  # the played card stays (no pairing)


def test_renverse_left_neighbour_is_the_next_seat() -> None:
    # DECISIONS safaru-7 and all-2: with 3 players seat 2's left neighbour is seat 0
    state = dealt(
        3,
        [["R2", "R1", "R3", "G2"], ["K7", "K2", "K1", "Y1"], ["B8", "R4", "R6", "Y2"]],
        ["Y8", "G3", "G5", "K9"],
        renverse=True,
    )
    play(state, "R2", "K7")  # R2 is released; K7 can add 2+5 or make 17 with 8+2: seat 2 picks
    assert state.current_players() == [2]
    play(state, "pick add", "+R2", "+G5", "ok")
    play(state, "B8")
    assert state.current_players() == [0]
    play(state, "pick pair", "=Y8")
    assert caught(state, 2) == ["Y8", "B8"]


def test_renverse_single_method_needs_no_pick() -> None:
    # DECISIONS safaru-7: with one method possible the player catches with it, no pick
    state = dealt(2, [["Y8", "R1", "R2", "R3"], ["G1", "G2", "K1", "K2"]], ["K9", "B1", "B2", "R4"], renverse=True)
    play(state, "Y8")
    assert state.current_players() == [0] and legal_texts(state) == ["+K9"]


def test_renverse_scoring_lowest_wins() -> None:
    # DECISIONS safaru-7: most cards +24, most hedgehogs +18, each triangle +1 (no baby malus); lowest wins
    caught_cards = [vec("B1", "Y2", "Y3"), vec("R5", "G0")]
    # seat 0: 3 cards -> 24, 2 hedgehogs -> 18, triangles 0+1+1 = 2; seat 1: triangles 1+1
    assert rules.side_scores(caught_cards, 2, True) == [44, 2]
    assert rules.side_scores([vec("Y2"), vec("Y3")], 2, True) == [12 + 9 + 1, 12 + 9 + 1]
    state = new_state(2, renverse=True)
    state.totals = [44.0, 2.0]
    state.finished = True
    assert state.winners() == [1]


# -- all-1 .. all-4 -------------------------------------------------------------------------------


def test_deals_are_chance_actions_uniform_over_the_cards_left() -> None:
    # DECISIONS all-1: the next card is a chance action, uniform over the cards left (a kind weighs its copies)
    state = new_state(2)
    outcomes = dict(state.chance_outcomes())
    assert len(outcomes) == 50
    assert outcomes[rules.LETTERS.index("B") * 10 + 7] == pytest.approx(2 / 60)
    assert outcomes[rules.LETTERS.index("B") * 10 + 9] == pytest.approx(1 / 60)
    state.apply_action(state.string_to_action("B7", CHANCE))
    assert dict(state.chance_outcomes())[37] == pytest.approx(1 / 59)


def test_seat_zero_starts() -> None:
    # DECISIONS all-2: seat 0 starts the first deal (the rotation is checked in the safaru-5 test above)
    state = dealt(2, [["R1", "R2", "R3", "R4"], ["G1", "G2", "K1", "K2"]], ["B9", "Y9", "G9", "K9"])
    assert state.current_players() == [0] and state.starter == 0


def test_views_show_caught_cards_to_everyone() -> None:
    # DECISIONS all-3: caught cards are laid face down, but everyone saw them caught (perfect recall)
    state = dealt(2, [["R5", "R1", "R2", "R3"], ["G1", "G2", "K1", "K2"]], ["G5", "K9", "Y8", "K6"])
    play(state, "R5", "=G5")
    for seat in (None, 0, 1):
        assert state.view(seat)["table"]["caught"][0] == ["R5", "G5"]
    assert "hand" not in state.view(None)["table"]
    assert state.view(1)["table"]["hand"] == ["G1", "G2", "K1", "K2"]


# -- safaru-7 options: the number of games, individual play at 4 -------------------------------------


def play_out(state: SafaruState, seed: int) -> SafaruState:
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def test_renverse_number_of_games_totals_added_lowest_wins() -> None:
    # DECISIONS safaru-7: "Les joueurs peuvent jouer un nombre précédemment convenu de tours. Le joueur ou l'équipe
    # avec le plus bas score gagne": the number of games is agreed before play, totals are added, the lowest wins
    for seed in range(2):
        state = play_out(new_state(3, renverse=True, games=3), seed)
        assert len(state.results) == 3
        totals = [sum(game["scores"][s] for game in state.results) for s in range(3)]
        assert state.returns() == totals
        assert state.winners() == [s for s in range(3) if totals[s] == min(totals)]
        assert state.view(None)["table"]["game_number"] == 3


def test_the_match_goes_on_after_a_game_until_the_agreed_number() -> None:
    # DECISIONS safaru-7: after each game but the last, a new game is dealt (all 60 cards again)
    state = new_state(2, renverse=True, games=2)
    rng = random.Random(5)
    while not state.results:
        state.apply_action(rng.choice(state.legal_actions()))
    assert not state.is_terminal() and state.is_chance_node()
    assert state.pile_size == 60 and sum(state.table) == 0 and not any(map(sum, state.caught))
    assert state.view(0)["table"]["game_number"] == 2


def test_default_is_one_game() -> None:
    # DECISIONS safaru-7 and all-4: one game unless agreed otherwise (safaru-6: the main game too)
    for renverse in (False, True):
        state = play_out(new_state(2, renverse=renverse), 1)
        assert len(state.results) == 1 and state.returns() == state.results[0]["scores"]


def test_main_game_over_several_games_highest_total_wins() -> None:
    # DECISIONS safaru-6 (several games) with the games option of safaru-7: totals added, the highest wins
    state = play_out(new_state(2, games=2), 3)
    assert len(state.results) == 2
    assert state.winners() == [s for s in range(2) if state.totals[s] == max(state.totals)]


def test_renverse_four_players_partners_by_default() -> None:
    # DECISIONS safaru-7: "A 4 joueurs on peut encore jouer en équipe, chaque joueur faisant équipe avec le joueur
    # en vis-à-vis": by default opposite seats pool their cards as in safaru-2
    game = ludotheque.load_game("safaru", players=4, renverse=True)
    assert game.teams() == [0, 1, 0, 1]
    caught_cards = [vec("Y1"), vec("R5"), vec("Y2", "R3"), vec()]
    # side 0 (seats 0, 2): 3 cards (+24), 2 hedgehogs (+18), triangles 0+1+1; side 1: triangles 1
    assert rules.seat_scores(caught_cards, 4, True) == [44, 1, 44, 1]
    assert game.new_initial_state().view(None)["table"]["partners"] == [[0, 2], [1, 3]]


def test_renverse_four_players_individual_each_seat_for_itself() -> None:
    # DECISIONS safaru-7: with the teams option off each seat plays for itself (option 'individual')
    game = ludotheque.load_game("safaru", players=4, renverse=True, individual=True)
    assert game.teams() == [0, 1, 2, 3]
    caught_cards = [vec("Y1"), vec("R5"), vec("Y2", "R3"), vec()]
    # seat 2: most cards (+24), hedgehogs tied with seat 0 (+9 each), triangles 2; seat 0: +9 + 0; seat 1: 1
    assert rules.seat_scores(caught_cards, 4, True, partners=False) == [9, 1, 24 + 9 + 2, 0]
    state = play_out(game.new_initial_state(), 2)
    assert state.view(None)["table"]["partners"] == []
    assert state.returns() == rules.seat_scores(state.caught, 4, True, partners=False)
    assert state.winners() == [s for s in range(4) if state.totals[s] == min(state.totals)]


@pytest.mark.parametrize(
    ("players", "options", "allowed"),
    [
        (2, {"renverse": True, "individual": True}, "'individual' is for 4 players, not 2"),
        (3, {"renverse": True, "individual": True}, "'individual' is for 4 players, not 3"),
        (4, {"individual": True}, "'individual' needs renverse=true"),
        (2, {"renverse": True, "games": 3, "target": 50}, "either a number of games .* or played to a target"),
        (3, {"games": 2, "target": 100}, "either a number of games"),
    ],
)
def test_option_combinations_that_make_no_sense_are_refused(
    players: int, options: dict[str, object], allowed: str
) -> None:
    # DECISIONS safaru-2 (the main game at 4 is always played by partners), safaru-7 (teams are a 4-player
    # option; the number of games is agreed before play) and safaru-6 (a target): the error names what is allowed
    with pytest.raises(OptionError, match=allowed):
        ludotheque.load_game("safaru", players=players, **options)


# -- score order ----------------------------------------------------------------------------------------------


def test_score_order_is_lower_in_renverse_only() -> None:
    # DECISIONS safaru-7: in renversé the lowest total wins; safaru-6: in Safarü the highest
    assert ludotheque.load_game("safaru", players=2).score_order() == "higher"
    assert ludotheque.load_game("safaru", players=4, target=100).score_order() == "higher"
    assert ludotheque.load_game("safaru", players=2, renverse=True).score_order() == "lower"
    assert ludotheque.load_game("safaru", players=4, renverse=True, individual=True, games=2).score_order() == "lower"
    assert ludotheque.load_game("safaru", players=3, renverse=True).score_sign() == -1.0


@pytest.mark.parametrize(
    "options",
    [{}, {"renverse": True}, {"renverse": True, "games": 2}, {"games": 2}, {"renverse": True, "individual": True}],
)
def test_winners_agree_with_the_declared_score_order(options: dict[str, object]) -> None:
    # DECISIONS safaru-6 / safaru-7: on finished games the winners hold the best return in the game's own order
    # (a renversé winner has the lowest return), which is what score_order() tells the tools
    players = 4 if options.get("individual") else 3
    game = ludotheque.load_game("safaru", players=players, **options)
    for seed in range(3):
        state = play_out(game.new_initial_state(), seed)
        returns = state.returns()
        signed = [value * game.score_sign() for value in returns]
        assert state.winners() == [s for s in range(players) if signed[s] == max(signed)]
        if options.get("renverse"):
            assert all(returns[w] == min(returns) for w in state.winners())


def test_renverse_winner_has_the_lowest_return() -> None:
    # DECISIONS safaru-7: a finished renversé game with distinct totals: the winner is the lowest
    state = new_state(3, renverse=True)
    state.totals = [30.0, 12.0, 51.0]
    state.finished = True
    assert state.winners() == [1] and state.returns()[1] == min(state.returns())
    assert state.game.score_order() == "lower"
