"""Shared fixtures: the real archive (when it is beside the project) and a build of it."""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = (ROOT / ".." / "shared" / "corpus").resolve()
SEEDS = ROOT / "corpus" / "seeds"


def _archive_present() -> bool:
    return (ARCHIVE / "en" / "txt").is_dir()


@pytest.fixture(scope="session")
def archive() -> Path:
    """The real archive at ../shared/corpus; tests that need it skip only when it is absent."""
    if not _archive_present():
        if os.environ.get("CI"):
            pytest.fail(f"{ARCHIVE}: the real archive must be present in CI")
        pytest.skip("the real archive ../shared/corpus is not here")
    return ARCHIVE


@functools.cache
def parsed(path: str):
    """Parse a file once per test session (many tests look at the same releases)."""
    from crkb.sources.reader import read_file

    return read_file(path)


@pytest.fixture(scope="session")
def archive_build(archive: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One full build of the real archive, shared by every test that reads the store."""
    from crkb.build import build

    data = tmp_path_factory.mktemp("archive-data")
    build([archive], data, progress=lambda _msg: None)
    return data
