"""``python -m ludotheque.bots.benchmark``: the time per bot move, kept under this name for the commands the bot
docs give; the measuring lives in ``ludotheque.bench.bots``."""

from __future__ import annotations

from ludotheque.bench.bots import bench, main

__all__ = ["bench", "main"]

if __name__ == "__main__":
    main()
