"""Tournaments between bots: seat rotation, duplicate deals, statistics and ratings.

A tournament plays *deals*.  Each deal is played once per *seating* (the bots rotated round the table, so every
bot sits in every seat), and with ``duplicate`` (the default) every game of a deal draws its chance outcomes from
the same ``KeyedChance`` key: the same cards come out whoever sits where, so the luck of the deal cancels out of
the comparison.  Without it every game draws its own deal (the luck stays in, as at a club's tables).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ludotheque.arena.chance import KeyedChance
from ludotheque.arena.stats import Interval, Ratings, clustered_mean, clustered_rate, ranks_from_result
from ludotheque.bots.registry import make_bot
from ludotheque.core import Bot, Game
from ludotheque.core.bot import Sampler
from ludotheque.games import load_game
from ludotheque.table import Table


def seatings(players: int, bots: int, teams: Sequence[int] | None = None) -> list[list[int]]:
    """Seat -> bot index for each rotation.  Fewer bots than seats: the bots repeat round the table.

    ``teams`` (the game's ``teams()``, a team per seat): partners always get the same bot, and the bots rotate
    over the teams, so that a bot never plays with another bot as its partner.  A solo game (one seat) seats each
    bot alone in turn: every bot plays the same deals, and bots are compared deal by deal."""
    if players == 1 and bots >= 1:
        return [[bot] for bot in range(bots)]
    team_of = list(teams) if teams is not None else list(range(players))
    order = sorted(set(team_of), key=team_of.index)  # teams in the order of their first seat
    if not 1 <= bots <= len(order):
        where = f"{len(order)} teams" if len(order) < players else f"a {players}-player table"
        raise ValueError(f"between 1 and {len(order)} bots can play at {where}, not {bots}")
    index = [order.index(team) for team in team_of]
    out: list[list[int]] = []
    for shift in range(len(order)):
        seating = [(index[seat] + shift) % len(order) % bots for seat in range(players)]
        if seating not in out:
            out.append(seating)
    return out


def labels(specs: Sequence[str]) -> list[str]:
    """Display names: the specs, numbered when one appears twice."""
    seen: dict[str, int] = {}
    out = []
    for spec in specs:
        seen[spec] = seen.get(spec, 0) + 1
        out.append(spec if specs.count(spec) == 1 else f"{spec}#{seen[spec]}")
    return out


class TimedBot:
    """Wraps a bot to time its moves (the sampler passes through to search bots)."""

    def __init__(self, inner: Bot) -> None:
        self.inner = inner
        self.name = inner.name
        self.omniscient = getattr(inner, "omniscient", False)  # the oracle keeps its true-state sampler
        self.reads_view = getattr(inner, "reads_view", True)
        self.moves = 0
        self.seconds = 0.0
        self.slowest = 0.0

    def _clock(self, started: float) -> None:
        # CPU seconds of the thinking thread: what a level's budget counts (bots/levels.py), whatever else the
        # machine runs beside the arena
        spent = time.thread_time() - started
        self.moves += 1
        self.seconds += spent
        self.slowest = max(self.slowest, spent)

    def choose(
        self, view: dict[str, Any], legal_actions: list[int], rng: random.Random, sampler: Sampler | None = None
    ) -> int:
        started = time.thread_time()
        action = self.inner.choose(view, legal_actions, rng, sampler)
        self._clock(started)
        return action


@dataclass
class GameResult:
    deal: int
    seating: int
    seats: list[str]  # label per seat
    returns: list[float]
    winners: list[int]
    chance: list[int]  # the chance actions, in order
    moves: list[int]  # moves per seat
    seconds: list[float]  # thinking time per seat (CPU seconds)
    slowest: list[float]  # slowest move per seat
    #: the game itself as a record (``ludotheque.replay`` plays it back move by move), the seats' bots in its
    #: ``meta``; None in older journals
    record: dict[str, Any] | None = None
    #: the CPU seconds the whole game took in its worker (the bots' thinking and the engine's moves): a cell of the
    #: strength table records the sum
    cpu_seconds: float = 0.0


@dataclass(frozen=True)
class ArenaSpec:
    game_id: str
    players: int
    options: dict[str, Any]
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    #: every seating of a deal plays the same cards (False: every game its own)
    duplicate: bool = True

    def game(self) -> Game:
        return load_game(self.game_id, players=self.players, **self.options)

    def labels(self) -> list[str]:
        return labels(list(self.bots))

    def seatings(self) -> list[list[int]]:
        return seatings(self.players, len(self.bots), self.game().teams())

    def deals(self) -> int:
        return max(1, math.ceil(self.games / len(self.seatings())))

    def tasks(self) -> list[tuple[int, int]]:
        rotations = len(self.seatings())  # each call builds the game (its teams): once here, not once per deal
        return [(deal, s) for deal in range(self.deals()) for s in range(rotations)]


    def chance_key(self, deal: int, seating_index: int) -> str:
        """The key of the chance outcomes of one game: the deal's, shared by its seatings when ``duplicate``."""
        if self.duplicate:
            return deal_key(self.seed, deal)
        return f"{deal_key(self.seed, deal)}:seating {seating_index}"


def deal_key(seed: int, deal: int) -> str:
    return f"{seed}:{deal}"


def play_one(spec: ArenaSpec, deal: int, seating_index: int, game: Game | None = None) -> GameResult:
    """Play the game of ``deal`` with the bots seated as ``seatings()[seating_index]``."""
    cpu_started = time.thread_time()
    game = game or spec.game()
    seating = spec.seatings()[seating_index]
    names = spec.labels()
    bots = [TimedBot(make_bot(spec.bots[index], game)) for index in seating]
    chance = KeyedChance(spec.chance_key(deal, seating_index))
    bot_rng = random.Random(f"{spec.seed}:{deal}:{seating_index}:bots")
    table = Table(game, bots, chance=chance, bot_rng=bot_rng, omniscient=True)  # a measurement: the oracle may play
    state = table.play_out()
    seats = [names[index] for index in seating]
    record = table.record({"seats": seats, "seed": spec.seed, "deal": deal, "seating": seating_index})
    return GameResult(
        deal=deal,
        seating=seating_index,
        seats=seats,
        returns=list(state.returns()),
        winners=list(state.winners()),
        chance=list(chance.drawn),
        moves=[b.moves for b in bots],
        seconds=[b.seconds for b in bots],
        slowest=[b.slowest for b in bots],
        record=record,
        cpu_seconds=time.thread_time() - cpu_started,
    )


def _play_task(args: tuple[ArenaSpec, int, int]) -> GameResult:
    return play_one(*args)


@dataclass
class BotSummary:
    name: str
    games: int
    mean_points: Interval
    win_rate: Interval
    score: Interval  # win share, with games nobody won split between all seats
    fair_score: float  # what an equal bot would score (its seats / players)
    rating: dict[str, float]
    seconds_per_move: float
    slowest_move: float

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "mean_points": self.mean_points.to_json(),
            "win_rate": self.win_rate.to_json(),
            "score": self.score.to_json(),
            "fair_score": self.fair_score,
            "rating": self.rating,
            "seconds_per_move": self.seconds_per_move,
            "slowest_move": self.slowest_move,
        }


