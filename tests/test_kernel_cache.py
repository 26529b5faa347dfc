"""numba's on-disk cache: one directory per game, keyed by the hash of its sources."""

from __future__ import annotations

from pathlib import Path

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
    # RNG plus every .py of that one game (another game's edit must not change it).
    import hashlib

    files = [ROOT / "jit.py", ROOT / "rng.py", *(ROOT / "games" / "drako").rglob("*.py")]
    digest = hashlib.sha256()
    for path in sorted(set(files)):
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    assert simcore.kernel_hash("drako") == digest.hexdigest()[:16]


def test_the_decorators_compile_into_the_game_directory() -> None:
    from simcore.games.fairy_tale import kernel

    locator = kernel.simulate_chunk._cache._impl.locator
    assert Path(locator._cache_path).is_relative_to(simcore.cache_dir_for(kernel.__file__))
