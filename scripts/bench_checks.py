"""Time the translation checks: every Chinese release against its English counterpart (≤ 10 s)."""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from crkb.checks.translation import check  # noqa: E402
from crkb.diff.history import build_lineage, pick_versions  # noqa: E402
from crkb.sources.reader import read_file  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Parse the releases, then check each; print per-release counts and the total check time."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--corpus", default=str(ROOT / ".." / "shared" / "corpus"))
    ap.add_argument("--budget", type=float, default=10.0, help="seconds allowed for all checks")
    args = ap.parse_args(argv)
    corpus = Path(args.corpus)
    zh_files = sorted((corpus / "zh" / "txt").glob("*.txt"))
    if not zh_files:
        print(f"{corpus}: no Chinese releases found", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    first = zh_files[0].name
    english = {
        f.name: read_file(f).documents[0]
        for f in sorted((corpus / "en" / "txt").glob("*.txt"))
        if f.name >= first
    }
    chinese = {f.name: read_file(f).documents[0] for f in zh_files}
    parse_s = time.perf_counter() - t0
    by_version = sorted(english.values(), key=lambda d: d.version)
    t = time.perf_counter()
    line = build_lineage(list(by_version))  # the build's lineage step, made once for every check
    lineage_s = time.perf_counter() - t
    official = pick_versions(by_version)
    total = 0.0
    for name, zh in chinese.items():
        en = english.get(name)
        if en is None:
            print(f"{name}: no English counterpart", file=sys.stderr)
            continue
        later = [d for d in official if d.version > en.version]
        t = time.perf_counter()
        findings = check(en, zh, later_en=later, steps=line.pairs)
        took = time.perf_counter() - t
        total += took
        kinds = Counter(f.kind for f in findings)
        print(f"{zh.version}: {len(findings):4d} findings in {took:5.2f} s  {dict(kinds)}")
    print(f"parsed {len(english) + len(chinese)} files in {parse_s:.2f} s")
    print(f"lineage of the later English releases (a build step of its own): {lineage_s:.2f} s")
    print(f"checked {len(chinese)} releases in {total:.2f} s (budget {args.budget:.0f} s)")
    return 0 if total <= args.budget else 1


if __name__ == "__main__":
    raise SystemExit(main())
