"""What a search hit highlights: the spans of the words that matched (crkb.markup makes HTML)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from crkb.markup import Span, merge
from crkb.search.analysis import STOP_WORDS, stem

_WORD = re.compile(r"[A-Za-z0-9]+")


def english(text: str, stems: Iterable[str]) -> list[Span]:
    """Every word whose stem is one of the query's stems."""
    wanted = set(stems)
    spans = []
    for m in _WORD.finditer(text):
        w = m.group(0).lower()
        if w not in STOP_WORDS and stem(w) in wanted:
            spans.append(Span(*m.span()))
    return merge(spans)


def substrings(text: str, needles: Iterable[str]) -> list[Span]:
    """Every occurrence of each needle (Chinese words and runs, rule numbers)."""
    spans = []
    for n in {n for n in needles if n}:
        start = text.find(n)
        while start >= 0:
            spans.append(Span(start, start + len(n)))
            start = text.find(n, start + len(n))
    return merge(spans)
