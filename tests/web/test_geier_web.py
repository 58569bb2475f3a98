"""Hol's der Geier's table in a real browser: played by clicking the cards, what a seat must not see, a phone's
width, both languages, the rules help, and the end's tie rule (DECISIONS geier-2, geier-5, all-3)."""

from __future__ import annotations

import random
from typing import Any

from ludotheque.server.process import ServerProcess

from .driver import frame, horizontal_overflow, open_table, play_by_clicking

MY_CARDS = "[data-test=geier-hand] button[data-notation]:not([disabled])"


def wait_for_my_turn(page: Any, round_number: int | None = None) -> dict[str, Any]:
    """Waits until the page offers this seat's cards (in round ``round_number`` if given); returns the frame."""
    for _ in range(400):
        state = frame(page)
        if (state and state["legal"] and page.locator(MY_CARDS).count()
                and (round_number is None or state["view"]["table"]["round"] == round_number)):
            return state
        page.wait_for_timeout(50)
    raise AssertionError("the seat's cards were never offered")


def play_rounds(page: Any, rounds: int) -> dict[str, Any]:
    """Plays the lowest card for ``rounds`` rounds, by clicking it; returns the frame of the next turn."""
    state = wait_for_my_turn(page)
    for _ in range(rounds):
        number = state["view"]["table"]["round"]
        page.locator(MY_CARDS).first.click()
        state = wait_for_my_turn(page, number + 1)
    return state


def test_a_whole_game_played_by_clicking_the_cards(page: Any, web_server: ServerProcess) -> None:
    # DECISIONS geier-2: one click on a card of the hand plays it face down; the driver checks every offered
    # element is a legal move, at every turn, until the end panel shows
    open_table(page, web_server.url, "geier", 3)
    state = wait_for_my_turn(page)
    cards = page.locator("[data-test=geier-hand] button[data-notation]")
    assert sorted(int(n) for n in cards.evaluate_all("els => els.map(e => e.dataset.notation)")) == list(range(1, 16))
    final = play_by_clicking(page, random.Random(5))
    assert final["view"]["terminal"] and state["view"]["players"] == 3
    ranking = page.locator("[data-test=geier-final] tbody tr")
    assert ranking.count() == 3
    # the ranking is ordered by points, as the view has them, and names the winners the view names
    shown = [int(row.get_attribute("data-seat") or -1) for row in ranking.all()]
    points = final["view"]["table"]["points"]
    assert [points[seat] for seat in shown] == sorted(points, reverse=True)
    marked = page.locator("[data-test=geier-final] tr.win").evaluate_all("els => els.map(e => Number(e.dataset.seat))")
    assert sorted(marked) == sorted(final["view"]["winners"])
    assert "Égalité en tête" in page.locator("[data-test=tie-rule]").inner_text()
    assert page.locator("[data-test=end]").is_visible()
    # the result shows once, in the end panel, with one headline naming the winners
    assert page.locator("[data-test=geier-final]").count() == 1
    assert page.locator("[data-test=end] [data-test=geier-final]").count() == 1
    assert page.locator("[data-test=end] h2").count() == 1
    # "every round" names the players above their columns, not only their colours
    heads = page.locator("[data-test=geier-history-seat]").all_inner_texts()
    assert len(heads) == 3 and heads[0] == "Ana" and all(head.strip() for head in heads), heads
    page.screenshot(path="/tmp/geier-end.png", full_page=True)


def test_the_other_seats_cards_of_this_round_stay_face_down(page: Any, web_server: ServerProcess) -> None:
    # DECISIONS all-3: a seat sees that the others have chosen, never what; their open piles are public
    open_table(page, web_server.url, "geier", 3)
    play_rounds(page, 2)
    page.wait_for_function("""() => [1, 2].every(s =>
        document.querySelector(`[data-test=geier-seats] [data-seat='${s}']`)?.dataset.chosen === "yes")""")
    state = frame(page)
    assert state is not None
    last = state["view"]["table"]["rounds"][-1]
    for seat in (1, 2):
        panel = page.locator(f"[data-test=geier-seats] [data-seat='{seat}']")
        assert panel.locator("[data-back]").count() == 1  # this round's card: its back only
        faces = panel.locator(".gz-play").evaluate_all("els => els.map(e => Number(e.dataset.card))")
        assert faces == [last["played"][seat]]  # the only face shown is last round's, on the open pile
        assert panel.locator("[data-test=left] .gz-chip:not(.gone)").count() == 13  # 15 cards, 2 revealed
    assert page.locator("[data-test=geier-hand] .card").count() == 13


