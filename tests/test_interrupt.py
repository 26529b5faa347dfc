"""Stopping a run and finishing it: Ctrl-C, kill -9, a full disk, a broken invariant.

The CLI tests use the toy engine in-process (a SIGINT raised while a chunk is computed
reaches the handler ``simulate`` installs). The subprocess tests run the real Fairy Tale
kernel as ``python -m cli.main simulate`` and kill or interrupt it once the manifest shows
two finished chunks; the first one compiles the kernels when the cache is cold (~70 s),
hence the generous timeouts. Every interrupted run is then resumed and compared with an
uninterrupted run of the same arguments.
"""

from __future__ import annotations

import errno
import functools
import json
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import polars as pl
import pytest
from kit import error_line, invoke, part_bytes

from talesim.simcore import runner

ROOT = Path(__file__).resolve().parents[1]
SORT_KEYS = {
    "games": ["game_id"],
    "seats": ["game_id", "seat"],
    "cards": ["game_id", "seat", "pick"],
}
TIMEOUT = 300.0  # seconds: covers a cold numba compile in the subprocess


def toy_args(out: Path, *extra: str) -> list[str]:
    return [
        *("simulate", "toy", "--games", "30", "--players", "3", "--seed", "4"),
        *("--policy", "greedy,random,collector", "--out", str(out), "--chunk-size", "8"),
        *extra,
    ]


def ctrl_c_during(
    monkeypatch: pytest.MonkeyPatch, fake: ModuleType, first_game: int, presses: int = 1
) -> None:
    """Press Ctrl-C ``presses`` times while the toy chunk at ``first_game`` is computed."""
    original = fake.simulate_arrays

    @functools.wraps(original)
    def simulate_arrays(prepared: Any, seed: int, first: int, n: int, check: bool = False) -> Any:
        if first == first_game:
            for _ in range(presses):
                signal.raise_signal(signal.SIGINT)
        return original(prepared, seed, first, n, check)

    monkeypatch.setattr(fake, "simulate_arrays", simulate_arrays)


# --- the CLI, toy engine -------------------------------------------------------------------


