"""`talesim --help` and `talesim games` stay instant: no numba, polars or matplotlib import.

Each check runs in a fresh interpreter (modules already imported by this test process
would hide the problem) and lists which heavy modules ended up in ``sys.modules``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HEAVY = ("numba", "polars", "matplotlib")
ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import json, sys
from talesim.cli.main import app
sys.argv = ["talesim", *{args!r}]
try:
    app()
except SystemExit as exc:
    code = exc.code
else:
    code = 0
heavy = sorted({{m.split(".")[0] for m in sys.modules}} & set({heavy!r}))
print("PROBE " + json.dumps({{"code": code, "heavy": heavy}}))
"""


def probe(*args: str) -> tuple[dict[str, object], str]:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE.format(args=list(args), heavy=list(HEAVY))],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    lines = [line for line in proc.stdout.splitlines() if line.startswith("PROBE ")]
    assert lines, proc.stdout + proc.stderr
    return json.loads(lines[-1][len("PROBE ") :]), proc.stdout


@pytest.mark.parametrize(
    "args",
    [["--help"], ["games"], ["simulate", "--help"], ["bench", "--help"]],
    ids=["help", "games", "simulate-help", "bench-help"],
)
def test_light_commands_import_no_heavy_module(args: list[str]) -> None:
    result, stdout = probe(*args)
    assert result == {"code": 0, "heavy": []}, stdout
    assert "fairy-tale" in stdout or "Usage" in stdout


def test_console_script_help() -> None:
    script = Path(sys.executable).with_name("talesim")
    if not script.exists():
        pytest.skip("talesim console script not installed in this environment")
    proc = subprocess.run(
        [str(script), "--help"], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 0
    assert "simulate" in proc.stdout
