"""The index's postings as flat arrays, written beside the Whoosh index when it is built.

A cold query reads a few dozen posting lists for one version. Whoosh hands them out block by
block through Python objects and the scorer then cut them down to the version in dictionaries
(about 2 ms of a 4 ms query). Here a field's postings lie in one array, so a term is a slice,
a version is a mask over it and the BM25 arithmetic runs over arrays. The arrays are read back
from the committed Whoosh index, so they hold exactly what Whoosh holds (its term frequencies
and its quantised field lengths).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

# Every indexed (not stored) field of crkb/search/index.py's schema.
FIELDS = (
    "body",
    "etitle",
    "ex",
    "ctx",
    "quoted",
    "asked",
    "zw",
    "zt",
    "zex",
    "zctx",
    "zbi",
    "zquoted",
    "zasked",
)
DOCS = "postings-docs.npy"  # document numbers, field by field, term by term (ascending)
FREQS = "postings-freqs.npy"  # the term frequency of each of them
LENGTHS = "postings-lengths.npy"  # (fields, documents), uint16 or int32: each field's length
TERMS = "postings-terms.json"  # field → [terms in order, offsets of their first posting + end]

IntArray = npt.NDArray[np.int32]
FloatArray = npt.NDArray[np.float64]
EMPTY_DOCS: IntArray = np.zeros(0, dtype=np.int32)
EMPTY_FREQS: FloatArray = np.zeros(0, dtype=np.float64)


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


def write(index_dir: Path) -> None:
    """Write the arrays of the Whoosh index committed in `index_dir` into the same folder."""
    from whoosh.filedb.filestore import FileStorage

    ix = FileStorage(str(index_dir)).open_index()
    with ix.reader() as reader:
        n = reader.doc_count_all()
        docs: list[int] = []
        freqs: list[float] = []
        table: dict[str, list[list[Any]]] = {}
        for field in FIELDS:
            terms: list[str] = []
            starts = [len(docs)]
            for term in reader.field_terms(field):
                ids, weights = read_postings(reader, field, term)
                terms.append(term)
                docs.extend(ids)
                freqs.extend(weights)
                starts.append(len(docs))
            table[field] = [terms, starts]
        lengths = np.array(
            [[reader.doc_field_length(d, f, 0) or 0 for d in range(n)] for f in FIELDS],
            dtype=np.int32,
        ).reshape(len(FIELDS), n)
    np.save(index_dir / DOCS, np.array(docs, dtype=np.uint16 if n <= 1 << 16 else np.int32))
    np.save(index_dir / FREQS, _compact(np.array(freqs, dtype=np.float32)))
    np.save(index_dir / LENGTHS, _compact_lengths(lengths))
    (index_dir / TERMS).write_text(json.dumps(table, ensure_ascii=False), encoding="utf-8")


def _compact_lengths(lengths: npt.NDArray[np.int32]) -> npt.NDArray[Any]:
    """The field lengths in two bytes each when they fit (they do: a rule is not 65,536 words
    long), which every worker holds whole."""
    if not lengths.size or (int(lengths.min()) >= 0 and int(lengths.max()) < 1 << 16):
        return lengths.astype(np.uint16)
    return lengths


def _compact(freqs: npt.NDArray[np.float32]) -> npt.NDArray[Any]:
    """The frequencies in the smallest type that holds them exactly (counts: a byte each)."""
    for kind in (np.uint8, np.uint16):
        if not len(freqs) or (
            float(freqs.min()) >= 0
            and float(freqs.max()) <= np.iinfo(kind).max
            and bool((freqs == np.floor(freqs)).all())
        ):
            return freqs.astype(kind)
    return freqs


@dataclass
class Postings:
    """The arrays of one index, read whole (a worker touches most of them within minutes)."""

    docs: npt.NDArray[Any]  # uint16 or int32
    freqs: npt.NDArray[Any]  # uint8, uint16 or float32
    lengths: dict[str, npt.NDArray[Any]]  # uint16 or int32
    terms: dict[str, dict[str, int]]  # field → term → its place in `starts`
    starts: npt.NDArray[np.int64]  # where each term's postings start, and where the last ends
    table: npt.NDArray[Any]  # the field lengths, a row per field (`lengths` are its rows)
    rows: dict[str, int]  # field → its row

    @property
    def count(self) -> int:
        """How many documents the index holds."""
        return int(next(iter(self.lengths.values())).shape[0]) if self.lengths else 0

    def postings(self, field: str, term: str) -> tuple[IntArray, FloatArray]:
        """(document numbers, term frequencies) of a term in a field, of every version."""
        i = self.terms.get(field, {}).get(term)
        if i is None:
            return EMPTY_DOCS, EMPTY_FREQS
        a, b = self.starts[i : i + 2].tolist()
        return self.docs[a:b].astype(np.int32), self.freqs[a:b].astype(np.float64)

    def span(self, field: str, term: str) -> tuple[int, int]:
        """Where a term's postings in a field lie in `docs` and `freqs` (empty: a, a)."""
        i = self.terms.get(field, {}).get(term)
        if i is None:
            return 0, 0
        a, b = self.starts[i : i + 2].tolist()
        return a, b

    def frequency(self, field: str, term: str) -> int:
        """In how many documents (of every version) a term occurs."""
        i = self.terms.get(field, {}).get(term)
        return 0 if i is None else int(self.starts[i + 1] - self.starts[i])


def read(index_dir: Path, n_docs: int) -> Postings:
    """The arrays written by `write`; ValueError when they do not fit each other or the index."""
    docs = np.load(index_dir / DOCS, allow_pickle=False)
    freqs = np.load(index_dir / FREQS, allow_pickle=False)
    lengths = np.load(index_dir / LENGTHS, allow_pickle=False)
    table = json.loads((index_dir / TERMS).read_text(encoding="utf-8"))
    if (
        docs.dtype not in (np.uint16, np.int32)
        or freqs.dtype not in (np.uint8, np.uint16, np.float32)
        or docs.shape != freqs.shape
    ):
        raise ValueError(f"{DOCS} and {FREQS} do not match")
    if lengths.dtype not in (np.uint16, np.int32) or lengths.shape != (len(FIELDS), n_docs):
        raise ValueError(f"{LENGTHS} does not match the index's {n_docs} documents")
    if len(docs) and (int(docs.min()) < 0 or int(docs.max()) >= n_docs):
        raise ValueError(f"{DOCS} names documents the index does not hold")
    terms: dict[str, dict[str, int]] = {}
    starts: list[int] = []  # every term's first posting, field after field, then the end
    end = 0
    for field in FIELDS:
        names, offsets = table[field]
        if len(offsets) != len(names) + 1 or offsets[0] != end:
            raise ValueError(f"{TERMS}: the offsets of {field} do not follow on")
        terms[field] = {t: len(starts) + i for i, t in enumerate(names)}
        starts.extend(offsets[:-1])
        end = offsets[-1]
    starts.append(end)
    bounds = np.array(starts, dtype=np.int64)
    if end != len(docs) or (np.diff(bounds) < 0).any():
        raise ValueError(f"{TERMS}: offsets out of order")
    rows = {f: i for i, f in enumerate(FIELDS)}
    return Postings(
        docs, freqs, {f: lengths[i] for f, i in rows.items()}, terms, bounds, lengths, rows
    )
