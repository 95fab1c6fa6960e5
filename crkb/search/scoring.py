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
from typing import Any

import numpy as np
import numpy.typing as npt

from crkb.search.postings import EMPTY_DOCS, EMPTY_FREQS, FloatArray, IntArray, Postings
from crkb.search.question import Term

K1 = 1.2
B = 0.75
ScopeId = tuple[str, int]  # (language, version ordinal)
Mask = np.ndarray  # bool, one per document of the index: the documents of one version
Sat = tuple[IntArray, FloatArray]  # documents, and a value for each
Forms = tuple[tuple[str, float], ...]  # a term's forms, each with its factor
FieldsSat = tuple[IntArray, FloatArray, tuple[int, ...]]  # Sat of several fields, each's count
UNSEEN = np.iinfo(np.int64).max  # a scratch slot no document has filled


class Scored:
    """The documents scored, in the order they were first met, and for each its score and the
    query weight it matched (arrays in that order: a query meets a few hundred documents, and
    arrays over the whole index cost more to clear than to fill)."""

    def __init__(self, docs: IntArray, scores: FloatArray, matched: FloatArray) -> None:
        self.docs = docs
        self.scores = scores
        self.matched = matched


NOTHING = Scored(EMPTY_DOCS, EMPTY_FREQS, EMPTY_FREQS)


