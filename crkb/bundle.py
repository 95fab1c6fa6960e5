"""The compressed archive shipped in corpus/: an xz tar of every document, with a SHA-256 manifest.

A bundle is two files side by side: `NAME.tar.xz` (a POSIX tar of the archive's files under their
archive paths, e.g. `en/txt/2024-04-10.txt`, compressed with LZMA2) and `NAME.json`, its manifest:
the archive's own size and sha256, then every member's path, size, sha256 and public source.
Reading verifies all of it before anything is parsed, so a damaged bundle stops a build with one
line that says what to do, and nothing is written.
"""

from __future__ import annotations

import hashlib
import io
import json
import lzma
import os
import tarfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from crkb.errors import BadInput

SUFFIX = ".tar.xz"
FORMAT = 1
# 32 MiB holds several neighbouring releases (each under 1 MB): as small as a bigger dictionary
# (measured: 8 MiB 1.39 MB, 16 MiB 1.26 MB, 32-192 MiB 1.15 MB) and it costs the reader 32 MiB.
DICT_MIB = 32
PRESET = 9 | lzma.PRESET_EXTREME
RESTORE = (
    "restore it (`git checkout -- corpus/` in a clone) or remake it"
    " (`python scripts/make_bundle.py CORPUS_DIR`)"
)


class BundleError(BadInput):
    """A bundle that is missing, damaged, or does not match its manifest."""


@dataclass(frozen=True, slots=True)
class Member:
    """One file of a bundle: its archive path and its (verified) bytes."""

    path: str
    data: bytes


def is_bundle(path: Path) -> bool:
    """A compressed archive by its name (`*.tar.xz`)."""
    return path.name.endswith(SUFFIX)


def manifest_path(archive: Path) -> Path:
    """`corpus/archive.tar.xz` → `corpus/archive.json`."""
    return archive.with_name(archive.name.removesuffix(SUFFIX) + ".json")


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def load_manifest(archive: Path) -> dict[str, Any]:
    """The manifest beside an archive; BundleError naming it when it is missing or unreadable."""
    path = manifest_path(archive)
    try:
        manifest = json.loads(path.read_text("utf-8"))
        manifest["archive"]["sha256"], manifest["archive"]["bytes"]  # noqa: B018 (shape check)
        for m in manifest["members"]:
            m["path"], m["sha256"], m["bytes"]  # noqa: B018 (shape check)
    except FileNotFoundError:
        raise BundleError(
            f"{path}: the manifest of bundle {archive} is missing; {RESTORE}"
        ) from None
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise BundleError(f"{path}: not a bundle manifest ({e!r}); {RESTORE}") from None
    return manifest  # type: ignore[no-any-return]  # JSON: checked field by field above


def read(archive: Path, shown: str | None = None) -> list[Member]:
    """Every member of a bundle, in archive order, each checked against the manifest."""
    name = shown or str(archive)
    manifest = load_manifest(archive)
    want = manifest["archive"]
    try:
        blob = archive.read_bytes()
    except FileNotFoundError:
        raise BundleError(
            f"{name}: the bundled archive is missing (its manifest {manifest_path(archive).name}"
            f" is there); {RESTORE}, or build without it (--no-bundled)"
        ) from None
    except OSError as e:
        raise BundleError(f"{name}: cannot read: {e.strerror or e}; {RESTORE}") from None
    if len(blob) < int(want["bytes"]):
        raise BundleError(f"{name}: truncated ({len(blob)} of {want['bytes']} bytes); {RESTORE}")
    got = sha256(blob)
    if got != want["sha256"] or len(blob) != int(want["bytes"]):
        raise BundleError(
            f"{name}: damaged: sha256 {got[:12]}… where its manifest says {want['sha256'][:12]}…;"
            f" {RESTORE}"
        )
    members = _unpack(blob, name)
    listed = {m["path"]: m for m in manifest["members"]}
    for path in listed.keys() - {m.path for m in members}:
        raise BundleError(
            f"{name}: member {path} is missing (listed in {manifest_path(archive).name});"
            f" remake the bundle (scripts/make_bundle.py) or {RESTORE.split(' or ')[0]}"
        )
    for m in members:
        entry = listed.get(m.path)
        if entry is None:
            raise BundleError(
                f"{name}:{m.path}: not in the manifest {manifest_path(archive).name};"
                " remake the bundle (scripts/make_bundle.py)"
            )
        if len(m.data) != int(entry["bytes"]) or sha256(m.data) != entry["sha256"]:
            raise BundleError(
                f"{name}:{m.path}: its bytes do not match the manifest's sha256; {RESTORE}"
            )
    return members


