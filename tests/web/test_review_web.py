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
    for line, decision in zip(lines, review["decisions"], strict=True):
        if decision["best"] == decision["played"]:
            assert f"joué {decision['played']}, le choix du coach aussi" in line
        else:
            assert f"joué {decision['played']}, le coach préférait {decision['best']} (+" in line
    assert "Points perdus" in page.text_content("[data-test=review-summary]")

    # a decision's line steps the replay to it, where the coach's word is shown again
    decision = review["decisions"][-1]
    page.locator(f"[data-test=review-decisions] li[data-seq='{decision['seq']}'] a").click()
    page.wait_for_function("(seq) => window.ludotheque.step && window.ludotheque.step.seq === seq",
                           arg=decision["seq"])
    assert f"joué {decision['played']}" in page.text_content("[data-test=review-here]")

    # the page opened again finds the review done, without asking
    page.reload()
    page.wait_for_selector("svg[data-test=review-chart]")
    # in English, the opponents' model reads as English does
    page.click("[data-test=lang][data-lang=en]")
    summary = page.text_content("[data-test=review-summary]")
    assert f"opponents played by the {review['model']} bot" in summary, summary
