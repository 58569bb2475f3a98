"""Mü on a table: structured moves, the view schema, and what each seat saw (DECISIONS all-3, mu-1..9)."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from ludotheque.core import CHANCE, Game, sample_chance
from ludotheque.games import load_game
from ludotheque.games.mu import notation as nt
from ludotheque.games.mu.display import event_text
from ludotheque.games.mu.game import MuState
from ludotheque.table import Table
from ludotheque.testing import check_table, fuzz_games

from .mu_helpers import deal, new_state, play

GOLDEN = Path(__file__).with_name("golden_mu_3p.json")


def on_table(state: MuState) -> Table:
    """A table with events that went through ``state``'s history."""
    return replay(state.game, state.history())


def replay(game: Game, history: list[tuple[Any, int]]) -> Table:
    """``history`` applied on a table with events, chance through the table's own chance source."""
    chance = iter([action for actor, action in history if actor == CHANCE])
    table = Table(game, [None] * game.players, chance=lambda _state: next(chance), events=True)
    for actor, action in history:
        if actor == CHANCE:
            assert table.step() is not None
        else:
            table.submit(actor, action)
    return table


def last_events(table: Table, seat: int | None, count: int) -> list[dict[str, Any]]:
    return [{k: v for k, v in event.items() if k != "seq"} for event in table.events(seat)[-count:]]


# -- random games -----------------------------------------------------------------------------------


@pytest.mark.fuzz
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_views_moves_and_events_hold_on_random_games(players: int) -> None:
    # DECISIONS all-3; target 1 makes a match of one hand (mu-9), so that each game is short
    stats = check_table(load_game("mu", players=players, target=1), games=fuzz_games(1, 40), seed=players)
    assert stats.games and stats.determinizations


@pytest.mark.fuzz
@pytest.mark.parametrize("players", [3, 6])
def test_views_moves_and_events_hold_on_whole_matches(players: int) -> None:
    # DECISIONS mu-9, all-4: the default target, several hands (a minute per match: make fuzz only)
    games = fuzz_games(0, 3)
    if not games:
        pytest.skip("whole matches to 200 are checked by make fuzz")
    stats = check_table(load_game("mu", players=players), games=games, seed=10 + players)
    assert stats.games


def choose(state: MuState, rng: random.Random) -> int:
    """A random move that passes often, so that hands reach the tricks (uniform players wage bidding wars)."""
    seat = state.current_players()[0]
    legal = state.legal_actions(seat)
    for stop in (nt.PASS, nt.DONE):
        if stop in legal and rng.random() < 0.6:
            return stop
    return rng.choice(legal)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_events_of_played_hands_do_not_depend_on_hidden_cards(players: int) -> None:
    # DECISIONS all-3: a determinization for a seat (other hands redrawn) replays to the same events for that seat
    # and for a spectator, through the auction, the trumps, the tricks and the hand's score
    game = load_game("mu", players=players, target=40)
    rng = random.Random(players)
    compared = tricks = hands = 0
    for _ in range(fuzz_games(3, 60)):
        table = Table(game, [None] * players, chance=lambda state: sample_chance(state, rng), events=True)
        while not table.is_over():
            state = table.state
            if state.is_chance_node():
                table.step()
            else:
                table.submit(state.current_players()[0], choose(state, rng))
            if table.seq % 11 or table.is_over():
                continue
            seat = rng.randrange(players)
            twin = table.state.resample(seat, rng)
            other = replay(game, twin.history())
            assert other.state.view(seat) == table.state.view(seat)
            assert other.events(seat) == table.events(seat)
            assert other.events(None) == table.events(None)
            compared += 1
        tricks += sum(1 for event in table.events(None) if event["type"] == "trick")
        hands += sum(1 for event in table.events(None) if event["type"] == "hand_scored")
    print(f"mu {players}p: {hands} hands scored, {tricks} tricks, {compared} determinizations compared")
    assert compared and tricks and hands > 3


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_fast_legality_agrees_with_the_list_of_legal_moves(players: int) -> None:
    # the parser checks one action's legality (_is_legal, _is_chance_outcome) instead of listing the moves
    rng = random.Random(players)
    state = new_state(players, target=30)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = {action for action, _ in state.chance_outcomes()}
            assert {a for a in range(nt.NUM_CHANCE) if state._is_chance_outcome(a)} == outcomes
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_players()[0]
        legal = state.legal_actions(seat)
        assert [a for a in range(nt.NUM_ACTIONS) if state._is_legal(a, seat)] == legal
        state.apply_action(choose(state, rng), seat)


