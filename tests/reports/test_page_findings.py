"""The findings the ladder, tune, learn and balance pages open with (and their commands
print), each from hand-made tables: a finding appears when its condition holds and not
otherwise, with the numbers worked out by hand."""

from __future__ import annotations

import math
from pathlib import Path
from types import SimpleNamespace

import polars as pl
import pytest

from talesim.reports import balance_page, ladder_page, learn_page, tune_page
from talesim.reports.html import findings_section

#: A hand-made outcome: only the attributes a page reads.
NS = SimpleNamespace


def test_findings_section_lists_findings_then_notes_then_items() -> None:
    section = findings_section(["a", "b"], ["how to read"])
    assert (section.id, section.title) == ("findings", "Findings")
    assert section.paragraphs == ("a", "b")
    assert section.notes == ("how to read",)
    assert section.items == ()


# --- ladder ------------------------------------------------------------------------------------


def ladder_outcome(ratings: list[tuple], matrix: list[tuple]) -> NS:
    """A ladder outcome of three policies with the given ``ratings`` (policy, rating, lo,
    hi; best first) and head-to-head ``matrix`` rows (policy, opponent, n, ws, lo, hi)."""
    verdicts = pl.DataFrame(
        {
            "card": ["a", "b", "c", "d"],
            "verdict": ["strong", "weak", "policy-dependent", "even"],
            "flips": ["", "", "strong at greedy, weak at mc", ""],
            "not_checked": ["", "", "", "greedy"],
        }
    )
    return NS(
        request=NS(band=(0.9, 1.1)),
        ratings=pl.DataFrame(ratings, schema=["policy", "rating", "rating_lo", "rating_hi"],
                             orient="row"),
        matrix=pl.DataFrame(matrix, schema=["policy", "opponent", "n", "ws", "ws_lo", "ws_hi"],
                            orient="row"),
        level_sizes={"mc": 300, "greedy": 1200, "random": 1200},
        order=("random", "greedy", "mc"),
        levels=("greedy", "mc"),
        verdicts=verdicts,
        stats=pl.DataFrame({"card": ["a", "b", "c", "d"], "stats": ["cost 3", "", "", ""]}),
        luck=pl.DataFrame({"policy": ["mc", "greedy", "random"], "rows": [1, 1, 1],
                           "deal_share": [0.5, 0.4, 0.3], "deal_share_lo": [0.45, 0.35, 0.25],
                           "deal_share_hi": [0.55, 0.45, 0.35]}),
        decomposition=pl.DataFrame({"part": ["deal", "skill", "rest"], "share": [0.3, 0.5, 0.2],
                                    "share_lo": [0.2, 0.4, 0.1], "share_hi": [0.4, 0.6, 0.3]}),
    )  # fmt: skip


APART = [("mc", 60.0, 40.0, 80.0), ("greedy", 0.0, -10.0, 10.0), ("random", -60.0, -80.0, -40.0)]
MATRIX = [
    ("mc", "greedy", 500, 1.2, 1.1, 1.3),
    ("greedy", "mc", 500, 0.8, 0.7, 0.9),
    ("greedy", "random", 500, 1.05, 0.95, 1.15),
    ("random", "greedy", 500, 0.95, 0.85, 1.05),
]


