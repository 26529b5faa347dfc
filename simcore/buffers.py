"""A chunk's result buffers, zeroed and backed by memory before a kernel writes them.

Plain Python: no compiled code is built from this module (``simcore.kernel_hash`` leaves
it out). Fairy Tale's and DRAKO's chunk buffers come from here.
"""

from __future__ import annotations

import contextlib
import mmap
import sys
from typing import Any

import numpy as np

#: Linux ``madvise(MADV_POPULATE_WRITE)`` (5.14+; Python 3.11's ``mmap`` does not name it).
MADV_POPULATE_WRITE = 23
#: Below this many bytes the buffers are plain ``np.zeros`` (a few pages fault cheaply).
POPULATE_MIN_BYTES = 1 << 20


def zeroed_buffers(specs: list[tuple[tuple[int, ...], Any]]) -> list[np.ndarray]:
    """Zeroed C-contiguous arrays of the given (shape, dtype)s (a dtype or a numpy type). A large
    chunk's buffers share one anonymous mapping whose pages are allocated by one ``madvise``
    call before the kernel writes them: one page fault per 4 KiB page in the kernel's
    threads cost ~2.5 ms of CPU per MB on the benchmark machine, ~2 µs a game (10% of a
    greedy game), against ~0.3 ms per MB populated at once, ~0.15 ms per MB in transparent
    huge pages (``MADV_HUGEPAGE`` first, where the kernel allows it: 140 MB for 200,000
    four-player games, ~85 -> ~30 ms of system time, and the kernel writes them faster: +5%
    games per CPU-second). The first such mapping of a process can cost ~350 ms instead
    (zeroing 2 MB pages the host has to back; without huge pages ~85 ms every time): later
    chunks and ``talesim bench``'s later runs reuse the memory. Elsewhere (no ``madvise``,
    an older kernel) the pages simply fault in as they are written."""
    sizes = [int(np.prod(shape)) * np.dtype(dtype).itemsize for shape, dtype in specs]
    offsets = []
    total = 0
    for size in sizes:
        offsets.append(total)
        total += -(-size // 64) * 64  # each array 64-byte aligned
    if total < POPULATE_MIN_BYTES or not hasattr(mmap, "MAP_PRIVATE"):
        return [np.zeros(shape, dtype) for shape, dtype in specs]
    buf = mmap.mmap(-1, total, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):  # no THP: 4 KiB pages
            buf.madvise(mmap.MADV_HUGEPAGE)
        with contextlib.suppress(OSError):  # older kernel: the pages fault in when written
            buf.madvise(MADV_POPULATE_WRITE)
    return [
        np.frombuffer(buf, dtype, int(np.prod(shape)), offset).reshape(shape)
        for (shape, dtype), offset in zip(specs, offsets, strict=True)
    ]