@dataclass
class ArenaResult:
    spec: ArenaSpec
    results: list[GameResult]
    seconds: float = 0.0
    summaries: dict[str, BotSummary] = field(default_factory=dict)
    head_to_head: dict[str, dict[str, Interval]] = field(default_factory=dict)
    #: points the row bot made beyond the column bot in the same game (solo: on the same deal), counted the way
    #: that is better (fewer points when the lowest score wins), mean per game, clustered by deal
    margins: dict[str, dict[str, Interval]] = field(default_factory=dict)

    @property
    def cpu_seconds(self) -> float:
        """The CPU seconds of all the games, wherever they ran (``--jobs``, Ray): what the cell cost."""
        return sum(r.cpu_seconds for r in self.results)

    def to_json(self) -> dict[str, Any]:
        spec = self.spec
        return {
            "game": spec.game_id,
            "players": spec.players,
            "options": spec.options,
            "bots": list(spec.bots),
            "seed": spec.seed,
            "duplicate": spec.duplicate,
            "deals": spec.deals(),
            "seatings": spec.seatings(),
            "games": len(self.results),
            "seconds": self.seconds,
            "cpu_seconds": self.cpu_seconds,
            "summary": {name: s.to_json() for name, s in self.summaries.items()},
            "head_to_head": {a: {b: iv.to_json() for b, iv in row.items()} for a, row in self.head_to_head.items()},
            "points_margin": {a: {b: iv.to_json() for b, iv in row.items()} for a, row in self.margins.items()},
        }


