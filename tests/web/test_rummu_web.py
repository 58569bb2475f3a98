"""Rummü in a real browser: a hand played by clicking against bots, what a seat must not see, a phone's width,
the two languages and the rules help (src/ludotheque/games/rummu/web/)."""

from __future__ import annotations

import random
from typing import Any, ClassVar

from ludotheque.server.process import ServerProcess

from .driver import OFFERED, frame, horizontal_overflow, moved_under_pointer, open_table, play_by_clicking

#: One hand is a whole match (the `hands` cap, all-4), so a clicked game stays short.
SHORT = {"hands": 1}


class Steady(random.Random):
    """The driver's random clicks, leaning towards finishing the turn.

    ``play_by_clicking`` asks ``randrange(count)`` for the element of ``[data-notation], [data-step]`` to click;
    this answer weighs each offered element by what it does (read from the page, in the same order), so that a
    turn ends more often than it starts and cancels combinations: every click is still one the page offers, and
    the driver still checks that every offered move is legal.
    """

    WEIGHTS: ClassVar[dict[str, float]] = {
        "draw": 6.0, "take": 0.6, "discard": 5.0, "close": 8.0, "cancel": 0.4, "add": 2.0, "start": 0.8, "put": 4.0,
        "swap": 4.0, "select": 1.0, "deselect": 0.2,
    }

    def __init__(self, seed: int, page: Any) -> None:
        super().__init__(seed)
        self.page = page

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        count = start if stop is None else stop - start
        kinds: list[str] = self.page.evaluate(
            "(sel) => [...document.querySelectorAll(sel)].map(e => e.dataset.notation ? "
            "e.dataset.notation.split(' ')[0] : e.dataset.step)", OFFERED)
        if len(kinds) != count:
            return super().randrange(count)
        weights = [self.WEIGHTS.get(kind, 1.0) for kind in kinds]
        return self.choices(range(count), weights)[0]


def my_turn(page: Any, timeout: float = 20_000) -> dict[str, Any]:
    """The frame once the person may click (or the match is over)."""
    page.wait_for_function("""() => { const p = window.ludotheque; return p && p.state && (p.state.view.terminal ||
        (p.state.legal.length > 0 && !p.pending)); }""", timeout=timeout)
    state = frame(page)
    assert state is not None
    return state


def shown_moves(page: Any) -> list[str]:
    """The moves the page offers right now (what a click sends)."""
    moves: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('[data-notation]:not([disabled])')].map(e => e.dataset.notation)")
    return moves


def play_turns(page: Any, rng: Steady, turns: int) -> dict[str, Any]:
    """Click as the driver does until the person has discarded ``turns`` times; the frame then."""
    done = 0
    while True:
        state = my_turn(page)
        if done == turns or state["view"]["terminal"]:
            return state
        offered = page.locator(OFFERED)
        count = offered.count()
        if not count:
            page.wait_for_timeout(50)
            continue
        element = offered.nth(rng.randrange(count))
        notation = element.get_attribute("data-notation")
        element.click()
        if notation:  # a move: wait for the frame that follows it
            page.wait_for_function("(seq) => window.ludotheque.state.seq > seq", arg=state["seq"])
            done += notation.startswith("discard")


def test_a_whole_hand_played_by_clicking_against_bots(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "rummu", 4, SHORT)
    page.wait_for_selector("[data-test=my-hand]")
    final = play_by_clicking(page, Steady(4, page), timeout=150)
    table = final["view"]["table"]
    assert final["view"]["terminal"] and len(table["results"]) == 1
    # the count of the hand (rummu-8) is on the board: every seat, its points, the match totals
    count = page.locator(".game-rummu [data-test=score]")
    assert count.count() == 1 and count.get_attribute("open") is not None
    assert count.locator(".rm-score-seat").count() == 4
    text = count.inner_text()
    assert "Décompte de la manche 1" in text and "Totaux de la partie" in text and "Ana" in text
    for seat, points in enumerate(table["results"][0]["points"]):
        shown = count.locator(f".rm-score-seat[data-seat='{seat}'] .rm-score-head .rm-pts").inner_text()
        assert shown == (f"+{points}" if points > 0 else f"−{-points}" if points < 0 else "0")
    page.screenshot(path="/tmp/rummu-end.png", full_page=True)