def test_ctrl_c_prints_how_to_resume_and_exits_130(
    fake: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = tmp_path / "whole"
    assert invoke(*toy_args(whole)).exit_code == 0

    out = tmp_path / "run"
    ctrl_c_during(monkeypatch, fake, first_game=8)
    result = invoke(*toy_args(out, "--check"))
    assert result.exit_code == 130, result.output
    last = result.stderr.strip().splitlines()[-1]
    again = (
        f"talesim simulate toy --games 30 --players 3 --seed 4 --policy greedy,random,collector "
        f"--out {shlex.quote(str(out))} --chunk-size 8 --check --resume"
    )
    assert last == f"interrupted after 2 of 4 chunks; finish with: {again}"
    assert "Traceback" not in result.output
    assert [c["done"] for c in runner.read_manifest(out)["chunks"]] == [True, True, False, False]

    monkeypatch.setattr(fake, "simulate_arrays", fake.simulate_arrays.__wrapped__)
    command = shlex.split(again)
    assert command[0] == "talesim"
    result = invoke(*command[1:])
    assert result.exit_code == 0, result.output
    assert "(16 were already done)" in result.stdout
    assert part_bytes(out) == part_bytes(whole)


def test_a_second_ctrl_c_aborts_and_still_says_how_to_resume(
    fake: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "run"
    ctrl_c_during(monkeypatch, fake, first_game=8, presses=2)
    result = invoke(*toy_args(out))
    assert result.exit_code == 130
    assert (
        result.stderr.strip()
        .splitlines()[-1]
        .startswith(
            "aborted; the chunks already written are kept; finish with: talesim simulate toy "
        )
    )
    assert runner.read_manifest(out)["status"] == "running"


def test_disk_full_is_one_line_exit_1_and_resumable(
    fake: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = tmp_path / "whole"
    assert invoke(*toy_args(whole)).exit_code == 0
    original = runner.write_part
    writes = 0

    def write_part(frame: pl.DataFrame, path: Path) -> None:
        nonlocal writes
        writes += 1
        if writes == 7:  # the first part of the 3rd chunk
            raise OSError(errno.ENOSPC, "No space left on device")
        original(frame, path)

    monkeypatch.setattr(runner, "write_part", write_part)
    out = tmp_path / "run"
    result = invoke(*toy_args(out))
    assert error_line(result, 1) == (
        f"error: cannot write {out / 'games' / 'part-00002.parquet'}: No space left on device; "
        "the run is resumable with --resume"
    )
    monkeypatch.setattr(runner, "write_part", original)
    result = invoke(*toy_args(out, "--resume"))
    assert result.exit_code == 0, result.output
    assert part_bytes(out) == part_bytes(whole)


def test_a_broken_invariant_is_one_line_exit_3(fake: ModuleType, tmp_path: Path) -> None:
    fake.broken_game = 21
    result = invoke(*toy_args(tmp_path / "run", "--check"))
    line = error_line(result, 3)
    assert line.startswith("error: seed 4, game 21: invariant 'cards conserved' broken")
    assert "talesim play toy --seed 4 --game 21" in line
    assert invoke(*toy_args(tmp_path / "unchecked")).exit_code == 0  # nobody looked


def test_check_and_backend_options_in_help() -> None:
    result = invoke("simulate", "--help")
    assert result.exit_code == 0
    for option in ("--check", "--backend", "--scheduler", "checking mode"):
        assert option in result.stdout


def test_scheduler_without_dask_backend_is_bad_input(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = invoke(*toy_args(out, "--scheduler", "tcp://127.0.0.1:8786"))
    assert error_line(result) == "error: --scheduler needs --backend dask"
    assert not out.exists()


# --- the real kernel in a subprocess: kill -9 and Ctrl-C --------------------------------------

FT_ARGS = [
    *("fairy-tale", "--games", "48000", "--players", "4", "--seed", "99"),
    *("--policy", "collector,greedy,collector,random", "--chunk-size", "400", "--threads", "1"),
]
FT_CHUNKS = 120  # ~3 s of kernel time on one thread: room to stop it halfway


def talesim(out: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "talesim.cli.main", "simulate", *FT_ARGS, "--out", str(out), *extra],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def done_chunks(out: Path) -> list[int]:
    """Indices of the chunks the manifest marks done ([] while there is no manifest)."""
    try:
        manifest = json.loads((out / "manifest.json").read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return []
    return [c["index"] for c in manifest["chunks"] if c["done"]]


def wait_for_chunks(proc: subprocess.Popen[str], out: Path, n: int) -> None:
    """Poll the manifest until ``n`` chunks are done (the run must still be going)."""
    deadline = time.monotonic() + TIMEOUT
    while len(done_chunks(out)) < n:
        assert proc.poll() is None, f"simulate ended early: {proc.communicate()}"
        assert time.monotonic() < deadline, "no chunk finished in time"
        time.sleep(0.005)


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("uninterrupted") / "run"
    proc = talesim(out, "--quiet")
    _, stderr = proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == 0, stderr
    return out


def assert_same_run(out: Path, reference: Path) -> None:
    manifest = runner.read_manifest(out)
    assert manifest["status"] == "complete"
    assert len(manifest["chunks"]) == FT_CHUNKS
    for table, keys in SORT_KEYS.items():
        a = pl.read_parquet(out / table / "part-*.parquet").sort(keys)
        b = pl.read_parquet(reference / table / "part-*.parquet").sort(keys)
        assert a.equals(b), table
    assert part_bytes(out) == part_bytes(reference)
    assert not list(out.rglob("*.tmp"))


def test_kill_9_leaves_whole_parts_and_resume_finishes(tmp_path: Path, uninterrupted: Path) -> None:
    out = tmp_path / "run"
    proc = talesim(out, "--quiet")
    try:
        wait_for_chunks(proc, out, 2)
    finally:
        proc.kill()  # SIGKILL: no handler, no cleanup
        proc.communicate(timeout=TIMEOUT)
    assert proc.returncode == -signal.SIGKILL
    done = done_chunks(out)
    assert 2 <= len(done) < FT_CHUNKS
    for table in SORT_KEYS:
        parts = sorted((out / table).glob("part-*.parquet"))  # temp files never match
        assert {f"part-{i:05d}.parquet" for i in done} <= {p.name for p in parts}
        for part in parts:  # every part on disk is whole, done or not yet recorded
            assert pl.read_parquet(part).height > 0
        assert all(p.name.startswith(".") for p in (out / table).glob("*.tmp"))

    resumed = talesim(out, "--quiet", "--resume")
    stdout, stderr = resumed.communicate(timeout=TIMEOUT)
    assert resumed.returncode == 0, stderr
    assert "were already done" in stdout
    assert_same_run(out, uninterrupted)


def test_ctrl_c_stops_cleanly_and_resume_finishes(tmp_path: Path, uninterrupted: Path) -> None:
    out = tmp_path / "run"
    proc = talesim(out, "--quiet")
    try:
        wait_for_chunks(proc, out, 2)
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=TIMEOUT)
    finally:
        proc.kill()
    assert proc.returncode == 130, stderr
    done = done_chunks(out)
    assert 2 <= len(done) < FT_CHUNKS
    last = stderr.strip().splitlines()[-1]
    prefix = f"interrupted after {len(done)} of {FT_CHUNKS} chunks; finish with: talesim simulate "
    assert last.startswith(prefix), stderr
    command = shlex.split(last.split("finish with: ", 1)[1])
    assert command[-1] == "--resume"
    assert "Traceback" not in stderr
    assert not list(out.rglob("*.tmp"))  # a clean stop leaves no temp file

    resumed = subprocess.run(
        [sys.executable, "-m", "talesim.cli.main", *command[1:]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert resumed.returncode == 0, resumed.stderr
    assert_same_run(out, uninterrupted)


def test_ctrl_c_before_anything_is_written(
    fake: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def interrupted_setup(*args: Any, **kwargs: Any) -> Any:
        raise KeyboardInterrupt

    monkeypatch.setattr(runner, "setup", interrupted_setup)
    out = tmp_path / "run"
    result = invoke(*toy_args(out))
    assert result.exit_code == 130
    assert result.stderr.strip().splitlines() == ["aborted before anything was written"]
    assert not out.exists()
