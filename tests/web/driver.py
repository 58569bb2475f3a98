"""Plays a game in the browser as a person does: by clicking what the table offers, never by typing notation.

Renderers mark every element that plays a legal move with ``data-notation`` (the move it sends) and every
element that is one step of building a move (selecting a card before its target) with ``data-step``.  At each of
the person's turns the driver checks that the page offers only legal moves, and at least one; then it clicks one
at random, until the end panel shows.
"""

from __future__ import annotations

import random
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


#: The person may click (the frame offers moves and none is on its way), or the game is over.
MAY_CLICK = """() => { const p = window.ludotheque; return Boolean(p && p.state && (p.state.view.terminal ||
    (p.state.legal.length > 0 && !p.pending))); }"""

#: The latest frame and the page's elements, read in one go so that a new frame cannot slip between them.
_AT_ONCE = """(offered) => { const p = window.ludotheque; return {state: p.state, pending: Boolean(p.pending),
    shown: [...document.querySelectorAll("[data-notation]:not([disabled])")].map(e => e.dataset.notation),
    count: document.querySelectorAll(offered).length}; }"""


def play_by_clicking(page: Any, rng: random.Random, timeout: float = 240.0, max_clicks: int = 3000) -> dict[str, Any]:
    """Click offered moves until the game ends; returns the final frame.

    The driver follows the game, not the clock: after each click it waits for the next turn of the person (chance
    and the bots move in between), however long the machine takes.  ``timeout`` (seconds) only tells a stalled
    page from a slow one: the page went that long without a move to click nor an end."""
    clicks = 0
    while True:
        page.wait_for_function(MAY_CLICK, timeout=timeout * 1000)
        now = page.evaluate(_AT_ONCE, OFFERED)
        state: dict[str, Any] = now["state"]
        if state["view"]["terminal"]:
            page.wait_for_selector("[data-test=end]", timeout=timeout * 1000)
            return state
        if now["pending"] or not state["legal"]:
            continue  # a frame came between the wait and the reading (a bot's simultaneous move): wait again
        legal = [move["notation"] for move in state["legal"]]
        extra = sorted(set(now["shown"]) - set(legal))
        assert not extra, f"the page offers moves that are not legal: {extra}"
        assert now["count"], f"the page offers nothing to click, though these moves are legal: {legal}"
        page.locator(OFFERED).nth(rng.randrange(now["count"])).click()
        clicks += 1
        assert clicks <= max_clicks, "the game did not end"


def moved_under_pointer(page: Any, limit: int = 40) -> list[str]:
    """The offered elements (the first ``limit``) that move when the pointer rests on them: each is hovered in
    turn, its box compared before and after two frames.  A hover that lifts an element out from under the pointer
    makes it flicker, and no click can land on it.  Each is named by its ``data-notation`` or ``data-step``."""
    moved = []
    offered = page.locator(OFFERED)
    for index in range(min(offered.count(), limit)):
        element = offered.nth(index)
        element.scroll_into_view_if_needed()
        page.mouse.move(0, 0)
        before = element.bounding_box()
        if before is None:
            continue
        page.mouse.move(before["x"] + before["width"] / 2, before["y"] + before["height"] / 2)
        page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
        if element.bounding_box() != before:
            moved.append(str(element.get_attribute("data-notation") or element.get_attribute("data-step")))
    page.mouse.move(0, 0)
    return moved


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
