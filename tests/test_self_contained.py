"""A fresh clone holds everything it cites: no tracked file names a path outside the
repository (the rules are in ``docs/rules/``), and every relative Markdown link resolves."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
#: What a path outside the repository looks like: the documents the project was first
#: written from, or an absolute path of the machine a file was written on.
OUTSIDE = re.compile(r"shared/reference|\.\./shared/|/work/|/home/|/root/|/Users/")
#: A Markdown link or image: ``[text](target)``; code (fenced blocks, inline spans) is
#: removed first, where ``x[i](0)`` is no link.
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
CODE = re.compile(r"```.*?```|`[^`\n]*`", re.DOTALL)
TEXT = {".py", ".md", ".toml", ".txt", ".cfg", ".ini", ".yml", ".yaml", ".json", ""}


def tracked() -> list[Path]:
    """The repository's tracked text files (``git ls-files``; skipped outside a checkout)."""
    try:
        out = subprocess.run(
            ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    files = [ROOT / line for line in out.splitlines() if line]
    return [f for f in files if f.suffix in TEXT and f.is_file()]


def test_no_tracked_file_names_a_path_outside_the_repository() -> None:
    here = Path(__file__).resolve()
    found = []
    for path in tracked():
        if path == here:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines()):
            if OUTSIDE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{n + 1}: {line.strip()[:100]}")
    assert not found, "\n".join(found)


def test_every_relative_markdown_link_resolves() -> None:
    broken = []
    for path in tracked():
        if path.suffix != ".md":
            continue
        for target in LINK.findall(CODE.sub("", path.read_text(encoding="utf-8"))):
            if re.match(r"[a-z]+:", target) or target.startswith("#"):
                continue  # a URL, a mail address or an anchor on the same page
            if not (path.parent / target.split("#", 1)[0]).exists():
                broken.append(f"{path.relative_to(ROOT)}: {target}")
    assert not broken, "\n".join(broken)
