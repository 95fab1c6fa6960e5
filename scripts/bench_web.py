"""Web speed under load, as ratios to a floor measured in the same run.

Usage: bench_web.py [DATA] [--seconds N] [--connections N] [--queries PATH] [--write] [--plain]

DATA is a build directory (default $CRKB_DATA, else instance/). Two gunicorn servers (-w 2) run
side by side: the floor (scripts/floor_app.py, a bare Flask app answering with stored ~6 KB pages)
and crkb with its production configuration (crkb/web/gunicorn_conf.py; --plain leaves it out).
wrk (32 connections, scripts/wrk/rotate.lua) rotates both through the same URL sets drawn from
the build: every rule of the newest release, sections, rules of old releases, and searches (at
least 500 distinct English and Chinese queries). Each row gives req/s, the ratio to the floor,
p50/p99 and every failed request. A third, fresh crkb server gives the first-request times, and
the workers' resident memory is read after the whole run. --write puts the section into
BENCHMARKS.md (other sections kept). Exits 1 if any request failed.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, quote, urlencode, urlsplit

if TYPE_CHECKING:
    from crkb.store.db import Store
    from scripts.loadtools import Load, Server

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "BENCHMARKS.md"
HEADING = "## HTTP under load"
FLOOR_APP = "scripts.floor_app:create_app()"
CRKB_CONF = "python:crkb.web.gunicorn_conf"

OLD_RELEASES = 40  # the releases before the newest that old-release traffic goes to
# mix → (min ratio to the floor, max p99 in ms or None): the targets of issue 15
TARGETS: dict[str, tuple[float, float | None]] = {
    "newest release, every rule": (0.6, 30.0),
    f"rules of the last {OLD_RELEASES} releases": (0.5, 30.0),
    "sections": (0.3, None),
    "searches": (0.5, 30.0),
}
FIRST_PAGE_MS, FIRST_ZH_SEARCH_MS, WORKER_MB = 50.0, 150.0, 150.0
MIN_QUERIES = 500
LANG_CHOICES = ("en", "zh", "both")


# URL sets ----------------------------------------------------------------------------------------
def _numbers(store: Store, version: str, lang: str, kinds: tuple[str, ...] = ()) -> list[str]:
    from crkb.numbers import normalise

    doc = store.doc_id(version, lang)
    where = f" AND kind IN ({','.join('?' * len(kinds))})" if kinds else ""
    rows = store.conn.execute(f"SELECT number FROM rules WHERE doc=?{where}", (doc, *kinds))
    return [n for (n,) in rows if normalise(n) == n]


def newest_paths(store: Store, rng: random.Random) -> list[str]:
    """Every rule of the newest release in each language choice (the translation beside it is
    numbered as its own older release: its numbers that the newest lacks are other rules now,
    and their pages say where those went, with a 404)."""
    latest = store.version_ids()[-1]
    numbers = set(_numbers(store, latest, "en"))
    out = [f"/rules/{n}?lang={c}" for n in sorted(numbers) for c in LANG_CHOICES]
    rng.shuffle(out)
    return out


def section_paths(store: Store, rng: random.Random, releases: int = 12) -> list[str]:
    """Every chapter and section of the newest release and of `releases` older ones."""
    ids = store.version_ids()
    latest = ids[-1]
    older = rng.sample(ids[:-1], min(releases, len(ids) - 1))
    out = []
    for version in [latest, *older]:
        for lang in ("en", "zh"):
            v = _lang_version(store, version, lang)
            if v is None:
                continue
            # an older translation is numbered as its own release: its sections are read there
            at = version if v == version or lang == "en" else v
            for n in _numbers(store, v, lang, ("chapter", "section")):
                prefix = "" if at == latest else f"/v/{at}"
                out.append(f"{prefix}/rules/{n}?lang={rng.choice([lang, 'both'])}")
    rng.shuffle(out)
    return out


def _lang_version(store: Store, version: str, lang: str) -> str | None:
    ids = [v for v in store.version_ids(lang) if v <= version]
    return ids[-1] if ids else None


def old_paths(store: Store, rng: random.Random, n: int, releases: int = OLD_RELEASES) -> list[str]:
    """`n` rule pages of random rules in the `releases` releases before the newest."""
    ids = store.version_ids()
    older = set(ids[-1 - releases : -1])
    docs = [(v, lang) for lang in ("en", "zh") for v in store.version_ids(lang) if v in older]
    numbers: dict[tuple[str, str], list[str]] = {}
    out = []
    for _ in range(n):
        version, lang = rng.choice(docs)
        if (version, lang) not in numbers:
            numbers[version, lang] = _numbers(store, version, lang)
        number = rng.choice(numbers[version, lang])
        out.append(f"/v/{version}/rules/{number}?lang={rng.choice([lang, 'both'])}")
    return out


def search_queries(store: Store, rng: random.Random, queries: Path | None) -> list[tuple[str, str]]:
    """At least MIN_QUERIES distinct (lang, query): the judged queries when given, and titles of
    sections and rules of the newest release in each language."""
    from scripts import loadtools

    asked = loadtools.eval_queries(queries or loadtools.EVAL_QUERIES)
    titles = loadtools.title_queries(store, rng, 4 * MIN_QUERIES)
    distinct = sorted(set(asked + titles))
    rng.shuffle(distinct)
    return distinct[: max(MIN_QUERIES + 100, len(asked))]


def search_paths(
    queries: list[tuple[str, str]], rng: random.Random, versions: list[str]
) -> list[str]:
    """Each query as a search page (half of them also as an API answer), some pinned to a release
    holding the query's language."""
    from crkb.numbers import normalise

    out = []
    for lang, q in queries:
        args = {"q": q, "lang": lang}
        if rng.random() < 0.2:
            args["version"] = rng.choice(versions)
        if normalise(q) is None:  # the search page redirects a rule number to its rule
            out.append("/search?" + urlencode(args, quote_via=quote))
        if normalise(q) is not None or rng.random() < 0.5:
            out.append("/api/search?" + urlencode({**args, "limit": "10"}, quote_via=quote))
    rng.shuffle(out)
    return out


