"""The coach's review on the replay page, in a real browser: asked with the button, followed while the coach works,
then a chart of the seat's expected points with a marker on each judged move, and a line per decision, "joué X, le
coach préférait Y (+n points)", as the server's review says."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from ludotheque.server.process import ServerProcess

from .test_replay_web import finished_table


@pytest.fixture(scope="module")
def web_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server whose reviews take about a second (``LUDOTHEQUE_REVIEW_SECONDS``)."""
    folder = tmp_path_factory.mktemp("server")
    process = ServerProcess(f"sqlite:///{folder / 'ludotheque.db'}", folder).start(
        {"LUDOTHEQUE_REVIEW_SECONDS": "1", "LUDOTHEQUE_REVIEW_PLAYOUTS": "60"})
    try:
        yield process
    finally:
        process.stop()


def test_the_replay_page_shows_the_coachs_review(page: Any, web_server: ServerProcess) -> None:
    table_id, _ = finished_table(web_server, "geier", 2)
    page.goto(f"{web_server.url}/tables/{table_id}/replay?seat=0")
    page.click("[data-test=review-ask]")
    page.wait_for_selector("svg[data-test=review-chart]", timeout=60_000)
    review = httpx.get(f"{web_server.url}/api/tables/{table_id}/review", params={"seat": 0}).json()["review"]

    judged = [d for d in review["decisions"] if d["judgement"] != "good" and d["expected_played"] is not None]
    assert page.locator("[data-test=review-marker]").count() == len(judged)
    lines = page.locator("[data-test=review-decisions] li").all_text_contents()
    assert len(lines) == len(review["decisions"])
    # in words: the moment as Geier counts it (its round and prize card), the moves as its buttons name them
    for line, decision in zip(lines, review["decisions"], strict=True):
        rounds = decision["moment"][0]
        assert line.startswith(f"Manche {rounds['n']} sur {rounds['total']} · carte points ")
        played = f"Poser le {decision['played']} face cachée"
        if decision["best"] == decision["played"]:
            assert f"joué {played}, le choix du coach aussi" in line
        else:
            assert f"joué {played}, le coach préférait Poser le {decision['best']} face cachée (+" in line
    assert "Points perdus" in page.text_content("[data-test=review-summary]")
    assert "(points de la partie)" in page.text_content("[data-test=review-summary]")
    # the model of each seat in the playouts: the seat reviewed as a person, the other as the bot that sat there
    models = page.text_content("[data-test=review-models]")
    assert "(la place analysée) par le bot facile" in models and "par le bot au hasard, comme à la table" in models

    # a decision's line steps the replay to it, where the coach's word is shown again
    decision = review["decisions"][-1]
    page.locator(f"[data-test=review-decisions] li[data-seq='{decision['seq']}'] a").click()
    page.wait_for_function("(seq) => window.ludotheque.step && window.ludotheque.step.seq === seq",
                           arg=decision["seq"])
    assert f"joué Poser le {decision['played']} face cachée" in page.text_content("[data-test=review-here]")

    # the page opened again finds the review done, without asking
    page.reload()
    page.wait_for_selector("svg[data-test=review-chart]")


def reviewed_with_a_mistake(page: Any, server: ServerProcess) -> tuple[str, dict[str, Any]]:
    """A finished 2-player Geier table whose seat 0 (random play) the coach judged wrong at least once, reviewed
    on the replay page: its id and the review."""
    for _ in range(4):
        table_id, _ = finished_table(server, "geier", 2)
        page.goto(f"{server.url}/tables/{table_id}/replay?seat=0")
        page.click("[data-test=review-ask]")
        page.wait_for_selector("svg[data-test=review-chart]", timeout=60_000)
        review = httpx.get(f"{server.url}/api/tables/{table_id}/review", params={"seat": 0}).json()["review"]
        if any(d["judgement"] != "good" and d["expected_played"] is not None for d in review["decisions"]):
            return table_id, review
    pytest.fail("four games of random play without a move the coach judged wrong")


def test_retry_your_mistakes_asks_again_at_the_position_before_each(page: Any, web_server: ServerProcess) -> None:
    _, review = reviewed_with_a_mistake(page, web_server)
    wrong = [d for d in review["decisions"] if d["judgement"] != "good" and d["expected_played"] is not None]
    first = wrong[0]
    page.click("[data-test=retry-start]")
    page.wait_for_function("(seq) => window.ludotheque.step && window.ludotheque.step.seq === seq",
                           arg=first["seq"] - 1)
    assert f"Erreur 1 sur {len(wrong)} (Manche " in page.text_content("[data-test=retry-prompt]")
    # the move played in the game again: the coach still prefers its own
    page.click(f"[data-test=board] [data-notation='{first['played']}']")
    verdict = page.wait_for_selector("[data-test=retry-verdict]")
    assert verdict.get_attribute("data-agree") == "false"
    assert f"le coach préférait Poser le {first['best']} face cachée (+" in verdict.inner_text()
    # picked again, the coach's move: it agrees
    page.click("[data-test=retry-again]")
    page.click(f"[data-test=board] [data-notation='{first['best']}']")
    page.wait_for_selector("[data-test=retry-verdict][data-agree=true]")
    assert f"Le coach est d’accord\u00a0: Poser le {first['best']} face cachée" in page.text_content(
        "[data-test=retry-verdict]")
    # on through the other mistakes to the end, then back to the review
    for _ in wrong[1:]:
        page.click("[data-test=retry-next]")
    page.click("[data-test=retry-next]")
    page.wait_for_selector("text=Vous avez revu toutes vos erreurs.")
    page.click("[data-test=retry-stop]")
    page.wait_for_selector("[data-test=review-decisions]")
