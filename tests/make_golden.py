"""Regenerate golden playthroughs (only after an intended rule, policy, card-data or
random-stream change; review the diff):

    .venv/bin/python tests/make_golden.py            # every game
    .venv/bin/python tests/make_golden.py drako      # one or more games
"""

from __future__ import annotations

import sys

from golden_games import GAMES, write

if __name__ == "__main__":
    names = sys.argv[1:] or list(GAMES)
    unknown = [n for n in names if n not in GAMES]
    if unknown:
        sys.exit(f"error: no golden cases for {', '.join(unknown)} (games: {', '.join(GAMES)})")
    for name in names:
        for path in write(name):
            print(path)
