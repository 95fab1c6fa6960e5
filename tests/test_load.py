"""Sustained load on the real archive: gunicorn -w 2, wrk with 32 connections, 5 s per mix.

The same harness as `make bench` (scripts/loadtools.py, scripts/wrk/rotate.lua), shortened. Needs
`wrk` (scripts/install-browser.sh installs it in CI): in CI a missing wrk fails, elsewhere it skips.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from scripts import loadtools

SECONDS = 5
CONNECTIONS = 32


@pytest.fixture(scope="module")
def wrk() -> str:
    """wrk's path; CI must have it."""
    path = shutil.which("wrk")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("wrk is not installed; scripts/install-browser.sh installs it in CI")
        pytest.skip("wrk is not installed (make browser-deps installs it)")
    return path


@pytest.fixture(scope="module")
def archive_mixes(archive_build: Path) -> dict[str, list[str]]:
    return loadtools.mixes(archive_build, rules=600, searches=300, far_diffs=3)


@pytest.fixture(scope="module")
def archive_server(wrk: str, archive_build: Path) -> Iterator[loadtools.Server]:
    with loadtools.serving(archive_build) as server:
        yield server


def test_mixes_cover_releases_and_languages(archive_mixes: dict[str, list[str]]) -> None:
    """The load is spread over many releases, rules and both languages, not one cached URL."""
    rules, search, diff = archive_mixes["rules"], archive_mixes["search"], archive_mixes["diff"]
    assert len(set(rules)) > 500
    assert len({p.split("/")[2] for p in rules if p.startswith("/v/")}) > 50  # releases
    assert any("lang=zh" in p for p in rules) and any("lang=en" in p for p in rules)
    assert len(set(search)) > 150
    assert any(p.startswith("/search?") for p in search)
    assert any("%E" in p for p in search)  # Chinese queries (percent-encoded UTF-8)
    assert len({p for p in diff if p.startswith("/diff/")}) > 100


@pytest.mark.parametrize("mix", loadtools.MIXES)
def test_sustained_load_has_no_failed_request(
    wrk: str, archive_server: loadtools.Server, archive_mixes: dict[str, list[str]], mix: str
) -> None:
    paths = archive_mixes[mix]
    loadtools.warm(archive_server.base, paths[:4])
    load = loadtools.run_wrk(
        wrk, archive_server.base, mix, paths, seconds=SECONDS, connections=CONNECTIONS
    )
    # every request answered in time (wrk's timeout) and well; how many is `make bench`'s
    # figure, not a test's (a busy machine halves it): the server answers on after the load
    assert load.errors == 0, f"{load.describe()}\n{archive_server.log_tail()}"
    assert load.requests >= CONNECTIONS, load.describe()
    assert loadtools.fetch(archive_server.base, paths[-1])[0] < 400, archive_server.log_tail()
    assert archive_server.proc.poll() is None, archive_server.log_tail()


def test_bench_web_runs_every_url_set_against_the_floor(wrk: str, archive_build: Path) -> None:
    """scripts/bench_web.py, briefly: the floor and crkb answer every URL set without a failed
    request, a fresh server answers its first page and searches, the workers' memory is read."""
    from scripts import bench_web

    rows, firsts, rss, asked = bench_web.bench(archive_build, seconds=1, connections=8)
    assert [row.name for row in rows] == list(bench_web.TARGETS)
    for row in rows:
        assert row.floor.errors == 0 and row.crkb.errors == 0, row.crkb.describe()
        assert row.crkb.requests > 0 and row.ratio > 0
    assert [label for label, _ms, _status in firsts] == [
        "first rule page",
        "first Chinese search",
        "first English search",
        "first rule page of an older release",
    ]
    assert all(status == 200 for _label, _ms, status in firsts)
    assert len(rss) == 2 and all(mb > 20 for mb in rss)
    assert asked >= bench_web.MIN_QUERIES
    text = bench_web.report(rows, firsts, rss, 1, 8, asked)
    assert text.startswith(bench_web.HEADING) and "× floor" in text


def test_bench_web_replaces_only_its_own_section_of_benchmarks(tmp_path: Path) -> None:
    from scripts import bench_web

    path = tmp_path / "BENCHMARKS.md"
    path.write_text(
        "# BENCHMARKS\n\n| build | 30 s |\n\n## HTTP under load (old)\n\nold table\n\n"
        "## search\n\nsearch figures\n",
        encoding="utf-8",
    )
    bench_web.write_section(f"{bench_web.HEADING} (new)\n\nnew table", path)
    text = path.read_text(encoding="utf-8")
    assert "old table" not in text and "new table" in text
    assert "| build | 30 s |" in text and "search figures" in text
    assert text.index("new table") < text.index("## search")
