"""What the lobby and the tables say, read as a person reads them (issue "a table people enjoy", its texts):

- the create form explains each option to players, in the page's language, from the game's catalog;
- after creating a table to share, the invite link is on screen with the focus, ready to copy;
- the lists name each game once, in the page's language;
- Rummü's log names colours in words, Calcory's deal is one line, MICE's end box has column headers and says that
  the fewest points win, the Mü hand is on a phone's screen when the person bids, and English articles agree.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import httpx
import pytest
from tests.server.client import bot_headers

from ludotheque.core import CHANCE, Actor
from ludotheque.games import game_class, game_ids, load_game
from ludotheque.server.pages import game_web_folder
from ludotheque.server.process import ServerProcess
from ludotheque.web import STATIC

from .driver import open_table

#: A decision id as the rules' notes cite them ("geier-3", "all-4", "rummu-2/9"): never shown to players.
DECISION_ID = re.compile(r"\b[a-z]+-\d+\b")
#: A Rummü card in the notation's code ("B1", "R7"), or in the French initials once used ("V2", "J4", "N5").
CARD_CODE = re.compile(r"\b[RYGBKVJN]\d\b")


def catalog(game_id: str) -> dict[str, dict[str, str]]:
    messages: dict[str, dict[str, str]] = json.loads(
        (game_web_folder(game_id) / "messages.json").read_text(encoding="utf-8"))
    return messages


# -- the catalogs --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", game_ids())
def test_every_option_has_a_help_for_players_in_every_language(game_id: str) -> None:
    messages = catalog(game_id)
    for spec in game_class(game_id).option_specs:
        helps = {lang: messages[lang].get(f"{game_id}.option.{spec.name}.help", "") for lang in ("fr", "en", "de")}
        for lang, text in helps.items():
            assert len(text) > 20, f"{game_id} option {spec.name}: no help in {lang}"
            assert not DECISION_ID.search(text), f"{game_id} option {spec.name} ({lang}) reads as a note: {text}"
            assert text != spec.doc
        assert len(set(helps.values())) == 3


def test_no_english_article_stands_before_a_number_it_cannot_agree_with() -> None:
    """"a {value}" reads "a 8": an English message names a card by its number without "a"."""
    catalogs = {"shell": json.loads((STATIC / "locales" / "en.json").read_text(encoding="utf-8"))}
    catalogs.update({game_id: catalog(game_id)["en"] for game_id in game_ids()})
    bad = [f"{name}: {key}" for name, texts in catalogs.items() for key, text in texts.items()
           if re.search(r"\b[Aa] \{\w+\}", text)]
    assert bad == []
    assert re.search(r"\b[Aa] \{\w+\}", "flips a {value}")  # what the check finds


# -- the lobby -----------------------------------------------------------------------------------------------


def test_the_create_form_explains_options_in_the_pages_language_and_the_invite_link_comes_into_view(
    page: Any, web_server: ServerProcess
) -> None:
    french = catalog("geier")["fr"]
    page.goto(f"{web_server.url}/")
    page.click("[data-game=geier]")
    helps = page.locator("[data-test=option-help]").all_inner_texts()
    assert helps == [french["geier.option.tie_rule.help"], french["geier.option.final_tie.help"]]
    # each field says which help is its own, for a screen reader
    described = page.locator("select[name=tie_rule]").get_attribute("aria-describedby")
    assert page.locator(f"#{described}").inner_text() == helps[0]
    page.click("[data-test=lang]")
    english = catalog("geier")["en"]
    assert page.locator("[data-test=option-help]").first.inner_text() == english["geier.option.tie_rule.help"]
    form = page.locator("#create").inner_html()
    assert not DECISION_ID.search(form), "a developer's note shows in the form"
    page.click("[data-test=lang]")

    # a table with a seat for a friend: the link is on screen, focused and selected, after the click at the foot
    page.select_option("[data-seat='1']", "open")
    page.fill("input[name=name]", "Ana")
    page.click("[data-test=create]")
    page.wait_for_selector("[data-test=invite]")
    box = page.locator("[data-test=invite]").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 740, box
    focused = page.evaluate("""() => { const e = document.activeElement;
        return {inBox: Boolean(e.closest('[data-test=invite]')), value: e.value,
                selected: e.selectionEnd - e.selectionStart}; }""")
    assert focused["inBox"] and "/tables/" in focused["value"] and focused["selected"] == len(focused["value"])


def test_the_lists_name_each_game_once_in_the_pages_language(page: Any, web_server: ServerProcess) -> None:
    def create(**body: Any) -> str:
        return str(httpx.post(f"{web_server.url}/api/tables", json=body).json()["table_id"])

    mine = httpx.post(f"{web_server.url}/api/tables", json={"game": "geier", "players": 2, "seats": ["me", "open"],
                                                            "player_name": "Ana"}).json()
    cheese = create(game="cheese", players=2, seats=["bot:easy", "open"])
    named = create(game="mu", players=3, name="Jeudi au club", seats=["bot:easy", "open", "open"])
    page.goto(f"{web_server.url}/")
    page.evaluate("""([id, seat, token]) => localStorage.setItem("ludotheque.seats",
        JSON.stringify({[id]: {seat, token, game: "geier"}}))""", [mine["table_id"], mine["seat"], mine["token"]])

    def rows(table_id: str) -> list[str]:
        texts: list[str] = page.locator(f".table-row:has(a[href='/tables/{table_id}']) strong").all_inner_texts()
        return texts

    for lang, geier, bot in (("fr", "Stupides Vautours", "bot (facile)"), ("en", "Hol’s der Geier", "bot (easy)")):
        page.goto(f"{web_server.url}/?lang={lang}")
        page.wait_for_selector(".table-row")
        assert rows(mine["table_id"]) == [geier, geier]  # in progress here, and open to join
        assert rows(cheese) == ["Cheese Rescue"]
        assert rows(named) == ["Mü · Jeudi au club"]  # a name given is kept
        assert bot in page.locator(f".table-row:has(a[href='/tables/{cheese}'])").inner_text()
        assert "Hol's der Geier / Stupides Vautours" not in page.locator("main").inner_text()


# -- at the tables -------------------------------------------------------------------------------------------


def rummu_events(seeds: range, seat: int = 0) -> list[dict[str, Any]]:
    """What ``seat`` saw in random games of Rummü (one hand each): the events the log describes."""
    seen: list[dict[str, Any]] = []
    for seed in seeds:
        game = load_game("rummu", players=3, hands=1)
        state, rng = game.new_initial_state(), random.Random(seed)
        while not state.is_terminal():
            before = state.clone()
            actor: Actor
            if state.is_chance_node():
                actions, weights = zip(*state.chance_outcomes(), strict=True)
                action, actor = rng.choices(actions, weights)[0], CHANCE
            else:
                actor = state.current_players()[0]
                action = rng.choice(state.legal_actions(actor))
            state.apply_action(action, actor)
            for event in game.describe(before, actor, action, state):
                data = event.seen_by(seat)
                if data is not None:
                    seen.append(data)
    return seen


#: The log's lines of each event, by the game's own renderer, in the page's language.
DESCRIBE = """async ([game, lang, events, names]) => {
  const i18n = await import("/static/js/i18n.js");
  const {h} = await import("/static/js/dom.js");
  const renderer = await import(`/games/${game}/web/renderer.js`);
  await i18n.loadShellCatalog();
  await i18n.loadGameCatalog(game);
  i18n.setLang(lang);
  const ctx = {t: i18n.t, h, names, seat: 0, events, recent: [], legal: [], view: null};
  return events.map((event) => renderer.describe(event, ctx) || "");
}"""


def test_the_rummu_log_names_colours_in_words(page: Any, web_server: ServerProcess) -> None:
    events = [e for e in rummu_events(range(3)) if e["type"] in ("take", "close", "start", "add", "cancel",
                                                                   "discard", "flip", "draw", "put", "swap")]
    assert {"take", "close", "discard"} <= {e["type"] for e in events}
    page.goto(f"{web_server.url}/")
    page.wait_for_selector(".game-card")
    messages = catalog("rummu")
    for lang in ("fr", "en"):
        lines = page.evaluate(DESCRIBE, ["rummu", lang, events, ["Ana", "Bo", "Cy"]])
        words = messages[lang]
        for event, line in zip(events, lines, strict=True):
            assert line and not CARD_CODE.search(line), (event, line)
            cards = [event[k] for k in ("card", "joker") if k in event] + event.get("cards", [])
            for card in cards:
                said = ["joker"] if card[0] == "Y" else [words[f"rummu.colour.{card[0]}"],
                                                          words[f"rummu.colour.{card[0]}.many"]]
                assert any(word in line for word in said) and card[1] in line, (event, line)
    english = page.evaluate(DESCRIBE, ["rummu", "en", [{"type": "close", "seat": 1, "combo": 2, "points": 12,
                                                        "cards": ["R3", "R4", "Y5", "R6"], "opening": False}],
                                       ["Ana", "Bo", "Cy"]])
    assert english == ["Bo lays combination 2: red 3 and 4, joker 5, red 6 (+12 pts)."]


def test_the_calcory_deal_is_one_line_of_the_log(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "calcory", 2)
    page.wait_for_function("() => window.ludotheque.log.filter((e) => e.type === 'deal').length === 60")
    lines = page.locator(".log li").all_inner_texts()
    dealt = [line for line in lines if "face cachée" in line and "grille" in line]
    assert dealt == ["La grille est posée face cachée\u00a0: 60 cartes, de A1 à F10"], lines
    assert not any(line.startswith("Une carte est posée") for line in lines)


def test_the_mice_end_box_has_column_headers_and_says_the_fewest_points_win(
    page: Any, web_server: ServerProcess
) -> None:
    table = httpx.post(f"{web_server.url}/api/tables", json={"game": "mice", "players": 2,
                                                             "seats": ["bot:random", "bot:random"]},
                       headers=bot_headers(web_server.url, ["bot:random"])).json()
    page.goto(f"{web_server.url}/tables/{table['table_id']}")
    end = page.locator("[data-test=end]")
    end.wait_for(timeout=60_000)
    headers = end.locator("th").all_inner_texts()
    assert {"Joueur", "Points", "Noix"} <= set(headers), headers
    assert end.locator("[data-test=mice-rule]").inner_text().startswith("Le moins de points gagne")
    assert page.locator("[data-test=mice-final]").count() == 1  # in the end box, not twice on the page


def test_the_mu_hand_is_on_a_phones_screen_when_the_person_bids(page: Any, web_server: ServerProcess) -> None:
    open_table(page, web_server.url, "mu", 3)
    page.wait_for_selector("[data-test=mu-hand] [data-notation]:not([disabled])")
    page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
    assert page.evaluate("() => window.ludotheque.state.view.table.phase") == "auction"
    first = page.locator("[data-test=mu-hand] [data-notation]").first.bounding_box()
    assert first is not None and first["y"] >= 0 and first["y"] + first["height"] <= 740, first
    assert page.locator("[data-test=mu-mine] button[data-notation]").first.is_visible()