def test_parsing_a_move_does_not_list_the_legal_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    state = deal(new_state(4), {0: ["R5", "R6"], 1: ["G1", "G2"]})
    play(state, "0:R5, 1:G1, 1:G2, 2:pass, 3:pass, 0:pass, 1:pass, 0:trump R, 1:trump G, 1:partner 2")

    def no_listing(*_args: object) -> list[int]:
        raise AssertionError("the whole list of legal moves was built")

    monkeypatch.setattr(MuState, "_legal_actions", no_listing)
    monkeypatch.setattr(MuState, "_chance_outcomes", no_listing)
    assert state.string_to_action("G2", 1) == nt.FROM_TABLE + 22  # from the table: the hand holds no G2
    state.apply_action(nt.FROM_TABLE + 22, 1)
    fresh = new_state(4)
    assert fresh.string_to_action("R7", CHANCE) == 7


# -- structured moves -------------------------------------------------------------------------------


def test_moves_have_a_structured_form() -> None:
    state = deal(new_state(4), {0: ["R5", "G6", "R1"], 1: ["B8", "K2"]})
    assert state.action_to_json(nt.FROM_HAND + 5, 0) == {"type": "lay", "card": "R5"}
    assert state.action_to_json(nt.PASS, 0) == {"type": "pass"}
    assert state.action_to_json(nt.DONE, 0) == {"type": "done"}
    play(state, "0:R5, 1:B8, 1:K2, 2:pass, 3:pass, 0:G6, 0:R1, 1:pass, 2:pass, 3:pass, 0:pass")
    assert state.action_to_json(nt.TRUMP_COLOUR + 3, 1) == {"type": "trump", "colour": "B"}
    assert state.action_to_json(nt.TRUMP_NUMBER + 8, 1) == {"type": "trump", "number": 8}
    assert state.action_to_json(nt.NO_TRUMP_ACTION, 0) == {"type": "no_trump"}
    play(state, "1:trump B, 0:trump 5")
    assert state.action_to_json(nt.PARTNER + 3, 0) == {"type": "partner", "seat": 3}
    play(state, "0:partner 3")
    assert state.action_to_json(nt.FROM_TABLE + 26, 0) == {"type": "play", "card": "G6", "from": "table"}
    assert state.action_to_json(nt.FROM_HAND + 7, 0) == {"type": "play", "card": "R7", "from": "hand"}


def test_chance_moves_have_a_structured_form() -> None:
    # DECISIONS mu-1, all-1: colours removed (3 players) and cards dealt, starting left of the dealer
    state = new_state(3)
    assert state.action_to_json(nt.REMOVE + 2, CHANCE) == {"type": "remove", "colour": "G"}
    table = Table(state.game, [None] * 3)
    for action in (nt.REMOVE + 1, nt.REMOVE + 4, nt.DEAL + 37):
        table._apply(CHANCE, action)
    assert [entry.move for entry in table.log] == [
        {"type": "remove", "colour": "Y"},
        {"type": "remove", "colour": "K"},
        {"type": "deal", "card": "B7", "seat": 1},
    ]
    assert table.state.action_to_json(nt.DEAL + 5, CHANCE) == {"type": "deal", "card": "R5", "seat": 2}


def test_legal_moves_on_a_table_carry_notation_and_structure() -> None:
    state = deal(new_state(4), {0: ["R5"]})
    table = on_table(state)
    moves = {move["notation"]: move for move in table.legal_moves(0)}
    assert moves["R5"] == {"id": 5, "notation": "R5", "move": {"type": "lay", "card": "R5"}}
    assert moves["pass"]["move"] == {"type": "pass"}


# -- events -----------------------------------------------------------------------------------------