def test_ladder_findings_rate_every_policy_and_name_the_pairs_clearly_apart() -> None:
    lines = ladder_page.findings(ladder_outcome(APART, MATRIX))
    assert lines[0] == (
        "Ratings (Bradley–Terry, Elo scale, 0 = average; 95% interval), best first: "
        "mc +60 [+40, +80] (level of 300 games), greedy 0 [\u221210, +10] (level of 1,200 "
        "games), random \u221260 [\u221280, \u221240] (level of 1,200 games)."
    )
    # mc's lower bound 40 clears greedy's upper 10; random's upper −40 is below greedy's −10
    assert lines[1] == (
        "Strongest: mc (its interval lies above the next one's); weakest: random (its "
        "interval lies below the next one's)."
    )
    # only mc–greedy excludes 1.0 (greedy–random straddles it), named once from the winner
    assert lines[2] == (
        "Head to head, pairs whose 95% interval excludes even (1.0): mc ahead of greedy "
        "1.200 [1.100, 1.300]."
    )
    assert "Strong at every level (1): a (cost 3)." in lines
    assert "Policy-dependent (1): c (strong at greedy, weak at mc)." in lines
    assert "Verdicts from some levels only (1): d even, not checked at greedy." in lines
    assert lines[-2].startswith(
        "How much the deal decides a player's outcome, per level (weakest first): random "
        "30.0% (25.0% to 35.0%); greedy 40.0%"
    )
    assert lines[-1] == (
        "The tournament's outcome variance: deal 30.0% (20.0% to 40.0%), skill 50.0% "
        "(40.0% to 60.0%), rest 20.0% (10.0% to 30.0%)."
    )


def test_ladder_tables_list_cards_in_card_order() -> None:
    o = ladder_outcome(APART, MATRIX)
    o.stats = pl.DataFrame({"card": ["d", "b", "a", "c"], "stats": ["", "", "cost 3", ""]})
    assert ladder_page.verdict_table(o)["card"].to_list() == ["d", "b", "a", "c"]
    o.cards = pl.DataFrame(
        {"card": ["a", "c"], "policy": ["mc", "mc"], "ws": [1.0, 1.1], "ws_lo": [0.9, 1.0],
         "ws_hi": [1.1, 1.2]}
    )  # fmt: skip
    o.levels = ("mc",)
    wide = ladder_page.cards_by_level(o)
    assert wide["card"].to_list() == ["d", "b", "a", "c"]
    assert wide["mc"].to_list() == [None, None, 1.0, 1.1]


def test_ladder_findings_say_when_the_top_is_not_settled_and_no_pair_is_apart() -> None:
    close = [("mc", 10.0, -5.0, 25.0), ("greedy", 0.0, -12.0, 12.0), ("random", -10.0, -20.0, 2.0)]
    even = [("mc", "greedy", 500, 1.02, 0.95, 1.09), ("greedy", "mc", 500, 0.98, 0.91, 1.05)]
    lines = ladder_page.findings(ladder_outcome(close, even))
    assert lines[1] == (
        "Strongest: mc (its interval overlaps greedy's: the top is not settled); weakest: "
        "random (its interval overlaps greedy's: the bottom is not settled)."
    )
    assert lines[2] == "Head to head: every pair's 95% interval includes even (1.0)."


# --- tune --------------------------------------------------------------------------------------


def tune_outcome(tuned: tuple[float, float, float], default: tuple[float, float, float]) -> NS:
    validation = pl.DataFrame(
        [("greedy-tuned", 1000, *tuned), ("greedy-default", 1000, *default)],
        schema=["policy", "n", "ws", "ws_lo", "ws_hi"],
        orient="row",
    )
    return NS(
        request=NS(base="greedy", against=None, players=4, validation_games=None, n_games=1000),
        trial=7,
        weight_names=("gain", "harm", "deny"),
        default=(1.0, 2.0, 0.0),
        tuned=NS(name="greedy-tuned", weights=(1.5, 2.0, 0.25)),
        validation=validation,
    )


def test_tune_findings_gain_with_its_interval_validated() -> None:
    lines = tune_page.findings(tune_outcome((1.20, 1.10, 1.30), (1.00, 0.92, 1.08)))
    # deny moved from 0 (no relative change) and gain by +50%; harm is unchanged
    assert lines[0] == (
        "Best weights (trial 7) against the default greedy: 2 of 3 changed, the most: "
        "deny 0 → 0.25, gain 1 → 1.5 (+50%)."
    )
    # Newcombe from the intervals: 0.2 ± hypot(0.10, 0.08) below, hypot(0.10, 0.08) above
    half = math.hypot(0.10, 0.08)
    lo, hi = 0.2 - half, 0.2 + half
    assert lines[1] == (
        "Win share on 1,000 fresh games against 3 greedy seats: greedy-tuned 1.200 [1.100, "
        "1.300], default greedy 1.000 [0.920, 1.080] (same seat, same deals); gain +0.200 "
        f"[+{lo:.3f}, +{hi:.3f}] (Newcombe 95%)."
    )
    assert lines[2].startswith("Validated: the gain's interval lies above 0")


