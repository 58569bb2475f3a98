"""Safarü on a table: structured moves, view schema, and what each seat saw (DECISIONS all-3, safaru-2..8)."""

from __future__ import annotations

import random
from typing import Any

import jsonschema
import pytest

from ludotheque.core import CHANCE
from ludotheque.games import load_game
from ludotheque.games.safaru import notation, rules
from ludotheque.games.safaru.display import event_text
from ludotheque.games.safaru.game import SafaruState
from ludotheque.table import Table
from ludotheque.testing import check_table, fuzz_games

HANDS = (("B8", "R1", "R2", "R3"), ("G1", "G2", "K1", "K2"))
TABLE = ("Y8", "G3", "G5", "K9")


def vec(*cards: str) -> list[int]:
    out = [0] * rules.KINDS
    for name in cards:
        kind = notation.parse_card(name)
        assert kind is not None
        out[kind] += 1
    return out


def dealt_table(players: int = 2, **options: Any) -> Table:
    """A table after the first deal: seat i gets HANDS[i] (one card at a time round the table), then TABLE."""
    table = Table(load_game("safaru", players=players, **options), [None] * players, events=True)
    state = table.state
    assert isinstance(state, SafaruState)
    hands = {seat: list(HANDS[seat]) for seat in range(players)}
    cards = list(TABLE)
    for destination in list(state.deal_queue):
        card = cards.pop(0) if destination == rules.TABLE else hands[destination].pop(0)
        table._apply(CHANCE, state.string_to_action(card, CHANCE))
    return table


def moves(table: Table, *texts: str) -> None:
    for text in texts:
        table.submit(table.state.current_players()[0], text)


def types(events: list[dict[str, Any]]) -> list[str]:
    return [event["type"] for event in events]


# -- random games: schemas, structured moves, no event showing a seat more than it saw ----------------------


@pytest.mark.fuzz
@pytest.mark.parametrize(
    ("players", "options", "quick"),
    [
        (3, {"renverse": True}, 1),
        (4, {"renverse": True, "individual": True}, 1),
        (2, {"renverse": True, "games": 2}, 1),
        (2, {}, 0),
        (4, {}, 0),
        (3, {"target": 60}, 0),
    ],
)
@pytest.mark.fuzz
def test_views_moves_and_events_hold_on_random_games(players: int, options: dict[str, Any], quick: int) -> None:
    # A Safarü game is some 190 actions and its view keeps every turn (all-3), so validating every view of every
    # step costs seconds a game: the quick run plays one game on three lines (renversé's picks, four seats each
    # for itself, a match of two games), make fuzz plays more on every line.
    games = fuzz_games(quick, 10)
    if not games:
        pytest.skip("in the long share only (make fuzz)")
    game = load_game("safaru", players=players, **options)
    stats = check_table(game, games=games, seed=players + len(options))
    assert stats.games == games and stats.determinizations


# -- the deal -------------------------------------------------------------------------------------------------


def test_a_dealt_card_is_seen_by_its_receiver_only_table_cards_by_everyone() -> None:
    # DECISIONS all-1 (each card dealt is a chance action), all-3 (a seat sees its own cards, not the others'),
    # safaru-2 (4 cards each, one at a time from the starter, then 4 face up to the table)
    table = dealt_table()
    new_deal = {"seq": 1, "type": "new_deal", "game": 1, "deal": 0, "starter": 0, "hands": [4, 4], "table": 4}
    assert table.events(0, since=0)[:2] == [new_deal, {"seq": 1, "type": "deal", "to": 0, "card": "B8"}]
    assert table.events(1, since=0)[:2] == [new_deal, {"seq": 1, "type": "deal", "to": 0}]
    assert table.events(None, since=0)[:2] == [new_deal, {"seq": 1, "type": "deal", "to": 0}]
    assert table.events(1, since=1)[0] == {"seq": 2, "type": "deal", "to": 1, "card": "G1"}
    assert table.events(0, since=1)[0] == {"seq": 2, "type": "deal", "to": 1}
    face_up = [{"seq": 9 + i, "type": "table_deal", "card": card} for i, card in enumerate(TABLE)]
    for reader in (0, 1, None):
        assert table.events(reader, since=8) == face_up
    assert event_text(table.events(1, since=0)[1]) == "seat 0 gets a card"
    assert event_text(table.events(0, since=0)[1]) == "seat 0 is dealt B8"
    assert event_text(face_up[0]) == "Y8 is dealt face up to the table"
    assert event_text(new_deal) == "game 1, deal 1: 4 to seat 0, 4 to seat 1, 4 face up to the table; seat 0 starts"


