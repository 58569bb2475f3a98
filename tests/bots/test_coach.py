"""The coach (``docs/coach.md``): honest (only the seat's view and sampler), legal, and telling good play from bad."""

from __future__ import annotations

import os
import random
from typing import Any

import pytest

from ludotheque.bots import make_bot
from ludotheque.bots.coach import Thresholds, hint, review_record
from ludotheque.core import CHANCE, State, sample_chance
from ludotheque.core.bot import ask_bot, make_sampler
from ludotheque.games import load_game


def play(game_id: str, players: int, bots: list[str], seed: int, steps: int | None = None, **options: Any) -> State:
    """A game between ``bots`` (one per seat), stopped after ``steps`` seat moves if given."""
    game = load_game(game_id, players=players, **options)
    seats = [make_bot(spec, game) for spec in bots]
    rng = random.Random(seed)
    state = game.new_initial_state()
    moved = 0
    while not state.is_terminal() and (steps is None or moved < steps):
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_players()[0]
        state.apply_action(ask_bot(seats[seat], state, seat, rng), seat)
        moved += 1
    return state


def without_timing(review: dict[str, Any]) -> dict[str, Any]:
    summary = {k: v for k, v in review["summary"].items() if k != "seconds"}
    return {**review, "summary": summary}


@pytest.mark.parametrize(
    ("game_id", "players", "steps", "options"),
    [("safaru", 2, 10, {}), ("mu", 3, 8, {"target": 1})],
)
def test_same_view_different_hidden_cards_same_review(
    game_id: str, players: int, steps: int, options: dict[str, Any]
) -> None:
    # the resampled game deals the other seats other cards, none of which seat 0 has seen; Mü's determinizations
    # draw from the hidden cards in a canonical order, so they are the same in both games
    state = play(game_id, players, ["random"] * players, seed=5, steps=steps, **options)
    other = state.resample(0, random.Random(1))
    assert other.to_record() != state.to_record()
    assert other.view(0) == state.view(0)
    first = review_record(state.to_record(), 0, playouts=12, seed=3)
    second = review_record(other.to_record(), 0, playouts=12, seed=3)
    assert any(entry["expected_played"] is not None for entry in first["decisions"])
    assert without_timing(first) == without_timing(second)


@pytest.mark.parametrize(("game_id", "players", "steps"), [("safaru", 2, 4), ("geier", 3, 1)])
def test_a_hint_never_depends_on_another_seats_hidden_cards(game_id: str, players: int, steps: int) -> None:
    # Geier: seat 0 has bid face down when seat 1 asks; Safarü: the other hand is hidden
    state = play(game_id, players, ["random"] * players, seed=2, steps=steps)
    seat = state.current_players()[0]
    twins = [state.resample(seat, random.Random(k)) for k in range(8)]
    hidden_differs = [t for t in twins if any(t.view(s) != state.view(s) for s in range(players) if s != seat)]
    assert hidden_differs, "the hidden cards can differ"
    wanted = hint(state.view(seat), state.legal_actions(seat), make_sampler(state, seat), playouts=24, seed=9)
    for twin in hidden_differs[:2]:
        got = hint(twin.view(seat), twin.legal_actions(seat), make_sampler(twin, seat), playouts=24, seed=9)
        assert got == wanted
    assert state.string_to_action(wanted["move"], seat) in state.legal_actions(seat)
    assert state.string_to_action(wanted["next_best"], seat) in state.legal_actions(seat)


@pytest.mark.parametrize(("game_id", "players", "options"), [("geier", 2, {}), ("mu", 3, {"target": 1})])
def test_the_preferred_move_is_legal_at_every_decision(game_id: str, players: int, options: dict[str, Any]) -> None:
    state = play(game_id, players, ["random"] * players, seed=8, **options)
    record = state.to_record()
    review = review_record(record, 1, playouts=12 if game_id == "mu" else 30, seed=1)
    entries = {entry["seq"]: entry for entry in review["decisions"]}
    replayed = state.game.new_initial_state()
    for seq, entry in enumerate(record["actions"], 1):
        actor = entry["by"]
        if actor == 1:
            decision = entries.pop(seq)
            assert decision["played"] == entry["move"]
            assert replayed.string_to_action(decision["best"], 1) in replayed.legal_actions(1)
            assert decision["judgement"] in ("good", "inaccuracy", "mistake", "blunder")
            assert decision["loss"] >= 0
            assert (decision["loss"] == 0) == (decision["best"] == decision["played"])
        replayed.apply_action(replayed.string_to_action(entry["move"], actor), None if actor == CHANCE else actor)
    assert not entries, "one entry per action of the seat, numbered as the server counts"