@pytest.mark.parametrize(
    ("tuned", "verdict"),
    [((1.05, 0.97, 1.13), "Not validated: the gain's interval includes 0"),
     ((0.80, 0.72, 0.88), "Not validated: the gain's interval lies below 0")],
)  # fmt: skip
def test_tune_findings_not_validated(tuned: tuple, verdict: str) -> None:
    lines = tune_page.findings(tune_outcome(tuned, (1.00, 0.92, 1.08)))
    assert lines[2].startswith(verdict)


def test_tune_findings_unchanged_weights() -> None:
    o = tune_outcome((1.0, 0.92, 1.08), (1.0, 0.92, 1.08))
    o.tuned = NS(name="greedy-tuned", weights=o.default)
    lines = tune_page.findings(o)
    assert lines[0] == "Best weights (trial 7): the default greedy weights, unchanged."
    assert lines[1] == (
        "Win share of the default greedy weights on 1,000 fresh games against 3 greedy seats: "
        "1.000 [0.920, 1.080]."
    )
    assert lines[2].startswith("Nothing to validate: the search kept the default weights")


# --- learn -------------------------------------------------------------------------------------


def learn_summary(vs_previous: dict | None, speeds: dict) -> dict:
    first = {
        "iteration": 0,
        "expert": "mc",
        "games": 10,
        "decisions": 100,
        "agreement": 0.5,
        "vs_heuristic": {"ws": 0.9, "lo": 0.8, "hi": 1.0},
        "games_per_s": {},
    }
    second = {
        "iteration": 1,
        "expert": "mc:playouts=learned",
        "games": 10,
        "decisions": 90,
        "agreement": 0.625,
        "vs_heuristic": {"ws": 1.3, "lo": 1.2, "hi": 1.4},
        "games_per_s": speeds,
    }
    if vs_previous is not None:
        second["vs_previous"] = vs_previous
    return {"request": {"against": "greedy", "players": 3, "eval_games": 400},
            "iterations": [first, second], "best": 1}  # fmt: skip


def test_learn_findings_against_baseline_teacher_previous_and_cost() -> None:
    speeds = {"expert": 2.0, "apprentice_table": 500.0, "heuristic_table": 2000.0}
    lines = learn_page.findings(learn_summary({"ws": 1.1, "lo": 0.95, "hi": 1.25}, speeds))
    assert lines == [
        "The learned policy (iteration 1, model.toml) against 2 greedy seats, 400 games: win "
        "share 1.300 [1.200, 1.400], stronger than the greedy seats (the interval lies above "
        "1.0).",
        "Against its teacher (mc:playouts=learned): it makes the expert's choice at 62.5% of "
        "the held-out searched decisions.",
        "Against the previous iteration's apprentice: win share 1.100 [0.950, 1.250], not told "
        "apart from it (the interval includes 1.0).",
        "Cost, as measured during the run: a table with the apprentice plays 500 games/s "
        "against 2.0 games/s for the expert's self-play (250× faster); a table of greedy "
        "alone 2,000 games/s.",
    ]


def test_learn_findings_leave_out_what_was_not_measured() -> None:
    lines = learn_page.findings(learn_summary(None, {}))
    assert len(lines) == 2
    assert not any(line.startswith(("Against the previous", "Cost")) for line in lines)


# --- balance -----------------------------------------------------------------------------------


