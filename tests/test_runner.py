"""The batch runner against the toy test-double engine (tests/fake_engine.py)."""

from __future__ import annotations

import dataclasses
import errno
import functools
import json
import signal
import sys
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from kit import manifest, part_bytes, read_table, toy_run

from talesim import simcore
from talesim.simcore import registry, runner
from talesim.simcore.cards import CardDataError
from talesim.simcore.registry import GameError, InvariantError
from talesim.simcore.runner import (
    Chunk,
    RunDirError,
    RunError,
    RunInterrupted,
    RunWriteError,
    plan_chunks,
)

TABLES = ("games", "seats", "cards")


def stray_files(out: Path) -> list[Path]:
    """Files in a run dir that are neither the manifest, a finished part nor the run's copy
    of its card data."""
    kept = manifest(out).get("card_copies", ()) if (out / "manifest.json").is_file() else ()
    return [
        p
        for p in out.rglob("*")
        if p.is_file()
        and p.name != "manifest.json"
        and not p.match("part-*.parquet")
        and str(p.relative_to(out)) not in kept
    ]


# --- chunk plan ----------------------------------------------------------------------------


def test_plan_chunks_splits_into_contiguous_ranges() -> None:
    assert plan_chunks(10, 3) == [Chunk(0, 0, 3), Chunk(1, 3, 3), Chunk(2, 6, 3), Chunk(3, 9, 1)]
    assert plan_chunks(5, 5) == [Chunk(0, 0, 5)]
    assert plan_chunks(1, 50_000) == [Chunk(0, 0, 1)]


