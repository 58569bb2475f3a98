"""MICE on a table: structured moves, the view schema, what each seat saw, and the score order (DECISIONS all-3,
mice-1..8)."""

from __future__ import annotations

import random
from typing import Any

import jsonschema
import pytest

from ludotheque.core import CHANCE, NotationError
from ludotheque.games import load_game
from ludotheque.games.mice import notation, rules
from ludotheque.games.mice.display import event_text
from ludotheque.games.mice.game import MiceState
from ludotheque.games.mice.view import TABLE_SCHEMA
from ludotheque.table import Table
from ludotheque.testing import check_table, fuzz_games

# A random multiplayer game is long (250 to 2,000 actions) and every view of every step is checked against the
# schema: these seeds give short first games, so that the file runs in a few seconds; ``make fuzz`` plays more.
CONFIGS = [(1, "normal", 1), (1, "advanced", 2), (1, "hardest", 3), (2, "normal", 8), (3, "normal", 4),
           (4, "normal", 4), (5, "normal", 25)]


@pytest.mark.fuzz
@pytest.mark.parametrize(("players", "level", "seed"), CONFIGS)
def test_views_moves_and_events_hold_on_random_games(players: int, level: str, seed: int) -> None:
    game = load_game("mice", players=players, level=level)
    games = fuzz_games(2, 60) if players == 1 else fuzz_games(1, 12)
    stats = check_table(game, games=games, seed=seed, compare_every=5 if players == 1 else 25)
    assert stats.games == games and stats.determinizations


def new_table(players: int, **options: str) -> Table:
    return Table(load_game("mice", players=players, **options), [None] * players, events=True)


def state_of(table: Table) -> MiceState:
    assert isinstance(table.state, MiceState)
    return table.state


def play(table: Table, *moves: str) -> None:
    """Apply moves in notation, each by whoever acts (chance included)."""
    for move in moves:
        state = table.state
        if state.is_chance_node():
            table._apply(CHANCE, state.string_to_action(move, CHANCE))
        else:
            table.submit(state.current_players()[0], move)


def seen(table: Table, since: int) -> list[dict[str, Any]]:
    """The events since action ``since``, the same for every seat and the spectator (mice-1), without ``seq``."""
    spectator = table.events(None, since=since)
    for seat in range(table.game.players):
        assert table.events(seat, since=since) == spectator
    return [{k: v for k, v in event.items() if k != "seq"} for event in spectator]


# -- events -------------------------------------------------------------------------------------------


def test_worked_example_events() -> None:
    # DECISIONS mice-1, mice-4, mice-6: the seed's example as every seat saw it: every die rolled, the nut B gives
    # A from the supply, the nut B returns to change the 6 into a 5, and B's card
    table = new_table(3)
    play(table, "R1", "R1", "Y1", "Y1", "Y1", "use R+Y1+Y2+Y3", "cage 5")
    play(table, "R1", "R1", "Y1", "Y1", "Y2", "use R+Y1+Y2", "cage 4", "pay", "cage 2", "pass")
    play(table, "R1", "R1", "Y1", "Y1", "Y1", "use R+Y1+Y2+Y3", "cage 5")
    start = table.seq
    play(table, "R5", "R3", "Y6", "Y3", "Y2", "use R+Y2", "cage 11", "pay", "Y1-1", "cage 7")
    assert seen(table, start) == [
        {"type": "turn", "seat": 0, "turn": 4, "red_dice": 2, "yellow_dice": 3},
        {"type": "roll", "seat": 0, "die": "R1", "value": 5},
        {"type": "roll", "seat": 0, "die": "R2", "value": 3},
        {"type": "roll", "seat": 0, "die": "Y1", "value": 6},
        {"type": "roll", "seat": 0, "die": "Y2", "value": 3},
        {"type": "roll", "seat": 0, "die": "Y3", "value": 2},
        {"type": "use", "seat": 0, "dice": ["R1", "R2", "Y2"], "values": [5, 3, 3], "sum": 11},
        {"type": "cage", "seat": 0, "card": 11},
        {"type": "pool", "seat": 0, "dice": ["Y1", "Y3"], "values": [6, 2], "sum": 8, "failed": False},
        {"type": "pay", "seat": 1, "dice": ["Y1", "Y3"], "values": [6, 2], "sum": 8,
         "nut": {"from": "supply", "to": 0}},
        {"type": "adjust", "seat": 1, "die": "Y1", "from": 6, "to": 5, "sum": 7, "nut": {"from": 1, "to": "supply"}},
        {"type": "cage", "seat": 1, "card": 7},
    ]
    texts = [event_text(e) for e in table.events(2, since=start)]
    assert texts[0] == "turn 4 for seat 0: 2 red and 3 yellow dice"
    assert texts[1] == "seat 0 rolls R1: 5"
    assert texts[6] == "seat 0 uses R1+R2+Y2 (5+3+3 = 11)"
    assert texts[8] == "the dice seat 0 left: Y1+Y3 (6+2 = 8)"
    assert texts[9] == "seat 1 pays to use Y1+Y3 (6+2 = 8): a nut from the supply to seat 0"
    assert texts[10] == "seat 1 pays a nut to the supply: Y1 6 -> 5 (sum 7)"


