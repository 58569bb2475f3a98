"""Geier on a table: structured moves, view schema, and what each seat saw (DECISIONS all-3, geier-2)."""

from __future__ import annotations

import pytest

from ludotheque.games import load_game
from ludotheque.games.geier.display import event_text
from ludotheque.table import Table
from ludotheque.testing import check_table, fuzz_games


@pytest.mark.fuzz
@pytest.mark.parametrize("players", [2, 3, 5])
def test_views_moves_and_events_hold_on_random_games(players: int) -> None:
    stats = check_table(load_game("geier", players=players), games=fuzz_games(2, 40), seed=players)
    assert stats.games and stats.determinizations


def test_a_face_down_card_is_seen_by_its_owner_only_until_the_reveal() -> None:
    # geier-2: every player picks a card secretly; all are revealed together
    table = Table(load_game("geier", players=2), [None, None], events=True)
    table._apply("chance", table.state.string_to_action("+7"))
    table.submit(0, "15")
    assert table.events(0, since=1) == [{"seq": 2, "type": "choose", "seat": 0, "card": 15}]
    assert table.events(1, since=1) == [{"seq": 2, "type": "choose", "seat": 0}]
    assert table.events(None, since=1) == [{"seq": 2, "type": "choose", "seat": 0}]
    table.submit(1, "3")
    reveal = {"seq": 3, "type": "reveal", "played": [15, 3], "pot": [7], "taker": 0, "lost": []}
    for reader in (0, 1, None):
        assert table.events(reader, since=2)[-1] == reveal
    assert event_text(table.events(1, since=1)[0]) == "seat 0 has chosen a card"
    assert "seat 0" in event_text(reveal) and "+7" in event_text(reveal)


def test_moves_have_a_structured_form() -> None:
    table = Table(load_game("geier", players=2), [None, None])
    table._apply("chance", table.state.string_to_action("-3"))
    assert table.log[0].move == {"type": "turn", "points": -3}
    assert table.legal_moves(0)[13] == {"id": 13, "notation": "14", "move": {"type": "play", "card": 14}}
