"""`hard` at equal iterations: the search as it is against the reference search it replaced.

    python -m benchmarks.hard_speed times [TABLE ...] [--positions 3]      CPU a `hard` move, reference and current
    python -m benchmarks.hard_speed where [TABLE ...]                     where a `hard` move's CPU goes
    python -m benchmarks.hard_speed match GAME PLAYERS [--games 12] [-o key=value] [--jobs 1]

TABLE is ``GAME:PLAYERS`` (default: every game at its smallest table).  Mü plays one hand (``target=1``) and Rummü
one (``hands=1``), as in the strength table.

``times`` asks both searches for a move at the same positions (reached by heuristic play) with the same settings
(the level's iterations, no time cap) and the same seed, reference first then current, and prints the CPU time
(``time.process_time``) of each and whether they chose the same move.  ``match`` plays ``hard`` against
``reference-hard`` in the arena (``ludotheque.arena.run_arena``: rotation, duplicate deals, clustered CIs).
``where`` profiles one `hard` move per table and splits its CPU between the game's heuristic (the prior and the
rollout policy), the views it reads, the game's engine and the search itself.

``ReferenceISMCTS`` keeps the tree search's previous inner loop (``repr`` keys, the root's view rebuilt for every
determinization, a method call per rollout move), which plays the same moves from the same seed; it lives here,
not in the package, because nothing but this comparison needs it.
"""

from __future__ import annotations

import argparse
import cProfile
import math
import pstats
import random
import time
from typing import Any
from unittest import mock

from ludotheque.arena import tournament
from ludotheque.arena.report import markdown
from ludotheque.bots.ismcts import EXPLORATION, PRIOR_BIAS, ISMCTSBot, SearchInfo, _Node
from ludotheque.bots.levels import level_settings
from ludotheque.bots.registry import make_bot
from ludotheque.core import Bot, Game, State, sample_chance
from ludotheque.core.bot import Sampler, make_sampler
from ludotheque.games import game_class, game_ids, load_game

REFERENCE = "reference-hard"


class ReferenceISMCTS(ISMCTSBot):
    """The tree search with its previous inner loop (the halving root and the reward are shared)."""

    def choose(
        self, view: dict[str, Any], legal_actions: list[int], rng: random.Random, sampler: Sampler | None = None
    ) -> int:
        if sampler is None or self.selection == "halving" or len(legal_actions) == 1:
            return super().choose(view, legal_actions, rng, sampler)
        start = time.perf_counter()
        tree: dict[str, _Node] = {}
        done = 0
        while done < self.iterations:
            if self.time_limit is not None and done > 0 and time.perf_counter() >= start + self.time_limit:
                break
            self._reference_iterate(sampler(rng), view["seat"], tree, rng)
            done += 1
        root = tree.get(repr(view))
        visits = {a: 0 for a in legal_actions}
        if root is not None:
            for action, (n, _, _) in root.stats.items():
                if action in visits:
                    visits[action] = int(n)
        self.last = SearchInfo(done, time.perf_counter() - start, len(tree), visits)
        best = max(visits.values())
        if best == 0:
            return self._heuristic_move(view, legal_actions, rng)
        return min(a for a, n in visits.items() if n == best)

    def _reference_iterate(self, state: State, root_seat: int, tree: dict[str, _Node], rng: random.Random) -> None:
        path: list[tuple[list[float], int]] = []
        first = True
        expanded = False
        while not expanded and not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            acting = state.current_players()
            seat = root_seat if first and root_seat in acting else acting[0]
            first = False
            legal = state.legal_actions(seat)
            if len(legal) == 1:
                state.apply_action(legal[0], seat)
                continue
            view = state.view(seat)
            key = repr(view)
            node = tree.get(key)
            if node is None:
                node = tree[key] = _Node(hint=self.heuristic.choose(view, legal, rng))
            stats = node.stats
            for action in legal:
                entry = stats.get(action)
                if entry is None:
                    entry = stats[action] = [0.0, 0.0, 0.0]
                entry[2] += 1.0
            action = self._reference_puct(stats, legal, node.hint)
            if stats[action][0] == 0.0:
                expanded = True
            path.append((stats[action], seat))
            state.apply_action(action, seat)
        rewards = self._reference_rollout(state, rng)
        for entry, seat in path:
            entry[0] += 1.0
            entry[1] += rewards[seat]

    @staticmethod
    def _reference_puct(stats: dict[int, list[float]], legal: list[int], hint: int | None) -> int:
        bias = PRIOR_BIAS if hint is not None else 0.0
        spread = (1.0 - bias) / len(legal)
        visits = sum(stats[action][0] for action in legal)
        total = sum(stats[action][1] for action in legal)
        fpu = total / visits if visits else 0.5
        best_action, best_score = legal[0], -math.inf
        for action in legal:
            n, w, available = stats[action]
            prior = spread + (bias if action == hint else 0.0)
            score = (w / n if n else fpu) + EXPLORATION * prior * math.sqrt(available) / (1.0 + n)
            if score > best_score:
                best_score, best_action = score, action
        return best_action

    def _reference_policy_move(self, state: State, seat: int, legal: list[int], rng: random.Random) -> int:
        if rng.random() >= self.rollout_epsilon:
            action = self.heuristic.choose(state.view(seat), legal, rng)
            if action in legal:
                return action
        return rng.choice(legal)

    def _reference_rollout(self, state: State, rng: random.Random) -> list[float]:
        steps = 0
        while not state.is_terminal() and steps < self.max_rollout_steps:
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            for seat in state.current_players():
                legal = state.legal_actions(seat)
                action = legal[0] if len(legal) == 1 else self._reference_policy_move(state, seat, legal, rng)
                state.apply_action(action, seat)
                steps += 1
                if state.is_terminal() or state.is_chance_node():
                    break
        return self._evaluate(state)


