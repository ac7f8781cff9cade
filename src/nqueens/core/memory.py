"""How much memory this process may still take, to refuse a search that cannot fit before it starts.

A solver that runs out of memory under ``ulimit -v`` dies by SIGABRT, often after tens of seconds
and without a word. The engines estimate what a request needs (from measurements, in the engine
modules); this module says what there is: the address-space limit less what the process already
maps, and the machine's physical memory.
"""

from __future__ import annotations

import os
import re
from contextlib import suppress
from pathlib import Path


def headroom() -> int | None:
    """Bytes this process may still map, or None when nothing says (no limit that can be read)."""
    limits = []
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY:
            limits.append(soft - _mapped())
    except (ImportError, OSError, ValueError):
        pass
    with suppress(AttributeError, OSError, ValueError):
        limits.append(os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    return min(limits) if limits else None


def _mapped() -> int:
    """Bytes of address space this process maps now (0 where /proc cannot say)."""
    try:
        status = Path("/proc/self/status").read_text()
    except OSError:
        return 0
    match = re.search(r"VmSize:\s+(\d+) kB", status)
    return int(match.group(1)) * 1024 if match else 0


def gigabytes(size: int) -> str:
    """``size`` bytes for a message: ``2.3 GB``."""
    return f"{size / 1e9:.1f} GB"