def test_a_seat_sees_every_passive_turn_since_it_last_acted() -> None:
    # DECISIONS mice-6: after the active seat's own move come the passive turns, in order from its left; the
    # active seat's stream shows each of them before its next decision
    table = new_table(4)
    state = state_of(table)
    state.supply, state.nuts[3] = 11, 1  # seat 3 owns a nut to change a die with
    play(table, "R1", "R1", "Y1", "Y1", "Y2", "use R+Y1+Y2", "cage 4")
    mine = table.seq
    play(table, "pass", "pay", "cage 2", "pay", "Y3+1", "cage 3", "R6")
    assert [(e["type"], e.get("seat")) for e in seen(table, mine)] == [
        ("pass", 1), ("pay", 2), ("cage", 2), ("pay", 3), ("adjust", 3), ("cage", 3), ("turn", 1), ("roll", 1),
    ]
    pays = [e for e in seen(table, mine) if e["type"] == "pay"]
    assert [p["nut"] for p in pays] == [{"from": "supply", "to": 0}, {"from": "supply", "to": 0}]
    adjust = seen(table, mine)[4]
    assert (adjust["die"], adjust["from"], adjust["to"], adjust["sum"]) == ("Y3", 2, 3, 3)
    assert adjust["nut"] == {"from": 3, "to": "supply"}


def test_forced_failure_and_seats_that_cannot_use_the_dice() -> None:
    # DECISIONS mice-5: a roll no sum can use fails by itself; with nothing to take back or turn up nothing
    # happens, and the others may use the sum of all dice.  DECISIONS mice-6: with the supply empty, a seat
    # without a nut cannot use the dice, and one with nuts pays the active seat from its own reserve
    table = new_table(3)
    state = state_of(table)
    state.hands[0] = 1 << 1  # only card 1: two red dice never make 1
    state.supply, state.nuts = 0, [0, 0, 9]
    start = table.seq
    play(table, "R1", "R1", "Y1", "Y1", "Y1")
    assert seen(table, start)[-5:] == [
        {"type": "roll", "seat": 0, "die": "Y3", "value": 1},
        {"type": "fail", "seat": 0, "forced": True},
        {"type": "nothing_to_undo", "seat": 0},
        {"type": "pool", "seat": 0, "dice": ["R1", "R2", "Y1", "Y2", "Y3"], "values": [1, 1, 1, 1, 1], "sum": 5,
         "failed": True},
        {"type": "cannot_use", "seat": 1, "reason": "no_nut"},
    ]
    now = table.seq
    play(table, "pay", "cage 5")
    assert seen(table, now) == [
        {"type": "pay", "seat": 2, "dice": ["R1", "R2", "Y1", "Y2", "Y3"], "values": [1, 1, 1, 1, 1], "sum": 5,
         "nut": {"from": 2, "to": 0}},
        {"type": "cage", "seat": 2, "card": 5},
    ]
    texts = [event_text(e) for e in table.events(None, since=start)]
    assert "seat 0 fails: no sum reaches a card" in texts
    assert "seat 0 has nothing to take back or turn up" in texts
    assert "the dice seat 0 left: all of them, R1+R2+Y1+Y2+Y3 (1+1+1+1+1 = 5)" in texts
    assert "seat 1 cannot use them: no nut to pay with" in texts
    assert event_text(table.events(None, since=now)[0]) == (
        "seat 2 pays to use R1+R2+Y1+Y2+Y3 (1+1+1+1+1 = 5): a nut from its own reserve to seat 0")


