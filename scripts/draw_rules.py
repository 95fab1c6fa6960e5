"""Draw the rules a new batch of unseen judged questions asks about: at random with a fixed
seed, one per section, among the rules no judged file cites yet, so that the batch measures
search on rules nobody has tuned it to (DEVELOPERS.md, search quality).

Usage: draw_rules.py --seed N [--exclude FILE]... [--count 25]
Prints two lines, EN and ZH: the rule numbers a helper writes English questions about (read in
the English 2025-07-25 text) and those for Chinese questions (the translation of 2024-04-10).
A rule is drawn from those numbered alike in both texts whose text is over 40 characters;
--exclude adds judged files whose cited rules (and their parents) are left out, to the shared
and crkb's own judged files. A draw depends on what those files cite when it is made: batches
e (--seed 20261129) and f (--seed 20261130 --exclude batch e's lines) were drawn with the judged
files of 16e7084, and a checkout of that commit with this script beside it draws them again;
batches g (--seed 20261131) and k (--seed 20261132 --exclude g's lines) with those of 2be9ce0.
"""

from __future__ import annotations

import argparse
import random
import re
import string
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / ".." / "shared" / "corpus"
JUDGED = [
    ROOT / "tests/fixtures/search_heldout.tsv",
    ROOT / "tests/fixtures/search_unseen.tsv",
    ROOT / ".." / "shared" / "eval" / "queries.tsv",
    ROOT / ".." / "shared" / "eval" / "questions.tsv",
]
RULE = re.compile(r"^(\d{3}\.\d+[a-z]?)\.? (.+)")
CITED = re.compile(r"\b\d{3}\.\d+[a-z]?")
SHORTEST = 40  # characters: a shorter rule is a heading or a stub, not something asked about


def unlettered(number: str) -> str:
    """The rule a subrule belongs to (702.19 for 702.19b), or the rule itself."""
    return number.rstrip(string.ascii_lowercase)


def numbered(path: Path) -> dict[str, str]:
    """Rule number → its first text over SHORTEST characters (the contents list comes first)."""
    text = path.read_text(encoding="utf-8-sig", errors="replace")
    out: dict[str, str] = {}
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        m = RULE.match(line)
        if m and len(m.group(2)) > SHORTEST:
            out.setdefault(m.group(1), m.group(2))
    return out


def cited(files: Iterable[Path]) -> set[str]:
    """Every rule number a judged file's lines hold, and each one's unlettered parent."""
    out: set[str] = set()
    for f in files:
        for line in f.read_text(encoding="utf-8").splitlines():
            if line.startswith("#") or not line.strip():
                continue
            for n in CITED.findall(line):
                out |= {n, unlettered(n)}
    return out


def draw(
    en: dict[str, str], zh: dict[str, str], used: set[str], seed: int, count: int
) -> list[str]:
    """2 × count rule numbers, one per rule of the second level (702.19 for 702.19b)."""
    pool = sorted(n for n in en if n in zh and n not in used and unlettered(n) not in used)
    picked: list[str] = []
    seen: set[str] = set()
    for n in random.Random(seed).sample(pool, min(len(pool), 60)):
        head = unlettered(n)
        if head not in seen:
            seen.add(head)
            picked.append(n)
    return picked[: 2 * count]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--exclude", type=Path, action="append", default=[])
    ap.add_argument("--count", type=int, default=25)
    args = ap.parse_args(argv)
    files = [f for f in JUDGED if f.exists()] + args.exclude
    missing = [str(f) for f in args.exclude if not f.exists()]
    if missing:
        print(f"draw_rules: no such file: {missing[0]}", file=sys.stderr)
        return 2
    en = numbered(CORPUS / "en" / "txt" / "2025-07-25.txt")
    zh = numbered(CORPUS / "zh" / "txt" / "2024-04-10.txt")
    picked = draw(en, zh, cited(files), args.seed, args.count)
    print("EN", " ".join(picked[: args.count]))
    print("ZH", " ".join(picked[args.count :]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
