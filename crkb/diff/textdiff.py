"""Where two texts of one rule differ: words for English, characters for Chinese, marked in HTML."""

from __future__ import annotations

import html
import re
from difflib import SequenceMatcher

# English: words, runs of space, single other characters. Chinese: each CJK character alone.
_EN_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")
_ZH_TOKEN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]|[A-Za-z0-9]+|\s+|[^\w\s]|\w")


def tokens(text: str, lang: str) -> list[str]:
    """The text cut into diffable pieces that join back to exactly the text."""
    pattern = _ZH_TOKEN if lang == "zh" else _EN_TOKEN
    return pattern.findall(text)


def _wrap(tag: str, parts: list[str]) -> str:
    text = "".join(parts)
    return f"<{tag}>{html.escape(text)}</{tag}>" if text else ""


def highlight(old: str, new: str, lang: str) -> tuple[str, str]:
    """HTML-escaped `old` and `new`, with what was taken out in <del> and put in in <ins>."""
    a, b = tokens(old, lang), tokens(new, lang)
    sm = SequenceMatcher(None, a, b, autojunk=False)
    out_old: list[str] = []
    out_new: list[str] = []
    for op, i1, i2, j1, j2 in _merged(sm.get_opcodes(), a):
        if op == "equal":
            out_old.append(html.escape("".join(a[i1:i2])))
            out_new.append(html.escape("".join(b[j1:j2])))
        else:
            out_old.append(_wrap("del", a[i1:i2]))
            out_new.append(_wrap("ins", b[j1:j2]))
    return "".join(out_old), "".join(out_new)


def _merged(
    ops: list[tuple[str, int, int, int, int]], a: list[str]
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