def test_a_seat_without_the_card_of_the_sum_is_skipped() -> None:
    # DECISIONS mice-6: the passive seat uses the whole sum; without that card (and no nut to change it) it cannot
    table = new_table(2)
    state_of(table).hands[1] = rules.FULL_HAND & ~(1 << 1)
    play(table, "R1", "R1", "Y1", "Y1", "Y1", "use R+Y1+Y2", "cage 4")
    assert seen(table, table.seq - 1)[-1] == {"type": "cannot_use", "seat": 1, "reason": "no_card"}
    assert event_text(table.events(1)[-1]) == "seat 1 cannot use them: no card of that sum within reach"


def test_failed_roll_take_back_and_unflip_events() -> None:
    # DECISIONS mice-5: the card taken back and the dice card turned up are public
    table = new_table(2)
    play(table, "R6", "R6", "Y1", "Y1", "Y1", "use R+Y1+Y2+Y3", "flip 15")
    play(table, "R1", "R1", "Y1", "Y1", "Y1", "use R+Y1+Y2+Y3", "cage 5")
    play(table, "R3", "Y1", "Y1", "Y3", "use R+Y1", "cage 4", "pay", "cage 4")
    play(table, "R1", "R1", "Y1", "Y1", "Y2", "use R+Y1+Y2+Y3", "cage 6")
    play(table, "R2", "Y2", "Y2", "Y2", "fail")
    assert seen(table, table.seq - 1) == [{"type": "fail", "seat": 0, "forced": False}]
    play(table, "take back 4")
    assert seen(table, table.seq - 1)[0] == {"type": "take_back", "seat": 0, "card": 4}
    assert event_text(seen(table, table.seq - 1)[0]) == "seat 0 takes 4 back from its cage"
    other = new_table(2)
    play(other, "R6", "R6", "Y1", "Y1", "Y1", "use R+Y1+Y2+Y3", "flip 15")
    play(other, "R1", "R1", "Y1", "Y1", "Y1", "use R+Y1+Y2+Y3", "cage 5")
    play(other, "R1", "Y1", "Y1", "Y1", "fail", "unflip 15")
    assert seen(other, other.seq - 1)[0] == {"type": "unflip", "seat": 0, "card": 15}
    assert event_text(seen(other, other.seq - 1)[0]) == "seat 0 turns dice card 15 face up again"


def test_the_game_ends_with_the_six_and_its_count() -> None:
    # DECISIONS mice-7: flipping the 6 ends the game at once; the count and the tie-breaks are shown
    table = new_table(2)
    state = state_of(table)
    state.face_up[0] = rules.SIX_BIT  # one red and one yellow die left
    state.rolled = rules.slots_rolled(rules.SIX_BIT)
    play(table, "R3", "Y3", "use R+Y1", "flip 6")
    events = seen(table, 0)
    assert events[0] == {"type": "turn", "seat": 0, "turn": 1, "red_dice": 1, "yellow_dice": 1}
    assert events[-2:] == [
        {"type": "flip", "seat": 0, "card": 6},
        {"type": "game_over", "totals": [171, 171], "face_down": [4, 0], "nuts": [0, 0], "returns": [171.0, 171.0],
         "winners": [0]},
    ]
    assert event_text(events[-1]) == "game over: hand totals 171, 171; winner(s): seat 0"


