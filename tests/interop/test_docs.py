"""The Python examples of docs/interop.md run as written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

DOC = Path(__file__).resolve().parents[2] / "docs" / "interop.md"
BLOCKS = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), flags=re.DOTALL)


def test_the_doc_has_an_example_per_library() -> None:
    text = "\n".join(BLOCKS)
    assert len(BLOCKS) >= 3
    for needle in ("interop.pettingzoo", "interop.gymnasium", "interop import openspiel"):
        assert needle in text


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_doc_example_runs(index: int, capsys: pytest.CaptureFixture[str]) -> None:
    exec(compile(BLOCKS[index], f"{DOC.name}[python block {index}]", "exec"), {"__name__": "__doc_example__"})
