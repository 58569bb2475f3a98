"""The web shell in a real browser: the lobby, languages, creating a table, the generic renderer, phones."""

from __future__ import annotations

import random
from typing import Any

from ludotheque.server.process import ServerProcess

from .driver import horizontal_overflow, open_table, play_by_clicking


def test_the_lobby_speaks_french_first_and_remembers_english(page: Any, web_server: ServerProcess) -> None:
    page.goto(f"{web_server.url}/")
    page.wait_for_selector(".game-card")
    assert page.locator("h1").inner_text() == "La ludothèque"
    assert page.locator(".game-card").count() == 7
    page.click("[data-test=lang]")
    assert page.locator("h1").inner_text() == "The ludotheque"
    page.reload()
    page.wait_for_selector(".game-card")
    assert page.locator("h1").inner_text() == "The ludotheque"
    assert horizontal_overflow(page) == 0


def test_creating_a_table_from_the_lobby_and_playing_it(page: Any, web_server: ServerProcess) -> None:
    page.goto(f"{web_server.url}/")
    page.click("[data-game=geier]")
    page.select_option("select[name=players]", "3")
    page.select_option("[data-seat='1']", "bot:random")
    page.fill("input[name=name]", "Ana")
    page.click("[data-test=create]")
    page.wait_for_url("**/tables/*")
    page.wait_for_selector("[data-test=status]")
    final = play_by_clicking(page, random.Random(1))
    assert final["view"]["game"] == "geier" and final["view"]["players"] == 3
    assert "Ana" in page.locator(".seats").inner_text()


def test_the_generic_renderer_makes_any_game_playable(page: Any, web_server: ServerProcess) -> None:
    table = open_table(page, web_server.url, "cheese", 2)
    page.goto(f"{web_server.url}/tables/{table}?renderer=fallback")
    final = play_by_clicking(page, random.Random(2))
    assert final["view"]["terminal"]


def test_an_invite_link_lets_a_friend_take_the_open_seat(browser: Any, web_server: ServerProcess) -> None:
    host = browser.new_context(viewport={"width": 360, "height": 740}, locale="fr-FR").new_page()
    host.goto(f"{web_server.url}/")
    host.click("[data-game=geier]")
    host.select_option("[data-seat='1']", "open")
    host.fill("input[name=name]", "Ana")
    host.click("[data-test=create]")
    link = host.locator("[data-test=invite] input").input_value()
    friend = browser.new_context(viewport={"width": 360, "height": 740}, locale="fr-FR").new_page()
    friend.goto(link)
    friend.fill("input[name=name]", "Bo")
    friend.click("text=Prendre une place")
    friend.wait_for_selector("[data-test=status]")
    host.goto(link)
    host.wait_for_selector("[data-test=status]")
    assert "Bo" in host.locator(".seats").inner_text() and "Ana" in friend.locator(".seats").inner_text()


def test_the_rules_open_without_leaving_the_table(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "geier", 2)
    page.wait_for_selector("[data-test=status]")
    page.click("[data-test=rules]")
    page.wait_for_selector(".rules-body h2, .rules-body h1, .rules-body p")
    assert "Règles" in page.content()


def test_the_lobby_lists_open_tables_and_this_browsers_games_and_play_again_starts_a_new_one(
    page: Any, web_server: ServerProcess
) -> None:
    import httpx

    waiting = httpx.post(f"{web_server.url}/api/tables", json={"game": "mu", "players": 3,
                                                                "seats": ["bot:easy", "open", "open"]}).json()
    table = open_table(page, web_server.url, "geier", 2, bots="random")
    page.goto(f"{web_server.url}/")
    page.wait_for_selector(".table-row")
    rows = page.locator(".table-row").all_inner_texts()
    assert any("Rejoindre" in row for row in rows)  # an open table to join
    assert any("Reprendre" in row for row in rows)  # this browser's table in progress
    page.click(f"a[href='/tables/{table}']")
    final = play_by_clicking(page, random.Random(4))
    assert final["view"]["terminal"]
    page.click("text=Revanche")
    page.wait_for_url(lambda url: table not in url and "/tables/" in url)
    page.wait_for_selector("[data-test=status]")
    assert waiting["table_id"] != table


def test_your_turn_shows_in_the_title_and_icon_and_the_sound_choice_is_remembered(
    page: Any, web_server: ServerProcess
) -> None:
    open_table(page, web_server.url, "geier", 2, bots="random")
    page.wait_for_function("() => document.title.startsWith('●')")
    assert page.locator("link[rel=icon]").get_attribute("href") == "/static/favicon-turn.svg"
    assert page.locator("[data-test=sound]").inner_text() == "Son\u00a0: non"
    page.click("[data-test=sound]")
    page.reload()
    page.wait_for_selector("[data-test=status]")
    assert page.locator("[data-test=sound]").inner_text() == "Son\u00a0: oui"
    assert horizontal_overflow(page) == 0


def test_names_are_shown_as_text_never_as_html(page: Any, web_server: ServerProcess) -> None:
    import httpx

    attack = "<img src=x onerror=\"window.hacked=1\">"
    created = httpx.post(f"{web_server.url}/api/tables", json={
        "game": "geier", "players": 2, "seats": ["me", "open"], "name": attack, "player_name": attack}).json()
    table = created["table_id"]
    friend = httpx.post(f"{web_server.url}/api/tables/{table}/join", json={"name": f"Bo {attack}"}).json()
    page.goto(f"{web_server.url}/")
    page.evaluate("""([id, seat, token]) => localStorage.setItem("ludotheque.seats",
        JSON.stringify({[id]: {seat, token, game: "geier"}}))""", [table, friend["seat"], friend["token"]])
    page.goto(f"{web_server.url}/tables/{table}")
    page.wait_for_selector("[data-test=status]")
    page.wait_for_timeout(300)
    assert attack in page.locator(".seats").inner_text()  # the name, as it was typed
    assert page.locator("img[src=x]").count() == 0 and not page.evaluate("() => window.hacked")
    page.goto(f"{web_server.url}/")
    page.wait_for_selector(".table-row")
    assert page.locator("img[src=x]").count() == 0 and not page.evaluate("() => window.hacked")
