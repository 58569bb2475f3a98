"""Plays a game in the browser as a person does: by clicking what the table offers, never by typing notation.

Renderers mark every element that plays a legal move with ``data-notation`` (the move it sends) and every
element that is one step of building a move (selecting a card before its target) with ``data-step``.  At each of
the person's turns the driver checks that the page offers only legal moves, and at least one; then it clicks one
at random, until the end panel shows.
"""

from __future__ import annotations

import random
import time
from typing import Any

import httpx

OFFERED = "[data-notation]:not([disabled]), [data-step]:not([disabled])"


def open_table(page: Any, base: str, game: str, players: int, options: dict[str, Any] | None = None,
               bots: str = "heuristic") -> str:
    """A new table with the person in seat 0 and bots elsewhere, opened in ``page`` holding seat 0's token."""
    seats = ["me"] + [f"bot:{bots}"] * (players - 1)
    response = httpx.post(f"{base}/api/tables", json={"game": game, "players": players, "options": options or {},
                                                        "seats": seats, "player_name": "Ana"})
    assert response.status_code == 201, response.text
    created = response.json()
    page.goto(f"{base}/")
    page.evaluate("""([id, seat, token, game]) => localStorage.setItem("ludotheque.seats",
        JSON.stringify({[id]: {seat, token, game, since: Date.now()}}))""",
                  [created["table_id"], created["seat"], created["token"], game])
    page.goto(f"{base}/tables/{created['table_id']}")
    return str(created["table_id"])


def frame(page: Any) -> dict[str, Any] | None:
    """The latest state frame the page holds (``window.ludotheque.state``)."""
    state: dict[str, Any] | None = page.evaluate("() => window.ludotheque && window.ludotheque.state")
    return state


def play_by_clicking(page: Any, rng: random.Random, timeout: float = 240.0, max_clicks: int = 3000) -> dict[str, Any]:
    """Click offered moves until the game ends; returns the final frame."""
    deadline = time.monotonic() + timeout
    clicks = 0
    while time.monotonic() < deadline:
        state = frame(page)
        if state and state["view"]["terminal"]:
            page.wait_for_selector("[data-test=end]", timeout=10_000)
            return state
        pending = page.evaluate("() => Boolean(window.ludotheque && window.ludotheque.pending)")
        offered = page.locator(OFFERED)
        count = offered.count()
        if state and state["legal"] and not pending and count:
            # the frame and the page's elements read in one go, so that a new frame cannot slip between them
            legal, shown = page.evaluate("""() => [window.ludotheque.state.legal.map(m => m.notation),
                [...document.querySelectorAll("[data-notation]:not([disabled])")].map(e => e.dataset.notation)]""")
            extra = sorted(set(shown) - set(legal))
            assert not extra, f"the page offers moves that are not legal: {extra}"
            offered.nth(rng.randrange(count)).click()
            clicks += 1
            assert clicks <= max_clicks, "the game did not end"
            continue
        page.wait_for_timeout(60)
    raise AssertionError("the game did not end in time")


def horizontal_overflow(page: Any) -> int:
    """How many pixels the page is wider than the phone's screen (0 when it fits)."""
    width: int = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    return width


def rules_help_texts(page: Any) -> tuple[str, str]:
    """The rules help as the table shows it, in French then in English (the page must be at a table)."""
    page.wait_for_selector("[data-test=status]")
    page.click("[data-test=rules]")
    page.wait_for_selector(".rules-body h2")
    french = str(page.locator(".rules-body").inner_text())
    page.click(".rules .close")
    page.click("[data-test=lang]")
    page.click("[data-test=rules]")
    page.wait_for_selector(".rules-body h2")
    return french, str(page.locator(".rules-body").inner_text())
