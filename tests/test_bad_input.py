"""Bad input to ``talesim simulate / cards / score / report`` (and the request checks of
``balance`` and ``tune``), one table row per mistake.

Every row runs the real Fairy Tale loader and engine checks through Typer's ``CliRunner``
and asserts what bad input gets: exit code 2, exactly one output line, starting with
``error: ``, naming what is wrong (the row's substrings: file, card, field, value), no
traceback, and nothing written or overwritten (the whole ``tmp_path`` tree is
byte-identical before and after, so a refused ``--out`` is never created and an existing
run is never touched). Bad card files are the shipped ``cards.toml`` with exactly one
edit. No row reaches the numba kernel, so the file runs in seconds.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pytest
from kit import assert_error, invoke, ok

from talesim.simcore.runner import setup

CARDS_TOML = Path(__file__).resolve().parents[1] / "simcore" / "games" / "fairy_tale" / "cards.toml"


# --- inputs ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Edit:
    """Replace the first match of regex ``old`` by ``new`` in the ``[[card]]`` block of
    ``card`` (``None``: anywhere in the file). Exactly one match is required."""

    card: str | None
    old: str
    new: str

    def apply(self, text: str) -> str:
        start, end = 0, len(text)
        if self.card is not None:
            block = re.search(
                rf'^id = "{re.escape(self.card)}"\n(?:(?!\[\[card\]\]).*\n)*', text, re.M
            )
            assert block is not None, f"no card {self.card!r} in cards.toml"
            start, end = block.span()
        edited, n = re.subn(self.old, self.new, text[start:end], count=1, flags=re.M)
        assert n == 1, f"{self.old!r} not found in card {self.card!r}"
        return text[:start] + edited + text[end:]


def snapshot(root: Path) -> dict[str, bytes | None]:
    """Every path under ``root`` with its bytes (``None`` for directories)."""
    return {
        str(p.relative_to(root)): None if p.is_dir() else p.read_bytes()
        for p in sorted(root.rglob("*"))
    }


def write_run(out: Path, *, status: str = "complete", seed: int = 1) -> None:
    """A small run directory written by hand (after tests/reports/test_report.py): a
    manifest and one valid ``seats`` part."""
    seats = pl.DataFrame(
        {
            "game_id": [0, 0, 1, 1],
            "seat": [0, 1, 0, 1],
            "policy": ["greedy"] * 4,
            "score": [15, 10, 10, 16],
            "rank": [1, 2, 2, 1],
            "win": [1.0, 0.0, 0.0, 1.0],
        }
    )
    (out / "seats").mkdir(parents=True)
    seats.write_parquet(out / "seats" / "part-00000.parquet")
    manifest = {
        "format": 1,
        "tool": "talesim",
        "version": "test",
        "game": "fairy-tale",
        "variant": "expert",
        "players": 4,
        "policies": ["greedy"] * 4,
        "rotate_seats": False,
        "seed": seed,
        "n_games": 2,
        "tables": ["seats"],
        "status": status,
        "chunks": [{"index": 0, "first_game": 0, "n_games": 2, "done": status == "complete"}],
    }
    (out / "manifest.json").write_text(json.dumps(manifest))


def corrupt_part(tmp: Path) -> None:
    """``{tmp}/run``: a complete run whose only part is garbage."""
    write_run(tmp / "run")
    (tmp / "run" / "seats" / "part-00000.parquet").write_bytes(b"PAR1 not parquet \x00\xff")


def non_run_dir(tmp: Path) -> None:
    """``{tmp}/run``: a directory of someone's files, not a run."""
    (tmp / "run").mkdir()
    (tmp / "run" / "notes.txt").write_text("my notes, not a run\n")


def broken_manifest(tmp: Path) -> None:
    """``{tmp}/run``: a directory whose manifest.json is cut short."""
    non_run_dir(tmp)
    (tmp / "run" / "manifest.json").write_text("{")


