"""Rummü on a table: structured moves, the view schema, and what each seat saw (DECISIONS all-3, rummu-3, rummu-8,
rummu-9, rummu-10)."""

from __future__ import annotations

from typing import Any

import pytest

from ludotheque.core import CHANCE
from ludotheque.games import load_game
from ludotheque.games.rummu.display import event_text
from ludotheque.games.rummu.game import RummuState
from ludotheque.games.rummu.notation import MOVE_SCHEMA, parse_action, to_json
from ludotheque.table import Table
from ludotheque.testing import check_table, fuzz_games

# a random hand lasts some 400-550 actions and every one of them validates every view: the quick share plays one
# hand at the two tables that show the most (3 players alone; 4 in partnerships), the long share every table
CONFIGS: list[tuple[int, dict[str, Any]]] = [
    (3, {}), (4, {"partnerships": True}), (4, {}), (5, {}), (6, {}), (6, {"partnerships": True}),
]
QUICK = 2

# the deal and the turns of tests/games/rummu/test_rummu_game.py's scenario A (3 players, seat 0 deals)
HANDS_A = [
    "G1 G2 G3 G5 G6 K0 K1 K2 K3",
    "R3 Y4 R5 R6 R4 B9 G9 K9 G0",
    "B1 B2 B3 B4 R7 K5 K6 K8 G8",
]
TURNS_A: list[tuple[Any, str]] = [
    (1, "draw"), (CHANCE, "R9"),
    (1, "start R3"), (1, "add Y4"), (1, "add R5"), (1, "add R6"), (1, "close"),
    (1, "swap R4 1"),
    (1, "start B9"), (1, "add G9"), (1, "add K9"), (1, "add R9"), (1, "close"),
    (1, "discard G0"),
    (2, "draw"), (CHANCE, "B5"),
    (2, "start B1"), (2, "add B2"), (2, "add B3"), (2, "add B4"), (2, "add B5"), (2, "close"),
    (2, "put R7 1"),
    (2, "discard G8"),
    (0, "take 1"), (0, "discard G8"),
    (1, "draw"), (CHANCE, "R8"), (1, "put R8 1"), (1, "discard Y4"),
]


