"""Accessibility in a real browser: axe-core (installed by scripts/axe.sh, run inside each page) finds no serious or
critical violation on the lobby, each game's table, a finished table, its replay, /me and /ratings; moves are played
with the keyboard alone (Tab to a move, Enter), the focus always visible; the event log is a polite live region that
stays one element while frames add lines to it."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tests.server.client import bot_headers

from ludotheque.games import game_class, game_ids
from ludotheque.server.process import ServerProcess

from .conftest import ROOT
from .driver import MAY_CLICK, OFFERED, open_table

#: axe's serious and critical violations on the page, each with the first elements it names
AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
}"""

#: The person holds the seat's token and may play: the page offers moves (or the game is over)
READY = MAY_CLICK


@pytest.fixture(scope="module")
def tab(browser: Any) -> Iterator[Any]:
    """One phone-sized page for the module, with axe-core loaded in every document it opens (an init script: the
    server's Content-Security-Policy, which lets no inline script run, does not apply to it)."""
    found = subprocess.run(["bash", str(ROOT / "scripts" / "axe.sh")], capture_output=True, text=True)
    if found.returncode != 0:
        pytest.fail(f"no axe-core for the accessibility tests: {found.stderr.strip()}")
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="fr-FR")
    context.add_init_script(path=found.stdout.strip())
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"the page raised: {errors}"


def table_with_me(server: ServerProcess, page: Any, game: str, players: int | None = None) -> str:
    count = players or max(2, game_class(game).min_players)
    table = open_table(page, server.url, game, count, bots="random")
    page.wait_for_function(READY, timeout=60_000)
    return table


def finished_table(server: ServerProcess, game: str) -> str:
    response = httpx.post(f"{server.url}/api/tables", json={"game": game, "players": 2,
                                                             "seats": ["bot:random", "bot:random"]},
                          headers=bot_headers(server.url, ["bot:random"]))
    table: str = response.json()["table_id"]
    deadline = time.monotonic() + 60
    while httpx.get(f"{server.url}/api/tables/{table}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game"
        time.sleep(0.1)
    return table


def test_axe_finds_no_serious_violation_on_any_page(tab: Any, web_server: ServerProcess) -> None:
    base = web_server.url
    found: dict[str, list[str]] = {}
    tab.goto(f"{base}/")
    tab.wait_for_selector(".game-card")
    found["lobby"] = tab.evaluate(AXE)
    for game in game_ids():
        table_with_me(web_server, tab, game)
        found[game] = tab.evaluate(AXE)
    finished = finished_table(web_server, "geier")
    tab.goto(f"{base}/tables/{finished}")
    tab.wait_for_selector("[data-test=end]")
    found["the end of a game"] = tab.evaluate(AXE)
    tab.goto(f"{base}/tables/{finished}/replay?seat=0")
    tab.wait_for_function("() => window.ludotheque && window.ludotheque.step")
    found["replay"] = tab.evaluate(AXE)
    tab.goto(f"{base}/me")
    tab.wait_for_selector("[data-test=who]")
    found["/me"] = tab.evaluate(AXE)
    tab.goto(f"{base}/ratings")
    tab.wait_for_selector("[data-test=lang]")
    found["/ratings"] = tab.evaluate(AXE)
    assert {page: violations for page, violations in found.items() if violations} == {}


#: The focused element, if it plays a move or a step of one: its selector and how it looks (what a focus ring
#: changes).  Read afresh each time: a frame may draw the page again, and the focus then moves to the new element.
FOCUSED = """(offered) => { const e = document.activeElement;
  if (!e || !e.matches(offered)) return null;
  const key = e.dataset.notation !== undefined ? "notation" : "step";
  const s = getComputedStyle(e);
  return {selector: `[data-${key}="${CSS.escape(e.dataset[key])}"]`, move: key === "notation",
    visible: e.matches(":focus-visible"),
    ring: [s.outlineStyle, s.outlineWidth, s.outlineColor, s.outlineOffset, s.boxShadow].join(" | ")}; }"""
RING = """(selector) => { const e = document.querySelector(selector); const s = getComputedStyle(e);
  return [s.outlineStyle, s.outlineWidth, s.outlineColor, s.outlineOffset, s.boxShadow].join(" | "); }"""


def tab_to_an_offered_control(page: Any, limit: int = 400) -> dict[str, Any]:
    """Presses Tab until the focus is on an element that plays a move or a step of one; checks that the focus is
    visible there (the element looks otherwise once the focus leaves it); leaves the focus on it."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused: dict[str, Any] | None = page.evaluate(FOCUSED, OFFERED)
        if focused:
            assert focused["visible"], focused
            page.keyboard.press("Tab")
            assert page.evaluate(RING, focused["selector"]) != focused["ring"], "the focus does not show on a move"
            page.keyboard.press("Shift+Tab")
            assert page.evaluate("(selector) => document.activeElement.matches(selector)", focused["selector"])
            return focused
    raise AssertionError("Tab never reached a move")


def play_with_the_keyboard(page: Any, moves: int) -> None:
    """Plays ``moves`` moves (a step that builds a move, such as a card chosen before its target, is not one) with
    Tab and Enter only, each at the person's turn."""
    played = 0
    while played < moves:
        page.wait_for_function(READY, timeout=60_000)
        if page.evaluate("() => window.ludotheque.state.view.terminal"):
            return
        seq = page.evaluate("() => window.ludotheque.state.seq")
        control = tab_to_an_offered_control(page)
        page.keyboard.press("Enter")
        if control["move"]:
            played += 1
            page.wait_for_function(f"() => window.ludotheque.state.seq > {seq} && !window.ludotheque.pending",
                                   timeout=60_000)


#: Each game's event for a move of the person's
MY_MOVE = {"geier": "e.type === 'choose'", "cheese": "e.type === 'place'"}


@pytest.mark.parametrize(("game", "moves"), [("geier", 3), ("cheese", 2)])
def test_moves_are_played_with_the_keyboard_alone(tab: Any, web_server: ServerProcess, game: str, moves: int) -> None:
    # geier: a card of the hand is one move; cheese: a card, then the cell it goes to (two steps)
    table_with_me(web_server, tab, game)
    mine = f"() => window.ludotheque.log.filter((e) => e.seat === 0 && {MY_MOVE[game]}).length"
    before = tab.evaluate(mine)
    play_with_the_keyboard(tab, moves)
    assert tab.evaluate(mine) >= before + moves



def test_the_event_log_is_one_polite_live_region_that_frames_add_to(tab: Any, web_server: ServerProcess) -> None:
    table_with_me(web_server, tab, "geier")
    log = tab.locator("[data-test=log]")
    assert log.get_attribute("aria-live") == "polite"
    tab.evaluate("() => { document.querySelector('[data-test=log]').dataset.kept = 'yes'; }")
    lines = log.locator("li").count()
    play_with_the_keyboard(tab, 1)
    tab.wait_for_function(f"() => document.querySelectorAll('[data-test=log] li').length > {lines}")
    # the same element, lines added to it: a screen reader says the new ones, not the whole log again
    assert log.get_attribute("data-kept") == "yes"
