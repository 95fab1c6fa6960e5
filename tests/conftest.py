"""Shared fixtures: the real archive (from the bundled corpus/archive.tar.xz) and a build of it."""

from __future__ import annotations

import functools
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from flask import Flask
from flask.testing import FlaskClient

from crkb.store.db import Store

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


# One set of app / client / store / runner fixtures. A module serving another build overrides
# `app` (e.g. test_hostile.py) and gets `client` with it.
@pytest.fixture(scope="module")
def app(archive_build: Path) -> Flask:
    """The web app serving the archive build."""
    from crkb.web import create_app

    return create_app({"DATA": str(archive_build), "TESTING": True})


@pytest.fixture()
def client(app: Flask) -> FlaskClient:
    """A fresh browser (no cookies) on `app`."""
    return app.test_client()


@pytest.fixture(scope="module")
def store(archive_build: Path) -> Store:
    """The store of the archive build."""
    from crkb.store.db import DB_NAME
    from crkb.store.location import current_build

    return Store(current_build(archive_build) / DB_NAME)


class Ran(NamedTuple):
    """What a `crkb` command gave: exit code, stdout, stderr."""

    code: int
    out: str
    err: str


@pytest.fixture()
def runner(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> Callable[..., Ran]:
    """`crkb` in this process as a user types it: `runner("show", "702", data=DIR)`."""
    from crkb.cli import main

    def run(*argv: str, data: Path | None = None) -> Ran:
        if data is not None:
            monkeypatch.setenv("CRKB_DATA", str(data))
        capsys.readouterr()
        code = main(list(argv))
        out, err = capsys.readouterr()
        return Ran(code, out, err)

    return run


# The browser: Debian's Chromium driven by Playwright (`playwright install` cannot download here).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
SHOTS = Path("/tmp/crkb-shots")  # screenshots the browser tests leave for a person to look at


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Chromium for a module's browser tests; missing, it skips them — except in CI, where
    .ci/run installs it and its absence is a failure."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not shutil.which(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is not installed: .ci/run installs it (make browser-deps)")
        pytest.skip(f"{CHROMIUM} is not installed (make browser-deps)")
    SHOTS.mkdir(exist_ok=True)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture()
def page(browser: Any) -> Iterator[Any]:
    """A fresh desktop-sized page; any script error or console error on it fails the test."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    yield pg
    context.close()
    assert errors == [], errors


@pytest.fixture()
def phone(browser: Any) -> Iterator[Any]:
    """A page at a phone's size and touch; a script error on it fails the test."""
    context = browser.new_context(
        viewport={"width": 375, "height": 812},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
    )
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert errors == [], errors
