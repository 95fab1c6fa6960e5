"""Learn the forest that corrects the weighed product of a candidate's signals
(crkb/search/forest.py) by LambdaRank on judged questions, and report its cross-validated MRR@10
and recall@5 beside the product's.

Usage: train_ranker.py [--queries PATH]... [--index DIR] [--folds K] [--seed N] [--write]
Without --queries, crkb's own development questions (tests/fixtures/search_heldout.tsv) are
used: not ../shared/eval, so that its figures stay a measure of questions never learned from,
nor the unseen batches. The cross-validated figure ranks every query with a forest learned
without it (K folds). --write fits the forest on every query and writes crkb/search/forest.json;
learn it again whenever the signals or their weights (crkb/search/weights.py) change, since the
trees correct the product those make. Needs LightGBM (the project's dev dependencies).
"""

from __future__ import annotations

import json
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from eval_search import Judged, open_searcher, read_queries, relevant  # noqa: E402
from train_search import folds, judged_arguments, report  # noqa: E402

from crkb.errors import CrkbError  # noqa: E402
from crkb.search import forest  # noqa: E402
from crkb.search.engine import Searcher  # noqa: E402
from crkb.search.weights import LEARNED, combine  # noqa: E402

DEVELOPMENT = ROOT / "tests/fixtures/search_heldout.tsv"
# LambdaRank over small trees, shrunk. Cross-validated on the development questions (two fold
# seeds), 100 to 400 trees of 4 to 15 leaves all gained about the same (en MRR@10 0.630 →
# 0.645–0.656, zh 0.662 → 0.665–0.688); the smallest trees fit the folds least.
PARAMS = {
    "objective": "lambdarank",
    "num_iterations": 200,
    "learning_rate": 0.05,
    "num_leaves": 4,
    "min_data_in_leaf": 40,
    "bagging_fraction": 0.8,
    "bagging_freq": 1,
    "feature_fraction": 0.8,
    "lambdarank_truncation_level": 10,
    "num_threads": 1,
    "deterministic": True,
    "verbosity": -1,
}


@dataclass(frozen=True)
class Case:
    """One judged query: the rank of its first relevant pinned rule, how many rules are pinned,
    and its other candidates' features and relevance."""

    source: str  # the judged file's name (train_search.report groups by it)
    judged: Judged
    pinned_hit: int | None
    pinned: int
    rows: np.ndarray
    relevant: np.ndarray


def load_cases(searcher: Searcher, files: list[Path]) -> tuple[list[Case], list[str]]:
    """Every judged query's candidates as feature rows, and the features' names: every factor
    any candidate has, then forest.QUERY_FEATURES."""
    raw = []
    for f in files:
        for j in read_queries(f):
            got = searcher.candidates(j.query, j.lang)
            cands = [(n, x) for n, x in got.scored if n not in got.pinned]
            raw.append((f.stem, j, got, cands))
    signals = sorted({k for _s, _j, _g, cands in raw for _n, x in cands for k in x})
    names = [*signals, *forest.QUERY_FEATURES]
    cases = []
    for source, j, got, cands in raw:
        hit = next((i + 1 for i, n in enumerate(got.pinned) if relevant(n, j.relevant)), None)
        factors = [x for _n, x in cands]
        products = [combine(x, LEARNED) for x in factors]
        rows = forest.rows(names, factors, got.terms, j.lang == "zh", products)
        rel = [relevant(n, j.relevant) for n, _x in cands]
        shape = (len(rows), len(names))
        cases.append(
            Case(
                source,
                j,
                hit,
                len(got.pinned),
                np.array(rows).reshape(shape),
                np.array(rel, dtype=int),
            )
        )
    return cases, names


def first_relevant(case: Case, scores: np.ndarray) -> int | None:
    """The rank of a case's first relevant rule when its candidates are ordered by `scores`."""
    if case.pinned_hit:
        return case.pinned_hit
    order = np.argsort(-scores, kind="stable")
    return next((case.pinned + i + 1 for i, k in enumerate(order) if case.relevant[k]), None)


def product(case: Case, names: list[str]) -> np.ndarray:
    """The log of each candidate's weighed product (the forest's starting score)."""
    return case.rows[:, names.index("product")] if len(case.rows) else np.zeros(0)


def fit(cases: list[Case], names: list[str], seed: int) -> Any:
    """A LambdaRank forest (a LightGBM booster) over the cases that have a relevant candidate,
    boosting from the weighed product."""
    import lightgbm

    used = [c for c in cases if c.relevant.any()]
    data = lightgbm.Dataset(
        np.vstack([c.rows for c in used]),
        np.concatenate([c.relevant for c in used]),
        group=[len(c.rows) for c in used],
        init_score=np.concatenate([product(c, names) for c in used]),
        feature_name=names,
    )
    return lightgbm.train({**PARAMS, "seed": seed}, data)


def main(argv: list[str] | None = None) -> int:
    ap = judged_arguments((__doc__ or "").splitlines()[0])
    ap.add_argument("--write", action="store_true", help="write crkb/search/forest.json")
    args = ap.parse_args(argv)
    files = args.queries or [DEVELOPMENT]
    with tempfile.TemporaryDirectory() as tmp:
        try:
            searcher = open_searcher(args.index, args.corpus, Path(tmp))
        except CrkbError as e:
            print(f"train_ranker: {e}", file=sys.stderr)
            return 2
        cases, names = load_cases(searcher, files)
    report(cases, [first_relevant(c, product(c, names)) for c in cases], "weighed product")
    fold_of = folds(len(cases), args.folds, args.seed)
    cv: list[int | None] = [None] * len(cases)
    for k in range(args.folds):
        model = fit([c for i, c in enumerate(cases) if fold_of[i] != k], names, args.seed)
        for i, c in enumerate(cases):
            if fold_of[i] == k:
                extra = model.predict(c.rows) if len(c.rows) else np.zeros(0)
                cv[i] = first_relevant(c, product(c, names) + extra)
    report(cases, cv, f"forest, cross-validated ({args.folds} folds, learned without the query)")
    print(f"(searches apply the forest in {', '.join(sorted(forest.LANGS))} alone: forest.LANGS)")
    if args.write:
        model = fit(cases, names, args.seed)
        dump = model.dump_model()
        data = forest.from_dump(dump, names)
        forest.MODEL.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
        trees = len(data["leaves"]) // 2**forest.DEPTH
        print(f"wrote {forest.MODEL.relative_to(ROOT)}: {trees} trees")
    return 0


if __name__ == "__main__":
    sys.exit(main())
