"""The leaderboards in a real browser: a game's ratings as a table, bots under their level's name in the reader's
language, provisional entries marked, names shown as text, the phone's width."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, insert

from ludotheque.server.db import make_engine
from ludotheque.server.process import ServerProcess
from ludotheque.server.schema import ratings

from .driver import horizontal_overflow

HOSTILE = "<img src=x onerror=alert(1)>"


def seed(server: ServerProcess, game: str, entries: list[tuple[str, str, float, float, int]]) -> None:
    """Ratings written straight into the server's database, as finished rated tables would leave them."""
    engine = make_engine(server.db_url)
    try:
        with engine.begin() as db:
            db.execute(delete(ratings).where(ratings.c.game == game))
            for rater, name, mu, sigma, games in entries:
                db.execute(insert(ratings).values(game=game, rater=rater, name=name, mu=mu, sigma=sigma, games=games,
                                                  updated_at=0.0))
    finally:
        engine.dispose()


def test_a_leaderboard_shows_people_and_bot_levels_best_first(page: Any, web_server: ServerProcess) -> None:
    seed(web_server, "geier", [
        ("player:p1", "Ana", 30.0, 3.0, 20),
        ("bot:hard", "hard", 28.0, 4.0, 40),
        ("player:p2", HOSTILE, 26.0, 7.0, 3),
    ])
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.goto(f"{web_server.url}/ratings/geier")
    page.wait_for_selector("[data-test=leaderboard] tbody tr")
    rows = page.locator("[data-test=leaderboard] tbody tr")
    assert rows.count() == 3
    assert [rows.nth(i).locator("td.name").inner_text() for i in range(3)] == ["Ana", "bot difficile", HOSTILE]
    assert rows.nth(0).locator("td.rating").inner_text() == "1700"
    assert page.locator("[data-test=leaderboard] img").count() == 0 and dialogs == []
    hostile = page.locator("[data-rater='player:p2']")
    assert "provisional" in (hostile.get_attribute("class") or "") and "prov." in hostile.inner_text()
    assert "prov." not in rows.nth(0).inner_text()
    assert "Classement" in page.locator("h1").inner_text()
    assert horizontal_overflow(page) == 0

    page.click("[data-test=lang]")
    assert rows.nth(1).locator("td.name").inner_text() == "bot hard"
    assert "Leaderboard" in page.locator("h1").inner_text()


def test_the_index_links_every_game_and_an_unknown_game_says_so(page: Any, web_server: ServerProcess) -> None:
    seed(web_server, "cheese", [])
    page.goto(f"{web_server.url}/ratings")
    page.wait_for_selector(".game-links a")
    assert page.locator(".game-links a").count() == 7
    page.click(".game-links a[data-game=cheese]")
    page.wait_for_url("**/ratings/cheese")
    page.wait_for_selector("[data-test=empty]")
    assert horizontal_overflow(page) == 0
    page.goto(f"{web_server.url}/ratings/chess")
    page.wait_for_selector("[role=alert]")
    assert "chess" in page.locator("[role=alert]").inner_text()
