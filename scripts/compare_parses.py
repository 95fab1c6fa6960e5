"""Record `crkb parse FILE --json` for every file of the archive and seeds, and diff two records.

A refactoring of the parsers must not change a byte of what they return, so before the change:

    .venv/bin/python scripts/compare_parses.py record /tmp/parses-before
    # … change the parsers …
    .venv/bin/python scripts/compare_parses.py record /tmp/parses-after
    .venv/bin/python scripts/compare_parses.py diff /tmp/parses-before /tmp/parses-after

Each file gives `<name>.out` (stdout) and `<name>.meta` (exit code and stderr, for the files that
are refused). Paths are recorded as given (relative to the working directory), so run both records
from the same directory. `diff` exits 1 when any file differs and names it.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOTS = ("../shared/corpus", "../shared/seeds", "corpus/seeds")


def inputs(roots: list[str]) -> list[str]:
    """Every file under the roots (recursively), sorted, as paths relative to the cwd."""
    out: list[str] = []
    for root in roots:
        base = Path(root)
        if base.is_file():
            out.append(str(base))
        elif base.is_dir():
            out.extend(str(p) for p in sorted(base.rglob("*")) if p.is_file())
    return out


def slot(path: str) -> str:
    """A file name for one input's record: its path with separators replaced."""
    return path.replace("../", "").replace("/", "__")


def record_one(path: str, out: Path) -> int:
    proc = subprocess.run(
        [sys.executable, "-m", "crkb", "parse", path, "--json"],
        capture_output=True,
        check=False,
    )
    name = slot(path)
    (out / f"{name}.out").write_bytes(proc.stdout)
    (out / f"{name}.meta").write_bytes(
        f"exit {proc.returncode}\n".encode() + b"stderr:\n" + proc.stderr
    )
    return proc.returncode


def record(out: Path, roots: list[str], jobs: int) -> int:
    out.mkdir(parents=True, exist_ok=True)
    files = inputs(roots)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        codes = list(pool.map(lambda p: record_one(p, out), files))
    refused = sum(1 for c in codes if c != 0)
    print(f"{len(files)} files recorded in {out} ({refused} refused)")
    return 0


def diff(a: Path, b: Path) -> int:
    names_a = {p.name for p in a.iterdir()}
    names_b = {p.name for p in b.iterdir()}
    problems: list[str] = []
    for name in sorted(names_a ^ names_b):
        problems.append(f"only in {a if name in names_a else b}: {name}")
    same = 0
    for name in sorted(names_a & names_b):
        if (a / name).read_bytes() == (b / name).read_bytes():
            same += 1
        else:
            problems.append(f"differs: {name}")
    for p in problems:
        print(p)
    print(f"{same} identical, {len(problems)} different")
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    rec = sub.add_parser("record", help="run crkb parse --json on every input file")
    rec.add_argument("out", type=Path)
    rec.add_argument("roots", nargs="*", default=list(ROOTS))
    rec.add_argument("--jobs", type=int, default=2)
    dif = sub.add_parser("diff", help="compare two records byte for byte")
    dif.add_argument("a", type=Path)
    dif.add_argument("b", type=Path)
    args = parser.parse_args(argv)
    if args.mode == "record":
        return record(args.out, args.roots, args.jobs)
    return diff(args.a, args.b)


if __name__ == "__main__":
    sys.exit(main())
