"""Safarü's table in a real browser: whole games played by clicking (Safarü at 2, Safarü renversé at 3), what a seat
must not see, the phone's width, the two languages and the rules help."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from ludotheque.server.process import ServerProcess

from .driver import OFFERED, horizontal_overflow, open_table, play_by_clicking


def click_until(page: Any, rng: random.Random, stop: Callable[[dict[str, Any]], bool], timeout: float = 60.0,
                seen: set[str] | None = None) -> dict[str, Any]:
    """Click offered moves (as the driver does, reading the page in one go) until ``stop(frame)`` holds at one of the
    person's turns or the game ends; every legal move must be offered on the page, and nothing else.  ``seen``
    collects the types of the moves offered."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state: dict[str, Any] | None
        state, pending, shown = page.evaluate("""() => [window.ludotheque.state, Boolean(window.ludotheque.pending),
            [...document.querySelectorAll("[data-notation]:not([disabled])")].map(e => e.dataset.notation)]""")
        if state and (state["view"]["terminal"] or (state["legal"] and not pending and stop(state))):
            return state
        if state and state["legal"] and not pending and shown:
            legal = [m["notation"] for m in state["legal"]]
            assert set(shown) == set(legal), f"offered {sorted(shown)}, legal {sorted(legal)}"
            if seen is not None:
                seen.update(m["move"]["type"] for m in state["legal"])
            page.locator(OFFERED).nth(rng.randrange(len(shown))).click()
            continue
        page.wait_for_timeout(40)
    raise AssertionError("the stop condition never came")


def test_a_whole_game_of_safaru_at_two_players_by_clicking(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "safaru", 2)
    page.wait_for_selector("[data-test=hand]")
    final = play_by_clicking(page, random.Random(4), timeout=120)
    assert final["view"]["terminal"]
    # the scoring of the game_end event: one block per side with the four items of safaru-6
    scoring = page.locator("[data-test=scoring]")
    assert scoring.locator("[data-test=side-score]").count() == 2
    text = scoring.inner_text()
    for item in ("Le plus de licornes", "Le plus de hérissons", "Bébés", "Triangles"):
        assert item in text
    assert "Victoire" in page.locator("[data-test=end]").inner_text()
    page.screenshot(path="/tmp/safaru-end.png", full_page=True)


def test_a_whole_game_of_safaru_renverse_at_three_players_by_clicking(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "safaru", 3, {"renverse": True})
    page.wait_for_selector("[data-test=hand]")
    assert "Safarü renversé" in page.locator(".sf-head").inner_text()
    seen: set[str] = set()
    final = click_until(page, random.Random(7), lambda state: False, timeout=120, seen=seen)
    page.wait_for_selector("[data-test=end]")
    assert final["view"]["terminal"]
    # DECISIONS safaru-7: the left neighbour names the method; the log says who picked for whom
    picks = [e for e in page.evaluate("() => window.ludotheque.log") if e["type"] == "pick"]
    assert picks, "no method was picked in a whole game of renversé"
    # the player never chooses the method (nor stops after a catch): each catch uses the one method given
    assert "play" in seen and not seen & {"begin", "done"}
    scoring = page.locator("[data-test=scoring]")
    assert scoring.locator("[data-test=side-score]").count() == 3
    assert "Le plus de cartes" in scoring.inner_text() and "Le plus de licornes" not in scoring.inner_text()


def test_the_left_neighbour_picks_the_method_by_clicking(page: Any, web_server: ServerProcess) -> None:
    # seat 0 is the left neighbour of seat 1 at 2 players: renversé hands seat 0 the pick (safaru-7)
    open_table(page, web_server.url, "safaru", 2, {"renverse": True})
    page.wait_for_selector("[data-test=hand]")
    state = click_until(page, random.Random(11), lambda s: any(m["move"]["type"] == "pick" for m in s["legal"]),
                        timeout=90)
    if state["view"]["terminal"]:  # no card of seat 1 could catch two ways in this game: nothing to check
        return
    assert "À vous de choisir la méthode" in page.locator("[data-test=picker]").inner_text()
    buttons = page.locator("[data-test=actions] button[data-notation^='pick ']")
    assert buttons.count() == len(state["legal"]) >= 2
    page.screenshot(path="/tmp/safaru-pick.png", full_page=True)


def test_the_other_hands_show_only_their_backs(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "safaru", 3)
    page.wait_for_selector("[data-test=hand] button[data-notation]")
    click_until(page, random.Random(5), lambda s: s["view"]["table"]["turn"] is None and len(s["legal"]) < 4)
    for seat in (1, 2):
        panel = page.locator(f".sf-seat[data-seat='{seat}']")
        backs = panel.locator(".card.back").count()
        said = panel.locator(".sf-count").inner_text()
        assert backs == int(said.split()[0]), said
        assert panel.locator("[data-card]").count() == 0  # no face of another hand anywhere in its panel
        assert "".join(panel.locator(".card.back").all_inner_texts()).strip() == ""
    # the faces the page shows from hands are the seat's own only
    mine = page.locator("[data-test=hand] [data-card]").count()
    assert mine == page.locator(".sf-seat[data-seat='0'] .card.back").count()
    assert page.locator("[data-test=pile] [data-card]").count() == 0


def test_the_table_fits_a_phone_in_the_middle_of_a_game(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "safaru", 4, {"games": 2})
    page.wait_for_selector("[data-test=hand]")
    click_until(page, random.Random(6),
                lambda s: s["view"]["table"]["pile"] <= 24 and s["view"]["table"]["turn"] is not None)
    assert horizontal_overflow(page) == 0
    assert "Équipes" in page.locator("[data-test=teams]").inner_text()  # safaru-2: partners at 4
    assert page.locator("[data-test=caught] .sf-side-sum").count() == 2  # one line per team
    page.screenshot(path="/tmp/safaru-mid.png", full_page=True)


def test_french_first_then_english(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "safaru", 2)
    page.wait_for_selector("[data-test=hand]")
    assert page.locator("[data-test=hand] h3").inner_text() == "Votre main"
    assert "Le plus haut score gagne." in page.locator(".sf-head").inner_text()
    page.click("[data-test=lang]")
    assert page.locator("[data-test=hand] h3").inner_text() == "Your hand"
    assert "The highest score wins." in page.locator(".sf-head").inner_text()


def test_the_rules_help_in_both_languages(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "safaru", 2)
    page.wait_for_selector("[data-test=hand]")
    page.click("[data-test=rules]")
    page.wait_for_selector(".rules-body h2")
    assert "Mise en place" in page.locator(".rules-body").inner_text()
    page.click(".rules .close")
    page.click("[data-test=lang]")
    page.click("[data-test=rules]")
    page.wait_for_selector(".rules-body h2")
    body = page.locator(".rules-body").inner_text()
    assert "Setup" in body and "Safarü renversé" in body