def test_a_dealt_card_is_seen_by_its_receiver_only() -> None:
    # DECISIONS all-3, mu-1: the dealer is seat 0, the first card goes to seat 1
    table = Table(load_game("mu", players=4), [None] * 4, events=True)
    table._apply(CHANCE, nt.DEAL + 27)
    new_hand = {"seq": 1, "type": "new_hand", "hand": 1, "dealer": 0}
    assert table.events(1) == [new_hand, {"seq": 1, "type": "deal", "seat": 1, "card": "G7"}]
    assert table.events(0) == [new_hand, {"seq": 1, "type": "deal", "seat": 1}]
    assert table.events(None) == table.events(2) == table.events(0)
    assert event_text(table.events(1)[1]) == "seat 1 is dealt G7"
    assert event_text(table.events(0)[1]) == "seat 1 is dealt a card"
    assert event_text(new_hand) == "hand 1: seat 0 deals"


def test_three_players_see_the_removed_colours() -> None:
    # DECISIONS mu-1: the two colours removed at random are public
    table = Table(load_game("mu", players=3), [None] * 3, events=True)
    table._apply(CHANCE, nt.REMOVE + 0)
    assert table.events(2)[-1] == {"seq": 1, "type": "remove", "colour": "R"}
    assert event_text(table.events(None)[-1]) == "the red cards are out of play"


def test_auction_moves_are_public_and_its_end_names_chief_and_vice() -> None:
    # DECISIONS mu-2 (cards laid face up), mu-4 (chief 0 with 3 cards, vice 1 with 2)
    state = deal(new_state(4), {0: ["R5", "G6", "R1"], 1: ["B8", "K2"]})
    play(state, "0:R5, 1:B8, 1:K2, 2:pass, 3:pass, 0:G6, 0:R1, 1:pass, 2:pass, 3:pass, 0:pass")
    table = on_table(state)
    for reader in (0, 2, None):
        auction = [event for event in table.events(reader) if event["type"] in ("lay", "done", "pass")]
        assert [{k: v for k, v in e.items() if k != "seq"} for e in auction[:4]] == [
            {"type": "lay", "seat": 0, "card": "R5", "bid": 1},
            {"type": "lay", "seat": 1, "card": "B8", "bid": 1},
            {"type": "lay", "seat": 1, "card": "K2", "bid": 2},
            {"type": "pass", "seat": 2},
        ]
        assert last_events(table, reader, 2) == [
            {"type": "pass", "seat": 0},
            {"type": "auction_end", "bids": [3, 2, 0, 0], "result": "chief", "chief": 0, "vice": 1, "contract": 34},
        ]
    assert event_text(last_events(table, None, 1)[0]) == (
        "the auction ends (bids 3 2 0 0): chief seat 0, vice seat 1; the team needs 34 triangles"
    )
    assert event_text({"type": "lay", "seat": 1, "card": "K2", "bid": 2}) == "seat 1 lays K2 (bid 2)"


def test_trumps_partner_plays_and_tricks_are_public() -> None:
    # DECISIONS mu-5 (the vice names first, then the chief, then the partner), mu-7 (each trick and its winner)
    state = deal(new_state(4), {0: ["R5", "G6", "R1", "R9"], 1: ["B8", "K2"], 2: ["R0"], 3: ["R2"]})
    play(state, "0:R5, 1:B8, 1:K2, 2:pass, 3:pass, 0:G6, 0:R1, 1:pass, 2:pass, 3:pass, 0:pass")
    play(state, "1:trump B, 0:trump R, 0:partner 3, 0:R9, 1:B8*, 2:R0, 3:R2")
    table = on_table(state)
    expected = [
        {"type": "trump", "seat": 1, "role": "vice", "colour": "B"},
        {"type": "trump", "seat": 0, "role": "chief", "colour": "R"},
        {"type": "partner", "seat": 0, "partner": 3},
        {"type": "play", "seat": 0, "card": "R9", "from": "hand"},
        {"type": "play", "seat": 1, "card": "B8", "from": "table"},
        {"type": "play", "seat": 2, "card": "R0", "from": "hand"},
        {"type": "play", "seat": 3, "card": "R2", "from": "hand"},
        {
            "type": "trick",
            "number": 1,
            "leader": 0,
            "cards": [
                {"seat": 0, "card": "R9", "from": "hand"},
                {"seat": 1, "card": "B8", "from": "table"},
                {"seat": 2, "card": "R0", "from": "hand"},
                {"seat": 3, "card": "R2", "from": "hand"},
            ],
            "winner": 0,
            "triangles": 3,
        },
    ]
    for reader in (0, 1, None):
        assert last_events(table, reader, len(expected)) == expected
    texts = [event_text(event) for event in expected]
    assert texts[0] == "the vice (seat 1) names blue as trump"
    assert texts[4] == "seat 1 plays B8 from the table"
    assert texts[-1] == "trick 1 (0:R9, 1:B8, 2:R0, 3:R2) goes to seat 0: 3 triangles"
    assert event_text({"type": "trump", "seat": 0, "role": "chief", "number": 7}) == (
        "the chief (seat 0) names the 7s as trump"
    )
    assert event_text({"type": "no_trump", "seat": 0, "role": "chief"}) == "the chief (seat 0) names no trump"


