"""Cheese Rescue in a real browser: a whole game by clicking, secret hands, phones, languages, the rules help."""

from __future__ import annotations

import random
from typing import Any

from ludotheque.server.process import ServerProcess

from .driver import horizontal_overflow, open_table, play_by_clicking, rules_help_texts

MY_TURN = "() => window.ludotheque.state && window.ludotheque.state.legal.length > 0 && !window.ludotheque.pending"


def wait_my_turn(page: Any) -> None:
    page.wait_for_function(MY_TURN, timeout=20_000)
    page.wait_for_selector("[data-test=hand] button[data-step]")


def place_one(page: Any, rng: random.Random) -> None:
    """One placement as a person makes it: a card of the hand, then one of the golden cells."""
    wait_my_turn(page)
    seq = page.evaluate("() => window.ludotheque.state.seq")
    cards = page.locator("[data-test=hand] button[data-step]")
    cards.nth(rng.randrange(cards.count())).click()
    cells = page.locator("[data-test=grid] button[data-notation]")
    cells.nth(rng.randrange(cells.count())).click()
    page.wait_for_function("seq => window.ludotheque.state.seq > seq", arg=seq)  # the frame after the move


def test_a_whole_game_by_clicking_ends_with_the_scoring(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "cheese", 2)
    final = play_by_clicking(page, random.Random(3))
    assert final["view"]["terminal"]
    table = final["view"]["table"]
    # cheese-5: the removed cards are marked on the grid, one badge per step, and each seat's cheese is listed
    removed = sum(len(table["removed"][step]) for step in ("cats", "mice", "cheeses"))
    assert page.locator("[data-test=grid] .cell.removed").count() == removed
    assert page.locator("[data-test=scoring] [data-step-result]").count() == 3
    for seat in range(2):
        row = page.locator(f"[data-test=scoring] tr[data-seat='{seat}']")
        assert row.locator(".points").inner_text() == str(table["points"][seat])
        assert row.locator(".kept .chip").count() == table["cheese_cards"][seat]
    # the 5 x 5 square is full: 24 cards and the start card, no cell left to play
    assert page.locator("[data-test=grid] .card-cell").count() == 25
    assert page.locator("[data-test=grid] [data-notation]").count() == 0
    assert horizontal_overflow(page) == 0
    page.screenshot(path="/tmp/cheese-end.png", full_page=True)


def test_the_other_hands_show_only_card_backs(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "cheese", 3)
    wait_my_turn(page)
    # DECISIONS all-3, cheese-4: seat 0 plays first; seats 1 and 2 hold 6 cheeses and 2 animals, face down
    for seat in (1, 2):
        other = page.locator(f".other[data-seat='{seat}']")
        assert other.locator(".card.back").count() == 8
        assert other.locator(".face").count() == 0
        assert other.locator("[data-test=backs] .count").inner_text() == "8"
    assert page.locator(".other[data-seat='0']").count() == 0
    # my own hand: the 6 cheeses and 2 animals, face up
    assert page.locator("[data-test=hand] .hand-card").count() == 8
    assert page.locator("[data-test=hand] .face.kind-cheese").count() == 6
    # 3 players: no start card, the first card goes on the frame's centre (f6)
    assert page.locator("[data-test=grid] .face.kind-S").count() == 0


def test_a_card_then_a_cell_and_the_selection_can_be_cancelled(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "cheese", 2)
    wait_my_turn(page)
    assert page.locator("[data-test=grid] [data-notation]").count() == 0  # no cell before a card is chosen
    page.click("[data-test=hand] button[data-card='3']")
    targets = page.locator("[data-test=grid] button[data-notation]")
    assert targets.count() == 4  # the four sides of the start card (cheese-3)
    assert all(n.startswith("3 ") for n in targets.evaluate_all("els => els.map(e => e.dataset.notation)"))
    page.click("[data-test=cancel]")
    assert page.locator("[data-test=grid] [data-notation]").count() == 0
    page.click("[data-test=hand] button[data-card='3']")
    page.click("[data-test=grid] button[data-cell='e4']")
    page.wait_for_selector("[data-test=grid] [data-cell='e4'] .face.kind-cheese")
    placed = page.evaluate(
        "() => window.ludotheque.log.filter(e => e.type === 'place').map(e => [e.seat, e.card, e.cell])"
    )
    assert placed[0] == [0, "3", "e4"]


def test_the_keyboard_plays_a_card(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "cheese", 2)
    wait_my_turn(page)
    page.focus("[data-test=hand] button[data-card='1']")
    page.keyboard.press("Enter")
    target = page.evaluate("() => document.activeElement.dataset.notation")
    assert target and target.startswith("1 ")  # the focus went to the first golden cell
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.ludotheque.log.some(e => e.type === 'place' && e.seat === 0)")


def test_a_phone_holds_a_four_player_game_in_the_middle(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "cheese", 4)
    rng = random.Random(5)
    for _ in range(5):
        place_one(page, rng)
    wait_my_turn(page)
    page.click("[data-test=hand] button[data-step] >> nth=0")
    assert horizontal_overflow(page) == 0
    page.screenshot(path="/tmp/cheese-mid.png", full_page=True)
    grid = page.locator("[data-test=grid]").bounding_box()
    board = page.locator(".board").bounding_box()
    assert grid is not None and board is not None and grid["width"] <= board["width"]


def test_french_first_then_english(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "cheese", 2)
    wait_my_turn(page)
    assert "Votre main" in page.locator("[data-test=hand] h3").inner_text()
    assert "Pioche" in page.locator("[data-test=pile]").inner_text()
    page.click("[data-test=lang]")
    assert "Your hand" in page.locator("[data-test=hand] h3").inner_text()
    assert "Pile" in page.locator("[data-test=pile]").inner_text()


def test_the_rules_help_opens_in_both_languages(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "cheese", 2)
    french, english = rules_help_texts(page)
    assert "But du jeu" in french and "Goal" in english
