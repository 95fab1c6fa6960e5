"""Where a build's files come from: layers of folders, single files and bundles, later ones winning.

A layer is a folder, a file, or a bundle (`*.tar.xz` with its manifest, see bundle.py); a folder
holding a bundle (the project's `corpus/`) gives the bundle's members beside its own files. Every
file has a key, its path inside its layer (`en/txt/2024-04-10.txt`, whether it lies in a folder or
in a bundle); a file in a later layer replaces the file with the same key in an earlier one, before
anything is parsed. A bundle member is named `<bundle>:<member>`
(`corpus/archive.tar.xz:en/txt/2024-04-10.txt`), so every source shown says where it came from.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path

from crkb import bundle
from crkb.config import PROJECT_ROOT
from crkb.errors import BadInput

_IGNORED_NAMES = re.compile(
    r"^(?:readme|license|licence|manifest|sources|changelog)\b|\.json$", re.I
)


MAX_BYTES = 20_000_000  # larger than any rules document (the biggest, ~1.6 MB), by far


def file_bytes(path: Path) -> bytes:
    """A source file's bytes; OSError saying why for what is no file to read whole: a pipe or a
    device (reading it would wait, or never end) or more bytes than any rules document."""
    st = path.stat()  # a symlink is followed; a loop or a missing file raises here
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, "it is a directory")
    if not stat.S_ISREG(st.st_mode):
        raise OSError(errno.EINVAL, "not a regular file (a pipe, a socket or a device)")
    if st.st_size > MAX_BYTES:
        raise OSError(errno.EFBIG, f"{st.st_size} bytes is larger than any rules document")
    with path.open("rb") as f:
        return f.read(MAX_BYTES + 1)


@dataclass(frozen=True, slots=True)
class Item:
    """One candidate file: the name shown for it, its key within its layer, its layer, and its
    bytes when it comes from a bundle (a file on disk is read where it is parsed)."""

    name: str
    key: str
    layer: int
    data: bytes | None = None

    def read(self) -> bytes:
        return self.data if self.data is not None else file_bytes(Path(self.name))

    def head(self, n: int) -> bytes:
        """The first n bytes (a file on disk is not read whole; a pipe or a device, which
        would wait or never end, not at all: its parse says why)."""
        if self.data is not None:
            return self.data[:n]
        try:
            if not stat.S_ISREG(os.stat(self.name).st_mode):
                return b""
            with open(self.name, "rb") as f:
                return f.read(n)
        except OSError:
            return b""

    def size(self) -> int:
        if self.data is not None:
            return len(self.data)
        try:
            return os.path.getsize(self.name)
        except OSError:
            return 0


@dataclass
class Discovery:
    """The files to build from, in a stable order, and what the layering replaced."""

    items: list[Item] = field(default_factory=list)
    replaced: list[tuple[str, str]] = field(default_factory=list)  # (earlier copy, its replacement)
    bundles: list[str] = field(default_factory=list)
    bundle_seconds: float = 0.0


def shown_path(path: Path, root: Path) -> str:
    """A path as the user should see it: relative to the project when inside it."""
    try:
        return path.resolve().relative_to(root).as_posix()
    except ValueError:
        return str(path)


def _ignored(name: str) -> bool:
    return name.startswith(".") or bool(_IGNORED_NAMES.search(name))


def _bundle_items(archive: Path, layer: int, root: Path, found: Discovery) -> list[Item]:
    t = time.perf_counter()
    shown = shown_path(archive, root)
    members = bundle.read(archive, shown)
    found.bundles.append(shown)
    found.bundle_seconds += time.perf_counter() - t
    return [
        Item(f"{shown}:{m.path}", m.path, layer, m.data)
        for m in members
        if not _ignored(m.path.rsplit("/", 1)[-1])
    ]


def _layer_items(entry: Path, layer: int, root: Path, found: Discovery) -> list[Item]:
    if bundle.is_bundle(entry) and (entry.is_file() or bundle.manifest_path(entry).is_file()):
        return _bundle_items(entry, layer, root, found)
    if not entry.exists():
        raise BadInput(f"{entry}: corpus directory does not exist")
    if entry.is_file():
        return [Item(str(entry), entry.name, layer)]
    items: list[Item] = []
    for here, dirs, files in os.walk(entry):
        dirs[:] = sorted(x for x in dirs if not x.startswith("."))
        for name in sorted(files):
            path = Path(here) / name
            if bundle.is_bundle(path):
                items.extend(_bundle_items(path, layer, root, found))
            elif not _ignored(name):
                items.append(Item(str(path), path.relative_to(entry).as_posix(), layer))
        # a bundle whose archive is gone but whose manifest is still here is damaged, not absent
        for name in sorted(files):
            if name.endswith(".json") and not name.startswith("."):
                archive = Path(here) / (name.removesuffix(".json") + bundle.SUFFIX)
                if not archive.exists() and _is_bundle_manifest(Path(here) / name):
                    bundle.read(archive, shown_path(archive, root))  # raises, naming it
    return items


def _is_bundle_manifest(path: Path) -> bool:
    try:
        head = path.read_bytes()[:300]
    except OSError:
        return False
    return b'"archive"' in head and bundle.SUFFIX.encode() + b'"' in head


def discover(layers: list[Path], root: Path | None = None) -> Discovery:
    """Every candidate file of the layers, lowest layer first; a later file with the same key
    replaces the earlier one (an identical copy silently)."""
    root = (root or PROJECT_ROOT).resolve()
    found = Discovery()
    by_key: dict[str, Item] = {}
    for i, entry in enumerate(layers):
        for item in _layer_items(entry, i, root, found):
            old = by_key.get(item.key)
            later = old is not None and old.name != item.name and old.layer < item.layer
            if later and old is not None and old.read() != item.read():
                found.replaced.append((old.name, item.name))
            by_key[item.key] = item
    found.items = list(by_key.values())  # first-seen order: neighbouring releases stay together
    return found