def _comparisons(
    results: Sequence[GameResult], players: int, direction: float
) -> list[tuple[list[str], list[int], int]]:
    """(bots, their ranks, deal) of every comparison: each game, or for a solo game each deal (its bots ranked
    by their results on the same cards)."""
    if players > 1:
        return [(r.seats, ranks_from_result(r.returns, r.winners, direction), r.deal) for r in results]
    by_deal: dict[int, list[GameResult]] = {}
    for r in results:
        by_deal.setdefault(r.deal, []).append(r)
    out = []
    for deal, games in sorted(by_deal.items()):
        returns = [r.returns[0] for r in games]
        winners = [i for i, r in enumerate(games) if r.winners]
        out.append(([r.seats[0] for r in games], ranks_from_result(returns, winners, direction), deal))
    return out


def _margins(
    results: Sequence[GameResult], players: int, direction: float
) -> dict[tuple[str, str], dict[int, list[float]]]:
    """Per pair of bots and deal, the points margins of the row bot over the column bot (duplicate scoring: the
    same cards, so a margin measures play rather than luck).  A bot in several seats counts with the mean of its
    seats, as the head-to-head compares every pair of their seats; solo bots are compared on the same deal."""
    signed: list[tuple[int, dict[str, float]]] = []  # (deal, each bot's mean points, the better way up)
    if players > 1:
        for r in results:
            seats: dict[str, list[float]] = {}
            for seat, name in enumerate(r.seats):
                seats.setdefault(name, []).append(direction * r.returns[seat])
            signed.append((r.deal, {name: sum(v) / len(v) for name, v in seats.items()}))
    else:
        by_deal: dict[int, dict[str, float]] = {}
        for r in results:
            by_deal.setdefault(r.deal, {})[r.seats[0]] = direction * r.returns[0]
        signed = sorted(by_deal.items())
    pair: dict[tuple[str, str], dict[int, list[float]]] = {}
    for deal, mine in signed:
        for a, points_a in mine.items():
            for b, points_b in mine.items():
                if a != b:
                    pair.setdefault((a, b), {}).setdefault(deal, []).append(points_a - points_b)
    return pair


