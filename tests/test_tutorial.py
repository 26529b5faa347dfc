"""``docs/tutorial.md`` runs as written: its Python blocks, in order, in one namespace, in a
fresh directory (as a reader would paste them into a notebook)."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

TUTORIAL = Path(__file__).resolve().parents[1] / "docs" / "tutorial.md"


def blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", TUTORIAL.read_text(encoding="utf-8"), re.S)


def test_the_tutorial_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "tutorial"}
    assert len(blocks()) == 6
    for code in blocks():
        exec(compile(code, str(TUTORIAL), "exec"), namespace)
    shares = namespace["shares"]
    assert isinstance(shares, pl.DataFrame)
    trickster = shares.filter(pl.col("card") == "the-trickster").row(0, named=True)
    assert trickster["share_after"] < trickster["share"]  # the harsher penalty bites
    findings = namespace["comparison"].findings  # type: ignore[attr-defined]
    assert any("the-trickster" in line for line in findings)
    assert (tmp_path / "trickster.png").stat().st_size > 10_000
    assert (tmp_path / "runs" / "compare" / "index.html").is_file()
