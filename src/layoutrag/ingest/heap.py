"""Give freed C heap back to the system between pages, when there is a lot of it.

The layout model, the renderer and onnxruntime allocate and free tens of MB per page through
glibc's malloc. glibc keeps freed memory in its arenas for the next allocation, so a long document
raises a worker's resident size page after page even though the live data stays flat (measured on a
500-page datasheet: ~400 MB more than a 5-page one, of which the arena of the image-feature model is
a flat ~170 MB). ``malloc_trim(0)`` returns the free pages; calling it after every page costs the next
page its page faults (a born-digital page frees and re-uses ~50-80 MB), so it runs only when the
free heap has grown past ``TRIM_ABOVE_BYTES`` (numbers in README, "Ingest speed").

Off glibc (musl, macOS) both functions do nothing: ``free_heap_bytes`` returns None.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools

__all__ = ["TRIM_ABOVE_BYTES", "free_heap_bytes", "release_freed_memory"]

TRIM_ABOVE_BYTES = 128 * 1024 * 1024


class _MallInfo2(ctypes.Structure):
    # glibc >= 2.33, malloc.h: every field a size_t
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
                     "uordblks", "fordblks", "keepcost")
    ]


@functools.cache
def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    if not name:
        return None
    try:
        libc = ctypes.CDLL(name)
        libc.mallinfo2.restype = _MallInfo2
        libc.malloc_trim.argtypes = [ctypes.c_size_t]
        libc.malloc_trim.restype = ctypes.c_int
    except (OSError, AttributeError):  # not glibc, or a glibc older than 2.33
        return None
    return libc


def free_heap_bytes() -> int | None:
    """Bytes malloc holds free in its arenas (mallinfo2's fordblks), None off glibc."""
    libc = _libc()
    return None if libc is None else int(libc.mallinfo2().fordblks)


def release_freed_memory(trim_above: int = TRIM_ABOVE_BYTES) -> bool:
    """``malloc_trim(0)`` when more than `trim_above` bytes are free in the heap; True if it ran."""
    free = free_heap_bytes()
    if free is None or free <= trim_above:
        return False
    libc = _libc()
    assert libc is not None
    libc.malloc_trim(0)
    return True
