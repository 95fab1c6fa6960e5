"""Web speed under load: gunicorn (2 workers) + wrk (32 connections) on three request mixes.

Usage: bench_web.py [DATA] [--seconds N] [--connections N] [--queries PATH]

DATA is a build directory (default $CRKB_DATA, else instance/). Each mix rotates through many
real URLs drawn from that build (see scripts/loadtools.py): rule pages of random rules in random
releases and both languages, searches (the judged queries of ../shared/eval/queries.tsv and
section titles, English and Chinese, some pinned to a release), and diffs (every neighbouring
release pair, plus a few distant pairs computed on first request). A last run on one cached rule
page shows the page cache alone. Prints markdown table lines for BENCHMARKS.md; exits 1 if any
request failed (not 2xx, socket error, or slower than the 10 s timeout).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from scripts.loadtools import Load

ROOT = Path(__file__).resolve().parent.parent

# More distinct rule pages and searches than a 60 s run sends, so most answers are rendered, not
# taken from a worker's page cache (4096 pages); the diff mix is every neighbouring release pair
# (cached after the first pass, as release pages are in use) plus a few distant pairs.
BENCH_SIZES = {"rules": 40000, "searches": 20000, "far_diffs": 12, "titles": 800}
CACHED = "/rules/702.2"


def bench(
    data: Path, seconds: int = 60, connections: int = 32, queries: Path | None = None
) -> list[Load]:
    """One wrk run per mix (plus the single cached URL) against gunicorn -w 2 serving `data`."""
    sys.path.insert(0, str(ROOT))
    from scripts import loadtools

    wrk = shutil.which("wrk")
    if wrk is None:
        raise SystemExit("bench_web: wrk is not installed (make browser-deps installs it)")
    paths = loadtools.mixes(data, queries=queries or loadtools.EVAL_QUERIES, **BENCH_SIZES)
    paths["cached rule page"] = [CACHED]
    loads = []
    with loadtools.serving(data) as server:
        for name, mix in paths.items():
            loadtools.warm(server.base, mix[:8])
            loads.append(
                loadtools.run_wrk(
                    wrk, server.base, name, mix, seconds=seconds, connections=connections
                )
            )
    return loads


def table(loads: list[Load]) -> str:
    """The markdown table of the runs."""
    from scripts.loadtools import TABLE_HEAD

    return "\n".join([TABLE_HEAD, *(load.row() for load in loads)])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", default=os.environ.get("CRKB_DATA", "instance"))
    parser.add_argument("--seconds", type=int, default=60, help="per mix (default 60)")
    parser.add_argument("--connections", type=int, default=32, help="default 32")
    parser.add_argument("--queries", type=Path, default=None, help="a queries.tsv to draw from")
    args = parser.parse_args(argv)
    data = Path(args.data)
    if not (data / "current").exists():
        print(f"bench_web: {data}: no build here; run `crkb build` first", file=sys.stderr)
        return 2
    if args.seconds < 1 or args.connections < 2:
        print("bench_web: --seconds must be ≥ 1 and --connections ≥ 2", file=sys.stderr)
        return 2
    loads = bench(data, args.seconds, args.connections, args.queries)
    print(
        f"gunicorn -w 2, wrk -t2 -c{args.connections} -d{args.seconds}s --timeout 10s,"
        " URLs rotated per mix (scripts/wrk/rotate.lua)"
    )
    print()
    print(table(loads))
    failed = [load.describe() for load in loads if load.errors]
    for line in failed:
        print(f"FAILED {line}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