def test_a_card_under_the_pointer_stays_where_it_is(page: Any, web_server: ServerProcess) -> None:
    # random bots seldom go out; should one go out before the person's first turn, a new table is dealt
    for _ in range(5):
        open_table(page, web_server.url, "rummu", 4, SHORT, bots="random")
        state = my_turn(page)
        if state["view"]["table"]["phase"] == "draw":
            break
    assert state["view"]["table"]["phase"] == "draw"  # a turn begins by drawing (rummu-3)
    # the draw pile and each card of the discard pile light up under the pointer where they lie (the cards that
    # "take" would take with it too): lifted out from under the pointer, a card would flicker and a click could
    # not land on it
    assert page.locator(".rm-fan button[data-notation^=take]").count() >= 1
    assert moved_under_pointer(page) == []


def test_a_seat_sees_the_others_hands_as_backs_and_the_page_fits_a_phone(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "rummu", 4, SHORT, bots="random")  # random bots seldom go out: a hand in play
    page.wait_for_selector("[data-test=my-hand]")
    state = play_turns(page, Steady(7, page), 2)
    assert not state["view"]["terminal"]
    table = state["view"]["table"]
    # the other three seats: only backs, as many as the hand holds, never a face
    seats = page.locator(".game-rummu .rm-seat")
    assert seats.count() == 3
    for i in range(3):
        box = seats.nth(i)
        seat = int(box.get_attribute("data-seat"))
        backs = box.locator(".rm-backs .card")
        assert backs.count() == table["hand_sizes"][seat] == int(box.locator("[data-test=hand-size]").inner_text())
        assert box.locator(".rm-backs .card.back").count() == backs.count()
        assert box.locator(".rm-backs [data-card], .rm-backs .face").count() == 0
    # the person's own hand: faces, sorted by colour (the yellow jokers last) then number
    shown = page.evaluate("() => [...document.querySelectorAll('[data-test=my-hand] .rm-hand .card')]"
                          ".map(e => e.dataset.card)")
    assert shown == sorted(table["hand"], key=lambda card: ("RGBKY".index(card[0]), card[1]))
    # every legal move can be reached by clicking: drawing (the pile, each depth of the discard pile) ...
    if table["phase"] == "draw":
        assert page.locator(".rm-pile[data-notation=draw]").count() == 1
        assert set(shown_moves(page)) == {m["notation"] for m in state["legal"]}
        page.click(".rm-pile[data-notation=draw]")
        state = my_turn(page)
    # ... then, card by card once chosen: a new combination (when the hand can finish one: the frame's help),
    # the discard pile, the combinations it fits
    startable = set(state["help"]["startable"])
    legal = {m["notation"] for m in state["legal"]
             if m["move"]["type"] != "start" or m["move"]["card"] in startable}
    reached: set[str] = set()
    cards = page.locator("[data-test=my-hand] button[data-step=select]")
    for i in range(cards.count()):
        cards.nth(i).click()
        assert page.locator("[data-test=actions] [data-step=deselect]").count() == 1
        reached |= set(shown_moves(page))
    assert reached == legal
    assert page.locator(".rm-fan button[data-notation^=discard]").count() == 1
    assert horizontal_overflow(page) == 0
    page.screenshot(path="/tmp/rummu-mid.png", full_page=True)
    page.click("[data-test=actions] [data-step=deselect]")
    assert page.locator("[data-test=actions]").count() == 0


def test_french_first_then_english_and_the_rules_in_both(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "rummu", 3, SHORT)
    page.wait_for_selector("[data-test=my-hand]")
    assert page.locator(".game-rummu .rm-table h3").inner_text() == "Sur la table"
    assert "Pioche" in page.locator(".game-rummu .rm-drawpile").inner_text()
    page.click("[data-test=rules]")
    page.wait_for_selector(".rules-body h2")
    assert "Rummü" in page.locator(".rules-body h2").first.inner_text()
    assert "joker" in page.locator(".rules-body").inner_text()
    assert "Ouvrir" in page.locator(".rules-body").inner_text()
    page.click(".rules .close")
    page.click("[data-test=lang]")
    assert page.locator(".game-rummu .rm-table h3").inner_text() == "On the table"
    assert "Draw pile" in page.locator(".game-rummu .rm-drawpile").inner_text()
    page.click("[data-test=rules]")
    page.wait_for_selector(".rules-body h2")
    assert "Opening" in page.locator(".rules-body").inner_text()
    assert horizontal_overflow(page) == 0


