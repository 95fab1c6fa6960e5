"""Which code rendered a build's cached pages: the cache on disk is named after it.

The pages and rule columns kept beside a build (crkb/store/diskcache.py) outlive the process
that rendered them. A crkb upgraded in place (a fix to a template, to the links, to a page's
wording) must not keep serving what the former code rendered, so the cache a build's pages go
into is named after the code that renders them: the package's source and the templates.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
from pathlib import Path

from crkb.config import PROJECT_ROOT

_SOURCES = frozenset({".py", ".html", ".css", ".js", ".json", ".tsv"})


@functools.cache
def signature() -> str:
    """A digest of every source file of the package and every template (read once a process:
    ~150 files, tens of milliseconds)."""
    digest = hashlib.sha256()
    for root in (Path(__file__).resolve().parent.parent, PROJECT_ROOT / "templates"):
        for path in sorted(p for p in root.rglob("*") if p.suffix in _SOURCES and p.is_file()):
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def cache_name() -> str:
    """The cache file, beside the store (in its own directory: see diskcache._make_parent), that
    this code's pages of a build are kept in."""
    return f"cache/web-{signature()}.sqlite"


def drop_former(path: Path) -> None:
    """Delete the caches beside `path` that other code rendered (a crkb upgraded in place): its
    pages are never read again, and each holds up to a few hundred megabytes. Best effort: a
    worker of the former code still writing to one loses nothing it needs."""
    for other in path.parent.glob("web*.sqlite*"):
        if not other.name.startswith(path.name):
            with contextlib.suppress(OSError):
                other.unlink()
