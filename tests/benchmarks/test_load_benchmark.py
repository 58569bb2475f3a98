"""The load benchmark runs end to end on a few tables (its figures are for docs/performance.md, not asserted)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_load_benchmark_prints_its_figures() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.load", "--tables", "4", "--rate", "8", "--seconds", "3", "--json"],
        capture_output=True, text=True, cwd=ROOT, timeout=300, check=False,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    figures = json.loads(run.stdout.strip().splitlines()[-1])
    assert {"p50_ms", "p95_ms", "p99_ms", "max_ms", "moves", "errors"} <= set(figures)
    assert figures["moves"] > 0 and figures["errors"] == 0 and figures["commits"] >= figures["moves"]
