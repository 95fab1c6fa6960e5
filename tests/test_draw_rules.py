"""scripts/draw_rules.py: the seeded draw of rules a batch of unseen judged questions asks about."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from draw_rules import cited, draw, numbered  # noqa: E402

TEXT = "x" * 50


def test_the_draw_is_the_same_for_a_seed_and_leaves_out_what_a_judged_file_cites(
    tmp_path: Path,
) -> None:
    rules = {f"{s}.{n}{x}": TEXT for s in (100, 200, 300) for n in range(1, 30) for x in ("", "a")}
    judged = tmp_path / "judged.tsv"
    judged.write_text(
        "# 100.1 in a comment is not cited\nq1\ten\ta question\t100.2a 200.3\tnote\n",
        encoding="utf-8",
    )
    used = cited([judged])
    assert {"100.2a", "100.2", "200.3"} <= used and "100.1" not in used
    first = draw(rules, rules, used, seed=7, count=5)
    assert first == draw(rules, rules, used, seed=7, count=5)
    assert first != draw(rules, rules, used, seed=8, count=5)
    assert len(first) == 10
    heads = [n.rstrip("a") for n in first]
    assert len(set(heads)) == len(heads)  # one rule per numbered rule and its subrules
    assert not {n for n in first if n in used or n.rstrip("a") in used}


def test_a_rule_is_drawn_from_both_texts_and_only_when_it_says_something(tmp_path: Path) -> None:
    en = tmp_path / "en.txt"
    en.write_text(f"100.1. {TEXT}\r\n100.2. short\r\n100.3. {TEXT}\r\n", encoding="utf-8")
    zh = tmp_path / "zh.txt"
    zh.write_text(f"100.1. {TEXT}\n100.2. {TEXT}\n", encoding="utf-8")
    assert set(numbered(en)) == {"100.1", "100.3"}  # 100.2 is too short to ask about
    assert draw(numbered(en), numbered(zh), set(), seed=1, count=1) == ["100.1"]