def before_after() -> pl.DataFrame:
    """Level 1 judges a, b, c with two policies; level 2 judges a and b only (c not taken
    enough: null), and a Legend that is never counted as a card."""
    rows = [
        # entity, kind, level, policy, in_band, in_band_after
        ("a", "card", 1, "greedy", True, True),
        ("a", "card", 1, "mc", False, True),  # out for one policy: out at level 1
        ("b", "card", 1, "greedy", True, False),
        ("b", "card", 1, "mc", None, None),  # not judged by mc: greedy decides
        ("c", "card", 1, "greedy", False, True),
        ("c", "card", 1, "mc", False, True),
        ("a", "card", 2, "greedy", True, True),
        ("b", "card", 2, "greedy", False, True),
        ("c", "card", 2, "greedy", None, None),
        ("king", "legend", 1, "greedy", False, False),
    ]
    return pl.DataFrame(
        rows, schema=["entity", "kind", "level", "policy", "in_band", "in_band_after"],
        orient="row",
    )  # fmt: skip


def test_band_counts_by_hand() -> None:
    counts = balance_page.band_counts(before_after())
    assert counts.rows() == [
        # level 1: before a out, b in, c out -> 1 of 3; after a in, b out, c in -> 2 of 3
        (1, 3, 1, 3, 2),
        # level 2: c not judged; before a in, b out -> 1 of 2; after both in -> 2 of 2
        (2, 2, 1, 2, 2),
    ]


def balance_outcome(edits: list, **extra: object) -> NS:
    levels = [NS(number=1, seats="greedy,mc"), NS(number=2, seats="greedy")]
    fields: dict[str, object] = {
        "request": NS(band=(0.9, 1.1), tolerance=0.1), "levels": levels,
        "out_of_band": ["a", "c"], "no_site": [], "sites": ["x"], "edits": edits,
        "meets_band": True, "validated_in_band": False, "trial": 3,
        "before_after": before_after(), "pushed_out": [], "stale_text": [],
        "verdicts": pl.DataFrame({"entity": ["a"], "before": ["out"], "after": ["in band"]}),
    }  # fmt: skip
    return NS(**(fields | extra))


def test_balance_findings_cards_in_band_before_and_after_and_stale_text() -> None:
    o = balance_outcome(["edit"], pushed_out=["b"], stale_text=["c"])
    lines = balance_page.findings(o)
    assert lines[0].startswith("Proposal: 1 edit(s), found in trial 3.")
    assert lines[1] == (
        "Cards in band on the validation seeds, before → after: level 1 (greedy,mc): 1 of 3 "
        "→ 2 of 3; level 2 (greedy): 1 of 2 → 2 of 2."
    )
    assert lines[2].startswith("Pushed out of band by the proposal")
    assert lines[2].endswith(": b.")
    assert lines[3].startswith("Rules text NOT rewritten")
    assert lines[3].endswith(": c.")
    assert lines[-1] == "Out of band in the baseline, at some level or policy (2): a, c."


def test_balance_findings_without_an_edit_or_anything_to_check() -> None:
    lines = balance_page.findings(balance_outcome([], sites=[]))
    assert lines[1] == (
        "Cards in band on the validation seeds (no edit): level 1 (greedy,mc): 1 of 3; "
        "level 2 (greedy): 1 of 2."
    )
    assert not any(line.startswith(("Pushed out", "Rules text", "Skill")) for line in lines)


def test_every_page_module_returns_its_findings_with_its_path(tmp_path: Path) -> None:
    """The tune page written from a hand-made outcome opens with the findings it returns
    (the command prints the same lines)."""
    o = tune_outcome((1.20, 1.10, 1.30), (1.00, 0.92, 1.08))
    o.request.sampling = "fixed"
    o.request.seed = 1
    o.request.game, o.request.variant = "fairy-tale", None
    o.history = [{"trial": 0, "ws": 1.0, "games": 1000}, {"trial": 1, "ws": 1.2, "games": 1000}]
    page = tune_page.write_tune_page(o, tmp_path)
    html = page.index.read_text()
    found = html[html.index('<section id="findings">') :]
    for line in page.findings:
        assert found.index(line.replace("'", "&#x27;")) < found.index("</section>")