def summarize(spec: ArenaSpec, results: list[GameResult], seconds: float = 0.0) -> ArenaResult:
    """Statistics of a finished tournament (pure: unit-tested on made-up results)."""
    results = sorted(results, key=lambda r: (r.deal, r.seating))
    names = spec.labels()
    n = spec.players
    direction = spec.game().score_sign()  # the game declares whether fewer points is better
    ratings = Ratings()
    for name in names:
        ratings.rating(name)
    points: dict[str, dict[int, list[float]]] = {name: {} for name in names}
    wins: dict[str, dict[int, list[float]]] = {name: {} for name in names}
    score: dict[str, dict[int, list[float]]] = {name: {} for name in names}
    pair: dict[tuple[str, str], dict[int, list[float]]] = {}
    seats_of = {name: 0 for name in names}
    for index in spec.seatings()[0]:
        seats_of[names[index]] += 1
    moves = {name: 0 for name in names}
    thinking = {name: 0.0 for name in names}
    slowest = {name: 0.0 for name in names}
    for seats, ranks, deal in _comparisons(results, n, direction):
        ratings.update(seats, ranks)
        for a_seat, a in enumerate(seats):
            for b_seat, b in enumerate(seats):
                if a == b:
                    continue
                outcome = 1.0 if ranks[a_seat] < ranks[b_seat] else 0.5 if ranks[a_seat] == ranks[b_seat] else 0.0
                pair.setdefault((a, b), {}).setdefault(deal, []).append(outcome)
    for r in results:
        share = 1.0 / len(r.winners) if r.winners else 0.0
        per_game_points: dict[str, list[float]] = {}
        per_game_win: dict[str, float] = {}
        per_game_score: dict[str, float] = {}
        for seat, name in enumerate(r.seats):
            per_game_points.setdefault(name, []).append(r.returns[seat])
            won = share if seat in r.winners else 0.0
            per_game_win[name] = per_game_win.get(name, 0.0) + won
            # a game nobody won is split between its seats; a solo game nobody won is simply lost
            unwon = 1.0 / n if n > 1 else 0.0
            per_game_score[name] = per_game_score.get(name, 0.0) + (won if r.winners else unwon)
            moves[name] += r.moves[seat]
            thinking[name] += r.seconds[seat]
            slowest[name] = max(slowest[name], r.slowest[seat])
        for name, values in per_game_points.items():
            points[name].setdefault(r.deal, []).extend(values)
            wins[name].setdefault(r.deal, []).append(per_game_win[name])
            score[name].setdefault(r.deal, []).append(per_game_score[name])
    rating_json = ratings.to_json()
    summaries: dict[str, BotSummary] = {}
    scores = {name: clustered_rate(list(score[name].values())) for name in names}
    # solo: no share is "fair"; an equal bot scores what the field scores on average
    field_mean = sum(iv.estimate for iv in scores.values()) / len(scores)
    for name in names:
        games = sum(len(v) for v in wins[name].values())
        summaries[name] = BotSummary(
            name=name,
            games=games,
            mean_points=clustered_mean(list(points[name].values())),
            win_rate=clustered_rate(list(wins[name].values())),
            score=scores[name],
            fair_score=seats_of[name] / n if n > 1 else field_mean,
            rating=rating_json[name],
            seconds_per_move=thinking[name] / moves[name] if moves[name] else 0.0,
            slowest_move=slowest[name],
        )
    head: dict[str, dict[str, Interval]] = {}
    for (a, b), clusters in pair.items():
        head.setdefault(a, {})[b] = clustered_rate(list(clusters.values()))
    margins: dict[str, dict[str, Interval]] = {}
    for (a, b), clusters in _margins(results, n, direction).items():
        margins.setdefault(a, {})[b] = clustered_mean(list(clusters.values()))
    return ArenaResult(spec, results, seconds, summaries, head, margins)


def run_arena(
    spec: ArenaSpec,
    jobs: int = 1,
    on_game: Callable[[GameResult], None] | None = None,
    played: Sequence[GameResult] = (),
    ray: str | None = None,
) -> ArenaResult:
    """Play every deal in every seating (with ``jobs`` processes, or as Ray tasks) and summarize.

    ``played``: games of this tournament already played (a resumed run); only the missing ones are played, and
    games beyond ``spec``'s deals are left out of the summary.  ``ray``: ``"local"`` for a Ray started here, or a
    cluster's address (``arena/cluster.py``); the same seeds give the same games as with ``jobs``."""
    started = time.perf_counter()
    game = spec.game()
    for name in spec.bots:  # fail early on a bad spec, before any process starts
        make_bot(name, game)
    wanted = set(spec.tasks())
    results: list[GameResult] = [r for r in played if (r.deal, r.seating) in wanted]
    have = {(r.deal, r.seating) for r in results}
    tasks = [task for task in spec.tasks() if task not in have]
    if ray is not None:
        from ludotheque.arena.cluster import play_on_ray

        results.extend(play_on_ray(play_one, spec, tasks, ray, on_game))
    elif jobs <= 1:
        for deal, seating in tasks:
            result = play_one(spec, deal, seating, game)
            results.append(result)
            if on_game is not None:
                on_game(result)
    else:
        from concurrent.futures import ProcessPoolExecutor, as_completed

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [pool.submit(_play_task, (spec, deal, seating)) for deal, seating in tasks]
            for future in as_completed(futures):
                result = future.result()
                results.append(result)
                if on_game is not None:
                    on_game(result)
    return summarize(spec, results, time.perf_counter() - started)
