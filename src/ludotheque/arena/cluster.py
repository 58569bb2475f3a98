"""An arena's games as Ray tasks, for those who outgrow one machine: ``ludotheque arena ... --ray [ADDRESS]``.

Each game is one task running the arena's ``play_one`` (the same function ``--jobs`` runs in processes), so the
same seeds give the same games wherever they are played.  ``"local"`` starts a Ray on this machine; an address (``ray://host:10001``
or ``host:6379``) joins a running cluster, whose workers need this package installed (``pip install
'ludotheque[cluster]'``).  Ray is an extra: without it, ``--ray`` says how to install it.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ludotheque.core import LudothequeError

if TYPE_CHECKING:
    from ludotheque.arena.tournament import ArenaSpec, GameResult


class ClusterError(LudothequeError):
    """Ray is missing or the cluster cannot be reached."""


def _ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ClusterError("--ray needs Ray: pip install 'ludotheque[cluster]'") from None
    return ray


def check_reachable(address: str, timeout: float = 3.0) -> None:
    """Refuse an address nothing answers at, at once (Ray itself retries for minutes): ``host:port`` or
    ``ray://host:port``."""
    target = address.removeprefix("ray://")
    host, sep, port = target.rpartition(":")
    if not sep or not port.isdigit():
        raise ClusterError(f"a Ray address is host:port or ray://host:port, not {address!r}")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as error:
        raise ClusterError(f"cannot reach the Ray cluster at {address}: {error}") from None


def play_on_ray(
    play: Callable[[ArenaSpec, int, int], GameResult],
    spec: ArenaSpec,
    tasks: Sequence[tuple[int, int]],
    address: str,
    on_game: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Play ``tasks`` (deal, seating) as Ray tasks of ``play`` (the arena's ``play_one``); ``on_game`` sees each
    result as it arrives."""
    ray = _ray()
    started_here = not ray.is_initialized()
    if started_here:
        try:
            if address == "local":
                ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False)
            else:
                check_reachable(address)
                ray.init(address=address, include_dashboard=False, log_to_driver=False, configure_logging=False)
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise ClusterError(f"cannot reach the Ray cluster at {address}: {error}") from None
    try:
        remote = ray.remote(play)
        pending = [remote.remote(spec, deal, seating) for deal, seating in tasks]
        results: list[GameResult] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            result: GameResult = ray.get(done[0])
            results.append(result)
            if on_game is not None:
                on_game(result)
        return results
    finally:
        if started_here:
            ray.shutdown()