def test_judgements_need_a_loss_beyond_the_noise() -> None:
    scale = Thresholds(1.0, 2.5, 5.0)
    assert scale.judge(6.0, 0.5) == "blunder"
    assert scale.judge(6.0, 3.5) == "good"  # 6 is within two standard errors of nothing lost
    assert scale.judge(3.0, 0.1) == "mistake"
    assert scale.judge(1.5, 0.1) == "inaccuracy"
    assert scale.judge(0.9, 0.01) == "good"
    assert scale.judge(9.0, None) == "good"


def total_loss(player: str, deals: range, playouts: int) -> float:
    total = 0.0
    for deal in deals:
        record = play("geier", 2, [player, "heuristic"], seed=deal).to_record()
        total += review_record(record, 0, playouts=playouts, seed=deal)["summary"]["total_loss"]
    return total


def test_good_play_loses_less_than_random_play() -> None:
    # the cheap share: the heuristic against random play, on the same deals (seeds)
    assert total_loss("heuristic", range(2), 60) < total_loss("random", range(2), 60)


@pytest.mark.fuzz
@pytest.mark.skipif(os.environ.get("LUDOTHEQUE_FUZZ") != "long", reason="hard thinks seconds a move: make fuzz")
def test_hard_loses_less_than_random_play() -> None:
    hard, rand = total_loss("hard", range(6), 400), total_loss("random", range(6), 400)
    print(f"coach's total loss over 6 Geier deals: hard {hard:.1f}, random {rand:.1f}")
    assert hard < rand


def play_by_hints(game_id: str, players: int, bots: list[str | None], seed: int, decisions: int,
                  playouts: int, **options: Any) -> tuple[dict[str, Any], list[str | None]]:
    """Seat 0 plays the coach's hint at each of its first ``decisions`` choices (its first move only, forced moves
    aside), a person plays at random at seat 1, bots (``bots``, ``None`` for a person) elsewhere: the record of the
    game stopped after seat 0's last hinted move, and the seats' bot specs."""
    game = load_game(game_id, players=players, **options)
    rng = random.Random(seed)
    seats = [None if spec is None else make_bot(spec, game) for spec in bots]
    state = game.new_initial_state()
    hinted = 0
    while not state.is_terminal() and hinted < decisions:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_players()[0]
        legal = state.legal_actions(seat)
        if seat == 0:
            answer = hint(state.view(0), legal, make_sampler(state, 0), bots=bots, playouts=playouts,
                          seed="table", seq=len(state.history()) + 1)
            action = state.string_to_action(answer["move"], 0)
            hinted += len(legal) > 1
        else:
            bot = seats[seat]
            action = rng.choice(legal) if bot is None else ask_bot(bot, state, seat, rng)
        state.apply_action(action, seat)
    return state.to_record(), bots


@pytest.mark.parametrize(
    ("game_id", "players", "bots", "decisions", "options"),
    [("geier", 3, [None, None, "heuristic"], 4, {}),
     ("mu", 3, [None, None, "easy"], 3, {"target": 100}),
     ("safaru", 2, [None, None], 3, {})],
)
def test_a_game_played_by_the_hints_is_reviewed_good(
    game_id: str, players: int, bots: list[str | None], decisions: int, options: dict[str, Any]
) -> None:
    # a second person (seat 1, at random) and a bot: the hint and the review model the seats alike and draw the
    # same random numbers for the same decision, so the review agrees with every hint followed
    record, named = play_by_hints(game_id, players, bots, seed=4, decisions=decisions, playouts=24, **options)
    review = review_record(record, 0, bots=named, playouts=24, seed="table")
    valued = [d for d in review["decisions"] if d["expected_played"] is not None]
    assert len(valued) == decisions
    assert [d["judgement"] for d in valued] == ["good"] * decisions
    assert all(d["best"] == d["played"] for d in valued)
    assert [m["by"] for m in review["models"]] == ["person" if spec is None else "bot" for spec in bots]
    # other random numbers: an independent estimate of the same values.  A hint of 24 playouts is itself a noisy
    # estimate, so another may find its move a little worse (a Mü hand's 24-playout values have standard errors
    # of several points); never by a blunder's loss
    other = review_record(record, 0, bots=named, playouts=24, seed="other")
    assert all(d["judgement"] != "blunder" for d in other["decisions"])


