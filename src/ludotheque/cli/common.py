"""Helpers shared by the CLI commands: option parsing, errors, records on disk."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console

from ludotheque.core import LudothequeError, OptionError, State

console = Console(highlight=False)
err_console = Console(stderr=True, highlight=False)


def fail(error: Exception | str, code: int = 2) -> NoReturn:
    """Print an error on stderr and exit non-zero."""
    err_console.print(f"[bold red]error:[/] {error}")
    raise typer.Exit(code)


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """``["tie_rule=single", ...]`` -> ``{"tie_rule": "single"}``; values stay strings (the game coerces)."""
    options: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"--option takes key=value, not {pair!r}")
        options[key.strip()] = value.strip()
    return options


def save_record(state: State, directory: Path, seed: int) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = directory / f"{state.game.id}-{stamp}-seed{seed}.json"
    path.write_text(json.dumps(state.to_record(), indent=1) + "\n")
    return path


def guard(error: LudothequeError) -> NoReturn:
    fail(error)