@dataclass(frozen=True)
class Case:
    """One bad command line. In ``args`` and ``expect``, ``{tmp}`` is the test's tmp_path,
    ``{out}`` = ``{tmp}/run``, ``{cards}`` = ``{tmp}/cards.toml``, ``{state}`` =
    ``{tmp}/state.json``."""

    args: tuple[str, ...]
    expect: tuple[str, ...]  # substrings of the error line
    edit: Edit | None = None  # writes {cards}: the shipped file with this one change
    state: object = None  # writes {state}: this object as JSON (a str: this exact text)
    setup: Callable[[Path], None] | None = None  # called with {tmp} before the command


def simulate(*extra: str, game: str = "fairy-tale") -> tuple[str, ...]:
    """A valid four-player ``simulate`` command line plus ``extra`` (later options win)."""
    base = ("simulate", game, "--games", "10", "--players", "4", "--seed", "1")
    return (*base, "--policy", "greedy", "--out", "{out}", "--quiet", *extra)


def score(*extra: str, game: str = "fairy-tale") -> tuple[str, ...]:
    return ("score", game, "{state}", *extra)


def report(run: str = "{out}", out: str = "{tmp}/rep") -> tuple[str, ...]:
    return ("report", run, "--out", out)


def state(*players: object, variant: object = "expert") -> dict[str, object]:
    return {"variant": variant, "players": list(players)}


CARDS_FILE = ("--cards", "{cards}")

