"""Each game's table as a person sees it, at 1280 px and 360 px wide: ``make screenshots``.

Starts a server of its own (a temporary SQLite file, bots without pacing), opens a table of each game with the
person in seat 0 and bots in the others, plays a few of the person's moves by clicking what the page offers (the
bots answer in between), and saves ``<game>-1280.png`` and ``<game>-360.png`` (the whole page) in the folder named
by ``$SCREENSHOTS`` (``screenshots/`` by default, which git ignores).  Chromium comes from ``scripts/browser.sh``.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import sync_playwright

from ludotheque.games import game_class, game_ids
from ludotheque.server.process import ServerProcess

ROOT = Path(__file__).resolve().parents[1]
WIDTHS = (1280, 360)
#: The person's moves played before the pictures: enough for cards on the table, few enough to stay mid-game.
MOVES = 4
#: What the page offers to click: a move, or one step of building one (a card chosen before its target).
OFFERED = "[data-notation]:not([disabled]), [data-step]:not([disabled])"
#: The person may click (the frame offers moves and none is on its way), or the game is over.
MAY_CLICK = """() => { const p = window.ludotheque; return Boolean(p && p.state && (p.state.view.terminal ||
    (p.state.legal.length > 0 && !p.pending))); }"""
#: A game at 3 seats where it allows them: the table then shows more than one other seat.
PLAYERS = 3


def chromium() -> str:
    found = subprocess.run(["bash", str(ROOT / "scripts" / "browser.sh")], capture_output=True, text=True, check=True)
    return found.stdout.strip()


def open_table(page: Any, base: str, game: str) -> None:
    cls = game_class(game)
    players = min(max(PLAYERS, cls.min_players), cls.max_players)
    seats = ["me"] + ["bot:heuristic"] * (players - 1)
    created = httpx.post(f"{base}/api/tables", json={"game": game, "players": players, "seats": seats,
                                                      "player_name": "Ana"}, timeout=30).json()
    page.goto(f"{base}/")
    page.evaluate("""([id, seat, token, game]) => localStorage.setItem("ludotheque.seats",
        JSON.stringify({[id]: {seat, token, game, since: Date.now()}}))""",
                  [created["table_id"], created["seat"], created["token"], game])
    page.goto(f"{base}/tables/{created['table_id']}")


def play_a_few(page: Any, rng: random.Random, moves: int) -> None:
    """Clicks offered moves until ``moves`` whole moves were sent (the steps of one move count as one)."""
    sent = 0
    while sent < moves:
        page.wait_for_function(MAY_CLICK, timeout=120_000)
        if page.evaluate("() => window.ludotheque.state.view.terminal"):
            return
        offered = page.locator(OFFERED)
        if not offered.count():
            page.wait_for_timeout(100)  # a frame came between the wait and the look
            continue
        target = offered.nth(rng.randrange(offered.count()))
        is_move = target.get_attribute("data-notation") is not None
        target.click()
        if is_move:
            sent += 1
            page.wait_for_function("() => !window.ludotheque.pending", timeout=60_000)
    page.wait_for_function(MAY_CLICK, timeout=120_000)


def main() -> int:
    folder = Path(os.environ.get("SCREENSHOTS") or ROOT / "screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as data:
        server = ServerProcess(f"sqlite:///{Path(data) / 'ludotheque.db'}", Path(data)).start()
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=chromium(), args=["--no-sandbox", "--disable-gpu"])
                for game in game_ids():
                    context = browser.new_context(viewport={"width": WIDTHS[0], "height": 900}, locale="fr-FR")
                    page = context.new_page()
                    open_table(page, server.url, game)
                    play_a_few(page, random.Random(game), MOVES)
                    page.mouse.move(0, 0)
                    for width in WIDTHS:
                        page.set_viewport_size({"width": width, "height": 900 if width > 700 else 740})
                        page.wait_for_timeout(150)  # the layout settles at the new width
                        path = folder / f"{game}-{width}.png"
                        page.screenshot(path=str(path), full_page=True)
                        print(path)
                    context.close()
                browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
