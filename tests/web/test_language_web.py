"""The page's language in a real browser: the remembered choice, else ``?lang=`` (kept for the visit), else the
browser's first language among French, English and German, else French.  An invite link carries no language: the
invitee's browser decides."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from ludotheque.server.process import ServerProcess

from .driver import open_table

REMEMBERED = "ludotheque.lang"


@pytest.fixture
def browser_in(browser: Any) -> Iterator[Callable[[str], Any]]:
    """A page in a browser context of its own whose language is ``locale``; page errors and Content-Security-Policy
    violations fail the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def open_page(locale: str) -> Any:
        context = browser.new_context(viewport={"width": 360, "height": 740}, locale=locale)
        contexts.append(context)
        tab = context.new_page()
        tab.on("pageerror", lambda error: errors.append(str(error)))
        tab.on("console", lambda message: errors.append(message.text) if "Content Security Policy" in message.text
               else None)
        return tab

    try:
        yield open_page
    finally:
        for context in contexts:
            context.close()
    assert not errors, f"a page raised: {errors}"


def lobby_title(page: Any, url: str) -> str:
    page.goto(url)
    page.wait_for_selector(".game-card")
    title: str = page.locator("h1").inner_text()
    return title


def invite_by_lobby(page: Any, server: ServerProcess) -> str:
    """The invite link of a table created in the lobby of ``page``, with an open seat for a friend."""
    page.goto(f"{server.url}/")
    page.click("[data-game=geier]")
    page.select_option("[data-seat='1']", "open")
    page.fill("input[name=name]", "Ana")
    page.click("[data-test=create]")
    link: str = page.locator("[data-test=invite] input").input_value()
    return link


def open_invite(page: Any, link: str) -> str:
    """The language of the table page an invite link opens (``<html lang>``), once its join form shows."""
    page.goto(link)
    page.wait_for_selector("input[name=name]")
    lang: str = page.evaluate("() => document.documentElement.lang")
    return lang


def test_an_invite_link_speaks_the_language_of_the_invitees_browser(
    browser_in: Callable[[str], Any], web_server: ServerProcess
) -> None:
    host = browser_in("fr-FR")
    link = invite_by_lobby(host, web_server)  # made in a French page
    assert "lang" not in link
    friend = browser_in("en-GB")
    assert open_invite(friend, link) == "en"
    assert friend.get_by_role("button", name="Take a seat").is_visible()
    other = browser_in("fr-FR")
    assert open_invite(other, link) == "fr"
    assert other.get_by_role("button", name="Prendre une place").is_visible()

    # and the other way round: an English host's link opens in French for a French browser
    english_host = browser_in("en-GB")
    english_link = invite_by_lobby(english_host, web_server)
    assert "lang" not in english_link
    assert open_invite(browser_in("fr-FR"), english_link) == "fr"


def test_the_servers_invite_url_carries_no_language(web_server: ServerProcess) -> None:
    created = httpx.post(f"{web_server.url}/api/tables", headers={"Accept-Language": "en-GB"},
                         json={"game": "geier", "players": 2, "seats": ["me", "open"], "private": True}).json()
    assert "lang" not in created["invite_url"] and "invite=" in created["invite_url"]


def test_the_browsers_language_decides_when_nothing_else_does(
    browser_in: Callable[[str], Any], web_server: ServerProcess
) -> None:
    assert lobby_title(browser_in("en-GB"), f"{web_server.url}/") == "The ludotheque"
    assert lobby_title(browser_in("en-US"), f"{web_server.url}/") == "The ludotheque"
    assert lobby_title(browser_in("fr-FR"), f"{web_server.url}/") == "La ludothèque"
    german = browser_in("de-DE")
    assert lobby_title(german, f"{web_server.url}/") == "Die Spielothek"
    assert german.evaluate("() => document.documentElement.lang") == "de"
    assert lobby_title(browser_in("it-IT"), f"{web_server.url}/") == "La ludothèque"  # none of them: French