# -- a turn ---------------------------------------------------------------------------------------------------


def test_a_turn_with_three_catches_is_public_step_by_step() -> None:
    # DECISIONS safaru-3: three methods, each once, on disjoint cards; pairing takes the played card too
    table = dealt_table()
    moves(table, "B8", "add", "+G3", "+G5", "ok", "17", "+K9", "ok", "=Y8")
    expected = [
        {"type": "play", "seat": 0, "card": "B8", "can_catch": ["add", "17", "pair"]},
        {"type": "begin", "seat": 0, "method": "add"},
        {"type": "take", "seat": 0, "card": "G3"},
        {"type": "take", "seat": 0, "card": "G5"},
        {"type": "catch", "seat": 0, "method": "add", "cards": ["G3", "G5"]},
        {"type": "begin", "seat": 0, "method": "17"},
        {"type": "take", "seat": 0, "card": "K9"},
        {"type": "catch", "seat": 0, "method": "17", "cards": ["K9"]},
        {"type": "catch", "seat": 0, "method": "pair", "cards": ["Y8"]},
        {
            "type": "turn_end",
            "seat": 0,
            "card": "B8",
            "catches": [
                {"method": "add", "cards": ["G3", "G5"]},
                {"method": "17", "cards": ["K9"]},
                {"method": "pair", "cards": ["Y8"]},
            ],
            "released": False,
            "card_to": "caught",
            "picked_by": None,
        },
    ]
    for reader in (0, 1, None):  # nothing hidden: every step was done in front of everyone
        seen = table.events(reader, since=12)
        assert [{k: v for k, v in e.items() if k != "seq"} for e in seen] == expected
        assert [e["seq"] for e in seen] == [13, 14, 15, 16, 17, 18, 19, 20, 21, 21]
    texts = [event_text(e) for e in expected]
    assert texts[0] == "seat 0 plays B8 (it can catch by adding or seventeen or pairing)"
    assert texts[4] == "seat 0 catches G3 G5 by adding"
    assert texts[-1] == "seat 0's turn: adding G3 G5; seventeen K9; pairing Y8; B8 is caught with its pair"


def test_a_release_and_a_done() -> None:
    # DECISIONS safaru-4: a card that cannot catch is released and stays on the table ("after a player has
    # emptied the table, the next must release"); a player may stop after one method (done)
    table = dealt_table()
    moves(table, "B8", "=Y8", "done")
    assert types(table.events(1, since=12)) == ["play", "catch", "done", "turn_end"]
    end = table.events(None, since=12)[-1]
    assert end["catches"] == [{"method": "pair", "cards": ["Y8"]}] and end["card_to"] == "caught"
    moves(table, "G1")  # 1: nothing adds to 1, 16 cannot be made, no 1 to pair
    release = table.events(0, since=15)
    assert release == [
        {"seq": 16, "type": "play", "seat": 1, "card": "G1", "can_catch": []},
        {"seq": 16, "type": "turn_end", "seat": 1, "card": "G1", "catches": [], "released": True, "card_to": "table",
         "picked_by": None},
    ]
    assert event_text(release[0]) == "seat 1 plays G1 (it cannot catch)"
    assert event_text(release[1]) == "seat 1 releases G1: it stays on the table"


