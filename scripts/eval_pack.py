"""The offline pack's search, run in Chromium from file://, against the server's, on judged queries.

Usage: eval_pack.py [--data DIR] [--queries TSV ...] [--pack DIR] [--misses]
Exports the default pack of the current build in --data (timed), then for each queries file runs
every query as `search.html?q=…&lang=…` (a fresh page load each time) and reads the hits
(`[data-rule]`, in rank order); the server's Searcher answers the same queries on the same build.
Prints MRR@10 and recall@5 of both and their ratio, search p50/p95 page load included, pack size
and export time. A hit counts when its number is listed or is a lettered subrule of a listed one.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]
Row = tuple[str, str, str, set[str]]


def read_queries(path: Path) -> list[Row]:
    """(id, lang, query, relevant numbers) rows of a judged queries file."""
    rows: list[Row] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) >= 4:
            rows.append((cols[0], cols[1], cols[2], set(cols[3].split())))
    return rows


def relevant_hit(number: str, relevant: set[str]) -> bool:
    """The number is listed, or is a lettered subrule of a listed one (702.2b of 702.2)."""
    return number in relevant or (
        bool(re.search(r"\d[a-z]+$", number))
        and number.rstrip("abcdefghijklmnopqrstuvwxyz") in relevant
    )


def scores(ranked: list[tuple[str, list[str], set[str]]]) -> dict[str, float]:
    """MRR@10 and recall@5 of (lang, numbers, relevant) rows."""
    rr, rec = [], []
    for _lang, numbers, relevant in ranked:
        rank = next((i + 1 for i, n in enumerate(numbers[:10]) if relevant_hit(n, relevant)), None)
        rr.append(1.0 / rank if rank else 0.0)
        rec.append(1.0 if rank and rank <= 5 else 0.0)
    n = max(len(rr), 1)
    return {"n": len(rr), "mrr@10": sum(rr) / n, "recall@5": sum(rec) / n}


def pack_hits(
    page: Any, pack: Path, query: str, lang: str
) -> tuple[list[str], float]:  # page: Playwright
    """Numbers the pack's search page lists (rank order) and the time, page load included."""
    url = (pack / "search.html").as_uri() + "?" + urllib.parse.urlencode({"q": query, "lang": lang})
    t0 = time.perf_counter()
    page.goto(url)
    page.wait_for_function("document.body && document.body.dataset.done === '1'")
    ms = (time.perf_counter() - t0) * 1000  # a rule number is listed too: the rule first
    return page.eval_on_selector_all("[data-rule]", "els => els.map(e => e.dataset.rule)"), ms


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--data", type=Path, help="data directory (default $CRKB_DATA)")
    ap.add_argument(
        "--queries",
        type=Path,
        nargs="+",
        default=[
            ROOT.parent / "shared/eval/queries.tsv",
            ROOT.parent / "shared/eval/questions.tsv",
        ],
    )
    ap.add_argument("--pack", type=Path, help="an exported pack to use instead of exporting")
    ap.add_argument("--misses", action="store_true", help="list the queries the pack ranks lower")
    args = ap.parse_args(argv)

    from playwright.sync_api import sync_playwright

    from crkb import config
    from crkb.export.pack import export
    from crkb.search.engine import Searcher
    from crkb.store.location import current_build

    data = args.data or config.data_dir()
    with tempfile.TemporaryDirectory() as tmp:
        pack = args.pack
        if pack is None:
            summary = export(data, Path(tmp) / "pack")
            pack = summary.dest
            print(
                f"pack: {summary.bytes / 1e6:.1f} MB, {summary.files} files (target ≤ 20 MB);"
                f" export {summary.seconds:.1f}s (target ≤ 60 s)"
            )
        searcher = Searcher(current_build(Path(data)) / "index")
        times: list[float] = []
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
            errors: list[str] = []
            page.on("pageerror", lambda e: errors.append(str(e)))
            pack_hits(page, pack, "warm up", "en")  # the first launch of a renderer is not a search
            for path in args.queries:
                rows = read_queries(path)
                mine, server = [], []
                for _qid, lang, query, relevant in rows:
                    got, ms = pack_hits(page, pack, query, lang)
                    times.append(ms)
                    mine.append((lang, got, relevant))
                    hits = searcher.search(query, lang=lang, limit=10)["hits"]
                    server.append((lang, [h["number"] for h in hits], relevant))
                a, b = scores(mine), scores(server)
                print(f"{path.name}: n={a['n']}")
                for metric in ("mrr@10", "recall@5"):
                    ratio = a[metric] / b[metric] if b[metric] else float("nan")
                    print(
                        f"  {metric:9} pack {a[metric]:.3f}  server {b[metric]:.3f}"
                        f"  ratio {ratio:.2f} (target ≥ 0.85)"
                    )
                if args.misses:
                    for (_l, got, rel), (_l2, srv, _r), row in zip(mine, server, rows, strict=True):
                        r1 = scores([("", got, rel)])["mrr@10"]
                        r2 = scores([("", srv, rel)])["mrr@10"]
                        if r1 < r2:
                            print(
                                f"  lower {row[0]} {row[2]!r}: want {sorted(rel)},"
                                f" pack {got[:5]}, server {srv[:5]}"
                            )
            browser.close()
        times.sort()
        print(
            f"search, page load included: p50 {statistics.median(times):.0f} ms"
            f" p95 {times[int(len(times) * 0.95) - 1]:.0f} ms over {len(times)}"
            " (target p50 ≤ 500 ms)"
        )
        if errors:
            print(f"script errors: {errors}")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
