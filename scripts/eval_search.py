"""Search quality on judged queries: MRR@10 and recall@5 per file and language, and the misses.

Usage: eval_search.py [--queries PATH]... [--index DIR] [--corpus DIR] [--no-misses] [--batches]
Without --queries, the shared keyword and question files, crkb's own held-out questions
(tests/fixtures/search_heldout.tsv) and its unseen ones (tests/fixtures/search_unseen.tsv, which
scripts/train_search.py never learns from) are measured. Without --index, an index of the archive's
plain-text releases is built in a temporary folder (with no ../shared/corpus, the served build's
index is read: run `make run` or `crkb build` first). A hit counts when its rule number is a listed
one or a lettered subrule of one (702.19 listed: 702.19b counts).
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crkb.errors import CrkbError  # noqa: E402
from crkb.search.engine import Searcher  # noqa: E402

TRAINING_FILES = (
    ROOT.parent / "shared/eval/queries.tsv",
    ROOT.parent / "shared/eval/questions.tsv",
    ROOT / "tests/fixtures/search_heldout.tsv",
)
# Questions written and measured once, never trained on: what the weights do on questions unseen.
UNSEEN_FILE = ROOT / "tests/fixtures/search_unseen.tsv"
DEFAULT_FILES = (*TRAINING_FILES, UNSEEN_FILE)


@dataclass(frozen=True)
class Judged:
    """One judged query: its id, language, text and the rule numbers that answer it."""

    qid: str
    lang: str
    query: str
    relevant: frozenset[str]


@dataclass(frozen=True)
class Miss:
    """A judged query whose first hit is not relevant."""

    judged: Judged
    rank: int | None
    top: list[str]


@dataclass
class Scores:
    """MRR@10 and recall@5 of one group of queries."""

    n: int = 0
    rr: float = 0.0
    found: float = 0.0

    @property
    def mrr(self) -> float:
        return self.rr / self.n if self.n else 0.0

    @property
    def recall(self) -> float:
        return self.found / self.n if self.n else 0.0


@dataclass
class Report:
    """Scores per language and overall, and the misses, of one file."""

    scores: dict[str, Scores] = field(default_factory=dict)
    misses: list[Miss] = field(default_factory=list)


def read_queries(path: Path) -> list[Judged]:
    """The judged rows of a tab-separated file (id, lang, query, relevant numbers, note)."""
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) >= 4:
            rows.append(Judged(cols[0], cols[1], cols[2], frozenset(cols[3].split())))
    return rows


def relevant(number: str, wanted: frozenset[str]) -> bool:
    """A listed number, or a lettered subrule of one."""
    return any(number == w or (number.startswith(w) and number[len(w) :].isalpha()) for w in wanted)


def batch_of(qid: str) -> str:
    """The batch a judged query belongs to: its id's leading letters (s07 → s, th12 → th)."""
    m = re.match(r"[A-Za-z]+", qid)
    return m.group(0) if m else "?"


def evaluate(searcher: Searcher, rows: list[Judged], batches: bool = False) -> Report:
    """Per-language and overall MRR@10 / recall@5, with the misses (rank > 1); with `batches`,
    also per batch and language ("s en"), after those."""
    report = Report()
    for row in rows:
        hits = searcher.search(row.query, lang=row.lang, limit=10)["hits"]
        numbers = [h["number"] for h in hits]
        rank = next((i + 1 for i, n in enumerate(numbers) if relevant(n, row.relevant)), None)
        groups = [row.lang, "all"] + ([f"{batch_of(row.qid)} {row.lang}"] if batches else [])
        for group in groups:
            s = report.scores.setdefault(group, Scores())
            s.n += 1
            s.rr += 1.0 / rank if rank else 0.0
            s.found += 1.0 if rank and rank <= 5 else 0.0
        if rank != 1:
            report.misses.append(Miss(row, rank, numbers[:5]))
    order = {"en": 0, "zh": 0, "all": 1}  # the languages, all of them, then each batch's
    report.scores = dict(sorted(report.scores.items(), key=lambda kv: order.get(kv[0], 2)))
    return report


class NoIndex(CrkbError):
    """Nothing to measure: no index given, no corpus to build one from, no served build."""


def open_searcher(index: Path | None, corpus: Path, tmp: Path) -> Searcher:
    """The index given, or one built from the corpus into `tmp` (which must outlive the use),
    or, with no corpus beside the project (a fresh clone), the served build's (`make run`)."""
    if index is None and not (corpus / "en" / "txt").is_dir():
        from crkb import config
        from crkb.errors import StoreError
        from crkb.store.location import current_build

        try:
            index = current_build(config.data_dir()) / "index"
        except StoreError as e:
            raise NoIndex(f"--corpus: no releases in {corpus}, and {e} (or give --index)") from None
    if index is None:
        from crkb.search.archive import load_documents, term_map
        from crkb.search.index import build_index

        docs = load_documents(corpus)
        index = tmp / "index"
        build_index(index, docs, term_map(docs, corpus))
    return Searcher(index)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--queries", type=Path, action="append", help="a judged file (repeatable)")
    ap.add_argument("--index", type=Path)
    ap.add_argument("--corpus", type=Path, default=ROOT.parent / "shared/corpus")
    ap.add_argument("--no-misses", action="store_true", help="scores only")
    ap.add_argument(
        "--batches", action="store_true", help="also each batch (the ids' leading letters)"
    )
    args = ap.parse_args(argv)
    files = args.queries or [f for f in DEFAULT_FILES if f.exists()]
    with tempfile.TemporaryDirectory() as tmp:
        try:
            searcher = open_searcher(args.index, args.corpus, Path(tmp))
        except CrkbError as e:
            print(f"eval_search: {e}", file=sys.stderr)
            return 2
        reports = [(f, evaluate(searcher, read_queries(f), args.batches)) for f in files]
    for f, report in reports:
        print(f"== {f.name}")
        for name, s in report.scores.items():
            print(f"{name:4} n={s.n:3}  MRR@10={s.mrr:.3f}  recall@5={s.recall:.3f}")
    if not args.no_misses:
        for f, report in reports:
            for m in report.misses:
                j = m.judged
                print(
                    f"miss {f.stem}:{j.qid} [{j.lang}] {j.query!r}: want "
                    f"{' '.join(sorted(j.relevant))}, rank {m.rank}, top {m.top}"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
