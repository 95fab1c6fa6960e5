"""HTML-safe highlights: the text escaped, the words that matched wrapped in <mark>."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

from crkb.search.analysis import STOP_WORDS, stem

_WORD = re.compile(r"[A-Za-z0-9]+")


def _render(text: str, spans: list[tuple[int, int]]) -> str:
    out: list[str] = []
    last = 0
    for start, end in _merge(spans):
        out.append(html.escape(text[last:start], quote=False))
        out.append("<mark>" + html.escape(text[start:end], quote=False) + "</mark>")
        last = end
    out.append(html.escape(text[last:], quote=False))
    return "".join(out)


def _merge(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    merged: list[tuple[int, int]] = []
    for s, e in sorted(spans):
        if merged and s <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(e, merged[-1][1]))
        else:
            merged.append((s, e))
    return merged


def english(text: str, stems: Iterable[str]) -> str:
    """Marks every word whose stem is one of the query's stems."""
    wanted = set(stems)
    spans = []
    for m in _WORD.finditer(text):
        w = m.group(0).lower()
        if w not in STOP_WORDS and stem(w) in wanted:
            spans.append(m.span())
    return _render(text, spans)


def substrings(text: str, needles: Iterable[str]) -> str:
    """Marks every occurrence of each needle (Chinese words and runs, rule numbers)."""
    spans = []
    for n in {n for n in needles if n}:
        start = text.find(n)
        while start >= 0:
            spans.append((start, start + len(n)))
            start = text.find(n, start + len(n))
    return _render(text, spans)