def _unpack(blob: bytes, name: str) -> list[Member]:
    """The regular files of an xz tar, read as a stream (the archive is never written out)."""
    out: list[Member] = []
    try:
        with (
            lzma.open(io.BytesIO(blob)) as xz,
            tarfile.open(fileobj=xz, mode="r|") as tar,  # a stream: read once, in order
        ):
            for info in tar:
                if not info.isfile():
                    continue
                f = tar.extractfile(info)
                if f is not None:
                    out.append(Member(info.name, f.read()))
    except (lzma.LZMAError, tarfile.TarError, EOFError, OSError) as e:
        raise BundleError(f"{name}: cannot be unpacked ({e}); {RESTORE}") from None
    return out


def make(
    source: Path, archive: Path, sources: dict[str, str] | None = None, preset: int = PRESET
) -> dict[str, Any]:
    """Pack every file under `source` (sorted by path, so neighbouring releases compress against
    each other) into `archive` and write its manifest; the same files always give the same bytes.
    (A lower `preset` packs faster and worse: for quick throwaway bundles.)"""
    files = _files(source)
    if not files:
        raise BadInput(f"{source}: no files to bundle")
    raw = io.BytesIO()
    members: list[dict[str, Any]] = []
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for rel in files:
            data = (source / rel).read_bytes()
            info = tarfile.TarInfo(rel)
            info.size, info.mode, info.mtime = len(data), 0o644, 0
            tar.addfile(info, io.BytesIO(data))
            entry: dict[str, Any] = {"path": rel, "bytes": len(data), "sha256": sha256(data)}
            if sources and rel in sources:
                entry["source"] = sources[rel]
            members.append(entry)
    filters = [{"id": lzma.FILTER_LZMA2, "preset": preset, "dict_size": DICT_MIB << 20}]
    blob = lzma.compress(raw.getvalue(), format=lzma.FORMAT_XZ, filters=filters)
    level = f"{preset & 0x1F}{'e' if preset & lzma.PRESET_EXTREME else ''}"
    manifest = {
        "format": FORMAT,
        "archive": {
            "file": archive.name,
            "bytes": len(blob),
            "sha256": sha256(blob),
            "compression": f"POSIX tar, xz (LZMA2 preset {level}, {DICT_MIB} MiB dictionary)",
            "unpacked_bytes": len(raw.getvalue()),
        },
        "made_by": "scripts/make_bundle.py",
        "members": members,
    }
    archive.parent.mkdir(parents=True, exist_ok=True)
    _write_atomic(archive, blob)
    text = json.dumps(manifest, ensure_ascii=False, indent=1) + "\n"
    _write_atomic(manifest_path(archive), text.encode("utf-8"))
    return manifest


def _files(source: Path) -> list[str]:
    """Every regular file under a folder, as sorted POSIX paths relative to it (dot files aside)."""
    found: list[str] = []
    for root, dirs, names in os.walk(source):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for n in sorted(names):
            if not n.startswith("."):
                found.append((Path(root) / n).relative_to(source).as_posix())
    return sorted(found)


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(f".{path.name}.part")
    tmp.write_bytes(data)
    tmp.replace(path)


def sources_from(entries: Iterable[dict[str, Any]]) -> dict[str, str]:
    """path → public source, from an archive's MANIFEST.json rows."""
    return {str(e["path"]): str(e["source"]) for e in entries if "path" in e and "source" in e}
