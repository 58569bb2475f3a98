"""The coach: a seat's moves judged from what that seat could see (``docs/coach.md``).

For one decision the coach receives what a bot receives (the seat's view, its legal moves and a sampler of
determinizations, ``state.resample(seat, rng)``), never the state.  It values each legal move by playouts: a
determinization, the move, then every seat played to the end of the span by the model of what sits there: a bot by
its own spec, a person (the reviewed seat included) by the chosen model level (``seat_models``).
The moves are compared on the same determinizations and the same playout seeds (common random numbers), so a
difference between two moves is far less noisy than either value.  The budget is spent by sequential halving
(Karnin, Koren & Somekh 2013): every round plays the remaining moves on fresh determinizations and keeps the better
half, but the move actually played stays to the end, so that the loss is measured on paired playouts.

A value is the seat's expected points in the game's own unit for the span that decides them (``span_of``): the
points of the hand at a match of hands (Mü, Rummü: a playout stops at the hand's end), the game's final points
elsewhere; the loss is how many points the played move gives up to the coach's preferred one, counted the way the
game declares better (``game.score_sign()``).  A loss is judged only where it exceeds twice its standard error.

A hint and the review's entry for the same decision are the same computation: the same seat models, the same span
and the same random numbers (``decision_rng``: the public key of the game and the decision's seq), so with the same
budget and no time cap the review's preferred move is the move the hint gave.
"""

from __future__ import annotations

import math
import os
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ludotheque.bots.moments import moment
from ludotheque.core import CHANCE, Bot, Game, State, parse_record, sample_chance
from ludotheque.core.bot import Sampler, make_sampler
from ludotheque.games import load_game

#: The model of the people at the table by default.  The levels ``medium`` and ``hard`` search for about a second
#: (or four) a move: a single Geier playout with them would cost more than a whole review's budget.  ``heuristic``
#: is what their search rolls out and takes as its prior, and it moves in microseconds.
DEFAULT_MODEL = "easy"
#: The seat models' names in a review: what models a seat the coach was told nothing of, or a person.
PERSON = "person"
BOT = "bot"


def default_model() -> str:
    """The model of people for hints and reviews at the server: ``LUDOTHEQUE_COACH_MODEL``, default ``easy``
    (``docs/coach.md`` says why)."""
    return os.environ.get("LUDOTHEQUE_COACH_MODEL", "").strip() or DEFAULT_MODEL


def check_model(spec: str) -> None:
    """``ValueError`` naming the problem unless ``spec`` is a bot every game can make (the coach models people
    with it at any table)."""
    from ludotheque.bots.registry import make_bot
    from ludotheque.games import game_class, game_ids

    for game_id in game_ids():
        try:
            make_bot(spec, load_game(game_id, players=game_class(game_id).min_players))
        except (ValueError, LookupError) as error:
            raise ValueError(f"the coach's model {spec!r} is no bot at {game_id}: {error}") from None

#: Playouts a decision may spend by default (one playout: one move on one determinization).
DEFAULT_PLAYOUTS = 1500
#: A loss is judged only beyond this many standard errors.
NOISE_Z = 2.0

