"""The table page under a failing network: a hung or failed request, a move on its way when the game ends or the
connection drops, a server restart.  Whatever happens to one message, the next is handled, and the page says what
went wrong.

Ana plays Hol's der Geier in the browser; Bo is a scripted client over his own WebSocket (``Client``), or a bot.
Playwright holds or refuses the page's requests (``page.route``) and holds its moves on their way to the server
(``page.route_web_socket``), so that each test waits for conditions, never for time."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.client import Client, create_table

from ludotheque.server.process import ServerProcess

GEIER_CARDS = "[data-test=geier-hand] button[data-notation]:not([disabled])"
OFFERED = "[data-notation]:not([disabled]), [data-step]:not([disabled])"
WAIT = 30_000  # ms: a loaded machine is slow, never wrong
SUMMARY = "**/api/tables/*"  # GET /api/tables/{id}, not its sub-resources

#: Ana may click: her latest frame offers ``n`` cards, no move of hers is on its way, and the connection is live.
ANA_MAY_PLAY = """(n) => { const p = window.ludotheque; return Boolean(p && p.state && p.live && !p.pending &&
    p.state.legal.length === n); }"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of the test's own, on a port it keeps across a restart."""
    process = ServerProcess(f"sqlite:///{tmp_path / 'ludotheque.db'}", tmp_path).start()
    try:
        yield process
    finally:
        process.stop()


class MoveGate:
    """Stands between the page's WebSocket and the server: passes every message, except the page's moves while
    ``holding``, which it keeps (``release`` sends them on, ``drop`` forgets them)."""

    def __init__(self, page: Any) -> None:
        self.holding = False
        self.held: list[tuple[Any, str]] = []
        page.route_web_socket("**/ws/tables/**", self._connect)

    def _connect(self, route: Any) -> None:
        server = route.connect_to_server()

        def from_page(message: str | bytes) -> None:
            if self.holding and isinstance(message, str) and json.loads(message).get("type") == "move":
                self.held.append((server, message))
            else:
                server.send(message)

        route.on_message(from_page)

    def release(self) -> None:
        self.holding = False
        for server, message in self.held:
            server.send(message)
        self.held.clear()


def sit(page: Any, base: str, table_id: str, seat: int, token: str) -> None:
    """Opens the table in ``page`` as the browser that holds ``seat`` (its token in localStorage, as after joining)."""
    page.goto(f"{base}/")
    page.evaluate("""([id, seat, token]) => localStorage.setItem("ludotheque.seats",
        JSON.stringify({[id]: {seat, token, game: "geier", since: Date.now()}}))""", [table_id, seat, token])
    page.goto(f"{base}/tables/{table_id}")
    page.wait_for_selector("[data-test=status]", timeout=WAIT)


def ana_and_bo(server: ServerProcess, page: Any) -> tuple[str, str, Client]:
    """A two-person Geier table: Ana in ``page``, Bo over a WebSocket of the test's; the table's id, Bo's token and
    his client."""
    created = create_table(server.url, "geier", 2, ["me", "open"], player_name="Ana")
    table = str(created["table_id"])
    joined = httpx.post(f"{server.url}/api/tables/{table}/join", json={"name": "Bo"})
    assert joined.status_code == 200, joined.text
    bo = Client(server.ws_url, table, joined.json()["token"])
    bo.hello()
    sit(page, server.url, table, created["seat"], created["token"])
    return table, joined.json()["token"], bo


