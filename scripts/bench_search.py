"""Search speed and memory: index build time, query latency p50/p99 (with highlights), RSS.

Usage: bench_search.py [--index DIR] [--corpus DIR] [--queries PATH]
Without --index the archive is indexed first (timed). Queries are measured in a fresh process
with the index open and jieba loaded, so its RSS is what a serving process holds.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


PUBLIC = ("queries.tsv", "questions.tsv")  # ../shared/eval's judged keywords and questions
HOSTILE = ['"unbalanced', "AND OR NOT", "****", "(((", "x" * 5000, "rule", "cr 999.9z"]
RUNS = 5  # fresh processes timing ../shared's queries (issue 14's figure)
LABELS = {
    "public": "../shared's two files, first asked",
    "keywords": "keyword searches, first asked",
}


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def judged(paths: list[Path]) -> list[str]:
    """The queries of the judged files that exist (keywords, questions, held-out questions)."""
    return [
        ln.split("\t")[2]
        for path in paths
        if path.exists()
        for ln in path.read_text(encoding="utf-8").splitlines()
        if ln.strip() and not ln.startswith("#") and len(ln.split("\t")) > 2
    ]


def keywords(searcher: Any, n: int = 400) -> list[str]:
    """One to three words drawn from the rules' vocabulary (fixed seed), and Chinese terms (none
    of them a judged query: those are timed as judged)."""
    vocab = sorted(w for w, c in searcher.speller.vocab.items() if c >= 3)
    rnd = random.Random(7)
    extra = [" ".join(rnd.sample(vocab, rnd.choice((1, 2, 3)))) for _ in range(n)]
    zh = [
        "警戒",
        "连击",
        "系命",
        "衍生物",
        "飞行",
        "起动式异能",
        "法术力值",
        "法术力池",
        "统帅区",
        "延迟触发式异能",
        "横置 阻挡",
        "鹏洛客",
        "战场",
        "堆叠",
        "弃牌",
    ]
    return extra + zh * 4


def _summary(times: list[float]) -> dict[str, float]:
    """p50, p99 and the slowest of some timings (ms), and the RSS now."""
    times = sorted(times)
    return {
        "p50_ms": round(times[len(times) // 2], 3),
        "p99_ms": round(times[int(len(times) * 0.99)], 3),
        "max_ms": round(times[-1], 3),
        "rss_mb": round(_rss_mb(), 1),
    }


def _firsts(asked: list[tuple[tuple[str, Any], float]], wanted: set[str]) -> list[float]:
    """The timing of each wanted query's first asking (one drawn again later is asked cached)."""
    first: dict[str, float] = {}
    for (q, _v), t in asked:
        if q in wanted:
            first.setdefault(q, t)
    return list(first.values())


def reference_ms() -> float:
    """The machine's speed today: the best of five timings of a fixed piece of pure Python
    (ms). Search timings move with it from day to day; compare runs by it."""
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        words: dict[str, int] = {}
        for i in range(200_000):
            words[str(i % 5000)] = words.get(str(i % 5000), 0) + i
        best = min(best, (time.perf_counter() - t) * 1000)
    return round(best, 2)


def _opened(index: Path) -> tuple[Any, float]:
    """A Searcher of the index, opened and warmed as a serving process holds it, and the seconds
    that took: every measurement starts from one."""
    from crkb.search.engine import Searcher

    t = time.perf_counter()
    s = Searcher(index)
    s.warm()
    return s, time.perf_counter() - t


def _timed(
    searcher: Any,
    batch: Sequence[tuple[str, str | None]],
    *,
    tolerate: tuple[type[Exception], ...] = (),
) -> list[float]:
    """Each (query, release) of the batch asked in order, its time (ms). The order matters: the
    searcher caches what a query reads. Errors of the kinds in `tolerate` are timed, not raised."""
    times = []
    for q, v in batch:
        t = time.perf_counter()
        with contextlib.suppress(*tolerate):
            searcher.search(q, version=v, limit=10)
        times.append((time.perf_counter() - t) * 1000)
    return times


def _public(eval_paths: list[Path]) -> list[str]:
    """../shared's judged queries (keywords, questions): issue 14's figure."""
    return judged([p for p in eval_paths if p.name in PUBLIC])


def measure_public(index: Path, eval_paths: list[Path]) -> list[float]:
    """Each of ../shared's judged queries, first asked in a process that has just opened and
    warmed the index (ms): the timings `measure` makes of them, on their own."""
    s, _open_s = _opened(index)
    return _timed(s, [(q, None) for q in _public(eval_paths)])


