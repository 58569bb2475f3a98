"""Mü in a real browser: a short match played by clicking, what a seat may see, phones, languages, rules help."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

import pytest

from ludotheque.server.process import ServerProcess
from ludotheque.testing import fuzz_games

from .driver import (
    OFFERED,
    frame,
    horizontal_overflow,
    moved_under_pointer,
    open_table,
    play_by_clicking,
    rules_help_texts,
)

SHORT = {"target": 30}  # mu-9: a match to 30 points lasts a hand or so


def click_until(
    page: Any, rng: random.Random, done: Callable[[dict[str, Any]], bool], timeout: float = 40.0
) -> dict[str, Any]:
    """Click offered moves at random until ``done(frame)`` holds at one of the person's turns; at each turn the
    page offers every legal move and nothing else."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = frame(page)
        pending = page.evaluate("() => Boolean(window.ludotheque && window.ludotheque.pending)")
        offered = page.locator(OFFERED)
        if state and state["legal"] and not pending and offered.count():
            legal, shown = page.evaluate("""() => [window.ludotheque.state.legal.map(m => m.notation),
                [...document.querySelectorAll("[data-notation]:not([disabled])")].map(e => e.dataset.notation)]""")
            assert set(shown) == set(legal), "every legal move, and only those, is offered"
            if done(state):
                return state
            offered.nth(rng.randrange(offered.count())).click()
            continue
        assert not (state and state["view"]["terminal"]), "the match ended first"
        page.wait_for_timeout(60)
    raise AssertionError("the position never came")


@pytest.mark.fuzz
@pytest.mark.parametrize("seed", range(fuzz_games(1, 6)))
def test_a_short_match_is_played_by_clicking_to_its_end(page: Any, web_server: ServerProcess, seed: int) -> None:
    open_table(page, web_server.url, "mu", 4, {"target": 60})  # most often two hands or more
    final = play_by_clicking(page, random.Random(seed))
    assert final["view"]["terminal"]
    # the last hand's scoring (mu-3 or mu-8) and the match totals stay on the table at the end
    result = page.locator("[data-test=mu-result]")
    assert result.count() == 1
    assert any(word in result.inner_text() for word in ("Contrat réussi", "Contrat manqué", "Égalité"))
    totals = page.locator("[data-test=mu-totals] tr.mu-total td")
    shown = [int(totals.nth(i).inner_text()) for i in range(1, 5)]
    assert max(shown) >= 60
    # every line of the board and of the log is translated: no message key, no unfilled {field}
    for text in (page.locator(".board").inner_text(), page.locator(".log").inner_text()):
        assert "mu." not in text and "{" not in text
    page.screenshot(path="/tmp/mu-end.png", full_page=True)


def test_a_seat_sees_the_backs_of_the_other_hands_only(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "mu", 4, SHORT)
    page.wait_for_selector("[data-test=mu-hand] button.mu-card")  # seat 0 deals and opens the auction (mu-2)
    mine = page.locator("[data-test=mu-hand] .mu-card")
    assert mine.count() == 15
    others = page.locator("[data-test=mu-seats] [data-test=mu-seat]")
    assert others.count() == 3
    for index in range(3):
        seat = others.nth(index)
        backs = seat.locator("[data-test=mu-hand-count] .card.back")
        assert backs.count() == 1 and backs.inner_text().strip() == "15"  # a count, never the cards
        assert seat.locator("[data-test=mu-hand-count] .mu-card").count() == 0
        assert seat.locator(".mu-card").count() == 0  # nothing laid face up yet
    # every card face on the page is in the person's own hand
    assert page.locator(".mu-card").count() == 15


def test_a_card_under_the_pointer_stays_where_it_is(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "mu", 4, SHORT)
    page.wait_for_selector("[data-test=mu-hand] button.mu-card:not([disabled])")  # seat 0 opens the auction (mu-2)
    # each card of the hand and each button lights up under the pointer where it lies: lifted out from under the
    # pointer, a card would flicker and a click could not land on it
    assert moved_under_pointer(page) == []


def test_the_table_fits_a_phone_in_the_middle_of_a_trick(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "mu", 4)  # to 200 points: an égalité cannot end the match before a trick
    state = click_until(
        page, random.Random(7), lambda s: s["view"]["table"]["phase"] == "play" and bool(s["view"]["table"]["trick"])
    )
    assert state["view"]["table"]["chief"] is not None
    page.wait_for_selector("[data-test=mu-trick] .mu-card")
    assert page.locator("[data-test=mu-contract]").count() == 1
    assert horizontal_overflow(page) == 0
    page.screenshot(path="/tmp/mu-trick.png", full_page=True)


def test_french_first_then_english(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "mu", 3, SHORT)
    page.wait_for_selector("[data-test=mu-phase]")
    page.wait_for_selector("[data-notation=pass]")
    assert page.locator("[data-notation=pass]").inner_text() == "Passer"
    assert page.locator("[data-test=mu-phase]").inner_text() == "Enchères"
    page.click("[data-test=lang]")
    assert page.locator("[data-notation=pass]").inner_text() == "Pass"
    assert page.locator("[data-test=mu-phase]").inner_text() == "Auction"


def test_the_rules_help_opens_in_both_languages(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "mu", 3, SHORT)
    french, english = rules_help_texts(page)
    assert "Le décompte" in french and "Contract made" in english


def redealt_view(seed: int = 0) -> dict[str, Any]:
    """Seat 0's view of a 3-player match whose first hand nobody bid on (every seat passed): it was dealt again."""
    from ludotheque.core import CHANCE
    from ludotheque.games import load_game
    from ludotheque.games.mu.notation import PASS

    game = load_game("mu", players=3)
    state, rng = game.new_reference_state(), random.Random(seed)  # the Python engine's fields are read here
    while not state.log:  # the finished hands' summaries
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, weights)[0], CHANCE)
        else:
            actor = state.current_players()[0]
            state.apply_action(PASS, actor)
    view: dict[str, Any] = state.view(0)
    return view


#: The page's score sheet for a view, drawn by Mü's own renderer in the page's language
SHEET = """async ([view, lang]) => {
  const i18n = await import("/static/js/i18n.js");
  const {makeContext} = await import("/static/js/board.js");
  const renderer = await import("/games/mu/web/renderer.js");
  await i18n.loadGameCatalog("mu");
  i18n.setLang(lang);
  const root = document.createElement("div");
  renderer.render(root, makeContext({view, seat: 0, names: ["Ana", "Bo", "Cy"]}));
  return [...root.querySelectorAll("[data-test=mu-totals] tbody tr")].map((row) => row.innerText.trim());
}"""


def test_a_deal_is_one_line_and_a_redealt_hand_a_row_of_the_score_sheet(
    page: Any, web_server: ServerProcess
) -> None:
    open_table(page, web_server.url, "mu", 3, SHORT)
    page.wait_for_selector("[data-test=mu-hand] [data-notation]:not([disabled])")
    lines = page.locator(".log li").all_inner_texts()
    assert not any("reçoit" in line for line in lines), lines
    assert [line for line in lines if "distribuées" in line] == ["Les cartes sont distribuées\u202f: 12 cartes chacun."]

    view = redealt_view()
    assert view["table"]["hands"][0]["result"] == "redeal"
    rows = page.evaluate(SHEET, [view, "fr"])
    assert rows[0].startswith("1") and "redistribuée" in rows[0], rows
    assert "redealt" in page.evaluate(SHEET, [view, "en"])[0]
    assert "neu gegeben" in page.evaluate(SHEET, [view, "de"])[0]
