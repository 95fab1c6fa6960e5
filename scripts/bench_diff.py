"""Time the diff and history machinery on the real archive, to keep it inside its budgets.

Budgets: a fifteen-year diff ≤ 2 s; the history of any rule ≤ 200 ms once the lineage is built;
neighbour matches for every English version in about 15 s.
Usage: python scripts/bench_diff.py [--corpus ../shared/corpus] [--lang en]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crkb.diff.compare import diff_documents, diff_summary  # noqa: E402
from crkb.diff.history import build_lineage, pick_versions  # noqa: E402
from crkb.errors import CrkbError  # noqa: E402
from crkb.model import Document  # noqa: E402
from crkb.sources.reader import read_file  # noqa: E402

LOSSY = ("2007-10-01", "2008-05-01")  # 2008-05-01: `?` for every ’ and “ (lost_characters)


def load(corpus: Path, lang: str) -> list[Document]:
    """Every usable document of one language from the archive's plain-text folder."""
    docs: list[Document] = []
    for path in sorted((corpus / lang / "txt").glob("*.txt")):
        try:
            docs.extend(d for d in read_file(path).documents if d.lang == lang)
        except (CrkbError, ImportError) as e:
            print(f"  skipped {path.name}: {e}", file=sys.stderr)
    return docs


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    ap.add_argument("--lang", default="en")
    ap.add_argument("--old", default="2010-02-01")
    ap.add_argument("--new", default="2025-07-25")
    args = ap.parse_args(argv)

    t = time.perf_counter()
    docs = load(args.corpus, args.lang)
    print(f"parse {len(docs)} documents: {time.perf_counter() - t:.1f} s (not part of the budget)")
    chosen = {d.version: d for d in pick_versions(docs)}

    # a fifteen-year diff, and one into a copy that lost its typographic characters as `?`
    # (each differing pair is then read for lost characters: crkb/diff/lost.py)
    for old, new in ((args.old, args.new), LOSSY):
        if old in chosen and new in chosen:
            t = time.perf_counter()
            changes = diff_documents(chosen[old], chosen[new])
            took = time.perf_counter() - t
            print(f"diff {old} → {new}: {took:.2f} s (budget 2 s) {diff_summary(changes)}")

    t = time.perf_counter()
    lineage = build_lineage(docs)
    took = time.perf_counter() - t
    print(f"lineage of {len(lineage.versions)} versions: {took:.1f} s (budget ~15 s)")

    latest = lineage.versions[-1]
    worst, total, n = 0.0, 0.0, 0
    for number in lineage.texts[latest]:
        t = time.perf_counter()
        lineage.history(number)
        took = time.perf_counter() - t
        worst, total, n = max(worst, took), total + took, n + 1
    print(
        f"history of all {n} rules of {latest}: worst {worst * 1000:.1f} ms, "
        f"mean {total / max(1, n) * 1000:.2f} ms (budget 200 ms)"
    )
    longest = max(lineage.texts[latest], key=lambda num: len(lineage.chain(num)))
    print(f"longest history: {longest} through {len(lineage.chain(longest))} versions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
