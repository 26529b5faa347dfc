"""``talesim score paper-tales`` compiles the evaluation only: scoring a base and a Legends
position in a fresh interpreter never imports the game kernel (so it cannot compile it)."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import sys
from talesim.simcore.games.paper_tales.engine import score_state
knight = {"front": [{"unit": "knight", "age": 0}]}
shield = {"front": [{"unit": "knight", "age": 1}], "artifacts": ["shield-of-power"]}
assert score_state({"players": [knight, {}]})["winners"] == [0]
assert score_state({"players": [shield, {}]}, variant="legends")["winners"] == [0]
kernel = [m for m in sys.modules if m.startswith("talesim.simcore.games.paper_tales.kernel")]
assert not kernel, kernel
"""


def test_scoring_a_position_compiles_the_evaluation_only() -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