JUDGEMENTS = ("good", "inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Thresholds:
    """The losses, in the game's points, from which a move is an inaccuracy, a mistake, a blunder."""

    inaccuracy: float
    mistake: float
    blunder: float

    def judge(self, loss: float, stderr: float | None) -> str:
        if stderr is None or loss <= NOISE_Z * stderr or loss < self.inaccuracy:
            return "good"
        if loss >= self.blunder:
            return "blunder"
        return "mistake" if loss >= self.mistake else "inaccuracy"

    def to_json(self) -> dict[str, float]:
        return {"inaccuracy": self.inaccuracy, "mistake": self.mistake, "blunder": self.blunder}


def thresholds_for(game: Game) -> Thresholds:
    """The game's declared thresholds (``GameType.coach_thresholds``): about a sixth, half and the whole of the
    spread (standard deviation) of a seat's points in the coach's unit (a hand's points at Mü and Rummü, the final
    points elsewhere) between heuristic players (``docs/coach.md`` has the measure); Geier's are taken from its
    prize cards (-5 to 10)."""
    return Thresholds(*game.game_type.coach_thresholds)


@dataclass
class Assessment:
    """The coach's verdict on one decision: the mean value of each move it kept to the end, and the paired
    comparison of its preferred move with the ``kept`` one (the move played) or, if that is the preferred one, with
    the next best."""

    best: int
    next_best: int | None
    expected: dict[int, float]  # the final round's moves: mean points (the game's scale)
    stderr: dict[int, float]  # the standard error of each of those means
    gap: float  # how much better ``best`` is than the compared move, in "more is better" points (>= 0)
    gap_stderr: float | None  # the standard error of ``gap``, from the paired playouts (None with one sample)
    playouts: int = 0
    seconds: float = 0.0


def model_bot(game: Game, model: str) -> Bot:
    """The bot that plays a seat in the playouts: a bot spec (``heuristic``, ``easy``, ``medium``, ...)."""
    from ludotheque.bots.registry import make_bot

    return make_bot(model, game)


def seat_models(players: int, model: str, bots: Sequence[str | None] | None = None) -> list[dict[str, Any]]:
    """Who plays each seat in the playouts: ``{"seat", "model", "by"}``, the seat's own bot spec where a bot sits
    (``by`` ``"bot"``), the chosen ``model`` for a person or a seat the coach was told nothing of (``"person"``)."""
    if bots is not None and len(bots) != players:
        raise ValueError(f"{len(bots)} seats named for a table of {players}")
    out = []
    for seat in range(players):
        spec = None if bots is None else bots[seat]
        out.append({"seat": seat, "model": spec or model, "by": BOT if spec else PERSON})
    return out


def model_bots(game: Game, models: Sequence[Mapping[str, Any]]) -> list[Bot]:
    """The playouts' bot of each seat (one bot per distinct spec)."""
    made: dict[str, Bot] = {}
    return [made.setdefault(m["model"], model_bot(game, m["model"])) for m in models]


def decision_rng(key: int | str, seq: int) -> random.Random:
    """The random numbers of the decision whose action is the game's ``seq``-th (from 1, chance's counted): the same
    for the hint asked there and the review's entry, both public."""
    return random.Random(f"{key}:{seq}")


def _by_hands(state: State) -> bool:
    """A match of hands: its ``deals_completed`` counts hands before the match ends (Mü, Rummü; the game declares
    it)."""
    return state.game.game_type.match_of_hands


def _game_over(state: State) -> bool:
    return state.is_terminal()


def span_of(state: State) -> tuple[Callable[[State], bool], float | None]:
    """When a playout from ``state`` has decided the points the coach counts, and what to subtract from each seat's
    ``returns()`` then: at a match of hands, the hand's end and the seat's total before it (the points of the hand;
    a total changes only when a hand ends); elsewhere the game's end and nothing (``None``)."""
    if not _by_hands(state):
        return _game_over, None
    start = state.deals_completed()
    return (lambda s: s.is_terminal() or s.deals_completed() > start), 0.0


def unit_of(game: Game) -> str:
    """``"hand"``: the coach counts the points of the hand (a match of hands); ``"game"``: the game's points."""
    return "hand" if _by_hands(game.new_initial_state()) else "game"


def assess(
    view: Mapping[str, Any],
    legal: list[int],
    sampler: Sampler,
    models: Sequence[Bot],
    rng: random.Random,
    *,
    playouts: int = DEFAULT_PLAYOUTS,
    deadline: float | None = None,
    keep: int | None = None,
) -> Assessment:
    """Value ``legal`` at the decision of ``view["seat"]`` from ``sampler``'s determinizations only.

    ``models`` plays each seat of the playouts (``model_bots``).  ``keep`` (the move played, for a review)
    survives every halving round.  ``deadline`` (``time.perf_counter``) stops early after a round's first sample."""
    seat = int(view["seat"])
    start = time.perf_counter()
    values: dict[int, list[float]] = {action: [] for action in legal}
    candidates = list(legal)
    sign = 1.0
    done = 0
    while True:
        rounds_left = max(1, math.ceil(math.log2(len(candidates)))) if len(candidates) > 2 else 1
        samples = max(1, (playouts - done) // (len(candidates) * rounds_left))
        for _ in range(samples):
            if deadline is not None and done > 0 and time.perf_counter() >= deadline:
                break
            determinization = sampler(rng)
            sign = determinization.game.score_sign()
            ended, by_hand = span_of(determinization)
            before = 0.0 if by_hand is None else determinization.returns()[seat]
            seed = rng.getrandbits(64)
            for action in candidates:
                state = determinization.clone()
                state.apply_action(action, seat)
                values[action].append(playout(state, models, random.Random(seed), ended)[seat] - before)
                done += 1
        out_of_time = deadline is not None and time.perf_counter() >= deadline
        if done >= playouts or out_of_time or len(candidates) <= 2:
            break
        ranked = sorted(candidates, key=lambda a: (-sign * statistics.fmean(values[a]), a))
        survivors = ranked[: max(2, (len(candidates) + 1) // 2)]
        if keep is not None and keep in candidates and keep not in survivors:
            survivors[-1] = keep
        candidates = survivors
    final = sorted(candidates, key=lambda a: (-sign * statistics.fmean(values[a]), a != keep, a))
    best = final[0]
    compared = keep if keep is not None and keep != best and keep in values else (final[1] if len(final) > 1 else None)
    expected = {a: statistics.fmean(values[a]) for a in final}
    errors = {a: _stderr(values[a]) for a in final}
    gap, gap_error = 0.0, None
    if compared is not None:
        n = min(len(values[best]), len(values[compared]))  # survivors of every round saw the same samples
        diffs = [sign * (b - c) for b, c in zip(values[best][-n:], values[compared][-n:], strict=True)]
        gap, gap_error = statistics.fmean(diffs), _stderr(diffs)
    return Assessment(best, compared, expected, errors, gap, gap_error, done, time.perf_counter() - start)


def _stderr(values: list[float]) -> float:
    return statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf


def playout(state: State, models: Sequence[Bot], rng: random.Random,
            ended: Callable[[State], bool] = _game_over) -> list[float]:
    """Play ``state`` with ``models[seat]`` at each seat until ``ended`` (the game's end by default); the points
    then (``returns()``)."""
    while not ended(state):
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_players()[0]
        legal = state.legal_actions(seat)
        action = legal[0] if len(legal) == 1 else models[seat].choose(state.view(seat), legal, rng,
                                                                      make_sampler(state, seat))
        state.apply_action(action, seat)
    return state.returns()


# -- hints ----------------------------------------------------------------------------------------------------


def hint(
    view: Mapping[str, Any],
    legal: list[int],
    sampler: Sampler,
    *,
    model: str = DEFAULT_MODEL,
    bots: Sequence[str | None] | None = None,
    playouts: int = DEFAULT_PLAYOUTS,
    seconds: float | None = None,
    seed: int | str = 0,
    seq: int = 0,
) -> dict[str, Any]:
    """A move for the seat of ``view`` now, with its expected points against the next best's.

    ``{"move", "expected", "next_best", "next_expected", "stderr"}``: moves in notation, ``next_best`` None when the
    move is forced.  Everything comes from the view and the sampler: a live table calls it with
    ``make_sampler(state, seat)`` and ``state.view(seat)``, as it asks a bot.  ``bots`` names the bot spec of each
    seat a bot plays (``None`` for a person, modelled by ``model``); ``seed`` and ``seq`` (the number the move will
    have in the game's log) draw the same random numbers as the review of that decision does."""
    first = sampler(random.Random(f"{seed}:notation"))  # a determinization writes the seat's own moves as any does
    seat = int(view["seat"])
    if len(legal) == 1:
        return {"move": first.action_to_string(legal[0], seat), "expected": None, "next_best": None,
                "next_expected": None, "stderr": None}
    deadline = None if seconds is None else time.perf_counter() + seconds
    named = list(bots) if bots is not None else None
    if named is not None and len(named) == first.game.players:
        named[seat] = None  # the seat asking is a person's, modelled as the review models it
    models = model_bots(first.game, seat_models(first.game.players, model, named))
    verdict = assess(view, legal, sampler, models, decision_rng(seed, seq), playouts=playouts, deadline=deadline)
    other = verdict.next_best
    return {
        "move": first.action_to_string(verdict.best, seat),
        "expected": _round(verdict.expected[verdict.best]),
        "next_best": None if other is None else first.action_to_string(other, seat),
        "next_expected": None if other is None else _round(verdict.expected[other]),
        "stderr": _round(verdict.gap_stderr),
    }


def _round(value: float | None) -> float | None:
    return None if value is None or not math.isfinite(value) else round(value, 3)


# -- reviews --------------------------------------------------------------------------------------------------


@dataclass
class ReviewProgress:
    """Where a review stands: decisions valued so far out of those to value (forced moves cost nothing)."""

    done: int = 0
    total: int = 0
    entries: list[dict[str, Any]] = field(default_factory=list)


def review_record(
    record: Mapping[str, Any] | str | bytes,
    seat: int,
    *,
    model: str = DEFAULT_MODEL,
    bots: Sequence[str | None] | None = None,
    playouts: int = DEFAULT_PLAYOUTS,
    seconds: float | None = None,
    seed: int | str = 0,
    progress: Callable[[ReviewProgress], None] | None = None,
) -> dict[str, Any]:
    """The review of ``seat``'s moves in a record (finished or not): the JSON of ``docs/coach.md``.

    ``bots`` names the bot spec of each seat a bot played (``None`` for a person, modelled by ``model``; the
    reviewed seat is always modelled by ``model``).  ``seconds`` caps the whole review (shared among the decisions
    still to value); the playouts cap each decision.  The same record, seat, models and seed give the same review
    when no time cap cuts it short."""
    data = parse_record(record)
    game = load_game(data["game"], players=data["players"], **data["options"])
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < game.players:
        raise ValueError(f"seat must be 0..{game.players - 1}, not {seat!r}")
    named = list(bots) if bots is not None else None
    if named is not None and len(named) == game.players:
        named[seat] = None  # the seat reviewed is a person's: its own later moves are the model's
    models = seat_models(game.players, model, named)
    bot = model_bots(game, models)
    thresholds = thresholds_for(game)
    actions = data["actions"]
    state = game.new_initial_state()
    to_value = _choices(game, actions, seat)
    status = ReviewProgress(total=to_value)
    started = time.perf_counter()
    unvalued = 0
    for index, entry in enumerate(actions):
        by = entry["by"]
        actor = None if by == CHANCE else int(by)
        action = entry.get("action")
        if action is None:
            action = state.string_to_action(entry["move"], by)
        if actor == seat:
            legal = state.legal_actions(seat)
            deadline = None
            if seconds is not None:
                left = max(1, status.total - status.done)
                deadline = time.perf_counter() + max(0.0, seconds - (time.perf_counter() - started)) / left
            # a decision costs at least one playout of each move: once the cap is spent (slow seat models, a
            # busy machine), the rest are left unvalued rather than run past it
            spent = seconds is not None and time.perf_counter() - started >= seconds
            status.entries.append(
                _decision(state, seat, action, legal if not spent else legal[:1], index + 1, bot, thresholds,
                          playouts, deadline, seed)
            )
            if spent and len(legal) > 1:
                unvalued += 1
            if len(legal) > 1:
                status.done += 1
            if progress is not None:
                progress(status)
        state.apply_action(action, actor)
    return {
        "seat": seat,
        "model": model,
        "models": models,
        "unit": unit_of(game),
        "game": game.id,
        "players": game.players,
        "decisions": status.entries,
        "summary": {**summarize(status.entries, thresholds, playouts, time.perf_counter() - started),
                    "unvalued": unvalued},
    }


def _choices(game: Game, actions: list[dict[str, Any]], seat: int) -> int:
    """How many of ``seat``'s actions in the record had more than one legal move."""
    state = game.new_initial_state()
    count = 0
    for entry in actions:
        by = entry["by"]
        action = entry.get("action")
        if action is None:
            action = state.string_to_action(entry["move"], by)
        if by == seat and len(state.legal_actions(seat)) > 1:
            count += 1
        state.apply_action(action, None if by == CHANCE else int(by))
    return count


def _decision(
    state: State,
    seat: int,
    played: int,
    legal: list[int],
    seq: int,
    models: Sequence[Bot],
    thresholds: Thresholds,
    playouts: int,
    deadline: float | None,
    seed: int | str,
) -> dict[str, Any]:
    """One entry of a review.  Only the seat's view, legal moves and sampler reach the coach; the seed depends on
    the seed and the decision's number only, both public."""
    notation = state.action_to_string(played, seat)
    view = state.view(seat)
    # for people's words: the moves' structured form (the game's buttons name them) and the moment as the game
    # counts it; ``seq`` and the notations stay for machines
    words = {"played_move": state.action_to_json(played, seat), "moment": moment(state.game.id, view)}
    if len(legal) == 1:
        return {"seq": seq, "played": notation, "best": notation, "expected_played": None, "expected_best": None,
                "stderr": None, "loss": 0.0, "judgement": "good", **words, "best_move": words["played_move"]}
    verdict = assess(view, legal, make_sampler(state, seat), models, decision_rng(seed, seq),
                     playouts=playouts, deadline=deadline, keep=played)
    loss = verdict.gap if verdict.best != played else 0.0
    return {
        "seq": seq,
        "played": notation,
        "best": state.action_to_string(verdict.best, seat),
        "expected_played": _round(verdict.expected[played]),
        "expected_best": _round(verdict.expected[verdict.best]),
        "stderr": _round(verdict.gap_stderr),
        "loss": _round(loss) or 0.0,
        "judgement": thresholds.judge(loss, verdict.gap_stderr) if verdict.best != played else "good",
        **words,
        "best_move": state.action_to_json(verdict.best, seat),
    }


def move_accuracy(loss: float, stderr: float | None, thresholds: Thresholds) -> float:
    """One decision's accuracy, in %: ``100 * 2 ** (-excess / mistake)``, where ``excess`` is the loss beyond its
    noise, ``max(0, loss - NOISE_Z * stderr)``, and ``mistake`` the game's mistake threshold (in the review's unit).
    A move within the noise scores 100; each ``mistake`` threshold lost beyond it halves the score."""
    if stderr is None or not math.isfinite(stderr):
        return 100.0
    excess = max(0.0, loss - NOISE_Z * stderr)
    return float(100.0 * 2.0 ** (-excess / thresholds.mistake))


def accuracy(valued: list[dict[str, Any]], thresholds: Thresholds) -> float | None:
    """A seat's accuracy, in %: the mean of its valued decisions' ``move_accuracy`` (forced moves say nothing), as
    lichess averages its moves' accuracies (there from the win chance lost, here from the expected points lost)."""
    if not valued:
        return None
    scores = [move_accuracy(e["loss"], e["stderr"], thresholds) for e in valued]
    return round(statistics.fmean(scores), 1)


def summarize(
    entries: list[dict[str, Any]], thresholds: Thresholds, playouts: int, seconds: float
) -> dict[str, Any]:
    """Total loss, accuracy (``accuracy``, in %), the share of decisions judged good, the three worst moments."""
    counts = {name: 0 for name in JUDGEMENTS}
    for entry in entries:
        counts[entry["judgement"]] += 1
    worst = sorted((e for e in entries if e["loss"] > 0), key=lambda e: (-e["loss"], e["seq"]))[:3]
    valued = [e for e in entries if e["expected_played"] is not None]
    good = sum(1 for e in valued if e["judgement"] == "good")
    return {
        "total_loss": round(sum(e["loss"] for e in entries), 3),
        "accuracy": accuracy(valued, thresholds),
        "good_share": round(100.0 * good / len(valued), 1) if valued else None,
        "worst": [{key: e[key] for key in ("seq", "played", "best", "loss", "judgement", "played_move", "best_move",
                                           "moment") if key in e} for e in worst],
        "judgements": counts,
        "thresholds": thresholds.to_json(),
        "noise_z": NOISE_Z,
        "playouts": playouts,
        "seconds": round(seconds, 2),
    }