def url_sets(
    data: Path, queries: Path | None, old: int = 6000, seed: int = 15
) -> dict[str, list[str]]:
    """The four URL sets of the run, drawn from the build current in `data`."""
    from crkb.store.db import DB_NAME, Store
    from crkb.store.location import current_build

    store = Store(current_build(data) / DB_NAME)
    try:
        rng = random.Random(seed)
        asked = search_queries(store, rng, queries)
        translated = [v for v in store.version_ids() if v >= store.version_ids("zh")[0]]
        return {
            "newest release, every rule": newest_paths(store, rng),
            f"rules of the last {OLD_RELEASES} releases": old_paths(store, rng, old),
            "sections": section_paths(store, rng),
            "searches": search_paths(asked, rng, translated),
        }
    finally:
        store.close()


# measuring ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Row:
    """One URL set against the floor and crkb."""

    name: str
    floor: Load
    crkb: Load

    @property
    def ratio(self) -> float:
        return self.crkb.rps / self.floor.rps if self.floor.rps else 0.0

    def verdict(self) -> str:
        low, p99 = TARGETS[self.name]
        ok = self.ratio >= low and (p99 is None or self.crkb.p99_ms <= p99) and not self.crkb.errors
        want = f"≥ {low} ×" + (f", p99 ≤ {p99:.0f} ms" if p99 is not None else "")
        return f"{want}: {'met' if ok else 'NOT met'}"

    def line(self) -> str:
        c = self.crkb
        return (
            f"| {self.name} | {c.urls} | {self.floor.rps:.0f} | {c.rps:.0f} | {self.ratio:.2f} ×"
            f" | {c.p50_ms:.1f} ms | {c.p99_ms:.1f} ms | {c.errors} | {self.verdict()} |"
        )


HEAD = (
    "| URL set | distinct URLs | floor req/s | crkb req/s | × floor | p50 | p99 | errors"
    " | target |\n"
    "|---|---|---|---|---|---|---|---|---|"
)


def timed_get(base: str, path: str) -> tuple[float, int]:
    """(milliseconds, status) of one GET."""
    from scripts import loadtools

    t0 = time.perf_counter()
    status, _body = loadtools.fetch(base, path)
    return (time.perf_counter() - t0) * 1000, status


