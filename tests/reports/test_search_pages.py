"""The pages of ``talesim balance``, ``tune`` and ``ladder`` in a real (headless) browser:
no console errors, every image loads, nothing fetched from outside, no horizontal overflow,
the tables sort (43 Fairy Tale cards on the ladder and balance pages)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from kit import ok

Check = Callable[[Path], dict[str, Any]]

COMMANDS = {
    "ladder": [
        "ladder", "fairy-tale", "--players", "4", "--policies", "random,greedy",
        "--games", "1000", "--seed", "4",
    ],
    "balance": [
        "balance", "fairy-tale", "--players", "4", "--levels", "greedy,collector@1000",
        "--games", "1500", "--budget", "3", "--band", "0.8:1.25", "--seed", "4",
    ],
    "tune": [
        "tune", "fairy-tale", "--policy", "greedy", "--players", "4", "--games", "800",
        "--budget", "3", "--seed", "4",
    ],
}  # fmt: skip


@pytest.mark.parametrize("command", list(COMMANDS))
def test_search_page_loads_clean(tmp_path: Path, check_report: Check, command: str) -> None:
    out = tmp_path / "out"
    ok(*COMMANDS[command], "--out", out, "--quiet")
    checked = check_report(out / "index.html")
    assert checked["console_errors"] == []
    assert checked["broken_images"] == []
    assert checked["external_requests"] == []
    assert checked["horizontal_overflow"] is False
    assert checked["n_images"] >= 1
    assert checked["sort_errors"] == []
    assert checked["ok"] is True
