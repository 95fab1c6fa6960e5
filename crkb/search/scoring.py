"""BM25 over the index's postings, restricted to one version's documents.

Whoosh's own matcher tree costs a Python call per posting of every version; here a term's
postings are read block by block once, cut down to the version in scope and cached, so a
query touches only that version's documents.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from cachetools import LRUCache

from crkb.search.question import Term

K1 = 1.2
B = 0.75
ScopeId = tuple[str, int]  # (language, version ordinal)


def read_postings(
    reader: Any, field: str, term: str, upto: int | None = None
) -> tuple[list[int], list[float]]:
    """(docnums, weights) of a term in a field, up to about `upto`; empty when not indexed."""
    try:
        m = reader.postings(field, term)
    except Exception:  # noqa: BLE001 - an unknown term is simply absent
        return [], []
    ids: list[int] = []
    weights: list[float] = []
    if hasattr(m, "_read_ids") and hasattr(m, "_next_block"):
        while m.is_active():  # whole blocks at a time (Whoosh 2.7 leaf matcher)
            m._read_ids()
            m._read_weights()
            ids.extend(m._ids)
            weights.extend(m._weights)
            if upto is not None and m._maxid >= upto:
                break
            m._next_block()
        return ids, weights
    while m.is_active():  # any other matcher: one posting at a time
        if upto is not None and m.id() > upto:
            break
        ids.append(m.id())
        weights.append(m.weight())
        m.next()
    return ids, weights


class Scorer:
    """Per-scope postings cache and BM25F scoring of weighted terms with several forms."""

    def __init__(
        self, reader: Any, cache_postings: int = 10_000, cache_saturated: int = 100_000
    ) -> None:
        """The caches are bounded in documents (summed over the lists they hold), which is what
        a serving process's memory grows with (~65 bytes each). A term's BM25 values in one
        version and field are what a query reuses; the raw postings are read once to make them,
        so they get the smaller share (a cold query: 4.1 → 3.6 ms for +4 MB; more would cost a
        web worker its 150 MB)."""
        self.reader = reader
        self.cache: LRUCache[tuple[ScopeId, str, str], dict[int, float]]
        self.cache = LRUCache(cache_postings, getsizeof=_size)
        self._avg: dict[tuple[ScopeId, str], float] = {}
        self._lengths: dict[str, dict[int, int]] = {}
        self._upto: dict[ScopeId, int] = {}
        self._sat: LRUCache[tuple[ScopeId, str, tuple[tuple[str, float], ...]], dict[int, float]]
        self._sat = LRUCache(cache_saturated, getsizeof=_size)

    def postings(
        self, scope_id: ScopeId, scope: set[int], field: str, term: str
    ) -> dict[int, float]:
        """docnum → term frequency, for the documents in scope."""
        key = (scope_id, field, term)
        got: dict[int, float] | None = self.cache.get(key)
        if got is not None:
            return got
        upto = self._upto.get(scope_id)
        if upto is None:
            upto = self._upto[scope_id] = max(scope, default=0)
        ids, weights = read_postings(self.reader, field, term, upto)
        got = {d: w for d, w in zip(ids, weights, strict=False) if d in scope}
        if _size(got) <= self.cache.maxsize:
            self.cache[key] = got
        return got

    def frequency(self, field: str, term: str) -> int:
        """In how many documents (of every version) a term occurs; cheap, no postings read."""
        try:
            return int(self.reader.doc_frequency(field, term))
        except Exception:  # noqa: BLE001 - an unknown term occurs nowhere
            return 0

    def length(self, field: str, docnum: int) -> int:
        """The field's length in terms for one document (cached)."""
        lengths = self._lengths.setdefault(field, {})
        n = lengths.get(docnum)
        if n is None:
            n = lengths[docnum] = self.reader.doc_field_length(docnum, field, 0) or 0
        return n

    def avg(self, scope_id: ScopeId, scope: set[int], field: str) -> float:
        """Average length of the field over the documents in scope that have it."""
        key = (scope_id, field)
        if key not in self._avg:
            lengths = [n for d in scope if (n := self.length(field, d))]
            self._avg[key] = sum(lengths) / len(lengths) if lengths else 1.0
        return self._avg[key]

    def merged(
        self, scope_id: ScopeId, scope: set[int], field: str, forms: Iterable[tuple[str, float]]
    ) -> dict[int, float]:
        """docnum → frequency of a term counting all its forms (each by its factor)."""
        out: dict[int, float] = {}
        for form, factor in forms:
            for d, tf in self.postings(scope_id, scope, field, form).items():
                out[d] = out.get(d, 0.0) + factor * tf
        return out

    def score(
        self,
        scope_id: ScopeId,
        scope: set[int],
        terms: Iterable[Term],
        fields: dict[str, tuple[float, float]],
    ) -> tuple[dict[int, float], dict[int, float]]:
        """BM25F score, and the weight of the query terms matched, per document in scope.

        `fields` maps a field to (boost, coordination): a term met only in a field of
        coordination 0.5 (the parent's title, the examples) counts half as matched.
        """
        n_docs = max(len(scope), 1)
        scores: dict[int, float] = {}
        matched: dict[int, float] = {}
        for term in terms:
            seen: dict[int, float] = {}
            for field, (boost, coord) in fields.items():
                sat = self.saturated(scope_id, scope, field, term.forms)
                if not sat:
                    continue
                df = len(sat)
                w = term.weight * boost * math.log(1 + (n_docs - df + 0.5) / (df + 0.5))
                if scores:
                    get = scores.get
                    for d, v in sat.items():
                        scores[d] = get(d, 0.0) + w * v
                else:  # the first list read: the same sums (0.0 + x is x), built in one go
                    scores = {d: w * v for d, v in sat.items()}
                if coord and seen:
                    for d in sat:
                        if seen.get(d, 0.0) < coord:
                            seen[d] = coord
                elif coord:
                    seen = dict.fromkeys(sat, coord)
            if matched:
                for d, c in seen.items():
                    matched[d] = matched.get(d, 0.0) + term.weight * c
            else:
                matched = {d: term.weight * c for d, c in seen.items()}
        return scores, matched

    def saturated(
        self, scope_id: ScopeId, scope: set[int], field: str, forms: tuple[tuple[str, float], ...]
    ) -> dict[int, float]:
        """docnum → BM25's saturated term frequency of a term (all its forms) in a field."""
        key = (scope_id, field, forms)
        got: dict[int, float] | None = self._sat.get(key)
        if got is None:
            post = self.merged(scope_id, scope, field, forms)
            avg = self.avg(scope_id, scope, field)
            lengths = self._lengths.setdefault(field, {})
            for d in post:
                if d not in lengths:
                    self.length(field, d)
            got = {
                d: tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths[d] / avg))
                for d, tf in post.items()
            }
            if _size(got) <= self._sat.maxsize:
                self._sat[key] = got
        return got


def _size(postings: dict[int, float]) -> int:
    return max(1, len(postings))
