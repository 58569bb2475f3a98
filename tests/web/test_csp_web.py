"""The pages under the server's Content-Security-Policy: the lobby, a table of every game (its renderer drawn), a
private table watched through its invite link, the player's page, the ratings and a replay all work, and the
browser reports no violation of the policy."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from tests.server.client import bot_headers

from ludotheque.games import game_class, game_ids
from ludotheque.server.process import ServerProcess

#: Every violation the page sees, kept by a listener added before any of the page's scripts runs.
LISTEN = """window.cspViolations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));"""


@pytest.fixture
def watched(page: Any) -> Iterator[Any]:
    """The page, with the violations reported by events and by console messages checked at the end."""
    console: list[str] = []
    page.on("console", lambda message: console.append(message.text))
    page.add_init_script(LISTEN)
    yield page
    assert not [text for text in console if "Content Security Policy" in text], console


def no_violation(page: Any) -> None:
    assert page.evaluate("() => window.cspViolations") == [], page.url


def created(server: ServerProcess, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    response = httpx.post(f"{server.url}/api/tables", json={"game": game, "players": len(seats), "seats": seats,
                                                            **extra}, headers=bot_headers(server.url, seats))
    assert response.status_code == 201, response.text
    table: dict[str, Any] = response.json()
    return table


def test_the_pages_work_under_the_content_security_policy(watched: Any, web_server: ServerProcess) -> None:
    page, base = watched, web_server.url
    assert "script-src 'self';" in httpx.get(f"{base}/").headers["content-security-policy"]
    finished = created(web_server, "geier", ["bot:random", "bot:random"])["table_id"]

    page.goto(f"{base}/")
    page.wait_for_selector(".game-card")
    no_violation(page)

    # each game's renderer draws its table (the rules help, fetched and drawn from markdown, included once)
    for game in game_ids():
        table = created(web_server, game, ["me"] + ["bot:random"] * (max(2, game_class(game).min_players) - 1))
        page.evaluate("""([id, seat, token, game]) => localStorage.setItem("ludotheque.seats",
            JSON.stringify({[id]: {seat, token, game, since: Date.now()}}))""",
                      [table["table_id"], table["seat"], table["token"], game])
        page.goto(f"{base}/tables/{table['table_id']}")
        page.wait_for_function("() => window.ludotheque && window.ludotheque.state !== null")
        page.wait_for_selector("[data-test=status]")
        no_violation(page)

    # a private table is watched by whoever has its invite link, and by nobody else
    private = created(web_server, "geier", ["me", "bot:random"], private=True)
    link = urlsplit(private["invite_url"])
    page.evaluate("() => localStorage.clear()")
    page.goto(f"{base}{link.path}?{link.query}")
    page.wait_for_function("() => window.ludotheque && window.ludotheque.state !== null")
    no_violation(page)
    page.goto(f"{base}{link.path}")
    page.wait_for_function("() => window.ludotheque && window.ludotheque.closed !== null")
    assert page.evaluate("() => window.ludotheque.state") is None

    page.goto(f"{base}/me")
    page.wait_for_selector("[data-test=who]")
    no_violation(page)
    page.goto(f"{base}/ratings")
    page.wait_for_selector("[data-test=lang]")
    no_violation(page)

    deadline = time.monotonic() + 60
    while httpx.get(f"{base}/api/tables/{finished}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)
    page.goto(f"{base}/tables/{finished}/replay")
    page.wait_for_function("() => window.ludotheque && window.ludotheque.step")
    no_violation(page)