#: The first player's hand in ``laying_position``: red 0 to 3 and the joker 5, but no red 4.
LAYING_HAND = ("R0", "R1", "R2", "R3", "Y5", "G7", "B2", "K9", "G8")


def laying_position(steps: tuple[str, ...]) -> dict[str, Any]:
    """What the first player's page gets after drawing and playing ``steps`` with ``LAYING_HAND``: the view, the
    legal moves and the server's help, from the game itself."""
    from ludotheque.core import CHANCE
    from ludotheque.games import load_game
    from ludotheque.games.rummu.notation import parse_card

    game = load_game("rummu", players=3, hands=1)
    state = game.new_initial_state()
    table = state.reference_state  # the fields of the Python engine (the state may run compiled)
    first = (table().dealer + 1) % 3
    mine, dealt = [parse_card(card) for card in LAYING_HAND], 0
    while state.is_chance_node():
        outcomes = [action for action, _ in state.chance_outcomes()]
        receiver = (table().dealer + 1 + dealt) % 3 if table().phase == "deal" else None
        dealt += table().phase == "deal"
        card = (next(c for c in mine if c in outcomes) if receiver == first
                else next(c for c in outcomes if c not in mine))
        if receiver == first:
            mine.remove(card)
        state.apply_action(card, CHANCE)
    for text in ("draw", *steps):
        state.apply_action(state.string_to_action(text, first), first)
        while state.is_chance_node():  # the card drawn: one the hand has no use for
            state.apply_action(next(a for a, _ in state.chance_outcomes() if a not in map(parse_card, LAYING_HAND)),
                               CHANCE)
    legal = [{"id": a, "notation": state.action_to_string(a, first), "move": state.action_to_json(a, first)}
             for a in state.legal_actions(first)]
    return {"view": state.view(first), "legal": legal, "help": game.seat_help(state, first), "seat": first}


#: The hand's offered cards and the stuck note, as Rummü's renderer draws a position on the page
LAYING = """async ([position, lang]) => {
  const i18n = await import("/static/js/i18n.js");
  const {makeContext} = await import("/static/js/board.js");
  const renderer = await import("/games/rummu/web/renderer.js");
  await i18n.loadShellCatalog();
  await i18n.loadGameCatalog("rummu");
  i18n.setLang(lang);
  document.querySelector(".rummu-probe")?.remove();
  const root = document.createElement("section");
  root.className = "board game-rummu rummu-probe";
  document.body.append(root);
  renderer.render(root, makeContext({...position, names: ["Ana", "Bo", "Cy"]}));
  const stuck = root.querySelector("[data-test=rummu-stuck]");
  return {hand: [...root.querySelectorAll("[data-test=my-hand] .cards [data-notation]")].map((e) => e.dataset.notation),
    stuck: stuck ? stuck.innerText : null,
    back: stuck ? stuck.querySelector("[data-notation]")?.dataset.notation : null};
}"""


def test_on_a_phone_a_step_is_offered_only_when_the_hand_can_finish_the_combination(
    page: Any, web_server: ServerProcess
) -> None:
    page.goto(f"{web_server.url}/")
    page.wait_for_selector(".game-card")
    after_three = laying_position(("start R1", "add R2", "add R3"))
    legal = [entry["notation"] for entry in after_three["legal"]]
    assert "add Y5" in legal and "add R0" in legal  # the rule allows both: any red 4 would finish 1-2-3-joker 5
    drawn = page.evaluate(LAYING, [after_three, "fr"])
    assert drawn["hand"] == ["add R0"] and drawn["stuck"] is None  # the hand has no red 4: no joker 5 offered

    # reached anyway (a move from an older page): the page says what is missing, with the way back beside it
    stuck = laying_position(("start R1", "add R2", "add R3", "add Y5"))
    drawn = page.evaluate(LAYING, [stuck, "fr"])
    assert drawn["hand"] == []
    assert drawn["stuck"].startswith("Votre main ne peut plus compléter cette combinaison\u202f: il lui manque 4 rouge")
    assert "Reprendre les cartes" in drawn["stuck"] and drawn["back"] == "cancel"
    assert "it lacks red 4" in page.evaluate(LAYING, [stuck, "en"])["stuck"]
    assert "Es fehlt Rot 4" in page.evaluate(LAYING, [stuck, "de"])["stuck"]
