"""Two people's seats played by bots of one level at a two-player Geier table: how often their bids tie.

``python -m benchmarks.takeover_ties [--level medium] [--games 6] [--against 30]``

Each round is decided as the server's runner decides it (``server/live/moves.py``): seat 0's bot first, then seat
1's on the table where seat 0's face-down card is played (its view hides it), each from ``botpool.choose_move``.
It prints, for the plain level and for the level as it plays a person's seat (``registry.takeover_spec``), the
rounds, the tied rounds, and the rounds played with equal hands and how many of those tied (a tie cancels both
cards, geier-3, and keeps the hands equal).  With ``--against N`` it also plays N games of the takeover bot
against the plain level, seats alternating, and prints the takeover bot's score (a shared win counts a half).
"""

from __future__ import annotations

import argparse
import random
import secrets

from ludotheque.bots.registry import takeover_spec
from ludotheque.core import CHANCE, sample_chance
from ludotheque.games import load_game
from ludotheque.server.botpool import BotRequest, choose_move, history_of
from ludotheque.table import Table


def play(specs: list[str], seed: int, sequential: bool = True) -> tuple[Table, int, int, int, int]:
    """One game; its table, rounds, ties, rounds with equal hands, and their ties."""
    table = Table(load_game("geier", players=2), [None, None])
    rng = random.Random(seed)
    rounds = ties = equal = equal_ties = 0
    while not table.state.is_terminal():
        state = table.state
        if state.is_chance_node():
            action = sample_chance(state, rng)
            table.apply_logged(CHANCE, action, state.action_to_string(action, CHANCE))
            continue
        projected = table.fork()
        projected.with_events = False
        bids = []
        for seat in state.current_players():
            request = BotRequest(f"t{seed}-{specs}", "geier", 2, {}, history_of(projected if sequential else table),
                                 seat, specs[seat], secrets.randbits(63), 60.0)
            bids.append(choose_move(request))
            projected.submit(seat, bids[-1])
        same = state.hands[0] == state.hands[1]
        rounds, ties = rounds + 1, ties + (bids[0] == bids[1])
        equal, equal_ties = equal + same, equal_ties + (same and bids[0] == bids[1])
        for seat, bid in zip(state.current_players(), bids, strict=True):
            table.submit(seat, bid)
    return table, rounds, ties, equal, equal_ties


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="medium")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--against", type=int, default=0)
    args = parser.parse_args()
    mixed = takeover_spec(args.level, load_game("geier", players=2))
    for spec in (args.level, mixed):
        totals = [0, 0, 0, 0]
        for game in range(args.games):
            counts = play([spec, spec], game)[1:]
            totals = [a + b for a, b in zip(totals, counts, strict=True)]
        print(f"{spec}: {totals[0]} rounds, {totals[1]} tied; {totals[2]} with equal hands, {totals[3]} of them tied")
    if args.against:
        score = 0.0
        for game in range(args.against):
            seat = game % 2
            specs = [mixed, args.level] if seat == 0 else [args.level, mixed]
            winners = play(specs, 1000 + game)[0].state.winners()
            score += 1.0 / len(winners) if seat in winners else 0.0
        print(f"{mixed} against {args.level}: {score:g} of {args.against} games")


if __name__ == "__main__":
    main()