# One edit of cards.toml each, with the substrings its error must contain (besides the
# file name). Checked through both `simulate` and `cards`.
CARD_FILE_CASES = {
    "toml-syntax-error": (Edit(None, r"^\[\[card\]\]$", "[[card]"), ("not valid TOML", "line")),
    "missing-faction": (
        Edit("sky-dancer-dragon", r"^faction = .*\n", ""),
        ("card 'sky-dancer-dragon'", "field 'faction'", "missing"),
    ),
    "missing-text": (
        Edit("unicorn", r"^text = .*\n", ""),
        ("card 'unicorn'", "field 'text'", "missing"),
    ),
    "missing-value": (
        Edit("unicorn", r"^value = .*\n", ""),
        ("card 'unicorn'", "field 'value'", "missing"),
    ),
    "copies-a-word": (
        Edit("homesteaders", r"^copies = 7", 'copies = "three"'),
        ("card 'homesteaders'", "field 'copies'", "must be an integer, got 'three'"),
    ),
    "copies-zero": (
        Edit("homesteaders", r"^copies = 7", "copies = 0"),
        ("card 'homesteaders'", "field 'copies'", "between 1 and 20, got 0"),
    ),
    "copies-negative": (
        Edit("homesteaders", r"^copies = 7", "copies = -3"),
        ("card 'homesteaders'", "field 'copies'", "between 1 and 20, got -3"),
    ),
    "copies-huge": (
        Edit("homesteaders", r"^copies = 7", "copies = 99999999999999999999"),
        ("card 'homesteaders'", "field 'copies'", "between 1 and 20, got 99999999999999999999"),
    ),
    "copies-float": (
        Edit("homesteaders", r"^copies = 7", "copies = 7.0"),
        ("card 'homesteaders'", "field 'copies'", "must be an integer, got 7.0"),
    ),
    "unknown-field": (
        Edit("unicorn", r"^(tier = .*)$", '\\1\ncolour = "white"'),
        ("card 'unicorn'", "field 'colour'", "unknown field"),
    ),
    "unknown-faction": (
        Edit("unicorn", r'^faction = "fairy-forest"', 'faction = "fairy-forrest"'),
        ("card 'unicorn'", "field 'faction'", "'fairy-forrest'"),
    ),
    "uppercase-id": (
        Edit("unicorn", r'^id = "unicorn"', 'id = "Unicorn"'),
        ("card 'Unicorn'", "field 'id'", "lowercase"),
    ),
    "duplicate-id": (
        Edit("warhorse", r'^id = "warhorse"', 'id = "homesteaders"'),
        ("card 'homesteaders'", "field 'id'", "duplicate card id"),
    ),
    "count-of-unknown-card": (
        Edit("dwarven-warrior", r'of = "sky-dancer-dragon"', 'of = "sky-dancer-dragonn"'),
        ("card 'dwarven-warrior'", "field 'value.of'", "unknown card id 'sky-dancer-dragonn'"),
    ),
    "quest-needs-unknown-card": (
        Edit("dragon-king", r'needs = \["dragons-nest"\]', 'needs = ["dragons-nets"]'),
        ("card 'dragon-king'", "field 'value.needs'", "unknown card id 'dragons-nets'"),
    ),
    "quest-needs-nothing": (
        Edit("dragon-king", r'needs = \["dragons-nest"\]', "needs = []"),
        ("card 'dragon-king'", "field 'value.needs'", "names 1 to 4 cards"),
    ),
    "friend-of-unknown-card": (
        Edit("sky-dancer-dragon", r'friend_of = "dwarven-warrior"', 'friend_of = "dwarf"'),
        ("card 'sky-dancer-dragon'", "field 'friend_of'", "unknown card id 'dwarf'"),
    ),
    # a list is refused by the type check, before the cross-reference check hashes it
    "friend-of-a-list": (
        Edit("sky-dancer-dragon", r'friend_of = ("dwarven-warrior")', r"friend_of = [\1]"),
        ("card 'sky-dancer-dragon'", "field 'friend_of'", "must be a non-empty string"),
    ),
    # display names and notes are type-checked too
    "name-ja-a-number": (
        Edit("dragons-cave", r"^name_ja = .*$", "name_ja = 42"),
        ("card 'dragons-cave'", "field 'name_ja'", "must be a non-empty string, got 42"),
    ),
    "unknown-effect-kind": (
        Edit("dragons-cave", r'effect = \{ kind = "close"', 'effect = { kind = "heal"'),
        ("card 'dragons-cave'", "field 'effect.kind'", "none, hunt, open, close; got 'heal'"),
    ),
    "unknown-value-kind": (
        Edit("unicorn", r'value = \{ kind = "fixed"', 'value = { kind = "bonus"'),
        ("card 'unicorn'", "field 'value.kind'", "got 'bonus'"),
    ),
    "effect-count-too-big": (
        Edit("dragons-cave", r"count = 1", "count = 4"),
        ("card 'dragons-cave'", "field 'effect.count'", "between 1 and 3, got 4"),
    ),
    "close-scope-unknown": (
        Edit("dragons-cave", r'scope = "you"', 'scope = "them"'),
        ("card 'dragons-cave'", "field 'effect.scope'", "got 'them'"),
    ),
    "points-out-of-range": (
        Edit("unicorn", r"points = 3", "points = 51"),
        ("card 'unicorn'", "field 'value.points'", "between -50 and 50, got 51"),
    ),
    "value-key-of-another-kind": (
        Edit("unicorn", r"points = 3 \}", "points = 3, per = 2 }"),
        ("card 'unicorn'", "field 'value.per'", "unknown field"),
    ),
    "value-not-a-table": (
        Edit("unicorn", r"^value = .*$", "value = 3"),
        ("card 'unicorn'", "field 'value'", "must be a table, got 3"),
    ),
    "two-wild-cards": (
        Edit(
            "unicorn",
            r'value = \{ kind = "fixed", points = 3 \}',
            'value = { kind = "wild", points = -1 }',
        ),
        ("at most one wild card", "unicorn, the-trickster"),
    ),
    "card-file-of-another-game": (
        Edit(None, r'^game = "fairy-tale"', 'game = "drako"'),
        ("field 'game'", "'drako', not fairy-tale"),
    ),
    # a misspelt name: the message names the nearest valid one
    "misspelt-card-reference": (
        Edit("sky-dancer-dragon", r'friend_of = "dwarven-warrior"', 'friend_of = "dwarven-warior"'),
        ("unknown card id 'dwarven-warior'", "did you mean dwarven-warrior?"),
    ),
    "misspelt-field": (
        Edit("unicorn", r"^copies = ", "copie = "),
        ("card 'unicorn'", "field 'copie'", "unknown field", "did you mean copies?"),
    ),
}

