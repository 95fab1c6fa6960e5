"""Spelling suggestions from the index's own vocabulary (single-delete neighbourhoods)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable


def _deletes(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


def distance(a: str, b: str, cap: int = 3) -> int:
    """Optimal-string-alignment distance (adjacent swaps count once), at most `cap`."""
    if abs(len(a) - len(b)) >= cap:
        return cap
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return min(prev[-1], cap)


class Speller:
    """Corrects words the vocabulary does not know to the most frequent word within 2 edits."""

    def __init__(
        self,
        vocab: dict[str, int],
        stem: Callable[[str], str] | None = None,
        english: frozenset[str] = frozenset(),
    ) -> None:
        self.vocab = vocab
        self._index: dict[str, list[str]] | None = None
        self._stem = stem
        self._stems: frozenset[str] | None = None
        self.english = english  # everyday words the rules do not use (crkb.search.english)

    def _neighbours(self) -> dict[str, list[str]]:
        if self._index is None:
            index: dict[str, list[str]] = defaultdict(list)
            for w in self.vocab:
                if len(w) >= 4:
                    for d in _deletes(w):
                        index[d].append(w)
            self._index = dict(index)
        return self._index

    def known(self, word: str) -> bool:
        """True when the word occurs in the indexed text, or (given a stemmer) another form of
        it does: "working" and "stacking" are no misspellings of "wording" and "tracking";
        or it is an everyday English word or a form of one ("wear" is not "bear", "ramping" is
        not "damping")."""
        if word in self.vocab or word in self.english:
            return True
        if self._stem is None:
            return False
        if self._stems is None:
            self._stems = frozenset(map(self._stem, self.vocab))
        stem = self._stem(word)
        return stem in self._stems or stem in self.english  # "ramping": "ramp" is everyday

    def correct(self, word: str) -> str | None:
        """The best correction of an unknown word, or None (known, too short, or no neighbour)."""
        if len(word) < 4 or not word.isalpha() or self.known(word):
            return None
        index = self._neighbours()
        cands = set(index.get(word, ()))
        for d in _deletes(word):
            if d in self.vocab:
                cands.add(d)
            cands.update(index.get(d, ()))
        if not cands:
            return None
        return min(cands, key=lambda c: (distance(word, c), -self.vocab[c], c))
