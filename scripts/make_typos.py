"""Write tests/fixtures/search_typos_zh.tsv: crkb's own Chinese judged questions with one slip of
pinyin input each, made at random with a fixed seed, to measure how search copes with them.

Usage: make_typos.py [--seed N] [--index DIR]
A slip puts another character for a syllable typed (pypinyin, toneless) in place of one
character of a game term in the question (the terms the index's Chinese dictionary holds), as
picking the wrong candidate from an input method's list does: an everyday character (jieba knows
it as a word of its own) whose usual reading is that syllable, as an input method lists first.
The answers are the clean question's; `eval_search.py --queries` on this file measures it, and
on the clean file beside it.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pypinyin import Style, lazy_pinyin  # noqa: E402

from crkb.search import sounds  # noqa: E402
from crkb.search.engine import Searcher  # noqa: E402

SOURCE = ROOT / "tests/fixtures/search_heldout.tsv"
OUT = ROOT / "tests/fixtures/search_typos_zh.tsv"
EVERYDAY = 1000  # jieba's count of a character an input method lists among the first


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--index", type=Path, required=True)
    args = ap.parse_args()
    searcher = Searcher(args.index)
    cutter = searcher.cutter()
    usual: dict[str, list[str]] = {}  # syllable → everyday characters usually read so
    for syllable, chars in sounds.readings_table().items():
        usual[syllable] = [
            c
            for c, mark in zip(chars, chars[1:] + " ", strict=True)
            if c != "*" and mark == "*" and (cutter.tk.FREQ.get(c) or 0) >= EVERYDAY
        ]
    terms = sorted((w for w in cutter.game if len(w) > 1), key=lambda w: (-len(w), w))
    rng = random.Random(args.seed)
    lines = [
        "# Chinese judged questions of search_heldout.tsv with one slip of pinyin input each:",
        f"# written by scripts/make_typos.py --seed {args.seed} (a character of a game term put as",
        "# another of the same sound); the answers are the clean question's.",
        "# id\tlang\tquery\trelevant rule numbers\tnote",
    ]
    for line in SOURCE.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        qid, lang, query, answers, *_ = line.split("\t")
        if lang != "zh":
            continue
        held = [w for w in terms if w in query]
        if not held:
            continue
        term = rng.choice(held)
        said = lazy_pinyin(term, style=Style.NORMAL)  # the syllables typed for the term
        other = [[c for c in usual.get(s, []) if c != term[i]] for i, s in enumerate(said)]
        spots = [i for i, cs in enumerate(other) if cs]
        if not spots:
            continue
        i = rng.choice(spots)
        slip = term[:i] + rng.choice(other[i]) + term[i + 1 :]
        typo = query.replace(term, slip, 1)
        lines.append(f"t{qid}\tzh\t{typo}\t{answers}\tslip — {term} typed {slip}")
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines) - 4} questions → {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
