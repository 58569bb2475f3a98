"""MICE to meet you in a real browser: played by clicking the dice, the mouse cards and the dice cards.

Everything at a MICE table is public (DECISIONS mice-1), so what a seat must not see is nothing of the table:
the checks here are that it sees every seat's cards face up, as a spectator does, and can act on nothing but its
own cards and the dice of its own decisions.
"""

from __future__ import annotations

import random
import time
from typing import Any

import httpx

from ludotheque.server.process import ServerProcess

from .driver import OFFERED, frame, horizontal_overflow, open_table, play_by_clicking


def click_until(page: Any, rng: random.Random, done: Any, timeout: float = 30.0) -> dict[str, Any]:
    """Click offered moves at random (as ``play_by_clicking``) until ``done(frame)`` holds at one of our turns."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = frame(page)
        pending = page.evaluate("() => Boolean(window.ludotheque && window.ludotheque.pending)")
        offered = page.locator(OFFERED)
        count = offered.count()
        if state and state["legal"] and not pending and count:
            if done(state):
                return state
            offered.nth(rng.randrange(count)).click()
            continue
        assert not (state and state["view"]["terminal"]), "the game ended before the position looked for"
        page.wait_for_timeout(50)
    raise AssertionError("the position looked for did not come")


def my_phase(*phases: str) -> Any:
    return lambda state: state["view"]["table"]["phase"] in phases


def test_a_two_player_game_played_by_clicking_ends_with_the_count(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "mice", 2)
    final = play_by_clicking(page, random.Random(3))
    assert final["view"]["terminal"]
    count = page.locator("[data-test=mice-final]")
    # mice-7: the totals in hand, then the tie-breaks (face-down dice cards, nuts), lowest total first
    assert count.locator("tbody tr").count() == 2
    totals = [int(t) for t in count.locator("tbody tr td:nth-child(3)").all_inner_texts()]
    assert totals == sorted(totals)
    assert sorted(totals) == sorted(int(s["hand_total"]) for s in final["view"]["table"]["seats"])
    assert count.locator("tr.win").count() == len(final["view"]["winners"])


def test_the_solo_game_ends_with_its_rating(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "mice", 1, {"level": "hardest"})
    page.wait_for_selector("[data-test=mice-phase]")
    assert page.locator(".middle .supply").inner_text().strip().endswith("3")  # mice-8: hardest, 3 in the middle
    final = play_by_clicking(page, random.Random(4))
    rating = page.locator("[data-test=mice-rating]").inner_text()
    ratings = ["Génial", "Formidable", "Très bien", "Bien joué", "Pas mal", "Peut mieux faire", "Dommage"]
    assert any(rating.startswith(r) for r in ratings)
    assert final["view"]["table"]["rating"].split()[0].rstrip(",") in rating
    assert page.locator("[data-test=mice-final] tr.reached").count() == 1


def test_choosing_dice_builds_the_use_move_and_can_be_cleared(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "mice", 1)
    state = click_until(page, random.Random(5), my_phase("select"))
    legal = {entry["notation"] for entry in state["legal"]}
    dice = state["view"]["table"]["dice"]
    yellow = page.locator(".tray button.die")
    assert yellow.count() == sum(1 for d in dice if d["die"].startswith("Y"))
    assert page.locator(".tray .die.red").count() == sum(1 for d in dice if d["die"].startswith("R"))
    yellow.first.click()
    assert yellow.first.get_attribute("aria-pressed") == "true"
    use = page.locator(".middle .moves button.primary")
    notation = use.get_attribute("data-notation")
    if "use R+Y1" in legal:
        assert notation == "use R+Y1"
    else:  # no card within reach with these dice: the button says so and sends nothing
        assert notation is None and use.is_disabled()
    page.click("[data-step=clear]")
    assert page.locator(".tray button.die").first.get_attribute("aria-pressed") == "false"
    assert page.locator("[data-step=clear]").count() == 0
    assert page.locator("[data-notation=fail]").count() == 1


def test_a_seat_sees_every_hand_face_up_and_can_only_touch_its_own(
    page: Any, browser: Any, web_server: ServerProcess
) -> None:
    table = open_table(page, web_server.url, "mice", 3)
    click_until(page, random.Random(6), lambda s: s["view"]["table"]["turn"] >= 4)
    for seat in (1, 2):
        panel = page.locator(f".seat-panel[data-seat='{seat}']")
        cards = [int(v) for v in panel.locator(".hand .card.mouse .v").all_inner_texts()]
        empty = [int(v) for v in panel.locator(".hand .slot").all_inner_texts()]
        # mice-1: the whole hand is public, face up, each card where its number goes
        assert sorted(cards + empty) == list(range(1, 19)) and cards
        assert panel.locator("button").count() == 0  # nothing on another seat's side can be clicked
        assert panel.locator(".dicecard").count() == 4
    # a spectator sees the same table, and no move at all
    watcher = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    watcher.goto(f"{web_server.url}/tables/{table}")
    watcher.wait_for_selector(".seat-panel[data-seat='2']")
    assert watcher.locator(".seat-panel").count() == 3
    assert watcher.locator("[data-notation], [data-step]").count() == 0
    watcher.context.close()


def test_the_table_fits_a_phone_in_the_middle_of_a_five_player_game(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "mice", 5)
    click_until(page, random.Random(7), lambda s: s["view"]["table"]["turn"] >= 7 and my_phase("pay", "adjust")(s))
    assert page.locator(".seat-panel").count() == 5
    assert horizontal_overflow(page) == 0
    page.screenshot(path="/tmp/mice.png", full_page=True)


def test_french_first_then_english(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "mice", 2)
    page.wait_for_selector(".game-mice .middle")
    assert "Le milieu de la table" in page.locator(".game-mice .middle-head").text_content()
    assert "Réserve" in page.locator(".game-mice .middle-head").text_content()
    page.click("[data-test=lang]")
    assert "The middle of the table" in page.locator(".game-mice .middle-head").text_content()
    assert "Supply" in page.locator(".game-mice .middle-head").text_content()


def test_the_rules_open_in_both_languages(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "mice", 1)
    page.wait_for_selector("[data-test=status]")
    page.click("[data-test=rules]")
    page.wait_for_selector(".rules-body h2")
    assert "Partie en solo" in page.locator(".rules-body").inner_text()
    page.click(".rules .close")
    page.click("[data-test=lang]")
    page.click("[data-test=rules]")
    page.wait_for_selector(".rules-body h3:has-text('Solo game')")
    assert "Material" in page.locator(".rules-body").inner_text()


def test_the_web_folder_serves_its_files(web_server: ServerProcess) -> None:
    for name in ("renderer.js", "messages.json", "rules.fr.md", "rules.en.md", "picture.svg"):
        assert httpx.get(f"{web_server.url}/games/mice/web/{name}").status_code == 200, name
    messages = httpx.get(f"{web_server.url}/games/mice/web/messages.json").json()
    assert set(messages["fr"]) == set(messages["en"])
    assert all(key.startswith("mice.") for key in messages["fr"])
