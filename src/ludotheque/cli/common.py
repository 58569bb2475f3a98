"""Helpers shared by the CLI commands: option parsing, errors, records on disk."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, NoReturn

import typer
from rich.console import Console

from ludotheque.core import LudothequeError, OptionError

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


def check_record_dir(directory: Path) -> None:
    """Refuse, before a game starts, a record directory that cannot be created or written."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
        probe = directory / ".ludotheque-write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as error:
        raise LudothequeError(f"cannot write records to {directory}: {error.strerror or error}") from None


def save_record(record: dict[str, Any], game_id: str, directory: Path, seed: int) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = directory / f"{game_id}-{stamp}-seed{seed}.json"
    path.write_text(json.dumps(record, indent=1) + "\n")
    return path


def guard(error: LudothequeError) -> NoReturn:
    fail(error)
