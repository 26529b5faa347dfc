"""``talesim learn`` end to end on a tiny budget, and a learned policy through the CLI.

* the same request writes the same model bytes whatever the thread count (every game from
  its own stream; the fit single-threaded numpy in a fixed order);
* the folder holds what the command reference lists (model, policies file naming the
  apprentice, learn.json, the recorded decisions, the page), and the page names the result;
* the apprentice plays in ``simulate`` through the policies file: the dataset names its seat
  ``apprentice`` and the manifest records the model's file and sha256;
* bad input is one ``error:`` line and writes nothing: another request in a learn folder, a
  model of another game, a game without a learned player.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import polars as pl
import pytest
from kit import error_line, invoke, ok

LEARN = [
    "learn", "fairy-tale", "--players", "3", "--games", "24", "--iterations", "2",
    "--eval-games", "150", "--expert", "mc:rollouts=2:top=3", "--hidden", "4", "--seed", "5",
    "--quiet",
]  # fmt: skip


#: What each learn run of ``learnt`` printed, by its folder.
PRINTED: dict[Path, str] = {}


@pytest.fixture(scope="module")
def learnt(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The same tiny learn request run with one and with two threads."""
    runs = []
    for threads in (1, 2):
        out = tmp_path_factory.mktemp(f"learn-{threads}")
        PRINTED[out] = ok(*LEARN, "--threads", threads, "--out", out).stdout
        runs.append(out)
    return runs[0], runs[1]


def test_the_same_request_learns_the_same_model_whatever_the_threads(
    learnt: tuple[Path, Path],
) -> None:
    one, two = learnt
    assert (one / "model.toml").read_bytes() == (two / "model.toml").read_bytes()
    a, b = (json.loads((d / "learn.json").read_text()) for d in learnt)
    strip = lambda s: [{k: v for k, v in r.items() if k != "games_per_s"} for r in s["iterations"]]  # noqa: E731
    assert strip(a) == strip(b)


def test_the_folder_holds_the_model_its_policies_file_and_the_page(
    learnt: tuple[Path, Path],
) -> None:
    out = learnt[0]
    summary = json.loads((out / "learn.json").read_text())
    rows = summary["iterations"]
    assert 1 <= len(rows) <= 2
    best = max(rows, key=lambda r: r["vs_heuristic"]["ws"])
    assert summary["best"] == best["iteration"]
    assert (
        (out / "model.toml")
        .read_bytes()
        .endswith(
            (out / f"iteration-{best['iteration']}" / "model.toml").read_bytes().split(b"\n", 1)[1]
        )
    )
    for r in rows:
        assert 0.0 <= r["agreement"] <= 1.0
        vs = r["vs_heuristic"]
        assert vs["lo"] <= vs["ws"] <= vs["hi"]
        frame = pl.read_parquet(out / f"iteration-{r['iteration']}" / "decisions.parquet")
        assert frame.height > 0
    assert 'base = "learned"' in (out / "policies.toml").read_text()
    page = (out / "index.html").read_text()
    assert f"iteration {best['iteration']}, model.toml" in page
    # the command prints the page's path, then the findings the page opens with
    lines = PRINTED[out].splitlines()
    found = lines[lines.index(f"page: {out / 'index.html'}") + 1 :]
    assert found[0].startswith(f"  The learned policy (iteration {best['iteration']}, model")
    assert found[1].startswith("  Against its teacher (")
    for line in found:
        assert line.strip().replace("'", "&#x27;") in page
    assert (out / "win-share.png").stat().st_size > 0


def test_the_apprentice_plays_in_simulate_and_the_manifest_records_its_model(
    learnt: tuple[Path, Path], tmp_path: Path
) -> None:
    model_dir = learnt[0]
    run = tmp_path / "run"
    ok("simulate", "fairy-tale", "--players", 3, "--games", 60, "--seed", 3,
       "--policies-file", model_dir / "policies.toml", "--policy", "apprentice,greedy,greedy",
       "--out", run, "--quiet")  # fmt: skip
    manifest = json.loads((run / "manifest.json").read_text())
    sha = hashlib.sha256((model_dir / "model.toml").read_bytes()).hexdigest()
    assert manifest["models"] == [{"file": "model.toml", "sha256": sha}]
    seats = pl.read_parquet(run / "seats")
    assert set(seats["policy"].cast(pl.String)) == {"apprentice", "greedy"}


def test_bad_learn_and_model_input_is_one_line(learnt: tuple[Path, Path], tmp_path: Path) -> None:
    out = learnt[0]
    before = (out / "learn.json").read_bytes()
    line = error_line(invoke(*LEARN, "--out", out))
    assert "holds a learn run: add --resume" in line
    line = error_line(invoke(*LEARN[:-3], "--seed", 6, "--quiet", "--resume", "--out", out))
    assert "made with other arguments: seed 5 there, 6 now" in line
    assert (out / "learn.json").read_bytes() == before

    other = tmp_path / "other.toml"
    other.write_text(
        (out / "model.toml").read_text().replace('game = "fairy-tale"', 'game = "drako"')
    )
    policies = tmp_path / "policies.toml"
    policies.write_text(
        'schema = 1\ngame = "fairy-tale"\n\n[policy.p]\nbase = "learned"\nmodel = "other.toml"\n'
    )
    args = ["simulate", "fairy-tale", "--players", 3, "--games", 5, "--seed", 1]
    line = error_line(
        invoke(
            *args,
            "--policies-file",
            policies,
            "--policy",
            "p,greedy,greedy",
            "--out",
            tmp_path / "r",
        )
    )
    assert "other.toml" in line
    assert "a 'drako' model, not a 'fairy-tale' one" in line
    assert not (tmp_path / "r").exists()