PAPER_TALES_CARDS = CARDS_TOML.parents[1] / "paper_tales" / "cards.toml"


def write_bytes(name: str, data: bytes) -> Callable[[Path], None]:
    return lambda tmp: (tmp / name).write_bytes(data)


def balance(*extra: str) -> tuple[str, ...]:
    """A valid ``balance`` command line plus ``extra``."""
    base = ("balance", "fairy-tale", "--players", "4", "--policy", "greedy", "--games", "10")
    return (*base, "--budget", "1", "--band", "0.8:1.25", "--seed", "1", "--out", "{out}", *extra)


def tune(game: str, *extra: str) -> tuple[str, ...]:
    """A valid ``tune`` command line of greedy's weights plus ``extra``."""
    base = ("tune", game, "--policy", "greedy", "--players", "4", "--games", "10")
    return (*base, "--budget", "1", "--seed", "1", "--out", "{out}", *extra)


CASES: dict[str, Case] = {
    # --- simulate: the request ----------------------------------------------------------
    "simulate-unknown-game": Case(
        simulate(game="chess"), ("unknown game 'chess'", "(games: fairy-tale, drako, paper-tales)")
    ),
    "simulate-unknown-variant": Case(
        simulate("--variant", "nightmare"),
        ("fairy-tale has no variant 'nightmare'", "basic, beginner, expert"),
    ),
    "simulate-unknown-policy": Case(
        simulate("--policy", "cheater"),
        ("unknown policy 'cheater'", "random, greedy, collector"),
    ),
    "simulate-misspelt-game": Case(
        simulate(game="fairy-tail"), ("unknown game 'fairy-tail'", "did you mean fairy-tale?")
    ),
    "simulate-misspelt-variant": Case(
        simulate("--variant", "exprt"), ("no variant 'exprt'", "did you mean expert?")
    ),
    "simulate-misspelt-policy": Case(
        simulate("--policy", "grredy"), ("unknown policy 'grredy'", "did you mean greedy?")
    ),
    "simulate-misspelt-policy-parameter": Case(
        simulate("--policy", "mc:rollout=4"),
        ("policy mc has no parameter 'rollout'", "did you mean rollouts?"),
    ),
    "simulate-misspelt-playout": Case(
        simulate("--policy", "mc:playout=gredy"), ("got 'gredy'", "did you mean greedy?")
    ),
    # another game's card file is named as such, not judged field by field
    "simulate-card-file-of-paper-tales": Case(
        simulate(*CARDS_FILE),
        ("{cards}: field 'game'", "card file for 'paper-tales', not fairy-tale"),
        setup=write_bytes("cards.toml", PAPER_TALES_CARDS.read_bytes()),
    ),
    "simulate-unknown-policy-in-list": Case(
        simulate("--policy", "greedy,random,cheater,greedy"), ("unknown policy 'cheater'",)
    ),
    "simulate-policy-list-too-short": Case(
        simulate("--policy", "greedy,random"), ("2 policies given (greedy,random)", "4 players")
    ),
    "simulate-policy-list-too-long": Case(
        simulate("--policy", "greedy,random,greedy,random,greedy"),
        ("5 policies given", "4 players"),
    ),
    "simulate-policy-key-unknown": Case(
        simulate("--policy", "greedy:top=3"),
        ("policy greedy has no parameter 'top'", "parameters: none"),
    ),
    "simulate-policy-spec-malformed": Case(
        simulate("--policy", "greedy,greedy:,greedy,greedy"),
        ("malformed policy spec 'greedy:'", "is not key=value"),
    ),
    "simulate-mc-rollouts-out-of-bounds": Case(
        simulate("--policy", "mc:rollouts=0,greedy,greedy,greedy"),
        ("policy mc: rollouts must be between 1 and 1024, got 0",),
    ),
    "simulate-mc-top-not-an-integer": Case(
        simulate("--policy", "mc:top=all,greedy,greedy,greedy"),
        ("policy mc: top must be an integer, got 'all'",),
    ),
    "simulate-mc-playout-unknown": Case(
        simulate("--policy", "mc:playout=mc"),
        ("policy mc: playout must be one of random, greedy, collector, learned, got 'mc'",),
    ),
    "simulate-mc-key-unknown": Case(
        simulate("--policy", "mc:depth=3"),
        ("policy mc has no parameter 'depth'", "rollouts, top, playout"),
    ),
    "simulate-policy-spec-no-name": Case(
        simulate("--policy", ":rollouts=4"),
        ("malformed policy spec ':rollouts=4'", "no policy name"),
    ),
    "simulate-empty-policy-name": Case(
        simulate("--policy", "greedy,,random,greedy"), ("empty policy name",)
    ),
    "simulate-no-players": Case(simulate("--players", "0"), ("players must be at least 1, got 0",)),
    "simulate-one-player": Case(
        simulate("--players", "1"), ("fairy-tale (expert) is played by 2-5 players, not 1",)
    ),
    "simulate-six-players-expert": Case(
        simulate("--players", "6", "--policy", "random"), ("2-5 players, not 6",)
    ),
    "simulate-five-players-basic": Case(
        simulate("--variant", "basic", "--players", "5"),
        ("fairy-tale (basic) is played by 2-4 players, not 5",),
    ),
    "simulate-zero-games": Case(simulate("--games", "0"), ("games must be at least 1, got 0",)),
    "simulate-negative-games": Case(
        simulate("--games", "-5"), ("games must be at least 1, got -5",)
    ),
    "simulate-negative-seed": Case(
        simulate("--seed", "-1"), ("seed must be an integer between 0 and 2**63-1, got -1",)
    ),
    "simulate-seed-too-big": Case(
        simulate("--seed", str(2**63)),
        (f"seed must be an integer between 0 and 2**63-1, got {2**63}",),
    ),
    "simulate-zero-chunk-size": Case(
        simulate("--chunk-size", "0"), ("chunk size must be at least 1, got 0",)
    ),
    "simulate-zero-threads": Case(
        simulate("--threads", "0"), ("threads must be at least 1, got 0",)
    ),
    "simulate-resume-and-overwrite": Case(
        simulate("--resume", "--overwrite"), ("--resume and --overwrite cannot be combined",)
    ),
    # --- simulate: the card file --------------------------------------------------------
    "simulate-cards-file-missing": Case(
        simulate("--cards", "{tmp}/nope.toml"), ("{tmp}/nope.toml: file not found",)
    ),
    "simulate-cards-file-is-a-directory": Case(
        simulate("--cards", "{tmp}"), ("{tmp}: is a directory",)
    ),
    "simulate-cards-file-not-utf8": Case(
        simulate(*CARDS_FILE),
        ("{cards}: not valid UTF-8",),
        setup=write_bytes("cards.toml", CARDS_TOML.read_bytes().replace(b"Unicorn", b"Unic\xf6rn")),
    ),
    # one copy fewer: the basic deck has 79 cards, four players need 4 x 20
    "simulate-deck-too-small-for-players": Case(
        simulate(*CARDS_FILE, "--variant", "basic"),
        ("4 players need 80 cards", "basic deck of this card file has 79"),
        edit=Edit("children-of-the-dragon", r"^copies = 7", "copies = 6"),
    ),
    # --- simulate: the output directory -------------------------------------------------
    "simulate-out-is-a-file": Case(
        simulate(),
        ("{out} exists and is not a directory",),
        setup=lambda tmp: (tmp / "run").write_text("a file\n"),
    ),
    "simulate-out-has-files": Case(
        simulate(), ("{out} already exists and is not empty", "--overwrite"), setup=non_run_dir
    ),
    "simulate-out-has-files-overwrite": Case(
        simulate("--overwrite"),
        ("refusing to overwrite {out}", "no manifest.json"),
        setup=non_run_dir,
    ),
    "simulate-resume-in-non-run": Case(
        simulate("--resume"), ("cannot resume: {out} is not a talesim run",), setup=non_run_dir
    ),
    "simulate-resume-different-seed": Case(
        simulate("--resume", "--seed", "2"),
        ("cannot resume {out}: seed is 1 in the manifest but 2 was requested",),
        setup=lambda tmp: write_run(tmp / "run", status="running"),
    ),
    # validation comes before --overwrite clears anything
    "simulate-overwrite-run-with-bad-policy": Case(
        simulate("--overwrite", "--policy", "cheater"),
        ("unknown policy 'cheater'",),
        setup=lambda tmp: write_run(tmp / "run"),
    ),
    "simulate-overwrite-run-with-bad-card-file": Case(
        simulate("--overwrite", *CARDS_FILE),
        ("{cards}: card 'homesteaders': field 'copies'",),
        edit=Edit("homesteaders", r"^copies = 7", 'copies = "seven"'),
        setup=lambda tmp: write_run(tmp / "run"),
    ),
    # --- cards --------------------------------------------------------------------------
    "cards-unknown-game": Case(("cards", "chess"), ("unknown game 'chess'",)),
    "cards-unknown-variant": Case(
        ("cards", "fairy-tale", "--variant", "nightmare"), ("no variant 'nightmare'",)
    ),
    "cards-file-missing": Case(
        ("cards", "fairy-tale", "--cards", "{tmp}/nope.toml"), ("{tmp}/nope.toml: file not found",)
    ),
    # an OSError of the file system (NotADirectoryError) is one error line, no traceback
    "cards-file-under-a-file": Case(
        ("cards", "fairy-tale", "--cards", "{cards}/x.toml"),
        ("{cards}/x.toml: cannot read (Not a directory)",),
        setup=write_bytes("cards.toml", CARDS_TOML.read_bytes()),
    ),
    "cards-file-name-too-long": Case(
        ("cards", "fairy-tale", "--cards", "{tmp}/" + "x" * 300 + ".toml"),
        ("cannot read (File name too long)",),
    ),
    "cards-file-empty": Case(
        ("cards", "fairy-tale", *CARDS_FILE),
        ("{cards}: field 'card': missing",),
        setup=write_bytes("cards.toml", b""),
    ),
    "cards-file-binary": Case(
        ("cards", "fairy-tale", *CARDS_FILE),
        ("{cards}: not valid",),
        setup=write_bytes("cards.toml", bytes(range(256))),
    ),
    # --- score --------------------------------------------------------------------------
    "score-unknown-game": Case(score(game="chess"), ("unknown game 'chess'",), state=state()),
    "score-state-file-missing": Case(score(), ("{state}: file not found",)),
    "score-state-malformed-json": Case(
        score(), ("{state}: not valid JSON", "line 1, column 2"), state="{oops"
    ),
    # the JSON parser's RecursionError is one error line, no traceback
    "score-state-nested-too-deeply": Case(
        score(),
        ("{state}: JSON nested too deeply",),
        setup=write_bytes("state.json", b"[" * 100_000 + b"]" * 100_000),
    ),
    "score-state-not-utf8": Case(
        score(), ("{state}: not UTF-8",), setup=write_bytes("state.json", b'{"variant": "\xff"}')
    ),
    "score-state-not-an-object": Case(
        score(), ("{state}: the state must be a JSON object",), state=["expert"]
    ),
    # a misspelt key is refused, not ignored (which would score the state as expert)
    "score-unknown-top-level-key": Case(
        score(),
        ("{state}: unknown key(s) varient",),
        state={"varient": "basic", "players": [{"face_up": ["unicorn"]}]},
    ),
    "score-unknown-variant": Case(
        score(),
        ("{state}: unknown variant 'nightmare'", "basic, beginner, expert"),
        state=state({"face_up": ["unicorn"]}, variant="nightmare"),
    ),
    # a list or object as variant is refused by the type check (it is not hashable)
    "score-variant-not-a-string": Case(
        score(),
        ("{state}: 'variant' must be a string", 'got ["expert"]'),
        state=state({"face_up": ["unicorn"]}, variant=["expert"]),
    ),
    "score-players-not-a-list": Case(
        score(),
        ("{state}: 'players' must be a list of 1 to 5 players",),
        state={"variant": "expert", "players": {"face_up": ["unicorn"]}},
    ),
    "score-no-players": Case(
        score(), ("'players' must be a list of 1 to 5 players",), state=state()
    ),
    "score-six-players": Case(
        score(),
        ("'players' must be a list of 1 to 5 players",),
        state=state(*[{"face_up": ["unicorn"]}] * 6),
    ),
    "score-player-not-an-object": Case(
        score(), ("player 1: must be an object",), state=state({}, ["unicorn"])
    ),
    "score-face-up-not-a-list": Case(
        score(),
        ("player 0: 'face_up' must be a list of card ids",),
        state=state({"face_up": "unicorn"}),
    ),
    "score-face-down-has-a-number": Case(
        score(),
        ("player 0: 'face_down' must be a list of card ids",),
        state=state({"face_up": ["unicorn"], "face_down": [3]}),
    ),
    "score-unknown-player-key": Case(
        score(), ("player 0: unknown key(s) hand",), state=state({"hand": ["unicorn"]})
    ),
    "score-unknown-card": Case(
        score(),
        ("{state}: player 1: unknown card 'unicorm' in face_down",),
        state=state({"face_up": ["unicorn"]}, {"face_down": ["unicorm"]}),
    ),
    "score-misspelt-card": Case(
        score(),
        ("unknown card 'homesteader' in face_up", "did you mean homesteaders?"),
        state=state({"face_up": ["homesteader"]}),
    ),
    "score-expert-card-in-basic-game": Case(
        score(),
        ("player 0: 'the-trickster' is not in the basic deck",),
        state=state({"face_up": ["the-trickster"]}, variant="basic"),
    ),
    "score-more-copies-than-the-deck": Case(
        score(),
        ("'dragons-nest' appears 2 times; the deck has 1",),
        state=state({"face_up": ["dragons-nest"]}, {"face_down": ["dragons-nest"]}),
    ),
    "score-thirteen-tableau-cards": Case(
        score(),
        ("player 0: more than 12 tableau cards",),
        state=state(
            {"face_up": ["homesteaders"] * 7, "face_down": ["warhorse"] * 3 + ["priest"] * 3}
        ),
    ),
    "score-bad-card-file": Case(
        score(*CARDS_FILE),
        ("{cards}: card 'unicorn': field 'copies'",),
        edit=Edit("unicorn", r"^copies = 3", "copies = []"),
        state=state({"face_up": ["unicorn"]}),
    ),
    # --- report -------------------------------------------------------------------------
    "report-run-missing": Case(report("{tmp}/nope"), ("{tmp}/nope is not a directory",)),
    "report-not-a-run": Case(
        report(),
        ("{out} is not a talesim run (no manifest.json)",),
        setup=non_run_dir,
    ),
    "report-manifest-not-json": Case(
        report(),
        ("{out}/manifest.json is not a readable manifest",),
        setup=broken_manifest,
    ),
    "report-unfinished-run": Case(
        report(),
        ("{out} is an unfinished run (0 of 1 chunks)", "--resume"),
        setup=lambda tmp: write_run(tmp / "run", status="running"),
    ),
    "report-corrupt-part": Case(
        report(),
        ("{out}/seats is not readable Parquet",),
        setup=corrupt_part,
    ),
    "report-into-the-run-itself": Case(
        report(out="{out}"),
        ("{out} is the run directory itself",),
        setup=lambda tmp: write_run(tmp / "run"),
    ),
    # --- balance and tune: the request --------------------------------------------------
    "balance-misspelt-field": Case(
        balance("--fields", "point"), ("unknown field 'point'", "did you mean points?")
    ),
    "balance-bounds-outside-the-declared": Case(
        balance("--fields", "points:-9:3"),
        (
            "outside the bounds balance.toml declares",
            str(CARDS_TOML.parent / "balance.toml"),
        ),
    ),
    "tune-misspelt-against": Case(
        tune("paper-tales", "--against", "warlrd"),
        (
            "unknown policy 'warlrd'",
            "(policies: random, greedy, warlord, builder, mc, learned)",
            "did you mean warlord?",
        ),
    ),
}
for _name, (_edit, _expect) in CARD_FILE_CASES.items():
    CASES[f"simulate-card-file-{_name}"] = Case(
        simulate(*CARDS_FILE), ("{cards}", *_expect), edit=_edit
    )
    CASES[f"cards-card-file-{_name}"] = Case(
        ("cards", "fairy-tale", *CARDS_FILE), ("{cards}", *_expect), edit=_edit
    )