class Bo:
    """Bo's moves: the first card he is offered, once per round."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.moved_at = -1

    def plays(self) -> None:
        client = self.client
        while not (client.state and client.state["legal"] and client.state["seq"] > self.moved_at):
            client.recv()
        state = client.state
        client.send({"type": "move", "move": state["legal"][0]["notation"], "client_move_id": f"bo-{state['seq']}",
                     "after_seq": state["seq"]})
        self.moved_at = client.next("ack")["seq"]


def ana_plays(page: Any, cards: int) -> None:
    """Ana clicks her first card once her frame offers ``cards`` of them."""
    page.wait_for_function(ANA_MAY_PLAY, arg=cards, timeout=WAIT)
    page.locator(GEIER_CARDS).first.click()


def play_to_last_round(page: Any, bo: Bo) -> None:
    """Fourteen rounds of fifteen, each Bo's card then Ana's: each holds one card for the last."""
    for cards in range(15, 1, -1):
        bo.plays()
        ana_plays(page, cards)


def status(page: Any) -> str:
    return str(page.locator("[data-test=status]").inner_text())


def test_the_game_ends_while_the_person_s_move_is_on_its_way_and_the_summary_hangs(
    page: Any, server: ServerProcess
) -> None:
    gate = MoveGate(page)
    table, _, client = ana_and_bo(server, page)
    bo = Bo(client)
    play_to_last_round(page, bo)

    # Ana's last card leaves the page but is held on its way; the summary the end asks for will hang
    hung: list[Any] = []  # held here, never answered: the request hangs until the route is removed
    page.route(SUMMARY, lambda route: hung.append(route))
    gate.holding = True
    ana_plays(page, 1)
    page.wait_for_function("() => window.ludotheque.pending !== null", timeout=WAIT)
    assert status(page) == "Envoi du coup…"
    # Bo's last card comes first: a frame while Ana's move is on its way, which offers her nothing more to click
    bo.plays()
    page.wait_for_function("(seq) => window.ludotheque.state.seq >= seq", arg=bo.moved_at, timeout=WAIT)
    assert page.locator(OFFERED).count() == 0

    # her card arrives and ends the game: the page shows the end although the summary it asked for never answered
    with page.expect_request(lambda request: request.url.endswith(f"/api/tables/{table}"), timeout=WAIT):
        gate.release()
        page.wait_for_selector("[data-test=end]", timeout=WAIT)
    assert status(page) == "La partie est terminée."
    assert page.evaluate("() => window.ludotheque.pending") is None
    assert page.evaluate("() => window.ludotheque.summary.status") == "playing"  # the request still hangs

    # the summary comes at last (the route gone, what it held goes on): the page takes it, with no notice left
    page.unroute(SUMMARY)
    page.wait_for_function("() => window.ludotheque.summary.status === 'finished'", timeout=WAIT)
    assert page.locator("[data-test=notice]").count() == 0
    assert page.locator("[data-test=end]").count() == 1
    client.close()


def test_a_failed_summary_at_the_end_is_said_and_later_messages_still_arrive(page: Any, server: ServerProcess) -> None:
    table, bo_token, client = ana_and_bo(server, page)
    bo = Bo(client)
    play_to_last_round(page, bo)

    page.route(SUMMARY, lambda route: route.abort())  # from the moment the game ends, the summary fails
    bo.plays()
    ana_plays(page, 1)
    page.wait_for_selector("[data-test=end]", timeout=WAIT)
    assert status(page) == "La partie est terminée."
    page.wait_for_selector("[data-test=notice].error", timeout=WAIT)
    assert page.locator("[data-test=notice]").inner_text() == (
        "La table n’a pas pu être mise à jour\u00a0; nouvel essai au prochain message.")

    # a later message still arrives and is drawn: Bo offers a rematch, and Ana's page shows the offer
    offered = httpx.post(f"{server.url}/api/tables/{table}/rematch", headers={"Authorization": f"Bearer {bo_token}"})
    assert offered.status_code == 200, offered.text
    page.wait_for_selector("[data-test=rematch-offer]", timeout=WAIT)
    assert "Revanche proposée par Bo" in page.locator("[data-test=rematch-offer]").inner_text()
    assert page.locator("[data-test=end]").count() == 1

    # the notice in English too
    page.click("[data-test=lang]")
    assert page.locator("[data-test=notice]").inner_text().startswith(
        "The table could not be brought up to date; trying again with the next message.")
    client.close()


def test_a_server_restart_mid_game_drops_the_move_on_its_way_then_play_resumes(
    page: Any, server: ServerProcess
) -> None:
    gate = MoveGate(page)
    created = create_table(server.url, "geier", 2, ["me", "bot:random"], player_name="Ana")
    table = str(created["table_id"])
    sit(page, server.url, table, created["seat"], created["token"])
    ana_plays(page, 15)

    # her second card is on its way (held) when the server stops
    gate.holding = True
    ana_plays(page, 14)
    page.wait_for_function("() => window.ludotheque.pending !== null", timeout=WAIT)
    server.stop()
    page.wait_for_selector("[data-test=connection]", timeout=WAIT)
    assert page.locator("[data-test=connection]").inner_text() == "Connexion perdue\u00a0: nouvelle tentative…"
    assert page.locator("[data-test=notice]").inner_text() == ("La connexion s’est coupée pendant l’envoi de votre "
                                                               "coup\u00a0: s’il n’apparaît pas sur la table, "
                                                               "jouez-le à nouveau.")
    # while the server is down: nothing to click, nor "sending" for good
    assert status(page) == "Hors ligne\u00a0: les coups reviennent dès la reconnexion."
    assert page.locator(OFFERED).count() == 0
    assert page.evaluate("() => window.ludotheque.pending") is None
    gate.holding = False
    gate.held.clear()  # the move never reached the server

    server.start()
    # the first frame after the reconnection clears the notice, and the card that was lost is offered again
    page.wait_for_function(ANA_MAY_PLAY, arg=14, timeout=WAIT)
    assert page.locator("[data-test=connection]").count() == 0
    assert status(page).startswith("À vous de jouer")
    page.locator(GEIER_CARDS).first.click()
    page.wait_for_function(ANA_MAY_PLAY, arg=13, timeout=WAIT)
    assert page.evaluate("() => window.ludotheque.state.view.table.round") == 3


def test_a_connection_that_opens_and_brings_no_frame_is_given_up_and_opened_again(
    page: Any, server: ServerProcess
) -> None:
    # the first connection opens and then says nothing (no server behind it); the next ones reach the server
    attempts: list[Any] = []

    def connect(route: Any) -> None:
        attempts.append(route)
        if len(attempts) > 1:
            route.connect_to_server()

    page.route_web_socket("**/ws/tables/**", connect)
    created = create_table(server.url, "geier", 2, ["me", "bot:random"], player_name="Ana")
    table = str(created["table_id"])
    page.goto(f"{server.url}/")
    page.evaluate("""([id, seat, token]) => localStorage.setItem("ludotheque.seats",
        JSON.stringify({[id]: {seat, token, game: "geier", since: Date.now()}}))""", [table, 0, created["token"]])
    page.goto(f"{server.url}/tables/{table}")
    page.wait_for_function("() => window.ludotheque && window.ludotheque.socket !== null", timeout=WAIT)
    assert page.locator(OFFERED).count() == 0 and page.locator("[data-test=status]").count() == 0
    # the page gives the silent connection up after its deadline and opens another, which brings the table
    page.wait_for_function(ANA_MAY_PLAY, arg=15, timeout=WAIT)
    assert len(attempts) >= 2
    page.locator(GEIER_CARDS).first.click()
    page.wait_for_function(ANA_MAY_PLAY, arg=14, timeout=WAIT)


class AckThenDrop:
    """Stands between the page's WebSocket and the server.  Once ``armed``, the page's next move reaches the server
    and its ack reaches the page, then the connection drops (both ends closed) before the frame that includes the
    move: what the server sends after the move, but its ack, is lost with the connection.  Every later connection
    passes everything."""

    def __init__(self, page: Any) -> None:
        self.armed = False
        self.dropped = False
        self.connections = 0
        page.route_web_socket("**/ws/tables/**", self._connect)

    def _connect(self, route: Any) -> None:
        self.connections += 1
        server = route.connect_to_server()
        moved = False

        def from_page(message: str | bytes) -> None:
            nonlocal moved
            if self.armed and not self.dropped and isinstance(message, str) and json.loads(message)["type"] == "move":
                moved = True
            server.send(message)

        def from_server(message: str | bytes) -> None:
            if self.dropped and moved:
                return  # the connection is over: nothing more reaches the page by it
            if not moved:
                route.send(message)
            elif isinstance(message, str) and json.loads(message)["type"] == "ack":
                route.send(message)
                self.dropped = True
                route.close(code=1012, reason="dropped by the test after the ack")
                server.close()

        route.on_message(from_page)
        server.on_message(from_server)


def test_an_acknowledged_move_survives_a_dropped_connection_and_the_next_one_resumes_the_log(
    page: Any, server: ServerProcess
) -> None:
    gate = AckThenDrop(page)
    created = create_table(server.url, "geier", 2, ["me", "bot:random"], player_name="Ana")
    table = str(created["table_id"])
    sit(page, server.url, table, created["seat"], created["token"])
    page.wait_for_function(ANA_MAY_PLAY, arg=15, timeout=WAIT)

    # her card is acknowledged, then the connection drops before the frame that shows it
    gate.armed = True
    ana_plays(page, 15)
    # the next connection (hello with the last frame's seq) brings the frames after it: her card is in the game
    page.wait_for_function(ANA_MAY_PLAY, arg=14, timeout=WAIT)
    assert gate.dropped and gate.connections == 2
    # an acknowledged move is not said lost, and nothing says the connection is down any more
    assert page.locator("[data-test=notice]").count() == 0
    assert page.locator("[data-test=connection]").count() == 0
    assert page.evaluate("() => window.ludotheque.log.filter((e) => e.type === 'choose' && e.seat === 0).length") == 1

    # the log across both connections is the seat's whole log, as a new connection gets it: nothing lost or repeated
    fresh = Client(server.ws_url, table, created["token"])
    whole = fresh.hello()
    page.wait_for_function("(seq) => window.ludotheque.state.seq >= seq", arg=whole["seq"], timeout=WAIT)
    assert page.evaluate("() => window.ludotheque.log")[: len(whole["events"])] == whole["events"]
    fresh.close()

    # and play goes on on the new connection
    page.locator(GEIER_CARDS).first.click()
    page.wait_for_function(ANA_MAY_PLAY, arg=13, timeout=WAIT)
