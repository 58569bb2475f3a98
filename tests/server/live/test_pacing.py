"""Bots at a human pace, driven in-process on a fake store (``test_live_actor``'s): a bot decides its whole turn,
the runner pauses once before a new seat's turn and briefly between the steps of one turn, the next bot decides
while a turn is shown, and a turn decided on a table that went another way is never shown.  The pauses are
counted, never timed: the runner's ``pause`` is replaced by one that notes its reason and returns at once."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from ludotheque.core import CHANCE
from ludotheque.server.botpool import BotPool, BotRequest
from ludotheque.server.config import Settings
from ludotheque.server.live import LiveTable
from ludotheque.server.live import moves as live_moves
from ludotheque.server.services import Services
from ludotheque.server.store import SeatRow, TableRow

from .test_live_actor import FakeStore

PACED = Settings(pacing_s=0.7, step_pacing_s=0.15)
#: Actions after which a scenario stops looking (a Rummü hand of heuristic bots lays many melds by then).
ENOUGH = 160

Scenario = Callable[[LiveTable, FakeStore, list[tuple[Any, ...]]], Awaitable[None]]


def rummu_row(away: tuple[int, ...] = ()) -> TableRow:
    """Three seats played by heuristic bots (a seat in ``away`` is a person's, played by a bot for good)."""
    seats = [SeatRow(i, "human", "me", None, None, away=True) if i in away
             else SeatRow(i, "bot", "heuristic", None, "heuristic") for i in range(3)]
    return TableRow("t1", "rummu", 3, {}, "a table", False, None, "waiting", "heuristic", 0, 0.0, seats)


def run_paced(row: TableRow, scenario: Scenario, monkeypatch: pytest.MonkeyPatch,
              on_pause: Callable[[LiveTable, str], Awaitable[None]] | None = None) -> None:
    """Start ``row`` with pacing on, every pause and bot request noted in ``seen`` with the commits, and run
    ``scenario`` once the store holds ``ENOUGH`` actions or the runner stopped."""

    async def main() -> None:
        seen: list[tuple[Any, ...]] = []
        store = FakeStore(row, seen)
        bots = BotPool(0)
        live = LiveTable(row, Services(PACED, store, bots))  # type: ignore[arg-type]

        async def pause(kind: str, seconds: float) -> None:
            seen.append(("pause", kind, seconds))
            if on_pause is not None:
                await on_pause(live, kind)
            await asyncio.sleep(0)

        choose = bots.choose

        async def noted_choose(request: BotRequest, creator: str = "") -> int:
            # the seats whose moves the request's history holds beyond what is committed: decided, not yet shown
            seen.append(("choose", request.seat, {actor for actor, _, _ in request.history[len(store.actions):]}))
            return await choose(request, creator)

        monkeypatch.setattr(live_moves, "pause", pause)
        monkeypatch.setattr(bots, "choose", noted_choose)
        try:
            await live.start()
            while len(store.actions) < ENOUGH and live.runner is not None and not live.runner.done():
                await asyncio.sleep(0.01)
            for task in (live.runner, live.watcher):
                if task is not None:
                    task.cancel()
            await scenario(live, store, seen)
        finally:
            bots.close()
            store.writes.shutdown()

    asyncio.run(main())


def bot_commits(store: FakeStore, seen: list[tuple[Any, ...]]) -> list[tuple[str, int]]:
    """For each commit of a seat's move, in order: the pause just before it and the seat."""
    out = []
    for index, entry in enumerate(seen):
        if entry[0] == "commit":
            actor = store.actions[entry[1] - 1].actor
            if actor != -1:  # chance is never paused
                before = [e for e in seen[:index] if e[0] in ("pause", "commit")]
                assert before and before[-1][0] == "pause", f"seat {actor}'s move at {entry[1]} came unpaused"
                out.append((before[-1][1], actor))
    return out


def test_a_bots_turn_is_paced_once_at_its_start_and_its_steps_follow_with_the_short_pause(
        monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario(live: LiveTable, store: FakeStore, seen: list[tuple[Any, ...]]) -> None:
        commits = bot_commits(store, seen)
        assert len(commits) > 30
        movers = [seat for _, seat in commits]
        new_turns = [index == 0 or seat != movers[index - 1] for index, seat in enumerate(movers)]
        assert [kind for kind, _ in commits] == ["turn" if new else "step" for new in new_turns]
        turns = new_turns.count(True)
        assert sum(1 for kind, _ in commits if kind == "step") >= turns  # each turn has a draw and a discard
        assert max(len(list(steps)) for steps in _runs(movers)) >= 4  # a meld laid card by card
        # a pause asks at most for its setting, less once the bot's thinking is counted
        for entry in seen:
            if entry[0] == "pause":
                assert entry[2] <= (PACED.pacing_s if entry[1] == "turn" else PACED.step_pacing_s)

    run_paced(rummu_row(), scenario, monkeypatch)


def _runs(movers: list[int]) -> list[list[int]]:
    runs: list[list[int]] = []
    for seat in movers:
        if runs and runs[-1][0] == seat:
            runs[-1].append(seat)
        else:
            runs.append([seat])
    return runs


def test_the_next_bot_decides_its_turn_while_the_previous_one_is_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    async def scenario(live: LiveTable, store: FakeStore, seen: list[tuple[Any, ...]]) -> None:
        requests = [entry for entry in seen if entry[0] == "choose"]
        # a seat's turn decided whole: its next step asked for before its first was shown
        assert any(entry[2] == {entry[1]} for entry in requests)
        # and the next seat's turn decided on the previous seat's turn before that turn was committed
        ahead = [entry for entry in requests if entry[2] - {entry[1]}]
        assert {entry[1] for entry in ahead} == {0, 1, 2}
        committed = [(a.actor, a.action) for a in store.actions]
        shown = [(-1 if e.actor == CHANCE else e.actor, e.action) for e in live.table.log]
        # what the table shows is what was committed, in order; the runner was stopped at a moment of its own, so
        # one commit may have been cut between its write and its showing
        assert shown == committed[:len(shown)] and len(committed) - len(shown) <= 1

    run_paced(rummu_row(), scenario, monkeypatch)


def test_a_turn_decided_for_a_seat_its_person_takes_back_is_never_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    taken_back: list[int] = []

    async def on_pause(live: LiveTable, kind: str) -> None:
        # in the middle of seat 0's turn (its bot decided it whole), its person takes the seat back
        if kind == "step" and not taken_back and live.table.state.current_players() == [0]:
            taken_back.append(live.table.seq)
            await live.give_back(0)

    async def scenario(live: LiveTable, store: FakeStore, seen: list[tuple[Any, ...]]) -> None:
        assert taken_back
        after = store.actions[taken_back[0]:]
        assert all(action.actor != 0 for action in after)  # nothing decided for seat 0 was shown afterwards
        assert live.runner is not None and live.runner.done()  # the runner waits for the person
        assert live.table.state.current_players() == [0] and not live.bot_plays(0)
        assert live.table.log[-1].actor in (0, CHANCE)  # seat 0's turn was under way

    run_paced(rummu_row(away=(0,)), scenario, monkeypatch, on_pause)


def test_no_pacing_turns_off_both_pauses(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import uvicorn

    from ludotheque.cli.serve import serve
    from ludotheque.server import app

    made: list[Settings] = []
    monkeypatch.setattr(app, "create_app", lambda settings: made.append(settings))
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: None)
    db = f"sqlite:///{tmp_path / 'ludotheque.db'}"
    serve(db=db, no_pacing=True)
    serve(db=db, no_pacing=False)
    assert [(s.pacing_s, s.step_pacing_s) for s in made] == [(0.0, 0.0), (PACED.pacing_s, PACED.step_pacing_s)]