@given(n=st.integers(1, 5000), k=st.integers(1, 600))
def test_plan_chunks_cover_every_game_once(n: int, k: int) -> None:
    chunks = plan_chunks(n, k)
    assert [c.index for c in chunks] == list(range(len(chunks)))
    assert len(chunks) == -(-n // k)
    ids = [g for c in chunks for g in range(c.first_game, c.first_game + c.n_games)]
    assert ids == list(range(n))
    assert all(c.first_game == c.index * k and 1 <= c.n_games <= k for c in chunks)


def test_plan_chunks_rejects_bad_sizes() -> None:
    with pytest.raises(RunError, match="chunk size"):
        plan_chunks(10, 0)
    with pytest.raises(RunError, match="games"):
        plan_chunks(0, 10)


def test_expand_policies() -> None:
    assert runner.expand_policies("greedy", 3) == ["greedy"] * 3
    assert runner.expand_policies("greedy, random", 2) == ["greedy", "random"]
    assert runner.expand_policies(["random", "greedy"], 2) == ["random", "greedy"]
    with pytest.raises(GameError, match=r"2 policies given .* for 3 players"):
        runner.expand_policies("greedy,random", 3)
    with pytest.raises(GameError, match="empty policy"):
        runner.expand_policies("greedy,", 2)


# --- the dataset -----------------------------------------------------------------------


def test_run_writes_parts_and_result(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = toy_run(out, n_games=50, chunk_size=7)
    assert result.out == out
    assert (result.games, result.n_games, result.resumed_games) == (50, 50, 0)
    assert result.seconds > 0
    assert result.games_per_s == pytest.approx(50 / result.seconds)
    for table in TABLES:
        names = sorted(p.name for p in (out / table).iterdir())
        assert names == [f"part-{i:05d}.parquet" for i in range(8)]
    games = read_table(out, "games")
    assert games["game_id"].to_list() == list(range(50))
    seats = read_table(out, "seats")
    assert seats.height == 150
    assert seats.group_by("game_id").agg(pl.col("win").sum())["win"].round(
        9
    ).unique().to_list() == [1.0]
    assert read_table(out, "cards").height == 50 * 3 * fake.PICKS
    assert fake.calls == [(i * 7, min(7, 50 - i * 7)) for i in range(8)]
    assert fake.warmups == 1


def test_parts_use_zstd_and_keep_statistics(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    toy_run(out, n_games=20, chunk_size=20)
    raw = (out / "games" / "part-00000.parquet").read_bytes()
    assert raw[:4] == b"PAR1"
    # statistics let a filter on game_id skip the part without reading it
    lazy = pl.scan_parquet(out / "games" / "part-*.parquet").filter(pl.col("game_id") > 100)
    assert lazy.collect().height == 0
    frame = pl.read_parquet(out / "games" / "part-00000.parquet")
    assert frame.schema["game_id"] == pl.Int64


def test_default_chunk_size_is_capped_at_n_games(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    toy_run(out, n_games=30, chunk_size=None)
    m = manifest(out)
    assert m["chunk_size"] == 30
    assert len(m["chunks"]) == 1
    assert runner.DEFAULT_CHUNK_SIZE == 50_000


@pytest.mark.parametrize("chunk_size", [7, 50, 120])
def test_same_data_whatever_the_chunk_size(
    fake: ModuleType, tmp_path: Path, chunk_size: int
) -> None:
    reference = tmp_path / "one-chunk"
    toy_run(reference, n_games=120, chunk_size=120)
    out = tmp_path / f"chunks-{chunk_size}"
    toy_run(out, n_games=120, chunk_size=chunk_size)
    for table in TABLES:
        a = read_table(reference, table)
        b = read_table(out, table)
        keys = [c for c in ("game_id", "seat", "pick") if c in a.columns]
        assert a.sort(keys).equals(b.sort(keys)), table


def test_the_tables_of_a_chunk_are_built_on_the_writer_thread(
    fake: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``simulate_arrays`` on this thread, ``frames`` on the writer: the next chunk's kernel
    runs while the writer builds this chunk's tables; the parts are the same."""
    whole = tmp_path / "whole"
    toy_run(whole)
    builders: list[str] = []
    original = fake.frames

    def frames(prepared: Any, a: dict[str, Any], first: int) -> Any:
        builders.append(threading.current_thread().name)
        return original(prepared, a, first)

    monkeypatch.setattr(fake, "frames", frames)
    out = tmp_path / "arrays"
    toy_run(out)
    assert part_bytes(out) == part_bytes(whole)
    assert len(builders) == 8
    assert all(b.startswith("talesim-writer") for b in builders)
    assert threading.current_thread().name not in builders


def test_a_bad_table_from_frames_fails_the_run_and_keeps_the_chunks_before(
    fake: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = fake.frames

    def frames(prepared: Any, a: dict[str, Any], first: int) -> Any:
        return {k: v for k, v in original(prepared, a, first).items() if first < 14 or k != "cards"}

    monkeypatch.setattr(fake, "frames", frames)
    out = tmp_path / "run"
    with pytest.raises(RuntimeError, match="returned tables"):
        toy_run(out)
    assert [c["done"] for c in manifest(out)["chunks"]][:2] == [True, True]
    assert not manifest(out)["chunks"][2]["done"]
    assert not stray_files(out)


def test_a_run_keeps_a_copy_of_its_card_data(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    toy_run(out)
    m = manifest(out)
    assert m["card_copies"] == runner.card_copy_names(m["card_files"])
    for source, copy in zip(m["card_files"], m["card_copies"], strict=True):
        assert copy.startswith("card-data/")
        assert (out / copy).read_bytes() == Path(source).read_bytes()
    assert runner.card_copy_names(["a/cards.toml", "b/cards.toml", "c/x.toml"]) == [
        "card-data/0-cards.toml", "card-data/1-cards.toml", "card-data/2-x.toml"
    ]  # fmt: skip


def test_different_seeds_give_different_games(fake: ModuleType, tmp_path: Path) -> None:
    toy_run(tmp_path / "a", seed=1)
    toy_run(tmp_path / "b", seed=2)
    assert not read_table(tmp_path / "a", "cards").equals(read_table(tmp_path / "b", "cards"))


def test_rotate_seats_moves_policies(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    toy_run(out, n_games=6, rotate_seats=True, policies="greedy,random,collector")
    seats = read_table(out, "seats").filter(pl.col("seat") == 0)
    assert seats["policy"].to_list() == ["greedy", "random", "collector"] * 2
    assert manifest(out)["rotate_seats"] is True


def test_manifest_contents(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    toy_run(out, n_games=20, chunk_size=8, seed=99, variant="basic")
    m = manifest(out)
    assert m["version"] == simcore.__version__
    assert (m["game"], m["variant"], m["players"], m["seed"]) == ("toy", "basic", 3, 99)
    assert m["policies"] == ["greedy", "random", "collector"]
    assert (m["n_games"], m["chunk_size"], m["rotate_seats"]) == (20, 8, False)
    assert m["card_files"] == [str(fake.DEFAULT_CARDS)]
    assert m["card_sha256"] == fake.load_cards().sha256
    assert m["config"]["variant"] == "basic"
    assert m["config"]["sky_double"] is False
    assert m["tables"] == list(TABLES)
    assert m["status"] == "complete"
    assert m["created"] <= m["finished"]
    assert m["simulation_seconds"] >= 0
    assert [(c["index"], c["first_game"], c["n_games"]) for c in m["chunks"]] == [
        (0, 0, 8),
        (1, 8, 8),
        (2, 16, 4),
    ]
    assert all(c["done"] for c in m["chunks"])
    assert m["chunks"][2]["rows"] == {"games": 4, "seats": 12, "cards": 4 * 3 * fake.PICKS}
    assert m["simulation_seconds"] == pytest.approx(sum(c["seconds"] for c in m["chunks"]))


def test_atomic_writes_leave_no_temp_files(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    toy_run(out)
    assert stray_files(out) == []


def test_failed_part_write_leaves_no_temp_file(
    fake: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = Path.write_bytes
    writes = 0

    def flaky(self: Path, data: Any) -> int:
        nonlocal writes
        writes += 1
        if writes == 5:  # chunk 1, second table: half a file, then the disk fails
            original(self, bytes(data)[:10])
            raise OSError("disk full")
        return original(self, data)

    monkeypatch.setattr(Path, "write_bytes", flaky)
    out = tmp_path / "run"
    part = out / "seats" / "part-00001.parquet"
    with pytest.raises(RunWriteError, match=rf"^cannot write {part}: disk full; .* --resume$"):
        toy_run(out, n_games=30, chunk_size=10)
    assert stray_files(out) == []
    assert not (out / "seats" / "part-00001.parquet").exists()
    m = manifest(out)
    assert m["status"] == "running"
    assert [c["done"] for c in m["chunks"]] == [True, False, False]


# --- resume ------------------------------------------------------------------------------


def test_resume_after_a_crash_equals_an_uninterrupted_run(
    fake: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = tmp_path / "whole"
    toy_run(whole, n_games=50, chunk_size=7)

    out = tmp_path / "crashed"
    fake.reset()
    monkeypatch.setattr(fake, "fail_at_first_game", 14)  # chunk 2
    with pytest.raises(RuntimeError, match="injected failure"):
        toy_run(out, n_games=50, chunk_size=7)
    m = manifest(out)
    assert m["status"] == "running"
    assert [c["done"] for c in m["chunks"]] == [True, True] + [False] * 6
    assert stray_files(out) == []

    fake.calls.clear()
    result = toy_run(out, n_games=50, chunk_size=None, resume=True)  # chunk size from manifest
    assert fake.calls == [(i * 7, min(7, 50 - i * 7)) for i in range(2, 8)]
    assert (result.games, result.resumed_games) == (36, 14)
    assert part_bytes(out) == part_bytes(whole)
    assert manifest(out)["status"] == "complete"
    assert all(c["done"] for c in manifest(out)["chunks"])


def test_resume_redoes_a_deleted_chunk(fake: ModuleType, tmp_path: Path) -> None:
    whole = tmp_path / "whole"
    toy_run(whole)
    out = tmp_path / "run"
    toy_run(out)
    m = manifest(out)
    m["chunks"][3]["done"] = False
    m["status"] = "running"
    (out / "manifest.json").write_text(json.dumps(m))
    (out / "cards" / "part-00003.parquet").unlink()
    # a part lost although its chunk is marked done is redone as well
    (out / "seats" / "part-00005.parquet").unlink()

    fake.calls.clear()
    toy_run(out, resume=True)
    assert fake.calls == [(21, 7), (35, 7)]
    assert part_bytes(out) == part_bytes(whole)


def test_resume_of_a_complete_run_does_nothing(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    toy_run(out)
    before = part_bytes(out)
    fake.reset()
    result = toy_run(out, resume=True)
    assert (result.games, result.resumed_games) == (0, 50)
    assert fake.calls == []
    assert fake.warmups == 0
    assert part_bytes(out) == before


def _other_game(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fake: ModuleType
) -> dict[str, Any]:
    """A second game (same engine) named toy2."""
    monkeypatch.setitem(
        registry.GAMES, "toy2", dataclasses.replace(registry.GAMES["toy"], name="toy2")
    )
    return {"game": "toy2"}


def _other_cards(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fake: ModuleType
) -> dict[str, Any]:
    """A card file with one value changed."""
    cards = tmp_path / "cards.toml"
    cards.write_text(fake.DEFAULT_CARDS.read_text().replace("value = 5", "value = 6"))
    return {"cards_path": cards}


def _other_rules(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fake: ModuleType
) -> dict[str, Any]:
    """The engine's rule options changed since the run started (e.g. an edited rules file)."""
    original = fake.Prepared.config
    monkeypatch.setattr(fake.Prepared, "config", lambda self: {**original(self), "rounds": 3})
    return {}


def _other_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fake: ModuleType
) -> dict[str, Any]:
    """A policies file now defines a seat's named policy with other weights."""
    named = {"greedy-tuned": {"base": "greedy", "weights": [0.5]}}
    monkeypatch.setattr(runner, "_named_record", lambda prepared: named)
    return {}


def _other_model(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, fake: ModuleType
) -> dict[str, Any]:
    """A learned seat's model file now holds other weights."""
    models = [{"file": "model.toml", "sha256": "0" * 64}]
    monkeypatch.setattr(runner, "_models_record", lambda prepared: models)
    return {}


# Every manifest key that determines the data, and a request that changes only it.
RESUME_CHANGES: dict[str, Any] = {
    "game": _other_game,
    "variant": {"variant": "basic"},
    "players": {"players": 4, "policies": "greedy,random,collector,greedy"},
    "policies": {"policies": "greedy"},
    "rotate_seats": {"rotate_seats": True},
    "seed": {"seed": 12},
    "n_games": {"n_games": 49},  # fewer than stored (more extends a complete run)
    "chunk_size": {"chunk_size": 8},
    "card_sha256": _other_cards,
    "config": _other_rules,
    "named_policies": _other_named,
    "models": _other_model,
}


def test_resume_keys_are_all_tested() -> None:
    assert set(RESUME_CHANGES) == set(runner.RESUME_KEYS)


@pytest.mark.parametrize("key", list(RESUME_CHANGES))
def test_resume_refuses_a_different_request(
    fake: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, key: str
) -> None:
    out = tmp_path / "run"
    toy_run(out)
    before = part_bytes(out)
    before_manifest = manifest(out)
    change = RESUME_CHANGES[key]
    overrides = change(monkeypatch, tmp_path, fake) if callable(change) else change
    fake.calls.clear()
    with pytest.raises(
        RunDirError,
        match=rf"^cannot resume {out}: {key} is .* in the manifest but .* was requested$",
    ):
        toy_run(out, resume=True, **overrides)
    assert part_bytes(out) == before
    assert manifest(out) == before_manifest
    assert fake.calls == []


def test_resume_may_change_check_backend_and_threads(fake: ModuleType, tmp_path: Path) -> None:
    """Only what determines the data must match: --check, the backend and threads may not."""
    whole = tmp_path / "whole"
    toy_run(whole)
    out = tmp_path / "run"
    fake.fail_at_first_game = 21
    with pytest.raises(RuntimeError, match="injected failure"):
        toy_run(out, check=False)
    assert manifest(out)["check"] is False
    fake.checks.clear()
    toy_run(out, resume=True, check=True, threads=1)
    assert fake.checks == [True] * 5
    m = manifest(out)
    assert m["check"] is True
    assert [c["checked"] for c in m["chunks"]] == [False] * 3 + [True] * 5
    assert part_bytes(out) == part_bytes(whole)


def test_resume_needs_a_run_dir(fake: ModuleType, tmp_path: Path) -> None:
    with pytest.raises(RunDirError, match=r"cannot resume: .* \(no manifest.json\)"):
        toy_run(tmp_path / "missing", resume=True)
    assert not (tmp_path / "missing").exists()
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "manifest.json").write_text("{not json")
    with pytest.raises(RunDirError, match="not a readable manifest"):
        toy_run(bad, resume=True)


# --- output directory rules --------------------------------------------------------------


def test_existing_run_needs_resume_or_overwrite(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    toy_run(out)
    with pytest.raises(RunDirError, match=r"use --resume .* or --overwrite"):
        toy_run(out)


def test_empty_existing_dir_is_fine(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    out.mkdir()
    toy_run(out)
    assert manifest(out)["status"] == "complete"


def test_overwrite_replaces_a_run_but_keeps_foreign_files(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    toy_run(out, n_games=50, chunk_size=7)
    (out / "notes.txt").write_text("mine")
    toy_run(out, n_games=10, chunk_size=5, overwrite=True)
    assert sorted(p.name for p in (out / "games").iterdir()) == [
        "part-00000.parquet",
        "part-00001.parquet",
    ]
    assert read_table(out, "games").height == 10
    assert manifest(out)["n_games"] == 10
    assert (out / "notes.txt").read_text() == "mine"


def test_overwrite_refuses_a_directory_that_is_not_a_run(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "precious"
    out.mkdir()
    (out / "thesis.tex").write_text("do not delete")
    with pytest.raises(RunDirError, match=r"refusing to overwrite .* no manifest\.json"):
        toy_run(out, overwrite=True)
    assert [p.name for p in out.iterdir()] == ["thesis.tex"]


def test_an_overwrite_killed_before_its_manifest_can_be_run_again(
    fake: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Killed after the old run is cleared and before the new manifest is written, the
    directory holds only leftovers of the start (no parts, no card copy, maybe a temp
    file): the same command runs again, where a foreign directory is still refused."""
    out = tmp_path / "run"
    toy_run(out, n_games=20, chunk_size=5)
    assert (out / runner.CARD_COPIES).is_dir()

    def killed(where: Path, manifest: dict) -> None:
        (where / ".manifest.json.123.tmp").write_text("{")
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(runner, "write_manifest", killed)
        with pytest.raises(KeyboardInterrupt):
            toy_run(out, n_games=10, chunk_size=5, overwrite=True)
    assert not (out / "manifest.json").exists()
    assert not (out / runner.CARD_COPIES).exists()
    assert not list(out.rglob("part-*.parquet"))
    toy_run(out, n_games=10, chunk_size=5, overwrite=True)
    assert manifest(out)["n_games"] == 10
    assert read_table(out, "games").height == 10


def test_out_that_is_a_file_is_refused(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "file"
    out.write_text("x")
    with pytest.raises(RunDirError, match="not a directory"):
        toy_run(out)


def test_a_non_empty_directory_that_is_not_a_run_is_refused(
    fake: ModuleType, tmp_path: Path
) -> None:
    out = tmp_path / "precious"
    out.mkdir()
    (out / "thesis.tex").write_text("do not delete")
    with pytest.raises(RunDirError, match=r"already exists and is not empty; use --resume"):
        toy_run(out)
    with pytest.raises(RunDirError, match=r"cannot resume: .* \(no manifest\.json\)"):
        toy_run(out, resume=True)
    assert [p.name for p in out.iterdir()] == ["thesis.tex"]


def test_a_run_of_other_arguments_is_refused_unless_overwrite(
    fake: ModuleType, tmp_path: Path
) -> None:
    out = tmp_path / "run"
    toy_run(out, seed=1)
    before = part_bytes(out)
    with pytest.raises(RunDirError, match="already exists and is not empty"):
        toy_run(out, seed=2)
    with pytest.raises(RunDirError, match="seed is 1 in the manifest but 2 was requested"):
        toy_run(out, seed=2, resume=True)
    assert part_bytes(out) == before
    toy_run(out, seed=2, overwrite=True)
    assert manifest(out)["seed"] == 2
    expected = tmp_path / "expected"
    toy_run(expected, seed=2)
    assert part_bytes(out) == part_bytes(expected)


def test_resume_and_overwrite_exclude_each_other(fake: ModuleType, tmp_path: Path) -> None:
    with pytest.raises(RunError, match="cannot be combined"):
        toy_run(tmp_path / "run", resume=True, overwrite=True)


@pytest.mark.parametrize(
    ("overrides", "error", "message"),
    [
        ({"game": "nope"}, GameError, "unknown game 'nope'"),
        ({"variant": "nightmare"}, GameError, "no variant 'nightmare'"),
        ({"players": 6, "policies": "greedy"}, GameError, "2-5 players, not 6"),
        ({"variant": "basic", "players": 5, "policies": "greedy"}, GameError, "not 5"),
        ({"policies": "greedy,bluffer,random"}, GameError, "unknown policy 'bluffer'"),
        ({"policies": "greedy,random"}, GameError, "2 policies given"),
        ({"seed": -1}, RunError, "seed must be"),
        ({"seed": 2**63}, RunError, "seed must be"),
        ({"n_games": 0}, RunError, "games must be at least 1"),
        ({"chunk_size": 0}, RunError, "chunk size must be at least 1"),
        ({"threads": 0}, RunError, "threads must be at least 1"),
        ({"threads": 10_000}, RunError, "threads must be at most"),
        ({"cards_path": "missing.toml"}, CardDataError, "missing.toml: file not found"),
        ({"backend": "spark"}, RunError, "backend must be one of local, dask, got 'spark'"),
        ({"scheduler": "tcp://127.0.0.1:8786"}, RunError, "--scheduler needs --backend dask"),
        ({"backend": "dask", "threads": 0}, RunError, "threads must be at least 1"),
        (
            {"backend": "dask", "threads": 2, "scheduler": "tcp://127.0.0.1:8786"},
            RunError,
            "--threads sets the number of workers of a local Dask cluster",
        ),
    ],
)
def test_bad_input_creates_nothing(
    fake: ModuleType,
    tmp_path: Path,
    overrides: dict[str, Any],
    error: type[Exception],
    message: str,
) -> None:
    out = tmp_path / "run"
    with pytest.raises(error, match=message):
        toy_run(out, **overrides)
    assert not out.exists()
    assert fake.calls == []


def test_malformed_card_file_creates_nothing(fake: ModuleType, tmp_path: Path) -> None:
    cards = tmp_path / "cards.toml"
    cards.write_text(fake.DEFAULT_CARDS.read_text().replace('"sky"', '"space"', 1))
    out = tmp_path / "run"
    with pytest.raises(CardDataError, match=r"card 'owl': field 'faction': must be one of"):
        toy_run(out, cards_path=cards)
    assert not out.exists()


def test_threads_are_set_for_the_run_and_restored(fake: ModuleType, tmp_path: Path) -> None:
    import numba

    before = numba.get_num_threads()
    toy_run(tmp_path / "run", threads=1)
    assert numba.get_num_threads() == before
    assert manifest(tmp_path / "run")["status"] == "complete"


def test_progress_bar_on_a_terminal(
    fake: ModuleType,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(runner, "_stderr_is_tty", lambda: True)
    toy_run(tmp_path / "run", progress=True)
    assert "50/50" in capsys.readouterr().err
    toy_run(tmp_path / "quiet", progress=False)
    assert capsys.readouterr().err == ""


def test_play_replays_the_stored_game(fake: ModuleType, tmp_path: Path) -> None:
    out = tmp_path / "run"
    toy_run(out, n_games=20, seed=5)
    s = runner.setup(
        "toy", variant=None, players=3, policies="greedy,random,collector", rotate_seats=False
    )
    final = s.engine.play(s.prepared, 5, 13)[-1]
    seats = read_table(out, "seats").filter(pl.col("game_id") == 13).sort("seat")
    assert seats["score"].to_list() == final["scores"]


def test_dask_backend_without_dask_installed(
    fake: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    out = tmp_path / "run"
    with pytest.raises(
        RunError, match=r"^--backend dask needs the dask extra: pip install 'talesim\[dask\]'$"
    ):
        toy_run(out, backend="dask")
    assert not out.exists()
    assert fake.calls == []


# --- write errors ------------------------------------------------------------------------


def test_disk_full_on_a_part_leaves_a_resumable_run(
    fake: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = tmp_path / "whole"
    toy_run(whole, n_games=50, chunk_size=7)

    original = runner.write_part
    full = errno.ENOSPC

    def write_part(frame: pl.DataFrame, path: Path) -> None:
        if path.name == "part-00002.parquet" and path.parent.name == "cards":  # 3rd chunk
            raise OSError(full, "No space left on device")
        original(frame, path)

    monkeypatch.setattr(runner, "write_part", write_part)
    out = tmp_path / "run"
    part = out / "cards" / "part-00002.parquet"
    with pytest.raises(RunWriteError) as caught:
        toy_run(out, n_games=50, chunk_size=7)
    assert str(caught.value) == (
        f"cannot write {part}: No space left on device; the run is resumable with --resume"
    )
    assert caught.value.path == part
    assert isinstance(caught.value.__cause__, OSError)
    m = manifest(out)
    assert m["status"] == "running"
    assert [c["done"] for c in m["chunks"]] == [True, True] + [False] * 6
    assert not part.exists()
    assert stray_files(out) == []

    monkeypatch.setattr(runner, "write_part", original)
    fake.calls.clear()
    toy_run(out, n_games=50, chunk_size=7, resume=True)
    assert fake.calls[0] == (14, 7)
    assert part_bytes(out) == part_bytes(whole)


def test_a_failed_manifest_write_leaves_the_chunk_not_done(
    fake: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = runner.write_manifest
    writes = 0

    def write_manifest(out: Path, data: dict[str, Any]) -> None:
        nonlocal writes
        writes += 1
        if writes == 3:  # the start, chunk 0, then chunk 1's
            raise PermissionError(errno.EACCES, "Permission denied")
        original(out, data)

    monkeypatch.setattr(runner, "write_manifest", write_manifest)
    out = tmp_path / "run"
    with pytest.raises(
        RunWriteError,
        match=rf"^cannot write {out / 'manifest.json'}: Permission denied; the run is resumable",
    ):
        toy_run(out, n_games=30, chunk_size=10)
    assert [c["done"] for c in manifest(out)["chunks"]] == [True, False, False]
    monkeypatch.setattr(runner, "write_manifest", original)
    toy_run(out, n_games=30, chunk_size=10, resume=True)
    assert read_table(out, "games")["game_id"].sort().to_list() == list(range(30))


def test_a_refused_first_manifest_leaves_nothing_behind(
    fake: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = runner.write_manifest

    def refuse(out: Path, data: dict[str, Any]) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(runner, "write_manifest", refuse)
    out = tmp_path / "run"
    with pytest.raises(RunWriteError) as caught:
        toy_run(out)
    assert str(caught.value) == f"cannot write {out / 'manifest.json'}: No space left on device"
    assert not out.exists()  # so the same command can simply be run again
    monkeypatch.setattr(runner, "write_manifest", original)
    toy_run(out)
    assert manifest(out)["status"] == "complete"


def test_an_uncreatable_run_directory_is_one_error(fake: ModuleType, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    out = blocker / "run"
    with pytest.raises(RunWriteError, match=rf"^cannot write {out}: Not a directory$"):
        toy_run(out)
    assert fake.calls == []


def test_equal_frames_give_equal_part_bytes(tmp_path: Path) -> None:
    """However a frame was assembled (here: from two record batches, as an unpickled frame
    is), its part has the same bytes; an already encoded part is written as is."""
    frame = pl.DataFrame({"game_id": list(range(1000)), "score": [g % 37 for g in range(1000)]})
    pieces = pl.concat([frame.head(400), frame.tail(600)], rechunk=False)
    assert pieces.n_chunks() == 2
    encoded = runner.encode_part(frame)
    assert encoded.rows == 1000
    assert runner.encode_part(pieces) == encoded
    runner.write_part(pieces, tmp_path / "a.parquet")
    runner.write_part(encoded, tmp_path / "b.parquet")
    assert (tmp_path / "a.parquet").read_bytes() == encoded.data
    assert (tmp_path / "b.parquet").read_bytes() == encoded.data
    assert pl.read_parquet(tmp_path / "b.parquet").equals(frame)


# --- interruption (Ctrl-C) -----------------------------------------------------------------


def ctrl_c_after_chunk(
    monkeypatch: pytest.MonkeyPatch, fake: ModuleType, first_game: int, presses: int = 1
) -> None:
    """Deliver ``presses`` SIGINTs to this process as the chunk at ``first_game`` ends
    (``fake.simulate_arrays.__wrapped__`` is the undisturbed engine)."""
    original = fake.simulate_arrays

    @functools.wraps(original)
    def simulate_arrays(prepared: Any, seed: int, first: int, n: int, check: bool = False) -> Any:
        frames = original(prepared, seed, first, n, check)
        if first == first_game:
            for _ in range(presses):
                signal.raise_signal(signal.SIGINT)
        return frames

    monkeypatch.setattr(fake, "simulate_arrays", simulate_arrays)


def test_ctrl_c_stops_after_the_current_chunk(
    fake: ModuleType,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capfd: pytest.CaptureFixture[str],
) -> None:
    whole = tmp_path / "whole"
    toy_run(whole, n_games=50, chunk_size=7)
    handler = signal.getsignal(signal.SIGINT)

    ctrl_c_after_chunk(monkeypatch, fake, first_game=14)
    out = tmp_path / "run"
    fake.calls.clear()
    with pytest.raises(RunInterrupted) as caught:
        toy_run(out, n_games=50, chunk_size=7)
    assert str(caught.value) == "interrupted after 3 of 8 chunks"
    assert (caught.value.done, caught.value.total, caught.value.out) == (3, 8, out)
    assert isinstance(caught.value, KeyboardInterrupt)
    assert fake.calls == [(0, 7), (7, 7), (14, 7)]  # the chunk being computed is finished
    assert "stopping after the chunk being computed" in capfd.readouterr().err
    assert signal.getsignal(signal.SIGINT) is handler
    m = manifest(out)
    assert m["status"] == "running"
    assert [c["done"] for c in m["chunks"]] == [True] * 3 + [False] * 5
    assert stray_files(out) == []

    monkeypatch.setattr(fake, "simulate_arrays", fake.simulate_arrays.__wrapped__)
    toy_run(out, n_games=50, chunk_size=7, resume=True)
    assert part_bytes(out) == part_bytes(whole)


def test_a_second_ctrl_c_aborts_at_once(
    fake: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ctrl_c_after_chunk(monkeypatch, fake, first_game=14, presses=2)
    handler = signal.getsignal(signal.SIGINT)
    out = tmp_path / "run"
    with pytest.raises(KeyboardInterrupt) as caught:
        toy_run(out, n_games=50, chunk_size=7)
    assert not isinstance(caught.value, RunInterrupted)
    assert signal.getsignal(signal.SIGINT) is handler
    m = manifest(out)
    assert m["status"] == "running"
    assert [c["done"] for c in m["chunks"]] == [True] * 2 + [False] * 6  # chunk 2 not stored
    assert stray_files(out) == []
    monkeypatch.setattr(fake, "simulate_arrays", fake.simulate_arrays.__wrapped__)
    toy_run(out, n_games=50, chunk_size=7, resume=True)
    assert manifest(out)["status"] == "complete"


def test_ctrl_c_during_the_last_chunk_still_completes(
    fake: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ctrl_c_after_chunk(monkeypatch, fake, first_game=49)
    out = tmp_path / "run"
    result = toy_run(out, n_games=50, chunk_size=7)
    assert result.games == 50
    assert manifest(out)["status"] == "complete"


def test_simulate_off_the_main_thread_installs_no_handler(fake: ModuleType, tmp_path: Path) -> None:
    handler = signal.getsignal(signal.SIGINT)
    errors: list[BaseException] = []

    def target() -> None:
        try:
            toy_run(tmp_path / "run")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(timeout=60)
    assert errors == []
    assert manifest(tmp_path / "run")["status"] == "complete"
    assert signal.getsignal(signal.SIGINT) is handler


def test_an_ignored_sigint_stays_ignored(
    fake: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run started with SIGINT ignored (nohup, a background job) is not interruptible."""
    ctrl_c_after_chunk(monkeypatch, fake, first_game=14)
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        result = toy_run(tmp_path / "run")
        assert signal.getsignal(signal.SIGINT) == signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)
    assert result.games == 50


# --- checking mode -----------------------------------------------------------------------


def test_check_is_passed_to_every_chunk_and_recorded(fake: ModuleType, tmp_path: Path) -> None:
    unchecked = tmp_path / "unchecked"
    toy_run(unchecked)
    assert set(fake.checks) == {False}
    assert manifest(unchecked)["check"] is False
    fake.reset()
    out = tmp_path / "checked"
    toy_run(out, check=True)
    assert fake.checks == [True] * 8
    m = manifest(out)
    assert m["check"] is True
    assert all(c["checked"] for c in m["chunks"])
    assert part_bytes(out) == part_bytes(unchecked)  # checking changes no data


def test_a_broken_invariant_stops_the_run(fake: ModuleType, tmp_path: Path) -> None:
    fake.broken_game = 17
    unchecked = tmp_path / "unchecked"
    toy_run(unchecked)  # without --check, nobody looks
    out = tmp_path / "run"
    with pytest.raises(InvariantError, match=r"^seed 11, game 17: invariant"):
        toy_run(out, check=True)
    m = manifest(out)
    assert m["status"] == "running"
    assert [c["done"] for c in m["chunks"]] == [True, True] + [False] * 6
    assert stray_files(out) == []