def dealt(hands: list[str], flip: str) -> list[tuple[Any, str]]:
    """The chance moves of a deal: round-robin from the dealer's (seat 0's) left, then the first discard."""
    per_seat = [h.split() for h in hands]
    n = len(per_seat)
    return [(CHANCE, per_seat[(1 + i) % n][i // n]) for i in range(n * len(per_seat[0]))] + [(CHANCE, flip)]


def table_after(moves: list[tuple[Any, str]], players: int = 3, **options: Any) -> Table:
    table = Table(load_game("rummu", players=players, **options), [None] * players, events=True)
    for by, move in moves:
        if by == CHANCE:
            table._apply(CHANCE, table.state.string_to_action(move, CHANCE))
        else:
            table.submit(by, move)
    return table


def events_of(table: Table, seat: int | None, since: int = 0) -> list[dict[str, Any]]:
    return [{k: v for k, v in e.items() if k != "seq"} for e in table.events(seat, since)]


@pytest.mark.fuzz
@pytest.mark.parametrize(("index", "players", "options"), [(i, p, o) for i, (p, o) in enumerate(CONFIGS)])
def test_views_moves_and_events_hold_on_random_games(index: int, players: int, options: dict[str, Any]) -> None:
    # DECISIONS all-3 (check_table compares each seat's events with those of a redeal of what it could not see);
    # all-4: the cap on hands is the tool's, passed explicitly so that a random match ends after its first hand
    games = fuzz_games(1 if index < QUICK else 0, 6)
    if not games:
        pytest.skip("long share only (make fuzz)")
    stats = check_table(load_game("rummu", players=players, hands=1, **options), games=games, seed=players)
    assert stats.games == games and stats.determinizations


def test_the_deal_shows_each_card_to_its_receiver_only() -> None:
    # DECISIONS all-3, rummu-2: cards are dealt face down one at a time from the dealer's left; the first
    # discard is turned face up
    table = table_after(dealt(HANDS_A, "R0"))
    first = {"type": "new_hand", "hand": 1, "dealer": 0, "needs": [4, 4, 4], "scores": [0, 0, 0]}
    assert events_of(table, 1)[:3] == [first, {"type": "deal", "seat": 1, "card": "R3"}, {"type": "deal", "seat": 2}]
    assert events_of(table, 2)[:3] == [first, {"type": "deal", "seat": 1}, {"type": "deal", "seat": 2, "card": "B1"}]
    assert events_of(table, None)[:3] == [first, {"type": "deal", "seat": 1}, {"type": "deal", "seat": 2}]
    mine = [e["card"] for e in events_of(table, 1) if e["type"] == "deal" and "card" in e]
    assert mine == HANDS_A[1].split()
    assert events_of(table, None)[-1] == {"type": "flip", "card": "R0", "first": 1}
    assert table.log[0].move == {"type": "deal", "card": "R3", "seat": 1}
    assert table.log[-1].move == {"type": "flip", "card": "R0"}


def test_a_card_drawn_from_the_pile_is_seen_by_its_drawer_only() -> None:
    # DECISIONS all-3, rummu-3: the drawer sees the card; the others see that a card was drawn
    table = table_after(dealt(HANDS_A, "R0") + TURNS_A[:2])
    since = table.seq - 2
    assert events_of(table, 1, since) == [{"type": "draw", "seat": 1, "card": "R9"}]
    assert events_of(table, 0, since) == events_of(table, None, since) == [{"type": "draw", "seat": 1}]
    assert table.log[-2].move == {"type": "draw"} and table.log[-1].move == {"type": "draw_card", "card": "R9",
                                                                            "seat": 1}
    assert event_text({"type": "draw", "seat": 1}) == "seat 1 draws a card"
    assert event_text(events_of(table, 1, since)[0]) == "seat 1 draws R9 from the pile"


def test_laying_and_the_discard_pile_are_public() -> None:
    # DECISIONS rummu-3 (cards taken from the discard pile are public, top first), rummu-4..6 (laying face up)
    table = table_after(dealt(HANDS_A, "R0") + TURNS_A[:24])
    lays = events_of(table, 0, 28 + 2)[:7]
    assert lays == [
        {"type": "start", "seat": 1, "card": "R3"},
        {"type": "add", "seat": 1, "card": "Y4", "laying": ["R3", "Y4"]},
        {"type": "add", "seat": 1, "card": "R5", "laying": ["R3", "Y4", "R5"]},
        {"type": "add", "seat": 1, "card": "R6", "laying": ["R3", "Y4", "R5", "R6"]},
        {"type": "close", "seat": 1, "combo": 1, "cards": ["R3", "Y4", "R5", "R6"], "opening": True, "points": 10},
        {"type": "swap", "seat": 1, "card": "R4", "joker": "Y4", "combo": 1, "cards": ["R3", "R4", "R5", "R6"]},
        {"type": "start", "seat": 1, "card": "B9"},
    ]
    for reader in (1, 2, None):
        assert events_of(table, reader, 28 + 2)[:7] == lays
    assert events_of(table, None)[-2:] == [
        {"type": "put", "seat": 2, "card": "R7", "combo": 1, "cards": ["R3", "R4", "R5", "R6", "R7"]},
        {"type": "discard", "seat": 2, "card": "G8"},
    ]
    table.submit(0, "take 1")
    assert events_of(table, 1, table.seq - 1) == [{"type": "take", "seat": 0, "cards": ["G8"]}]
    table.submit(0, "start K0")
    table.submit(0, "add K1")
    table.submit(0, "cancel")
    assert events_of(table, 2, table.seq - 1) == [{"type": "cancel", "seat": 0, "cards": ["K0", "K1"]}]
    assert event_text(events_of(table, 2, table.seq - 1)[0]) == "seat 0 takes back K0 K1"


def test_the_count_gives_the_rules_breakdown_and_the_match_end() -> None:
    # DECISIONS rummu-8: +10 for going out; -10 per yellow and -5 per other card in hand; each combination to its
    # owner, pure or mixed; rummu-10: the match ends (here by the tool's cap of one hand, all-4)
    table = table_after(dealt(HANDS_A, "R0") + TURNS_A, hands=1)
    score = {
        "type": "score", "hand": 1, "dealer": 0, "out": 1,
        "combos": [
            {"owner": 1, "cards": ["R3", "R4", "R5", "R6", "R7", "R8"], "kind": "run", "pure": True, "points": 50},
            {"owner": 1, "cards": ["R9", "G9", "B9", "K9"], "kind": "set", "pure": True, "points": 30},
            {"owner": 2, "cards": ["B1", "B2", "B3", "B4", "B5"], "kind": "run", "pure": True, "points": 40},
        ],
        "left": [HANDS_A[0].split(), [], ["K5", "K6", "K8"]],
        "penalties": [-45, 0, -15], "waived": [False, False, False], "bonus": [0, 10, 0],
        "points": [-45, 90, 25], "totals": [-45, 90, 25], "teams": None,
    }
    end = {"type": "match_end", "hands": 1, "totals": [-45, 90, 25], "returns": [-45.0, 90.0, 25.0], "winners": [1]}
    for reader in (0, 1, 2, None):
        assert events_of(table, reader)[-3:] == [{"type": "discard", "seat": 1, "card": "Y4"}, score, end]
    assert table.state.view(None)["table"]["results"] == [{k: v for k, v in score.items() if k != "type"}]
    text = event_text(score)
    assert text.startswith("hand 1 is over: seat 1 went out; seat 0: -45 (left G1 G2 G3 G5 G6 K0 K1 K2 K3 -45)")
    assert "seat 1: +90 (run R3 R4 R5 R6 R7 R8 (pure) +50, set R9 G9 B9 K9 (pure) +30, going out +10)" in text
    assert event_text(end) == "the match is over after 1 hands (seat 0 -45, seat 1 90, seat 2 25); winner(s): seat 1"


def test_the_count_in_partnerships_waives_the_partner_and_adds_the_team() -> None:
    # DECISIONS rummu-9: the partner of the player who went out has no penalty; partners' scores add
    hands = ["K0 K1 K2 K3 G5 G6 B8 B0", "R2 R3 R4 R5 B7 G7 K7 G9", "G0 G1 G2 G3 B4 B5 B6 K8", "Y1 Y2 R8 R9 Y3 K4 K5 K6"]
    turns = [(1, "draw"), (CHANCE, "R6"),
             *[(1, m) for m in ("start R2", "add R3", "add R4", "add R5", "add R6", "close",
                                "start B7", "add G7", "add K7", "close", "discard G9")]]
    table = table_after(dealt(hands, "R0") + turns, players=4, partnerships=True, target=50)
    score, end = events_of(table, None)[-2:]
    assert score["out"] == 1 and score["waived"] == [False, False, False, True]
    assert score["penalties"] == [-40, 0, -40, 0] and score["bonus"] == [0, 10, 0, 0]
    assert score["points"] == [-40, 50, -40, 0]
    assert score["teams"] == [{"seats": [0, 2], "points": -80, "total": -80}, {"seats": [1, 3], "points": 50,
                                                                               "total": 50}]
    assert end == {"type": "match_end", "hands": 1, "totals": [-40, 50, -40, 0], "returns": [-80.0, 50.0, -80.0, 50.0],
                   "winners": [1, 3]}
    assert "(no penalty: partner went out)" in event_text(score) and "team 1+3: +50, total 50" in event_text(score)


def test_the_next_hand_is_announced_with_its_opening_needs() -> None:
    # DECISIONS rummu-5 (needs by total), all-2 (the deal rotates), all-4 (no cap: the match goes on)
    table = table_after(dealt(HANDS_A, "R0") + TURNS_A)
    assert not table.state.is_terminal()
    table._apply(CHANCE, table.state.legal_actions()[0])
    assert events_of(table, None, table.seq - 1)[0] == {"type": "new_hand", "hand": 2, "dealer": 1, "needs": [3, 4, 4],
                                                        "scores": [-45, 90, 25]}


def test_the_log_stays_short_but_the_events_tell_everything() -> None:
    table = table_after(dealt(HANDS_A, "R0") + TURNS_A, hands=1)
    assert len(table.state.view(0)["table"]["log"]) <= 30
    stream = table.events(0)
    assert len(stream) > 30 and [e["seq"] for e in stream] == sorted(e["seq"] for e in stream)
    for event in stream:
        assert event_text(event)


def test_every_event_has_a_line() -> None:
    for event in ({"type": "reshuffle", "cards": 31, "discard": ["K3"]}, {"type": "pile_empty"},
                  {"type": "deal", "seat": 2}, {"type": "deal", "seat": 2, "card": "R5"}):
        assert event_text(event)
    with pytest.raises(ValueError, match="no event"):
        event_text({"type": "fold"})


def test_moves_have_a_structured_form() -> None:
    table = table_after(dealt(HANDS_A, "R0") + TURNS_A[:7])
    moves = {m["notation"]: m for m in table.legal_moves(1)}
    assert moves["swap R4 1"]["move"] == {"type": "swap", "card": "R4", "combo": 1, "joker": "Y4"}
    assert moves["start B9"]["move"] == {"type": "start", "card": "B9"}
    assert moves["discard G0"]["move"] == {"type": "discard", "card": "G0"}
    assert to_json(parse_action("take 3")) == {"type": "take", "count": 3}
    assert to_json(parse_action("put R8 2")) == {"type": "put", "card": "R8", "combo": 2}
    assert [to_json(parse_action(m)) for m in ("draw", "close", "cancel", "add Y4")] == [
        {"type": "draw"}, {"type": "close"}, {"type": "cancel"}, {"type": "add", "card": "Y4"}]
    assert len(MOVE_SCHEMA["oneOf"]) == 12


def test_notation_is_parsed_without_listing_the_legal_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    # a legal move is read straight from the fixed action layout; only an illegal one lists the legal moves
    table = table_after(dealt(HANDS_A, "R0") + TURNS_A[:2])
    state = table.state
    assert isinstance(state, RummuState)

    def no_scan(self: RummuState, action: int, actor: Any) -> str:
        raise AssertionError("the legal moves were scanned")

    monkeypatch.setattr(RummuState, "_action_to_string", no_scan)
    assert state.string_to_action("start R3", 1) == parse_action("start R3")
    assert state.string_to_action("discard G0") == parse_action("discard G0")
    with pytest.raises(AssertionError, match="scanned"):
        state.string_to_action("discard B1", 1)  # not in hand: the error lists the legal moves


def test_higher_totals_win() -> None:
    # DECISIONS rummu-10: the highest total wins, whatever the options
    for options in ({}, {"partnerships": True}, {"target": 300, "hands": 4}):
        assert load_game("rummu", players=4, **options).score_order() == "higher"


def drain(table: Table, take_small_discards: bool) -> None:
    """Turn after turn, draw and discard the drawn card, or (take_small_discards) take the whole discard pile when
    it holds two cards, until the pile is reshuffled or the hand ends."""
    state = table.state
    assert isinstance(state, RummuState)
    while state.epoch == 0 and state.hand_no == 0:
        seat = state.current
        if take_small_discards and len(state.discard) >= 2:
            table.submit(seat, f"take {len(state.discard)}")
            table.submit(seat, f"discard {state.view(seat)['table']['hand'][0]}")
            continue
        table.submit(seat, "draw")
        card = state.legal_actions()[0]
        table._apply(CHANCE, card)
        if state.epoch or state.exhausted:
            return
        table.submit(seat, f"discard {table.log[-1].move['card']}")


def test_the_pile_running_out_is_public() -> None:
    # DECISIONS rummu-3: the discard pile but its top card is shuffled into a new draw pile; if that leaves
    # nothing to draw, the hand ends with nobody out
    table = table_after(dealt(HANDS_A, "R0"))
    drain(table, take_small_discards=False)
    drawer = table.log[-1].move["seat"]
    top = table.state.view(None)["table"]["discard"]
    reshuffle = {"type": "reshuffle", "cards": 31, "discard": top}
    assert events_of(table, None, table.seq - 1) == [{"type": "draw", "seat": drawer}, reshuffle]
    assert events_of(table, drawer, table.seq - 1)[1] == reshuffle
    table = table_after(dealt(HANDS_A, "R0"), hands=1)
    drain(table, take_small_discards=True)
    assert events_of(table, None, table.seq - 1)[-1] == {"type": "pile_empty"}
    seat = table.state.current
    table.submit(seat, f"discard {table.state.view(seat)['table']['hand'][0]}")
    score = events_of(table, 0, table.seq - 1)[1]
    assert score["type"] == "score" and score["out"] is None and score["bonus"] == [0, 0, 0]
    assert events_of(table, 0)[-1]["type"] == "match_end"
