"""Browser tests: Playwright drives Debian's Chromium (scripts/browser.sh installs it) against a real server."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ludotheque.server.process import ServerProcess

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def web_server(sqlite_server: ServerProcess) -> ServerProcess:
    return sqlite_server


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    found = subprocess.run(["bash", str(ROOT / "scripts" / "browser.sh")], capture_output=True, text=True)
    if found.returncode != 0:
        pytest.fail(f"no Chromium for the browser tests: {found.stderr.strip()}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=found.stdout.strip(),
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                  "--disable-sync", "--no-first-run"],
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A phone-sized page (360 px wide, portrait); page errors and violations of the server's Content-Security-
    Policy (which Chromium reports in the console) fail the test."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, locale="fr-FR")
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.on("console", lambda message: errors.append(message.text) if "Content Security Policy" in message.text
           else None)
    tab.errors = errors
    try:
        yield tab
    finally:
        context.close()
    assert not errors, f"the page raised: {errors}"