def test_egalite_event_names_the_tie_maker() -> None:
    # DECISIONS mu-3: bids 2, 2, 1, 0; seat 0 made the tie, then seat 2 laid one card below the top
    state = deal(new_state(4), {0: ["R5", "R6"], 1: ["G1", "G2", "G3"], 2: ["B1"]})
    play(state, "0:R5, 1:G1, 1:G2, 2:pass, 3:pass, 0:R6, 0:done, 1:pass, 2:B1, 2:done, 3:pass, 0:pass, 1:pass, 2:pass")
    table = on_table(state)
    scored = {"type": "hand_scored", "hand": 1, "dealer": 0, "bids": [2, 2, 1, 0], "result": "egalite",
              "tied": [0, 1], "tie_maker": 0, "deltas": [-20, 10, 0, 0], "scores": [-20, 10, 0, 0]}
    end = {"type": "auction_end", "bids": [2, 2, 1, 0], "result": "egalite", "chief": None, "vice": None,
           "contract": None}
    for reader in (0, 3, None):
        assert last_events(table, reader, 2) == [end, scored]
    assert event_text(scored) == (
        "hand 1 scored: égalité between seat 0, seat 1 (seat 0 made the tie and pays 10 per card); "
        "points -20 +10 +0 +0, totals -20 10 0 0"
    )


def test_nobody_bids_the_auction_ends_in_a_redeal() -> None:
    # DECISIONS mu-2: nothing is scored, the cards are dealt again
    state = deal(new_state(3), {})
    play(state, "0:pass, 1:pass, 2:pass")
    table = on_table(state)
    assert last_events(table, None, 1) == [
        {"type": "auction_end", "bids": [0, 0, 0], "result": "redeal", "chief": None, "vice": None, "contract": None}
    ]
    assert not any(event["type"] == "hand_scored" for event in table.events(0))


def test_a_made_contract_is_scored_with_its_bonus() -> None:
    # DECISIONS mu-8: 3 players, seat 0 holds every red card and names red: it wins all 12 tricks, 36 triangles
    # against a contract of 10 + 2*1 = 12, made with a colour trump: +10*1
    state = deal(new_state(3, target=100), {0: [f"R{d}" for d in (0, 1, 1, 2, 3, 4, 5, 6, 7, 7, 8, 9)]})
    play(state, "0:R9, 1:pass, 2:pass, 0:pass, 0:trump R")
    while state.log == []:
        seat = state.current_players()[0]
        state.apply_action(state.legal_actions(seat)[0], seat)
    table = on_table(state)
    scored = [event for event in table.events(2) if event["type"] == "hand_scored"][-1]
    assert {k: v for k, v in scored.items() if k != "seq"} == {
        "type": "hand_scored", "hand": 1, "dealer": 0, "bids": [1, 0, 0], "result": "made", "chief": 0,
        "vice": None, "partner": None, "chief_trump": "R", "vice_trump": None, "bid": 1, "contract": 12,
        "triangles": [36, 0, 0], "team_triangles": 36, "bonus": 10, "k": None, "chief_loss": None,
        "opponent_gain": None, "deltas": [46, 0, 0], "scores": [46, 0, 0],
    }
    assert event_text(scored) == (
        "hand 1 scored: seat 0 took 36 triangles for a contract of 12 (bid 1), made; +10 each; "
        "triangles 36 0 0; points +46 +0 +0, totals 46 0 0"
    )
    assert not table.is_over() and table.events(None)[-1]["type"] == "hand_scored"


