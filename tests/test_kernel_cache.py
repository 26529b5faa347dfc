"""numba's on-disk cache: one directory per game, keyed by the hash of its sources."""

from __future__ import annotations

import ast
import os
import shutil
import time
from pathlib import Path

import pytest

from talesim import simcore

ROOT = Path(simcore.__file__).resolve().parent


def test_each_game_caches_in_its_own_directory() -> None:
    ft = simcore.cache_dir_for(str(ROOT / "games" / "fairy_tale" / "kernel" / "game.py"))
    ft_policy = simcore.cache_dir_for(str(ROOT / "games" / "fairy_tale" / "policies.py"))
    drako = simcore.cache_dir_for(str(ROOT / "games" / "drako" / "kernel" / "game.py"))
    core = simcore.cache_dir_for(str(ROOT / "rng.py"))
    assert Path(ft).name == f"fairy_tale-{simcore.cache_key('fairy_tale')}"
    assert ft_policy == ft  # one game, one directory: its helpers compile into its kernel
    assert Path(drako).name == f"drako-{simcore.cache_key('drako')}"
    assert Path(core).name == f"core-{simcore.cache_key()}"
    assert len({ft, drako, core}) == 3


def test_a_game_hash_covers_its_package_and_the_shared_files_only() -> None:
    # Rebuild the hash by hand from the files it must cover: the shared decorators and
    # RNG plus every .py of that one game but engine.py, state_io.py and the reference/
    # package (another game's edit, or an edit of the plain-Python rulebook, must not
    # change it).
    import hashlib

    package = ROOT / "games" / "drako"
    plain = {"engine.py", "reference", "state_io.py"}
    shared = ["jit.py", "learned_score.py", "link_late.py", "rng.py"]
    assert sorted(simcore.SHARED_KERNEL_SOURCES) == shared
    files = [ROOT / name for name in shared]
    files += [p for p in package.rglob("*.py") if p.relative_to(package).parts[0] not in plain]
    assert package / "engine.py" not in files
    assert package / "reference" / "game.py" not in files
    assert package / "kernel" / "game.py" in files  # the kernel package's modules too
    assert package / "tables.py" in files  # constants are frozen into the kernel
    digest = hashlib.sha256()
    for path in sorted(set(files)):
        digest.update(str(path.relative_to(ROOT)).encode())
        digest.update(path.read_bytes())
    assert simcore.kernel_hash("drako") == digest.hexdigest()[:16]


