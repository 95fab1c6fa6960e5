"""Where two texts of one rule differ: words for English, characters for Chinese, as spans."""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher

from crkb.diff.match import plain_word
from crkb.markup import Span

# English: words, runs of space, single other characters. Chinese: each CJK character alone.
_EN_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")
_ZH_TOKEN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]|[A-Za-z0-9]+|\s+|[^\w\s]|\w")


def tokens(text: str, lang: str) -> list[str]:
    """The text cut into diffable pieces that join back to exactly the text."""
    pattern = _ZH_TOKEN if lang == "zh" else _EN_TOKEN
    return pattern.findall(text)


def highlight(old: str, new: str, lang: str) -> tuple[list[Span], list[Span]]:
    """What was taken out of `old` (`del` spans) and put into `new` (`ins` spans); a quote or
    dash only written otherwise (’ for '), or a word's _italic_ marks, is no change."""
    a, b = tokens(old, lang), tokens(new, lang)
    sm = SequenceMatcher(
        None, [plain_word(t) for t in a], [plain_word(t) for t in b], autojunk=False
    )
    spans_old: list[Span] = []
    spans_new: list[Span] = []
    pos_a = pos_b = 0
    for op, i1, i2, j1, j2 in _merged(sm.get_opcodes(), a):
        len_a = sum(map(len, a[i1:i2]))
        len_b = sum(map(len, b[j1:j2]))
        if op != "equal":
            if len_a:
                spans_old.append(Span(pos_a, pos_a + len_a, "del"))
            if len_b:
                spans_new.append(Span(pos_b, pos_b + len_b, "ins"))
        pos_a += len_a
        pos_b += len_b
    return spans_old, spans_new


def _merged(
    ops: Sequence[tuple[str, int, int, int, int]], a: list[str]
) -> list[tuple[str, int, int, int, int]]:
    """Join edits separated only by a space, so `a b` → `c d` reads as one marked phrase."""
    out: list[tuple[str, int, int, int, int]] = []
    for op in ops:
        if (
            len(out) >= 2
            and op[0] != "equal"
            and out[-1][0] == "equal"
            and out[-2][0] != "equal"
            and "".join(a[out[-1][1] : out[-1][2]]).isspace()
        ):
            prev = out[-2]
            out[-2:] = [("replace", prev[1], op[2], prev[3], op[4])]
        else:
            out.append(op)
    return out
