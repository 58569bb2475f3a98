"""Games by correspondence in a real browser: the lobby and /me list first the tables where it is the person's turn,
and the notifications button registers the service worker and hands the server a push subscription.

Headless Chromium has no push service to subscribe with: the page's ``PushManager.subscribe`` is replaced by one
that answers a subscription made by the test (and records the server key it was given); everything around it is
real (the permission asked only on the click, the service worker's registration and activation, ``GET
/api/push/key``, ``POST /api/push/subscribe`` and the row it stores).  Delivery of a real push message, the worker's
``push`` and ``notificationclick`` handlers, are not covered here; the server's sending is, against a local push
endpoint, in ``tests/server/test_correspondence.py``."""

from __future__ import annotations

import base64
import json
from typing import Any

import httpx
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import select

from ludotheque.server.db import make_engine
from ludotheque.server.process import ServerProcess
from ludotheque.server.schema import push_subscriptions

#: a PushManager whose subscribe answers ``subscription`` (defined before it) and records what it was asked
FAKE_PUSH_MANAGER = """
    PushManager.prototype.getSubscription = async () => null;
    PushManager.prototype.subscribe = async function (options) {
        window.subscribedWith = {userVisibleOnly: options.userVisibleOnly,
            key: Array.from(new Uint8Array(options.applicationServerKey))};
        return {toJSON: () => subscription};
    };
"""


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def create(server: ServerProcess, player: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    response = httpx.post(f"{server.url}/api/tables", headers={"X-Player-Token": player},
                          json={"game": "geier", "players": 2, "seats": seats, **extra})
    assert response.status_code == 201, response.text
    created: dict[str, Any] = response.json()
    return created


def hold(page: Any, server: ServerProcess, player: str, tables: list[dict[str, Any]]) -> None:
    """This browser is ``player`` and holds the seats of ``tables``, in that order (as the lobby keeps them)."""
    page.goto(f"{server.url}/static/favicon.svg")  # the site's origin, for its localStorage
    seats = {t["table_id"]: {"seat": t["seat"], "token": t["token"], "game": "geier", "since": i}
             for i, t in enumerate(tables)}
    page.evaluate("""([player, seats]) => {
        localStorage.setItem("ludotheque.player", player);
        localStorage.setItem("ludotheque.seats", JSON.stringify(seats));
        localStorage.setItem("ludotheque.lang", "fr");
    }""", [player, seats])


def test_the_lobby_and_me_list_first_the_tables_where_it_is_your_turn(page: Any, web_server: ServerProcess) -> None:
    player = httpx.post(f"{web_server.url}/api/players", json={"name": "Ana"}).json()["token"]
    # taken first: a table waiting for a friend; then a game by correspondence where Ana is to bid
    waiting = create(web_server, player, ["me", "open"])
    by_post = create(web_server, player, ["me", "bot:random"], clock={"days": 1})
    hold(page, web_server, player, [waiting, by_post])
    page.goto(f"{web_server.url}/")
    page.wait_for_selector("[data-test=your-turn]")
    rows = page.locator("section:has(h2:has-text('Vos parties en cours')) .table-row")
    assert rows.count() == 2
    first = rows.nth(0)
    assert first.get_attribute("data-table") == by_post["table_id"]
    assert "à vous de jouer" in first.inner_text() and "1 jour par coup" in first.inner_text()
    assert rows.nth(1).get_attribute("data-table") == waiting["table_id"]
    assert "à vous de jouer" not in rows.nth(1).inner_text()
    # /me: the same table, first on the page, with the way to it
    page.goto(f"{web_server.url}/me")
    section = page.wait_for_selector("[data-test=your-turn]")
    assert "À vous de jouer" in section.inner_text()
    assert page.locator("main section").first.get_attribute("data-test") == "your-turn"
    links = page.locator("[data-test=your-turn] a")
    assert links.count() == 1 and links.first.get_attribute("href") == f"/tables/{by_post['table_id']}"


def test_the_notifications_button_registers_the_service_worker_and_subscribes(
    page: Any, web_server: ServerProcess,
) -> None:
    player = httpx.post(f"{web_server.url}/api/players", json={"name": "Bo"}).json()["token"]
    by_post = create(web_server, player, ["me", "bot:random"], clock={"days": 3})
    hold(page, web_server, player, [by_post])
    key = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    endpoint = f"https://push.example.invalid/{by_post['table_id']}"
    subscription = {"endpoint": endpoint, "expirationTime": None,
                    "keys": {"p256dh": b64url(key), "auth": b64url(b"0123456789abcdef")}}
    page.add_init_script(f"{{ const subscription = {json.dumps(subscription)}; {FAKE_PUSH_MANAGER} }}")
    page.goto(f"{web_server.url}/tables/{by_post['table_id']}")
    button = page.wait_for_selector("[data-test=notify]")
    assert "3 jours par coup" in page.inner_text("[data-test=facts]")
    # nothing is asked on load: no permission asked, no worker registered
    assert page.evaluate("() => Notification.permission") == "default"
    assert page.evaluate("async () => (await navigator.serviceWorker.getRegistrations()).length") == 0
    page.context.grant_permissions(["notifications"], origin=web_server.url)
    button.click()
    page.wait_for_selector("[data-test=push-state]")
    worker = page.evaluate("""async () => {
        const registration = await navigator.serviceWorker.getRegistration("/static/");
        return {scope: registration.scope, script: registration.active && registration.active.scriptURL};
    }""")
    assert worker == {"scope": f"{web_server.url}/static/", "script": f"{web_server.url}/static/sw.js"}
    asked = page.evaluate("() => window.subscribedWith")
    server_key = httpx.get(f"{web_server.url}/api/push/key").json()["public_key"]
    assert asked["userVisibleOnly"] is True and b64url(bytes(asked["key"])) == server_key
    # the server keeps it for the seat and for the player, in the page's language
    engine = make_engine(web_server.db_url)
    with engine.connect() as db:
        rows = db.execute(select(push_subscriptions).where(push_subscriptions.c.endpoint == endpoint)
                          ).mappings().all()
    engine.dispose()
    assert sorted(row["owner"].split(":")[0] for row in rows) == ["player", "seat"]
    assert {row["lang"] for row in rows} == {"fr"} and rows[0]["p256dh"] == b64url(key)


def test_a_failed_subscription_is_told_in_the_pages_language(page: Any, web_server: ServerProcess) -> None:
    """Headless Chromium has no push service: the real ``subscribe`` fails, in the browser's English words; the page
    says why in its own language."""
    player = httpx.post(f"{web_server.url}/api/players", json={"name": "Bo"}).json()["token"]
    by_post = create(web_server, player, ["me", "bot:random"], clock={"days": 3})
    hold(page, web_server, player, [by_post])
    page.evaluate("() => localStorage.setItem('ludotheque.lang', 'de')")  # this person chose German
    page.context.grant_permissions(["notifications"], origin=web_server.url)
    page.goto(f"{web_server.url}/tables/{by_post['table_id']}")
    page.click("[data-test=notify]")
    note = page.wait_for_selector("[data-test=push-note]").inner_text().strip()
    assert note == ("Die Benachrichtigungen ließen sich nicht einschalten: Dieser Browser konnte sich bei seinem "
                    "Benachrichtigungsdienst nicht anmelden."), note