def test_solo_events_second_card_bonus_nut_and_rating() -> None:
    # DECISIONS mice-8: a nut to the middle buys a second card with the yellow dice left; unused yellow dice that
    # make 15 or more bring a nut from the middle; a failed roll flips a dice card; the rating ends the game
    table = new_table(1, level="advanced")
    play(table, "R1", "R2", "Y5", "Y5", "Y5", "use R", "cage 3")
    assert seen(table, table.seq - 1)[-1] == {"type": "pool", "seat": 0, "dice": ["Y1", "Y2", "Y3"],
                                             "values": [5, 5, 5], "sum": 15, "failed": False}
    play(table, "pass")
    assert seen(table, table.seq - 1) == [
        {"type": "pass", "seat": 0},
        {"type": "bonus_nut", "seat": 0, "sum": 15, "nut": {"from": "middle", "to": 0}},
    ]
    assert event_text(seen(table, table.seq - 1)[1]) == (
        "seat 0 takes a nut from the middle (the unused yellow dice make 15)")
    play(table, "R3", "R3", "Y4", "Y4", "Y1", "use R", "cage 6", "pay")
    assert seen(table, table.seq - 1) == [
        {"type": "pay", "seat": 0, "dice": ["Y1", "Y2", "Y3"], "values": [4, 4, 1], "sum": 9,
         "nut": {"from": 0, "to": "middle"}},
    ]
    assert event_text(seen(table, table.seq - 1)[0]) == (
        "seat 0 pays a nut to the middle for a second card with Y1+Y2+Y3 (4+4+1 = 9)")
    play(table, "Y1+1")
    assert seen(table, table.seq - 1)[0]["nut"] == {"from": 0, "to": "middle"}
    play(table, "Y1-1", "cage 9", "R1", "R2", "Y5", "Y5", "Y5", "fail", "flip 12")
    assert seen(table, table.seq - 1) == [{"type": "flip", "seat": 0, "card": 12}]
    state = state_of(table)
    state.hands[0] = 1 << 12
    play(table, "R6", "R6", "Y1", "Y1", "use R", "cage 12")
    assert seen(table, table.seq - 1)[-1] == {"type": "game_over", "cards_left": 0, "face_up": 3,
                                             "rating": "Formidable.", "returns": [5.0], "winners": [0]}
    assert event_text(seen(table, table.seq - 1)[-1]) == (
        "game over: 0 card(s) left, 3 dice card(s) face up: Formidable.")


def test_every_event_has_a_line_of_text() -> None:
    game = load_game("mice", players=3)
    table = Table(game, [game.heuristic_bot() for _ in range(3)], chance_rng=random.Random(3), events=True)
    table.play_out()
    kinds = set()
    for event in table.events(None):
        assert event_text(event)
        kinds.add(event["type"])
    assert {"turn", "roll", "use", "cage", "pool", "pay", "game_over"} <= kinds
    with pytest.raises(ValueError, match="no event"):
        event_text({"type": "nope"})


# -- structured moves ------------------------------------------------------------------------------------


def test_every_action_has_a_structured_form_in_the_schema() -> None:
    validator = jsonschema.Draft202012Validator(notation.MOVE_SCHEMA)
    for action in range(notation.NUM_ACTIONS):
        validator.validate(notation.to_json(action, cage_top=7))
        validator.validate(notation.to_json(action))
    for face in range(notation.NUM_CHANCE):
        validator.validate(notation.to_json(face, die="Y3"))
    with pytest.raises(ValueError):
        notation.to_json(notation.NUM_ACTIONS)
    with pytest.raises(ValueError):
        notation.to_json(6, die="R1")


def test_structured_moves_by_example() -> None:
    assert notation.to_json(notation.USE + 0b101) == {"type": "use", "yellow": ["Y1", "Y3"]}
    assert notation.to_json(notation.USE) == {"type": "use", "yellow": []}
    assert notation.to_json(notation.FAIL) == {"type": "fail"}
    assert notation.to_json(notation.ADJUST + 3 * 2 + 1) == {"type": "adjust", "die": "Y2", "change": -1}
    assert notation.to_json(notation.ADJUST) == {"type": "adjust", "die": "R1", "change": 1}
    assert notation.to_json(notation.CAGE + 10) == {"type": "cage", "card": 11}
    assert notation.to_json(notation.FLIP + 1) == {"type": "flip", "card": 9}
    assert notation.to_json(notation.TAKE_BACK, cage_top=7) == {"type": "take_back", "card": 7}
    assert notation.to_json(notation.UNFLIP + 2) == {"type": "unflip", "card": 12}
    assert notation.to_json(notation.PASS) == {"type": "pass"}
    assert notation.to_json(notation.PAY) == {"type": "pay"}


def test_a_table_gives_moves_with_their_structured_form() -> None:
    # DECISIONS mice-2: after the 15 is flipped, the second die rolled is already a yellow one
    table = new_table(2)
    play(table, "R6", "R6", "Y1", "Y1", "Y1")
    assert table.log[0].move == {"type": "roll", "die": "R1", "value": 6}
    assert table.log[2].move == {"type": "roll", "die": "Y1", "value": 1}
    assert table.legal_moves(0)[-1] == {"id": notation.FAIL, "notation": "fail", "move": {"type": "fail"}}
    play(table, "use R+Y1+Y2+Y3")
    assert [m["move"] for m in table.legal_moves(0)] == [{"type": "cage", "card": 15}, {"type": "flip", "card": 15}]
    play(table, "flip 15", "R1", "R1", "Y1", "Y1", "Y1", "use R", "cage 2", "pass", "R2")
    assert table.state.action_to_json(2, CHANCE) == {"type": "roll", "die": "Y1", "value": 3}
    play(table, "Y3", "Y2", "Y1", "fail")
    assert table.legal_moves(0) == [
        {"id": notation.UNFLIP + 3, "notation": "unflip 15", "move": {"type": "unflip", "card": 15}}]