def reference_bot(game: Game) -> ReferenceISMCTS:
    """``hard``'s settings at ``game``'s table, searched by the reference loop."""
    settings = level_settings(game, "hard")
    if settings.pop("kind") != "ismcts":
        raise ValueError(f"hard does not search at {game.id} with {game.players} players")
    return ReferenceISMCTS(game, name=REFERENCE, **settings)


def _make_bot(spec: str, game: Game) -> Bot:
    return reference_bot(game) if spec == REFERENCE else make_bot(spec, game)


# -- tables and positions --------------------------------------------------------------------------------------

ONE_DEAL = {"mu": {"target": 1}, "rummu": {"hands": 1}}


def tables(wanted: list[str]) -> list[Game]:
    if wanted:
        pairs = [(text.partition(":")[0], int(text.partition(":")[2])) for text in wanted]
    else:
        pairs = [(gid, max(game_class(gid).min_players, 3 if gid in ONE_DEAL else 2)) for gid in game_ids()]
    return [load_game(gid, players=n, **ONE_DEAL.get(gid, {})) for gid, n in pairs]


def position(game: Game, seed: int, decisions: int) -> tuple[State, int]:
    """The state after ``decisions`` choices of heuristic play (chance drawn from ``seed``), and the seat to move."""
    rng = random.Random(seed)
    heuristic = game.heuristic_bot()
    state = game.new_initial_state()
    made = 0
    while True:
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        seat = state.current_players()[0]
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            if made >= decisions:
                return state, seat
            made += 1
        state.apply_action(heuristic.choose(state.view(seat), legal, rng), seat)


def _move(bot: ISMCTSBot, state: State, seat: int, seed: int) -> tuple[int, float]:
    started = time.process_time()
    action = bot.choose(state.view(seat), state.legal_actions(seat), random.Random(seed), make_sampler(state, seat))
    return action, time.process_time() - started


def times(games: list[Game], positions: int) -> None:
    print("| game | players | iterations | reference CPU s/move | current CPU s/move | current / reference "
          "| same move |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for game in games:
        reference, current = reference_bot(game), make_bot("hard", game)
        assert isinstance(current, ISMCTSBot)
        spent = [0.0, 0.0]
        same = 0
        for k in range(positions):
            state, seat = position(game, seed=k, decisions=2 * k + 1)
            old, old_cpu = _move(reference, state, seat, k)
            new, new_cpu = _move(current, state, seat, k)
            spent[0] += old_cpu
            spent[1] += new_cpu
            same += old == new and reference.last.visits == current.last.visits
        print(f"| {game.id} | {game.players} | {current.iterations} | {spent[0] / positions:.3f} | "
              f"{spent[1] / positions:.3f} | {spent[1] / spent[0]:.2f} | {same}/{positions} |", flush=True)


def where(games: list[Game]) -> None:
    """One profiled `hard` move per table: the shares of the heuristic, the views, the engine and the search."""
    print("| game | players | heuristic | views | engine | search |")
    print("|---|---:|---:|---:|---:|---:|")
    for game in games:
        bot = make_bot("hard", game)
        state, seat = position(game, seed=0, decisions=1)
        profile = cProfile.Profile()
        profile.enable()
        _move(bot, state, seat, 0)  # type: ignore[arg-type]
        profile.disable()
        stats: dict[Any, Any] = pstats.Stats(profile).stats  # type: ignore[attr-defined]
        whole = heuristic = views = search = 0.0
        for (path, _, name), (_, _, own, cumulative, callers) in stats.items():
            from_search = any("ismcts.py" in caller[0] for caller in callers)
            if name == "choose" and "heuristics.py" in path and from_search:
                heuristic += cumulative
            elif name == "view" and path.endswith("state.py"):
                views += cumulative
            if "ismcts.py" in path or name in ("<built-in method _pickle.dumps>", "<built-in method builtins.repr>"):
                search += own
            if name == "_move":
                whole = cumulative
        engine = whole - heuristic - views - search
        shares = [100 * part / whole for part in (heuristic, views, engine, search)]
        print(f"| {game.id} | {game.players} | " + " | ".join(f"{s:.0f} %" for s in shares) + " |", flush=True)


def match(game_id: str, players: int, games: int, seed: int, options: dict[str, Any], jobs: int) -> None:
    spec = tournament.ArenaSpec(game_id, players, options, ("hard", REFERENCE), games, seed)
    with mock.patch.object(tournament, "make_bot", _make_bot):  # forked jobs inherit it
        result = tournament.run_arena(spec, jobs=jobs)
    print(markdown(result))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    timed = commands.add_parser("times")
    timed.add_argument("tables", nargs="*", metavar="GAME:PLAYERS")
    timed.add_argument("--positions", type=int, default=3)
    profiled = commands.add_parser("where")
    profiled.add_argument("tables", nargs="*", metavar="GAME:PLAYERS")
    matched = commands.add_parser("match")
    matched.add_argument("game")
    matched.add_argument("players", type=int)
    matched.add_argument("--games", type=int, default=12)
    matched.add_argument("--seed", type=int, default=1)
    matched.add_argument("--jobs", type=int, default=1)
    matched.add_argument("-o", dest="options", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    if args.command == "times":
        times(tables(args.tables), args.positions)
    elif args.command == "where":
        where(tables(args.tables))
    else:
        options: dict[str, Any] = {}
        for pair in args.options:
            key, _, value = pair.partition("=")
            options[key] = int(value) if value.isdigit() else value
        match(args.game, args.players, args.games, args.seed, options, args.jobs)


if __name__ == "__main__":
    main()