# --- the command line itself (Typer's parser: cli/main.py OneLineErrors) --------------------
CASES.update(
    {
        "parse-unknown-command": Case(
            ("simulat",), ("No such command 'simulat'", "talesim --help")
        ),
        "parse-missing-argument": Case(
            ("cards",), ("Missing argument 'game'", "talesim cards --help")
        ),
        "parse-missing-option": Case(
            ("simulate", "fairy-tale", "--games", "10", "--out", "{out}"),
            ("Missing option", "talesim simulate --help"),
        ),
        "parse-unknown-option": Case(simulate("--bogus", "1"), ("No such option: --bogus",)),
        "parse-not-an-integer": Case(
            simulate("--games", "ten"), ("Invalid value for '--games'", "talesim simulate --help")
        ),
        "parse-option-without-value": Case(
            simulate("--seed"), ("Option '--seed' requires an argument",)
        ),
    }
)


# --- the test -------------------------------------------------------------------------------


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_bad_input_prints_one_error_line_and_writes_nothing(case: Case, tmp_path: Path) -> None:
    def fill(text: str) -> str:
        return text.format(
            tmp=tmp_path,
            out=tmp_path / "run",
            cards=tmp_path / "cards.toml",
            state=tmp_path / "state.json",
        )

    if case.edit is not None:
        (tmp_path / "cards.toml").write_text(
            case.edit.apply(CARDS_TOML.read_text("utf-8")), "utf-8"
        )
    if isinstance(case.state, str):
        (tmp_path / "state.json").write_text(case.state, "utf-8")
    elif case.state is not None:
        (tmp_path / "state.json").write_text(json.dumps(case.state), "utf-8")
    if case.setup is not None:
        case.setup(tmp_path)
    before = snapshot(tmp_path)

    assert_error(invoke(*[fill(a) for a in case.args]), *[fill(f) for f in case.expect])
    assert snapshot(tmp_path) == before


def test_the_inputs_the_rows_start_from_are_accepted(tmp_path: Path) -> None:
    """Each row differs from these by one change: the shipped card file (for `cards`,
    `score` and the checks `simulate` makes before writing), a valid state, a valid run."""
    cards = tmp_path / "cards.toml"
    cards.write_bytes(CARDS_TOML.read_bytes())
    for variant, players in (("basic", 4), ("expert", 4)):
        setup("fairy-tale", variant=variant, players=players, policies="greedy", cards_path=cards)
    ok("cards", "fairy-tale", "--cards", cards, "--json")
    good = state({"face_up": ["dragons-nest", "unicorn"]}, {"face_down": ["homesteaders"] * 7})
    (tmp_path / "state.json").write_text(json.dumps(good))
    args = ["score", "fairy-tale", str(tmp_path / "state.json"), "--cards", str(cards), "--json"]
    ok(*args)
    write_run(tmp_path / "run")
    ok("report", tmp_path / "run", "--out", tmp_path / "r")
