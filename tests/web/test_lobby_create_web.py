"""Creating a table from the lobby in a real browser: a double click on "Créer la table" makes one table; the button
waits for the answer and comes back after a failure; each submission carries an Idempotency-Key of its own."""

from __future__ import annotations

import re
from typing import Any

import httpx

from ludotheque.server.process import ServerProcess

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def open_tables(server: ServerProcess) -> set[str]:
    return {table["id"] for table in httpx.get(f"{server.url}/api/tables").json()}


def fill_form(page: Any, server: ServerProcess) -> None:
    """The lobby's form for a Geier table with an open seat (so that the table is listed while it waits)."""
    page.goto(f"{server.url}/")
    page.click("[data-game=geier]")
    page.select_option("[data-seat='1']", "open")
    page.fill("input[name=name]", "Ana")


def creations(page: Any) -> list[Any]:
    """The table creations the page sends, as Playwright requests."""
    sent: list[Any] = []
    page.on("request", lambda request: sent.append(request)
            if request.method == "POST" and request.url.endswith("/api/tables") else None)
    return sent


def test_a_double_click_on_create_makes_one_table(page: Any, web_server: ServerProcess) -> None:
    before = open_tables(web_server)
    sent = creations(page)
    fill_form(page, web_server)
    page.dblclick("[data-test=create]")
    page.wait_for_selector("[data-test=invite]")
    new = open_tables(web_server) - before
    assert len(new) == 1, new
    assert len(sent) == 1 and UUID.match(sent[0].headers["idempotency-key"])
    held = page.evaluate("() => Object.keys(JSON.parse(localStorage.getItem('ludotheque.seats')))")
    assert held == list(new)
    assert page.locator("[data-test=invite] input").input_value().endswith(f"/tables/{next(iter(new))}")


def test_the_create_button_waits_for_the_answer_and_comes_back_after_a_failure(
    page: Any, web_server: ServerProcess
) -> None:
    before = open_tables(web_server)
    sent = creations(page)
    fill_form(page, web_server)
    held: list[Any] = []
    # the first creation is held until the test has looked at the button, then fails as a server that is down
    page.route("**/api/tables", lambda route: held.append(route) if route.request.method == "POST"
               else route.continue_())
    page.click("[data-test=create]")
    page.wait_for_function("() => document.querySelector('[data-test=create]').disabled")
    page.click("[data-test=create]", force=True)  # a second click on the disabled button sends nothing
    assert len(held) == 1
    held[0].fulfill(status=503, content_type="application/json", body='{"detail": "unavailable"}')
    page.wait_for_selector(".notice.error")
    assert page.locator("[data-test=create]").is_enabled()
    page.unroute("**/api/tables")

    page.click("[data-test=create]")  # the person tries again: a new submission, a new key
    page.wait_for_selector("[data-test=invite]")
    assert len(open_tables(web_server) - before) == 1
    keys = [request.headers["idempotency-key"] for request in sent]
    assert len(keys) == 2 and keys[0] != keys[1]


def test_a_table_of_bots_only_is_created_for_a_new_guest(page: Any, web_server: ServerProcess) -> None:
    """The server asks a table whose every seat is a bot for a player's token: a browser that holds none makes a
    guest first, and the table is created and shown."""
    sent = creations(page)
    page.goto(f"{web_server.url}/")
    page.evaluate("() => localStorage.clear()")
    page.goto(f"{web_server.url}/")
    page.click("[data-game=geier]")
    page.select_option("[data-seat='0']", "bot:random")
    page.fill("input[name=name]", "Ana")
    page.click("[data-test=create]")
    page.wait_for_url(re.compile(r"/tables/"))
    assert len(sent) == 1 and sent[0].headers.get("x-player-token")
    assert page.evaluate("() => localStorage.getItem('ludotheque.player')")
