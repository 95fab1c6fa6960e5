"""Time `crkb forward` (≤ 20 s for any pair) and measure the carry against what the translators
published: for each pair of Chinese releases V → W, the share of rules marked carried/renumbered
whose Chinese equals W's published Chinese (target ≥ 95%), and the rules whose English changed
or is new but were not sent for review (target 0).

    python scripts/bench_forward.py [DATA]    (DATA: a built data directory; else one is built)
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crkb.carry.release import forward  # noqa: E402
from crkb.diff.compare import diff_documents  # noqa: E402
from crkb.store.db import DB_NAME, Store  # noqa: E402
from crkb.store.location import current_build  # noqa: E402

BUDGET_S = 20.0


MIN_RULES = 1000  # a Chinese text with fewer rules is a partial copy, not a translation to carry


def measure(store: Store, v: str, w: str) -> tuple[int, int, int]:
    """(kept equal to the published Chinese, kept, changed English not sent for review)."""
    c = forward(store, v, w)
    real = store.document(w, "zh").rule_map()
    kept = [r for r in c.rules if r.status in ("carried", "renumbered")]
    equal = 0
    for r in kept:
        z = real.get(r.number or "")
        equal += z is not None and z.text == r.zh and z.examples == r.zh_examples
    status = {r.number: r.status for r in c.rules}
    changes = diff_documents(store.document(v, "en"), store.document(w, "en"))
    missed = sum(
        1
        for ch in changes
        if (ch.kind in ("added", "moved_changed") or (ch.kind == "changed" and not ch.refs_only))
        and status.get(ch.new_number) not in ("review", "new")
    )
    return equal, len(kept), missed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("data", nargs="?", help="a built data directory")
    ap.add_argument("--corpus", default=str(ROOT / ".." / "shared" / "corpus"))
    args = ap.parse_args(argv)
    crkb = [sys.executable, "-m", "crkb"]
    if args.data:
        data = Path(args.data)
    else:
        data = Path(tempfile.mkdtemp(prefix="crkb-bench-forward-"))
        subprocess.run([*crkb, "build", "--corpus", args.corpus, "--data", str(data)], check=True)
    store = Store(current_build(data) / DB_NAME)
    # translations, not web copies holding a few Chinese lines (a seed of 2014 has 13 rules)
    zh = [
        v
        for v in store.version_ids("zh")
        if store.doc_id(v, "en") is not None and len(store.document(v, "zh").rules) >= MIN_RULES
    ]
    en = store.version_ids("en")
    ok = True
    for a, b in zip(zh, zh[1:], strict=False):
        equal, kept, missed = measure(store, a, b)
        share = equal / kept if kept else 1.0
        ok &= share >= 0.95 and missed == 0
        print(
            f"carry {a} → {b}: {equal}/{kept} carried/renumbered equal the published Chinese "
            f"({share:.1%}, target ≥ 95%); changed English not for review: {missed} (target 0)"
        )
    slowest = 0.0
    with tempfile.TemporaryDirectory() as out:
        for v in zh:
            for w in sorted({en[-1], *[x for x in zh if x > v][:1]}):
                t = time.perf_counter()
                argv_ = [*crkb, "forward", "--zh", v, "--en", w, "--data", str(data), "--out", out]
                subprocess.run(argv_, check=True, stdout=subprocess.DEVNULL)
                took = time.perf_counter() - t
                slowest = max(slowest, took)
                print(f"crkb forward --zh {v} --en {w} --out DIR: {took:.2f} s")
    print(f"slowest crkb forward: {slowest:.2f} s (target ≤ {BUDGET_S:.0f} s)")
    return 0 if ok and slowest <= BUDGET_S else 1


if __name__ == "__main__":
    raise SystemExit(main())