def test_a_missed_contract_gives_the_rules_breakdown_and_the_match_end() -> None:
    # DECISIONS mu-8, mu-9: the golden 3-player hand (see test_mu_protocol): chief 1 bid 12, contract 34, team 19;
    # 19 reaches the contract of a bid of 4 (18) but not 5 (20), so k = 4: the chief loses 10*(12-4) = 80,
    # each opponent gains 5*8 = 40.  Target 1: the match ends, seat 0 wins.
    table = Table.restore(json.loads(GOLDEN.read_text()), events=True)
    scored, end = last_events(table, 0, 2)
    assert scored["result"] == "missed" and (scored["chief"], scored["bid"], scored["contract"]) == (1, 12, 34)
    assert scored["triangles"] == [9, 19, 8] and scored["team_triangles"] == 19 and scored["bonus"] is None
    assert (scored["k"], scored["chief_loss"], scored["opponent_gain"]) == (4, 80, 40)
    assert scored["deltas"] == [49, -61, 48] == scored["scores"]
    assert end == {"type": "match_end", "returns": [49.0, -61.0, 48.0], "winners": [0]}
    assert last_events(table, None, 2) == last_events(table, 2, 2) == [scored, end]
    assert "k = 4: the chief loses 80, each opponent gains 40" in event_text(scored)
    assert event_text(end) == "the match is over (totals 49 -61 48): seat 0 won"


def test_higher_totals_win() -> None:
    # DECISIONS mu-9: the highest total wins
    assert load_game("mu", players=4).score_order() == "higher"
    assert load_game("mu", players=3, target=50).score_sign() == 1.0


def test_the_documented_example() -> None:
    # docs/games/mu.md "Annotated example": DECISIONS mu-2, mu-4, mu-5, mu-6, mu-7 and the events a seat reads
    hands = {
        0: "R4 R7 Y0 Y4 Y6 Y8 G1 G2 G7 G9 B0 K1 K7 K8 K9",
        1: "R1 R1 R2 R6 R7 R8 R9 Y2 Y3 Y7 G4 G5 B2 B6 B8",
        2: "R5 Y1 Y1 Y5 G0 G1 G6 B1 B3 B4 B5 K0 K1 K2 K6",
        3: "R0 R3 Y7 Y9 G3 G7 G8 B1 B7 B7 B9 K3 K4 K5 K7",
    }
    state = deal(new_state(4, target=1), {seat: cards.split() for seat, cards in hands.items()})
    play(state, "0:pass, 1:R1, 2:pass, 3:pass, 0:pass, 1:Y2, 2:pass, 3:Y7, 3:done, 0:pass, 1:pass, 2:pass, 3:pass")
    play(state, "3:trump 7, 1:trump R, 1:partner 0, 1:R7, 2:R5, 3:R0, 0:R7, 1:R9, 2:Y1, 3:R3, 0:G7")
    table = on_table(state)
    events = table.events(0)
    assert events[60] == {"seq": 60, "type": "deal", "seat": 0, "card": "K9"}  # events[0]: the new hand
    assert events[59] == {"seq": 59, "type": "deal", "seat": 3}
    assert events[74] == {"seq": 73, "type": "auction_end", "bids": [0, 2, 0, 1], "result": "chief", "chief": 1,
                          "vice": 3, "contract": 32}
    assert [event_text(event) for event in events[72:]] == [
        "seat 2 passes",
        "seat 3 passes",
        "the auction ends (bids 0 2 0 1): chief seat 1, vice seat 3; the team needs 32 triangles",
        "the vice (seat 3) names the 7s as trump",
        "the chief (seat 1) names red as trump",
        "the chief (seat 1) picks seat 0 as partner",
        "seat 1 plays R7",
        "seat 2 plays R5",
        "seat 3 plays R0",
        "seat 0 plays R7",
        "trick 1 (1:R7, 2:R5, 3:R0, 0:R7) goes to seat 1: 6 triangles",
        "seat 1 plays R9",
        "seat 2 plays Y1",
        "seat 3 plays R3",
        "seat 0 plays G7",
        "trick 2 (1:R9, 2:Y1, 3:R3, 0:G7) goes to seat 1: 3 triangles",
    ]
    assert state.won == [0, 9, 0, 0] and state.current_players() == [1]
