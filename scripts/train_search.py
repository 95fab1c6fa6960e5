"""Learn the ranking signals' weights (crkb/search/weights.py) by coordinate ascent on judged
queries, and report their cross-validated MRR@10 and recall@5 per file and language.

Usage: train_search.py [--queries PATH]... [--index DIR] [--folds K] [--seed N]
Without --queries, the files scripts/eval_search.py measures are used, but the unseen questions
(tests/fixtures/search_unseen.tsv): they tell what the weights do on questions never learned
from. Each query's candidates and their factors are read once; a weight vector then re-ranks
them. The cross-validated figure scores every query with weights learned without it (K folds),
so it is what the weights would do on questions they never saw. The weights learned on all the
queries are printed last, to be copied into crkb/search/weights.py; the ranking forest corrects
the product they make, so learn it again after (scripts/train_ranker.py --write).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from eval_search import TRAINING_FILES, Judged, open_searcher, read_queries, relevant  # noqa: E402

from crkb.errors import CrkbError  # noqa: E402
from crkb.search.engine import Searcher  # noqa: E402
from crkb.search.weights import LEARNED, log_factors  # noqa: E402

GRID = (0.0, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0)
FIXED_NAMES = ("bm25",)  # the scale every other weight is relative to
PASSES = 3
PENALTY = 0.002  # per unit of distance from 1: of two equally good weights, the milder wins


@dataclass(frozen=True)
class Case:
    """One judged query's candidates: pinned rules, then (is it relevant, log factors)."""

    source: str
    judged: Judged
    pinned_hit: int | None  # rank of the first relevant pinned rule
    pinned: int
    cands: list[tuple[bool, dict[str, float]]]


def load_cases(searcher: Searcher, files: list[Path]) -> list[Case]:
    """Every judged query's candidates with their factors (read once)."""
    cases = []
    for f in files:
        for j in read_queries(f):
            pinned, cands, _terms = searcher.candidates(j.query, j.lang)
            hit = next((i + 1 for i, n in enumerate(pinned) if relevant(n, j.relevant)), None)
            rest = [(relevant(n, j.relevant), log_factors(x)) for n, x in cands if n not in pinned]
            cases.append(Case(f.stem, j, hit, len(pinned), rest))
    return cases


def rank(case: Case, w: dict[str, float]) -> int | None:
    """The first relevant rank of a case under weights `w`."""
    if case.pinned_hit:
        return case.pinned_hit
    scored = sorted(
        ((sum(w.get(k, 0.0) * v for k, v in f.items()), rel) for rel, f in case.cands),
        key=lambda x: -x[0],
    )
    return next((case.pinned + i + 1 for i, (_s, rel) in enumerate(scored) if rel), None)


def rr(r: int | None) -> float:
    return 1.0 / r if r and r <= 10 else 0.0


def objective(cases: list[Case], w: dict[str, float]) -> float:
    """Mean reciprocal rank, less a small pull towards the computed factors (weight 1)."""
    mean = sum(rr(rank(c, w)) for c in cases) / max(len(cases), 1)
    return mean - PENALTY * sum(abs(v - 1.0) for k, v in w.items() if k not in FIXED_NAMES)


def train(
    cases: list[Case], start: dict[str, float], only: frozenset[str] = frozenset()
) -> dict[str, float]:
    """Coordinate ascent over the grid, one weight at a time, a few passes (over the weights
    named in `only`, when given)."""
    w = dict(start)
    best = objective(cases, w)
    for _ in range(PASSES):
        changed = False
        for name in sorted(w):
            if name in FIXED_NAMES or (only and name not in only):
                continue
            for v in GRID:
                trial = {**w, name: v}
                got = objective(cases, trial)
                if got > best + 1e-9:
                    best, w, changed = got, trial, True
        if not changed:
            break
    return w


def report(cases: list[Case], ranks: list[int | None], title: str) -> None:
    print(f"== {title}")
    groups: dict[tuple[str, str], list[int | None]] = {}
    for c, r in zip(cases, ranks, strict=True):
        groups.setdefault((c.source, c.judged.lang), []).append(r)
        groups.setdefault((c.source, "all"), []).append(r)
    for (src, lang), rs in sorted(groups.items()):
        mrr = sum(rr(r) for r in rs) / len(rs)
        rec = sum(1 for r in rs if r and r <= 5) / len(rs)
        print(f"{src:16} {lang:4} n={len(rs):3}  MRR@10={mrr:.3f}  recall@5={rec:.3f}")


def judged_arguments(description: str) -> argparse.ArgumentParser:
    """The options every learner takes: judged files, an index (or the corpus to build one
    from), and the folds of its cross-validation."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--queries", type=Path, action="append", help="a judged file (repeatable)")
    ap.add_argument("--index", type=Path)
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared/corpus")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    return ap


def folds(count: int, k: int, seed: int) -> list[int]:
    """Each of `count` queries' fold (0 … k-1), dealt in a seeded random order."""
    order = list(range(count))
    random.Random(seed).shuffle(order)
    fold_of = [0] * count
    for n, i in enumerate(order):
        fold_of[i] = n % k
    return fold_of


def main(argv: list[str] | None = None) -> int:
    ap = judged_arguments((__doc__ or "").splitlines()[0])
    ap.add_argument("--only", nargs="+", default=[], help="learn only these weights")
    args = ap.parse_args(argv)
    files = args.queries or [f for f in TRAINING_FILES if f.exists()]
    with tempfile.TemporaryDirectory() as tmp:
        try:
            searcher = open_searcher(args.index, args.corpus, Path(tmp))
        except CrkbError as e:
            print(f"train_search: {e}", file=sys.stderr)
            return 2
        cases = load_cases(searcher, files)
    shipped = {k: float(v) for k, v in LEARNED.items()}
    report(cases, [rank(c, shipped) for c in cases], "weights as shipped")
    # Learning starts with the weights it learns switched off, so that the cross-validated
    # figure measures the learning, not the shipped values (chosen by looking at every query).
    start = {k: (0.0 if k in args.only else v) for k, v in shipped.items()}
    fold_of = folds(len(cases), args.folds, args.seed)
    cv: list[int | None] = [None] * len(cases)
    for k in range(args.folds):
        train_set = [c for i, c in enumerate(cases) if fold_of[i] != k]
        w = train(train_set, start, frozenset(args.only))
        for i, c in enumerate(cases):
            if fold_of[i] == k:
                cv[i] = rank(c, w)
    report(cases, cv, f"cross-validated ({args.folds} folds, weights learned without the query)")
    w = train(cases, start, frozenset(args.only))
    report(cases, [rank(c, w) for c in cases], "weights learned on all (optimistic)")
    print("LEARNED = {")
    for name, v in w.items():
        print(f'    "{name}": {v},')
    print("}")
    print(f"# pool misses: {sum(1 for c in cases if rank(c, start) is None)} of {len(cases)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
