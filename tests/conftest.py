"""Shared fixtures: the real archive (from the bundled corpus/archive.tar.xz) and a build of it."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BUNDLE = ROOT / "corpus" / "archive.tar.xz"
SEEDS = ROOT / "corpus" / "seeds"


@pytest.fixture(scope="session")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real archive as files, unpacked once per session from the verified bundle. The bundle
    is part of the project: missing or damaged, it fails the tests that need it, never skips."""
    from crkb.bundle import read
    from crkb.errors import CrkbError

    try:
        members = read(BUNDLE)
    except CrkbError as e:
        pytest.fail(f"the bundled archive cannot be used: {e}")
    root = tmp_path_factory.mktemp("archive")
    for m in members:
        path = root / m.path
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(m.data)
    return root


@functools.cache
def parsed(path: str):
    """Parse a file once per test session (many tests look at the same releases)."""
    from crkb.sources.reader import read_file

    return read_file(path)


@pytest.fixture(scope="session")
def archive_build(archive: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One full build of the real archive, read straight from the bundle (as `crkb build` does),
    shared by every test that reads the store."""
    from crkb.build import build

    data = tmp_path_factory.mktemp("archive-data")
    build([BUNDLE], data, progress=lambda _msg: None)
    return data
