"""Life at the table in a real browser: the clocks and a bot playing a silent seat's move, who is online,
leaving and taking the seat back, the rematch in two browsers, and the lobby's clock and rated choices.

Every wait is for something the page shows (a selector or a condition on its latest frame), with generous
timeouts: the clocks are short, but nothing asserts how long anything took."""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import suppress
from typing import Any

import httpx
import pytest

from ludotheque.server.process import ServerProcess

from .driver import OFFERED, frame, horizontal_overflow

GEIER_CARDS = "[data-test=geier-hand] button[data-notation]:not([disabled])"
WAIT = 60_000  # ms: a loaded machine is slow, never wrong


def create(base: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    """A Hol's der Geier table for len(seats) players, created by Ana."""
    response = httpx.post(f"{base}/api/tables", json={"game": "geier", "players": len(seats), "seats": seats,
                                                        "player_name": "Ana", **extra})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def join(base: str, table_id: str, name: str) -> dict[str, Any]:
    response = httpx.post(f"{base}/api/tables/{table_id}/join", json={"name": name})
    assert response.status_code == 200, response.text
    joined: dict[str, Any] = response.json()
    return joined


def sit(page: Any, base: str, table_id: str, seat: int, token: str) -> None:
    """Opens the table in ``page`` as the browser that holds ``seat`` (its token in localStorage, as after joining)."""
    page.goto(f"{base}/")
    page.evaluate("""([id, seat, token]) => localStorage.setItem("ludotheque.seats",
        JSON.stringify({[id]: {seat, token, game: "geier", since: Date.now()}}))""", [table_id, seat, token])
    page.goto(f"{base}/tables/{table_id}")
    page.wait_for_selector("[data-test=status]", timeout=WAIT)


def seconds(text: str) -> int:
    minutes, secs = text.split(":")
    return int(minutes) * 60 + int(secs)


def held_seat(page: Any, table_id: str) -> int:
    seat: int = page.evaluate("(id) => JSON.parse(localStorage.getItem('ludotheque.seats'))[id].seat", table_id)
    return seat


@pytest.fixture
def other(browser: Any) -> Iterator[Any]:
    """A second person's phone: a browser context of its own (its own localStorage); page errors fail the test."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="fr-FR")
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield tab
    finally:
        context.close()
    assert not errors, f"the page raised: {errors}"


def test_a_silent_seat_s_clock_counts_down_then_a_bot_plays_its_move_and_the_game_goes_on(
    page: Any, web_server: ServerProcess
) -> None:
    # the reserve is long enough to see: two seconds for the move, then twelve of reserve, under ten is urgent
    created = create(web_server.url, ["me", "bot:random"], clock={"move": 2, "reserve": 12})
    table = created["table_id"]
    sit(page, web_server.url, table, created["seat"], created["token"])
    page.wait_for_selector("[data-clock='0'].running", timeout=WAIT)
    # a bot has no clock (bots are not timed) and no "online" dot (a bot is always there)
    assert page.locator("[data-clock='1']").count() == 0 and page.locator("[data-presence='1']").count() == 0
    assert page.locator("[data-presence='0'].on").count() == 1
    assert "Pendule\u00a0: 0:02 par coup + 0:12 de réserve" in page.locator("[data-test=facts]").inner_text()
    first = frame(page)
    assert first is not None and first["clock"] is not None
    cards = page.locator(GEIER_CARDS).count()
    start = seconds(page.locator("[data-clock='0']").inner_text())

    # the page counts down between two frames: a smaller time shows while the frame is still the same one
    page.wait_for_function("""([seq, start]) => {
        const clock = document.querySelector("[data-clock='0'].running");
        if (!clock || window.ludotheque.state.seq !== seq) return false;
        const [m, s] = clock.textContent.split(":").map(Number);
        return m * 60 + s < start;
    }""", arg=[first["seq"], start], timeout=WAIT)
    # the move time spent, the reserve runs: drawn apart, and urgent for one's own seat under ten seconds
    page.wait_for_selector("[data-clock='0'].running.reserve.urgent", timeout=WAIT)
    assert horizontal_overflow(page) == 0

    # time is up: a bot plays that one card, the table says so, and the next round offers Ana her cards again
    page.wait_for_selector("[data-test=log-notice].timeout", timeout=WAIT)
    assert page.locator("[data-test=life-notice]").inner_text() == "Temps écoulé\u00a0: un bot a joué pour Ana"
    page.wait_for_function("""([seq, cards]) => {
        const state = window.ludotheque.state;
        return state.seq > seq && state.legal.length > 0 &&
            document.querySelectorAll("[data-test=geier-hand] button[data-notation]:not([disabled])").length < cards;
    }""", arg=[first["seq"], cards], timeout=WAIT)
    latest = frame(page)
    assert latest is not None and latest["status"] == "playing" and not latest["view"]["terminal"]


def test_the_online_dot_of_a_person_goes_out_when_their_browser_closes(
    page: Any, other: Any, web_server: ServerProcess
) -> None:
    created = create(web_server.url, ["me", "open"])
    table = created["table_id"]
    bo = join(web_server.url, table, "Bo")
    sit(other, web_server.url, table, bo["seat"], bo["token"])
    sit(page, web_server.url, table, created["seat"], created["token"])
    page.wait_for_selector("[data-presence='1'].on", timeout=WAIT)
    assert page.locator("[data-presence='1']").get_attribute("aria-label") == "Bo est en ligne"
    assert page.locator("[data-clock]").count() == 0  # a table without a clock shows none
    other.context.close()
    page.wait_for_selector("[data-presence='1'].off", timeout=WAIT)
    assert page.locator("[data-presence='1']").get_attribute("aria-label") == "Bo est hors ligne"
    assert page.locator("[data-presence='0'].on").count() == 1


def test_leaving_lets_a_bot_play_the_seat_and_reclaiming_takes_it_back(
    page: Any, other: Any, web_server: ServerProcess
) -> None:
    # Bo never plays until Ana is back, so the game waits for him in the first round (no clock) meanwhile
    created = create(web_server.url, ["me", "open"], reclaim=True)
    table = created["table_id"]
    bo = join(web_server.url, table, "Bo")
    sit(page, web_server.url, table, created["seat"], created["token"])
    page.wait_for_selector(GEIER_CARDS, timeout=WAIT)

    page.click("[data-test=leave]")
    page.click("[data-test=leave-cancel]")  # the first click only asks
    assert page.locator("[data-test=away]").count() == 0
    page.click("[data-test=leave]")
    page.click("[data-test=leave-confirm]")
    page.wait_for_selector("[data-test=away]", timeout=WAIT)
    assert "un bot joue à votre place" in page.locator("[data-test=away]").inner_text()
    page.wait_for_selector("[data-away='0']", timeout=WAIT)
    page.wait_for_selector("[data-test=log-notice].left", timeout=WAIT)
    assert "Ana a quitté la table" in page.locator(".log").inner_text()
    assert page.locator("[data-test=leave]").count() == 0
    # while the bot holds her seat she is offered no move, and it plays her card of the first round
    page.wait_for_function("() => window.ludotheque.state.legal.length === 0", timeout=WAIT)
    page.wait_for_function("() => window.ludotheque.state.view.table.chosen[0] === true", timeout=WAIT)

    page.click("[data-test=reclaim]")
    page.wait_for_selector("[data-test=log-notice].reclaim", timeout=WAIT)
    assert page.locator("[data-test=life-notice]").inner_text() == "Ana reprend sa place"
    page.wait_for_selector("[data-test=leave]", timeout=WAIT)
    assert page.locator("[data-test=away]").count() == 0 and page.locator("[data-away='0']").count() == 0

    # Bo plays his card: the next round is Ana's to play again, by clicking
    sit(other, web_server.url, table, bo["seat"], bo["token"])
    other.wait_for_selector(GEIER_CARDS, timeout=WAIT)
    other.locator(GEIER_CARDS).first.click()
    page.wait_for_function("() => window.ludotheque.state.view.table.round === 2", timeout=WAIT)
    page.wait_for_selector(GEIER_CARDS, timeout=WAIT)
    assert page.locator(GEIER_CARDS).count() == 14


def play_both(pages: list[Any], rng: random.Random, timeout_ms: int = 240_000) -> None:
    """Both people click one of their offered moves whenever they have some, until both pages show the end."""
    waited = 0
    while waited < timeout_ms:
        states = [frame(p) for p in pages]
        if all(s and s["view"]["terminal"] for s in states):
            for p in pages:
                p.wait_for_selector("[data-test=end]", timeout=WAIT)
            return
        for p, state in zip(pages, states, strict=True):
            pending = p.evaluate("() => Boolean(window.ludotheque.pending)")
            offered = p.locator(OFFERED)
            count = offered.count()
            if state and state["legal"] and not pending and count:
                with suppress(Exception):  # the frame changed under the click: the next turn looks again
                    offered.nth(rng.randrange(count)).click(timeout=2_000)
        pages[0].wait_for_timeout(50)
        waited += 50
    raise AssertionError("the game did not end")


def test_a_rematch_offered_and_accepted_seats_both_people_at_a_new_table_rotated(
    page: Any, other: Any, browser: Any, web_server: ServerProcess
) -> None:
    created = create(web_server.url, ["me", "open"])
    table = created["table_id"]
    bo = join(web_server.url, table, "Bo")
    sit(page, web_server.url, table, created["seat"], created["token"])
    sit(other, web_server.url, table, bo["seat"], bo["token"])
    play_both([page, other], random.Random(32))
    assert page.locator("[data-test=replay]").get_attribute("href") == f"/tables/{table}/replay?seat=0"
    assert other.locator("[data-test=replay]").get_attribute("href") == f"/tables/{table}/replay?seat=1"
    assert page.locator("[data-test=new-game]").count() == 0

    page.click("[data-test=rematch]")
    page.wait_for_url(lambda url: "/tables/" in url and table not in url, timeout=WAIT)
    rematch = page.url.rstrip("/").split("/")[-1]
    # the new table keeps Bo's seat for him: it waits for his answer, not for an invite link
    page.wait_for_selector("[data-test=rematch-waiting]", timeout=WAIT)
    assert page.locator("[data-test=rematch-waiting]").inner_text().startswith("Revanche\u00a0: en attente de Bo")
    other.wait_for_selector("[data-test=rematch-offer]", timeout=WAIT)
    assert "Revanche proposée par Ana" in other.locator("[data-test=rematch-offer]").inner_text()
    other.click("[data-test=rematch]")
    other.wait_for_url(f"**/tables/{rematch}", timeout=WAIT)

    # seats rotated: Ana sat first and Bo second; now Bo sits first
    assert held_seat(page, rematch) == 1 and held_seat(other, rematch) == 0
    summary = httpx.get(f"{web_server.url}/api/tables/{rematch}").json()
    assert [s["name"] for s in summary["seats"]] == ["Bo", "Ana"]
    for person in (page, other):
        person.wait_for_function("() => window.ludotheque.state && window.ludotheque.state.status === 'playing'",
                                 timeout=WAIT)
        person.wait_for_selector(GEIER_CARDS, timeout=WAIT)

    # a spectator of the finished table gets a new game in the lobby and the replay, no rematch
    watcher = browser.new_context(viewport={"width": 360, "height": 740}, locale="fr-FR").new_page()
    try:
        watcher.goto(f"{web_server.url}/tables/{table}")
        watcher.wait_for_selector("[data-test=end]", timeout=WAIT)
        assert watcher.locator("[data-test=new-game]").get_attribute("href") == "/"
        assert watcher.locator("[data-test=rematch]").count() == 0
        assert watcher.locator("[data-test=replay]").get_attribute("href") == f"/tables/{table}/replay"
    finally:
        watcher.context.close()


def test_the_lobby_creates_a_rated_table_with_a_clock(page: Any, web_server: ServerProcess) -> None:
    page.goto(f"{web_server.url}/")
    page.click("[data-game=geier]")
    assert page.locator("select[name=clock]").input_value() == ""  # no clock unless chosen
    labels = page.locator("select[name=clock] option").all_inner_texts()
    assert labels[0] == "sans pendule" and any(label.startswith("rapide (") for label in labels)
    assert horizontal_overflow(page) == 0  # the clock's choices, with their times, fit a phone
    page.select_option("select[name=clock]", "fast")
    page.check("input[name=rated]")
    page.select_option("[data-seat='1']", "bot:random")
    page.fill("input[name=name]", "Ana")
    page.click("[data-test=create]")
    page.wait_for_url("**/tables/*", timeout=WAIT)
    table = page.url.rstrip("/").split("/")[-1]
    summary = httpx.get(f"{web_server.url}/api/tables/{table}").json()
    assert summary["rated"] is True and summary["clock"]["profile"] == "fast"
    page.wait_for_selector("[data-clock='0']", timeout=WAIT)
    facts = page.locator("[data-test=facts]").inner_text()
    assert "(rapide)" in facts and "Partie classée" in facts
    assert horizontal_overflow(page) == 0