def test_renverse_the_left_neighbours_pick_is_an_event() -> None:
    # DECISIONS safaru-7: "le joueur à la gauche de celui qui a joué la carte décide quelle méthode doit être
    # employée"; the pick is seen by everyone
    table = dealt_table(renverse=True)
    moves(table, "B8", "pick 17", "+K9", "ok")
    pick = {"seq": 14, "type": "pick", "seat": 1, "player": 0, "method": "17"}
    for reader in (0, 1, None):
        seen = table.events(reader, since=12)
        assert seen[1] == pick
        assert types(seen) == ["play", "pick", "take", "catch", "turn_end"]  # the pick begins the catch
        assert seen[-1]["picked_by"] == 1 and seen[-1]["card_to"] == "table"  # no pairing: B8 stays
    assert event_text(pick) == "seat 1 picks seventeen for seat 0"


# -- deals, games and the match end ---------------------------------------------------------------------------


def random_table(players: int, seed: int, **options: Any) -> Table:
    table = Table(load_game("safaru", players=players, **options), [None] * players, events=True,
                  chance_rng=random.Random(seed))
    rng = random.Random(seed)
    while not table.is_over():
        if table.step() is None:
            seat = table.state.current_players()[0]
            table.submit(seat, rng.choice(table.legal_moves(seat))["notation"])
    return table


def test_deal_end_then_the_next_deal_rotates() -> None:
    # DECISIONS safaru-5: when all hands are empty, the next deal; deal d is started by seat d mod n (all-2)
    table = random_table(3, 1)
    seen = table.events(None)
    ends = [i for i, e in enumerate(seen) if e["type"] == "deal_end"]
    deals = [e for e in seen if e["type"] == "new_deal"]
    assert len(ends) == len(deals) >= 4
    for index, position in enumerate(ends[:-1]):
        assert seen[position]["deal"] == index
        after = next(e for e in seen[position:] if e["type"] == "new_deal")
        assert after["deal"] == index + 1 and after["starter"] == (index + 1) % 3
    assert seen[ends[-1]]["pile"] == 0
    assert event_text(seen[ends[0]]).startswith("deal 1 is over (")


@pytest.mark.parametrize("renverse", [False, True])
def test_game_end_scores_with_the_rules_breakdown_per_team(renverse: bool) -> None:
    # DECISIONS safaru-6 (unicorns, hedgehogs, babies, triangles; partners pool their cards) and safaru-7
    # (renversé: most cards, most hedgehogs, triangles); then the match ends with its returns and winners
    table = random_table(4, 7, renverse=renverse)
    state = table.state
    assert isinstance(state, SafaruState)
    last = table.events(2, since=table.seq - 1)
    assert types(last)[-4:] == ["turn_end", "deal_end", "game_end", "end"]
    game_end, end = last[-2], last[-1]
    assert [side["seats"] for side in game_end["sides"]] == [[0, 2], [1, 3]]
    scored = ["most_cards", "most_hedgehogs", "triangles"] if renverse else [
        "most_unicorns", "most_hedgehogs", "babies", "triangles"]
    for side in game_end["sides"]:
        assert list(side["points"]) == scored
        assert side["score"] == sum(side["points"].values())
        pooled = [card for seat in side["seats"] for card in state.view(None)["table"]["caught"][seat]]
        assert side["cards"] == len(pooled)
        assert side["hedgehogs"] == sum(card[0] == "Y" for card in pooled)
        for seat in side["seats"]:
            assert game_end["scores"][seat] == side["score"]
    assert game_end["scores"] == state.returns() == end["returns"] == game_end["totals"]
    assert end["winners"] == state.winners()
    assert event_text(end).startswith("the match is over: totals ")
    text = event_text(game_end)
    assert text.startswith("game 1 scored: seat 0 & seat 2: ") and ("most cards" in text) == renverse


