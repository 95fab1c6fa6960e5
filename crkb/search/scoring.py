"""BM25 over the index's postings, restricted to one version's documents.

Whoosh's own matcher tree costs a Python call per posting of every version; here a term's
postings are a slice of flat arrays (crkb/search/postings.py), cut to the version in scope by a
mask, and the sums run over dense arrays, one slot per indexed document. Every sum is taken in
the order the former per-document dictionaries took it, so scores are the same to the bit, and
the order in which documents were first met is kept: it breaks ties between equal scores.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np

from crkb.search.postings import EMPTY_DOCS, EMPTY_FREQS, FloatArray, IntArray, Postings
from crkb.search.question import Term

K1 = 1.2
B = 0.75
ScopeId = tuple[str, int]  # (language, version ordinal)
Mask = np.ndarray  # bool, one per document of the index: the documents of one version
Sat = tuple[IntArray, FloatArray]  # documents, and a value for each


class Scored:
    """Scores and matched query weight per document (dense over the index), and the documents
    scored, in the order they were first met."""

    def __init__(self, n: int) -> None:
        self.scores: FloatArray = np.zeros(n)
        self.matched: FloatArray = np.zeros(n)
        self.present = np.zeros(n, dtype=bool)
        self._met: list[IntArray] = []

    def add(self, docs: IntArray, values: FloatArray) -> None:
        """Add one list's values (its documents distinct) to the scores."""
        new = docs[~self.present[docs]]
        if len(new):
            self.present[new] = True
            self._met.append(new)
        self.scores[docs] += values

    def merge(self, other: Scored) -> None:
        """Add another query part's scores (documents new here follow, in its order)."""
        docs = other.order()
        self.add(docs, other.scores[docs])

    def order(self) -> IntArray:
        """The documents scored, in the order first met."""
        if len(self._met) != 1:
            self._met = [np.concatenate(self._met)] if self._met else []
        return self._met[0] if self._met else EMPTY_DOCS


class Scorer:
    """BM25F scoring of weighted terms with several forms, over one version's documents."""

    def __init__(self, postings: Postings, cache_bytes: int = 2 << 20) -> None:
        """A term's BM25 values in one version and field are what later queries reuse; they
        are kept up to `cache_bytes` (a worker's memory is bounded in bytes)."""
        self.postings = postings
        self._avg: dict[tuple[ScopeId, str], float] = {}
        self._sizes: dict[ScopeId, tuple[int, int]] = {}  # documents in scope, bound
        self.cache_bytes = cache_bytes
        self._sat: dict[tuple[ScopeId, str, tuple[tuple[str, float], ...]], Sat] = {}
        self._sat_bytes = 0

    def frequency(self, field: str, term: str) -> int:
        """In how many documents (of every version) a term occurs."""
        return self.postings.frequency(field, term)

    def avg(self, scope_id: ScopeId, scope: Mask, field: str) -> float:
        """Average length of the field over the documents in scope that have it."""
        key = (scope_id, field)
        got = self._avg.get(key)
        if got is None:
            lengths = self.postings.lengths[field][scope]
            lengths = lengths[lengths > 0]
            got = self._avg[key] = int(lengths.sum()) / len(lengths) if len(lengths) else 1.0
        return got

    def merged(
        self, scope_id: ScopeId, scope: Mask, field: str, forms: Iterable[tuple[str, float]]
    ) -> tuple[IntArray, FloatArray]:
        """(documents in scope, frequency of a term counting all its forms, each by its
        factor), the documents in the order the forms' lists meet them."""
        parts = []
        for form, factor in forms:
            docs, tf = self.postings.postings(field, form)
            keep = scope[docs]
            if keep.any():
                parts.append((docs[keep], factor * tf[keep]))
        if len(parts) <= 1:
            return parts[0] if parts else (EMPTY_DOCS, EMPTY_FREQS)
        total = Scored(self.bound(scope_id, scope))
        for docs, tf in parts:
            total.add(docs, tf)
        docs = total.order()
        return docs, total.scores[docs]

    def score(
        self,
        scope_id: ScopeId,
        scope: Mask,
        terms: Iterable[Term],
        fields: dict[str, tuple[float, float]],
    ) -> Scored:
        """BM25F score, and the weight of the query terms matched, per document in scope.

        `fields` maps a field to (boost, coordination): a term met only in a field of
        coordination 0.5 (the parent's title, the examples) counts half as matched.
        """
        n_docs = max(self.size(scope_id, scope), 1)
        bound = self.bound(scope_id, scope)
        out = Scored(bound)
        seen = np.zeros(bound)  # a term's best coordination per document (zeroed after it)
        for term in terms:
            touched = []
            for field, (boost, coord) in fields.items():
                docs, sat = self.saturated(scope_id, scope, field, term.forms)
                if not len(docs):
                    continue
                df = len(docs)
                w = term.weight * boost * math.log(1 + (n_docs - df + 0.5) / (df + 0.5))
                out.add(docs, w * sat)
                if coord:
                    seen[docs] = np.maximum(seen[docs], coord)
                    touched.append(docs)
            if touched:  # a document listed twice gets the one sum twice: added once
                docs = touched[0] if len(touched) == 1 else np.concatenate(touched)
                out.matched[docs] += term.weight * seen[docs]
                seen[docs] = 0.0
        return out

    def size(self, scope_id: ScopeId, scope: Mask) -> int:
        """How many documents the scope holds (counted once)."""
        return self._bounds(scope_id, scope)[0]

    def bound(self, scope_id: ScopeId, scope: Mask) -> int:
        """One past the scope's highest document number: the index numbers the newest
        releases' documents first, so the newest scope's sums need a fifth of the index."""
        return self._bounds(scope_id, scope)[1]

    def _bounds(self, scope_id: ScopeId, scope: Mask) -> tuple[int, int]:
        got = self._sizes.get(scope_id)
        if got is None:
            docs = np.flatnonzero(scope)
            got = self._sizes[scope_id] = (len(docs), int(docs[-1]) + 1 if len(docs) else 0)
        return got

    def saturated(
        self, scope_id: ScopeId, scope: Mask, field: str, forms: tuple[tuple[str, float], ...]
    ) -> Sat:
        """(documents, BM25's saturated term frequency of a term, all its forms, in a field)."""
        key = (scope_id, field, forms)
        got = self._sat.get(key)
        if got is None:
            docs, tf = self.merged(scope_id, scope, field, forms)
            avg = self.avg(scope_id, scope, field)
            lengths = self.postings.lengths[field][docs]
            got = (docs, tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths / avg)))
            size = _nbytes(got)
            if size <= self.cache_bytes:  # kept, the oldest let go beyond the budget
                self._sat[key] = got
                self._sat_bytes += size
                while self._sat_bytes > self.cache_bytes:
                    self._sat_bytes -= _nbytes(self._sat.pop(next(iter(self._sat))))
        return got


def _nbytes(sat: Sat) -> int:
    return max(1, sat[0].nbytes + sat[1].nbytes)