def test_the_address_asks_for_a_language_for_the_visit_without_it_being_remembered(
    browser_in: Callable[[str], Any], web_server: ServerProcess
) -> None:
    page = browser_in("fr-FR")
    assert lobby_title(page, f"{web_server.url}/?lang=en") == "The ludotheque"
    assert page.evaluate(f"() => localStorage.getItem('{REMEMBERED}')") is None
    page.click("[data-test=ratings]")  # a link of the page: the visit goes on in English
    page.wait_for_selector("main h1")
    assert page.locator("main h1").inner_text() == "Leaderboards"
    assert lobby_title(page, f"{web_server.url}/") == "The ludotheque"  # a later page of the visit too
    other_tab = page.context.new_page()  # another visit: the browser's language again
    assert lobby_title(other_tab, f"{web_server.url}/") == "La ludothèque"
    other_tab.close()
    english = browser_in("en-GB")
    assert lobby_title(english, f"{web_server.url}/?lang=fr") == "La ludothèque"
    assert lobby_title(english, f"{web_server.url}/?lang=de") == "Die Spielothek"
    assert lobby_title(english, f"{web_server.url}/?lang=xx") == "Die Spielothek"  # unknown: ignored
    assert english.evaluate(f"() => localStorage.getItem('{REMEMBERED}')") is None


def test_the_switch_offers_deutsch_and_remembers_it(
    browser_in: Callable[[str], Any], web_server: ServerProcess
) -> None:
    page = browser_in("fr-FR")
    assert lobby_title(page, f"{web_server.url}/") == "La ludothèque"
    page.get_by_role("button", name="Deutsch").click()
    assert page.locator("h1").inner_text() == "Die Spielothek"
    assert page.evaluate(f"() => localStorage.getItem('{REMEMBERED}')") == "de"
    assert page.locator("[data-test=lang]").all_inner_texts() == ["FR", "EN"]
    assert lobby_title(page, f"{web_server.url}/?lang=en") == "Die Spielothek"  # remembered wins over the address
    page.goto(f"{web_server.url}/me")  # the profile's language list offers it too, chosen
    chosen = page.locator("[data-test=preferences] select[name=lang]")
    chosen.wait_for()
    assert chosen.locator("option").all_inner_texts() == ["Français", "English", "Deutsch"]
    assert chosen.input_value() == "de" and page.locator("h1").inner_text() == "Dein Profil"


def test_a_remembered_choice_wins_over_the_address_and_the_browser(
    browser_in: Callable[[str], Any], web_server: ServerProcess
) -> None:
    page = browser_in("en-GB")
    assert lobby_title(page, f"{web_server.url}/?lang=en") == "The ludotheque"
    page.click("[data-test=lang]")  # the person picks French
    assert page.locator("h1").inner_text() == "La ludothèque"
    assert page.evaluate(f"() => localStorage.getItem('{REMEMBERED}')") == "fr"
    assert lobby_title(page, f"{web_server.url}/?lang=en") == "La ludothèque"
    assert lobby_title(page, f"{web_server.url}/") == "La ludothèque"
    link = httpx.post(f"{web_server.url}/api/tables",
                      json={"game": "geier", "players": 2, "seats": ["me", "open"]}).json()["invite_url"]
    assert open_invite(page, link) == "fr"


def test_an_accounts_language_is_a_remembered_choice(
    browser_in: Callable[[str], Any], web_server: ServerProcess
) -> None:
    guest = httpx.post(f"{web_server.url}/api/players", json={"name": "Ana"}).json()["token"]
    username, password = f"ana_{uuid.uuid4().hex[:6]}", "correct horse battery"
    account = httpx.post(f"{web_server.url}/api/me/account", headers={"X-Player-Token": guest},
                         json={"username": username, "password": password})
    assert account.status_code in (200, 201), account.text
    saved = httpx.put(f"{web_server.url}/api/me/preferences", json={"lang": "en"},
                      headers={"X-Player-Token": account.json()["token"]})
    assert saved.status_code == 200, saved.text

    page = browser_in("fr-FR")
    page.goto(f"{web_server.url}/me")
    page.wait_for_selector("[data-test=login-form]")
    page.fill("[data-test=login-form] input[name=username]", username)
    page.fill("[data-test=login-form] input[name=password]", password)
    page.click("[data-test=login-form] button[type=submit]")
    page.wait_for_selector(f"[data-test=who]:has-text('{username}')")
    assert lobby_title(page, f"{web_server.url}/?lang=fr") == "The ludotheque"


def test_a_table_speaks_german_to_a_german_browser(browser_in: Callable[[str], Any], web_server: ServerProcess) -> None:
    """The shell, the game's own texts and its rules help, for a browser whose first language is German."""
    page = browser_in("de-DE")
    open_table(page, web_server.url, "geier", 2)
    page.wait_for_selector("text=Wähle die Karte, die du verdeckt spielst.")
    assert page.locator("[data-test=rules]").inner_text() == "Regeln"
    page.click("[data-test=rules]")
    page.wait_for_selector(".rules-body h2")
    headings = page.locator(".rules-body").locator("h2, h3").all_inner_texts()
    assert headings[:2] == ["Hol’s der Geier", "Ziel"], headings
