"""The table's chat and the coach's hint in a real browser: two people chat at a table (markup stays text), a
ready-made phrase sends at once, a muted person's messages are hidden (and stay so after a reload, until shown
again), the replay shows the players' chat to a seat; at a table created with the lobby's "Conseils du coach", the
hint button on the person's turn names a move the page offers.

Every wait is for something the page shows, never for a length of time (but the one second a connection waits
between two messages, which the server enforces)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from ludotheque.server.process import ServerProcess

from .driver import horizontal_overflow

WAIT = 60_000  # ms: a loaded machine is slow, never wrong
MIN_INTERVAL_S = 1.0  # a connection's messages are at least this far apart (server/live/chat.py)
MARKUP = "Salut <b>Bo</b> & <img src=x onerror=alert(1)>"
BO_SECOND = "Tu joues vite"
CARD = "[data-test=geier-hand] button[data-notation]:not([disabled])"


@pytest.fixture(scope="module")
def chat_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose coach answers a hint within a third of a second."""
    folder = tmp_path_factory.mktemp("chat")
    process = ServerProcess(f"sqlite:///{folder / 'ludotheque.db'}", folder).start({"LUDOTHEQUE_HINT_SECONDS": "0.3"})
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture
def other(browser: Any) -> Iterator[Any]:
    """Bo's phone: a browser context of its own (its own localStorage)."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="fr-FR")
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield tab
    finally:
        context.close()
    assert not errors, f"the page raised: {errors}"


def sit(page: Any, base: str, table_id: str, seat: int, token: str) -> None:
    """Opens the table as the browser that holds ``seat``, and waits for its chat panel."""
    page.goto(f"{base}/")
    page.evaluate("""([id, seat, token]) => localStorage.setItem("ludotheque.seats",
        JSON.stringify({[id]: {seat, token, game: "geier", since: Date.now()}}))""", [table_id, seat, token])
    page.goto(f"{base}/tables/{table_id}")
    page.wait_for_selector("[data-test=chat] [data-test=chat-input]:not([disabled])", timeout=WAIT)


def received(page: Any, count: int) -> None:
    page.wait_for_selector(f"[data-test=chat][data-received='{count}']", state="attached", timeout=WAIT)


def texts(page: Any) -> list[str]:
    texts: list[str] = page.locator("[data-test=chat-lines] [data-test=chat-text]").all_inner_texts()
    return texts


def test_two_people_chat_mute_and_see_it_in_the_replay(page: Any, other: Any, chat_server: ServerProcess) -> None:
    base = chat_server.url
    created = httpx.post(f"{base}/api/tables", json={"game": "geier", "players": 2, "seats": ["me", "open"],
                                                     "player_name": "Ana"}).json()
    table = created["table_id"]
    joined = httpx.post(f"{base}/api/tables/{table}/join", json={"name": "Bo"}).json()
    sit(page, base, table, created["seat"], created["token"])
    sit(other, base, table, joined["seat"], joined["token"])
    assert page.locator("[data-test=chat] h2").inner_text() == "Discussion des joueurs"

    page.fill("[data-test=chat-input]", MARKUP)
    page.press("[data-test=chat-input]", "Enter")
    received(other, 1)
    assert texts(other) == [MARKUP]  # as typed: text, not markup
    assert other.locator("[data-test=chat-lines] b, [data-test=chat-lines] img").count() == 0
    assert page.locator("[data-test=chat-input]").input_value() == ""

    other.click("[data-test=chat-phrase][data-phrase=well_played]")
    received(page, 2)
    assert texts(page) == [MARKUP, "Bien joué\u202f!"]
    assert horizontal_overflow(page) == 0

    page.click("[data-speaker='seat:1'] [data-test=chat-mute]")
    assert texts(page) == [MARKUP]
    time.sleep(MIN_INTERVAL_S)  # the server's pace: one message a second per connection
    other.fill("[data-test=chat-input]", BO_SECOND)
    other.click("[data-test=chat-send]")
    received(other, 3)
    received(page, 3)  # Ana's page has it, and hides it
    assert texts(page) == [MARKUP]
    page.reload()
    page.wait_for_selector("[data-test=chat][data-received='3']", state="attached", timeout=WAIT)
    assert texts(page) == [MARKUP]  # remembered in this browser
    page.click("[data-test=chat-unmute]")
    assert texts(page) == [MARKUP, "Bien joué\u202f!", BO_SECOND]

    # the game played to its end (Bo leaves: a bot plays his seat), then the replay shows the players' chat
    httpx.post(f"{base}/api/tables/{table}/leave", headers={"Authorization": f"Bearer {joined['token']}"})
    over = "() => Boolean(window.ludotheque.state && window.ludotheque.state.view.terminal)"
    while True:
        page.wait_for_function(f"() => ({over})() || Boolean(document.querySelector({CARD!r}))", timeout=WAIT)
        if page.evaluate(over):
            break
        page.locator(CARD).first.click()
        page.wait_for_function("() => !window.ludotheque.pending", timeout=WAIT)
    page.goto(f"{base}/tables/{table}/replay?seat=0")
    page.wait_for_selector("[data-test=replay-chat] [data-test=chat-text]", timeout=WAIT)
    assert page.locator("[data-test=replay-chat] [data-test=chat-text]").all_inner_texts() == [
        MARKUP, "Bien joué\u202f!", BO_SECOND]


def test_the_lobby_s_coach_hints_and_the_hint_button(page: Any, chat_server: ServerProcess) -> None:
    page.goto(f"{chat_server.url}/")
    page.click("[data-game=geier]")
    page.check("input[name=rated]")
    page.check("[data-test=hints]")  # a table with hints is never rated
    assert not page.locator("input[name=rated]").is_checked() and page.locator("input[name=rated]").is_disabled()
    page.select_option("[data-seat='1']", "bot:random")
    page.fill("input[name=name]", "Ana")
    page.click("[data-test=create]")
    page.wait_for_url("**/tables/*", timeout=WAIT)
    table = page.url.rstrip("/").split("/")[-1]
    summary = httpx.get(f"{chat_server.url}/api/tables/{table}").json()
    assert summary["hints"] is True and summary["rated"] is False

    page.wait_for_selector("[data-test=hint]", timeout=WAIT)  # the person's turn
    offered = page.evaluate("() => window.ludotheque.state.legal.map((m) => m.notation)")
    page.click("[data-test=hint]")
    answer = page.wait_for_selector("[data-test=hint-answer]", timeout=WAIT).inner_text()
    # the moves in words, as the cards' buttons name them ("Poser le 7 face cachée"), never the notation alone
    assert page.locator("[data-notation].hinted").count() == 1
    move = page.locator("[data-notation].hinted").get_attribute("data-notation")
    assert move in offered
    assert answer.startswith(f"Le coach propose Poser le {move} face cachée (+") and "points sur Poser le " in answer


def test_a_spectator_is_offered_no_mute_on_their_own_line(page: Any, other: Any, chat_server: ServerProcess) -> None:
    """Two spectators who gave no name: each sees a "mute" on the other's line only."""
    base = chat_server.url
    table = httpx.post(f"{base}/api/tables", json={"game": "geier", "players": 2, "seats": ["me", "open"],
                                                   "player_name": "Ana"}).json()["table_id"]
    for watcher in (page, other):
        watcher.goto(f"{base}/tables/{table}")
        watcher.get_by_role("button", name="Regarder").click()
        watcher.wait_for_selector("[data-test=chat] [data-test=chat-input]:not([disabled])", timeout=WAIT)
    assert page.locator("[data-test=chat] h2").inner_text() == "Discussion des spectateurs"
    page.fill("[data-test=chat-input]", "Qui gagne\u202f?")
    page.press("[data-test=chat-input]", "Enter")
    received(page, 1)
    received(other, 1)
    assert page.locator("[data-test=chat-lines] li").count() == 1
    assert page.locator("[data-test=chat-lines] [data-test=chat-mute]").count() == 0  # their own line
    assert other.locator("[data-test=chat-lines] [data-test=chat-mute]").count() == 1  # someone else's


def test_a_person_watching_their_own_table_sends_their_player_token(page: Any, chat_server: ServerProcess) -> None:
    """A browser whose player sits at the table but holds no seat token here (another device's seat) watches with
    its player token, so the server keeps it in the players' room (tests/server/live/test_chat_rooms.py)."""
    player = httpx.post(f"{chat_server.url}/api/players", json={"name": "Ana"}).json()["token"]
    created = httpx.post(f"{chat_server.url}/api/tables", headers={"X-Player-Token": player},
                         json={"game": "geier", "players": 2, "seats": ["me", "open"]}).json()
    httpx.post(f"{chat_server.url}/api/tables/{created['table_id']}/join", json={"name": "Bo"})  # in play: watched
    page.goto(f"{chat_server.url}/")
    page.evaluate("(token) => { localStorage.clear(); localStorage.setItem('ludotheque.player', token); }", player)
    with page.expect_websocket(timeout=WAIT) as opened:
        page.goto(f"{chat_server.url}/tables/{created['table_id']}")
    url = opened.value.url
    assert f"player_token={player}" in url and "token=" not in url.replace("player_token=", "")