def test_a_match_of_hands_is_valued_in_the_points_of_the_hand() -> None:
    # a Mü match to 1000: the coach's values are the points of the hand being played (tens), not the match's
    # totals (a thousand or so by its end), and the review says which unit its losses are in
    state = play("mu", 3, ["random"] * 3, seed=3, steps=30, target=1000)
    review = review_record(state.to_record(), 0, playouts=12, seed=1)
    assert review["unit"] == "hand"
    values = [abs(d[key]) for d in review["decisions"] for key in ("expected_played", "expected_best")
              if d[key] is not None]
    assert values and max(values) < 150
    geier = review_record(play("geier", 2, ["random"] * 2, seed=3, steps=4).to_record(), 0, playouts=12)
    assert geier["unit"] == "game"


def test_accuracy_is_the_mean_of_each_decision_s_score_on_the_points_lost_beyond_the_noise() -> None:
    from ludotheque.bots.coach import accuracy, move_accuracy

    scale = Thresholds(1.0, 2.5, 5.0)
    assert move_accuracy(0.0, 0.1, scale) == 100.0
    assert move_accuracy(0.3, 0.2, scale) == 100.0  # within two standard errors: nothing counted
    assert move_accuracy(2.5 + 0.4, 0.2, scale) == pytest.approx(50.0)  # a mistake threshold beyond the noise
    assert move_accuracy(5.0 + 0.4, 0.2, scale) == pytest.approx(25.0)
    decisions = [{"loss": 0.0, "stderr": 0.1}, {"loss": 2.9, "stderr": 0.2}]
    assert accuracy(decisions, scale) == 75.0
    assert accuracy([], scale) is None
    # random play loses more accuracy than the heuristic on the same Geier deal
    rand = review_record(play("geier", 2, ["random", "heuristic"], seed=1).to_record(), 0, playouts=60, seed=1)
    good = review_record(play("geier", 2, ["heuristic", "heuristic"], seed=1).to_record(), 0, playouts=60, seed=1)
    assert rand["summary"]["accuracy"] < good["summary"]["accuracy"]


def test_moments_are_counted_as_the_games_count_them() -> None:
    from ludotheque.bots.moments import moment
    from ludotheque.cli.review import moment_text

    # Mü: the hand, then its phase (the auction) or, once cards are played, the trick
    playing = next(s for k in range(10, 200, 5)
                   if (s := play("mu", 3, ["random"] * 3, seed=2, target=1000, steps=k)).view(0)["table"]["phase"]
                   == "play" and s.view(0)["table"]["tricks"])
    table = playing.view(0)["table"]
    assert moment("mu", playing.view(0)) == [{"key": "mu.hand_number", "n": table["hand_number"]},
                                             {"key": "review.moment.trick", "n": len(table["tricks"]) + 1}]
    said = moment_text("mu", moment("mu", play("mu", 3, ["random"] * 3, seed=2, steps=1).view(0)), "fr")
    assert said == "Manche 1 · Enchères"
    # Geier: the round out of all, and the prize card turned up
    geier = play("geier", 2, ["random"] * 2, seed=2, steps=5)  # two rounds played, one card down in the third
    parts = moment("geier", geier.view(0))
    assert parts[0] == {"key": "geier.round", "n": 3, "total": 15}
    assert moment_text("geier", parts) == f"Round 3 of 15 · prize card {parts[1]['card']}"
    # a turn counted from 1 at Cheese Rescue, whose view's ``turn`` is the seat to place
    cheese = play("cheese", 2, ["random"] * 2, seed=2, steps=0)
    assert moment_text("cheese", moment("cheese", cheese.view(0))) == "Turn 1"


def test_decisions_past_the_time_cap_are_left_unvalued() -> None:
    # a decision costs at least one playout of each move, so once the review's cap is spent the rest are not valued
    # (they count in no loss nor accuracy) and the summary says how many
    record = play("geier", 2, ["random", "heuristic"], seed=1).to_record()
    review = review_record(record, 0, playouts=60, seconds=1e-9, seed=1)
    assert review["summary"]["unvalued"] == 14  # every decision with a choice (the last card is forced)
    assert all(d["expected_played"] is None and d["loss"] == 0 for d in review["decisions"])
    assert review["summary"]["accuracy"] is None
    assert review_record(record, 0, playouts=12, seed=1)["summary"]["unvalued"] == 0