def test_take_back_names_the_card_in_both_forms() -> None:
    # DECISIONS mice-5: the card taken back is the top of the cage
    table = new_table(2)
    play(table, "R1", "R1", "Y1", "Y1", "Y1", "use R+Y1+Y2+Y3", "cage 5")
    play(table, "R1", "R1", "Y1", "Y1", "Y1", "use R+Y1+Y2+Y3", "cage 5")
    play(table, "R1", "R1", "Y1", "Y1", "Y1", "fail")
    assert table.legal_moves(0) == [
        {"id": notation.TAKE_BACK, "notation": "take back 5", "move": {"type": "take_back", "card": 5}}]


def test_the_view_schema_is_strict() -> None:
    table = new_table(2)
    play(table, "R1", "R1", "Y1")
    validator = jsonschema.Draft202012Validator(table.game.view_schema())
    view = table.state.view(1)
    validator.validate(view)
    assert TABLE_SCHEMA["additionalProperties"] is False and set(TABLE_SCHEMA["required"]) == set(view["table"])
    view["table"]["extra"] = 1
    assert not validator.is_valid(view)
    del view["table"]["extra"]
    del view["table"]["seats"][0]["nuts"]
    assert not validator.is_valid(view)


# -- parsing is a lookup ---------------------------------------------------------------------------------


def test_notation_is_parsed_without_listing_the_legal_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    table = new_table(2)
    play(table, "R5", "R3", "Y6", "Y3", "Y2")
    state = state_of(table)

    def listed(*_: object) -> list[int]:
        raise AssertionError("string_to_action listed the legal moves")

    monkeypatch.setattr(state, "legal_actions", listed)
    monkeypatch.setattr(state, "_legal_actions", listed)
    assert state.string_to_action("use R+Y2") == notation.USE + 0b010
    assert state.string_to_action(" USE r+y2 ", 0) == notation.USE + 0b010
    monkeypatch.undo()
    rolling = new_table(2).state
    monkeypatch.setattr(rolling, "legal_actions", listed)
    assert rolling.string_to_action("R4") == 3
    with pytest.raises(NotationError, match="not a legal move"):
        state.string_to_action("use R+Y1+Y2+Y3")  # 5 + 3 + 6 + 3 + 2 = 19: no card
    with pytest.raises(NotationError, match="no move"):
        state.string_to_action("fail", 1)


# -- the score order -------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_multiplayer_returns_are_hand_totals_and_lower_wins(players: int) -> None:
    # DECISIONS mice-7: "Le joueur à qui il reste le moins de souris en main, a gagné !" -- the returns are the
    # hand totals and the game declares that lower totals are better
    game = load_game("mice", players=players)
    assert game.score_order() == "lower" and game.score_sign() == -1.0
    state = game.new_initial_state()
    assert isinstance(state, MiceState)
    state.hands[0] = rules.FULL_HAND & ~(1 << 18)
    assert state.returns() == [153.0] + [171.0] * (players - 1)


def test_solo_returns_are_the_rating_rank_and_higher_is_better() -> None:
    # DECISIONS mice-8: the rating table, best first; the return is 6 for "Génial !" down to 0 for "Dommage"
    for level in rules.LEVELS:
        game = load_game("mice", players=1, level=level)
        assert game.score_order() == "higher" and game.score_sign() == 1.0
    returns = []
    for cards, face_up in [(0, 4), (0, 3), (0, 2), (0, 1), (1, 2), (2, 4), (5, 4)]:
        state = load_game("mice", players=1).new_initial_state()
        assert isinstance(state, MiceState)
        state.hands[0] = sum(1 << c for c in range(1, cards + 1))
        state.face_up[0] = [0, rules.SIX_BIT, rules.SIX_BIT | 0b0010, rules.SIX_BIT | 0b0110, 0b1111][face_up]
        returns.append(state.returns()[0])
    assert returns == [6.0, 5.0, 4.0, 3.0, 2.0, 1.0, 0.0]  # a better rating is a higher return
