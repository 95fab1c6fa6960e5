"""Search quality on the judged queries: MRR@10 and recall@5 per language and overall, and misses.

Usage: eval_search.py [--queries PATH] [--index DIR] [--corpus DIR]
Without --index, an index of the archive's plain-text releases is built in a temporary folder.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crkb.search.engine import Searcher  # noqa: E402


def read_queries(path: Path) -> list[tuple[str, str, str, set[str]]]:
    """(id, lang, query, relevant numbers) rows of a queries.tsv file."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) >= 4:
            rows.append((cols[0], cols[1], cols[2], set(cols[3].split())))
    return rows


def evaluate(searcher: Searcher, rows: list[tuple[str, str, str, set[str]]]) -> dict:
    """Per-language and overall MRR@10 / recall@5, with the misses (rank > 1)."""
    per: dict[str, list[tuple[float, float]]] = {}
    misses = []
    for qid, lang, query, relevant in rows:
        hits = searcher.search(query, lang=lang, limit=10)["hits"]
        numbers = [h["number"] for h in hits]
        rank = next((i + 1 for i, n in enumerate(numbers) if n in relevant), None)
        rr = 1.0 / rank if rank else 0.0
        recall = 1.0 if rank and rank <= 5 else 0.0
        per.setdefault(lang, []).append((rr, recall))
        if rank != 1:
            misses.append((qid, lang, query, sorted(relevant), rank, numbers[:5]))
    out = {}
    everything = [x for v in per.values() for x in v]
    for name, vals in [*sorted(per.items()), ("all", everything)]:
        n = max(len(vals), 1)
        out[name] = {
            "n": len(vals),
            "mrr@10": sum(v[0] for v in vals) / n,
            "recall@5": sum(v[1] for v in vals) / n,
        }
    return {"scores": out, "misses": misses}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--queries", type=Path, default=ROOT.parent / "shared/eval/queries.tsv")
    ap.add_argument("--index", type=Path)
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared/corpus")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        index = args.index
        if index is None:
            from crkb.search.archive import load_documents, term_map
            from crkb.search.index import build_index

            docs = load_documents(args.corpus)
            index = Path(tmp) / "index"
            build_index(index, docs, term_map(docs, args.corpus))
        result = evaluate(Searcher(index), read_queries(args.queries))
    for name, s in result["scores"].items():
        print(f"{name:4} n={s['n']:3}  MRR@10={s['mrr@10']:.3f}  recall@5={s['recall@5']:.3f}")
    for qid, lang, query, relevant, rank, top in result["misses"]:
        print(f"miss {qid} [{lang}] {query!r}: want {' '.join(relevant)}, rank {rank}, top {top}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