def worker_rss_mb(server: Server) -> list[float]:
    """Resident memory of each gunicorn worker (the master's children), in MB."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            if int(stat.rsplit(")", 1)[1].split()[1]) != server.proc.pid:
                continue
            status = Path(f"/proc/{entry}/status").read_text()
        except (OSError, IndexError, ValueError):
            continue
        m = re.search(r"VmRSS:\s+(\d+)", status)
        if m:
            out.append(int(m.group(1)) / 1024)
    return sorted(out)


def first_requests(
    data: Path, conf: str | None, sets: dict[str, list[str]]
) -> list[tuple[str, float, int]]:
    """A fresh crkb server, once its workers are ready: the first rule page, the first Chinese
    search, the first English search (none of them asked before)."""
    from scripts import loadtools

    page = sets["newest release, every rule"][0]
    old = sets[f"rules of the last {OLD_RELEASES} releases"][0]
    searches = [p for p in sets["searches"] if p.startswith("/search?")]
    zh = next(p for p in searches if "lang=zh" in p and "version=" not in p)
    en = next(p for p in searches if "lang=en" in p and "version=" not in p)
    out = []
    with loadtools.serving(data, config=conf) as server:
        for label, path in [
            ("first rule page", page),
            ("first Chinese search", zh),
            ("first English search", en),
            ("first rule page of an older release", old),
        ]:
            ms, status = timed_get(server.base, path)
            out.append((label, ms, status))
    return out


def bench(
    data: Path,
    seconds: int = 30,
    connections: int = 32,
    queries: Path | None = None,
    conf: str | None = CRKB_CONF,
) -> tuple[list[Row], list[tuple[str, float, int]], list[float], int]:
    """Rows per URL set, first-request times of a fresh server, worker RSS after the run, and
    how many distinct queries the searches asked."""
    sys.path.insert(0, str(ROOT))
    from scripts import loadtools

    wrk = shutil.which("wrk")
    if wrk is None:
        raise SystemExit("bench_web: wrk is not installed (make browser-deps installs it)")
    sets = url_sets(data, queries)
    firsts = first_requests(data, conf, sets)
    rows = []
    with (
        loadtools.serving(data, app=FLOOR_APP, config=None) as floor,
        loadtools.serving(data, config=conf) as crkb,
    ):
        for name, paths in sets.items():
            loads = []
            for server in (floor, crkb):
                loadtools.warm(server.base, paths[:4])
                loads.append(
                    loadtools.run_wrk(
                        wrk, server.base, name, paths, seconds=seconds, connections=connections
                    )
                )
            rows.append(Row(name, *loads))
        rss = worker_rss_mb(crkb)
    asked = {parse_qs(urlsplit(p).query)["q"][0] for p in sets["searches"]}
    return rows, firsts, rss, len(asked)


def report(
    rows: list[Row],
    firsts: list[tuple[str, float, int]],
    rss: list[float],
    seconds: int,
    connections: int,
    queries: int,
) -> str:
    """The markdown section for BENCHMARKS.md."""
    lines = [
        f"{HEADING} (`python scripts/bench_web.py`)",
        "",
        f"gunicorn -w 2 each (crkb with crkb/web/gunicorn_conf.py), wrk -t2 -c{connections}"
        f" -d{seconds}s --timeout 10s, the same URLs rotated for the floor and for crkb"
        f" (scripts/wrk/rotate.lua); searches: {queries} distinct queries. The floor is a bare"
        " Flask app serving stored ~6 KB pages (scripts/floor_app.py), measured in the same run."
        f" Load average when the report was written: {os.getloadavg()[0]:.1f}"
        f" on {os.cpu_count()} cores (other work on the machine lowers every figure).",
        "",
        HEAD,
        *(row.line() for row in rows),
        "",
        "| fresh server | figure | target |",
        "|---|---|---|",
    ]
    limits = {"first rule page": FIRST_PAGE_MS, "first Chinese search": FIRST_ZH_SEARCH_MS}
    for label, ms, status in firsts:
        limit = limits.get(label)
        want = (
            f"≤ {limit:.0f} ms: {'met' if ms <= limit and status == 200 else 'NOT met'}"
            if limit
            else "-"
        )
        lines.append(f"| {label} | {ms:.0f} ms (HTTP {status}) | {want} |")
    worst = max(rss, default=0.0)
    shown = ", ".join(f"{x:.0f} MB" for x in rss) or "?"
    verdict = "met" if rss and worst <= WORKER_MB else "NOT met"
    lines.append(f"| worker RSS after the whole run | {shown} | ≤ {WORKER_MB:.0f} MB: {verdict} |")
    return "\n".join(lines)


def write_section(text: str, path: Path = BENCHMARKS) -> None:
    """Replace (or add) the HTTP section of BENCHMARKS.md, keeping every other section."""
    old = path.read_text(encoding="utf-8") if path.exists() else "# BENCHMARKS\n"
    parts = re.split(r"(?m)^(?=## )", old)
    kept = [p for p in parts if not p.startswith(HEADING)]
    at = next((i for i, p in enumerate(parts) if p.startswith(HEADING)), len(parts))
    kept.insert(min(at, len(kept)), text.rstrip() + "\n\n")
    path.write_text("".join(kept).rstrip() + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="?", default=os.environ.get("CRKB_DATA", "instance"))
    parser.add_argument(
        "--seconds", type=int, default=30, help="per URL set and server (default 30)"
    )
    parser.add_argument("--connections", type=int, default=32, help="default 32")
    parser.add_argument(
        "--queries", type=Path, default=None, help="a queries.tsv to add to the searches"
    )
    parser.add_argument("--write", action="store_true", help="update BENCHMARKS.md's HTTP section")
    parser.add_argument("--plain", action="store_true", help="crkb without its gunicorn config")
    args = parser.parse_args(argv)
    data = Path(args.data)
    if not (data / "current").exists():
        print(f"bench_web: {data}: no build here; run `crkb build` first", file=sys.stderr)
        return 2
    if args.seconds < 1 or args.connections < 2:
        print("bench_web: --seconds must be ≥ 1 and --connections ≥ 2", file=sys.stderr)
        return 2
    conf = None if args.plain else CRKB_CONF
    rows, firsts, rss, asked = bench(data, args.seconds, args.connections, args.queries, conf)
    text = report(rows, firsts, rss, args.seconds, args.connections, asked)
    print(text)
    if args.write:
        write_section(text)
    failed = [row.crkb.describe() for row in rows if row.crkb.errors]
    failed += [f"{label}: HTTP {status}" for label, _ms, status in firsts if status != 200]
    for line in failed:
        print(f"FAILED {line}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
