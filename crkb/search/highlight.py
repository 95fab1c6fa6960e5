"""What a search hit highlights: the spans of the words that matched (crkb.markup makes HTML)."""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from crkb.markup import Span, merge
from crkb.search.analysis import STOP_WORDS, WORD, fold, stem


def english(text: str, stems: Iterable[str]) -> list[Span]:
    """Every word whose stem is one of the query's stems."""
    wanted = set(stems)
    spans = []
    for m in WORD.finditer(text):
        w = fold(m.group(0).lower())
        if w not in STOP_WORDS and stem(w) in wanted:
            spans.append(Span(*m.span()))
    return merge(spans)


_STOP_STEMS = frozenset(stem(w) for w in STOP_WORDS)


def english_stemmed(text: str, stems: tuple[str, ...], wanted: Iterable[str]) -> list[Span]:
    """`english(text, wanted)` from the text's stems already made (one per word, in order, as
    analysis.english_words splits it): the words are found again only when one is wanted."""
    want = set(wanted)
    if want & _STOP_STEMS:  # a stop word's stem wanted: only `english` tells the words apart
        return english(text, want)
    hits = [i for i, s in enumerate(stems) if s in want]
    if not hits:
        return []
    spans = [m.span() for m in itertools.islice(WORD.finditer(text), hits[-1] + 1)]
    # words stand apart (a character no word holds between two): merged as they are, in order
    return [Span(*spans[i]) for i in hits]


def substrings(text: str, needles: Iterable[str]) -> list[Span]:
    """Every occurrence of each needle (Chinese words and runs, rule numbers)."""
    spans = []
    for n in {n for n in needles if n}:
        start = text.find(n)
        while start >= 0:
            spans.append(Span(start, start + len(n)))
            start = text.find(n, start + len(n))
    return merge(spans)
