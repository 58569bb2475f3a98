"""Leaving a game and the ratings people see, in real browsers: resigning with a confirmation seen by both people,
the warning before leaving a rated game in play, the end box's rating changes, a rematch declined and seen by
whoever offered it, the player pages and /me with their chart, and the lobby's invite, filters and turn counter."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tests.server.client import Client

from ludotheque.server.process import ServerProcess

from .driver import play_by_clicking

WAIT = 60_000  # ms: a loaded machine is slow, never wrong


def create(base: str, seats: list[str], player_token: str | None = None, **extra: Any) -> dict[str, Any]:
    headers = {"X-Player-Token": player_token} if player_token else {}
    response = httpx.post(f"{base}/api/tables", headers=headers, json={
        "game": "geier", "players": len(seats), "seats": seats, "player_name": "Ana", **extra})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def sit(page: Any, base: str, table_id: str, seat: int, token: str, player: str | None = None) -> None:
    """Opens the table in ``page`` as the browser that holds ``seat`` (and, if given, is ``player``)."""
    page.goto(f"{base}/")
    page.evaluate("""([id, seat, token, player]) => {
        const held = {[id]: {seat, token, game: "geier", since: Date.now()}};
        localStorage.setItem("ludotheque.seats", JSON.stringify(held));
        if (player) localStorage.setItem("ludotheque.player", player); }""", [table_id, seat, token, player])
    page.goto(f"{base}/tables/{table_id}")
    page.wait_for_selector("[data-test=status]", timeout=WAIT)


@pytest.fixture
def other(browser: Any) -> Iterator[Any]:
    """A second person's phone: a browser context of its own; page errors fail the test."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="en-GB")
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield tab
    finally:
        context.close()
    assert not errors, f"the page raised: {errors}"


def test_a_resignation_is_confirmed_seen_by_both_rated_as_a_loss_and_a_rematch_declined_is_seen(
    page: Any, other: Any, web_server: ServerProcess
) -> None:
    created = create(web_server.url, ["me", "open"], rated=True)
    table = created["table_id"]
    bo = httpx.post(f"{web_server.url}/api/tables/{table}/join", json={"name": "Bo"}).json()
    sit(page, web_server.url, table, created["seat"], created["token"], created["player_token"])
    sit(other, web_server.url, table, bo["seat"], bo["token"], bo["player_token"])
    page.wait_for_selector("[data-test=resign]", timeout=WAIT)

    # leaving the page of a rated game in play asks first (the browser's own words)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.type), dialog.dismiss()))
    page.click("[data-test=rules]")  # a page the person touched: browsers ask only then
    page.click("[data-test=rules]")
    page.evaluate("() => { location.href = '/'; }")
    page.wait_for_timeout(500)  # the dialog is answered (dismissed) by the handler above; the page stays
    assert dialogs == ["beforeunload"] and "/tables/" in page.url

    # Bo resigns: asked first (in English, his browser's language), then both people see it
    other.click("[data-test=resign]")
    assert "counts as a loss" in other.locator(".leave.confirm").inner_text()
    other.click("[data-test=resign-cancel]")
    assert other.locator("[data-test=resign]").is_visible()
    other.click("[data-test=resign]")
    other.click("[data-test=resign-confirm]")
    other.wait_for_selector("[data-test=away]", timeout=WAIT)
    assert "You resigned" in other.locator("[data-test=away]").inner_text()
    assert other.locator("[data-test=reclaim]").count() == 0  # a resigned seat is not taken back
    page.wait_for_selector("[data-away='1'][data-departure=resigned]", timeout=WAIT)
    assert "Bo a abandonné" in page.locator("[data-away='1']").inner_text()

    # Ana plays on against the bot in Bo's seat; the end box shows both rating changes
    play_by_clicking(page, random.Random(50))
    page.wait_for_selector("[data-rating-change='0']", timeout=WAIT)
    mine = page.locator("[data-rating-change='0']").inner_text()
    his = page.locator("[data-rating-change='1']").inner_text()
    assert mine.startswith("+") and "prov." in mine  # Ana finished ahead of a resigned seat, a newcomer
    assert his.startswith("\u2212") and "prov." in his
    summary = httpx.get(f"{web_server.url}/api/tables/{table}").json()
    assert summary["seats"][1]["departure"] == "resigned" and summary["rating_changes"]["1"] < 0
    dialogs.clear()
    assert page.evaluate("() => { const e = new Event('beforeunload', {cancelable: true}); "
                         "window.dispatchEvent(e); return e.defaultPrevented; }") is False

    # Ana offers a rematch, Bo declines it, and Ana, waiting at the new table, is told
    page.click("[data-test=rematch]")
    page.wait_for_url(lambda url: "/tables/" in url and table not in url, timeout=WAIT)
    other.wait_for_selector("[data-test=rematch-decline]", timeout=WAIT)
    other.click("[data-test=rematch-decline]")
    other.wait_for_selector("[data-test=rematch-declined]", timeout=WAIT)
    assert "You declined" in other.locator("[data-test=rematch-declined]").inner_text()
    page.wait_for_selector("[data-test=rematch-declined]", timeout=WAIT)
    assert "Bo refuse la revanche" in page.locator("[data-test=rematch-declined]").inner_text()