def test_breakdown_by_hand() -> None:
    # DECISIONS safaru-6 with partners pooled (safaru-2): side 0 = seats 0 and 2
    caught = [vec("B1", "B2", "R0"), vec("Y3", "Y4", "B5"), vec("G6"), vec()]
    sides = rules.breakdown(caught, 4, False)
    assert sides[0] == {
        "seats": [0, 2], "cards": 4, "unicorns": 2, "hedgehogs": 0, "babies": 1, "triangles": 0 + 1 + 1 + 2,
        "points": {"most_unicorns": 24.0, "most_hedgehogs": 0.0, "babies": -5.0, "triangles": 4.0}, "score": 23.0,
    }
    assert sides[1]["points"] == {"most_unicorns": 0.0, "most_hedgehogs": -12.0, "babies": 0.0, "triangles": 3.0}
    assert [side["score"] for side in sides] == rules.side_scores(caught, 4, False)
    alone = rules.breakdown(caught, 4, True, partners=False)  # renversé, each seat for itself (safaru-7)
    assert [side["seats"] for side in alone] == [[0], [1], [2], [3]]
    assert [side["points"]["most_cards"] for side in alone] == [12.0, 12.0, 0.0, 0.0]
    assert [side["score"] for side in alone] == rules.side_scores(caught, 4, True, partners=False)


def test_a_match_of_two_games_scores_each_game_then_ends() -> None:
    # DECISIONS safaru-7: the number of games agreed before play; totals added; the lowest total wins
    table = random_table(2, 3, renverse=True, games=2)
    seen = table.events(0)
    game_ends = [e for e in seen if e["type"] == "game_end"]
    assert [e["game"] for e in game_ends] == [1, 2]
    first, second = game_ends
    assert second["totals"] == [a + b for a, b in zip(first["scores"], second["scores"], strict=True)]
    assert [e["game"] for e in seen if e["type"] == "new_deal"][-1] == 2
    assert types(seen).count("end") == 1 and seen[-1]["type"] == "end"
    assert seen[-1]["winners"] == [s for s in (0, 1) if second["totals"][s] == min(second["totals"])]


# -- structured moves and notation ----------------------------------------------------------------------------


def test_moves_have_a_structured_form() -> None:
    validate = jsonschema.Draft202012Validator(notation.MOVE_SCHEMA).validate
    examples = {
        notation.PLAY + 37: {"type": "play", "card": "B7"},
        notation.TAKE + 3: {"type": "take", "card": "R3"},
        notation.PAIR_WITH + 17: {"type": "pair", "card": "Y7"},
        notation.BEGIN_ADD: {"type": "begin", "method": "add"},
        notation.BEGIN_17: {"type": "begin", "method": "17"},
        notation.CLOSE: {"type": "close"},
        notation.DONE: {"type": "done"},
        notation.CHOOSE + rules.PAIR: {"type": "pick", "method": "pair"},
    }
    for action, move in examples.items():
        assert notation.to_json(action, False) == move
        validate(move)
    for action in range(notation.NUM_ACTIONS):
        validate(notation.to_json(action, False))
    validate(notation.to_json(12, True, "table"))
    assert notation.to_json(12, True, 1) == {"type": "deal", "card": "Y2", "to": 1}


def test_legal_moves_and_the_log_carry_the_structured_form() -> None:
    table = dealt_table()
    assert table.log[0].move == {"type": "deal", "card": "B8", "to": 0}
    assert table.log[8].move == {"type": "deal", "card": "Y8", "to": "table"}
    assert table.legal_moves(0)[-1] == {"id": 38, "notation": "B8", "move": {"type": "play", "card": "B8"}}
    moves(table, "B8")
    assert [m["move"] for m in table.legal_moves(0)] == [
        {"type": "pair", "card": "Y8"},
        {"type": "begin", "method": "add"},
        {"type": "begin", "method": "17"},
    ]


def test_notation_is_parsed_by_lookup_not_by_listing_legal_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    state = dealt_table().state
    assert isinstance(state, SafaruState)

    def no_listing(*args: object) -> list[int]:
        raise AssertionError("string_to_action listed the legal moves")

    monkeypatch.setattr(state, "legal_actions", no_listing)
    monkeypatch.setattr(state, "_compute_legal", no_listing)
    assert state.string_to_action("B8", 0) == notation.PLAY + 38
    assert state.string_to_action(" r1 ") == notation.PLAY + 1