def measure(index: Path, eval_paths: list[Path]) -> dict[str, Any]:
    """Open the index, warm it, time every query twice (first, repeated), the judged questions
    alone, and queries in older releases of the all-versions index; report RSS."""
    s, open_s = _opened(index)
    # the judged queries, words drawn from the newest rules, and hostile input
    drawn = keywords(s)
    qs = [(q, None) for q in judged(eval_paths) + drawn + HOSTILE]
    rnd = random.Random(11)
    en_versions = s.versions.get("en", [])
    old = [(q, rnd.choice(en_versions)) for q, _v in rnd.sample(qs, min(100, len(qs)))]
    questions = [(q, None) for q in judged([p for p in eval_paths if "quer" not in p.name])]
    # issue 14's figure: ../shared's two judged files (keywords, questions), each query's first
    # asking, which the first pass over every query times too
    public = set(_public(eval_paths))
    # the searches a glossary expansion costs most (a term's definition adds many words)
    words = set(drawn) | set(judged([p for p in eval_paths if p.name == "queries.tsv"]))
    out: dict[str, Any] = {"open_s": round(open_s, 3), "queries": len(qs)}
    for label, batch in (("first", qs), ("repeat", qs), ("questions", questions), ("old", old)):
        # a release with no text in the query's language raises: timed all the same
        times = _timed(s, batch, tolerate=(Exception,))
        if not times:
            continue
        out[label] = _summary(times)
        if label == "first":
            asked = list(zip(batch, times, strict=True))
            if public:
                out["public_times"] = _firsts(asked, public)
                out["public"] = _summary(out["public_times"])
            out["keywords"] = _summary(_firsts(asked, words))
    out["rss_mb"] = round(_rss_mb(), 1)
    return out


def _print_runs(runs: list[list[float]]) -> None:
    """The first askings of ../shared's queries pooled over fresh processes, and each process's
    figures: one process's p99 of 70 queries is its slowest query, which moves ~2x run to run."""
    pooled = _summary([t for r in runs for t in r])
    each = [_summary(r) for r in runs]
    print(
        f"latency ({LABELS['public']}, {len(runs)} fresh processes, {sum(map(len, runs))}"
        f" askings): p50 {pooled['p50_ms']:.2f} ms  p99 {pooled['p99_ms']:.2f} ms  max"
        f" {pooled['max_ms']:.2f} ms; each process p50 "
        + " ".join(f"{e['p50_ms']:.2f}" for e in each)
        + ", p99 "
        + " ".join(f"{e['p99_ms']:.2f}" for e in each)
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--index", type=Path)
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared/corpus")
    ap.add_argument(
        "--queries",
        type=Path,
        action="append",
        help="judged files (default: the shared keywords and questions, the held-out questions)",
    )
    ap.add_argument(
        "--runs",
        type=int,
        default=RUNS,
        help=f"fresh processes that time ../shared's queries first asked (default {RUNS})",
    )
    ap.add_argument("--measure-only", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--public-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    files = args.queries or [
        ROOT.parent / "shared/eval/queries.tsv",
        ROOT.parent / "shared/eval/questions.tsv",
        ROOT / "tests/fixtures/search_heldout.tsv",
    ]
    if args.measure_only:
        print(json.dumps(measure(args.index, files)))
        return 0
    if args.public_only:
        print(json.dumps(measure_public(args.index, files)))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        index = args.index
        if index is None:
            from crkb.search.archive import load_documents, term_map
            from crkb.search.index import build_index

            docs = load_documents(args.corpus)
            terms = term_map(docs, args.corpus)
            index = Path(tmp) / "index"
            t = time.perf_counter()
            build_index(index, docs, terms)
            print(f"build_index: {time.perf_counter() - t:.2f} s ({len(docs)} documents)")
        cmd = [
            sys.executable,
            __file__,
            "--measure-only",
            "--index",
            str(index),
            *[x for f in files for x in ("--queries", str(f))],
        ]
        res = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
        runs = [res.pop("public_times", [])]
        cmd[cmd.index("--measure-only")] = "--public-only"
        for _ in range(args.runs - 1):
            out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            runs.append(json.loads(out))
    print(f"machine: a fixed piece of pure Python takes {reference_ms():.2f} ms (lower is faster)")
    print(f"open + warm: {res['open_s']:.2f} s; {res['queries']} queries")
    if runs[0]:
        _print_runs(runs)
    for label in ("public", "first", "keywords", "repeat", "questions", "old"):
        if label not in res:
            continue
        r, name = res[label], LABELS.get(label, label)
        print(
            f"latency ({name}): p50 {r['p50_ms']:.2f} ms  p99 {r['p99_ms']:.2f} ms  "
            f"max {r['max_ms']:.2f} ms  (RSS after: {r['rss_mb']:.0f} MB)"
        )
    print(f"RSS with index open and jieba loaded: {res['rss_mb']:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
