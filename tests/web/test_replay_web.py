"""The replay page in a real browser: a finished game stepped forward and back, a jump to a round, another seat's
view, both languages, on a phone's screen; every position drawn is the engine's view of that seat at that step."""

from __future__ import annotations

import time
from typing import Any

import httpx
from tests.server.client import bot_headers

from ludotheque.core import CHANCE, State
from ludotheque.games import load_game
from ludotheque.server.process import ServerProcess

from .driver import horizontal_overflow


def finished_table(server: ServerProcess, game: str, players: int, **options: Any) -> tuple[str, dict[str, Any]]:
    """A table played to its end by bots, and its record."""
    created = httpx.post(f"{server.url}/api/tables", json={"game": game, "players": players, "options": options,
                                                           "seats": ["bot:random"] * players},
                         headers=bot_headers(server.url, ["bot:random"]))
    assert created.status_code == 201, created.text
    table_id = created.json()["table_id"]
    deadline = time.monotonic() + 120
    while httpx.get(f"{server.url}/api/tables/{table_id}").json()["status"] != "finished":
        assert time.monotonic() < deadline, "the bots did not finish the game in time"
        time.sleep(0.1)
    return table_id, httpx.get(f"{server.url}/api/tables/{table_id}/record").json()


def states_of(record: dict[str, Any]) -> list[State]:
    """The engine's state after each action of ``record`` (index 0: before the first)."""
    state = load_game(record["game"], players=record["players"], **record["options"]).new_initial_state()
    states = [state.clone()]
    for item in record["actions"]:
        state.apply_action(item["action"], None if item["by"] == CHANCE else item["by"])
        states.append(state.clone())
    return states


def shown(page: Any, seq: int, seat: int | None) -> dict[str, Any]:
    """Wait until the page shows step ``seq`` as ``seat`` saw it; the view it drew."""
    page.wait_for_function("([seq, seat]) => { const p = window.ludotheque; return p.step && p.step.seq === seq "
                           "&& p.step.seat === seat && p.logSeat === seat; }", arg=[seq, seat])
    view: dict[str, Any] = page.evaluate("() => window.ludotheque.step.view")
    return view


def test_a_finished_game_is_replayed_step_by_step(page: Any, web_server: ServerProcess) -> None:
    table_id, record = finished_table(web_server, "mu", 3, target=60)
    states = states_of(record)
    last = len(record["actions"])
    marks = [k + 1 for k, item in enumerate(record["actions"]) if item["by"] == CHANCE
             and (k + 1 == last or record["actions"][k + 1]["by"] != CHANCE)]

    page.goto(f"{web_server.url}/tables/{table_id}/replay?seat=0")
    assert shown(page, last, 0) == states[last].view(0)
    assert page.text_content("[data-test=position]") == f"Étape {last} sur {last}"
    assert page.locator("[data-test=end]").is_visible()  # the game's end, with its winners
    assert page.locator("[data-test=next]").is_disabled() and page.locator("[data-test=last]").is_disabled()
    assert page.locator("[data-test=seat]").input_value() == "0"

    page.click("[data-test=prev]")
    assert shown(page, last - 1, 0) == states[last - 1].view(0)
    page.locator("body").press("ArrowLeft")  # the keyboard steps too
    assert shown(page, last - 2, 0) == states[last - 2].view(0)
    page.click("[data-test=next]")
    assert shown(page, last - 1, 0) == states[last - 1].view(0)
    page.keyboard.press("Enter")  # the button keeps the focus through the redraw: Enter steps on
    assert shown(page, last, 0) == states[last].view(0)
    page.click("[data-test=prev]")
    assert shown(page, last - 1, 0) == states[last - 1].view(0)
    notation = record["actions"][last - 2]["move"]
    assert notation in page.text_content("[data-test=move]")  # the move that led here

    page.click("[data-test=first]")
    assert shown(page, 0, 0) == states[0].view(0)
    assert "Début de la partie" in page.text_content("[data-test=move]")
    assert page.locator("[data-test=prev]").is_disabled()
    page.locator("body").press("ArrowRight")
    assert shown(page, 1, 0) == states[1].view(0)

    # a jump to the first round: the deal complete, seat 0's hand in its view and not in the others'
    assert page.locator("[data-test=marks] option").count() == len(marks) + 1
    page.select_option("[data-test=marks]", str(marks[0]))
    assert shown(page, marks[0], 0) == states[marks[0]].view(0)
    assert page.text_content("[data-test=position]") == f"Étape {marks[0]} sur {last}"
    assert page.locator("[data-test=marks]").input_value() == str(marks[0])
    assert "Manche 1" in page.text_content("[data-test=marks]")

    # another seat, then the spectator, at the same step
    page.select_option("[data-test=seat]", "1")
    assert shown(page, marks[0], 1) == states[marks[0]].view(1)
    page.select_option("[data-test=seat]", "")
    assert shown(page, marks[0], None) == states[marks[0]].view(None)
    assert "seat=" not in page.url and f"seq={marks[0]}" in page.url  # a reload shows the same position

    page.click("[data-test=last]")
    assert shown(page, last, None) == states[last].view(None)
    page.click("[data-test=lang]")
    page.wait_for_selector(f"[data-test=position]:has-text('Step {last} of {last}')")
    assert page.locator("[data-test=next]").get_attribute("aria-label") == "Next move"
    assert horizontal_overflow(page) == 0
    page.click("[data-test=back]")
    page.wait_for_url(f"**/tables/{table_id}")


