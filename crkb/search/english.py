"""Everyday English words the rules never use: a player's word, not a misspelling of the rules'.

The spelling corrector knows only the words of the rules, so it read "when does summoning
sickness wear off" as "bear off" and "my deck runs out" as "ruins out". The most frequent English
words that it would correct are known to it as they are: listed at build time (the index's
"english"), from pyspellchecker's English word frequencies, which a server never loads.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

COMMON = 30_000  # the most frequent English words looked at (a rarer word may be a typo)


@functools.cache
def frequent_words(most: int = COMMON) -> tuple[str, ...]:
    """The `most` most frequent English words of four letters or more (the corrector leaves
    shorter ones alone), most frequent first. Read once a process: a build lists them for the
    index and again for the pack."""
    from spellchecker import SpellChecker  # the list is read at build time only

    counts = SpellChecker(language="en", distance=1).word_frequency
    ranked = sorted(counts.items(), key=lambda wc: (-wc[1], wc[0]))
    return tuple(w for w, _c in ranked[:most] if len(w) >= 4 and w.isalpha())


def within_reach(words: Iterable[str], correct: Callable[[str], str | None]) -> list[str]:
    """The words the corrector would change (only these need to be known to it), sorted."""
    return sorted({w for w in words if correct(w) is not None})
