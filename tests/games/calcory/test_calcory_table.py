"""Calcory on a table: structured moves, view schema, and what each seat saw (DECISIONS all-3, calcory-2..5).

Every card is turned face up in front of everybody, so every event is public: a seat, another seat and a
spectator read the same stream.  The deal never shows a value; a flip always does, the card that breaks the sum
included.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import jsonschema
import pytest

import ludotheque
from ludotheque.core import CHANCE, NotationError
from ludotheque.games import load_game
from ludotheque.games.calcory import notation, rules
from ludotheque.games.calcory.display import event_text
from ludotheque.games.calcory.game import MARKED, CalcoryState
from ludotheque.games.calcory.view import LOG_ITEMS
from ludotheque.table import Table
from ludotheque.testing import check_table, fuzz_games

from .calcory_helpers import arrange, dealt_state, random_state

READERS: tuple[int | None, ...] = (0, 1, None)


@pytest.mark.fuzz
@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_moves_and_events_hold_on_random_games(players: int) -> None:
    # a Calcory view carries the whole public history, so each game validates many large views: one game per
    # player count here, more under make fuzz
    stats = check_table(load_game("calcory", players=players), games=fuzz_games(1, 20), seed=players)
    assert stats.games and stats.determinizations


def test_log_items_match_their_schemas() -> None:
    # the log's columns are described in TABLE_SCHEMA; their items are checked here, on a whole game
    state = random_state(3, seed=2, steps=100_000)
    log = state.view(None)["table"]["log"]
    assert log["turn"]
    for key, schema in LOG_ITEMS.items():
        for item in log[key]:
            jsonschema.validate(item, schema)


def dealt_table(players: int, placed: Mapping[str, int] | None = None) -> Table:
    """A table with events, right after a forced deal."""
    table = Table(load_game("calcory", players=players), [None] * players, events=True)
    for value in arrange(placed or {}):
        table._apply(CHANCE, value)
    return table


def submit(table: Table, *moves: str) -> None:
    for move in moves:
        table.submit(table.state.current_players()[0], move)


def seen(table: Table, since: int) -> list[dict[str, Any]]:
    """The events after action ``since``, the same for seat 0, seat 1 and a spectator (all-3)."""
    streams = [table.events(reader, since) for reader in READERS]
    assert streams[0] == streams[1] == streams[2]
    return [{k: v for k, v in event.items() if k != "seq"} for event in streams[0]]


def test_the_deal_shows_where_cards_land_never_their_values() -> None:
    # DECISIONS calcory-1, all-3: the grid is dealt face down
    a, b = dealt_table(2, {"A1": 9}), dealt_table(2, {"A1": 1})
    for reader in READERS:
        assert a.events(reader) == b.events(reader)
    assert a.events(None)[0] == {"seq": 1, "type": "deal", "cell": "A1"}
    assert len(a.events(1)) == 60 and a.events(1)[-1]["cell"] == "F10"
    assert event_text(a.events(None)[0]) == "a card is dealt face down on A1"


def test_the_card_that_breaks_the_sum_is_shown() -> None:
    # DECISIONS calcory-2: over 13 the turn fails and the cards turn back; the breaking card was seen by all
    table = dealt_table(2, {"C1": 8, "C2": 6})
    since = table.seq
    submit(table, "C1", "C2")
    assert seen(table, since) == [
        {"type": "flip", "seat": 0, "cell": "C1", "value": 8, "sum": 8},
        {"type": "flip", "seat": 0, "cell": "C2", "value": 6, "sum": 14},
        {"type": "bust", "seat": 0, "reason": "over", "cells": ["C1", "C2"], "values": [8, 6], "sum": 14,
         "count": 2},
    ]
    texts = [event_text(e) for e in table.events(1, since)]
    assert texts == [
        "seat 0 flips C1: a 8 (sum 8)",
        "seat 0 flips C2: a 6 (sum 14)",
        "seat 0 busts (14 is over 13): C1, C2 turn back face down",
    ]
    # DECISIONS calcory-5: the events told what happened then; the view never states a face-down value
    for reader in READERS:
        cells = table.state.view(reader)["table"]["cells"]
        assert cells[rules.CELL_INDEX["C1"]] == cells[rules.CELL_INDEX["C2"]] == "down"


def test_a_second_zero_busts() -> None:
    # DECISIONS calcory-2: a second 0 fails the turn, whatever the sum
    table = dealt_table(2, {"C1": 0, "C2": 3, "C3": 0})
    since = table.seq
    submit(table, "C1", "C2", "C3")
    events = seen(table, since)
    assert events[2] == {"type": "flip", "seat": 0, "cell": "C3", "value": 0, "sum": 3}
    assert events[3]["type"] == "bust" and events[3]["reason"] == "second_zero"
    assert event_text(events[3]) == "seat 0 busts (a second 0): C1, C2, C3 turn back face down"


def test_thirteen_then_put_back() -> None:
    # DECISIONS calcory-2: exactly 13 takes the flipped cards; one goes back face down on an empty cell
    table = dealt_table(2, {"D1": 2, "D2": 5, "D3": 6})
    since = table.seq
    submit(table, "D1", "D2", "D3", "5@D3")
    events = seen(table, since)
    assert events[3] == {"type": "thirteen", "seat": 0, "cells": ["D1", "D2", "D3"], "values": [2, 5, 6], "sum": 13,
                         "count": 3}
    assert events[4] == {"type": "put_back", "seat": 0, "value": 5, "cell": "D3", "kept": [2, 6],
                         "reason": "thirteen"}
    assert event_text(events[3]) == (
        "seat 0 makes 13 with 2 (D1) + 5 (D2) + 6 (D3) = 13 and takes the cards; one goes back"
    )
    assert event_text(events[4]) == "seat 0 puts a 5 back face down on D3 and keeps 2 6"
    assert len(events) == 5


def test_stops_mark_beat_and_fail() -> None:
    # DECISIONS calcory-3
    table = dealt_table(3, {"B1": 5, "B2": 3, "C1": 6, "C2": 3, "D1": 4, "D2": 4})
    since = table.seq
    submit(table, "B1", "B2", "stop", "C1", "C2", "stop", "D1", "D2", "stop")
    stops = [e for e in seen(table, since) if e["type"] != "flip"]
    eight = {"cells": ["B1", "B2"], "values": [5, 3], "sum": 8, "count": 2}
    nine = {"cells": ["C1", "C2"], "values": [6, 3], "sum": 9, "count": 2}
    assert stops == [
        {"type": "mark", "seat": 0, **eight},
        {"type": "beat", "seat": 1, **nine, "beaten": {"seat": 0, **eight}},
        {"type": "fail", "seat": 2, "cells": ["D1", "D2"], "values": [4, 4], "sum": 8, "count": 2,
         "marked": {"seat": 1, **nine}},
    ]
    assert [event_text(e) for e in stops] == [
        "seat 0 stops and marks 5 (B1) + 3 (B2) = 8",
        "seat 1 stops with 6 (C1) + 3 (C2) = 9 and beats seat 0's 8 (2 cards): those turn back face down, "
        "their markers go home",
        "seat 2 stops with 4 (D1) + 4 (D2) = 8, which does not beat seat 1's 9 (2 cards): the cards turn back "
        "face down",
    ]


def test_surviving_marks_are_collected_at_the_start_of_the_turn() -> None:
    # DECISIONS calcory-4: the owner takes the cards when their turn comes, then puts one back
    table = dealt_table(2, {"B1": 5, "B2": 3, "C1": 9, "C2": 9})
    submit(table, "B1", "B2", "stop")
    since = table.seq
    submit(table, "C1", "C2")  # seat 1 busts; seat 0's turn begins with the collection
    events = seen(table, since)
    assert [e["type"] for e in events] == ["flip", "flip", "bust", "collect"]
    assert events[-1] == {"type": "collect", "seat": 0, "cells": ["B1", "B2"], "values": [5, 3], "sum": 8,
                          "count": 2}
    assert event_text(events[-1]) == (
        "seat 0's marked cards survived a full round: seat 0 takes 5 (B1) + 3 (B2) = 8; one goes back"
    )
    since = table.seq
    submit(table, "3@B2")
    assert seen(table, since) == [
        {"type": "put_back", "seat": 0, "value": 3, "cell": "B2", "kept": [5], "reason": "collect"}
    ]


def test_a_single_surviving_card_ends_the_game() -> None:
    # DECISIONS calcory-4: a single card collected is kept and the game ends; ties share the win
    table = dealt_table(2, {"A1": 4, "A2": 9, "B1": 2, "B2": 4, "B3": 7, "A3": 9, "B4": 5})
    submit(table, "A1", "A2", "4@A1", "B1", "B2", "B3", "2@B1", "A3", "stop")
    since = table.seq
    submit(table, "B4", "stop")
    events = seen(table, since)
    assert [e["type"] for e in events] == ["flip", "fail", "collect", "end"]
    assert events[2] == {"type": "collect", "seat": 0, "cells": ["A3"], "values": [9], "sum": 9, "count": 1}
    assert events[3] == {"type": "end", "cards_won": [2, 2], "returns": [2.0, 2.0], "winners": [0, 1]}
    assert event_text(events[1]) == (
        "seat 1 stops with a single 5 (B4), which does not beat seat 0's 9 (1 card): the cards turn back face down"
    )
    assert event_text(events[2]) == (
        "seat 0's single marked card, a 9 on A3, survived a full round: seat 0 keeps it and the game ends"
    )
    assert event_text(events[3]) == "game over, cards won: seat 0: 2, seat 1: 2; seat 0, seat 1 win (a shared win)"
    assert table.is_over()


def only_a1_left(table: Table) -> CalcoryState:
    """Empty every cell but A1 (a position the rules reach only after a long game)."""
    state = table.state
    assert isinstance(state, CalcoryState)
    for c in range(1, rules.CELLS):
        state._remove(c)
    state.face_down = 1
    return state


def test_nothing_to_flip_passes() -> None:
    # DECISIONS calcory-4: a player with nothing to flip passes (here the only card left is marked)
    table = dealt_table(2)
    state = only_a1_left(table)
    state.face_down = 0
    state.down_cells = []
    state.status[0] = MARKED
    state.marked, state.marked_owner, state.markers[0] = [0], 0, 5
    state.piles = [[1] * 30, [1] * 29]
    state.current, state.phase = 1, "pass"
    since = table.seq
    submit(table, "pass")
    events = seen(table, since)
    assert events[0] == {"type": "pass", "seat": 1, "cells": []}
    assert event_text(events[0]) == "seat 1 has nothing to flip and passes"
    assert [e["type"] for e in events] == ["pass", "collect", "end"]


def test_a_stuck_turn_passes_and_turns_its_cards_back() -> None:
    # DECISIONS calcory-2/4 (our reading): no card left to flip and no stop allowed: pass, cards turn back
    table = dealt_table(2)
    only_a1_left(table)
    since = table.seq
    submit(table, "A1", "pass")
    events = seen(table, since)
    assert events[1] == {"type": "pass", "seat": 0, "cells": ["A1"]}
    assert event_text(events[1]) == "seat 0 can neither flip nor stop and passes: A1 turn back face down"


# -- structured moves, parsing, score order ---------------------------------------------------------


def test_moves_have_a_structured_form() -> None:
    table = dealt_table(2, {"D1": 4, "D2": 9})
    assert table.log[0].move == {"type": "deal", "cell": "A1", "value": arrange({"D1": 4, "D2": 9})[0]}
    assert table.legal_moves(0)[23] == {"id": 23, "notation": "C4", "move": {"type": "flip", "cell": "C4"}}
    submit(table, "D1")
    assert table.legal_moves(0)[-1]["move"] == {"type": "flip", "cell": "F10"}
    submit(table, "D2")
    put = rules.put_action(9, rules.CELL_INDEX["D2"])
    assert table.state.action_to_json(put) == {"type": "put_back", "value": 9, "cell": "D2"}
    assert notation.to_json(rules.STOP) == {"type": "stop"} and notation.to_json(rules.PASS) == {"type": "pass"}
    validator = jsonschema.Draft202012Validator(table.game.move_schema())
    jsonschema.Draft202012Validator.check_schema(table.game.move_schema())
    for action in range(rules.NUM_ACTIONS):
        validator.validate(notation.to_json(action))
    validator.validate(notation.deal_to_json(60, 3))
    assert not validator.is_valid({"type": "flip", "cell": "G1"})
    assert not validator.is_valid({"type": "stop", "cell": "A1"})


def test_parsing_does_not_list_the_legal_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    # notation is read directly and checked with the cheap legality tests
    state = dealt_state(2)
    calls: list[int] = []
    original = CalcoryState._legal_actions

    def counted(self: CalcoryState, player: int) -> list[int]:
        calls.append(player)
        return original(self, player)

    monkeypatch.setattr(CalcoryState, "_legal_actions", counted)
    assert state.string_to_action("c4") == rules.CELL_INDEX["C4"]
    assert calls == []
    with pytest.raises(NotationError, match="not a legal move"):
        state.string_to_action("stop")  # no card flipped yet: the error lists the legal moves
    with pytest.raises(NotationError):
        state.string_to_action("A1", 1)  # not seat 1's turn
    fresh = load_game("calcory", players=2).new_initial_state()
    monkeypatch.setattr(CalcoryState, "_chance_outcomes", lambda self: pytest.fail("outcomes listed"))
    assert fresh.string_to_action("A1=7", CHANCE) == 7


def test_most_cards_is_better() -> None:
    # DECISIONS calcory-4: most cards wins, so higher totals are better
    for players in (2, 3, 4):
        assert ludotheque.load_game("calcory", players=players).score_order() == "higher"
