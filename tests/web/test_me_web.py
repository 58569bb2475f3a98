"""The player's page in a real browser: a guest becomes an account, logs in from another browser with the password
or with a one-time link, and finds its name and preferences there."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from ludotheque.server.process import ServerProcess

from .driver import horizontal_overflow

PASSWORD = "correct horse battery"


@pytest.fixture
def other_browser(browser: Any) -> Iterator[Any]:
    """Another phone: a browser context of its own (its own localStorage), page errors failing the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def open_page() -> Any:
        context = browser.new_context(viewport={"width": 360, "height": 740}, locale="fr-FR")
        contexts.append(context)
        tab = context.new_page()
        tab.on("pageerror", lambda error: errors.append(str(error)))
        return tab

    try:
        yield open_page
    finally:
        for context in contexts:
            context.close()
    assert not errors, f"a page raised: {errors}"


def player_of(page: Any, server: ServerProcess) -> dict[str, Any]:
    """What the server says of the player this browser holds."""
    token = page.evaluate("() => localStorage.getItem('ludotheque.player')")
    answer: dict[str, Any] = httpx.get(f"{server.url}/api/me", headers={"X-Player-Token": token}).json()
    return answer


def open_me(page: Any, server: ServerProcess) -> None:
    page.goto(f"{server.url}/me")
    page.wait_for_selector("[data-test=name-form]")


def become_guest(page: Any, server: ServerProcess, name: str) -> dict[str, Any]:
    open_me(page, server)
    page.fill("[data-test=name-form] input[name=name]", name)
    page.click("[data-test=name-form] button")
    page.wait_for_selector("[data-test=notice]:has-text('Nom enregistré')")
    return player_of(page, server)


def test_a_guest_makes_an_account_and_logs_in_on_another_phone(
    page: Any, other_browser: Any, web_server: ServerProcess
) -> None:
    page.goto(f"{web_server.url}/")
    page.click("[data-test=me]")  # the lobby leads to the player's page
    page.wait_for_url("**/me")
    guest = become_guest(page, web_server, "Ana")
    assert guest["guest"] and guest["name"] == "Ana"
    assert page.locator("[data-test=no-games]").is_visible()
    username = f"ana_{uuid.uuid4().hex[:6]}"
    page.fill("[data-test=account-form] input[name=username]", username)
    page.fill("[data-test=account-form] input[name=password]", PASSWORD)
    page.click("[data-test=account-form] button[type=submit]")
    page.wait_for_selector(f"[data-test=who]:has-text('{username}')")
    account = player_of(page, web_server)
    assert account["player_id"] == guest["player_id"] and not account["guest"]
    assert page.locator("[data-test=shown-link]").count() == 0  # a password: no link to keep
    page.select_option("[data-test=preferences] select[name=lang]", "en")  # saved to the account
    page.wait_for_selector("h1:has-text('Your profile')")
    assert horizontal_overflow(page) == 0

    phone = other_browser()
    open_me(phone, web_server)
    assert phone.locator("h1").inner_text() == "Votre profil"
    phone.fill("[data-test=login-form] input[name=username]", username)
    phone.fill("[data-test=login-form] input[name=password]", "not the password")
    phone.click("[data-test=login-form] button[type=submit]")
    phone.wait_for_selector("[data-test=notice].error")
    # the refusal in the page's language, a sentence with its capital
    assert phone.locator("[data-test=notice]").inner_text() == "Nom d’utilisateur ou mot de passe incorrect."
    phone.goto(f"{web_server.url}/me?lang=en")
    phone.fill("[data-test=login-form] input[name=username]", username)
    phone.fill("[data-test=login-form] input[name=password]", "not the password either")
    phone.click("[data-test=login-form] button[type=submit]")
    phone.wait_for_selector("[data-test=notice].error")
    assert phone.locator("[data-test=notice]").inner_text() == "The user name or the password is wrong."
    phone.fill("[data-test=login-form] input[name=password]", PASSWORD)
    phone.click("[data-test=login-form] button[type=submit]")
    phone.wait_for_selector(f"[data-test=who]:has-text('{username}')")
    assert phone.locator("[data-test=name-form] input[name=name]").input_value() == "Ana"
    assert phone.locator("h1").inner_text() == "Your profile"  # the account's language, applied at login
    assert player_of(phone, web_server)["player_id"] == guest["player_id"]
    assert horizontal_overflow(phone) == 0

    phone.click("[data-test=logout]")
    phone.wait_for_selector("[data-test=login-form]")
    assert phone.evaluate("() => localStorage.getItem('ludotheque.player')") is None
    assert player_of(page, web_server)["player_id"] == guest["player_id"]  # the first phone stays logged in


def test_an_account_without_password_and_a_link_for_another_device(
    page: Any, other_browser: Any, web_server: ServerProcess
) -> None:
    become_guest(page, web_server, "Bo")
    username = f"bo_{uuid.uuid4().hex[:6]}"
    page.fill("[data-test=account-form] input[name=username]", username)
    page.click("[data-test=account-form] button[type=submit]")
    page.wait_for_selector("[data-test=shown-link]")
    account_link = page.locator("[data-test=shown-link] input").input_value()
    assert "/login/" in account_link

    laptop = other_browser()
    laptop.goto(account_link)
    laptop.wait_for_selector(f"[data-test=who]:has-text('{username}')")
    assert laptop.url == f"{web_server.url}/me"  # the code leaves the address bar
    assert laptop.locator("[data-test=name-form] input[name=name]").input_value() == "Bo"

    stranger = other_browser()
    stranger.goto(account_link)  # spent already
    stranger.wait_for_selector("[data-test=notice].error")
    assert stranger.locator("[data-test=login-form]").is_visible()

    page.reload()
    page.wait_for_selector("[data-test=another-device]")
    assert page.locator("[data-test=shown-link]").count() == 0  # shown once
    page.click("[data-test=another-device]")
    page.wait_for_selector("[data-test=shown-link]")
    device_link = page.locator("[data-test=shown-link] input").input_value()
    assert device_link != account_link
    stranger.goto(device_link)
    stranger.wait_for_selector(f"[data-test=who]:has-text('{username}')")
    assert player_of(stranger, web_server)["player_id"] == player_of(page, web_server)["player_id"]