class Scorer:
    """BM25F scoring of weighted terms with several forms, over one version's documents."""

    def __init__(self, postings: Postings, cache_bytes: int = 2 << 20) -> None:
        """A term's BM25 values in one version and field are what later queries reuse; they
        are kept up to `cache_bytes` (a worker's memory is bounded in bytes)."""
        self.postings = postings
        self._avg: dict[tuple[ScopeId, str], float] = {}
        self._sizes: dict[ScopeId, tuple[int, int, int]] = {}  # documents in scope, first, bound
        self.cache_bytes = cache_bytes
        self._sat_in: dict[tuple[ScopeId, tuple[str, ...], Forms], FieldsSat] = {}
        self._sat_bytes = 0
        self._sums_scratch: FloatArray = np.zeros(0)
        self._matched_scratch: FloatArray = np.zeros(0)
        self._seen_scratch: FloatArray = np.zeros(0)
        self._first_scratch: npt.NDArray[np.int64] = np.zeros(0, dtype=np.int64)

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
        parts = self._in_scope(scope_id, scope, field, forms)
        if len(parts) <= 1:
            return parts[0] if parts else (EMPTY_DOCS, EMPTY_FREQS)
        return self._sums(
            self.bound(scope_id, scope),
            np.concatenate([d for d, _tf in parts]),
            np.concatenate([tf for _d, tf in parts]),
        )

    def _in_scope(
        self, scope_id: ScopeId, scope: Mask, field: str, forms: Iterable[tuple[str, float]]
    ) -> list[tuple[IntArray, FloatArray]]:
        """Each form's postings in scope: (documents, frequency times the form's factor), for
        the forms that have any."""
        parts = []
        post = self.postings
        for form, factor in forms:
            a, b = self.cut(scope_id, scope, post.span(field, form))
            docs = post.docs[a:b].astype(np.int32)
            keep = scope[docs]
            if keep.any():
                parts.append((docs[keep], factor * post.freqs[a:b].astype(np.float64)[keep]))
        return parts

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
        The lists are short (a median of ~130 postings a call), so the sums are taken over
        all of them at once: a few array operations a call rather than a few per list.
        """
        n_docs = max(self.size(scope_id, scope), 1)
        bound = self.bound(scope_id, scope)
        names = tuple(fields)
        lists: list[IntArray] = []
        values: list[FloatArray] = []
        matched = self._scratch(bound)[1]  # the weight matched, per document: left zeroed
        coords = [coord for _boost, coord in fields.values()]
        for term in terms:
            docs, sat, counts = self.saturated_in(scope_id, scope, names, term.forms)
            if not len(docs):
                continue
            # each list's weight (as a list by list sum took it), for each of its documents
            met = [df for df in counts if df]
            ws = [
                term.weight * boost * _idf(n_docs, df)
                for (boost, _coord), df in zip(fields.values(), counts, strict=True)
                if df
            ]
            lists.append(docs)
            values.append((ws[0] if len(ws) == 1 else np.array(ws).repeat(met)) * sat)
            touched = [i for i, df in enumerate(counts) if df and coords[i]]
            if len(touched) == 1:  # its one list's documents are distinct
                i = touched[0]
                a = sum(counts[:i])
                matched[docs[a : a + counts[i]]] += term.weight * coords[i]
            elif touched:  # a document in several lists counts its best coordination, once
                seen = self._scratch(bound)[2]
                each = np.array(coords).repeat(counts)
                if not each.all():
                    docs, each = docs[each != 0], each[each != 0]
                np.maximum.at(seen, docs, each)
                matched[docs] += term.weight * seen[docs]
                seen[docs] = 0.0
        if not lists:
            return NOTHING
        docs, scores = self._sums(
            bound,
            lists[0] if len(lists) == 1 else np.concatenate(lists),
            values[0] if len(values) == 1 else np.concatenate(values),
        )
        got = matched[docs]
        matched[docs] = 0.0
        return Scored(docs, scores, got)

    def one_field(
        self, scope_id: ScopeId, scope: Mask, terms: Iterable[Term], field: str
    ) -> tuple[IntArray, FloatArray]:
        """BM25 of the terms in one field, per document in scope that has any: (documents in
        ascending order, scores). What `score` gives for that field alone, without the matched
        weight and in document order, for a fraction of its cost (a query asks it of every
        candidate's players' questions: crkb/search/asked.py)."""
        n_docs = max(self.size(scope_id, scope), 1)
        post = self.postings
        lengths = post.lengths[field]
        avg = self.avg(scope_id, scope, field)
        docs: list[IntArray] = []
        values: list[FloatArray] = []
        bound = self.bound(scope_id, scope)
        for term in terms:
            # read straight from the postings, not kept: the field's lists are short, and kept
            # they would push the rules' own fields' values out of the budget. A term's forms
            # count as one frequency, as `merged` counts them.
            parts = self._in_scope(scope_id, scope, field, term.forms)
            if not parts:
                continue
            if len(parts) == 1:
                got, tf = parts[0]
            else:
                sums = np.bincount(
                    np.concatenate([d for d, _f in parts]),
                    np.concatenate([f for _d, f in parts]),
                    bound,
                )
                got = np.flatnonzero(sums).astype(np.int32)
                tf = sums[got].astype(np.float64)
            docs.append(got)
            sat = _saturate(tf, lengths[got], avg)
            values.append(term.weight * _idf(n_docs, len(got)) * sat)
        if not docs:
            return EMPTY_DOCS, EMPTY_FREQS
        if len(docs) == 1:  # a term's postings are in document order
            return docs[0], values[0]
        total: FloatArray = np.bincount(np.concatenate(docs), np.concatenate(values), bound).astype(
            np.float64
        )
        held = np.flatnonzero(total).astype(np.int32)
        return held, total[held]

    def add(self, into: Scored, docs: IntArray, scores: FloatArray) -> Scored:
        """`into` with scores added to its documents, and the documents new to it after them
        (in `docs`' order, matching none of the query's weight): `merge` for distinct `docs`."""
        if not len(docs):
            return into
        sums = self._scratch(_bound_of(into, docs))[0]
        sums[into.docs] = into.scores
        sums[docs] += scores
        new = docs[~np.isin(docs, into.docs, assume_unique=True)]
        order = np.concatenate((into.docs, new)).astype(into.docs.dtype, copy=False)
        got = sums[order]
        sums[order] = 0.0
        matched = np.concatenate((into.matched, np.zeros(len(new))))
        return Scored(order, got, matched)

    def within(self, into: Scored, other: Scored) -> Scored:
        """`into` with another query part's scores added to its own documents only."""
        if not len(other.docs) or not len(into.docs):
            return into
        sums = self._scratch(_bound_of(into, other.docs))[0]
        sums[other.docs] = other.scores  # distinct: a Scored holds each document once
        got = into.scores + sums[into.docs]
        sums[other.docs] = 0.0
        return Scored(into.docs, got, into.matched)

    def merge(self, into: Scored, other: Scored) -> Scored:
        """`into` with another query part's scores added (its matched weight left as it is;
        documents new to it follow, in the other's order)."""
        if not len(other.docs):
            return into
        docs = np.concatenate((into.docs, other.docs))
        scores = np.concatenate((into.scores, other.scores))
        order, sums = self._sums(int(docs.max()) + 1, docs, scores)  # docs: not empty
        matched = np.zeros(len(order))
        matched[: len(into.docs)] = into.matched
        return Scored(order, sums, matched)

    def _sums(self, bound: int, docs: IntArray, values: FloatArray) -> tuple[IntArray, FloatArray]:
        """(each document of `docs` once, in the order first met; the sum of its values, taken
        in the order given, as adding one list after another did)."""
        sums, _matched, _seen, first = self._scratch(bound)
        np.add.at(sums, docs, values)
        places = np.arange(len(docs))
        np.minimum.at(first, docs, places)
        order = docs[first[docs] == places]  # each document where it first stands
        first[docs] = UNSEEN
        got = sums[order]
        sums[order] = 0.0
        return order, got

    def _scratch(
        self, bound: int
    ) -> tuple[FloatArray, FloatArray, FloatArray, npt.NDArray[np.int64]]:
        """Arrays of at least `bound` slots, kept between calls: sums, matched and seen zeroed,
        first every slot UNSEEN (whoever uses one leaves it so)."""
        if len(self._first_scratch) < bound:
            self._sums_scratch = np.zeros(bound)
            self._matched_scratch = np.zeros(bound)
            self._seen_scratch = np.zeros(bound)
            self._first_scratch = np.full(bound, UNSEEN, dtype=np.int64)
        return self._sums_scratch, self._matched_scratch, self._seen_scratch, self._first_scratch

    def cut(self, scope_id: ScopeId, scope: Mask, span: tuple[int, int]) -> tuple[int, int]:
        """The part of a term's postings (`span`, in document order) that can lie in scope:
        between its first and last documents. The index numbers the newest releases'
        documents first, so in the newest scope a common word's list is cut to a seventh
        before the scope's mask is read (the same documents kept, in the same order)."""
        a, b = span
        if a == b:
            return span
        _n, first, bound = self._bounds(scope_id, scope)
        docs = self.postings.docs[a:b]
        lo = a if first <= docs[0] else a + int(docs.searchsorted(first))
        hi = b if docs[-1] < bound else a + int(docs.searchsorted(bound))
        return lo, max(lo, hi)

    def size(self, scope_id: ScopeId, scope: Mask) -> int:
        """How many documents the scope holds (counted once)."""
        return self._bounds(scope_id, scope)[0]

    def bound(self, scope_id: ScopeId, scope: Mask) -> int:
        """One past the scope's highest document number: the index numbers the newest
        releases' documents first, so the newest scope's sums need a fifth of the index."""
        return self._bounds(scope_id, scope)[2]

    def _bounds(self, scope_id: ScopeId, scope: Mask) -> tuple[int, int, int]:
        """(how many documents the scope holds, its first, one past its last)."""
        got = self._sizes.get(scope_id)
        if got is None:
            docs = np.flatnonzero(scope)
            got = self._sizes[scope_id] = (
                (len(docs), int(docs[0]), int(docs[-1]) + 1) if len(docs) else (0, 0, 0)
            )
        return got

    def saturated_in(
        self, scope_id: ScopeId, scope: Mask, names: tuple[str, ...], forms: Forms
    ) -> FieldsSat:
        """`saturated` in each of the fields `names`, one after another, and how many documents
        each holds (kept: a term's values recur from query to query)."""
        key = (scope_id, names, forms)
        got = self._sat_in.get(key)
        if got is None:
            got = self._saturated_in(scope_id, scope, names, forms)
            size = _nbytes(got)
            if size <= self.cache_bytes:  # kept, the oldest let go beyond the budget
                self._sat_in[key] = got
                self._sat_bytes += size
                while self._sat_bytes > self.cache_bytes:
                    self._sat_bytes -= _nbytes(self._sat_in.pop(next(iter(self._sat_in))))
        return got

    def _saturated_in(
        self, scope_id: ScopeId, scope: Mask, names: tuple[str, ...], forms: Forms
    ) -> FieldsSat:
        if len(forms) != 1:  # forms merged field by field
            parts = [self.saturated(scope_id, scope, f, forms) for f in names]
            return (
                np.concatenate([d for d, _s in parts]),
                np.concatenate([s for _d, s in parts]),
                tuple(len(d) for d, _s in parts),
            )
        # one form: the lists of every field cut to the scope at once, each value computed as
        # `saturated` computes it (the same operations on the same numbers, element by element)
        ((form, factor),) = forms
        post = self.postings
        spans = [self.cut(scope_id, scope, post.span(f, form)) for f in names]
        raw = np.concatenate([post.docs[a:b] for a, b in spans])
        keep = scope[raw]
        docs = raw[keep].astype(np.int32)
        rows = np.array([post.rows[f] for f in names]).repeat([b - a for a, b in spans])[keep]
        per_row = np.bincount(rows, minlength=len(post.rows))
        counts = tuple(per_row[[post.rows[f] for f in names]].tolist())
        tf = factor * np.concatenate([post.freqs[a:b] for a, b in spans])[keep].astype(np.float64)
        avgs = np.array([self.avg(scope_id, scope, f) for f in names])
        avg = avgs[np.arange(len(names)).repeat(counts)]
        lengths = post.table[rows, docs]
        return docs, _saturate(tf, lengths, avg), counts

    def saturated(self, scope_id: ScopeId, scope: Mask, field: str, forms: Forms) -> Sat:
        """(documents, BM25's saturated term frequency of a term, all its forms, in a field)."""
        docs, tf = self.merged(scope_id, scope, field, forms)
        avg = self.avg(scope_id, scope, field)
        lengths = self.postings.lengths[field][docs]
        return docs, _saturate(tf, lengths, avg)


def _idf(n_docs: int, df: int) -> float:
    """BM25's weight of a term that `df` of `n_docs` documents hold."""
    return math.log(1 + (n_docs - df + 0.5) / (df + 0.5))


def _saturate(tf: FloatArray, lengths: npt.NDArray[Any], avg: float | FloatArray) -> FloatArray:
    """BM25's saturated term frequency, for fields of these lengths (their average `avg`, one
    or per value)."""
    out: FloatArray = tf * (K1 + 1) / (tf + K1 * (1 - B + B * lengths / avg))
    return out


def _bound_of(into: Scored, docs: IntArray) -> int:
    """One past the highest document of two sets (`docs` not empty)."""
    return max(int(into.docs.max()) if len(into.docs) else 0, int(docs.max())) + 1


def _nbytes(sat: FieldsSat) -> int:
    return max(1, sat[0].nbytes + sat[1].nbytes)