def test_other_compile_settings_get_their_own_cache_directory(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """numba's cache index does not record the optimisation level: code compiled at -O1 (the
    test suite) must not be loaded by a process compiling at -O3 (the CLI), nor the reverse."""
    monkeypatch.delenv("NUMBA_OPT", raising=False)
    monkeypatch.delenv("NUMBA_LOOP_VECTORIZE", raising=False)
    assert simcore.compile_settings() == ""
    default = simcore.cache_key("drako")
    assert default == simcore.kernel_hash("drako")  # the CLI's directories keep their names
    monkeypatch.setenv("NUMBA_OPT", "3")
    monkeypatch.setenv("NUMBA_LOOP_VECTORIZE", "0")
    assert simcore.cache_key("drako") == default  # the defaults, spelt out
    monkeypatch.setenv("NUMBA_OPT", "1")
    assert simcore.compile_settings() == "NUMBA_OPT=1"
    at_o1 = simcore.cache_key("drako")
    monkeypatch.setenv("NUMBA_LOOP_VECTORIZE", "1")
    both = simcore.cache_key("drako")
    assert len({default, at_o1, both}) == 3
    assert at_o1 != simcore.cache_key("fairy_tale")


def test_the_test_suite_compiles_at_o1() -> None:
    assert os.environ["NUMBA_OPT"] == "1"  # tests/conftest.py, unless the caller set it
    assert simcore.cache_dir_for(str(ROOT / "rng.py")).endswith(simcore.cache_key())


@pytest.mark.parametrize("game", ["fairy_tale", "drako", "paper_tales"])
def test_compiled_code_never_imports_the_plain_python_modules(game: str) -> None:
    """The hash leaves engine.py, reference/ and state_io.py out: that is only sound
    while no module the kernel is built from imports them (at any depth)."""
    plain = set(simcore.PLAIN_PYTHON_MODULES)
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


@pytest.mark.parametrize("game", ["fairy_tale", "drako", "paper_tales"])
def test_a_rulebook_package_is_plain_python_too(game: str) -> None:
    """Every game's rulebook is a package (``reference/``, a module per phase): none of its
    files counts towards the kernel's hash, so editing a rule's readable twin keeps the
    compiled kernel."""
    package = ROOT / "games" / game
    rulebook = sorted((package / "reference").glob("*.py"))
    assert len(rulebook) > 1
    assert not (package / "reference.py").exists()
    sources = set(simcore.kernel_sources(game))
    assert not sources & set(rulebook)
    assert package / "kernel" / "game.py" in sources
    assert package / "layout.py" in sources


def test_the_decorators_compile_into_the_game_directory() -> None:
    from talesim.simcore.games.fairy_tale import kernel

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


def test_pruning_survives_a_directory_deleted_by_another_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two test workers prune at once: a directory listed by one may be gone when it reads
    its date (this failed a fresh-clone run with FileNotFoundError)."""
    for i in range(5):
        d = tmp_path / f"drako-{i:016x}"
        d.mkdir()
        t = time.time() - 24 * 3600 * (i + 1)
        os.utime(d, (t, t))
    listed = list(tmp_path.iterdir())
    shutil.rmtree(tmp_path / f"drako-{0:016x}")  # gone after the listing
    monkeypatch.setattr(Path, "iterdir", lambda self: iter(listed))
    monkeypatch.setattr(Path, "is_dir", lambda self: True)

    deleted = simcore.prune_kernel_caches(tmp_path, keep="drako-aaaaaaaaaaaaaaaa")

    assert deleted == [tmp_path / f"drako-{4:016x}"]


def test_a_process_compiles_only_while_it_holds_the_compile_lock(tmp_path: Path) -> None:
    """numba's cache is unsafe for two processes filling it at once (``simcore.jit``,
    ``_CompileLocks``): while another process holds the directory's compile lock, a process
    that calls a new function waits, compiling nothing and writing nothing into the cache;
    once the lock is released it compiles, caches and runs."""
    import fcntl
    import subprocess
    import sys

    module = tmp_path / "tiny.py"
    module.write_text(
        "from talesim.simcore.jit import alloc\n\n\n@alloc\ndef plus_one(x):\n    return x + 1\n"
    )
    script = (
        "import sys, importlib.util\n"
        f"spec = importlib.util.spec_from_file_location('tiny', {str(module)!r})\n"
        "tiny = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(tiny)\n"
        "print('calling', flush=True)\n"
        "print(tiny.plus_one(41), flush=True)\n"
    )
    base = tmp_path / "cache"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(base)}
    env.pop("TALESIM_NUMBA_CACHE_DIR", None)
    directory = base / f"core-{simcore.cache_key()}"  # a file outside games/: the shared one
    directory.mkdir(parents=True)
    fd = os.open(directory / ".compile.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)
    proc = subprocess.Popen(
        [sys.executable, "-c", script], env=env, stdout=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == "calling\n"
        time.sleep(3.0)  # compiling plus_one takes well under a second
        assert proc.poll() is None
        assert not list(directory.rglob("*.nbi"))  # nothing cached yet
    finally:
        os.close(fd)  # releases the lock
    out, _ = proc.communicate(timeout=120)
    assert proc.returncode == 0
    assert out == "42\n"
    assert list(directory.rglob("*.nbi"))  # then compiled and cached
