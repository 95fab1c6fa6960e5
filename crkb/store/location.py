"""Where a build lives, and the atomic switch from one build to the next.

`DATA/current` is a symlink to `DATA/builds/<id>/`. A build writes a new directory, then renames a
fresh symlink over `current` — one atomic step — so readers see the old build or the new one, never
a half-written one. Readers notice the switch by reading the link (a single cheap syscall).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from crkb.errors import BadInput, Interrupted, StoreError

KEEP_OLD_BUILDS = 1
# What a build directory holds besides the store (db.DB_NAME): named here once.
INDEX_DIR = "index"  # the search index
TERMS_FILE = "terms.json"  # the English → Chinese term dictionary the index was built with


def current_build(data: Path) -> Path:
    """The directory of the build being served; StoreError if there is none."""
    link = data / "current"
    try:
        target = os.readlink(link)
    except FileNotFoundError:
        raise StoreError(f"{data}: no build yet; run `crkb build`") from None
    except OSError as e:
        raise StoreError(f"{link}: not a build link ({e}); run `crkb build`") from None
    return (data / target).resolve() if not os.path.isabs(target) else Path(target)


def current_id(data: Path) -> str | None:
    """The current build's id, or None; cheap enough to call on every request."""
    return link_target(current_link(data))


def current_link(data: Path) -> str:
    """The path of the `current` link, for `link_target` (a page reads it several times)."""
    return str(data / "current")


def link_target(link: str) -> str | None:
    """What the link `link` points to (the current build's id), or None."""
    try:
        return os.readlink(link)
    except OSError:
        return None


def new_build_dir(data: Path) -> Path:
    """A fresh, empty directory for a build in progress. Made before the build does any work, so
    a data directory it cannot write in fails at once, with one line naming it (BadInput)."""
    _must_be_directory(data)
    builds = data / "builds"
    stamp = time.strftime("%Y%m%dT%H%M%S") + f"-{os.getpid()}-{time.monotonic_ns() % 100000}"
    path = builds / f".tmp-{stamp}"
    try:
        builds.mkdir(parents=True, exist_ok=True)
        path.mkdir()
    except OSError as e:
        raise cannot_write(data, e) from None
    for p in builds.iterdir():  # what a build killed outright (SIGKILL, power) left behind
        if p != path and _stale(p):
            shutil.rmtree(p, ignore_errors=True)
    return path


def _stale(p: Path) -> bool:
    """An unfinished build (`.tmp-<time>-<pid>-<n>`, or its `.preview`) whose process is gone,
    or that has not been touched for an hour."""
    if not p.name.startswith(".tmp-"):
        return False
    parts = p.name.removesuffix(".preview").split("-")
    try:
        os.kill(int(parts[2]), 0)
    except (IndexError, ValueError, ProcessLookupError):
        return True
    except PermissionError:
        pass  # a process of another user: alive
    try:
        return time.time() - p.stat().st_mtime > 3600
    except OSError:
        return False


def _must_be_directory(data: Path) -> None:
    """BadInput when `data`, or the nearest of its parents that exists, is not a directory."""
    there = next((p for p in (data, *data.parents) if p.exists() or p.is_symlink()), None)
    if there is not None and not there.is_dir():
        what = "not a directory" if there == data else f"{there} is not a directory"
        raise BadInput(f"{data}: {what}, so no build can be written there")


def cannot_write(data: Path, e: OSError) -> BadInput:
    """The one line for an OS refusal to write in the data directory (read-only, no permission):
    it names the directory that refused when that is one inside it (`builds`)."""
    refused = Path(e.filename).parent if e.filename else data
    at = "" if refused == data else f" (in {refused})"
    return BadInput(f"{data}: cannot write a build there: {e.strerror or e}{at}")


@contextmanager
def preview(data: Path, build: Path) -> Iterator[Path]:
    """A data directory whose `current` is the unpublished `build`, the rest of `data` linked in
    (the review file): what reads a data directory (the page pre-rendering) works on a build
    before it is published. Removed afterwards; a stale one goes with its `.tmp-` build."""
    view = build.with_name(build.name + ".preview")
    shutil.rmtree(view, ignore_errors=True)
    view.mkdir()
    try:
        os.symlink(build.resolve(), view / "current")
        for entry in data.iterdir():
            if entry.name not in ("current", "builds") and not entry.name.startswith("."):
                os.symlink(entry.resolve(), view / entry.name)
        yield view
    finally:
        shutil.rmtree(view, ignore_errors=True)


def publish(data: Path, tmp: Path) -> Path:
    """Make a finished build current in one atomic rename; prune builds older than the last.
    Stopped before the switch, nothing changed (the build is removed); after it, the new build
    serves, and an interrupt says so (Interrupted) instead of claiming nothing changed."""
    final = tmp.with_name(tmp.name.removeprefix(".tmp-"))
    link = os.path.join("builds", final.name)
    try:
        tmp.rename(final)
        _switch(data, link)
        _prune(data, keep=final)
    except KeyboardInterrupt:
        if current_id(data) == link:
            raise Interrupted(f"interrupted after publishing {final}, which now serves") from None
        discard(tmp)
        discard(final)
        raise
    except OSError as e:
        if current_id(data) == link:
            return final  # published; only removing an older build failed (the next build will)
        discard(tmp)
        discard(final)
        raise cannot_write(data, e) from None
    return final


def _switch(data: Path, link: str) -> None:
    """Point `current` at `link` in one atomic rename of a fresh symlink over it."""
    link_tmp = data / f".current-{os.getpid()}"
    if link_tmp.is_symlink() or link_tmp.exists():
        link_tmp.unlink()
    os.symlink(link, link_tmp)
    try:
        os.replace(link_tmp, data / "current")
    except BaseException:
        link_tmp.unlink(missing_ok=True)
        raise


def swap_in(tmp: Path, dest: Path, old_suffix: str = ".old") -> None:
    """Put the finished folder `tmp` at `dest` (a search index, a pack): the one there before is
    moved aside and removed only once the new one is in place."""
    old = dest.with_name(dest.name + old_suffix)
    if old.exists():
        shutil.rmtree(old)
    if dest.exists():
        dest.rename(old)
    tmp.rename(dest)
    if old.exists():
        shutil.rmtree(old)


def discard(tmp: Path) -> None:
    """Remove a failed build's directory; the current build is untouched."""
    shutil.rmtree(tmp, ignore_errors=True)


def _prune(data: Path, keep: Path) -> None:
    builds = sorted(
        (p for p in (data / "builds").iterdir() if p.is_dir() and p != keep),
        key=lambda p: p.stat().st_mtime,
    )
    stale_tmp = [p for p in builds if _stale(p)]
    finished = [p for p in builds if not p.name.startswith(".tmp-")]
    for p in finished[: max(0, len(finished) - KEEP_OLD_BUILDS)] + stale_tmp:
        shutil.rmtree(p, ignore_errors=True)
