"""numba's on-disk cache: one directory per game, keyed by the hash of its sources."""

from __future__ import annotations

import ast
import os
import time
from pathlib import Path

import pytest

import simcore

ROOT = Path(simcore.__file__).resolve().parent


def test_each_game_caches_in_its_own_directory() -> None:
    ft = simcore.cache_dir_for(str(ROOT / "games" / "fairy_tale" / "kernel.py"))
    ft_policy = simcore.cache_dir_for(str(ROOT / "games" / "fairy_tale" / "policies.py"))
    drako = simcore.cache_dir_for(str(ROOT / "games" / "drako" / "kernel.py"))
    core = simcore.cache_dir_for(str(ROOT / "rng.py"))
    assert Path(ft).name == f"fairy_tale-{simcore.kernel_hash('fairy_tale')}"
    assert ft_policy == ft  # one game, one directory: its helpers compile into its kernel
    assert Path(drako).name == f"drako-{simcore.kernel_hash('drako')}"
    assert Path(core).name == f"core-{simcore.kernel_hash()}"
    assert len({ft, drako, core}) == 3


def test_a_game_hash_covers_its_package_and_the_shared_files_only() -> None:
    # Rebuild the hash by hand from the files it must cover: the shared decorators and
    # RNG plus every .py of that one game but engine/reference/state_io (another game's
    # edit, or an edit of the plain-Python rulebook, must not change it).
    import hashlib

    package = ROOT / "games" / "drako"
    plain = {"engine.py", "reference.py", "state_io.py"}
    files = [ROOT / "jit.py", ROOT / "rng.py"]
    files += [p for p in package.rglob("*.py") if p.name not in plain]
    assert package / "kernel.py" in files
    assert package / "tables.py" in files  # constants are frozen into the kernel
    digest = hashlib.sha256()
    for path in sorted(set(files)):
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    assert simcore.kernel_hash("drako") == digest.hexdigest()[:16]


@pytest.mark.parametrize("game", ["fairy_tale", "drako", "paper_tales"])
def test_compiled_code_never_imports_the_plain_python_modules(game: str) -> None:
    """The hash leaves engine.py, reference.py and state_io.py out: that is only sound
    while no module the kernel is built from imports them (at any depth)."""
    plain = {p.removesuffix(".py") for p in simcore.PLAIN_PYTHON_MODULES}
    for path in simcore.kernel_sources(game):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                names = [node.module or ""] + [a.name for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            for name in names:
                assert name.split(".")[-1] not in plain, f"{path.name} imports {name}"


def test_the_decorators_compile_into_the_game_directory() -> None:
    from simcore.games.fairy_tale import kernel

    locator = kernel.simulate_chunk._cache._impl.locator
    assert Path(locator._cache_path).is_relative_to(simcore.cache_dir_for(kernel.__file__))


def test_stale_cache_directories_of_the_same_game_are_pruned(tmp_path: Path) -> None:
    def make(name: str, age_hours: float) -> Path:
        d = tmp_path / name
        d.mkdir()
        t = time.time() - age_hours * 3600
        os.utime(d, (t, t))
        return d

    old = [make(f"drako-{i:016x}", 24 * (i + 1)) for i in range(5)]
    fresh = make("drako-ffffffffffffffff", 0.1)  # another process may be filling it
    other_game = make("fairy_tale-0000000000000000", 999)
    legacy = [make(f"{i:016x}"[::-1], 48 * (i + 1)) for i in range(4)]

    deleted = simcore.prune_kernel_caches(tmp_path, keep="drako-aaaaaaaaaaaaaaaa")

    # drako keeps its 3 newest (fresh, old[0], old[1]); the legacy layout keeps 3 too
    assert sorted(deleted) == sorted([*old[2:], legacy[3]])
    kept = [fresh, other_game, old[0], old[1], *legacy[:3]]
    assert all(d.exists() for d in kept)
    assert not any(d.exists() for d in deleted)