def test_a_game_in_play_is_not_replayed(page: Any, web_server: ServerProcess) -> None:
    created = httpx.post(f"{web_server.url}/api/tables",
                         json={"game": "geier", "players": 2, "seats": ["me", "bot:random"]}).json()
    page.goto(f"{web_server.url}/tables/{created['table_id']}/replay")
    page.wait_for_selector("[data-test=error]:has-text('La partie n’est pas finie')")
    assert page.locator("[data-test=back]").is_visible()


#: What the table page and the replay page draw alike around the board (js/tableparts.js): the bar's way home and
#: language buttons, the seats, the event log's heading and lines (its "new" marks differ: the latest frame's events
#: at the table, the step's in the replay)
SHARED_PARTS = """() => {
  const app = document.getElementById("app");
  const bar = app.querySelector("header.bar");
  const log = app.querySelector("details.log");
  return {
    bar: [...bar.children].slice(0, 3).map((e) => `${e.tagName}.${e.className}`),
    home: bar.querySelector("a.home").outerHTML,
    languages: [...bar.querySelectorAll("[data-test=lang]")].map((e) => e.outerHTML),
    seats: app.querySelector("ol.seats").outerHTML,
    heading: log.querySelector("summary").textContent,
    tabindex: log.querySelector("ol").getAttribute("tabindex"),
    lines: [...log.querySelectorAll("ol > li")].map((e) => e.textContent),
  };
}"""


def test_the_table_and_its_replay_draw_the_same_bar_seats_and_log(page: Any, web_server: ServerProcess) -> None:
    table_id, record = finished_table(web_server, "geier", 2)
    last = len(record["actions"])
    drawn: dict[str, list[dict[str, Any]]] = {"table": [], "replay": []}
    # both as a spectator sees the end of the game, in French then in English
    for name, url in [("table", f"{web_server.url}/tables/{table_id}"),
                      ("replay", f"{web_server.url}/tables/{table_id}/replay")]:
        page.goto(url)
        if name == "table":
            page.wait_for_selector("[data-test=end]")
        else:
            shown(page, last, None)
        drawn[name].append(page.evaluate(SHARED_PARTS))
        page.click("[data-test=lang]")
        page.wait_for_selector("html[lang=en]")
        drawn[name].append(page.evaluate(SHARED_PARTS))
        page.evaluate("() => localStorage.removeItem('ludotheque.lang')")
    assert drawn["table"] == drawn["replay"]
    french, english = drawn["table"]
    assert french["lines"] and french["heading"] != english["heading"]
    assert french["seats"].count("<li") == 2