def test_a_player_page_and_me_show_ratings_with_a_chart_and_results_and_names_link_there(
    page: Any, web_server: ServerProcess
) -> None:
    guest = httpx.post(f"{web_server.url}/api/players", json={"name": "Carla"}).json()["token"]
    account = httpx.post(f"{web_server.url}/api/me/account", headers={"X-Player-Token": guest},
                         json={"username": "carla", "password": "a long enough password"}).json()
    player = account["token"]
    # two rated games, each resigned at once: the bot finishes them, and Carla's rating has a history
    for _ in range(2):
        created = create(web_server.url, ["me", "bot:random"], player_token=player, rated=True)
        seated = Client(web_server.ws_url, created["table_id"], created["token"])
        try:
            seated.hello()
            seated.send({"type": "resign"})
            while (seated.state or {}).get("status") != "finished":
                seated.next("state", timeout=120)
        finally:
            seated.close()
    page.goto(f"{web_server.url}/players/CARLA")
    page.wait_for_selector("[data-test=ratings] [data-game=geier]", timeout=WAIT)
    assert page.locator("[data-test=player-name]").inner_text() == "carla"
    assert "prov." in page.locator("[data-test=rating]").inner_text()
    assert page.locator("svg.rating-chart[data-chart=geier] polyline").count() == 1
    results = page.locator("[data-test=recent] [data-test=result]")
    assert results.count() == 2 and "place 2" in results.nth(0).inner_text()
    assert "abandon" in results.nth(0).inner_text()

    # the leaderboard's name is a link to that page
    page.goto(f"{web_server.url}/ratings/geier")
    page.wait_for_selector("[data-test=leaderboard] a[data-player=carla]", timeout=WAIT)
    page.click("[data-test=leaderboard] a[data-player=carla]")
    page.wait_for_url("**/players/carla", timeout=WAIT)

    # /me: the same ratings with the chart, each game's place, points and departure, and the public page
    page.evaluate("(token) => localStorage.setItem('ludotheque.player', token)", player)
    page.goto(f"{web_server.url}/me")
    page.wait_for_selector("[data-test=games] [data-test=result]", timeout=WAIT)
    assert page.locator("svg.rating-chart[data-chart=geier]").count() == 1
    line = page.locator("[data-test=games] [data-test=result]").nth(0).inner_text()
    assert "place 2 sur 2" in line and "points" in line and "abandon" in line
    assert page.locator("[data-test=public-page]").get_attribute("href") == "/players/carla"

    # a guest has no page: said in the page's language
    page.goto(f"{web_server.url}/players/nobody-here")
    page.wait_for_selector("[role=alert]", timeout=WAIT)
    assert "seuls les comptes" in page.locator("[role=alert]").inner_text()


def test_the_invite_says_who_and_what_the_link_copies_the_lobby_filters_and_counts_turns(
    page: Any, other: Any, web_server: ServerProcess
) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=web_server.url)
    page.goto(f"{web_server.url}/")
    page.click("[data-game=geier]")
    page.wait_for_selector("#create form", timeout=WAIT)
    why = page.locator("[data-test=rated-why]")
    assert why.is_hidden()
    page.check("[data-test=hints]")
    assert why.is_visible() and "jamais classée" in why.inner_text()
    assert page.locator("input[name=rated]").is_disabled()
    page.uncheck("[data-test=hints]")
    assert why.is_hidden()
    page.check("input[name=rated]")
    page.select_option("select[name=clock]", "normal")
    page.select_option("[data-seat='1']", "open")
    page.fill("input[name=name]", "Ana")
    page.click("[data-test=create]")
    page.wait_for_selector("[data-test=invite] [data-test=copy]", timeout=WAIT)
    page.click("[data-test=invite] [data-test=copy]")
    page.wait_for_selector("[data-test=copied]", timeout=WAIT)
    assert page.locator("[data-test=copied]").inner_text() == "Lien copié"
    url = page.locator("[data-test=invite] input").input_value()

    # the friend's page says who invites them, to what, on which terms
    other.goto(url)
    other.wait_for_selector("[data-test=invite-facts]", timeout=WAIT)
    facts = other.locator("[data-test=invite-facts]").inner_text()
    assert "Ana invites you to a game of" in facts
    terms = other.locator("[data-test=invite-terms]").inner_text()
    assert "Rated game" in terms and "2 players" in terms and "move" in terms.lower()
    assert other.locator("[data-test=invite-options] li").count() >= 1
    assert "Ana" in other.locator("ol.seats").inner_text()

    # an unrated table without a clock beside it: the filters keep one or the other
    create(web_server.url, ["me", "open"])
    page.goto(f"{web_server.url}/")
    page.wait_for_selector("[data-test=filters]", timeout=WAIT)
    rows = page.locator("[data-test=open-tables] .table-row")
    every = rows.count()
    page.select_option("[data-filter=rated]", "true")
    rated = rows.count()
    page.select_option("[data-filter=rated]", "false")
    assert rated >= 1 and rated + rows.count() == every
    page.select_option("[data-filter=rated]", "")
    page.select_option("[data-filter=clock]", "live")
    assert all("Partie classée" in rows.nth(i).inner_text() for i in range(rows.count()))
    page.select_option("[data-filter=game]", "mu")
    page.wait_for_selector("[data-test=none-open]")

    # a table where it is the person's turn: the counter in the top bar
    mine = create(web_server.url, ["me", "bot:random"])
    page.evaluate("""([id, seat, token]) => localStorage.setItem("ludotheque.seats",
        JSON.stringify({[id]: {seat, token, game: "geier", since: Date.now()}}))""",
                  [mine["table_id"], mine["seat"], mine["token"]])
    page.goto(f"{web_server.url}/")
    page.wait_for_selector("[data-test=turn-count]", timeout=WAIT)
    assert page.locator("[data-test=turn-count]").inner_text() == "● 1"
    assert page.title().startswith("(1)")