def test_the_table_fits_a_phone_mid_game(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "geier", 5)
    play_rounds(page, 4)
    page.wait_for_selector("[data-test=geier-last]")
    assert horizontal_overflow(page) == 0
    page.click(".gz-history summary")  # every round so far, as a table
    page.wait_for_selector(".gz-history[open] tbody tr")
    assert horizontal_overflow(page) == 0
    page.screenshot(path="/tmp/geier-mid.png", full_page=True)


def test_french_first_then_english_and_the_rules_in_both(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "geier", 2)
    wait_for_my_turn(page)
    middle = page.locator("[data-test=geier-middle]")
    assert "Manche 1 sur 15" in middle.inner_text() and "Pioche" in middle.inner_text()
    page.click("[data-test=rules]")
    page.wait_for_selector(".rules-body h2")
    assert "Qui prend le pot" in page.locator(".rules-body").inner_text()
    page.click(".rules .close")
    page.click("[data-test=lang]")
    assert "Round 1 of 15" in middle.inner_text() and "Deck" in middle.inner_text()
    page.click("[data-test=rules]")
    page.wait_for_selector(".rules-body h2")
    assert "Who takes the pot" in page.locator(".rules-body").inner_text()


FAKE_END = """async ([finalTie, won, points, winners]) => {
  const {summary} = await import("/games/geier/web/renderer.js");
  const {h} = await import("/static/js/dom.js");
  const i18n = await import("/static/js/i18n.js");
  await i18n.loadGameCatalog("geier");
  const table = {round: 15, pot: [], pot_sum: 0, points, won, points_to_come: [], unrevealed: [[], [], []],
    chosen: [false, false, false], rounds: [{pot: [2], played: [3, 3, 9], taker: 2}], lost: [], hand: [],
    my_choice: null};
  const view = {game: "geier", players: 3, options: {tie_rule: "cascade", final_tie: finalTie}, seat: 0, to_act: [],
    terminal: true, table, returns: points, winners};
  const root = h("section", {class: "end"});
  document.body.append(root);
  root.append(summary({h, t: i18n.t, lang: "fr", seat: 0, names: ["Ana", "Bo", "Cy"], view, legal: [],
    status: "finished", events: [], recent: [], pending: false, play: () => {}, myTurn: false, find: () => undefined,
    findAll: () => []}));
  const text = (sel) => root.querySelector(sel).textContent;
  const out = [text("[data-test=tie-outcome]"), text("[data-test=tie-rule]")];
  root.remove();
  return out;
}"""


def test_the_end_explains_a_tie_at_the_top(page: Any, web_server: ServerProcess) -> None:
    # DECISIONS geier-5, drawn from a made-up final view: Ana and Bo share 10 points
    page.goto(f"{web_server.url}/")
    page.wait_for_selector(".game-card")
    outcome, rule = page.evaluate(FAKE_END, ["next-best", [[10], [4, 6], [5]], [10, 10, 5], [2]])
    assert "Ana et Bo sont à égalité en tête avec 10\u00a0points" in outcome
    assert "Cy, meilleur score non partagé (5)" in outcome
    assert "meilleur score que personne ne partage" in rule
    outcome, rule = page.evaluate(FAKE_END, ["highest-mouse", [[10], [4, 6], [5]], [10, 10, 5], [0]])
    assert "plus grosse souris (+10)" in outcome and "victoire pour Ana" in outcome
    assert "plus grosse souris" in rule
