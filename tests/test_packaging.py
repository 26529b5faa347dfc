"""The distribution: one import package, ``talesim``, built from the repository's folders.

The wheel is built from the tracked files alone, installed into a fresh virtual
environment (its dependencies borrowed from the test environment, talesim itself only
from the wheel) and used there as a user would: ``talesim --version``, a small simulation
and its report.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import zipfile
from pathlib import Path

import talesim

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def _import_name(folder: Path) -> str:
    """The import name of a package folder under pyproject.toml's package-dir."""
    rel = folder.relative_to(ROOT).parts
    for name, where in SETUPTOOLS["package-dir"].items():
        if rel[: len(Path(where).parts)] == Path(where).parts:
            return ".".join([name, *rel[len(Path(where).parts) :]])
    raise AssertionError(f"{folder} is under no package-dir entry")


def test_the_package_list_names_every_package_folder() -> None:
    folders = [
        p.parent
        for where in SETUPTOOLS["package-dir"].values()
        for p in (ROOT / where).rglob("__init__.py")
    ]
    assert sorted(_import_name(f) for f in folders) == sorted(SETUPTOOLS["packages"])
    assert {n.split(".")[0] for n in SETUPTOOLS["packages"]} == {"talesim"}


def test_no_module_imports_the_folders_by_their_own_names() -> None:
    """``simcore``, ``cli`` and ``reports`` exist only as ``talesim.*``: a bare import would
    load a second copy from the working directory (and no installed wheel has it)."""
    bare = ("from simcore", "import simcore", "from cli", "import cli", "from reports",
            "import reports")  # fmt: skip
    offenders = []
    for folder in ("talesim", "simcore", "cli", "reports", "tests", "benchmarks"):
        for path in (ROOT / folder).rglob("*.py"):
            for n, line in enumerate(path.read_text().splitlines(), 1):
                stripped = line.strip()
                if any(stripped == b or stripped.startswith((f"{b}.", f"{b} ")) for b in bare):
                    offenders.append(f"{path.relative_to(ROOT)}:{n}: {stripped}")
    assert offenders == []


def _tracked_copy(dest: Path) -> Path:
    files = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split("\0")
    for name in filter(None, files):
        if (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    return dest


def test_the_wheel_installs_talesim_alone_and_runs(tmp_path: Path) -> None:
    src = _tracked_copy(tmp_path / "src")
    dist = tmp_path / "dist"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "-w", str(dist), str(src)], check=True)
    (wheel,) = dist.glob("talesim-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert {n.split("/")[0] for n in names} == {
        "talesim",
        f"talesim-{talesim.__version__}.dist-info",
    }
    for data in (
        "talesim/py.typed",
        "talesim/simcore/games/fairy_tale/cards.toml",
        "talesim/simcore/games/paper_tales/cards_legends.toml",
        "talesim/simcore/games/drako/balance.toml",
    ):
        assert data in names, data
    assert any(n.startswith("talesim/simcore/games/fairy_tale/models/") for n in names)

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    bin_dir = venv / "bin"
    site = Path(
        subprocess.run(
            [bin_dir / "python", "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()
    )  # fmt: skip
    # the dependencies (numba, polars, ...) from the test environment; talesim from the wheel
    (site / "deps.pth").write_text(sysconfig.get_path("purelib") + "\n")
    subprocess.run([*pip, "--python", str(bin_dir / "python"), "install", "--no-deps", str(wheel)],
                   check=True)  # fmt: skip

    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    work = tmp_path / "work"
    work.mkdir()

    def run(*argv: str | Path) -> str:
        done = subprocess.run(
            [str(a) for a in argv], cwd=work, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    where = run(bin_dir / "python", "-c", "import talesim.simcore; print(talesim.simcore.__file__)")
    assert Path(where.strip()).is_relative_to(site)
    assert run(bin_dir / "talesim", "--version").strip().endswith(talesim.__version__)
    run(bin_dir / "talesim", "simulate", "fairy-tale", "--games", "200", "--players", "3",
        "--seed", "1", "--policy", "greedy", "--out", "run", "--quiet")  # fmt: skip
    run(bin_dir / "talesim", "report", "run", "--out", "report")
    assert (work / "report" / "index.html").is_file()
